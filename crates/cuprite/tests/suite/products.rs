//! Matrix products (`matmul`, `dot`, `vdot`, `inner`, `outer`, `tensordot`, `einsum`) on every
//! backend, against NumPy fixtures from `scripts/fixtures/products.py` and against a plain
//! triple loop written here (an independent reference for the large integer products).
//!
//! Tolerances (NumPy's `allclose` rule `|a - d| <= atol + rtol * |d|`): f32 and c64
//! rtol = atol = 1e-5; f64 and c128 rtol = atol = 1e-12; integers exact (compared as
//! integers, wrapping on overflow as NumPy does). Inputs are O(1) and sums have at most a
//! few hundred terms; the large float cases use dyadic inputs whose products are exact.

use crate::common;

use common::fixture_vec;
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::Scalar;

const TOPIC: &str = "products";

fn fx<E: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<E, B> {
    common::fixture(dev, TOPIC, name)
}

fn tol<E: Element>() -> (f64, f64) {
    match E::DTYPE {
        DType::F32 | DType::C64 => (1e-5, 1e-5),
        DType::F64 | DType::C128 => (1e-12, 1e-12),
        _ => (0.0, 0.0),
    }
}

fn expect_vec<E: Numeric>(got: Vec<E>, shape: &[usize], name: &str) {
    let (want, want_shape) = fixture_vec::<E>(TOPIC, name);
    assert_eq!(shape, &want_shape[..], "{name}: shape");
    if E::DTYPE.is_integer() {
        assert_eq!(got, want, "{name}");
    } else {
        let (r, a) = tol::<E>();
        check_allclose_slices(&got, &want, shape, r, a).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Compares an array with fixture case `name` (exact for integers).
fn expect<E: Numeric, B: ArrayBackend>(actual: &Array<E, B>, name: &str) {
    expect_vec(actual.to_vec().unwrap(), actual.shape(), name);
}

fn err_msg<E: Element, B: ArrayBackend>(r: Result<Array<E, B>>) -> String {
    match r {
        Ok(a) => panic!("expected an error, got an array of shape {:?}", a.shape()),
        Err(e) => e.to_string(),
    }
}

/// `((i * p + q) % r - s) / div` in C order (complex: imaginary part with p and q swapped),
/// the same values as `formula` in `scripts/fixtures/products.py`.
fn formula<E: Element, B: ArrayBackend>(
    dev: &B,
    shape: &[usize],
    (p, q, r, s): (i64, i64, i64, i64),
    div: f64,
) -> Array<E, B> {
    let n: usize = shape.iter().product();
    let v = |i: i64, p: i64, q: i64| (i * p + q) % r - s;
    let data = (0..n as i64)
        .map(|i| match E::DTYPE {
            DType::C64 | DType::C128 => E::from_scalar(Scalar::C128(c128::new(
                v(i, p, q) as f64 / div,
                v(i, q, p) as f64 / div,
            ))),
            DType::F32 | DType::F64 => E::from_scalar(Scalar::F64(v(i, p, q) as f64 / div)),
            _ => E::from_scalar(Scalar::I64(v(i, p, q))),
        })
        .collect();
    Array::from_vec(data, shape, dev).unwrap()
}

/// Plain triple loop over host data (wrapping arithmetic through `Numeric`).
fn naive<E: Numeric>(a: &[E], b: &[E], m: usize, k: usize, n: usize) -> Vec<E> {
    let mut c = vec![E::ZERO; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = E::ZERO;
            for p in 0..k {
                s = s.add(a[i * k + p].mul(b[p * n + j]));
            }
            c[i * n + j] = s;
        }
    }
    c
}

// ---- matmul ---------------------------------------------------------------------------------

/// Plain, transposed, strided and reversed operands; 1-d promotion on either side.
fn matmul_case<E: Numeric, B: ArrayBackend>(dev: &B, dt: &str) {
    let a = fx::<E, B>(dev, &format!("mm_{dt}_a"));
    let b = fx::<E, B>(dev, &format!("mm_{dt}_b"));
    expect(&a.matmul(&b).unwrap(), &format!("mm_{dt}_out"));
    let at = fx::<E, B>(dev, &format!("mm_{dt}_aT")).t();
    assert!(!at.is_contiguous());
    expect(&at.matmul(&b).unwrap(), &format!("mm_{dt}_out"));
    let big = fx::<E, B>(dev, &format!("mm_{dt}_bbig"));
    let strided = big.slice(&s![..;2, ..;2]).unwrap();
    expect(&a.matmul(&strided).unwrap(), &format!("mm_{dt}_strided"));
    let reversed = big.slice(&s![..;-2, ..;-2]).unwrap();
    expect(&a.matmul(&reversed).unwrap(), &format!("mm_{dt}_reversed"));
    expect(&at.matmul(&reversed).unwrap(), &format!("mm_{dt}_reversed"));
    let v = fx::<E, B>(dev, &format!("mm1_{dt}_v"));
    let w = fx::<E, B>(dev, &format!("mm1_{dt}_w"));
    expect(&v.matmul(&b).unwrap(), &format!("mm1_{dt}_vb"));
    expect(&a.matmul(&v).unwrap(), &format!("mm1_{dt}_av"));
    expect(&at.matmul(&v).unwrap(), &format!("mm1_{dt}_av"));
    let vv = v.matmul(&v).unwrap();
    assert_eq!(vv.ndim(), 0);
    expect(&vv, &format!("mm1_{dt}_vv"));
    expect(&w.matmul(&a).unwrap(), &format!("mm1_{dt}_wa"));
    // A broadcast operand (zero row stride): every row of the product is v @ b.
    let vs = v.broadcast_to(&[4, 7]).unwrap();
    let rows = vs.matmul(&b).unwrap();
    let (want, _) = fixture_vec::<E>(TOPIC, &format!("mm1_{dt}_vb"));
    expect_vec(
        rows.to_vec().unwrap()[9..].to_vec(),
        &[3],
        &format!("mm1_{dt}_vb"),
    );
    assert_eq!(rows.shape(), &[4, 3]);
    assert_eq!(rows.to_vec().unwrap().len(), 4 * want.len());
}

fn matmul_f32<B: ArrayBackend>(dev: &B) {
    matmul_case::<f32, B>(dev, "f32");
}
fn matmul_f64<B: ArrayBackend>(dev: &B) {
    matmul_case::<f64, B>(dev, "f64");
}
fn matmul_c64<B: ArrayBackend>(dev: &B) {
    matmul_case::<c64, B>(dev, "c64");
}
fn matmul_c128<B: ArrayBackend>(dev: &B) {
    matmul_case::<c128, B>(dev, "c128");
}
fn matmul_i32<B: ArrayBackend>(dev: &B) {
    matmul_case::<i32, B>(dev, "i32");
}
fn matmul_i64<B: ArrayBackend>(dev: &B) {
    matmul_case::<i64, B>(dev, "i64");
}
fn matmul_u8<B: ArrayBackend>(dev: &B) {
    matmul_case::<u8, B>(dev, "u8");
}

fn matmul_batch_broadcast<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "bat_f64_a");
    let b = fx::<f64, B>(dev, "bat_f64_b");
    let out = a.matmul(&b).unwrap();
    assert_eq!(out.shape(), &[2, 3, 4, 6]);
    expect(&out, "bat_f64_out");
    let v = fx::<f64, B>(dev, "bat_f64_v");
    expect(&v.matmul(&b).unwrap(), "bat_f64_vb");
    expect(&a.matmul(&v).unwrap(), "bat_f64_av");
    let a = fx::<i32, B>(dev, "bat_i32_a");
    let b = fx::<i32, B>(dev, "bat_i32_b");
    expect(&a.matmul(&b).unwrap(), "bat_i32_out");
    // A stack against one matrix, the stack given as a transposed view of its storage.
    let a = fx::<c128, B>(dev, "bat_c128_a");
    let b = fx::<c128, B>(dev, "bat_c128_b");
    let a_t = a.copy().unwrap().permute_dims(&[2, 1, 0]).unwrap();
    let a_view = a_t.copy().unwrap().permute_dims(&[2, 1, 0]).unwrap();
    assert!(!a_view.is_contiguous());
    expect(&a_view.matmul(&b).unwrap(), "bat_c128_out");
}

