//! Boolean masks (`select`, `put_mask`, `masked_fill`) and nonzero positions (`argwhere`,
//! `nonzero`, `flatnonzero`) on every backend, against NumPy fixtures
//! (`scripts/fixtures/sort.py`: boolean indexing, `np.argwhere`, `np.flatnonzero`) and
//! analytic identities for large and strided inputs.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::assert_array_equal_vec;

const T: &str = "sort";

/// Asserts `got` equals fixture `name` exactly (shape and elements).
fn check<E: Element, B: ArrayBackend>(got: &Array<E, B>, name: &str) {
    let (want, shape) = fixture_vec::<E>(T, name);
    assert_array_equal_vec(got, &want, &shape);
}

fn select_like_numpy<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f64, B>(dev, T, "m_x");
    let m = fixture::<bool, B>(dev, T, "m_mask");
    let rows = fixture::<bool, B>(dev, T, "m_rows");
    check(&x.select(&m).unwrap(), "m_select");
    check(&x.select(&rows).unwrap(), "m_select_rows");
    check(&x.t().select(&m.t()).unwrap(), "m_select_T");
    let xs = x.slice(&s![..;2, ..;-2]).unwrap();
    let ms = m.slice(&s![..;2, ..;-2]).unwrap();
    check(&xs.select(&ms).unwrap(), "m_select_strided");
    // Other dtypes: the selection of a cast equals the cast of the selection.
    let xi = x.astype::<i32>().unwrap();
    let want: Vec<i32> = fixture_vec::<f64>(T, "m_select")
        .0
        .iter()
        .map(|&v| v as i32)
        .collect();
    assert_eq!(xi.select(&m).unwrap().to_vec().unwrap(), want);
    let xc = x.astype::<c64>().unwrap();
    assert_eq!(
        xc.select(&rows).unwrap().shape(),
        &[4, 7],
        "complex rows selection"
    );
    let xb = m.select(&m).unwrap();
    assert!(xb.to_vec().unwrap().iter().all(|&b| b));
    // A 0-d mask selects the whole array once or not at all (NumPy x[True], x[False]).
    let t = Array::<bool, B>::scalar(true, dev).unwrap();
    let f = Array::<bool, B>::scalar(false, dev).unwrap();
    assert_eq!(x.select(&t).unwrap().shape(), &[1, 6, 7]);
    assert_eq!(x.select(&f).unwrap().shape(), &[0, 6, 7]);
    // Empty trailing dimension: the count still comes from the mask.
    let e = Array::<u8, B>::zeros(&[6, 0], dev).unwrap();
    assert_eq!(e.select(&rows).unwrap().shape(), &[4, 0]);
    // A broadcast (zero-stride) source.
    let b = Array::<i64, B>::ramp(7, 0, 1, dev)
        .unwrap()
        .broadcast_to(&[6, 7])
        .unwrap();
    let sel = b.select(&rows).unwrap();
    assert_eq!(
        sel.to_vec().unwrap(),
        (0..28).map(|i| i % 7).collect::<Vec<i64>>()
    );
}

