//! The CUDA rows of the `kernels` bench (feature `cuda`): the first call of a new
//! ElementwiseKernel, the first call in a later process served from the disk cache (this
//! binary started again with `--child-cached`, see [`child_cached`]), the launch overhead of
//! a compiled kernel, my_kernel's device time against the copy ceiling, `elementwise!` on the
//! GPU, an L2-norm ReductionKernel, and the naive matrix product RawKernel next to the
//! library's matmul. The kernel sources are those of `scripts/bench_kernels.py`, character
//! for character.

use crate::cpu::{check_my_kernel, device_ms, inputs, macro_my_kernel};
use crate::sizes::Sizes;
use crate::table::{Figure, Figures};
use cuprite::cuda::kernel::{ElementwiseKernel, RawKernel, ReductionKernel};
use cuprite::{Array, BackendBase, Cuda};
use cuprite_benches::data;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

const IN_PARAMS: &str = "float32 x, float32 y";
const OUT_PARAMS: &str = "float32 z";
const BODY: &str = "if (x - 2 > y) { z = x * y; } else { z = x + y; }";

const RAW_MATMUL: &str = r#"
extern "C" __global__ void naive_matmul(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) {
            acc += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = acc;
    }
}
"#;

/// Threads per block side of the naive product.
const BLOCK: usize = 16;

fn err(e: cuprite::Error) -> String {
    e.to_string()
}

/// A string no kernel compiled before has in its source.
fn new_nonce() -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "nonce {} {nanos} {}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

/// my_kernel's body made unique by a leading comment (no cache holds it).
fn body_with(nonce: &str) -> String {
    format!("/* {nonce} */ {BODY}")
}

/// A new my_kernel whose body carries `nonce`.
fn my_kernel(nonce: Option<&str>) -> cuprite::Result<ElementwiseKernel> {
    let body = nonce.map_or(BODY.to_string(), body_with);
    ElementwiseKernel::new(IN_PARAMS, OUT_PARAMS, &body, "my_kernel")
}

/// One call of my_kernel.
fn call(
    k: &ElementwiseKernel,
    x: &Array<f32, Cuda>,
    y: &Array<f32, Cuda>,
) -> cuprite::Result<Array<f32, Cuda>> {
    k.call1::<f32>(&[x.into(), y.into()])
}

/// The host data and its device copy.
struct Inputs {
    hx: Vec<f32>,
    hy: Vec<f32>,
    x: Array<f32, Cuda>,
    y: Array<f32, Cuda>,
}

fn upload(dev: &Cuda, n: usize, seed: u64) -> Result<Inputs, String> {
    let (hx, hy) = inputs(n, seed);
    let x = Array::from_vec(hx.clone(), &[n], dev).map_err(err)?;
    let y = Array::from_vec(hy.clone(), &[n], dev).map_err(err)?;
    dev.synchronize().map_err(err)?;
    Ok(Inputs { hx, hy, x, y })
}

/// Files in the cache directory (a later process that adds one compiled instead of loading).
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

