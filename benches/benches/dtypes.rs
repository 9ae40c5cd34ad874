//! The `dtypes` bench: the 16-bit element types on the GPU against CuPy and PyTorch, in one
//! run and one table with ratios and the goals they are held to:
//!
//! 1. f16 matmul 8192 x 8192 @ 8192 x 8192 (TFLOP/s): at least 90% of CuPy's `cupy.matmul`
//!    (cuBLAS) rate measured in the same run, and no slower than `torch.matmul`;
//! 2. the same in bf16: no slower than `torch.matmul`, and at least 90% of the cuBLAS rate
//!    (CuPy's, where CuPy has bfloat16 — CuPy 14 with ml_dtypes — else PyTorch's);
//! 3. the f16 copy of 2^28 elements (the bandwidth ceiling of the run) and `a + b` on f16 at
//!    least 90% of that copy bandwidth, beside CuPy's;
//! 4. the f16 sum of 2^28 elements (f32 accumulator, f16 result) at least 90% of the copy
//!    bandwidth, beside CuPy's `x.sum()`;
//! 5. a u16 image pipeline on 8192 x 8192 (`astype` f32, stretch between min and max,
//!    `astype` u16), no slower than the same eight kernels in CuPy.
//!
//! The reference figures come from `scripts/bench_dtypes.py`, found the way `numpy_compare`
//! finds its scripts (`$CUPRITE_BENCH_SCRIPTS`, beside the binary in a bundle, else the
//! source tree). Every result is checked once, untimed, against a host computation
//! (`dtypes/host.rs`, the script with the same tolerances); a wrong result (on either side)
//! or an error of cuprite's makes the exit status 1. Without the `cuda` feature or a GPU
//! there is nothing to measure: the binary says so and exits 0. Without Python, CuPy or
//! PyTorch, cuprite's figures are printed alone.
//!
//! `cargo bench -p cuprite-benches --features cuda --bench dtypes -- [--quick]
//! [--json PATH] [--markdown PATH]`, or `benches/cuprite-benches.bench.dtypes --bench` in a
//! bundle. As for criterion's benches, a run without `--bench` (how `cargo test --bench
//! dtypes` starts it) runs the bench's unit tests instead (`dtypes/tests.rs`).

#[cfg(feature = "cuda")]
#[path = "dtypes/cuda.rs"]
mod cuda;
#[path = "dtypes/host.rs"]
mod host;
#[path = "dtypes/ops.rs"]
mod ops;
#[path = "dtypes/reference.rs"]
mod reference;
#[path = "dtypes/sizes.rs"]
mod sizes;
// Shared with the kernels bench; not every item is used here.
#[allow(dead_code)]
#[path = "kernels/table.rs"]
mod table;
#[path = "dtypes/tests.rs"]
mod tests;

use reference::{Reference, Skip};
use serde_json::json;
use sizes::Sizes;
use std::path::PathBuf;
use table::{Figure, Figures, Goal, Rate, Row, Table, Unit};

const USAGE: &str = "\
usage: dtypes --bench [--quick] [--runs N] [--json PATH] [--markdown PATH] [--python EXE]
                      [--scripts DIR] [--no-python] [--no-cupy] [--no-torch]
       dtypes [FILTER]

Times f16/bf16 matrix products, f16 copy, add and sum, and a u16 image pipeline on the GPU
against CuPy and PyTorch, and prints one Markdown table (ratio > 1: cuprite faster). Exit
status 1 when a result is wrong or cuprite fails, 2 on bad options; 0 without a GPU or the
`cuda` feature (nothing to measure, said so).

  --bench          run the bench (cargo bench passes it); without it the binary runs its
                   unit tests (those whose name contains FILTER), as `cargo test` starts it
  --quick          small sizes (256 x 256 matrices, 2^20 elements, a 256 x 256 image)
  --runs N         timed calls per figure (default 50; 10 with --quick)
  --json PATH      also write every figure, sample and row as JSON
  --markdown PATH  also write the table (for docs/benchmarks.md)
  --python EXE     the interpreter with numpy, cupy and torch (default $CUPRITE_PYTHON,
                   else python3)
  --scripts DIR    the directory of bench_dtypes.py (default: as numpy_compare finds it)
  --no-python      run cuprite alone
  --no-cupy        no CuPy
  --no-torch       no PyTorch

