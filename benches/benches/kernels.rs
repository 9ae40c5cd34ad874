//! The `kernels` bench: user kernels (`cuprite::cuda::kernel`'s CuPy-style ElementwiseKernel,
//! ReductionKernel and RawKernel, and the Rust-syntax `cuprite::elementwise!`) against CuPy's
//! on the same workloads, and `elementwise!` on the CPU against NumPy, in one run and one
//! table with ratios and the goals they are held to:
//!
//! 1. first call of a NEW ElementwiseKernel (the notebook's `my_kernel`, made unique by a nonce
//!    comment, fresh cache directory): construction to the synchronised end of the first call
//!    on 10M f32, device initialised beforehand; median of several kernels;
//! 2. the same in a later process, served from the disk cache: this binary started again
//!    with `--child-cached` and the cache directory the parent compiled into; the process's
//!    first kernel, then a second one (the compiler's one-time set-up done);
//! 3. launch overhead of a compiled kernel: host time per call on 1000 f32, many calls, one
//!    sync;
//! 4. my_kernel on 10M f32: device time, GB/s and share of the copy bandwidth measured in the
//!    same run;
//! 5. my_kernel through `elementwise!` on Cuda (against CuPy's ElementwiseKernel) and on Cpu
//!    (against NumPy's `np.where(x - 2 > y, x * y, x + y)`);
//! 6. an L2-norm ReductionKernel over 10M f32;
//! 7. the naive matrix product RawKernel (1024 x 1024 f32, one thread per output element),
//!    and the library matmul of the same matrices.
//!
//! The reference figures come from `scripts/bench_kernels.py`, found the way
//! `numpy_compare` finds its scripts (`$CUPRITE_BENCH_SCRIPTS`, beside the binary in a
//! bundle, else the source tree). Every result is checked once, untimed, against a host
//! computation; a wrong result (on either side) or an error of cuprite's makes the exit
//! status 1. Without the `cuda` feature or a GPU, the CUDA rows are skipped with a note and
//! the CPU row still runs; without Python, NumPy or CuPy, cuprite's figures are printed alone.
//!
//! `cargo bench -p cuprite-benches --bench kernels [--features cuda] -- [--quick]
//! [--json PATH] [--markdown PATH]`, or `benches/cuprite-benches.bench.kernels` in a bundle.

#[path = "kernels/cpu.rs"]
mod cpu;
#[cfg(feature = "cuda")]
#[path = "kernels/cuda.rs"]
mod cuda;
#[path = "kernels/reference.rs"]
mod reference;
#[path = "kernels/sizes.rs"]
mod sizes;
#[path = "kernels/table.rs"]
mod table;

use serde_json::json;
use sizes::Sizes;
use std::path::PathBuf;
use table::{Figure, Figures, Goal, Rate, Row, Table, Unit};

const USAGE: &str = "\
usage: kernels [--quick] [--runs N] [--json PATH] [--markdown PATH] [--python EXE]
               [--scripts DIR] [--no-python] [--no-cupy]

Times cuprite's user kernels (ElementwiseKernel, ReductionKernel, RawKernel, elementwise!)
against CuPy's, and elementwise! on the CPU against NumPy, and prints one Markdown table
(ratio > 1: cuprite faster). Exit status 1 when a result is wrong or cuprite fails, 2 on bad
options.

  --quick          small sizes (1M elements, 256 x 256 matrices, fewer repeats)
  --runs N         timed calls per device-time figure (default 100; 20 with --quick)
  --json PATH      also write every figure, sample and row as JSON
  --markdown PATH  also write the table (for docs/benchmarks.md)
  --python EXE     the interpreter with numpy and cupy (default $CUPRITE_PYTHON, else python3)
  --scripts DIR    the directory of bench_kernels.py (default: as numpy_compare finds it)
  --no-python      run cuprite alone
  --no-cupy        no CuPy (NumPy still runs)

Environment: CUPRITE_PYTHON, CUPRITE_BENCH_SCRIPTS. The CUDA rows compile into a fresh
temporary CUPRITE_CACHE_DIR, removed at the end.";

/// The command line.
struct Options {
    sizes: Sizes,
    json: Option<PathBuf>,
    markdown: Option<PathBuf>,
    python: String,
    scripts: PathBuf,
    run_python: bool,
    cupy: bool,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        sizes: Sizes::FULL,
        json: None,
        markdown: None,
        python: std::env::var("CUPRITE_PYTHON").unwrap_or_else(|_| "python3".into()),
        scripts: cuprite_benches::options::find_scripts(),
        run_python: true,
        cupy: true,
    };
    let mut runs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--quick" => o.sizes = Sizes::QUICK,
            "--runs" => {
                let v = value()?;
                runs = Some(
                    v.parse()
                        .ok()
                        .filter(|&r: &usize| r > 0)
                        .ok_or(format!("--runs {v:?} is not a positive integer"))?,
                )
            }
            "--json" => o.json = Some(value()?.into()),
            "--markdown" => o.markdown = Some(value()?.into()),
            "--python" => o.python = value()?,
            "--scripts" => o.scripts = value()?.into(),
            "--no-python" => o.run_python = false,
            "--no-cupy" => o.cupy = false,
            // Cargo passes --bench; bundle runners may pass criterion's filters.
            "--bench" => {}
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => eprintln!("kernels: ignoring the argument {other:?}"),
        }
    }
    if let Some(r) = runs {
        o.sizes.runs = r;
    }
    Ok(o)
}