fn matmul_many_small_products<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "many_f64_a");
    let b = fx::<f64, B>(dev, "many_f64_b");
    expect(&a.matmul(&b).unwrap(), "many_f64_out");
    let a = fx::<i64, B>(dev, "many_i64_a");
    let b = fx::<i64, B>(dev, "many_i64_b");
    expect(&a.matmul(&b).unwrap(), "many_i64_out");
}

fn matmul_nan_inf<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "nan_f64_a");
    let b = fx::<f64, B>(dev, "nan_f64_b");
    expect(&a.matmul(&b).unwrap(), "nan_f64_out");
    // inf * 0 is NaN: no shortcut may skip a zero operand.
    let z = Array::<f64, B>::zeros(&[3, 2], dev).unwrap();
    let inf = Array::<f64, B>::full(&[2, 2], f64::INFINITY, dev).unwrap();
    assert!(z
        .matmul(&inf)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|x| x.is_nan()));
}

/// Large products from formulas (the blocked/threaded kernels and the parallel paths, sizes
/// that do not divide the block sizes), compared on the sub-sample NumPy stored.
fn large_float<E: Numeric, B: ArrayBackend>(dev: &B, dt: &str, (m, k, n): (usize, usize, usize)) {
    let a = formula::<E, B>(dev, &[m, k], (37, 11, 101, 50), 16.0);
    let b = formula::<E, B>(dev, &[k, n], (53, 7, 97, 48), 16.0);
    let c = a.matmul(&b).unwrap();
    assert_eq!(c.shape(), &[m, n]);
    expect(&c.slice(&s![..;3, ..;3]).unwrap(), &format!("big_{dt}_out"));
    // The same product through transposed storage of both operands.
    let at = a.t().copy().unwrap();
    let bt = b.t().copy().unwrap();
    let c2 = at.t().matmul(&bt.t()).unwrap();
    expect(
        &c2.slice(&s![..;3, ..;3]).unwrap(),
        &format!("big_{dt}_out"),
    );
}