Environment: CUPRITE_PYTHON, CUPRITE_BENCH_SCRIPTS.";

/// The command line of a bench run.
#[derive(Debug, PartialEq)]
pub struct Options {
    pub sizes: Sizes,
    pub json: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
    pub python: String,
    pub scripts: PathBuf,
    pub run_python: bool,
    pub skip: Skip,
}

/// Parses the options of a bench run (`--bench` among them).
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        sizes: Sizes::FULL,
        json: None,
        markdown: None,
        python: std::env::var("CUPRITE_PYTHON").unwrap_or_else(|_| "python3".into()),
        scripts: cuprite_benches::options::find_scripts(),
        run_python: true,
        skip: Skip {
            cupy: false,
            torch: false,
        },
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
            "--bench" => {}
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
            "--no-cupy" => o.skip.cupy = true,
            "--no-torch" => o.skip.torch = true,
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            // Bundle runners may pass criterion's filters.
            other => eprintln!("dtypes: ignoring the argument {other:?}"),
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
        Ok(f) => eprintln!("  {id:<24} {} ms", table::num(f.value)),
        Err(e) => eprintln!("  {id:<24} {e}"),
    }
}

/// The system and figure id of the bf16 cuBLAS reference: CuPy's product where CuPy ran it
/// (or got it wrong), else PyTorch's.
pub fn bf16_cublas(theirs: &Figures) -> (&'static str, &'static str) {
    match theirs.get("matmul_bf16_ms") {
        Some(Ok(_)) => ("CuPy", "matmul_bf16_ms"),
        Some(Err(e)) if e.contains("WRONG RESULT") => ("CuPy", "matmul_bf16_ms"),
        _ => ("PyTorch", "torch_matmul_bf16_ms"),
    }
}

/// The table's rows (all of them GPU rows).
pub fn rows(sizes: &Sizes, theirs: &Figures) -> Vec<Row> {
    let m = sizes.mat;
    let n = Sizes::count_label(sizes.n);
    let flops = Rate::TeraFlops(sizes.matmul_flops());
    let (bf16_system, bf16_id) = bf16_cublas(theirs);
    let row = |id, workload: String, rate, system, their_id, goal| Row {
        id,
        workload,
        unit: Unit::Ms,
        rate,
        system,
        their_id,
        goal,
    };
    vec![
        row(
            "matmul_f16_ms",
            format!("1. f16 matmul {m}x{m} @ {m}x{m}, f32 accumulation (vs cupy.matmul: cuBLAS)"),
            flops,
            "CuPy",
            "matmul_f16_ms",
            Goal::Ratio(0.9),
        ),
        row(
            "matmul_f16_ms",
            "1. the same f16 matmul (vs torch.matmul)".into(),
            flops,
            "PyTorch",
            "torch_matmul_f16_ms",
            Goal::NoSlower,
        ),
        row(
            "matmul_bf16_ms",
            format!("2. bf16 matmul {m}x{m} @ {m}x{m}, f32 accumulation (vs torch.matmul)"),
            flops,
            "PyTorch",
            "torch_matmul_bf16_ms",
            Goal::NoSlower,
        ),
        row(
            "matmul_bf16_ms",
            format!(
                "2. the same bf16 matmul (vs the cuBLAS rate: {}.matmul)",
                if bf16_system == "CuPy" {
                    "cupy"
                } else {
                    "torch"
                }
            ),
            flops,
            bf16_system,
            bf16_id,
            Goal::Ratio(0.9),
        ),
        row(
            "copy_ms",
            format!("3. f16 x.copy(), {n} elements (the copy ceiling; 4 B per element)"),
            Rate::Bytes(sizes.copy_bytes(), false),
            "CuPy",
            "copy_ms",
            Goal::None,
        ),
        row(
            "add_f16_ms",
            format!("3. f16 a + b, {n} elements (6 B per element: two reads, one write)"),
            Rate::Bytes(sizes.add_bytes(), true),
            "CuPy",
            "add_f16_ms",
            Goal::Bandwidth(0.9),
        ),
        row(
            "sum_f16_ms",
            format!("4. f16 x.sum() (f32 accumulator, f16 result), {n} elements (2 B each)"),
            Rate::Bytes(sizes.sum_bytes(), true),
            "CuPy",
            "sum_f16_ms",
            Goal::Bandwidth(0.9),
        ),
        row(
            "u16_pipeline_ms",
            format!(
                "5. u16 image {0}x{0}: astype f32, (y - min) * (65535 / (max - min)), \
                 astype u16 (8 kernels, 36 B per pixel)",
                sizes.img
            ),
            Rate::Bytes(sizes.pipeline_bytes(), false),
            "CuPy",
            "u16_pipeline_ms",
            Goal::NoSlower,
        ),
    ]
}

