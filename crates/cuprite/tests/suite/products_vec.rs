//! Vector and tensor products on every backend against NumPy fixtures
//! (`scripts/fixtures/products_extra.py`): `vecdot` (axis, broadcasting, transposed views,
//! complex conjugation), `matvec`, `vecmat`, `tensorinv`, `tensorsolve` (with `axes`,
//! complex), `einsum_path` (NumPy's greedy path and its report, byte for byte) and `einsum`
//! of three or more operands along that path; `shares_memory`/`may_share_memory` on views
//! (interleaved, reversed, transposed, broadcast, empty, copies); every error path.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "products_extra", name)
}

fn err_msg<V>(r: Result<V>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

fn gufuncs_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<T, B>(dev, n);
    let eq = |got: Result<Array<T, B>>, name: &str| assert_array_equal(&got.unwrap(), &f(name));
    let (x1, x2, v, w) = (f("x1"), f("x2"), f("v"), f("w"));
    eq(x1.vecdot(&x2, -1), "vecdot");
    eq(
        x1.slice(&s![0]).unwrap().t().vecdot(&x2.t(), 0),
        "vecdot_ax0",
    );
    eq(x2.t().vecdot(&f("x3"), 0), "vecdot_bc");
    eq(
        x1.permute_dims(&[0, 2, 1]).unwrap().vecdot(&x2.t(), -2),
        "vecdot_T",
    );
    eq(x1.matvec(&v), "matvec");
    eq(x2.matvec(&f("vb").expand_dims(1).unwrap()), "matvec_bc");
    eq(
        x1.slice(&s![.., ..;-1, ..;-1]).unwrap().matvec(&v),
        "matvec_rev",
    );
    eq(w.vecmat(&x1), "vecmat");
    eq(v.vecmat(&x1.permute_dims(&[0, 2, 1]).unwrap()), "vecmat_T");
}

fn gufuncs<B: ArrayBackend>(dev: &B) {
    gufuncs_for::<f64, B>(dev);
    gufuncs_for::<f32, B>(dev);
    gufuncs_for::<i64, B>(dev);
    gufuncs_for::<i32, B>(dev);
    gufuncs_for::<c128, B>(dev);
    gufuncs_for::<c64, B>(dev);
    // Complex: vecdot and vecmat conjugate the first operand, matvec does not.
    let f = |n: &str| fx::<c128, B>(dev, n);
    let (x1c, x2c) = (f("x1c"), f("x2c"));
    assert_array_equal(&x1c.vecdot(&x2c, -1).unwrap(), &f("vecdot_c"));
    let row = x2c.slice(&s![0]).unwrap();
    assert_array_equal(&x1c.matvec(&row).unwrap(), &f("matvec_c"));
    let vc = x1c.slice(&s![0, .., 0]).unwrap();
    assert_array_equal(&vc.vecmat(&x1c).unwrap(), &f("vecmat_c"));
    let c64s = fx::<c64, B>(dev, "x1c");
    assert_allclose(
        &c64s.vecdot(&fx::<c64, B>(dev, "x2c"), -1).unwrap(),
        &fx::<c64, B>(dev, "vecdot_c"),
        1e-6,
        0.0,
    );
    // Empty core dimension: sums of nothing are zero.
    let e = Array::<f64, B>::zeros(&[3, 0], dev).unwrap();
    assert_array_equal(
        &e.vecdot(&e, -1).unwrap(),
        &Array::zeros(&[3], dev).unwrap(),
    );
    assert_eq!(
        e.matvec(&Array::zeros(&[0], dev).unwrap()).unwrap().shape(),
        &[3]
    );
}

