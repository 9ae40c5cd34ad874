//! Data in and out through NumPy's files: load an `.npz` archive of two arrays — `x`, the
//! samples (any real dtype), and `cols`, a 0-d integer — run the quickstart's pipeline on
//! them (sort, reshape to (-1, cols), normalise every column with broadcasting:
//! (m - mean(axis 0)) / std(axis 0)) and save the result as `.npy`, which NumPy reads with
//! `np.load`. Without an archive, one is written first (`x` = sin(0..1 000 000) as float32,
//! `cols` = 1000), in the system's temporary directory.
//!
//! Run: `cargo run --release --example npz_pipeline -- [input.npz] [--out result.npy]
//! [--backend cpu|cuda]` (`cuda` needs `--features cuda` and a GPU). The backend is the only
//! thing that changes between runs: the arrays are loaded straight onto its device.

use cuprite::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Writes the archive the example reads when it is given none.
fn write_sample(path: &Path, dev: &Cpu) -> Result<()> {
    let x = Array::<f64, Cpu>::ramp(1_000_000, 0.0, 1.0, dev)?
        .sin()?
        .astype::<f32>()?;
    let cols = Array::<i64, Cpu>::scalar(1000, dev)?;
    let (x, cols) = (DynArray::from(x), DynArray::from(cols));
    save_npz(path, &[("x", &x), ("cols", &cols)], true)?;
    println!("wrote the sample archive {}", path.display());
    Ok(())
}

/// The quickstart's pipeline on the archive's arrays, on whatever device they were loaded.
fn pipeline<B: ArrayBackend>(x: &DynArray<B>, cols: &DynArray<B>) -> Result<Array<f64, B>> {
    // `x` may be of any real dtype: astype converts it as NumPy does.
    let x = x.astype::<f64>()?.ravel()?;
    let cols = cols.astype::<i64>()?.item()?;
    if cols <= 0 || x.size() % cols as usize != 0 {
        return Err(Error::invalid(
            "npz_pipeline",
            format!("{} values do not fill columns of {cols}", x.size()),
        ));
    }
    let m = x.sort(-1)?.reshape(&[-1, cols as isize])?;
    let mean = m.mean_axes(0, true)?;
    let std = m.std_axes(0, 0.0, true)?;
    Ok(&(&m - &mean) / &std)
}

/// Checks the saved file in plain Rust loops: every column has mean 0 and deviation 1.
fn check_saved(path: &Path) -> Result<()> {
    let z = Array::<f64, Cpu>::load_npy(path, &Cpu::new())?;
    let (rows, cols) = (z.shape()[0], z.shape()[1]);
    let v = z.to_vec()?;
    let mut worst = 0.0f64;
    for c in 0..cols {
        let mean = (0..rows).map(|r| v[r * cols + c]).sum::<f64>() / rows as f64;
        let var = (0..rows)
            .map(|r| (v[r * cols + c] - mean).powi(2))
            .sum::<f64>()
            / rows as f64;
        worst = worst.max(mean.abs()).max((var.sqrt() - 1.0).abs());
    }
    println!(
        "checked {}: every column has mean 0 and std 1 (worst miss {worst:.1e})",
        path.display()
    );
    if worst > 1e-9 {
        eprintln!("MISMATCH: a column misses mean 0 or std 1 by {worst:e}");
        std::process::exit(1);
    }
    Ok(())
}

/// Loads the archive onto `dev`, runs the pipeline and saves its result.
fn run<B: ArrayBackend>(dev: &B, input: &Path, output: &Path) -> Result<()> {
    println!("cuprite npz_pipeline on {}", dev.label());
    let t = Instant::now();
    let arrays = load_npz(input, dev)?;
    for (name, a) in &arrays {
        println!("  {name}: {} {:?}", a.dtype(), a.shape());
    }
    let get = |name: &str| {
        arrays.get(name).ok_or_else(|| {
            Error::invalid(
                "npz_pipeline",
                format!("{} has no array '{name}'", input.display()),
            )
        })
    };
    let z = pipeline(get("x")?, get("cols")?)?;
    z.save_npy(output)?;
    println!(
        "  loaded, normalised and saved {:?} float64 in {:.1} ms",
        z.shape(),
        t.elapsed().as_secs_f64() * 1e3
    );
    println!("result:\n{z}");
    println!("saved {}", output.display());
    check_saved(output)
}

fn main() -> Result<()> {
    let mut input: Option<PathBuf> = None;
    let mut output: Option<PathBuf> = None;
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().expect("--backend needs cpu or cuda"),
            "--out" => output = Some(args.next().expect("--out needs a path").into()),
            path => input = Some(path.into()),
        }
    }
    let input = match input {
        Some(p) => p,
        None => {
            let p = std::env::temp_dir().join("cuprite_npz_pipeline_sample.npz");
            write_sample(&p, &Cpu::new())?;
            p
        }
    };
    let output = output.unwrap_or_else(|| input.with_file_name("cuprite_npz_pipeline_result.npy"));
    match backend.as_str() {
        "cpu" => run(&Cpu::new(), &input, &output),
        #[cfg(feature = "cuda")]
        "cuda" => run(&Cuda::new(0)?, &input, &output),
        other => {
            eprintln!("unknown or not compiled backend {other:?} (cuda needs --features cuda)");
            std::process::exit(2);
        }
    }
}
