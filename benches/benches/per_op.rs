//! The cost of one small op: chains of `--ops` (default 10 000) small ops on `--n` (default
//! 1000) f32 elements, on one backend beside NumPy (`--backend cpu`) or CuPy and PyTorch
//! (`--backend cuda`), timed in one run by `scripts/bench_per_op.py` (first, before this
//! process takes device memory). Each case's time per op is the chain's time, ending in one
//! device synchronisation, over its op count; the median of `--runs` chains after one warm-up
//! chain. On CUDA each chain is also captured once into a graph (`Cuda::capture`) and
//! replayed (`Graph::replay`, the column "replayed"; its result checked bit for bit against
//! the eager chain's), and a floor line times the driver alone (cudarc, no cuprite):
//! `cuLaunchKernel` of an empty kernel, and a `cuMemAllocAsync` + `cuMemFreeAsync` pair of
//! 4 KB.
//!
//! `cargo bench -p cuprite-benches --bench per_op [--features cuda] -- [options]`; `--help`
//! lists them. Exit status 0, 1 when a case fails or disagrees with the CPU backend, 2 on bad
//! options.

use cuprite::{s, Array, ArrayBackend, BackendBase, Cpu, Result};
use cuprite_benches::{data, side_by_side};
use serde_json::Value;
use std::time::Instant;

const USAGE: &str = "usage: per_op [options]
  --backend cpu|cuda  the backend (cuda needs the `cuda` feature; default cpu)
  --n N               elements of the chained arrays (default 1000)
  --ops K             ops per chain (default 10000)
  --runs R            timed chains per case after one warm-up, median (default 5)
  --filter a,b        only these cases
  --no-python         leave out the Python anchors
  --python EXE        the interpreter (default $CUPRITE_PYTHON or python3)
  --scripts DIR       where bench_per_op.py is (default $CUPRITE_BENCH_SCRIPTS or scripts/)";

/// The cases: key, the statement as NumPy writes it, ops (kernels on CUDA) per statement.
const CASES: [(&str, &str, usize); 8] = [
    ("add_scalar", "x = x + 0.001", 1),
    ("mul_arrays", "x = x * y", 1),
    ("unary", "x = sin(x)", 1),
    ("iadd_scalar", "x += 0.001", 1),
    ("sum_0d", "s = x.sum()", 1),
    ("sum_axis", "r = m.sum(axis=1)  (m: n/10 x 10)", 1),
    ("stencil", "x[1:-1] = (x[:-2] + x[2:]) * 0.5", 3),
    ("matmul_16", "p = a @ b  (16 x 16)", 1),
];

struct Opts {
    backend: String,
    n: usize,
    ops: usize,
    runs: usize,
    common: side_by_side::Common,
}