fn matmul_large_f64<B: ArrayBackend>(dev: &B) {
    large_float::<f64, B>(dev, "f64", (190, 160, 180));
}
fn matmul_large_f32<B: ArrayBackend>(dev: &B) {
    large_float::<f32, B>(dev, "f32", (190, 160, 180));
}
fn matmul_large_complex<B: ArrayBackend>(dev: &B) {
    large_float::<c64, B>(dev, "c64", (40, 50, 60));
    large_float::<c128, B>(dev, "c128", (40, 50, 60));
}

fn large_int<E: Numeric, B: ArrayBackend>(dev: &B, dt: &str, r: i64) {
    let s = if E::DTYPE == DType::U8 { 0 } else { r / 2 };
    let a = formula::<E, B>(dev, &[70, 300], (7919, 13, r, s), 1.0);
    let b = formula::<E, B>(dev, &[300, 530], (104729, 5, r, s), 1.0);
    let c = a.matmul(&b).unwrap();
    expect(
        &c.slice(&s![..;7, ..;11]).unwrap(),
        &format!("big_{dt}_out"),
    );
    assert_eq!(
        c.to_vec().unwrap(),
        naive(&a.to_vec().unwrap(), &b.to_vec().unwrap(), 70, 300, 530),
        "big_{dt}: full product against the triple loop"
    );
    let tn = a
        .slice(&s![..;-1, ..;2])
        .unwrap()
        .matmul(&b.slice(&s![..;2, ..;-1]).unwrap())
        .unwrap();
    expect(
        &tn.slice(&s![..;7, ..;11]).unwrap(),
        &format!("big_{dt}_tn"),
    );
    let col = b.slice(&s![.., 7]).unwrap();
    expect(&a.matmul(&col).unwrap(), &format!("big_{dt}_gemv"));
    let row = a.slice(&s![3, ..]).unwrap();
    let vm = row.matmul(&b).unwrap();
    expect(&vm.slice(&s![..;5]).unwrap(), &format!("big_{dt}_vecmat"));
}