/// What the CUDA rows found besides their times (see `cuda::CudaRun`).
#[derive(Default)]
pub struct Found {
    pub sum_error: Option<f64>,
    pub off_by_one: Option<(usize, usize)>,
}

/// The notes on what each side computes, with the run's findings.
pub fn semantics_notes(sizes: &Sizes, found: &Found, r: Option<&Reference>) -> Vec<String> {
    let mut notes = Vec::new();
    let theirs = r.map(|r| &r.figures);
    if let Some(t) = theirs {
        if bf16_cublas(t).0 == "PyTorch" {
            let why = match t.get("matmul_bf16_ms") {
                Some(Err(e)) => e.clone(),
                _ => "not run".into(),
            };
            notes.push(format!(
                "Row 2: no bfloat16 product from CuPy ({why}), so torch.matmul \
                 (cuBLAS/cuBLASLt under PyTorch) gives the cuBLAS rate. CuPy 14 multiplies ml_dtypes.bfloat16 \
                 arrays with cublasGemmEx and CUBLAS_COMPUTE_32F where NumPy >= 2.1.2 and \
                 ml_dtypes are installed."
            ));
        }
    }
    notes.push(
        "Rows 1-2: every product accumulates in f32 and rounds once to the 16-bit type \
         (cuprite: cublasGemmEx for f16, cuBLASLt for bf16; CuPy: cublasGemmEx, CUBLAS_COMPUTE_32F; PyTorch with \
         torch.backends.cuda.matmul.allow_fp16/bf16_reduced_precision_reduction off). \
         Checked by Freivalds' test in f64: row i of C r within 8 (u |C_i|_2 + 2^-24 \
         (|A| |B| 1)_i) of A (B r), u = 2^-11 (f16), 2^-8 (bf16)."
            .into(),
    );
    let mut sum = "Row 4: cuprite's x.sum() of f16 accumulates in f32 and rounds once to f16, \
         checked within one f16 ulp + 2^-24 sum|x| of the exact sum; CuPy's float16 x.sum() \
         also returns float16, through CUB's DeviceReduce::Sum on __half (its accumulator is \
         float16) when CUB is a routine accelerator (CUPY_ACCELERATORS, default cub), through \
         CuPy's own reduction with a float32 accumulator otherwise; float16 accumulation has \
         no useful error bound at this size, so CuPy's result is checked within one ulp + 2^-5 \
         sqrt(sum x^2) only (a sanity bound)."
        .to_string();
    if let Some(acc) = r.and_then(|r| r.raw["cupy_accelerators"].as_str()) {
        sum += &format!(" CUPY_ACCELERATORS here: {acc:?}.");
    }
    let their_err = r.and_then(|r| r.extra("sum_f16_ms", "abs_error"));
    if found.sum_error.is_some() || their_err.is_some() {
        let show = |e: Option<f64>| e.map_or("—".to_string(), |e| format!("{e:.4}"));
        sum += &format!(
            " |sum - exact sum| of {} values uniform in [-1, 1): cuprite {}, CuPy {}.",
            Sizes::count_label(sizes.n),
            show(found.sum_error),
            show(their_err)
        );
    }
    notes.push(sum);
    let mut pipe = "Row 5: y = x.astype(f32); lo = y.min(); hi = y.max(); out = ((y - lo) * \
         (65535 / (hi - lo))).astype(u16), the same eight kernels in cuprite and CuPy, the \
         bounds kept on the device as 0-d arrays; the image is uniform integers in [1000, \
         60000]; the GB/s count the 36 bytes per pixel those kernels move. Checked against the \
         same f32 steps on the host: every pixel equal or off by one (the final cast \
         truncates, so a last-bit difference just below an integer moves it by one)"
        .to_string();
    let ours_off = found.off_by_one.map(|(k, _)| k);
    let their_off = r.and_then(|r| r.extra("u16_pipeline_ms", "off_by_one"));
    if let Some((_, total)) = found.off_by_one {
        pipe += &format!(
            "; off by one: cuprite {} of {total} pixels{}",
            ours_off.unwrap_or(0),
            their_off.map_or(String::new(), |k| format!(", CuPy {k}"))
        );
    }
    notes.push(pipe + ".");
    notes
}

