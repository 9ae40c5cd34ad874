//! `RawKernel` and `RawModule` on the GPU: vector addition against plain Rust, the naive
//! matrix product against `matmul`, a module of two functions, template instantiations by
//! name expressions, dynamic shared memory, and the argument and launch checks.

use crate::diff_support::{gpu, Rng};
use cuprite::cuda::kernel::{Arg, RawKernel, RawModule};
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_allclose_vec};

const VADD: &str = r#"
extern "C" __global__ void vadd(const float* __restrict__ a, const float* __restrict__ b,
                                float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"#;

const MATMUL: &str = r#"
// One thread per output element: c[r, k] = sum_j a[r, j] * b[j, k].
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c,
                                        int m, int n, int p) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m && k < p) {
        float s = 0.0f;
        for (int j = 0; j < n; ++j) s += a[r * n + j] * b[j * p + k];
        c[r * p + k] = s;
    }
}
"#;

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn vector_add_matches_plain_rust() {
    let dev = gpu();
    let k = RawKernel::new(VADD, "vadd").unwrap();
    let n = 100_003usize;
    let mut rng = Rng::new(21);
    let (av, bv): (Vec<f32>, Vec<f32>) = (rng.uniform(n, 1.0), rng.uniform(n, 1.0));
    let a = Array::from_vec(av.clone(), &[n], &dev).unwrap();
    let b = Array::from_vec(bv.clone(), &[n], &dev).unwrap();
    let mut c = Array::<f32, Cuda>::zeros(&[n], &dev).unwrap();
    let kept = c.clone();
    let blocks = n.div_ceil(256) as u32;
    // SAFETY: the kernel touches indices below n = the arrays' length.
    unsafe {
        k.launch(
            &dev,
            blocks,
            256,
            0,
            &mut [(&a).into(), (&b).into(), (&mut c).into(), (n as i32).into()],
        )
        .unwrap()
    };
    let want: Vec<f32> = av.iter().zip(&bv).map(|(x, y)| x + y).collect();
    assert_allclose_vec(&c, &want, &[n], 0.0, 0.0);
    assert_eq!(
        kept.to_vec().unwrap(),
        vec![0.0; n],
        "the clone must not see the write"
    );
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn naive_matmul_matches_matmul() {
    let dev = gpu();
    let k = RawKernel::new(MATMUL, "matmul_naive").unwrap();
    let (m, n, p) = (70usize, 50usize, 90usize);
    let mut rng = Rng::new(22);
    let a = Array::from_vec(rng.uniform::<f32>(m * n, 1.0), &[m, n], &dev).unwrap();
    let b = Array::from_vec(rng.uniform::<f32>(n * p, 1.0), &[n, p], &dev).unwrap();
    let mut c = Array::<f32, Cuda>::zeros(&[m, p], &dev).unwrap();
    let grid = (p.div_ceil(16) as u32, m.div_ceil(16) as u32);
    // SAFETY: rows below m, columns below p, inner index below n: inside every array.
    unsafe {
        k.launch(
            &dev,
            grid,
            (16, 16),
            0,
            &mut [
                (&a).into(),
                (&b).into(),
                (&mut c).into(),
                (m as i32).into(),
                (n as i32).into(),
                (p as i32).into(),
            ],
        )
        .unwrap()
    };
    assert_allclose(&c, &a.matmul(&b).unwrap(), 1e-5, 1e-5);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn a_module_of_two_functions_and_templates() {
    let dev = gpu();
    let src = r#"
extern "C" __global__ void fill(double* x, double v, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}
extern "C" __global__ void scale(double* x, double a, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
template <typename T>
__global__ void my_sum(const T* x, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}
"#;
    let m = RawModule::new(src).unwrap();
    let (fill, scale) = (m.function("fill").unwrap(), m.function("scale").unwrap());
    let mut x = Array::<f64, Cuda>::zeros(&[1000], &dev).unwrap();
    // SAFETY: both kernels touch indices below n = 1000.
    unsafe {
        fill.launch(
            &dev,
            4,
            256,
            0,
            &mut [(&mut x).into(), 1.5f64.into(), 1000u64.into()],
        )
        .unwrap();
        scale
            .launch(
                &dev,
                4,
                256,
                0,
                &mut [(&mut x).into(), 2.0f64.into(), 1000usize.into()],
            )
            .unwrap();
    }
    assert_eq!(x.to_vec().unwrap(), vec![3.0; 1000]);
    // A mangled template without a name expression is refused with the reason.
    let e = m.function("my_sum").unwrap_err().to_string();
    assert!(e.contains("name expression"), "{e}");
    let t = RawModule::with_name_expressions(src, &["my_sum<float>", "my_sum<double>"]).unwrap();
    let v: Vec<f32> = Rng::new(23).uniform(5000, 1.0);
    let want: f32 = v.iter().sum();
    let xf = Array::from_vec(v, &[5000], &dev).unwrap();
    let mut out = Array::<f32, Cuda>::zeros(&[1], &dev).unwrap();
    let sf = t.function("my_sum<float>").unwrap();
    // SAFETY: indices below n = 5000; one output element.
    unsafe {
        sf.launch(
            &dev,
            20,
            256,
            0,
            &mut [(&xf).into(), (&mut out).into(), 5000i32.into()],
        )
        .unwrap()
    };
    assert!(
        (out.item().unwrap() - want).abs() < 1e-3,
        "{} vs {want}",
        out.item().unwrap()
    );
    let sd = t.function("my_sum<double>").unwrap();
    let xd = Array::<f64, Cuda>::ones(&[300], &dev).unwrap();
    let mut outd = Array::<f64, Cuda>::zeros(&[1], &dev).unwrap();
    // SAFETY: as above with n = 300.
    unsafe {
        sd.launch(
            &dev,
            2,
            256,
            0,
            &mut [(&xd).into(), (&mut outd).into(), 300i32.into()],
        )
        .unwrap()
    };
    assert_eq!(outd.item().unwrap(), 300.0);
    // The template's parameters are read through the name expression.
    let e = unsafe {
        sd.launch(
            &dev,
            2,
            256,
            0,
            &mut [(&xf).into(), (&mut outd).into(), 300i32.into()],
        )
    };
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("expects a float64 array, got a float32 array"));
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn dynamic_shared_memory_beyond_48k() {
    let dev = gpu();
    let src = r#"
extern "C" __global__ void rev_block(const float* x, float* y, int n) {
    extern __shared__ float s[];
    int t = threadIdx.x;
    for (int j = t; j < n; j += blockDim.x) s[j] = x[j];
    __syncthreads();
    for (int j = t; j < n; j += blockDim.x) y[j] = s[n - 1 - j];
}
"#;
    let k = RawKernel::new(src, "rev_block").unwrap();
    let n = 16_384usize; // 64 KiB of shared memory
    let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let x = Array::from_vec(v.clone(), &[n], &dev).unwrap();
    let mut y = Array::<f32, Cuda>::zeros(&[n], &dev).unwrap();
    // SAFETY: one block; indices below n; n floats of dynamic shared memory.
    unsafe {
        k.launch(
            &dev,
            1,
            256,
            (n * 4) as u32,
            &mut [(&x).into(), (&mut y).into(), (n as i32).into()],
        )
        .unwrap()
    };
    let want: Vec<f32> = v.iter().rev().copied().collect();
    assert_eq!(y.to_vec().unwrap(), want);
}

/// Correct arguments for `vadd` over 64 elements.
fn good<'a>(a: &'a Array<f32, Cuda>, c: &'a mut Array<f32, Cuda>) -> [Arg<'a>; 4] {
    [a.into(), a.into(), c.into(), 64i32.into()]
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn arguments_and_launch_configurations_are_checked() {
    let dev = gpu();
    let k = RawKernel::new(VADD, "vadd").unwrap();
    let a = Array::<f32, Cuda>::ones(&[64], &dev).unwrap();
    let a64 = Array::<f64, Cuda>::ones(&[64], &dev).unwrap();
    let strided = Array::<f32, Cuda>::ones(&[128], &dev)
        .unwrap()
        .slice(&s![..;2])
        .unwrap();
    let mut c = Array::<f32, Cuda>::zeros(&[64], &dev).unwrap();
    let launch = |grid: u32, block: (u32, u32, u32), shared: u32, args: &mut [Arg]| {
        // SAFETY: every call below is refused before launching, or touches indices below 64.
        unsafe { k.launch(&dev, grid, block, shared, args) }.map_err(|e| e.to_string())
    };
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [(&a).into(), (&a).into(), (&mut c).into()],
    )
    .unwrap_err();
    assert_eq!(e, "vadd: expects 4 arguments (a, b, c, n), got 3");
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [(&a64).into(), (&a).into(), (&mut c).into(), 64i32.into()],
    )
    .unwrap_err();
    assert!(
        e.contains("parameter `a` (float*) expects a float32 array, got a float64 array"),
        "{e}"
    );
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [
            (&strided).into(),
            (&a).into(),
            (&mut c).into(),
            64i32.into(),
        ],
    )
    .unwrap_err();
    assert!(e.contains("to_contiguous()"), "{e}");
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [(&a).into(), (&a).into(), (&mut c).into(), 64i64.into()],
    )
    .unwrap_err();
    assert!(e.contains("parameter `n` (int) takes a scalar of exactly that type, got a scalar of type long long"), "{e}");
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [(&a).into(), 1.0f32.into(), (&mut c).into(), 64i32.into()],
    )
    .unwrap_err();
    assert!(e.contains("parameter `b` (float*) takes an array"), "{e}");
    let e = launch(
        1,
        (64, 1, 1),
        0,
        &mut [(&a).into(), (&a).into(), (&a).into(), (&a).into()],
    )
    .unwrap_err();
    assert!(e.contains("parameter `n` (int) takes a scalar"), "{e}");
    let e = launch(1, (2048, 1, 1), 0, &mut good(&a, &mut c)).unwrap_err();
    assert!(
        e.contains("per-dimension") || e.contains("at most 1024"),
        "{e}"
    );
    let e = launch(1, (32, 32, 2), 0, &mut good(&a, &mut c)).unwrap_err();
    assert!(e.contains("2048 threads"), "{e}");
    let e = launch(0, (64, 1, 1), 0, &mut good(&a, &mut c)).unwrap_err();
    assert!(e.contains("zero"), "{e}");
    let e = launch(1, (64, 1, 1), 1 << 30, &mut good(&a, &mut c)).unwrap_err();
    assert!(e.contains("shared memory"), "{e}");
    // After all the refusals, a good launch works.
    launch(1, (64, 1, 1), 0, &mut good(&a, &mut c)).unwrap();
    assert_eq!(c.to_vec().unwrap(), vec![2.0; 64]);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn undeclared_parameters_and_compile_errors() {
    let dev = gpu();
    let src = "#define KERNEL(name) extern \"C\" __global__ void name(float* x, int n)\n\
               KERNEL(ones) { int i = threadIdx.x; if (i < n) x[i] = 1.0f; }\n";
    let k = RawKernel::new(src, "ones").unwrap();
    let mut x = Array::<f32, Cuda>::zeros(&[32], &dev).unwrap();
    // SAFETY: refused (parameters unknown) before launching.
    let e = unsafe { k.launch(&dev, 1, 32, 0, &mut [(&mut x).into(), 32i32.into()]) }
        .unwrap_err()
        .to_string();
    assert!(e.contains("with_params"), "{e}");
    let k = k.with_params("float* x, int n").unwrap();
    // SAFETY: indices below 32.
    unsafe {
        k.launch(&dev, 1, 32, 0, &mut [(&mut x).into(), 32i32.into()])
            .unwrap()
    };
    assert_eq!(x.to_vec().unwrap(), vec![1.0; 32]);
    let bad = RawKernel::new(
        "extern \"C\" __global__ void k(float* x) {\n    x[0] = missing;\n}\n",
        "k",
    )
    .unwrap();
    // SAFETY: refused (compile error) before launching.
    let e = unsafe { bad.launch(&dev, 1, 1, 0, &mut [(&mut x).into()]) }
        .unwrap_err()
        .to_string();
    assert!(e.contains("source line 2 |     x[0] = missing;"), "{e}");
}