/// Runs every CUDA row into `figures` (ids of `bench_kernels.py`). `Ok`: the device's name
/// and notes for the table; `Err`: why the CUDA rows are skipped (no GPU). The kernels
/// compile into a fresh temporary `CUPRITE_CACHE_DIR`, set here (the process has one thread
/// yet) and removed at the end.
pub fn run(sizes: &Sizes, figures: &mut Figures) -> Result<(String, Vec<String>), String> {
    let dev = Cuda::new(0).map_err(err)?;
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "cuprite-kernel-cache-{}",
        new_nonce().replace(' ', "-")
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    std::env::set_var("CUPRITE_CACHE_DIR", &dir);
    let about = format!(
        "{} (compute capability {:?})",
        dev.name(),
        dev.compute_capability()
    );
    eprintln!("cuprite on {about}:");
    let mut notes = Vec::new();
    let mut put = |id: &str, r: Result<Figure, String>| {
        crate::progress(id, &r);
        figures.insert(id.to_string(), r);
    };
    match upload(&dev, sizes.n, 1) {
        Ok(inp) => {
            put("first_call_new_ms", first_call_new(&dev, &inp, sizes));
            let (cold, warm) = first_calls_cached(&dev, &inp, sizes, &dir, &mut notes);
            put("first_call_cached_ms", cold);
            put("first_call_cached_warm_ms", warm);
            put("launch_us", launch(&dev, sizes));
            put("my_kernel_ms", my_kernel_time(&dev, &inp, sizes));
            put("copy_ms", copy_time(&dev, &inp, sizes));
            put("macro_cuda_ms", macro_my_kernel(&dev, sizes));
            put("l2_norm_ms", l2_norm(&dev, &inp, sizes));
        }
        Err(e) => {
            for id in ["first_call_new_ms", "first_call_cached_ms", "my_kernel_ms"] {
                put(id, Err(format!("uploading the inputs: {e}")));
            }
        }
    }
    match matrices(&dev, sizes.mat) {
        Ok(m) => {
            put("raw_matmul_ms", raw_matmul(&dev, &m, sizes));
            put("matmul_ms", matmul(&dev, &m, sizes));
        }
        Err(e) => put("matmul_ms", Err(format!("uploading the matrices: {e}"))),
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok((about, notes))
}

/// Workload 1: construction + first call + sync of `repeats` new kernels; the first checked.
fn first_call_new(dev: &Cuda, inp: &Inputs, sizes: &Sizes) -> Result<Figure, String> {
    let mut ms = Vec::new();
    for i in 0..sizes.repeats {
        let nonce = new_nonce();
        dev.synchronize().map_err(err)?;
        let t0 = Instant::now();
        let k = my_kernel(Some(&nonce)).map_err(err)?;
        let z = call(&k, &inp.x, &inp.y).map_err(err)?;
        dev.synchronize().map_err(err)?;
        ms.push(t0.elapsed().as_secs_f64() * 1e3);
        if i == 0 {
            check_my_kernel("my_kernel", &z.to_vec().map_err(err)?, &inp.hx, &inp.hy)?;
        }
    }
    Ok(Figure::median_of(ms))
}

/// Workload 2: this process compiles two new kernels into `dir`, then `repeats` later
/// processes each time construction + first call + sync of the first (the process's first
/// kernel: `first_call_cached_ms`) and then of the second (`first_call_cached_warm_ms`),
/// both loaded from the cache.
fn first_calls_cached(
    dev: &Cuda,
    inp: &Inputs,
    sizes: &Sizes,
    dir: &Path,
    notes: &mut Vec<String>,
) -> (Result<Figure, String>, Result<Figure, String>) {
    match later_processes(dev, inp, sizes, dir, notes) {
        Ok((cold, warm)) => (Ok(Figure::median_of(cold)), Ok(Figure::median_of(warm))),
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

fn later_processes(
    dev: &Cuda,
    inp: &Inputs,
    sizes: &Sizes,
    dir: &Path,
    notes: &mut Vec<String>,
) -> Result<(Vec<f64>, Vec<f64>), String> {
    let nonces = [new_nonce(), new_nonce()];
    for nonce in &nonces {
        let k = my_kernel(Some(nonce)).map_err(err)?;
        drop(call(&k, &inp.x, &inp.y).map_err(err)?);
    }
    dev.synchronize().map_err(err)?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    let mut compiled = 0;
    for _ in 0..sizes.repeats {
        let before = entries(dir);
        let out = Command::new(&exe)
            .arg("--child-cached")
            .args(&nonces)
            .arg(sizes.n.to_string())
            .env("CUPRITE_CACHE_DIR", dir)
            .output()
            .map_err(|e| format!("starting {}: {e}", exe.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().last().unwrap_or("");
        let v: serde_json::Value = serde_json::from_str(line).map_err(|_| {
            format!(
                "the later process exited with {} and printed {line:?}; stderr: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )
        })?;
        match (v["ms"].as_f64(), v["warm_ms"].as_f64()) {
            (Some(c), Some(w)) => {
                cold.push(c);
                warm.push(w);
            }
            _ => return Err(v["error"].as_str().unwrap_or("no figure").to_string()),
        }
        if entries(dir) > before {
            compiled += 1;
        }
    }
    if compiled > 0 {
        notes.push(format!(
            "Row 2: {compiled} of {} later processes wrote to the cache directory (they \
             compiled something instead of loading it).",
            sizes.repeats
        ));
    }
    Ok((cold, warm))
}

/// The later process of workload 2: `--child-cached NONCE1 NONCE2 N`. Initialises the
/// device and uploads the inputs (untimed), then times construction + first call + sync of
/// the kernel with the first nonce, then of the one with the second, and prints
/// `{"ms": ..., "warm_ms": ...}` (or `{"error": ...}`) as its last line. Exit status 0, 1
/// on an error, 2 on bad arguments.
pub fn child_cached(args: &[String]) -> i32 {
    let (nonces, n) = match args {
        [a, b, n, ..] => match n.parse::<usize>() {
            Ok(n) => ([a.clone(), b.clone()], n),
            Err(_) => return 2,
        },
        _ => {
            eprintln!("kernels: --child-cached NONCE1 NONCE2 N");
            return 2;
        }
    };
    let r = (|| -> Result<[f64; 2], String> {
        let dev = Cuda::new(0).map_err(err)?;
        let inp = upload(&dev, n, 1)?;
        let mut ms = [0.0; 2];
        for (t, nonce) in ms.iter_mut().zip(&nonces) {
            let t0 = Instant::now();
            let k = my_kernel(Some(nonce)).map_err(err)?;
            let z = call(&k, &inp.x, &inp.y).map_err(err)?;
            dev.synchronize().map_err(err)?;
            *t = t0.elapsed().as_secs_f64() * 1e3;
            check_my_kernel("my_kernel", &z.to_vec().map_err(err)?, &inp.hx, &inp.hy)?;
        }
        Ok(ms)
    })();
    match r {
        Ok([ms, warm_ms]) => {
            println!("{}", serde_json::json!({ "ms": ms, "warm_ms": warm_ms }));
            0
        }
        Err(e) => {
            println!("{}", serde_json::json!({ "error": e }));
            1
        }
    }
}

/// Workload 3: µs per call of a compiled kernel on `small` elements: `calls` calls, one
/// sync, the loop's wall time / calls; median of 5 loops.
fn launch(dev: &Cuda, sizes: &Sizes) -> Result<Figure, String> {
    let inp = upload(dev, sizes.small, 2)?;
    let k = my_kernel(None).map_err(err)?;
    let z = call(&k, &inp.x, &inp.y).map_err(err)?;
    check_my_kernel("my_kernel", &z.to_vec().map_err(err)?, &inp.hx, &inp.hy)?;
    for _ in 0..100 {
        drop(call(&k, &inp.x, &inp.y).map_err(err)?);
    }
    dev.synchronize().map_err(err)?;
    let mut per_call = Vec::new();
    for _ in 0..5 {
        let t0 = Instant::now();
        for _ in 0..sizes.calls {
            drop(std::hint::black_box(call(&k, &inp.x, &inp.y).map_err(err)?));
        }
        dev.synchronize().map_err(err)?;
        per_call.push(t0.elapsed().as_secs_f64() * 1e6 / sizes.calls as f64);
    }
    Ok(Figure::median_of(per_call))
}

/// Workload 4: my_kernel's device time on N elements.
fn my_kernel_time(dev: &Cuda, inp: &Inputs, sizes: &Sizes) -> Result<Figure, String> {
    let k = my_kernel(None).map_err(err)?;
    let z = call(&k, &inp.x, &inp.y).map_err(err)?;
    check_my_kernel("my_kernel", &z.to_vec().map_err(err)?, &inp.hx, &inp.hy)?;
    device_ms("my_kernel", dev, sizes.runs, || call(&k, &inp.x, &inp.y))
}

/// The copy ceiling: `x.copy()` of N elements.
fn copy_time(dev: &Cuda, inp: &Inputs, sizes: &Sizes) -> Result<Figure, String> {
    if inp.x.copy().and_then(|c| c.to_vec()).map_err(err)? != inp.hx {
        return Err("WRONG RESULT: x.copy() differs from x".into());
    }
    device_ms("copy", dev, sizes.runs, || inp.x.copy())
}

/// Workload 6: the L2-norm ReductionKernel over N elements.
fn l2_norm(dev: &Cuda, inp: &Inputs, sizes: &Sizes) -> Result<Figure, String> {
    let norm = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
        .map_err(err)?;
    let run = || norm.call1::<f32>(&[(&inp.x).into()], cuprite::Axes::All, false);
    let got = run().and_then(|r| r.item()).map_err(err)? as f64;
    let want = inp
        .hx
        .iter()
        .map(|&v| (v as f64) * (v as f64))
        .sum::<f64>()
        .sqrt();
    if (got - want).abs() > 1e-4 * want || got.is_nan() {
        return Err(format!("WRONG RESULT: l2 norm is {got}, expected {want}"));
    }
    device_ms("l2norm", dev, sizes.runs, run)
}

/// The two random matrices of workload 7, on the host and on the device.
struct Matrices {
    m: usize,
    ha: Vec<f32>,
    hb: Vec<f32>,
    a: Array<f32, Cuda>,
    b: Array<f32, Cuda>,
}

fn matrices(dev: &Cuda, m: usize) -> Result<Matrices, String> {
    let ha = data::uniform_f32(m * m, -1.0, 1.0, 3);
    let hb = data::uniform_f32(m * m, -1.0, 1.0, 4);
    let a = Array::from_vec(ha.clone(), &[m, m], dev).map_err(err)?;
    let b = Array::from_vec(hb.clone(), &[m, m], dev).map_err(err)?;
    Ok(Matrices { m, ha, hb, a, b })
}

/// Freivalds' test: `C r` against `A (B r)` in f64 for `r` of random signs, within
/// 1e-6 |A| |B| 1 per row.
fn check_product(what: &str, c: &[f32], mm: &Matrices) -> Result<(), String> {
    let m = mm.m;
    let r: Vec<f64> = data::uniform(m, -1.0, 1.0, 23)
        .into_iter()
        .map(f64::signum)
        .collect();
    let mul = |mat: &[f32], v: &[f64], abs: bool| -> Vec<f64> {
        (0..m)
            .map(|i| {
                let row = &mat[i * m..(i + 1) * m];
                row.iter()
                    .zip(v)
                    .map(|(&a, &x)| {
                        if abs {
                            (a as f64).abs() * x
                        } else {
                            a as f64 * x
                        }
                    })
                    .sum()
            })
            .collect()
    };
    let cr = mul(c, &r, false);
    let abr = mul(&mm.ha, &mul(&mm.hb, &r, false), false);
    let bound = mul(&mm.ha, &mul(&mm.hb, &vec![1.0; m], true), true);
    for i in 0..m {
        if (cr[i] - abr[i]).abs() > 1e-6 * bound[i] || cr[i].is_nan() {
            return Err(format!(
                "WRONG RESULT: {what}: row {i} of C r is {}, expected {}",
                cr[i], abr[i]
            ));
        }
    }
    Ok(())
}

/// Workload 7: the naive product RawKernel, 16 x 16 blocks, one thread per output element.
fn raw_matmul(dev: &Cuda, mm: &Matrices, sizes: &Sizes) -> Result<Figure, String> {
    let m = mm.m;
    let kern = RawKernel::new(RAW_MATMUL, "naive_matmul").map_err(err)?;
    let side = m.div_ceil(BLOCK) as u32;
    let mut c = Array::<f32, Cuda>::zeros(&[m, m], dev).map_err(err)?;
    let run = |c: &mut Array<f32, Cuda>| {
        let mut args = [(&mm.a).into(), (&mm.b).into(), c.into(), (m as i32).into()];
        // SAFETY: a, b and c are m x m, C-contiguous; the kernel's thread (row, col) reads
        // rows `row` of a and columns `col` of b and writes c[row, col] only when
        // row < m and col < m, so every access is in bounds and no two threads write the
        // same element; the loop over k ends.
        unsafe {
            kern.launch(
                dev,
                (side, side),
                (BLOCK as u32, BLOCK as u32),
                0,
                &mut args,
            )
        }
    };
    run(&mut c).map_err(err)?;
    check_product("naive matmul RawKernel", &c.to_vec().map_err(err)?, mm)?;
    device_ms("naive_matmul", dev, sizes.runs, || run(&mut c))
}

/// The library's product of the same matrices.
fn matmul(dev: &Cuda, mm: &Matrices, sizes: &Sizes) -> Result<Figure, String> {
    let c = mm.a.matmul(&mm.b).map_err(err)?;
    check_product("matmul", &c.to_vec().map_err(err)?, mm)?;
    device_ms("matmul", dev, sizes.runs, || mm.a.matmul(&mm.b))
}
