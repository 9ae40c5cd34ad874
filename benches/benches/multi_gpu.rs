//! The `multi_gpu` bench: cuprite on several GPUs of one host beside the references, in one
//! run and one Markdown table per measurement (size, cuprite GB/s, reference GB/s, ratio):
//!
//! 1. copies between GPUs: `Array<f32, Cuda>::to_device(&other_gpu)` (one
//!    `cuMemcpyPeerAsync`) from cuda:0 to cuda:1, against CuPy's `ndarray.copy()` under
//!    `cupy.cuda.Device(1)`; and the copy on cuda:0 itself, the ceiling of the run (on a
//!    host with one GPU only this one: the table between GPUs is skipped, and says why);
//! 2. all_reduce (f32 sum, in place and out of place) over every GPU of the host, and over
//!    2 when there are more: `cuprite::cuda::dist::Communicator::new_all` (one process
//!    driving every GPU, each collective inside one `dist::group`), against
//!    `torch.distributed.all_reduce` on the NCCL backend with one process per GPU; algbw
//!    and busbw (algbw x 2(n-1)/n) as nccl-tests defines them. On one GPU the
//!    communicator has one rank, and the table says what NCCL then does.
//!
//! Sizes run from 1 MiB to 4 GiB by powers of 4 (`--max-bytes` lowers the top). Each figure
//! is the median of `--runs` timed runs after `--warmup` untimed ones, in device time
//! between CUDA events; before them one call is checked (a copy equals its source, an
//! all_reduce gives N times its input on every rank: sampled elements on the host, every
//! element on the device), so a broken path reports `WRONG RESULT`, never a speed. The
//! header names the GPUs, the driver, the NCCL versions and the references' versions.
//!
//! The references come from `scripts/multi_gpu_reference.py`, run after cuprite's figures
//! and found the way `numpy_compare` finds its scripts. A reference that is not installed
//! (no CuPy, no PyTorch) is reported as missing, not as a failure. Exit status: 1 when a
//! result is wrong (on either side), a cuprite figure fails or the communicators cannot be
//! created (no NCCL); 2 on bad options (`--gpus` above the GPUs of the host among them);
//! 0 otherwise, and without the `cuda` feature or a GPU (nothing to measure, said so).
//!
//! `cargo bench -p cuprite-benches --features cuda --bench multi_gpu -- [options]`, or
//! `benches/cuprite-benches.bench.multi_gpu --bench` in a bundle (`./run.sh LOG multigpu`
//! runs it). As for the `dtypes` bench, a run without `--bench` (how `cargo test --bench
//! multi_gpu` starts it) runs the bench's unit tests instead (`multi_gpu/tests.rs`).

// Without the `cuda` feature only the unit tests use the tables and the reference's parser.
#![cfg_attr(not(feature = "cuda"), allow(dead_code))]

#[path = "multi_gpu/check.rs"]
mod check;
#[cfg(feature = "cuda")]
#[path = "multi_gpu/cuda.rs"]
mod cuda;
#[path = "multi_gpu/options.rs"]
mod options;
#[path = "multi_gpu/reference.rs"]
mod reference;
#[path = "multi_gpu/table.rs"]
mod table;
#[path = "multi_gpu/tests.rs"]
mod tests;

use options::{parse_args, Options};

const USAGE: &str = "\
usage: multi_gpu --bench [--max-bytes SIZE] [--gpus N] [--runs K] [--warmup W]
                         [--markdown PATH] [--python EXE] [--scripts DIR]
                         [--no-python] [--no-cupy] [--no-torch]
       multi_gpu [FILTER]

Times copies between GPUs (Array::to_device) against CuPy, and all_reduce over NCCL
communicators (cuprite_cuda::dist) against torch.distributed, from 1 MiB to 4 GiB, and
prints one Markdown table per measurement (ratio > 1: cuprite faster). Exit status 1 when a
result is wrong, a cuprite figure fails or NCCL is missing, 2 on bad options; 0 without a
GPU or the `cuda` feature (nothing to measure, said so).

  --bench            run the bench (cargo bench passes it); without it the binary runs its
                     unit tests (those whose name contains FILTER), as `cargo test` starts it
  --max-bytes SIZE   the largest array (default 4G; K, M, G suffixes are powers of 1024):
                     sizes are 1M, 4M, 16M, ... up to it
  --gpus N           use GPUs 0..N-1 (default: every GPU of the host); the all_reduce runs
                     on N, and on 2 as well when N > 2
  --runs K           timed runs per figure, the figure is their median (default 10)
  --warmup W         untimed runs before them (default 3)
  --markdown PATH    also write the tables to PATH
  --python EXE       the interpreter with cupy and torch (default $CUPRITE_PYTHON, else
                     python3)
  --scripts DIR      the directory of multi_gpu_reference.py (default: as numpy_compare
                     finds its scripts)
  --no-python        cuprite alone
  --no-cupy          no CuPy copies
  --no-torch         no torch.distributed all_reduce

