//! Creation functions on every backend: arange/linspace/logspace, eye/identity, diag/diagonal,
//! tri/tril/triu, meshgrid and the `*_like` constructors, compared with NumPy fixtures
//! (`scripts/fixtures/manip.py`) and analytic identities.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_allclose_vec, assert_array_equal};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "manip", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn arange_integers<B: ArrayBackend>(dev: &B) {
    assert_array_equal(
        &Array::<i32, B>::arange(10, 0, -4, dev).unwrap(),
        &fx::<i32, B>(dev, "arange_i32"),
    );
    assert_array_equal(
        &Array::<i32, B>::arange(-7, 12, 3, dev).unwrap(),
        &fx::<i32, B>(dev, "arange_i32_b"),
    );
    assert_array_equal(
        &Array::<u8, B>::arange(3, 250, 7, dev).unwrap(),
        &fx::<u8, B>(dev, "arange_u8"),
    );
    // Above the parallel threshold; 100001 / 3 does not divide the chunk sizes.
    assert_array_equal(
        &Array::<i64, B>::arange(-50000, 50001, 3, dev).unwrap(),
        &fx::<i64, B>(dev, "arange_i64_big"),
    );
    assert_eq!(Array::<i64, B>::arange(5, 0, 1, dev).unwrap().shape(), &[0]);
    assert_eq!(Array::<u8, B>::arange(5, 5, 1, dev).unwrap().shape(), &[0]);
    assert_eq!(
        err_msg(Array::<i32, B>::arange(0, 10, 0, dev)),
        "arange: step must not be zero"
    );
}

fn arange_floats<B: ArrayBackend>(dev: &B) {
    // The fixture loader's JSON float parsing may be 1 ulp off, hence rtol = 1e-15 (NumPy's
    // values are `start + i * ((start + step) - start)`; the naive `start + i * step` would
    // differ by 2e-16 relative and still pass, so the exact formula is checked below).
    assert_allclose(
        &Array::<f64, B>::arange(1.0, 2.0, 0.1, dev).unwrap(),
        &fx::<f64, B>(dev, "arange_f64"),
        1e-15,
        0.0,
    );
    let delta = (1.0f64 + 0.1) - 1.0;
    let exact: Vec<f64> = (0..10).map(|i| 1.0 + i as f64 * delta).collect();
    assert_allclose_vec(
        &Array::<f64, B>::arange(1.0, 2.0, 0.1, dev).unwrap(),
        &exact,
        &[10],
        0.0,
        0.0,
    );
    assert_allclose(
        &Array::<f64, B>::arange(2.5, -1.0, -0.75, dev).unwrap(),
        &fx::<f64, B>(dev, "arange_f64_neg"),
        1e-15,
        0.0,
    );
    assert_array_equal(
        &Array::<f32, B>::arange(-1.5, 2.25, 0.5, dev).unwrap(),
        &fx::<f32, B>(dev, "arange_f32"),
    );
    assert_allclose(
        &Array::<f64, B>::arange(0.0, 7.0, 0.0002, dev).unwrap(),
        &fx::<f64, B>(dev, "arange_f64_big"),
        1e-15,
        1e-15,
    );
    assert_eq!(
        Array::<f64, B>::arange(1.0, 0.0, 0.5, dev).unwrap().shape(),
        &[0]
    );
    let e = err_msg(Array::<f64, B>::arange(0.0, f64::INFINITY, 1.0, dev));
    assert!(e.starts_with("arange: cannot compute length"), "{e}");
    assert!(Array::<f32, B>::arange(f32::NAN, 1.0, 1.0, dev).is_err());
    assert!(Array::<f64, B>::arange(0.0, 1.0, 0.0, dev).is_err());
    let e = err_msg(Array::<f64, B>::arange(0.0, 1e300, 1.0, dev));
    assert!(e.contains("array is too big"), "{e}");
}

