//! `ReductionKernel` on the GPU against plain Rust and the CPU backend on the same random
//! inputs: an L2 norm, sums over axes with and without keepdims, a max with a -inf
//! identity, a mean through `_in_ind`/`_out_ind`, 10M elements, empty reductions and errors.

use crate::diff_support::{gpu, Rng};
use cuprite::cuda::kernel::ReductionKernel;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_allclose_vec};

fn l2norm() -> ReductionKernel {
    ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm").unwrap()
}

fn sum() -> ReductionKernel {
    ReductionKernel::new("T x", "T y", "x", "a + b", "y = a", "0", "ksum").unwrap()
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn l2_norm_matches_plain_rust() {
    let dev = gpu();
    let k = l2norm();
    let mut rng = Rng::new(11);
    for n in [1usize, 300, 100_003, 3_000_001] {
        let v: Vec<f64> = rng.uniform(n, 1.0);
        let want = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let x = Array::from_vec(v.clone(), &[n], &dev).unwrap();
        let got = k.call1::<f64>(&[(&x).into()], Axes::All, false).unwrap();
        assert_eq!(got.shape(), &[] as &[usize]);
        let got = got.item().unwrap();
        assert!(
            (got - want).abs() <= 1e-12 * want,
            "n = {n}: {got} vs {want}"
        );
        let xf = x.astype::<f32>().unwrap();
        let gf = k
            .call1::<f32>(&[(&xf).into()], Axes::All, false)
            .unwrap()
            .item()
            .unwrap();
        assert!(
            (gf as f64 - want).abs() <= 1e-4 * want,
            "n = {n}: {gf} vs {want}"
        );
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sums_over_axes_match_the_cpu_backend() {
    let dev = gpu();
    let cpu = Cpu::new();
    let k = sum();
    let mut rng = Rng::new(12);
    // Shapes that take every plan: a thread per output, a block per output, chunks.
    for shape in [
        vec![4usize, 5, 6],
        vec![10000, 3],
        vec![300, 1000],
        vec![1000, 300],
        vec![3, 200_000],
        vec![2, 3, 4, 5],
    ] {
        let v: Vec<f64> = rng.uniform(shape.iter().product(), 1.0);
        let xg = Array::from_vec(v.clone(), &shape, &dev).unwrap();
        let xc = Array::from_vec(v, &shape, &cpu).unwrap();
        let nd = shape.len() as isize;
        let mut axes_list: Vec<Vec<isize>> = (0..nd).map(|a| vec![a]).collect();
        axes_list.push(vec![0, nd - 1]);
        axes_list.push(vec![-1]);
        for axes in axes_list {
            for keepdims in [false, true] {
                let g = k
                    .call1::<f64>(&[(&xg).into()], axes.clone(), keepdims)
                    .unwrap();
                let c = xc.sum_axes(axes.clone(), keepdims).unwrap();
                assert_eq!(g.shape(), c.shape(), "{shape:?} {axes:?} {keepdims}");
                assert_allclose(&g, &c, 1e-12, 1e-12);
            }
        }
        // A transposed input.
        let g = k.call1::<f64>(&[(&xg.t()).into()], -1, false).unwrap();
        assert_allclose(&g, &xc.t().sum_axes(-1, false).unwrap(), 1e-12, 1e-12);
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn max_with_minus_infinity_identity() {
    let dev = gpu();
    let cpu = Cpu::new();
    let k =
        ReductionKernel::new("T x", "T y", "x", "max(a, b)", "y = a", "-INFINITY", "kmax").unwrap();
    let v: Vec<f32> = Rng::new(13).uniform(4096 * 300, 100.0);
    let xg = Array::from_vec(v.clone(), &[4096, 300], &dev).unwrap();
    let xc = Array::from_vec(v, &[4096, 300], &cpu).unwrap();
    for axis in [0isize, 1] {
        let g = k.call1::<f32>(&[(&xg).into()], axis, true).unwrap();
        assert_allclose(&g, &xc.max_axes(axis, true).unwrap(), 0.0, 0.0);
    }
    let all = k
        .call1::<f32>(&[(&xg).into()], Axes::All, false)
        .unwrap()
        .item()
        .unwrap();
    assert_eq!(all, xc.max().unwrap().item().unwrap());
    // An empty reduction gives the identity.
    let e = Array::<f32, Cuda>::zeros(&[3, 0], &dev).unwrap();
    let g = k.call1::<f32>(&[(&e).into()], 1, false).unwrap();
    assert_eq!(g.to_vec().unwrap(), vec![f32::NEG_INFINITY; 3]);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn ten_million_elements_in_a_wider_type() {
    let dev = gpu();
    let k = ReductionKernel::new(
        "float32 x",
        "float64 y",
        "x",
        "a + b",
        "y = a",
        "0",
        "sum64",
    )
    .unwrap()
    .reduce_type("float64")
    .unwrap();
    let v: Vec<f32> = Rng::new(14).uniform(10_000_000, 1.0);
    let want: f64 = v.iter().map(|&x| x as f64).sum();
    let x = Array::from_vec(v, &[10_000_000], &dev).unwrap();
    let got = k
        .call1::<f64>(&[(&x).into()], Axes::All, false)
        .unwrap()
        .item()
        .unwrap();
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{got} vs {want}"
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn mean_complex_and_empty_outputs() {
    let dev = gpu();
    let mean = ReductionKernel::new(
        "T x",
        "T y",
        "x",
        "a + b",
        "y = a / (type_reduce)(_in_ind.size() / _out_ind.size())",
        "0",
        "kmean",
    )
    .unwrap();
    let v: Vec<f64> = Rng::new(15).uniform(600, 1.0);
    let x = Array::from_vec(v.clone(), &[20, 30], &dev).unwrap();
    let g = mean.call1::<f64>(&[(&x).into()], 1, false).unwrap();
    let want: Vec<f64> = v.chunks(30).map(|r| r.iter().sum::<f64>() / 30.0).collect();
    assert_allclose_vec(&g, &want, &[20], 1e-12, 1e-12);
    // Complex sums.
    let c: Vec<c128> = Rng::new(16).uniform(5000, 1.0);
    let want: c128 = c.iter().sum();
    let xc = Array::from_vec(c, &[5000], &dev).unwrap();
    let got = sum()
        .call1::<c128>(&[(&xc).into()], Axes::All, false)
        .unwrap()
        .item()
        .unwrap();
    assert!((got - want).norm() < 1e-10, "{got} vs {want}");
    // An empty output shape launches nothing; an empty reduction is the identity.
    let e = Array::<f64, Cuda>::zeros(&[0, 4], &dev).unwrap();
    assert_eq!(
        sum()
            .call1::<f64>(&[(&e).into()], 1, false)
            .unwrap()
            .shape(),
        &[0]
    );
    assert_eq!(
        sum()
            .call1::<f64>(&[(&e).into()], 0, false)
            .unwrap()
            .to_vec()
            .unwrap(),
        vec![0.0; 4]
    );
    assert_eq!(
        sum()
            .call1::<f64>(&[(&e).into()], Axes::All, false)
            .unwrap()
            .item()
            .unwrap(),
        0.0
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn given_outputs_and_errors() {
    let dev = gpu();
    let k = sum();
    let x = Array::<f32, Cuda>::ones(&[4, 6], &dev).unwrap();
    let mut y = Array::<f32, Cuda>::zeros(&[4, 1], &dev).unwrap();
    k.call_into(&[(&x).into()], [1], true, &mut [(&mut y).into()])
        .unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![6.0; 4]);
    let mut wrong = Array::<f32, Cuda>::zeros(&[4], &dev).unwrap();
    let e = k
        .call_into(&[(&x).into()], [1], true, &mut [(&mut wrong).into()])
        .unwrap_err();
    assert_eq!(
        e,
        Error::ShapeMismatch {
            op: "ksum",
            lhs: vec![4, 1],
            rhs: vec![4]
        }
    );
    let e = k.call(&[(&x).into()], 2, false).unwrap_err().to_string();
    assert!(e.contains("axis 2 is out of bounds"), "{e}");
    let e = k.call(&[], Axes::All, false).unwrap_err().to_string();
    assert_eq!(e, "ksum: expects 1 input arguments (x), got 0");
    let e = ReductionKernel::new("raw T x", "T y", "x", "a + b", "y = a", "0", "r")
        .unwrap_err()
        .to_string();
    assert!(e.contains("raw parameters are not supported"), "{e}");
    let e = sum().reduce_type("float128").unwrap_err().to_string();
    assert!(e.contains("reduce type `float128`"), "{e}");
    let bad = ReductionKernel::new("T x", "T y", "x", "a +* b", "y = a", "0", "badred").unwrap();
    let e = bad
        .call(&[(&x).into()], Axes::All, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("reduce_expr line 1 | a +* b"), "{e}");
}
