//! Scaling of sharded arrays over 1, 2, 4, ... GPUs of one host: a sum, a matmul (rows
//! split @ replicated) and the notebook pipeline (draw, sort, reshape, normalise), each at
//! a fixed total size (strong scaling: 50M values, 10000 x 10000) and at a fixed size per
//! GPU (weak scaling), with the efficiency in % of linear. Every result is checked against
//! one GPU's before it is timed.
//!
//! Run: `cargo run --release --features cuda --example multi_gpu_scaling`
//! Options: `--gpus N` (the largest mesh; default every GPU), `--runs K` (median of K,
//! default 5), `--n VALUES` (default 50 000 000), `--order M` (default 10 000),
//! `--backend cuda` (the only one). Needs the `cuda` feature, NCCL and NVIDIA GPUs.

#[cfg(feature = "cuda")]
mod run {
    use cuprite::cuda::dist::{Mesh, Replicated, ShardedArray};
    use cuprite::prelude::*;
    use cuprite::testing::check_allclose_slices;
    use std::rc::Rc;
    use std::time::Instant;

    /// What the command line asks for.
    pub struct Options {
        pub gpus: Option<usize>,
        pub runs: usize,
        pub n: usize,
        pub order: usize,
    }

    /// The median wall time of `runs` calls of `f` after one untimed call, every GPU of
    /// `devs` synchronised around each.
    fn median_ms(devs: &[Cuda], runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
        let sync = || devs.iter().try_for_each(|d| d.synchronize());
        f()?;
        let mut t = Vec::with_capacity(runs);
        for _ in 0..runs {
            sync()?;
            let s = Instant::now();
            f()?;
            sync()?;
            t.push(s.elapsed().as_secs_f64() * 1e3);
        }
        t.sort_by(f64::total_cmp);
        Ok(t[t.len() / 2])
    }

    /// Errors unless `got` is close to `want`, naming the workload.
    fn check(what: &str, got: &[f64], want: &[f64], shape: &[usize], tol: f64) -> Result<()> {
        check_allclose_slices(got, want, shape, tol, tol)
            .map_err(|m| Error::invalid("multi_gpu_scaling", format!("{what}: {m}")))
    }

    /// The pipeline on a mesh: the normalised matrix.
    fn pipeline(mesh: &Rc<Mesh>, n: usize) -> Result<ShardedArray<f64>> {
        let x = ShardedArray::<f64>::random(mesh, &mut Generator::new(7), &[n], 0)?;
        let m = x.sort(0)?.reshape(&[-1, 1000])?;
        let mean = m.mean(Some(0))?.into_replicated()?;
        let std = m.std(Some(0), 0.0)?.into_replicated()?;
        m.sub(&mean)?.div(&std)
    }

    /// One workload at one mesh size: its time in ms.
    fn workload(
        what: &str,
        mesh: &Rc<Mesh>,
        devs: &[Cuda],
        o: &Options,
        size: usize,
    ) -> Result<f64> {
        let dev = &devs[0];
        match what {
            "sum" => {
                let x = ShardedArray::<f64>::random(mesh, &mut Generator::new(1), &[size], 0)?;
                let want = Generator::new(1).random::<f64, Cuda>(&[size], dev)?.sum()?;
                check(what, &x.sum(None)?.to_vec()?, &want.to_vec()?, &[], 1e-9)?;
                median_ms(devs, o.runs, || x.sum(None).map(drop))
            }
            "matmul" => {
                let mut g = Generator::new(2);
                let a = g.random::<f32, Cuda>(&[size, o.order], dev)?;
                let b = g.random::<f32, Cuda>(&[o.order, o.order], dev)?;
                let sa = ShardedArray::from_array(mesh, &a, 0)?;
                let rb = Replicated::new(mesh, &b)?;
                // Checked on a band of rows (the whole product is large for the host).
                let got = sa
                    .matmul(&rb)?
                    .gather(dev)?
                    .slice(&s![..64, ..])?
                    .to_vec()?;
                let want = a.slice(&s![..64, ..])?.matmul(&b)?.to_vec()?;
                let (got, want): (Vec<f64>, Vec<f64>) = (
                    got.iter().map(|&v| v as f64).collect(),
                    want.iter().map(|&v| v as f64).collect(),
                );
                check(what, &got, &want, &[64, o.order], 1e-3)?;
                median_ms(devs, o.runs, || sa.matmul(&rb).map(drop))
            }
            _ => {
                let z = pipeline(mesh, size)?.gather(dev)?;
                let w = Generator::new(7)
                    .random::<f64, Cuda>(&[size], dev)?
                    .sort(0)?;
                let m = w.reshape(&[-1, 1000])?;
                let want = &(&m - &m.mean_axes(0, true)?) / &m.std_axes(0, 0.0, true)?;
                check(what, &z.to_vec()?, &want.to_vec()?, want.shape(), 1e-9)?;
                median_ms(devs, o.runs, || pipeline(mesh, size).map(drop))
            }
        }
    }