fn matmul_large_i32<B: ArrayBackend>(dev: &B) {
    large_int::<i32, B>(dev, "i32", 1 << 20);
}
fn matmul_large_i64<B: ArrayBackend>(dev: &B) {
    large_int::<i64, B>(dev, "i64", 1 << 40);
}
fn matmul_large_u8<B: ArrayBackend>(dev: &B) {
    large_int::<u8, B>(dev, "u8", 256);
}

fn matmul_empty_dimensions<B: ArrayBackend>(dev: &B) {
    let z = |shape: &[usize]| Array::<f64, B>::ones(shape, dev).unwrap();
    let r = z(&[0, 3]).matmul(&z(&[3, 4])).unwrap();
    assert_eq!(r.shape(), &[0, 4]);
    let r = z(&[3, 0]).matmul(&z(&[0, 4])).unwrap();
    expect(&r, "empty_mk");
    let r = z(&[2, 3]).matmul(&z(&[3, 0])).unwrap();
    assert_eq!(r.shape(), &[2, 0]);
    let r = z(&[0, 2, 3]).matmul(&z(&[3, 4])).unwrap();
    assert_eq!(r.shape(), &[0, 2, 4]);
    let r = z(&[0]).matmul(&z(&[0])).unwrap();
    assert_eq!((r.ndim(), r.item().unwrap()), (0, 0.0));
    let zi = Array::<i32, B>::ones(&[4, 0], dev).unwrap();
    let r = zi.matmul(&zi.t()).unwrap();
    assert_eq!(r.to_vec().unwrap(), vec![0; 16]);
    let r = zi.t().dot(&zi).unwrap();
    assert_eq!(r.shape(), &[0, 0]);
}

fn matmul_errors<B: ArrayBackend>(dev: &B) {
    let m = |shape: &[usize]| Array::<f64, B>::ones(shape, dev).unwrap();
    assert_eq!(
        err_msg(m(&[2, 3]).matmul(&m(&[4, 5]))),
        "matmul: shape mismatch: [2, 3] vs [4, 5]"
    );
    assert_eq!(
        err_msg(m(&[3]).matmul(&m(&[4]))),
        "matmul: shape mismatch: [3] vs [4]"
    );
    assert_eq!(
        err_msg(m(&[]).matmul(&m(&[2]))),
        "matmul: operands must be at least 1-d, got shapes [] and [2] (use `*` to multiply \
         by a scalar)"
    );
    assert!(matches!(
        m(&[2, 2]).matmul(&m(&[])),
        Err(Error::InvalidArgument { op: "matmul", .. })
    ));
    assert_eq!(
        err_msg(m(&[2, 3, 4]).matmul(&m(&[5, 4, 2]))),
        "matmul: operands could not be broadcast together with shapes [2, 3, 4] and [5, 4, 2]"
    );
}

// ---- dot, vdot, inner, outer ----------------------------------------------------------------