fn parse(args: &[String]) -> std::result::Result<Opts, String> {
    let mut o = Opts {
        backend: "cpu".into(),
        n: 1000,
        ops: 10_000,
        runs: 5,
        common: side_by_side::Common::default(),
    };
    let mut it = args.iter();
    let num = |v: Option<&String>, a: &str| -> std::result::Result<usize, String> {
        v.ok_or(format!("{a} needs a value"))?
            .parse::<usize>()
            .map_err(|_| format!("{a} needs a positive integer"))
            .map(|n| n.max(1))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--backend" => o.backend = it.next().ok_or("--backend needs a value")?.clone(),
            "--n" => o.n = num(it.next(), a)?.max(10),
            "--ops" => o.ops = num(it.next(), a)?,
            "--runs" => o.runs = num(it.next(), a)?,
            other if o.common.take(other, &mut it)? => {}
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

/// The operands of a chain: `x` in [0, 1), `y` in [0.999, 1.001), `m` as `x` seen as
/// `n/10 x 10`, and two 16 x 16 matrices in [-1, 1).
struct Inputs<B: ArrayBackend> {
    x: Array<f32, B>,
    y: Array<f32, B>,
    a16: Array<f32, B>,
    b16: Array<f32, B>,
}

impl<B: ArrayBackend> Inputs<B> {
    fn new(n: usize, dev: &B) -> Result<Self> {
        Ok(Inputs {
            x: Array::from_vec(data::uniform_f32(n, 0.0, 1.0, 51), &[n], dev)?,
            y: Array::from_vec(data::uniform_f32(n, 0.999, 1.001, 52), &[n], dev)?,
            a16: Array::from_vec(data::uniform_f32(256, -1.0, 1.0, 53), &[16, 16], dev)?,
            b16: Array::from_vec(data::uniform_f32(256, -1.0, 1.0, 54), &[16, 16], dev)?,
        })
    }
}

/// Runs `steps` statements of case `key` and returns the value the chain ends with (for the
/// check against the CPU backend).
// `s![1..-1]` is NumPy's slice (negative ends count from the end), not an empty range.
#[allow(clippy::reversed_empty_ranges)]
fn chain<B: ArrayBackend>(key: &str, inp: &Inputs<B>, steps: usize) -> Result<Array<f32, B>> {
    let mut x = inp.x.clone();
    let n = x.shape()[0];
    match key {
        "add_scalar" => {
            for _ in 0..steps {
                x = &x + 0.001f32;
            }
        }
        "mul_arrays" => {
            for _ in 0..steps {
                x = &x * &inp.y;
            }
        }
        "unary" => {
            for _ in 0..steps {
                x = x.sin()?;
            }
        }
        "iadd_scalar" => {
            x = x.copy()?;
            for _ in 0..steps {
                x += 0.001f32;
            }
        }
        "sum_0d" => {
            let mut s = x.sum()?;
            for _ in 1..steps {
                s = x.sum()?;
            }
            return Ok(s);
        }
        "sum_axis" => {
            let m = x
                .slice(&s![..n / 10 * 10])?
                .reshape(&[(n / 10) as isize, 10])?;
            let mut r = m.sum_axes(1, false)?;
            for _ in 1..steps {
                r = m.sum_axes(1, false)?;
            }
            return Ok(r);
        }
        "stencil" => {
            x = x.copy()?;
            for _ in 0..steps {
                let v = (&x.slice(&s![..-2])? + &x.slice(&s![2..])?) * 0.5f32;
                x.slice_mut(&s![1..-1])?.assign(&v)?;
            }
        }
        _ => {
            let mut p = inp.a16.matmul(&inp.b16)?;
            for _ in 1..steps {
                p = inp.a16.matmul(&inp.b16)?;
            }
            return Ok(p);
        }
    }
    Ok(x)
}

/// Largest relative difference of two results.
fn rel_diff(x: &[f32], y: &[f32]) -> f64 {
    let scale = y.iter().fold(1e-30f64, |m, v| m.max(v.abs() as f64));
    let d = x
        .iter()
        .zip(y)
        .map(|(a, b)| (a - b).abs() as f64)
        .fold(0.0, f64::max);
    if x.len() == y.len() {
        d / scale
    } else {
        f64::INFINITY
    }
}

/// Median seconds per op of case `key` on `dev`, and its result's relative difference from the
/// CPU backend's after a short chain.
fn measure<B: ArrayBackend>(dev: &B, key: &str, per: usize, o: &Opts) -> Result<(f64, f64)> {
    let inp = Inputs::new(o.n, dev)?;
    let cpu = Cpu::new();
    let short = 50;
    let want = chain(key, &Inputs::new(o.n, &cpu)?, short)?.to_vec()?;
    let diff = rel_diff(&chain(key, &inp, short)?.to_vec()?, &want);
    let steps = o.ops.div_ceil(per);
    drop(chain(key, &inp, steps)?);
    dev.synchronize()?;
    let mut times = Vec::with_capacity(o.runs);
    for _ in 0..o.runs {
        let t0 = Instant::now();
        let r = chain(key, &inp, steps)?;
        dev.synchronize()?;
        times.push(t0.elapsed().as_secs_f64() / (steps * per) as f64);
        drop(r);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[o.runs / 2], diff))
}

/// Median seconds per op of case `key` captured once into a graph and replayed, after one
/// eager chain (kernels compiled outside the capture); an error when the replayed result
/// differs from the eager chain's in any bit.
#[cfg(feature = "cuda")]
fn replayed(dev: &cuprite::Cuda, key: &str, per: usize, o: &Opts) -> Result<f64> {
    let inp = Inputs::new(o.n, dev)?;
    let steps = o.ops.div_ceil(per);
    let want = chain(key, &inp, steps)?.to_vec()?;
    let (graph, out) = dev.capture(|| chain(key, &inp, steps))?;
    graph.replay()?;
    dev.synchronize()?;
    let mut times = Vec::with_capacity(o.runs);
    for _ in 0..o.runs {
        let t0 = Instant::now();
        graph.replay()?;
        dev.synchronize()?;
        times.push(t0.elapsed().as_secs_f64() / (steps * per) as f64);
    }
    let got = out.to_vec()?;
    let same = got.len() == want.len()
        && got
            .iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits());
    if !same {
        return Err(cuprite::Error::Backend {
            op: "per_op",
            msg: format!("{key}: the replayed result differs from the eager chain's"),
        });
    }
    times.sort_by(f64::total_cmp);
    Ok(times[o.runs / 2])
}