    pub fn main(o: Options) -> Result<()> {
        let have = Cuda::device_count();
        let top = o.gpus.unwrap_or(have);
        if top == 0 || top > have {
            eprintln!("--gpus {top}: this machine has {have} GPU(s)");
            std::process::exit(2);
        }
        let all: Vec<Cuda> = (0..top).map(Cuda::new).collect::<Result<_>>()?;
        let sizes: Vec<usize> = std::iter::successors(Some(1usize), |g| Some(g * 2))
            .take_while(|&g| g <= top)
            .collect();
        println!(
            "## Sharded arrays on 1..{top} x {} (median of {} runs, wall time with every GPU \
             synchronised)\n",
            all[0].label(),
            o.runs
        );
        println!("| workload | scaling | size | GPUs | ms | efficiency |");
        println!("|---|---|---|---:|---:|---:|");
        for what in ["sum", "matmul", "pipeline"] {
            for weak in [false, true] {
                let mut base = None;
                for &g in &sizes {
                    let devs = &all[..g];
                    let mesh = Mesh::new(devs)?;
                    let unit = if what == "matmul" { o.order } else { o.n };
                    let size = if weak { unit * g } else { unit };
                    let ms = workload(what, &mesh, devs, &o, size)?;
                    let t1 = *base.get_or_insert(ms);
                    let eff = if weak { t1 / ms } else { t1 / (ms * g as f64) };
                    let shape = if what == "matmul" {
                        format!("{size} x {} @ {0} x {0}", o.order)
                    } else {
                        format!("{size}")
                    };
                    println!(
                        "| {what} | {} | {shape} | {g} | {ms:.3} | {:.0}% |",
                        if weak { "weak" } else { "strong" },
                        eff * 100.0
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(feature = "cuda")]
fn main() -> cuprite::Result<()> {
    let mut o = run::Options {
        gpus: None,
        runs: 5,
        n: 50_000_000,
        order: 10_000,
    };
    let mut args = std::env::args().skip(1);
    let number = |a: Option<String>, what: &str| -> usize {
        a.and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("{what} needs a number");
            std::process::exit(2)
        })
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--gpus" => o.gpus = Some(number(args.next(), "--gpus")),
            "--runs" => o.runs = number(args.next(), "--runs").max(1),
            "--n" => o.n = number(args.next(), "--n"),
            "--order" => o.order = number(args.next(), "--order"),
            // The bundle runs every example with `--backend cuda`; this one has no other.
            "--backend" if args.next().as_deref() == Some("cuda") => {}
            other => {
                eprintln!("unknown argument {other:?} (see the example's doc)");
                std::process::exit(2);
            }
        }
    }
    if o.n == 0 || !o.n.is_multiple_of(1000) || o.order == 0 {
        eprintln!("--n must be a positive multiple of 1000 and --order positive");
        std::process::exit(2);
    }
    run::main(o)
}

#[cfg(not(feature = "cuda"))]
fn main() {
    eprintln!("this example needs the cuda feature: --features cuda");
}