/// Prints one measurement as it is taken (stderr).
pub fn progress(id: &str, r: &Result<Figure, String>) {
    match r {
        Ok(f) => eprintln!("  {id:<26} {}", table::num(f.value)),
        Err(e) => eprintln!("  {id:<26} {e}"),
    }
}

/// The table's rows: the CUDA ones when they ran, then the CPU one.
fn rows(sizes: &Sizes, with_cuda: bool) -> Vec<Row> {
    let n = sizes.n;
    let label = cuprite_benches::size_label;
    let mut v = Vec::new();
    if with_cuda {
        v.extend([
            Row {
                id: "first_call_new_ms",
                workload: format!(
                    "1. first call of a new ElementwiseKernel: compile + run, {} f32, median of {}",
                    label(n),
                    sizes.repeats
                ),
                unit: Unit::Ms,
                rate: Rate::None,
                system: "CuPy",
                their_id: "first_call_new_ms",
                goal: Goal::NoSlower,
            },
            Row {
                id: "first_call_cached_ms",
                workload: format!(
                    "2. first call in a later process, from the disk cache (median of {})",
                    sizes.repeats
                ),
                unit: Unit::Ms,
                rate: Rate::None,
                system: "CuPy",
                their_id: "first_call_cached_ms",
                goal: Goal::NoSlower,
            },
            Row {
                id: "first_call_cached_warm_ms",
                workload: "2. the same, the second kernel of that process (compiler set up)".into(),
                unit: Unit::Ms,
                rate: Rate::None,
                system: "CuPy",
                their_id: "first_call_cached_warm_ms",
                goal: Goal::NoSlower,
            },
            Row {
                id: "launch_us",
                workload: format!(
                    "3. launch overhead per call, compiled kernel, {} f32 ({} calls, one sync)",
                    sizes.small, sizes.calls
                ),
                unit: Unit::Us,
                rate: Rate::None,
                system: "CuPy",
                their_id: "launch_us",
                goal: Goal::Faster,
            },
            Row {
                id: "my_kernel_ms",
                workload: format!("4. my_kernel ElementwiseKernel, {} f32", label(n)),
                unit: Unit::Ms,
                rate: Rate::Bytes(sizes.my_kernel_bytes(), true),
                system: "CuPy",
                their_id: "my_kernel_ms",
                goal: Goal::Bandwidth(0.9),
            },
            Row {
                id: "copy_ms",
                workload: format!("4. x.copy(), {} f32 (the copy ceiling)", label(n)),
                unit: Unit::Ms,
                rate: Rate::Bytes(sizes.copy_bytes(), false),
                system: "CuPy",
                their_id: "copy_ms",
                goal: Goal::None,
            },
            Row {
                id: "macro_cuda_ms",
                workload: format!(
                    "5. my_kernel via elementwise! on Cuda, {} f32 (vs CuPy's ElementwiseKernel)",
                    label(n)
                ),
                unit: Unit::Ms,
                rate: Rate::Bytes(sizes.my_kernel_bytes(), true),
                system: "CuPy",
                their_id: "my_kernel_ms",
                goal: Goal::Bandwidth(0.9),
            },
            Row {
                id: "l2_norm_ms",
                workload: format!("6. L2-norm ReductionKernel, {} f32", label(n)),
                unit: Unit::Ms,
                rate: Rate::Bytes(sizes.norm_bytes(), true),
                system: "CuPy",
                their_id: "l2_norm_ms",
                goal: Goal::None,
            },
            Row {
                id: "raw_matmul_ms",
                workload: format!(
                    "7. naive matmul RawKernel, {0}x{0} f32 (one thread per output)",
                    sizes.mat
                ),
                unit: Unit::Ms,
                rate: Rate::Flops(sizes.matmul_flops()),
                system: "CuPy",
                their_id: "raw_matmul_ms",
                goal: Goal::None,
            },
            Row {
                id: "matmul_ms",
                workload: format!("7. matmul (cuBLAS), {0}x{0} f32", sizes.mat),
                unit: Unit::Ms,
                rate: Rate::Flops(sizes.matmul_flops()),
                system: "CuPy",
                their_id: "matmul_ms",
                goal: Goal::None,
            },
        ]);
    }
    v.push(Row {
        id: "macro_cpu_ms",
        workload: format!(
            "5. my_kernel via elementwise! on Cpu, {} f32 (vs NumPy np.where)",
            label(n)
        ),
        unit: Unit::Ms,
        rate: Rate::Bytes(sizes.my_kernel_bytes(), false),
        system: "NumPy",
        their_id: "numpy_my_kernel_ms",
        goal: Goal::None,
    });
    v
}