fn gufunc_errors<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, n);
    let (x1, x2, v) = (f("x1"), f("x2"), f("v"));
    let s0 = Array::<f64, B>::ones(&[], dev).unwrap();
    assert_eq!(
        err_msg(s0.vecdot(&v, -1)),
        "vecdot: x1 must have at least one dimension, got a 0-d array"
    );
    assert!(err_msg(x1.vecdot(&x2, 3)).starts_with("vecdot"));
    assert_eq!(
        err_msg(x1.vecdot(&f("w"), -1)),
        "vecdot: the core dimensions differ (4 != 3) for shapes [2, 3, 4] and [3]"
    );
    assert!(err_msg(x1.vecdot(&Array::zeros(&[5, 4], dev).unwrap(), -1)).starts_with("vecdot"));
    assert!(err_msg(x1.matvec(&Array::zeros(&[5, 4], dev).unwrap())).starts_with("matvec"));
    assert!(
        err_msg(Array::<f64, B>::zeros(&[5, 3], dev).unwrap().vecmat(&x1)).starts_with("vecmat")
    );
    assert!(err_msg(v.matvec(&v)).starts_with("matvec: x1 needs at least 2 dimensions"));
    assert!(err_msg(x1.matvec(&f("w"))).starts_with("matvec: the core dimensions differ (4 != 3)"));
    assert!(err_msg(v.vecmat(&v))
        .starts_with("vecmat: x1 needs at least 1 dimension and x2 at least 2"));
    assert!(err_msg(v.vecmat(&x1)).starts_with("vecmat: the core dimensions differ (4 != 3)"));
}

fn tensor_inverses<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, n);
    let t = f("t");
    assert_allclose(&t.tensorinv(2).unwrap(), &f("tinv2"), 1e-10, 1e-12);
    let t1 = t.reshape(&[24, 8, 3]).unwrap();
    assert_allclose(&t1.tensorinv(1).unwrap(), &f("tinv1"), 1e-10, 1e-12);
    let t32 = fx::<f32, B>(dev, "t");
    assert_allclose(
        &t32.tensorinv(2).unwrap(),
        &fx::<f32, B>(dev, "tinv2"),
        1e-4,
        1e-5,
    );
    let (a, b) = (f("ts_a"), f("ts_b"));
    assert_allclose(&a.tensorsolve(&b, None).unwrap(), &f("ts_x"), 1e-10, 1e-12);
    let x2 = f("ts_a2").tensorsolve(&f("ts_b2"), Some(&[0])).unwrap();
    assert_allclose(&x2, &f("ts_x2"), 1e-10, 1e-12);
    let xc = fx::<c128, B>(dev, "ts_ac")
        .tensorsolve(&fx::<c128, B>(dev, "ts_b"), None)
        .unwrap();
    assert_allclose(&xc, &fx::<c128, B>(dev, "ts_xc"), 1e-10, 1e-12);
    // Transposed operand: solve the transposed system.
    let at = a
        .reshape(&[24, 24])
        .unwrap()
        .t()
        .reshape(&[6, 4, 2, 3, 4])
        .unwrap();
    let x = at.tensorsolve(&b, None).unwrap();
    let back = at
        .reshape(&[24, 24])
        .unwrap()
        .matmul(&x.reshape(&[24]).unwrap())
        .unwrap();
    assert_allclose(&back, &b.reshape(&[24]).unwrap(), 1e-10, 1e-10);
    // Errors.
    assert_eq!(
        err_msg(t.tensorinv(0)),
        "tensorinv: ind must be in 1..=4 for shape [4, 6, 8, 3], got 0"
    );
    assert!(err_msg(t.tensorinv(5)).starts_with("tensorinv: ind must be in 1..=4"));
    assert!(err_msg(t.tensorinv(1)).starts_with(
        "tensorinv: the first 1 axes of shape [4, 6, 8, 3] hold 4 elements but the others 144"
    ));
    let sing = Array::<f64, B>::zeros(&[2, 2, 4], dev).unwrap();
    assert!(err_msg(sing.tensorinv(2)).starts_with("tensorinv"));
    assert!(err_msg(a.tensorsolve(&b.reshape(&[24]).unwrap(), None))
        .starts_with("tensorsolve: the arrays must satisfy"));
    assert!(err_msg(a.tensorsolve(&b, Some(&[7]))).starts_with("tensorsolve"));
    assert!(err_msg(a.tensorsolve(&b, Some(&[0, 0])))
        .starts_with("tensorsolve: axis 0 is listed twice"));
    let zeros = Array::<f64, B>::zeros(&[6, 4, 2, 3, 4], dev).unwrap();
    assert!(err_msg(zeros.tensorsolve(&b, None)).starts_with("tensorsolve"));
}