fn select_large<B: ArrayBackend>(dev: &B) {
    // Above the parallel threshold, a size that divides no chunk.
    let n = 100_003usize;
    let x = Array::<i64, B>::ramp(n, 0, 1, dev).unwrap();
    let m = Array::<bool, B>::from_vec((0..n).map(|i| i % 3 == 1).collect(), &[n], dev).unwrap();
    let want: Vec<i64> = (0..n as i64).filter(|i| i % 3 == 1).collect();
    assert_eq!(x.select(&m).unwrap().to_vec().unwrap(), want);
    assert_eq!(m.flatnonzero().unwrap().to_vec().unwrap(), want);
    assert_eq!(x.argwhere().unwrap().shape(), &[n - 1, 1]);
    // Assignment of one value per true element, and of a single value.
    let mut y = x.clone();
    let vals =
        Array::<i64, B>::from_vec(want.iter().map(|v| -v).collect(), &[want.len()], dev).unwrap();
    y.put_mask(&m, &vals).unwrap();
    let expect: Vec<i64> = (0..n as i64)
        .map(|i| if i % 3 == 1 { -i } else { i })
        .collect();
    assert_eq!(y.to_vec().unwrap(), expect);
    assert_eq!(
        x.to_vec().unwrap()[1],
        1,
        "the shared original is untouched"
    );
    let mut z = x.clone();
    z.masked_fill(&m, 7).unwrap();
    assert_eq!(z.to_vec().unwrap()[..5], [0, 7, 2, 3, 7]);
    // A strided 2-d destination through a transposed mask.
    let mut a = Array::<f32, B>::zeros(&[300, 401], dev).unwrap();
    let mm = Array::<bool, B>::from_vec(
        (0..300 * 401).map(|i| i % 7 == 0).collect(),
        &[401, 300],
        dev,
    )
    .unwrap();
    let mut at = a.t();
    at.masked_fill(&mm, 1.0).unwrap();
    a = at.t();
    let sum: f32 = a.to_vec().unwrap().iter().sum();
    assert_eq!(sum as usize, (0..300 * 401).filter(|i| i % 7 == 0).count());
}

fn put_mask_like_numpy<B: ArrayBackend>(dev: &B) {
    let m = fixture::<bool, B>(dev, T, "m_mask");
    let rows = fixture::<bool, B>(dev, T, "m_rows");
    let vals = fixture::<f64, B>(dev, T, "m_put_values");
    let mut x = fixture::<f64, B>(dev, T, "m_x");
    x.put_mask(&m, &vals).unwrap();
    check(&x, "m_put");
    let mut x = fixture::<f64, B>(dev, T, "m_x");
    let row = Array::<f64, B>::ramp(7, 0.0, 1.0, dev).unwrap();
    x.put_mask(&rows, &row).unwrap();
    check(&x, "m_put_rows");
    // Writes into a transposed (non-contiguous) destination through a transposed mask.
    let (xv, _) = fixture_vec::<f64>(T, "m_x");
    let (mv, _) = fixture_vec::<bool>(T, "m_mask");
    let mut xt = fixture::<f64, B>(dev, T, "m_x").t();
    let neg = -&xt.select(&m.t()).unwrap();
    xt.put_mask(&m.t(), &neg).unwrap();
    let want: Vec<f64> = xv
        .iter()
        .zip(&mv)
        .map(|(&v, &k)| if k { -v } else { v })
        .collect();
    assert_array_equal_vec(&xt.t(), &want, &[6, 7]);
    let mut x = fixture::<f64, B>(dev, T, "m_x");
    x.masked_fill(&m, 0.0).unwrap();
    let want: Vec<f64> = xv
        .iter()
        .zip(&mv)
        .map(|(&v, &k)| if k { 0.0 } else { v })
        .collect();
    assert_array_equal_vec(&x, &want, &[6, 7]);
}

fn mask_errors<B: ArrayBackend>(dev: &B) {
    let x = Array::<f64, B>::zeros(&[3, 4], dev).unwrap();
    let bad = Array::<bool, B>::from_vec(vec![true; 4], &[4], dev).unwrap();
    let err = x.select(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "select: boolean mask of shape [4] does not match the array of shape [3, 4] (it must \
         have the array's shape or that of its leading dimensions)"
    );
    let big = Array::<bool, B>::from_vec(vec![true; 12], &[3, 4, 1], dev).unwrap();
    assert!(x.select(&big).is_err());
    let m = Array::<bool, B>::from_vec(vec![true, false, true], &[3], dev).unwrap();
    let mut y = x.clone();
    let three = Array::<f64, B>::ones(&[3], dev).unwrap();
    let err = y.put_mask(&m, &three).unwrap_err();
    assert_eq!(
        err.to_string(),
        "put_mask: cannot assign values of shape [3] to the 2 true elements of a mask of shape \
         [3] (selection shape [2, 4], array shape [3, 4])"
    );
    assert_eq!(
        y.to_vec().unwrap(),
        vec![0.0; 12],
        "unchanged after an error"
    );
    let err = y.masked_fill(&bad, 1.0).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("masked_fill: boolean mask of shape [4]"),
        "{err}"
    );
    // A broadcast destination is read-only.
    let mut b = Array::<f64, B>::zeros(&[4], dev)
        .unwrap()
        .broadcast_to(&[3, 4])
        .unwrap();
    let err = b.masked_fill(&m, 1.0).unwrap_err();
    assert!(err.to_string().contains("overlap"), "{err}");
    // One value for a flat mask: wrong counts are rejected, right ones and a single value pass.
    let mf = Array::<bool, B>::from_vec(vec![false, true, true, false], &[4], dev).unwrap();
    let mut v = Array::<i32, B>::zeros(&[4], dev).unwrap();
    assert!(v.put_mask(&mf, &Array::ones(&[3], dev).unwrap()).is_err());
    v.put_mask(&mf, &Array::from_vec(vec![5, 6], &[2], dev).unwrap())
        .unwrap();
    v.put_mask(
        &mf.slice(&s![..;-1]).unwrap(),
        &Array::full(&[1], 9, dev).unwrap(),
    )
    .unwrap();
    assert_eq!(v.to_vec().unwrap(), vec![0, 9, 9, 0]);
}