/// How the naive product compares with the library's, on each side.
fn matmul_note(ours: &Figures, theirs: &Figures) -> Option<String> {
    let share = |f: &Figures| match (f.get("raw_matmul_ms"), f.get("matmul_ms")) {
        (Some(Ok(raw)), Some(Ok(lib))) => Some(100.0 * lib.value / raw.value),
        _ => None,
    };
    let mut parts = Vec::new();
    if let Some(s) = share(ours) {
        parts.push(format!("cuprite {s:.1}%"));
    }
    if let Some(s) = share(theirs) {
        parts.push(format!("CuPy {s:.1}%"));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "Row 7: the naive RawKernel's rate as a share of the same library's matmul: {}.",
            parts.join(", ")
        )
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--child-cached") {
        #[cfg(feature = "cuda")]
        std::process::exit(cuda::child_cached(&args[i + 1..]));
        #[cfg(not(feature = "cuda"))]
        {
            let _ = i;
            eprintln!("kernels: --child-cached needs the `cuda` feature");
            std::process::exit(2);
        }
    }
    let opts = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kernels: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(&opts));
}

fn run(opts: &Options) -> i32 {
    let sizes = &opts.sizes;
    let mut notes = Vec::new();
    let mut ours = Figures::new();
    let mut about = json!({"sizes": format!("{sizes:?}")});

    // The CUDA rows first: they set CUPRITE_CACHE_DIR while the process has one thread.
    #[cfg(feature = "cuda")]
    let cuda_ran = match cuda::run(sizes, &mut ours) {
        Ok((device, cuda_notes)) => {
            notes.push(format!("cuprite: {device}."));
            notes.extend(cuda_notes);
            about["cuprite_device"] = json!(device);
            true
        }
        Err(why) => {
            notes.push(format!("CUDA rows skipped: {why}."));
            false
        }
    };
    #[cfg(not(feature = "cuda"))]
    let cuda_ran = {
        notes.push("CUDA rows skipped: built without the `cuda` feature.".to_string());
        false
    };
    cpu::run(sizes, &mut ours);

    let mut theirs = Figures::new();
    if opts.run_python {
        let script = opts.scripts.join("bench_kernels.py");
        eprintln!("{} {}:", opts.python, script.display());
        match reference::run(&opts.python, &script, sizes, opts.cupy && cuda_ran) {
            Ok(r) => {
                notes.push(format!("Reference: {}.", r.about));
                if cuda_ran {
                    if let Some(e) = &r.cupy_error {
                        notes.push(format!("CuPy not run: {e}; cuprite's figures alone."));
                    }
                }
                about["reference"] = json!(r.about);
                about["reference_raw"] = r.raw;
                theirs = r.figures;
            }
            Err(e) => notes.push(format!(
                "NumPy and CuPy not run ({e}): cuprite's figures alone."
            )),
        }
    } else {
        notes.push("NumPy and CuPy not run (--no-python): cuprite's figures alone.".into());
    }
    if let Some(n) = matmul_note(&ours, &theirs) {
        notes.push(n);
    }
    if cuda_ran && sizes.n < Sizes::FULL.n {
        notes.push(
            "At these sizes (--quick) the arrays fit in the GPU's L2 cache: the shares of the \
             copy bandwidth are not bandwidth figures."
                .into(),
        );
    }
    let gpu_method = format!(
        " GPU rows 4-7: device time (CUDA events around each call: \
         cuprite::profiler::benchmark, cupyx.profiler.benchmark), median of {} calls after 3 \
         untimed; rows 1-2: wall clock from construction to the end of a synchronize; row 3: \
         wall time of the loop and one synchronize / calls, median of 5 loops.",
        sizes.runs
    );
    notes.push(format!(
        "Ratio = reference time / cuprite time (> 1: cuprite faster).{} CPU row: wall time, \
         median of {} calls after 3 untimed. Inputs uniform random in [-4, 4); every result \
         checked once, untimed.",
        if cuda_ran { gpu_method.as_str() } else { "" },
        sizes.runs
    ));

    let mut table = Table {
        rows: rows(sizes, cuda_ran),
        ours,
        theirs,
        copy_bytes: sizes.copy_bytes(),
        notes,
    };
    if sizes.n >= Sizes::FULL.n
        && table
            .rows
            .iter()
            .any(|r| table.judge(r).of_copy > Some(1.0))
    {
        table.notes.push(
            "A share of the copy bandwidth above 100%: at this size x.copy() runs below the \
             device's full bandwidth, so the copy of the same size is a low ceiling."
                .into(),
        );
    }
    let md = table.markdown();
    println!("\n{md}");
    let (markdown, json) = (opts.markdown.as_deref(), opts.json.as_deref());
    table.write_outputs("kernels", &md, markdown, json, about)
}