fn dot_semantics<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, &format!("dot_f64_{n}"));
    let (a, b, m, v) = (f("a"), f("b"), f("m"), f("v"));
    expect(&a.dot(&b).unwrap(), "dot_f64_ab");
    expect(&m.dot(&v).unwrap(), "dot_f64_mv");
    expect(&v.dot(&m.t()).unwrap(), "dot_f64_vm");
    expect(&v.dot(&v).unwrap(), "dot_f64_vv");
    expect(&a.dot(&v).unwrap(), "dot_f64_av");
    expect(&f("s").dot(&m).unwrap(), "dot_f64_sm");
    expect(&m.dot(&f("s")).unwrap(), "dot_f64_sm");
    expect(&m.t().dot(&m).unwrap(), "dot_f64_mtm");
    let a = fx::<i32, B>(dev, "dot_i32_a");
    expect(&a.dot(&fx(dev, "dot_i32_b")).unwrap(), "dot_i32_ab");
    let a = fx::<c64, B>(dev, "dot_c64_a");
    expect(&a.dot(&fx(dev, "dot_c64_b")).unwrap(), "dot_c64_ab");
    assert_eq!(
        err_msg(m.dot(&m)),
        "dot: shapes [3, 4] and [3, 4] not aligned: 4 (dim 1) != 3 (dim 0)"
    );
    assert_eq!(
        err_msg(v.dot(&a_f64(dev, &[3]))),
        "dot: shapes [4] and [3] not aligned: 4 (dim 0) != 3 (dim 0)"
    );
}

fn a_f64<B: ArrayBackend>(dev: &B, shape: &[usize]) -> Array<f64, B> {
    Array::ones(shape, dev).unwrap()
}

fn vdot_case<E: Numeric, B: ArrayBackend>(dev: &B, dt: &str) {
    let a = fx::<E, B>(dev, &format!("vdot_{dt}_a"));
    let b = fx::<E, B>(dev, &format!("vdot_{dt}_b"));
    let r = a.vdot(&b).unwrap();
    assert_eq!(r.ndim(), 0);
    expect(&r, &format!("vdot_{dt}_out"));
    expect(&a.t().vdot(&b).unwrap(), &format!("vdot_{dt}_at"));
    assert_eq!(
        err_msg(a.vdot(&b.slice(&s![1..]).unwrap())),
        "vdot: shape mismatch: [3, 4] vs [11]"
    );
}

fn vdot_complex<B: ArrayBackend>(dev: &B) {
    vdot_case::<c128, B>(dev, "c128");
    vdot_case::<c64, B>(dev, "c64");
}
fn vdot_real_and_integer<B: ArrayBackend>(dev: &B) {
    vdot_case::<f64, B>(dev, "f64");
    vdot_case::<i32, B>(dev, "i32");
    vdot_case::<u8, B>(dev, "u8");
}

fn inner_and_outer<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "inner_f64_a");
    let b = fx::<f64, B>(dev, "inner_f64_b");
    expect(&a.inner(&b).unwrap(), "inner_f64_out");
    let b0 = b.slice(&s![0]).unwrap();
    let b1 = b.slice(&s![1]).unwrap();
    expect(&b0.inner(&b1).unwrap(), "inner_f64_vv");
    assert_eq!(
        err_msg(a.inner(&a_f64(dev, &[4, 3]))),
        "inner: shapes [2, 3, 4] and [4, 3] not aligned: 4 (dim 2) != 3 (dim 1)"
    );
    let a = fx::<c128, B>(dev, "inner_c128_a");
    expect(
        &a.inner(&fx(dev, "inner_c128_b")).unwrap(),
        "inner_c128_out",
    );
    let a = fx::<i64, B>(dev, "outer_i64_a");
    expect(&a.outer(&fx(dev, "outer_i64_b")).unwrap(), "outer_i64_out");
    let a = fx::<u8, B>(dev, "outer_u8_a");
    expect(&a.outer(&fx(dev, "outer_u8_b")).unwrap(), "outer_u8_out");
    let a = fx::<f32, B>(dev, "outer_f32_a");
    let b = fx::<f32, B>(dev, "outer_f32_b").t();
    let (want, _) = fixture_vec::<f32>(TOPIC, "outer_f32_out");
    let got = a.outer(&b).unwrap();
    assert_eq!(got.shape(), &[3, 4]);
    // outer flattens in C order, so the transposed operand gives permuted columns.
    let got = got.to_vec().unwrap();
    for i in 0..3 {
        for (j, &jj) in [0, 2, 1, 3].iter().enumerate() {
            assert_eq!(got[i * 4 + j], want[i * 4 + jj]);
        }
    }
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.outer(&a_f64(dev, &[3])).unwrap().shape(), &[0, 3]);
}