fn linspace_matches_numpy<B: ArrayBackend>(dev: &B) {
    let cases: [(f64, f64, usize, bool, &str); 4] = [
        (0.0, 1.0, 7, true, "linspace_f64"),
        (-2.0, 3.0, 6, false, "linspace_f64_noend"),
        (2.0, 5.0, 1, true, "linspace_f64_one"),
        (-3.0, 11.0, 40001, true, "linspace_f64_big"),
    ];
    for (a, b, n, end, name) in cases {
        let got = Array::<f64, B>::linspace(a, b, n, end, dev).unwrap();
        assert_allclose(&got, &fx::<f64, B>(dev, name), 1e-15, 0.0);
    }
    let big = Array::<f64, B>::linspace(-3.0, 11.0, 40001, true, dev).unwrap();
    assert_eq!(big.slice(&s![-1]).unwrap().item().unwrap(), 11.0);
    assert_eq!(
        Array::<f64, B>::linspace(0.0, 1.0, 0, true, dev)
            .unwrap()
            .shape(),
        &[0]
    );
    let f = Array::<f32, B>::linspace(0.5, -2.0, 9, true, dev).unwrap();
    assert_allclose(&f, &fx::<f32, B>(dev, "linspace_f32"), 1e-6, 0.0);
    assert_eq!(f.slice(&s![-1]).unwrap().item().unwrap(), -2.0);
    let z = Array::<c128, B>::linspace(c128::new(1.0, 2.0), c128::new(-3.0, 0.5), 5, true, dev)
        .unwrap();
    assert_allclose(&z, &fx::<c128, B>(dev, "linspace_c128"), 1e-15, 0.0);
    let z =
        Array::<c64, B>::linspace(c64::new(1.0, 2.0), c64::new(-3.0, 0.5), 4, false, dev).unwrap();
    assert_allclose(&z, &fx::<c64, B>(dev, "linspace_c64_noend"), 1e-6, 0.0);
    // NaN end points propagate.
    let n = Array::<f64, B>::linspace(0.0, f64::NAN, 3, true, dev).unwrap();
    assert!(n.to_vec().unwrap().iter().skip(1).all(|v| v.is_nan()));
}

fn logspace_matches_numpy<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::logspace(0.0, 3.0, 7, true, 10.0, dev).unwrap();
    assert_allclose(&a, &fx::<f64, B>(dev, "logspace_f64"), 1e-13, 0.0);
    let a = Array::<f64, B>::logspace(-2.0, 5.0, 8, false, 2.0, dev).unwrap();
    assert_allclose(&a, &fx::<f64, B>(dev, "logspace_f64_b2"), 1e-15, 0.0);
    let a = Array::<f32, B>::logspace(-1.0, 2.0, 5, true, 10.0, dev).unwrap();
    assert_allclose(&a, &fx::<f32, B>(dev, "logspace_f32"), 1e-6, 0.0);
    assert_eq!(
        Array::<f32, B>::logspace(0.0, 1.0, 0, true, 10.0, dev)
            .unwrap()
            .shape(),
        &[0]
    );
}

fn eye_family<T: Element, B: ArrayBackend>(dev: &B) {
    assert_array_equal(
        &Array::<T, B>::eye(3, Some(4), 1, dev).unwrap(),
        &fx::<T, B>(dev, "eye_3_4_1"),
    );
    assert_array_equal(
        &Array::<T, B>::eye(4, Some(3), -2, dev).unwrap(),
        &fx::<T, B>(dev, "eye_4_3_m2"),
    );
    assert_array_equal(
        &Array::<T, B>::eye(3, None, 5, dev).unwrap(),
        &fx::<T, B>(dev, "eye_3_3_5"),
    );
    let i = Array::<T, B>::identity(4, dev).unwrap();
    let v = i.to_vec().unwrap();
    for r in 0..4 {
        for c in 0..4 {
            assert_eq!(v[r * 4 + c], if r == c { T::ONE } else { T::ZERO });
        }
    }
    assert_eq!(
        Array::<T, B>::eye(0, Some(3), 0, dev).unwrap().shape(),
        &[0, 3]
    );
    assert_eq!(Array::<T, B>::identity(0, dev).unwrap().size(), 0);
}