fn nonzero_like_numpy<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f64, B>(dev, T, "nz_x");
    check(&x.argwhere().unwrap(), "nz_argwhere");
    check(&x.flatnonzero().unwrap(), "nz_flat");
    let v = x
        .permute_dims(&[2, 1, 0])
        .unwrap()
        .slice(&s![..;-1])
        .unwrap();
    check(&v.argwhere().unwrap(), "nz_T_argwhere");
    // nonzero: the columns of argwhere.
    let (aw, shape) = fixture_vec::<i64>(T, "nz_argwhere");
    let nz = x.nonzero().unwrap();
    assert_eq!(nz.len(), 3);
    for (d, col) in nz.iter().enumerate() {
        let want: Vec<i64> = aw.chunks(shape[1]).map(|r| r[d]).collect();
        assert_array_equal_vec(col, &want, &[shape[0]]);
    }
    // Other dtypes: complex, bool (mask of the f64 data), integers via a cast.
    check(
        &fixture::<c128, B>(dev, T, "nzc_x").argwhere().unwrap(),
        "nzc_argwhere",
    );
    check(
        &fixture::<c64, B>(dev, T, "nzc_x").argwhere().unwrap(),
        "nzc_argwhere",
    );
    let (xv, _) = fixture_vec::<f64>(T, "nz_x");
    let mb = Array::<bool, B>::from_vec(xv.iter().map(|&v| v != 0.0).collect(), &[3, 4, 5], dev)
        .unwrap();
    check(&mb.argwhere().unwrap(), "nz_argwhere");
    let xi = Array::<u8, B>::from_vec(
        xv.iter().map(|&v| (v != 0.0) as u8 * 3).collect(),
        &[60],
        dev,
    )
    .unwrap();
    check(&xi.flatnonzero().unwrap(), "nz_flat");
    // 0-d and empty inputs.
    let z = Array::<i32, B>::scalar(5, dev).unwrap();
    assert_eq!(z.argwhere().unwrap().shape(), &[1, 0]);
    assert_eq!(
        Array::<i32, B>::scalar(0, dev)
            .unwrap()
            .argwhere()
            .unwrap()
            .shape(),
        &[0, 0]
    );
    assert_eq!(z.flatnonzero().unwrap().to_vec().unwrap(), vec![0]);
    let err = z.nonzero().unwrap_err();
    assert!(
        err.to_string()
            .starts_with("nonzero: calling nonzero on a 0-d array"),
        "{err}"
    );
    let e = Array::<f32, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.argwhere().unwrap().shape(), &[0, 2]);
    let nz = e.nonzero().unwrap();
    assert_eq!((nz.len(), nz[1].shape()), (2, &[0usize][..]));
}

cuprite::test_backends!(
    select_like_numpy,
    select_large,
    put_mask_like_numpy,
    mask_errors,
    nonzero_like_numpy,
);