/// The driver alone, through cudarc on a stream of its own: an empty kernel's launch, and an
/// allocation and free of 4 KB from the device's default pool, seconds each (median of the runs).
#[cfg(feature = "cuda")]
mod floor {
    use cudarc::driver::result;
    use std::ffi::{c_void, CString};
    use std::time::Instant;

    fn median(mut t: Vec<f64>) -> f64 {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }

    /// `(launch, alloc + free)` in seconds; `dev` must be current on this thread (any cuprite
    /// op on it makes it so).
    pub fn measure(dev: &cuprite::Cuda, ops: usize, runs: usize) -> Result<(f64, f64), String> {
        let (major, minor) = dev.compute_capability();
        let src = "extern \"C\" __global__ void empty(float *p) { if (p == nullptr) return; }";
        let cubin = cuprite::cuda::nvrtc::compile_cached(
            "per_op_floor.cu",
            src,
            &format!("sm_{major}{minor}"),
        )
        .map_err(|e| e.to_string())?;
        let e = |e: cudarc::driver::DriverError| e.to_string();
        // SAFETY: the cubin is a valid image for this device; the kernel reads nothing; the
        // stream and module live to the end of this function; every pointer allocated is
        // freed once on the stream it was allocated on.
        unsafe {
            let module = result::module::load_data(cubin.as_ptr() as *const c_void).map_err(e)?;
            let f =
                result::module::get_function(module, CString::new("empty").unwrap()).map_err(e)?;
            let stream =
                result::stream::create(result::stream::StreamKind::NonBlocking).map_err(e)?;
            let mut arg: u64 = 0;
            let mut launch = Vec::new();
            let mut alloc = Vec::new();
            for r in 0..=runs {
                let t0 = Instant::now();
                for _ in 0..ops {
                    let mut p = [&mut arg as *mut u64 as *mut c_void];
                    result::launch_kernel(f, (1, 1, 1), (32, 1, 1), 0, stream, &mut p)
                        .map_err(e)?;
                }
                result::stream::synchronize(stream).map_err(e)?;
                let tl = t0.elapsed().as_secs_f64() / ops as f64;
                let t0 = Instant::now();
                for _ in 0..ops {
                    let p = result::malloc_async(stream, 4096).map_err(e)?;
                    result::free_async(p, stream).map_err(e)?;
                }
                result::stream::synchronize(stream).map_err(e)?;
                let ta = t0.elapsed().as_secs_f64() / ops as f64;
                if r > 0 {
                    launch.push(tl);
                    alloc.push(ta);
                }
            }
            result::stream::destroy(stream).map_err(e)?;
            let _ = result::module::unload(module);
            Ok((median(launch), median(alloc)))
        }
    }
}

/// Runs the Python anchors: `(about, {system: {key: seconds per op or error}})`.
fn anchors(o: &Opts) -> std::result::Result<(String, Value), String> {
    let device = if o.backend == "cuda" { "gpu" } else { "cpu" };
    let args = [
        "--device",
        device,
        "--n",
        &o.n.to_string(),
        "--ops",
        &o.ops.to_string(),
        "--runs",
        &o.runs.to_string(),
    ];
    o.common.anchor("bench_per_op.py", &args.map(String::from))
}

fn us(s: f64) -> String {
    format!("{:.2}", s * 1e6)
}