// ---- tensordot ------------------------------------------------------------------------------

fn tensordot_axes<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "td_f64_a");
    let b = fx::<f64, B>(dev, "td_f64_b");
    expect(&a.tensordot(&b, ([1, 0], [0, 1])).unwrap(), "td_f64_pairs");
    expect(&a.tensordot(&b, (vec![-2], vec![0])).unwrap(), "td_f64_neg");
    let a00 = a.slice(&s![0, 0]).unwrap();
    let b00 = b.slice(&s![0, 0]).unwrap();
    expect(&a00.tensordot(&b00, 0).unwrap(), "td_f64_zero");
    let a = fx::<i32, B>(dev, "td_i32_a");
    let b = fx::<i32, B>(dev, "td_i32_b");
    expect(&a.tensordot(&b, 2).unwrap(), "td_i32_two");
    let bp = b.permute_dims(&[1, 0, 2]).unwrap();
    expect(&a.tensordot(&bp, 1usize).unwrap(), "td_i32_one");
    let a = fx::<c64, B>(dev, "td_c64_a");
    let b = fx::<c64, B>(dev, "td_c64_b");
    expect(&a.tensordot(&b, ([0, 1], [1, 0])).unwrap(), "td_c64_out");
}

fn tensordot_errors<B: ArrayBackend>(dev: &B) {
    let a = a_f64(dev, &[2, 3, 4]);
    let b = a_f64(dev, &[3, 4, 5]);
    assert_eq!(
        err_msg(a.tensordot(&b, 4)),
        "tensordot: cannot sum over 4 axes of arrays of shapes [2, 3, 4] and [3, 4, 5]"
    );
    assert!(a.tensordot(&b, -1).is_err());
    assert_eq!(
        err_msg(a.tensordot(&b, 1)),
        "tensordot: shapes [2, 3, 4] and [3, 4, 5] not aligned: 4 (dim 2) != 3 (dim 0)"
    );
    assert_eq!(
        err_msg(a.tensordot(&b, (vec![1, 2], vec![0]))),
        "tensordot: axis lists [1, 2] and [0] differ in length"
    );
    assert_eq!(
        err_msg(a.tensordot(&b, ([1, 1], [0, 1]))),
        "tensordot: repeated axis 1 in [1, 1]"
    );
    assert_eq!(
        err_msg(a.tensordot(&b, ([3], [0]))),
        "tensordot: axis 3 is out of bounds for an array of dimension 3"
    );
}

// ---- einsum ---------------------------------------------------------------------------------

fn einsum_two_operand_forms<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, &format!("es_f64_{n}"));
    let (x, y, u, w, p, q) = (f("x"), f("y"), f("u"), f("w"), f("p"), f("q"));
    let es = |s: &str, ops: &[&Array<f64, B>]| Array::einsum(s, ops).unwrap();
    expect(&es("ij,jk->ik", &[&x, &y]), "es_f64_mm");
    expect(&es("ij,jk", &[&x, &y]), "es_f64_mm_implicit");
    expect(&es(" ij , jk -> ik ", &[&x, &y]), "es_f64_mm");
    expect(&es("bij,bjk->bik", &[&p, &q]), "es_f64_bmm");
    expect(&es("i,i", &[&u, &u]), "es_f64_dotv");
    expect(&es("i,j->ij", &[&u, &w]), "es_f64_outer");
    expect(&es("ij,ij->ij", &[&x, &x]), "es_f64_hadamard");
    expect(&es("ji,jk->ik", &[&x, &x]), "es_f64_xty");
    expect(&es("ij,jk->i", &[&x, &y]), "es_f64_summed_out");
    // Transposed and reversed views as operands.
    let xt = x.t().copy().unwrap();
    expect(&es("ji,jk->ik", &[&xt, &y]), "es_f64_mm");
    let yr = y.slice(&s![..;-1, ..]).unwrap();
    let xr = x.slice(&s![.., ..;-1]).unwrap();
    expect(&es("ij,jk->ik", &[&xr, &yr]), "es_f64_mm");
}

