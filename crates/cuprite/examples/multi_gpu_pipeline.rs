//! The notebook pipeline across several GPUs: draw values at random, sort them, reshape
//! to (-1, 1000), normalise every column ((m - mean(axis 0)) / std(axis 0)), with the
//! array split over the GPUs ([`ShardedArray`](cuprite::cuda::dist::ShardedArray)) and the
//! GPUs joined by NCCL. The same pipeline then runs on one GPU from the same generator, and
//! the two results are compared: the sort bit for bit, the normalised values to rounding.
//!
//! Run: `cargo run --release --features cuda --example multi_gpu_pipeline -- --gpus 2`
//! Options: `--gpus N` (default: every GPU), `--n VALUES` (default 50 000 000 in all, a
//! multiple of 1000), `--per-gpu` (`--n` values on each GPU), `--seed S`, `--backend cuda`
//! (the only one; accepted as the other examples take it). Needs the `cuda`
//! feature, NCCL and one or more NVIDIA GPUs.

#[cfg(feature = "cuda")]
mod run {
    use cuprite::cuda::dist::{Mesh, ShardedArray};
    use cuprite::prelude::*;
    use cuprite::testing::check_allclose_slices;
    use std::time::Instant;

    /// What the command line asks for.
    pub struct Options {
        pub gpus: Option<usize>,
        pub n: usize,
        pub per_gpu: bool,
        pub seed: u64,
    }

    /// Times one step, waiting for every GPU before and after.
    fn timed<R>(devs: &[Cuda], what: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
        let sync = || devs.iter().try_for_each(|d| d.synchronize());
        sync()?;
        let t = Instant::now();
        let r = f()?;
        sync()?;
        println!("  {what:<44} {:>9.1} ms", t.elapsed().as_secs_f64() * 1e3);
        Ok(r)
    }

    /// The pipeline on the mesh: the sorted values and the normalised matrix, split.
    fn sharded(
        mesh: &std::rc::Rc<Mesh>,
        devs: &[Cuda],
        n: usize,
        seed: u64,
    ) -> Result<(ShardedArray<f64>, ShardedArray<f64>)> {
        let x = timed(devs, "draw (the one-GPU Philox stream)", || {
            ShardedArray::<f64>::random(mesh, &mut Generator::new(seed), &[n], 0)
        })?;
        let sorted = timed(devs, "sample sort across the GPUs", || x.sort(0))?;
        let z = timed(devs, "reshape, normalise (axis 0 is split)", || {
            let m = sorted.reshape(&[-1, 1000])?;
            let mean = m.mean(Some(0))?.into_replicated()?;
            let std = m.std(Some(0), 0.0)?.into_replicated()?;
            m.sub(&mean)?.div(&std)
        })?;
        Ok((sorted, z))
    }

    /// The same pipeline on one GPU.
    fn single(dev: &Cuda, n: usize, seed: u64) -> Result<(Array<f64, Cuda>, Array<f64, Cuda>)> {
        let devs = std::slice::from_ref(dev);
        let x = timed(devs, "draw", || {
            Generator::new(seed).random::<f64, Cuda>(&[n], dev)
        })?;
        let sorted = timed(devs, "sort", || x.sort(0))?;
        let z = timed(devs, "reshape, normalise", || {
            let m = sorted.reshape(&[-1, 1000])?;
            let mean = m.mean_axes(0, true)?;
            let std = m.std_axes(0, 0.0, true)?;
            Ok(&(&m - &mean) / &std)
        })?;
        Ok((sorted, z))
    }

    pub fn main(o: Options) -> Result<()> {
        let have = Cuda::device_count();
        let gpus = o.gpus.unwrap_or(have);
        if gpus == 0 || gpus > have {
            eprintln!("--gpus {gpus}: this machine has {have} GPU(s)");
            std::process::exit(2);
        }
        let n = if o.per_gpu { o.n * gpus } else { o.n };
        let devs: Vec<Cuda> = (0..gpus).map(Cuda::new).collect::<Result<_>>()?;
        let mesh = Mesh::new(&devs)?;
        println!(
            "cuprite pipeline on {gpus} GPU(s) ({}), {n} f64 values in all",
            devs[0].label()
        );
        // The first run also loads the kernels on every GPU; the second is timed alone.
        let mut out = None;
        for run in ["first run (loads the kernels)", "second run"] {
            println!("{run}:");
            let t = Instant::now();
            out = Some(sharded(&mesh, &devs, n, o.seed)?);
            println!(
                "  {:<44} {:>9.1} ms",
                "whole pipeline on the mesh",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        let Some((sorted, z)) = out else {
            return Ok(());
        };
        println!("the same on cuda:0 alone:");
        let t = Instant::now();
        let (want_sorted, want_z) = single(&devs[0], n, o.seed)?;
        println!(
            "  {:<44} {:>9.1} ms",
            "whole pipeline on one GPU",
            t.elapsed().as_secs_f64() * 1e3
        );
        let got = sorted.gather(&devs[0])?.to_vec()?;
        let want = want_sorted.to_vec()?;
        if got
            .iter()
            .zip(&want)
            .any(|(a, b)| a.to_bits() != b.to_bits())
            || got.len() != want.len()
        {
            eprintln!("MISMATCH: the sort across the GPUs differs from one GPU's");
            std::process::exit(1);
        }
        let got = z.gather(&devs[0])?.to_vec()?;
        match check_allclose_slices(&got, &want_z.to_vec()?, want_z.shape(), 1e-9, 1e-9) {
            Ok(()) => println!(
                "checked against one GPU: the sort bit for bit, all {n} normalised values to 1e-9"
            ),
            Err(msg) => {
                eprintln!("MISMATCH: {msg}");
                std::process::exit(1);
            }
        }
        Ok(())
    }
}

#[cfg(feature = "cuda")]
fn main() -> cuprite::Result<()> {
    let mut o = run::Options {
        gpus: None,
        n: 50_000_000,
        per_gpu: false,
        seed: 2024,
    };
    let mut args = std::env::args().skip(1);
    let number = |a: Option<String>, what: &str| -> u64 {
        a.and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("{what} needs a number");
            std::process::exit(2)
        })
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--gpus" => o.gpus = Some(number(args.next(), "--gpus") as usize),
            "--n" => o.n = number(args.next(), "--n") as usize,
            "--seed" => o.seed = number(args.next(), "--seed"),
            "--per-gpu" => o.per_gpu = true,
            // The bundle runs every example with `--backend cuda`; this one has no other.
            "--backend" if args.next().as_deref() == Some("cuda") => {}
            other => {
                eprintln!("unknown argument {other:?} (see the example's doc)");
                std::process::exit(2);
            }
        }
    }
    if o.n == 0 || !o.n.is_multiple_of(1000) {
        eprintln!("--n must be a positive multiple of 1000");
        std::process::exit(2);
    }
    run::main(o)
}

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("this example needs the cuda feature: --features cuda");
}