const CHAINS: [(&str, &str, usize); 9] = [
    ("chain3", "ij,jk,kl->il", 3),
    ("chain3b", "ij,jk,kl->il", 3),
    ("doc", "ea,fb,abcd,gc,hd->efgh", 5),
    ("implicit4", "ab,bc,cd,de", 4),
    ("vecs", "i,ij,jk->k", 3),
    ("outer", "i,j,k->ijk", 3),
    ("batch", "bij,bjk,bkl->bl", 3),
    ("trace", "ii,ij,jk->k", 3),
    ("hadamard", "ij,ij,jk->ik", 3),
];

/// The fixture's path, unflattened.
fn numpy_path(name: &str) -> Vec<Vec<usize>> {
    let (flat, _) = fixture_vec::<i64>("products_extra", &format!("{name}_path"));
    let (lens, _) = fixture_vec::<i64>("products_extra", &format!("{name}_steps"));
    let mut it = flat.into_iter().map(|i| i as usize);
    lens.iter()
        .map(|&n| it.by_ref().take(n as usize).collect())
        .collect()
}

fn einsum_chains_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    for (name, sub, n) in CHAINS {
        let ops: Vec<Array<T, B>> = (0..n).map(|i| fx(dev, &format!("{name}_op{i}"))).collect();
        let refs: Vec<&Array<T, B>> = ops.iter().collect();
        let got = Array::einsum(sub, &refs).unwrap();
        assert_array_equal(&got, &fx::<T, B>(dev, &format!("{name}_out")));
        let p = Array::einsum_path(sub, &refs).unwrap();
        assert_eq!(p.path, numpy_path(name), "{name}");
        let (bytes, _) = fixture_vec::<u8>("products_extra", &format!("{name}_report"));
        assert_eq!(p.report, String::from_utf8(bytes).unwrap(), "{name}");
        assert_eq!(p.to_string(), p.report);
    }
}

fn einsum_chains<B: ArrayBackend>(dev: &B) {
    einsum_chains_for::<f64, B>(dev);
    einsum_chains_for::<f32, B>(dev);
    einsum_chains_for::<i64, B>(dev);
    einsum_chains_for::<i32, B>(dev);
    einsum_chains_for::<c128, B>(dev);
    // Ellipsis: the same path as NumPy and the same result.
    let ops: Vec<Array<f64, B>> = (0..3).map(|i| fx(dev, &format!("ell_op{i}"))).collect();
    let refs: Vec<&Array<f64, B>> = ops.iter().collect();
    let sub = "...ij,...jk,kl->...il";
    assert_array_equal(
        &Array::einsum(sub, &refs).unwrap(),
        &fx::<f64, B>(dev, "ell_out"),
    );
    let (want, _) = fixture_vec::<i64>("products_extra", "ell_path");
    let want: Vec<usize> = want.iter().map(|&i| i as usize).collect();
    assert_eq!(Array::einsum_path(sub, &refs).unwrap().path.concat(), want);
    // Complex chains, reversed and transposed operands.
    let ops: Vec<Array<c128, B>> = (0..3).map(|i| fx(dev, &format!("chainc_op{i}"))).collect();
    let refs: Vec<&Array<c128, B>> = ops.iter().collect();
    assert_array_equal(
        &Array::einsum("ij,jk,kl->il", &refs).unwrap(),
        &fx::<c128, B>(dev, "chainc_out"),
    );
    let a: Array<f64, B> = fx(dev, "chain3_op0");
    let b: Array<f64, B> = fx(dev, "chain3_op1");
    let c: Array<f64, B> = fx(dev, "chain3_op2");
    let bt = b.t().copy().unwrap();
    let crev = c.slice(&s![..;-1, ..]).unwrap().copy().unwrap();
    let got = Array::einsum(
        "ij,kj,kl->il",
        &[&a, &bt, &crev.slice(&s![..;-1, ..]).unwrap()],
    )
    .unwrap();
    assert_array_equal(&got, &fx::<f64, B>(dev, "chain3_out"));
    // Errors are still named after einsum.
    assert!(err_msg(Array::einsum_path("ij,jk", &[&a])).starts_with("einsum: "));
    assert!(err_msg(Array::einsum_path("ij,jk,kl->il", &[&a, &a, &c])).starts_with("einsum: "));
    assert!(err_msg(Array::<f64, B>::einsum_path("", &[])).starts_with("einsum: "));
}