fn einsum_single_operand_forms<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, &format!("es_f64_{n}"));
    let (x, sq) = (f("x"), f("sq"));
    let es = |s: &str, ops: &[&Array<f64, B>]| Array::einsum(s, ops).unwrap();
    expect(&es("ii->i", &[&sq]), "es_f64_diag");
    let tr = es("ii", &[&sq]);
    assert_eq!(tr.ndim(), 0);
    expect(&tr, "es_f64_trace");
    expect(&es("ij->ji", &[&x]), "es_f64_tr");
    expect(&es("ij->", &[&x]), "es_f64_total");
    expect(&es("ij->i", &[&x]), "es_f64_rows");
    expect(&es("ba", &[&x]), "es_f64_implicit_order");
    let d = fx::<f64, B>(dev, "esdiag_f64_a");
    expect(&es("bii->bi", &[&d]), "esdiag_f64_bii");
    expect(&es("bii->b", &[&d]), "esdiag_f64_btr");
    expect(
        &es("iij->j", &[&fx(dev, "esdiag_f64_iijsrc")]),
        "esdiag_f64_iij",
    );
}

fn einsum_three_operands_and_ellipsis<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, &format!("es_f64_{n}"));
    let (x, y, z, u) = (f("x"), f("y"), f("z"), f("u"));
    let es = |s: &str, ops: &[&Array<f64, B>]| Array::einsum(s, ops).unwrap();
    expect(&es("ij,jk,kl->il", &[&x, &y, &z]), "es_f64_chain");
    expect(&es("i,i,i->", &[&u, &u, &u]), "es_f64_triple");
    let (a, b) = (
        fx::<f64, B>(dev, "es3_f64_a"),
        fx::<f64, B>(dev, "es3_f64_b"),
    );
    expect(&es("ijk,jil->kl", &[&a, &b]), "es3_f64_out");
    expect(&es("ijk,jil->ijkl", &[&a, &b]), "es3_f64_keep");
    let (a, b) = (
        fx::<f64, B>(dev, "esell_f64_a"),
        fx::<f64, B>(dev, "esell_f64_b"),
    );
    let out = es("...ij,...jk->...ik", &[&a, &b]);
    assert_eq!(out.shape(), &[2, 5, 3, 2]);
    expect(&out, "esell_f64_out");
    expect(&es("...ij,...jk", &[&a, &b]), "esell_f64_implicit");
    expect(&es("i...j->j...i", &[&a]), "esell_f64_mid");
    expect(&es("...i,...i->...", &[&a, &a]), "esell_f64_sum_ell");
    // Length-1 axes broadcast against the same label.
    let (c1, c2) = (
        fx::<f64, B>(dev, "esbc_f64_a"),
        fx::<f64, B>(dev, "esbc_f64_b"),
    );
    expect(&es("ij,jk->ik", &[&c1, &c2]), "esbc_f64_out");
}

fn einsum_other_dtypes<B: ArrayBackend>(dev: &B) {
    let (a, b) = (
        fx::<c128, B>(dev, "es_c128_a"),
        fx::<c128, B>(dev, "es_c128_b"),
    );
    expect(&Array::einsum("ij,jk", &[&a, &b]).unwrap(), "es_c128_out");
    expect(&Array::einsum("ij,ij", &[&a, &a]).unwrap(), "es_c128_tr");
    let (a, b) = (fx::<i32, B>(dev, "es_i32_a"), fx::<i32, B>(dev, "es_i32_b"));
    expect(
        &Array::einsum("ij,jk->ik", &[&a, &b]).unwrap(),
        "es_i32_out",
    );
    expect(&Array::einsum("ij->i", &[&a]).unwrap(), "es_i32_rows");
    let a = fx::<u8, B>(dev, "es_u8_a");
    expect(&Array::einsum("i,i", &[&a, &a]).unwrap(), "es_u8_out");
    let (a, b) = (fx::<f32, B>(dev, "es_f32_a"), fx::<f32, B>(dev, "es_f32_b"));
    expect(&Array::einsum("ij,ij->j", &[&a, &b]).unwrap(), "es_f32_out");
    // Empty label: the sum over it is zero.
    let e = Array::<i64, B>::ones(&[3, 0], dev).unwrap();
    let r = Array::einsum("ij,kj->ik", &[&e, &e]).unwrap();
    assert_eq!(r.to_vec().unwrap(), vec![0; 9]);
}