fn eye_all_dtypes<B: ArrayBackend>(dev: &B) {
    eye_family::<f64, B>(dev);
    eye_family::<i32, B>(dev);
    eye_family::<u8, B>(dev);
    eye_family::<bool, B>(dev);
    eye_family::<c64, B>(dev);
}

fn diag_family<T: Element, B: ArrayBackend>(dev: &B) {
    let v = fx::<T, B>(dev, "diag_in_v");
    assert_array_equal(&Array::diag(&v, 1).unwrap(), &fx::<T, B>(dev, "diag_v_k1"));
    assert_array_equal(
        &Array::diag(&v, -2).unwrap(),
        &fx::<T, B>(dev, "diag_v_km2"),
    );
    // A strided (reversed twice) input vector.
    let vr = v.flip(0).unwrap().flip(0).unwrap();
    assert_array_equal(&Array::diag(&vr, 1).unwrap(), &fx::<T, B>(dev, "diag_v_k1"));
    let m = fx::<T, B>(dev, "diag_in_m");
    assert_array_equal(&Array::diag(&m, 0).unwrap(), &fx::<T, B>(dev, "diag_m_k0"));
    assert_array_equal(&Array::diag(&m, 2).unwrap(), &fx::<T, B>(dev, "diag_m_k2"));
    assert_array_equal(
        &Array::diag(&m, -1).unwrap(),
        &fx::<T, B>(dev, "diag_m_km1"),
    );
    assert_array_equal(
        &Array::diag(&m.t(), 1).unwrap(),
        &fx::<T, B>(dev, "diag_mt_k1"),
    );
    assert_eq!(Array::diag(&m, 7).unwrap().shape(), &[0]);
    assert_eq!(Array::diag(&m, -3).unwrap().shape(), &[0]);
    let d3 = fx::<T, B>(dev, "diagonal_3d_in");
    assert_array_equal(&d3.diagonal(1).unwrap(), &fx::<T, B>(dev, "diagonal_3d_k1"));
    let e = Array::<T, B>::zeros(&[0], dev).unwrap();
    assert_eq!(Array::diag(&e, 0).unwrap().shape(), &[0, 0]);
    assert_eq!(Array::diag(&e, 2).unwrap().shape(), &[2, 2]);
    assert_eq!(
        err_msg(Array::diag(&d3, 0)),
        "diag: input must be 1-d or 2-d, got shape [3, 4, 2]"
    );
    assert!(err_msg(v.diagonal(0)).contains("at least two dimensions"));
    assert!(Array::diag(&Array::<T, B>::zeros(&[], dev).unwrap(), 0).is_err());
}

fn diag_all_dtypes<B: ArrayBackend>(dev: &B) {
    diag_family::<f64, B>(dev);
    diag_family::<i64, B>(dev);
    diag_family::<bool, B>(dev);
    diag_family::<c128, B>(dev);
}