fn memory_overlap<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::zeros(&[6, 4], dev).unwrap();
    let yes = |r: Result<bool>| r.unwrap();
    assert!(yes(a.shares_memory(&a)));
    assert!(yes(a.shares_memory(&a.t())));
    assert!(yes(a.shares_memory(&a.slice(&s![..;-1, ..]).unwrap())));
    assert!(!yes(a.shares_memory(&a.copy().unwrap())));
    assert!(!yes(a.may_share_memory(&a.copy().unwrap())));
    // Interleaved strided views: the extents overlap but no element is shared.
    let even = a.slice(&s![.., ..;2]).unwrap();
    let odd = a.slice(&s![.., 1..;2]).unwrap();
    assert!(yes(even.may_share_memory(&odd)));
    assert!(!yes(even.shares_memory(&odd)));
    assert!(yes(even.shares_memory(&a.slice(&s![2, ..]).unwrap())));
    assert!(!yes(odd.shares_memory(&a.slice(&s![.., 0]).unwrap())));
    assert!(yes(odd.shares_memory(&a.slice(&s![..;5, 3]).unwrap())));
    // Disjoint halves; rows against columns; broadcast views.
    let (top, bottom) = (
        a.slice(&s![..3, ..]).unwrap(),
        a.slice(&s![3.., ..]).unwrap(),
    );
    assert!(!yes(top.shares_memory(&bottom)) && !yes(top.may_share_memory(&bottom)));
    let b = a.slice(&s![5, ..]).unwrap().broadcast_to(&[7, 4]).unwrap();
    assert!(yes(b.shares_memory(&bottom)) && !yes(b.shares_memory(&top)));
    // Other element types over the same bytes are not views here; other arrays and empty
    // views share nothing.
    let i = Array::<i32, B>::zeros(&[4], dev).unwrap();
    assert!(!yes(a.shares_memory(&i)));
    let empty = a.slice(&s![2..2, ..]).unwrap();
    assert!(!yes(empty.shares_memory(&a)) && !yes(empty.may_share_memory(&a)));
    // A step that crosses rows: every third element against every fourth from 1.
    let flat = a.ravel().unwrap();
    let thirds = flat.slice(&s![..;3]).unwrap();
    let fourths = flat.slice(&s![1..;4]).unwrap();
    assert!(yes(thirds.shares_memory(&fourths))); // 9 = 3 * 3 = 1 + 2 * 4
    let sixes = flat.slice(&s![..;6]).unwrap();
    let odds = flat.slice(&s![1..;2]).unwrap();
    assert!(yes(sixes.may_share_memory(&odds)) && !yes(sixes.shares_memory(&odds)));
}

cuprite::test_backends!(
    gufuncs,
    gufunc_errors,
    tensor_inverses,
    einsum_chains,
    memory_overlap
);
