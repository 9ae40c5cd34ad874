//! The CUDA rows of the `dtypes` bench (feature `cuda`): the f16 and bf16 products
//! (`a.matmul(&b)`, cuBLAS with f32 accumulation), the f16 copy, `a + b` and sum of 2^28
//! elements, and the u16 image pipeline, each checked once against the host
//! ([`crate::host`]) and then timed in device time.

use crate::host::{self, Half};
use crate::ops::normalise_u16;
use crate::sizes::Sizes;
use crate::table::{Figure, Figures};
use cuprite::profiler::{benchmark, BenchmarkOptions};
use cuprite::{bf16, f16, Array, Cuda};

fn err(e: cuprite::Error) -> String {
    e.to_string()
}

/// What the CUDA rows found besides their times.
pub struct CudaRun {
    /// `NVIDIA H200 (compute capability (9, 0))`.
    pub device: String,
    /// `|x.sum() - exact|` of the f16 sum row, when it ran.
    pub sum_error: Option<f64>,
    /// Pixels of the u16 pipeline off by one from the host's, and the pixel count.
    pub off_by_one: Option<(usize, usize)>,
}

/// Median of the device times (ms) of `f` on `dev`: CUDA events around each of `runs`
/// calls after 3 untimed ones (`cuprite::profiler::benchmark`, CuPy's `gpu_times`).
fn device_ms<R>(
    name: &str,
    dev: &Cuda,
    runs: usize,
    f: impl FnMut() -> cuprite::Result<R>,
) -> Result<Figure, String> {
    let opts = BenchmarkOptions {
        n_warmup: 3,
        n_repeat: runs,
        max_duration: None,
    };
    let res = benchmark(name, &[dev], f, opts).map_err(err)?;
    let (_, times) = res
        .gpu_times
        .into_iter()
        .next()
        .ok_or("benchmark returned no device times")?;
    Ok(Figure::median_of(
        times.into_iter().map(|t| t * 1e3).collect(),
    ))
}

/// Runs every CUDA row into `figures` (ids of `bench_dtypes.py`). `Err`: why the CUDA rows
/// are skipped (no GPU).
pub fn run(sizes: &Sizes, figures: &mut Figures) -> Result<CudaRun, String> {
    let dev = Cuda::new(0).map_err(err)?;
    let mut found = CudaRun {
        device: format!(
            "{} (compute capability {:?})",
            dev.name(),
            dev.compute_capability()
        ),
        sum_error: None,
        off_by_one: None,
    };
    eprintln!("cuprite on {}:", found.device);
    let mut put = |id: &str, r: Result<Figure, String>| {
        crate::progress(id, &r);
        figures.insert(id.to_string(), r);
    };
    put("matmul_f16_ms", matmul::<f16>(&dev, sizes));
    put("matmul_bf16_ms", matmul::<bf16>(&dev, sizes));
    match Halves::upload(&dev, sizes.n) {
        Ok(h) => {
            put("copy_ms", h.copy(&dev, sizes));
            put("add_f16_ms", h.add(&dev, sizes));
            put(
                "sum_f16_ms",
                h.sum(&dev, sizes).map(|(fig, e)| {
                    found.sum_error = Some(e);
                    fig
                }),
            );
        }
        Err(e) => {
            for id in ["copy_ms", "add_f16_ms", "sum_f16_ms"] {
                put(id, Err(format!("uploading the inputs: {e}")));
            }
        }
    }
    put(
        "u16_pipeline_ms",
        pipeline(&dev, sizes).map(|(fig, off)| {
            found.off_by_one = Some((off, sizes.img * sizes.img));
            fig
        }),
    );
    Ok(found)
}

/// Rows 1-2: the product of two `mat x mat` matrices of `T`, uniform in [-1, 1).
fn matmul<T: Half>(dev: &Cuda, sizes: &Sizes) -> Result<Figure, String> {
    let m = sizes.mat;
    let ha = host::uniform_half::<T>(m * m, 3);
    let hb = host::uniform_half::<T>(m * m, 4);
    let a = Array::from_vec(ha.clone(), &[m, m], dev).map_err(err)?;
    let b = Array::from_vec(hb.clone(), &[m, m], dev).map_err(err)?;
    let c = a.matmul(&b).and_then(|c| c.to_vec()).map_err(err)?;
    host::check_product(&format!("{} matmul", T::NAME), &c, &ha, &hb, m)?;
    drop(c);
    device_ms(&format!("matmul {}", T::NAME), dev, sizes.runs, || {
        a.matmul(&b)
    })
}

/// The two f16 arrays of rows 3-4, on the host and on the device.
struct Halves {
    hx: Vec<f16>,
    hy: Vec<f16>,
    x: Array<f16, Cuda>,
    y: Array<f16, Cuda>,
}

impl Halves {
    fn upload(dev: &Cuda, n: usize) -> Result<Halves, String> {
        let hx = host::uniform_half::<f16>(n, 5);
        let hy = host::uniform_half::<f16>(n, 6);
        let x = Array::from_vec(hx.clone(), &[n], dev).map_err(err)?;
        let y = Array::from_vec(hy.clone(), &[n], dev).map_err(err)?;
        Ok(Halves { hx, hy, x, y })
    }

    /// The copy ceiling: `x.copy()`.
    fn copy(&self, dev: &Cuda, sizes: &Sizes) -> Result<Figure, String> {
        let got = self.x.copy().and_then(|c| c.to_vec()).map_err(err)?;
        host::check_equal("f16 x.copy()", &got, &self.hx)?;
        drop(got);
        device_ms("copy f16", dev, sizes.runs, || self.x.copy())
    }

    /// `x + y`, checked bit for bit against the half crate's sums (each rounded once).
    fn add(&self, dev: &Cuda, sizes: &Sizes) -> Result<Figure, String> {
        let got = self
            .x
            .try_add(&self.y)
            .and_then(|c| c.to_vec())
            .map_err(err)?;
        let want: Vec<f16> = self.hx.iter().zip(&self.hy).map(|(&a, &b)| a + b).collect();
        host::check_equal("f16 a + b", &got, &want)?;
        drop((got, want));
        device_ms("add f16", dev, sizes.runs, || self.x.try_add(&self.y))
    }

    /// `x.sum()` (f16, accumulated in f32) against the exact sum; also its error.
    fn sum(&self, dev: &Cuda, sizes: &Sizes) -> Result<(Figure, f64), String> {
        let got = self.x.sum().and_then(|s| s.item()).map_err(err)?;
        let (exact, abs_sum) = host::exact_sum(&self.hx);
        let e = host::check_sum("f16 x.sum()", got, exact, abs_sum)?;
        let fig = device_ms("sum f16", dev, sizes.runs, || self.x.sum())?;
        Ok((fig, e))
    }
}

/// Row 5: the u16 image pipeline; also the pixels off by one from the host's.
fn pipeline(dev: &Cuda, sizes: &Sizes) -> Result<(Figure, usize), String> {
    let side = sizes.img;
    let hx = host::image_u16(side, 7);
    let x = Array::from_vec(hx.clone(), &[side, side], dev).map_err(err)?;
    let got = normalise_u16(&x).and_then(|o| o.to_vec()).map_err(err)?;
    let off = host::check_pipeline("u16 pipeline", &got, &hx)?;
    let fig = device_ms("u16 pipeline", dev, sizes.runs, || normalise_u16(&x))?;
    Ok((fig, off))
}
