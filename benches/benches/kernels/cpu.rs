//! The CPU rows of the `kernels` bench: the notebook's `my_kernel` written with
//! `cuprite::elementwise!` on the `Cpu` backend (NumPy's figure is
//! `np.where(x - 2 > y, x * y, x + y)`), and the helpers both backends share: the inputs and
//! the host computation every result is checked against.

use crate::sizes::Sizes;
use crate::table::{Figure, Figures};
use cuprite::profiler::{benchmark, BenchmarkOptions};
use cuprite::{Array, ArrayBackend, Cpu, DeviceTimer};
use cuprite_benches::data;

/// my_kernel on the host: the reference of every check.
pub fn my_kernel_host(x: f32, y: f32) -> f32 {
    if x - 2.0 > y {
        x * y
    } else {
        x + y
    }
}

/// Two f32 arrays of `n` values uniform in [-4, 4), from `seed` and `seed + 1` (both
/// branches of my_kernel are taken).
pub fn inputs(n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    (
        data::uniform_f32(n, -4.0, 4.0, seed),
        data::uniform_f32(n, -4.0, 4.0, seed + 1),
    )
}

/// `None` when `got` is my_kernel of `x` and `y` (within 1e-6 relative: exact in
/// practice), else a `WRONG RESULT` message naming the first wrong element.
pub fn check_my_kernel(what: &str, got: &[f32], x: &[f32], y: &[f32]) -> Result<(), String> {
    if got.len() != x.len() {
        return Err(format!(
            "WRONG RESULT: {what}: {} elements, expected {}",
            got.len(),
            x.len()
        ));
    }
    for (i, ((&g, &a), &b)) in got.iter().zip(x).zip(y).enumerate() {
        let want = my_kernel_host(a, b);
        if (g - want).abs() > 1e-6 * want.abs() || g.is_nan() {
            return Err(format!(
                "WRONG RESULT: {what}: element {i} is {g}, expected {want} (x = {a}, y = {b})"
            ));
        }
    }
    Ok(())
}

/// Median of the device times (ms) of `f` on `dev`, `runs` timed calls after 3 untimed
/// ones (`cuprite::profiler::benchmark`, CuPy's `gpu_times`); on the CPU backend the
/// device time is the wall time of the call.
pub fn device_ms<B, R>(
    name: &str,
    dev: &B,
    runs: usize,
    f: impl FnMut() -> cuprite::Result<R>,
) -> Result<Figure, String>
where
    B: DeviceTimer,
{
    let opts = BenchmarkOptions {
        n_warmup: 3,
        n_repeat: runs,
        max_duration: None,
    };
    let res = benchmark(name, &[dev], f, opts).map_err(|e| e.to_string())?;
    let (_, times) = res
        .gpu_times
        .into_iter()
        .next()
        .ok_or("benchmark returned no device times")?;
    Ok(Figure::median_of(
        times.into_iter().map(|t| t * 1e3).collect(),
    ))
}

/// my_kernel through `elementwise!` on `dev`: checked once, then timed. `macro_<backend>_ms`.
pub fn macro_my_kernel<B: ArrayBackend + DeviceTimer>(
    dev: &B,
    sizes: &Sizes,
) -> Result<Figure, String> {
    let my_kernel = cuprite::elementwise!(|x: f32, y: f32| -> f32 {
        if x - 2.0 > y {
            x * y
        } else {
            x + y
        }
    });
    let (hx, hy) = inputs(sizes.n, 1);
    let err = |e: cuprite::Error| e.to_string();
    let x = Array::from_vec(hx.clone(), &[sizes.n], dev).map_err(err)?;
    let y = Array::from_vec(hy.clone(), &[sizes.n], dev).map_err(err)?;
    let z: Array<f32, B> = my_kernel.call(&x, &y).map_err(err)?;
    check_my_kernel(
        "elementwise! my_kernel",
        &z.to_vec().map_err(err)?,
        &hx,
        &hy,
    )?;
    device_ms("elementwise!", dev, sizes.runs, || my_kernel.call(&x, &y))
}

/// The CPU rows: `macro_cpu_ms`.
pub fn run(sizes: &Sizes, figures: &mut Figures) {
    eprintln!("cuprite on the CPU:");
    let r = macro_my_kernel(&Cpu::new(), sizes);
    crate::progress("macro_cpu_ms", &r);
    figures.insert("macro_cpu_ms".into(), r);
}