fn main() {
    let args = cuprite_benches::selftest::bench_args("dtypes", USAGE, &tests::TESTS);
    let opts = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("dtypes: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(&opts));
}

fn run(opts: &Options) -> i32 {
    let sizes = &opts.sizes;
    let mut about = json!({"sizes": format!("{sizes:?}")});
    let mut table = Table {
        rows: Vec::new(),
        ours: Figures::new(),
        theirs: Figures::new(),
        copy_bytes: sizes.copy_bytes(),
        notes: Vec::new(),
    };

    #[cfg(feature = "cuda")]
    let (found, skipped) = match cuda::run(sizes, &mut table.ours) {
        Ok(run) => {
            table.notes.push(format!("cuprite: {}.", run.device));
            about["cuprite_device"] = json!(run.device);
            let found = Found {
                sum_error: run.sum_error,
                off_by_one: run.off_by_one,
            };
            (found, None)
        }
        Err(why) => (Found::default(), Some(format!("no CUDA device ({why})"))),
    };
    #[cfg(not(feature = "cuda"))]
    let (found, skipped) = (
        Found::default(),
        Some(
            "built without the `cuda` feature (cargo bench -p cuprite-benches --features \
             cuda --bench dtypes)"
                .to_string(),
        ),
    );
    if let Some(why) = skipped {
        println!(
            "dtypes: every row of this bench runs on the GPU: skipped, {why}. Nothing to \
             measure; CuPy and PyTorch were not run."
        );
        table.notes.push(format!("CUDA rows skipped: {why}."));
        return write_outputs(opts, &table, about);
    }

    let mut reference = None;
    if opts.run_python {
        let script = opts.scripts.join("bench_dtypes.py");
        eprintln!("{} {}:", opts.python, script.display());
        match reference::run(&opts.python, &script, sizes, opts.skip) {
            Ok(r) => {
                table.notes.push(format!("Reference: {}.", r.about));
                for (lib, e) in [("CuPy", &r.cupy_error), ("PyTorch", &r.torch_error)] {
                    if let Some(e) = e {
                        table.notes.push(format!("{lib} not run: {e}."));
                    }
                }
                about["reference"] = json!(r.about);
                about["reference_raw"] = r.raw.clone();
                table.theirs = r.figures.clone();
                reference = Some(r);
            }
            Err(e) => table.notes.push(format!(
                "CuPy and PyTorch not run ({e}): cuprite's figures alone."
            )),
        }
    } else {
        table
            .notes
            .push("CuPy and PyTorch not run (--no-python): cuprite's figures alone.".into());
    }
    table.rows = rows(sizes, &table.theirs);
    let semantics = semantics_notes(sizes, &found, reference.as_ref());
    table.notes.extend(semantics);
    if sizes.n < Sizes::FULL.n {
        table.notes.push(
            "At these sizes (--quick) the f16 arrays fit in the GPU's L2 cache: the shares of \
             the copy bandwidth are not bandwidth figures."
                .into(),
        );
    }
    table.notes.push(format!(
        "Ratio = reference time / cuprite time (> 1: cuprite faster); a percentage goal of a \
         reference: cuprite's rate at least that share of the reference's (ratio >= 0.9). \
         Device time (CUDA events around each call: cuprite::profiler::benchmark, \
         cupyx.profiler.benchmark, torch.cuda.Event), median of {} calls after 3 untimed. \
         Matrices and f16 arrays uniform in [-1, 1) rounded to the type; every result \
         checked once, untimed.",
        sizes.runs
    ));
    write_outputs(opts, &table, about)
}

/// Prints the table, writes `--markdown` and `--json`, and lists the failures; the exit
/// status.
fn write_outputs(opts: &Options, table: &Table, about: serde_json::Value) -> i32 {
    let md = table.markdown_with("CuPy / PyTorch");
    if !table.rows.is_empty() {
        println!("\n{md}");
    }
    let (markdown, json) = (opts.markdown.as_deref(), opts.json.as_deref());
    table.write_outputs("dtypes", &md, markdown, json, about)
}