fn einsum_errors<B: ArrayBackend>(dev: &B) {
    let m = a_f64(dev, &[2, 3]);
    let n = a_f64(dev, &[4, 5]);
    let sq = a_f64(dev, &[3, 3]);
    let e = |s: &str, ops: &[&Array<f64, B>]| err_msg(Array::einsum(s, ops));
    assert_eq!(
        e("ij,jk->ik", &[&m]),
        "einsum: subscripts \"ij,jk->ik\" name 2 operand(s) but 1 were given"
    );
    assert_eq!(
        e("i$", &[&m]),
        "einsum: invalid subscript character '$' in operand 0 \"i$\" (only letters a-z, A-Z \
         and '...' are allowed)"
    );
    assert_eq!(
        e("i.j", &[&m]),
        "einsum: '.' that is not part of an ellipsis '...' in operand 0 \"i.j\""
    );
    assert_eq!(
        e("......", &[&m]),
        "einsum: more than one ellipsis '...' in operand 0 \"......\""
    );
    assert_eq!(
        e("ij->k", &[&m]),
        "einsum: output subscript 'k' does not appear in any input"
    );
    assert_eq!(
        e("ij->ii", &[&m]),
        "einsum: output subscript 'i' appears more than once"
    );
    assert_eq!(
        e("ijk", &[&m]),
        "einsum: subscripts \"ijk\" of operand 0 name 3 axes but the operand has shape [2, 3]"
    );
    assert_eq!(
        e("ij,jk", &[&m, &n]),
        "einsum: subscript 'j' has length 3 in operand 0 (shape [2, 3]) but 4 in operand 1 \
         (shape [4, 5])"
    );
    assert_eq!(
        e("ii", &[&m]),
        "einsum: operand 0 of shape [2, 3] repeats subscript 'i' over axes of different \
         lengths (2 != 3)"
    );
    assert_eq!(
        e("...i->i", &[&m]),
        "einsum: the operands have 1 '...' dimension(s) but the output \"i\" has no '...' to \
         hold them"
    );
    assert_eq!(
        e("ij->i->j", &[&m]),
        "einsum: malformed output arrow in subscripts \"ij->i->j\" (use one '->')"
    );
    assert_eq!(
        e("ij-i", &[&m]),
        "einsum: malformed output arrow in subscripts \"ij-i\" (use one '->')"
    );
    assert_eq!(e("ij", &[]), "einsum: at least one operand is required");
    assert!(Array::einsum(
        "...ij,...jk",
        &[&a_f64(dev, &[2, 2, 3]), &a_f64(dev, &[3, 3, 4])]
    )
    .is_err());
    assert!(Array::einsum("ii->i", &[&sq]).is_ok());
}

cuprite::test_backends!(
    matmul_f32,
    matmul_f64,
    matmul_c64,
    matmul_c128,
    matmul_i32,
    matmul_i64,
    matmul_u8,
    matmul_batch_broadcast,
    matmul_many_small_products,
    matmul_nan_inf,
    matmul_large_f64,
    matmul_large_f32,
    matmul_large_complex,
    matmul_large_i32,
    matmul_large_i64,
    matmul_large_u8,
    matmul_empty_dimensions,
    matmul_errors,
    dot_semantics,
    vdot_complex,
    vdot_real_and_integer,
    inner_and_outer,
    tensordot_axes,
    tensordot_errors,
    einsum_two_operand_forms,
    einsum_single_operand_forms,
    einsum_three_operands_and_ellipsis,
    einsum_other_dtypes,
    einsum_errors,
);