fn tri_family<T: Element, B: ArrayBackend>(dev: &B) {
    assert_array_equal(
        &Array::<T, B>::tri(3, Some(4), 0, dev).unwrap(),
        &fx::<T, B>(dev, "tri_3_4_0"),
    );
    assert_array_equal(
        &Array::<T, B>::tri(4, Some(3), -1, dev).unwrap(),
        &fx::<T, B>(dev, "tri_4_3_m1"),
    );
    assert_array_equal(
        &Array::<T, B>::tri(2, Some(5), 2, dev).unwrap(),
        &fx::<T, B>(dev, "tri_2_5_2"),
    );
    assert_eq!(
        Array::<T, B>::tri(0, None, 0, dev).unwrap().shape(),
        &[0, 0]
    );
    let x = fx::<T, B>(dev, "tril_in");
    assert_array_equal(&x.tril(0).unwrap(), &fx::<T, B>(dev, "tril_k0"));
    assert_array_equal(&x.tril(1).unwrap(), &fx::<T, B>(dev, "tril_k1"));
    assert_array_equal(&x.triu(0).unwrap(), &fx::<T, B>(dev, "triu_k0"));
    assert_array_equal(&x.triu(-1).unwrap(), &fx::<T, B>(dev, "triu_km1"));
    let xt = x.permute_dims(&[0, 2, 1]).unwrap();
    assert_array_equal(&xt.triu(1).unwrap(), &fx::<T, B>(dev, "triu_t_k1"));
    let v = Array::<T, B>::from_vec(fixture_vec::<T>("manip", "diag_in_v").0, &[3], dev).unwrap();
    assert_eq!(v.tril(0).unwrap().shape(), &[3, 3]);
    let z = Array::<T, B>::zeros(&[], dev).unwrap();
    assert_eq!(
        err_msg(z.tril(0)),
        "tril: input must be at least 1-d, got a 0-d array"
    );
    assert!(z.triu(0).is_err());
    let empty = Array::<T, B>::zeros(&[2, 0, 3], dev).unwrap();
    assert_eq!(empty.tril(0).unwrap().shape(), &[2, 0, 3]);
}

fn tri_all_dtypes<B: ArrayBackend>(dev: &B) {
    tri_family::<f64, B>(dev);
    tri_family::<f32, B>(dev);
    tri_family::<i32, B>(dev);
    tri_family::<u8, B>(dev);
    tri_family::<bool, B>(dev);
    tri_family::<c64, B>(dev);
    let t = fx::<f64, B>(dev, "tril_1d");
    let v = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev).unwrap();
    assert_array_equal(&v.tril(0).unwrap(), &t);
}

fn meshgrid_matches_numpy<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "mesh_x");
    // A strided y: the first column of a [2, 2] array.
    let yv = fixture_vec::<f64>("manip", "mesh_y").0;
    let y2 = Array::<f64, B>::from_vec(vec![yv[0], 0.0, yv[1], 0.0], &[2, 2], dev).unwrap();
    let y = y2.slice(&s![.., 0]).unwrap();
    let z = fx::<f64, B>(dev, "mesh_z").reshape(&[2, 2]).unwrap();
    for (ind, name) in [(Indexing::Xy, "xy"), (Indexing::Ij, "ij")] {
        let g = Array::meshgrid(&[&x, &y, &z], ind).unwrap();
        assert_eq!(g.len(), 3);
        for (k, a) in g.iter().enumerate() {
            assert!(a.is_contiguous());
            assert_array_equal(a, &fx::<f64, B>(dev, &format!("mesh_{name}_{k}")));
        }
    }
    let g = Array::meshgrid(&[&x], Indexing::Xy).unwrap();
    assert_array_equal(&g[0], &x);
    assert!(Array::<f64, B>::meshgrid(&[], Indexing::Ij)
        .unwrap()
        .is_empty());
    let e = Array::<i32, B>::zeros(&[0], dev).unwrap();
    let o = Array::<i32, B>::ones(&[3], dev).unwrap();
    let g = Array::meshgrid(&[&e, &o], Indexing::Xy).unwrap();
    assert_eq!(g[0].shape(), &[3, 0]);
}

