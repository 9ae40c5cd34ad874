//! `ElementwiseKernel` on the GPU against plain Rust (or the CPU backend) on the same random
//! inputs: the notebook's `my_kernel`, placeholders of several dtypes, broadcast, transposed,
//! sliced, 0-d and empty views, NaN and infinities, raw parameters, scalars, given outputs,
//! and every error path.

use crate::diff_support::{gpu, Rng};
use cuprite::cuda::kernel::{Arg, ElementwiseKernel};
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_allclose_vec};

fn my_kernel() -> ElementwiseKernel {
    ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "if (x - 2 > y) { z = x * y; } else { z = x + y; }",
        "my_kernel",
    )
    .unwrap()
}

fn my_ref(x: f32, y: f32) -> f32 {
    if x - 2.0 > y {
        x * y
    } else {
        x + y
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn my_kernel_matches_plain_rust() {
    let dev = gpu();
    let k = my_kernel();
    let mut rng = Rng::new(1);
    for n in [1usize, 255, 256, 257, 1000, 100_003, 10_000_000] {
        let xv: Vec<f32> = rng.uniform(n, 5.0);
        let yv: Vec<f32> = rng.uniform(n, 5.0);
        let x = Array::from_vec(xv.clone(), &[n], &dev).unwrap();
        let y = Array::from_vec(yv.clone(), &[n], &dev).unwrap();
        let z = k.call1::<f32>(&[(&x).into(), (&y).into()]).unwrap();
        let want: Vec<f32> = xv.iter().zip(&yv).map(|(&a, &b)| my_ref(a, b)).collect();
        assert_allclose_vec(&z, &want, &[n], 1e-6, 0.0);
        // A second call is served by the kernel's own cache and gives the same.
        let z2 = k.call(&[(&x).into(), (&y).into()]).unwrap().pop().unwrap();
        assert_eq!(
            z2.into_array::<f32>().unwrap().to_vec().unwrap(),
            z.to_vec().unwrap()
        );
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn placeholders_bind_each_dtype() {
    let dev = gpu();
    let k = ElementwiseKernel::new("T x, T y", "T z", "z = x * y + x", "mul_add").unwrap();
    let mut rng = Rng::new(2);
    let n = 1031;
    macro_rules! check {
        ($t:ty, $rtol:expr, $f:expr) => {{
            let xv: Vec<$t> = rng.uniform(n, 100.0);
            let yv: Vec<$t> = rng.uniform(n, 100.0);
            let x = Array::from_vec(xv.clone(), &[n], &dev).unwrap();
            let y = Array::from_vec(yv.clone(), &[n], &dev).unwrap();
            let z = k.call1::<$t>(&[(&x).into(), (&y).into()]).unwrap();
            let f = $f;
            let want: Vec<$t> = xv.iter().zip(&yv).map(|(&a, &b)| f(a, b)).collect();
            assert_allclose_vec(&z, &want, &[n], $rtol, 1e-3);
        }};
    }
    check!(f32, 1e-5, |a: f32, b: f32| a * b + a);
    check!(f64, 1e-13, |a: f64, b: f64| a * b + a);
    check!(i32, 0.0, |a: i32, b: i32| a.wrapping_mul(b).wrapping_add(a));
    check!(c128, 1e-13, |a: c128, b: c128| a * b + a);
}

/// A view taken of a GPU array.
type GpuView = dyn Fn(&Array<f64, Cuda>) -> Array<f64, Cuda>;
/// The same view of a CPU array.
type CpuView = dyn Fn(&Array<f64, Cpu>) -> Array<f64, Cpu>;

/// `z = x - y` on the GPU against the CPU backend's `x - y` for views of every kind.
#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn views_of_every_kind() {
    let dev = gpu();
    let cpu = Cpu::new();
    let k = ElementwiseKernel::new("T x, T y", "T z", "z = x - y", "sub_views").unwrap();
    let mut rng = Rng::new(3);
    let mut check = |xs: &[usize], ys: &[usize], fx: &GpuView, fxc: &CpuView| {
        let xv: Vec<f64> = rng.uniform(xs.iter().product(), 3.0);
        let yv: Vec<f64> = rng.uniform(ys.iter().product(), 3.0);
        let xg = fx(&Array::from_vec(xv.clone(), xs, &dev).unwrap());
        let xc = fxc(&Array::from_vec(xv, xs, &cpu).unwrap());
        let yg = Array::from_vec(yv.clone(), ys, &dev).unwrap();
        let yc = Array::from_vec(yv, ys, &cpu).unwrap();
        let z = k.call1::<f64>(&[(&xg).into(), (&yg).into()]).unwrap();
        let want = xc.try_sub(&yc).unwrap();
        assert_eq!(z.shape(), want.shape());
        assert_allclose(&z, &want, 0.0, 0.0);
    };
    let id = |a: &Array<f64, Cuda>| a.clone();
    let idc = |a: &Array<f64, Cpu>| a.clone();
    // Broadcast (3, 1, 5) with (4, 1).
    check(&[3, 1, 5], &[4, 1], &id, &idc);
    // Transposed against contiguous.
    check(&[6, 5], &[5, 6], &|a| a.t(), &|a| a.t());
    // Sliced with a step, and reversed.
    check(&[300], &[100], &|a| a.slice(&s![..;3]).unwrap(), &|a| {
        a.slice(&s![..;3]).unwrap()
    });
    check(
        &[7, 9],
        &[7, 3],
        &|a| a.slice(&s![.., ..;-3]).unwrap(),
        &|a| a.slice(&s![.., ..;-3]).unwrap(),
    );
    // 0-d against 1-d, and 0-d alone.
    check(&[], &[513], &id, &idc);
    check(&[], &[], &id, &idc);
    // Empty.
    check(&[0, 3], &[3], &id, &idc);
    // A size not divisible by 256, strided by a transpose of a non-square slab.
    check(&[33, 31], &[31, 33], &|a| a.t(), &|a| a.t());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn nan_and_infinities_pass_through() {
    let dev = gpu();
    let k = ElementwiseKernel::new("T x", "T y", "y = x * 2", "twice").unwrap();
    let xv = vec![
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        1.5,
        f32::MAX,
    ];
    let x = Array::from_vec(xv.clone(), &[6], &dev).unwrap();
    let y = k.call1::<f32>(&[(&x).into()]).unwrap().to_vec().unwrap();
    assert!(y[0].is_nan());
    assert_eq!(
        &y[1..],
        &[f32::INFINITY, f32::NEG_INFINITY, -0.0, 3.0, f32::INFINITY]
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn raw_parameters_see_i_and_the_size() {
    let dev = gpu();
    let k =
        ElementwiseKernel::new("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse").unwrap();
    let base: Vec<i64> = (0..1001).map(|v| v * 7 - 3).collect();
    let a = Array::from_vec(base.clone(), &[1001], &dev).unwrap();
    // The raw argument is a strided view: indexing follows its own C order.
    let view = a.slice(&s![..;2]).unwrap();
    let mut y = Array::<i64, Cuda>::zeros(&[501], &dev).unwrap();
    k.call_into(&[(&view).into()], &mut [(&mut y).into()])
        .unwrap();
    let want: Vec<i64> = base.iter().step_by(2).rev().copied().collect();
    assert_eq!(y.to_vec().unwrap(), want);
    // `i` alone: an index ramp into a given output.
    let ramp = ElementwiseKernel::new("", "int64 y", "y = i", "index_ramp").unwrap();
    let mut r = Array::<i64, Cuda>::zeros(&[3, 5], &dev).unwrap();
    ramp.call_into(&[], &mut [(&mut r).into()]).unwrap();
    assert_eq!(r.to_vec().unwrap(), (0..15).collect::<Vec<i64>>());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn scalars_bind_by_value() {
    let dev = gpu();
    let k =
        ElementwiseKernel::new("T x, T a, float64 b", "T z", "z = x * a + (T)b", "axpb").unwrap();
    let xv: Vec<f32> = Rng::new(4).uniform(777, 2.0);
    let x = Array::from_vec(xv.clone(), &[777], &dev).unwrap();
    // An f64 scalar converts to T = f32 (bound by x); an i32 converts to float64.
    let z = k
        .call1::<f32>(&[(&x).into(), 2.5f64.into(), 3i32.into()])
        .unwrap();
    let want: Vec<f32> = xv.iter().map(|&v| v * 2.5 + 3.0).collect();
    assert_allclose_vec(&z, &want, &[777], 1e-6, 1e-6);
    // A placeholder bound by a scalar alone.
    let s = ElementwiseKernel::new("T x, U s", "U z", "z = s + (U)x", "add_scalar").unwrap();
    let z = s.call1::<f64>(&[(&x).into(), 0.25f64.into()]).unwrap();
    let want: Vec<f64> = xv.iter().map(|&v| 0.25 + v as f64).collect();
    assert_allclose_vec(&z, &want, &[777], 1e-12, 0.0);
    // A float scalar for an integer parameter is refused.
    let e = k.call(&[(&x).into(), 2.5f64.into(), 1.5f64.into()]);
    assert!(e.is_ok(), "float64 b takes 1.5");
    let ki = ElementwiseKernel::new("int32 x, int32 a", "int32 z", "z = x + a", "add_i32").unwrap();
    let xi = Array::<i32, Cuda>::zeros(&[4], &dev).unwrap();
    let e = ki
        .call(&[(&xi).into(), 2.5f64.into()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("input `a` expects int32, got a scalar of type double"),
        "{e}"
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn given_outputs_are_written_through_their_views() {
    let dev = gpu();
    let k = my_kernel();
    let mut rng = Rng::new(5);
    let xv: Vec<f32> = rng.uniform(30, 5.0);
    let yv: Vec<f32> = rng.uniform(30, 5.0);
    let x = Array::from_vec(xv.clone(), &[5, 6], &dev).unwrap();
    let y = Array::from_vec(yv.clone(), &[5, 6], &dev).unwrap();
    let want: Vec<f32> = xv.iter().zip(&yv).map(|(&a, &b)| my_ref(a, b)).collect();
    // A transposed output: element (i, j) of the view is written.
    let mut z = Array::<f32, Cuda>::zeros(&[6, 5], &dev).unwrap().t();
    let kept = z.clone();
    k.call_into(&[(&x).into(), (&y).into()], &mut [(&mut z).into()])
        .unwrap();
    assert_allclose_vec(&z, &want, &[5, 6], 1e-6, 0.0);
    // Copy-on-write: the clone taken before the call still holds zeros.
    assert_eq!(kept.to_vec().unwrap(), vec![0.0; 30]);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn every_error_is_an_err_with_a_clear_message() {
    let dev = gpu();
    let k = my_kernel();
    let x = Array::<f32, Cuda>::ones(&[4], &dev).unwrap();
    let xd = Array::<f64, Cuda>::ones(&[4], &dev).unwrap();
    let x3 = Array::<f32, Cuda>::ones(&[3], &dev).unwrap();
    let msg = |r: Result<Vec<cuprite::cuda::kernel::DynArray>>| r.unwrap_err().to_string();
    let e = msg(k.call(&[(&xd).into(), (&x).into()]));
    assert_eq!(
        e,
        "my_kernel: input `x` expects float32, got a float64 array of shape [4]"
    );
    let e = msg(k.call(&[(&x).into()]));
    assert_eq!(e, "my_kernel: expects 2 input arguments (x, y), got 1");
    let e = msg(k.call(&[(&x).into(), (&x3).into()]));
    assert!(
        e.contains("could not be broadcast together with shapes [4] and [3]"),
        "{e}"
    );
    let t = ElementwiseKernel::new("T x, T y", "T z", "z = x + y", "tt").unwrap();
    let e = msg(t.call(&[(&x).into(), (&xd).into()]));
    assert!(
        e.contains("type placeholder T is bound to both float32 and float64"),
        "{e}"
    );
    let u = ElementwiseKernel::new("T x", "U y", "y = x", "unbound").unwrap();
    let e = msg(u.call(&[(&x).into()]));
    assert!(e.contains("type placeholder U of `y` is not bound"), "{e}");
    // Outputs: wrong shape, not mutable, a scalar.
    let mut z3 = Array::<f32, Cuda>::zeros(&[3], &dev).unwrap();
    let e = k
        .call_into(&[(&x).into(), (&x).into()], &mut [(&mut z3).into()])
        .unwrap_err();
    assert_eq!(
        e,
        Error::ShapeMismatch {
            op: "my_kernel",
            lhs: vec![4],
            rhs: vec![3]
        }
    );
    let z4 = Array::<f32, Cuda>::zeros(&[4], &dev).unwrap();
    let mut outs: [Arg; 1] = [(&z4).into()];
    let e = k
        .call_into(&[(&x).into(), (&x).into()], &mut outs)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("output `z` must be passed as a mutable array"),
        "{e}"
    );
    let mut outs: [Arg; 1] = [1.0f32.into()];
    let e = k
        .call_into(&[(&x).into(), (&x).into()], &mut outs)
        .unwrap_err()
        .to_string();
    assert!(e.contains("output `z` must be an array"), "{e}");
    // A broadcast output view is refused.
    let mut b = Array::<f32, Cuda>::zeros(&[1], &dev)
        .unwrap()
        .broadcast_to(&[4])
        .unwrap();
    let e = k
        .call_into(&[(&x).into(), (&x).into()], &mut [(&mut b).into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("overlap"), "{e}");
    // A scalar for a raw parameter; no array at all.
    let r = ElementwiseKernel::new("raw T x, T y", "T z", "z = x[i] + y", "rawk").unwrap();
    let e = msg(r.call(&[1.0f32.into(), (&x).into()]));
    assert!(
        e.contains("raw parameter `x` takes an array, got a scalar of type float"),
        "{e}"
    );
    let e = msg(t.call(&[1.0f32.into(), 2.0f32.into()]));
    assert!(e.contains("needs at least one array argument"), "{e}");
    // Parameter lists.
    let e = ElementwiseKernel::new("float32", "float32 z", "", "bad")
        .unwrap_err()
        .to_string();
    assert!(e.contains("input parameter 1 (\"float32\")"), "{e}");
    let e = ElementwiseKernel::new("x y", "float32 z", "", "my kernel")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a C identifier"), "{e}");
    // A compile error quotes the user's line.
    let bad =
        ElementwiseKernel::new("T x", "T y", "T t = x;\ny = t + not_declared;", "broken").unwrap();
    let e = msg(bad.call(&[(&x).into()]));
    assert!(e.starts_with("broken: compiling the kernel failed:"), "{e}");
    assert!(e.contains("body line 2 | y = t + not_declared;"), "{e}");
}