Environment: CUPRITE_PYTHON, CUPRITE_BENCH_SCRIPTS; NCCL's own (NCCL_DEBUG=WARN, ...)
reach both cuprite's and torch's NCCL.";

fn main() {
    let args = cuprite_benches::selftest::bench_args("multi_gpu", USAGE, &tests::TESTS);
    let opts = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("multi_gpu: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(&opts));
}

#[cfg(not(feature = "cuda"))]
fn run(_: &Options) -> i32 {
    println!(
        "multi_gpu: nothing to measure: built without the `cuda` feature (cargo bench -p \
         cuprite-benches --features cuda --bench multi_gpu)"
    );
    0
}

/// The driver version as `nvidia-smi` reports it, if it can be run.
#[cfg(feature = "cuda")]
fn driver_version() -> Option<String> {
    let out = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=driver_version", "--format=csv,noheader"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v = text.lines().next()?.trim();
    (out.status.success() && !v.is_empty()).then(|| v.to_string())
}

/// The GPUs' connections (`nvidia-smi topo -m`) to stderr, for the log.
#[cfg(feature = "cuda")]
fn log_topology() {
    match std::process::Command::new("nvidia-smi")
        .args(["topo", "-m"])
        .output()
    {
        Ok(out) if out.status.success() => {
            eprintln!(
                "multi_gpu: nvidia-smi topo -m:\n{}",
                String::from_utf8_lossy(&out.stdout)
            )
        }
        _ => eprintln!("multi_gpu: nvidia-smi topo -m: not available"),
    }
}

/// The measurements of a run, then the reference's, then the tables.
#[cfg(feature = "cuda")]
fn run(o: &Options) -> i32 {
    use options::{inner, sizes, worlds};
    use table::{copy_failed, copy_section, reduce_failed, reduce_section, Section};

    let devs = match cuda::open(o.gpus) {
        Ok(d) => d,
        Err(cuda::Open::NoGpu(why)) => {
            println!("multi_gpu: nothing to measure: no CUDA device ({why})");
            return 0;
        }
        Err(cuda::Open::TooFew(why)) => {
            eprintln!("multi_gpu: {why}");
            return 2;
        }
    };
    let n = devs.len();
    let sizes = sizes(o.max_bytes);
    let pattern = check::pattern();
    let gpus = cuda::describe(&devs);
    eprintln!(
        "multi_gpu: {gpus}; sizes up to {}",
        options::size_label(o.max_bytes)
    );
    log_topology();

    // cuprite's figures.
    eprintln!("multi_gpu: cuprite");
    let peer = (n >= 2).then(|| cuda::copy_rows(&devs[0], &devs[1], &sizes, o, &pattern));
    let same = cuda::copy_rows(&devs[0], &devs[0], &sizes, o, &pattern);
    let mut reduces = Vec::new();
    let mut nccl = None;
    for w in worlds(n) {
        let r = cuda::reduce_rows(&devs[..w], &sizes, o, &pattern);
        if let Ok(run) = &r {
            nccl = nccl.or(run.nccl.clone());
        }
        reduces.push((w, r.map(|run| run.rows)));
    }
    cuda::release(&devs);

    // The reference's, on the same schedule.
    let mut copies = vec![(0, 0)];
    if n >= 2 {
        copies.insert(0, (0, 1));
    }
    let plan = reference::Plan {
        inner: sizes.iter().map(|&b| inner(b)).collect(),
        sizes: sizes.clone(),
        runs: o.runs,
        warmup: o.warmup,
        copies,
        worlds: worlds(n),
        cupy: o.cupy,
        torch: o.torch,
    };
    let theirs = if o.run_python {
        eprintln!("multi_gpu: the reference");
        reference::run(&o.python, &o.scripts.join(reference::SCRIPT), &plan)
    } else {
        Err("--no-python".into())
    };
    let (cupy_missing, torch_missing) = match &theirs {
        Ok(r) => (r.cupy_error.clone(), r.torch_error.clone()),
        Err(e) => (Some(e.clone()), Some(e.clone())),
    };

    // The tables.
    let mut failed = Vec::new();
    let mut sections = Vec::new();
    let copy_table = |src: usize, dst: usize, rows: Vec<table::CopyRow>, title: String| {
        let rows: Vec<_> = rows
            .into_iter()
            .map(|mut r| {
                r.theirs = theirs.as_ref().ok().and_then(|t| t.copy(src, dst, r.bytes));
                r
            })
            .collect();
        let failed = rows.iter().any(copy_failed);
        (
            copy_section(title, "CuPy", &rows, cupy_missing.as_deref()),
            failed,
        )
    };
    match peer {
        Some(rows) => {
            let (s, f) = copy_table(
                0,
                1,
                rows,
                "Copy between GPUs, cuda:0 -> cuda:1: `Array::to_device` \
                 (cuMemcpyPeerAsync) vs CuPy `a.copy()` under `cupy.cuda.Device(1)`"
                    .into(),
            );
            if f {
                failed.push("copy cuda:0 -> cuda:1".to_string());
            }
            sections.push(s);
        }
        None => sections.push(Section {
            title: "Copy between GPUs".into(),
            notes: vec![format!(
                "skipped: {} one GPU, and a copy between GPUs needs two (the copy on \
                 cuda:0 below is still timed)",
                if o.gpus.is_some() {
                    "--gpus 1 uses"
                } else {
                    "this host has"
                }
            )],
            ..Section::default()
        }),
    }
    let (s, f) = copy_table(
        0,
        0,
        same,
        "Copy on cuda:0 (the ceiling): `Array::to_device` to its own GPU vs CuPy `a.copy()`".into(),
    );
    if f {
        failed.push("copy on cuda:0".to_string());
    }
    sections.push(s);
    for (w, rows) in reduces {
        let title = format!(
            "all_reduce, f32 sum, {w} GPU{}: `Communicator::new_all` + `dist::group` (one \
             process) vs `torch.distributed.all_reduce` (NCCL, one process per GPU)",
            if w == 1 { "" } else { "s" }
        );
        match rows {
            Ok(rows) => {
                let rows: Vec<_> = rows
                    .into_iter()
                    .map(|mut r| {
                        r.theirs = theirs.as_ref().ok().and_then(|t| t.reduce(w, r.bytes));
                        r
                    })
                    .collect();
                if rows.iter().any(reduce_failed) {
                    failed.push(format!("all_reduce x{w}"));
                }
                sections.push(reduce_section(title, w, &rows, torch_missing.as_deref()));
            }
            Err(e) => {
                failed.push(format!("all_reduce x{w}: {e}"));
                sections.push(Section {
                    title,
                    notes: vec![format!("not measured: {e}")],
                    ..Section::default()
                });
            }
        }
    }

    let reference = theirs.as_ref().ok();
    let mut head = vec![
        format!("GPUs: {gpus}"),
        format!(
            "driver: {}{}",
            driver_version().unwrap_or_else(|| "? (no nvidia-smi)".into()),
            reference
                .and_then(|r| r.cuda_driver.as_deref())
                .map(|v| format!(" (CUDA {v})"))
                .unwrap_or_default()
        ),
        format!(
            "NCCL: {} (cuprite's, libnccl.so.2 loaded at run time){}",
            nccl.as_deref().unwrap_or("? (not loaded)"),
            reference
                .and_then(|r| r.torch_nccl.as_deref())
                .map(|v| format!("; {v} (PyTorch's)"))
                .unwrap_or_default()
        ),
    ];
    if let Some(r) = reference {
        head.push(format!("reference: {}", r.about));
    }
    head.push(format!(
        "each figure: the median of {} timed runs after {} untimed ones and one checked \
         call, device time between CUDA events; below 512 MiB a run times several calls \
         (20 at 1 MiB) and divides; GB/s = 10^9 bytes/s; ratio = reference time / cuprite \
         time (> 1: cuprite faster)",
        o.runs, o.warmup
    ));
    let mut md = String::from("## cuprite on several GPUs beside CuPy and torch.distributed\n\n");
    for h in &head {
        md += &format!("- {h}\n");
    }
    md.push('\n');
    for s in &sections {
        md += &s.markdown();
    }
    println!("{md}");
    if let Some(p) = &o.markdown {
        if let Err(e) = std::fs::write(p, &md) {
            eprintln!("multi_gpu: writing {}: {e}", p.display());
            failed.push(format!("writing {}", p.display()));
        }
    }
    if failed.is_empty() {
        0
    } else {
        println!("FAILED: {}", failed.join("; "));
        1
    }
}