fn like_constructors<B: ArrayBackend>(dev: &B) {
    let a = Array::<f32, B>::ramp(6, 1.0, 1.0, dev)
        .unwrap()
        .reshape(&[2, 3])
        .unwrap()
        .t();
    assert_allclose_vec(&a.zeros_like().unwrap(), &[0.0; 6], &[3, 2], 0.0, 0.0);
    assert_allclose_vec(&a.ones_like().unwrap(), &[1.0; 6], &[3, 2], 0.0, 0.0);
    assert_allclose_vec(
        &a.full_like(f32::NAN).unwrap(),
        &[f32::NAN; 6],
        &[3, 2],
        0.0,
        0.0,
    );
    let e = a.empty_like().unwrap();
    assert_eq!(e.shape(), &[3, 2]);
    assert!(e.is_contiguous());
    let b = Array::<bool, B>::zeros(&[0, 2], dev).unwrap();
    assert_eq!(b.full_like(true).unwrap().shape(), &[0, 2]);
    let s = Array::<c128, B>::scalar(c128::new(1.0, 1.0), dev).unwrap();
    assert_eq!(s.ones_like().unwrap().item().unwrap(), c128::new(1.0, 0.0));
    // The original is untouched by writes to the new array.
    let mut z = a.zeros_like().unwrap();
    z.fill(3.0).unwrap();
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

fn full_keeps_the_bits_of_negative_zero<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::full(&[1000], -0.0, dev).unwrap();
    assert!(a
        .to_vec()
        .unwrap()
        .iter()
        .all(|x| x.to_bits() == (-0.0f64).to_bits()));
    let s = Array::<f32, B>::scalar(-0.0, dev).unwrap();
    assert!(s.item().unwrap().is_sign_negative());
    let c = Array::<c64, B>::full(&[3], c64::new(0.0, -0.0), dev).unwrap();
    assert!(c.to_vec().unwrap().iter().all(|z| z.im.is_sign_negative()));
    let z = Array::<f64, B>::full(&[5], 0.0, dev).unwrap();
    assert!(z.to_vec().unwrap().iter().all(|x| x.to_bits() == 0));
}

/// `np.mgrid` / `np.ogrid` of `arange` ranges (expected values written out from NumPy's
/// definition: slice `i` varies along axis `i` only).
fn mgrid_and_ogrid<B: ArrayBackend>(dev: &B) {
    // np.mgrid[0:2, 3:0:-1]
    let g = Array::<i64, B>::mgrid(&[(0, 2, 1), (3, 0, -1)], dev).unwrap();
    assert_eq!(g.shape(), &[2, 2, 3]);
    assert_eq!(
        g.to_vec().unwrap(),
        vec![0, 0, 0, 1, 1, 1, 3, 2, 1, 3, 2, 1]
    );
    // np.mgrid[0:1:0.25] (one range: shape (1, 4)), and an empty range.
    let one = Array::<f64, B>::mgrid(&[(0.0, 1.0, 0.25)], dev).unwrap();
    assert_eq!(one.shape(), &[1, 4]);
    assert_eq!(one.to_vec().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
    let empty = Array::<f32, B>::mgrid(&[(0.0, 3.0, 1.0), (2.0, 2.0, 1.0)], dev).unwrap();
    assert_eq!(empty.shape(), &[2, 3, 0]);
    // Three ranges: the open grids broadcast to the dense one.
    let r = [(0i32, 2, 1), (-1, 2, 1), (5, 9, 2)];
    let dense = Array::<i32, B>::mgrid(&r, dev).unwrap();
    let open = Array::<i32, B>::ogrid(&r, dev).unwrap();
    assert_eq!(open.len(), 3);
    assert_eq!(open[1].shape(), &[1, 3, 1]);
    for (i, o) in open.iter().enumerate() {
        let full = o.broadcast_to(&[2, 3, 2]).unwrap().copy().unwrap();
        assert_eq!(
            full.to_vec().unwrap(),
            dense.slice(&s![i as isize]).unwrap().to_vec().unwrap(),
            "axis {i}"
        );
    }
    // Errors: no range, a zero step.
    assert!(Array::<i64, B>::mgrid(&[], dev).is_err());
    let e = Array::<f64, B>::ogrid(&[(0.0, 1.0, 0.0)], dev).unwrap_err();
    assert!(e.to_string().starts_with("arange"), "{e}");
}

cuprite::test_backends!(
    full_keeps_the_bits_of_negative_zero,
    arange_integers,
    arange_floats,
    linspace_matches_numpy,
    logspace_matches_numpy,
    eye_all_dtypes,
    diag_all_dtypes,
    tri_all_dtypes,
    meshgrid_matches_numpy,
    mgrid_and_ogrid,
    like_constructors,
);