/// One anchor's cell and its ratio to cuprite's time.
fn cell(v: &Value, secs: f64) -> (String, String) {
    match v.as_f64() {
        Some(r) => (us(r), format!("{:.2}x", r / secs)),
        None => (v.as_str().unwrap_or("-").to_string(), "-".into()),
    }
}

/// The replayed time of a case (`key`, ops per statement), in seconds per op.
type Replay<'a> = &'a dyn Fn(&str, usize) -> Result<f64>;

/// Every case on `dev`, as table rows, and whether one failed or disagreed. `replay` gives
/// the replayed time of a case (`None`: no such column).
fn table<B: ArrayBackend>(
    dev: &B,
    o: &Opts,
    systems: &[&str],
    refs: &Value,
    replay: Option<Replay>,
) -> (String, bool) {
    let mut t = String::new();
    let mut bad = false;
    let cases = CASES.iter().filter(|(key, ..)| o.common.wants(key));
    for &(key, stmt, per) in cases {
        match measure(dev, key, per, o) {
            Ok((secs, diff)) => {
                bad |= diff.is_nan() || diff >= 1e-4;
                t += &format!("| {key} | `{stmt}` | {}", us(secs));
                if let Some(r) = replay {
                    match r(key, per) {
                        Ok(rs) => t += &format!(" | {} ({:.1}x)", us(rs), secs / rs),
                        Err(e) => {
                            bad = true;
                            t += &format!(" | failed: {e}");
                        }
                    }
                }
                for s in systems {
                    let (anchor, ratio) = cell(&refs[s][key], secs);
                    t += &format!(" | {anchor} | {ratio}");
                }
                t += &format!(" | {diff:.1e} |\n");
            }
            Err(e) => {
                bad = true;
                t += &format!("| {key} | `{stmt}` | failed: {e} |\n");
            }
        }
    }
    (t, bad)
}

fn main() {
    let o = side_by_side::options("per_op", USAGE, parse);
    let cuda = o.backend == "cuda";
    let systems: &[&str] = if cuda { &["cupy", "torch"] } else { &["numpy"] };
    let (about, refs) = anchors(&o).unwrap_or_else(|e| (e, Value::Null));
    #[cfg_attr(not(feature = "cuda"), allow(unused_mut))]
    let mut floor = String::new();
    let (label, (rows, bad)) = match o.backend.as_str() {
        "cpu" => {
            let dev = Cpu::new();
            (dev.label(), table(&dev, &o, systems, &refs, None))
        }
        #[cfg(feature = "cuda")]
        "cuda" => {
            let dev = match cuprite::Cuda::new(0) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("per_op: no CUDA device: {e}");
                    std::process::exit(1);
                }
            };
            let replay = |key: &str, per: usize| replayed(&dev, key, per, &o);
            let rows = table(&dev, &o, systems, &refs, Some(&replay));
            floor = match floor::measure(&dev, o.ops, o.runs) {
                Ok((l, a)) => format!(
                    "\ndriver floor (cudarc alone): cuLaunchKernel of an empty kernel {} us, \
                     cuMemAllocAsync + cuMemFreeAsync of 4 KB {} us\n",
                    us(l),
                    us(a)
                ),
                Err(e) => format!("\ndriver floor: failed: {e}\n"),
            };
            (dev.label(), rows)
        }
        b => {
            eprintln!("per_op: backend {b} is not compiled in (build with --features cuda)");
            std::process::exit(2);
        }
    };
    println!(
        "per-op cost, chains of {} ops on {} f32: cuprite {} on {label}; anchors: {about}\n",
        o.ops,
        o.n,
        env!("CARGO_PKG_VERSION")
    );
    let mut head = "| case | statement | cuprite (us/op)".to_string();
    let mut rule = "| --- | --- | ---:".to_string();
    if cuda {
        head += " | replayed (us/op, x eager)";
        rule += " | ---:";
    }
    for s in systems {
        head += &format!(" | {s} (us/op) | {s} / cuprite");
        rule += " | ---: | ---:";
    }
    println!("{head} | rel. diff from Cpu |\n{rule} | ---: |");
    print!("{rows}");
    print!("{floor}");
    std::process::exit(if bad { 1 } else { 0 });
}
