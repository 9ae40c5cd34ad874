//! The command line of the `multi_gpu` bench, and the schedule it implies: the ladder of
//! sizes, the calls timed together per run at each size, and the communicator sizes.

use std::path::PathBuf;

/// The first size of the ladder (1 MiB).
pub const MIN_BYTES: usize = 1 << 20;

/// The largest size by default (4 GiB).
pub const DEFAULT_MAX_BYTES: usize = 4 << 30;

/// Bytes moved per run below which several calls are timed together (and divided): a
/// single copy or collective of a few MiB lasts a few microseconds, about the resolution of
/// a CUDA event pair.
const BYTES_PER_RUN: usize = 512 << 20;

/// The most calls timed together in one run.
const MAX_INNER: usize = 20;

/// The command line of a bench run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The largest size, in bytes (4 GiB).
    pub max_bytes: usize,
    /// How many GPUs to use, from ordinal 0 (`None`: every GPU of the host).
    pub gpus: Option<usize>,
    /// Timed runs per figure; the figure is their median (10).
    pub runs: usize,
    /// Untimed runs before them, after the checked call (3).
    pub warmup: usize,
    /// Where to write the tables as Markdown, if anywhere.
    pub markdown: Option<PathBuf>,
    /// The Python interpreter of the reference.
    pub python: String,
    /// The directory of `multi_gpu_reference.py`.
    pub scripts: PathBuf,
    /// Whether to run the Python reference at all.
    pub run_python: bool,
    /// Whether the reference times CuPy's copies.
    pub cupy: bool,
    /// Whether the reference times `torch.distributed.all_reduce`.
    pub torch: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_bytes: DEFAULT_MAX_BYTES,
            gpus: None,
            runs: 10,
            warmup: 3,
            markdown: None,
            python: std::env::var("CUPRITE_PYTHON").unwrap_or_else(|_| "python3".into()),
            scripts: cuprite_benches::options::find_scripts(),
            run_python: true,
            cupy: true,
            torch: true,
        }
    }
}

/// A count of bytes: a whole number with an optional binary suffix `K`, `M`, `G` or `T`
/// (`KiB`, `MB` and the like mean the same), a multiple of 4 (whole f32 elements) and not
/// zero.
pub fn parse_bytes(v: &str) -> Result<usize, String> {
    let bad = || format!("{v:?} is not a size in bytes (e.g. 4G, 256M, 1048576)");
    let t = v.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let num: usize = num.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let bytes = num
        .checked_mul(1usize << shift)
        .ok_or_else(|| format!("{v:?} is too large"))?;
    if bytes == 0 || !bytes.is_multiple_of(4) {
        return Err(format!(
            "{v:?} must be a positive multiple of 4 bytes (whole f32 elements)"
        ));
    }
    Ok(bytes)
}

fn positive(v: &str, what: &str) -> Result<usize, String> {
    v.parse()
        .ok()
        .filter(|&r: &usize| r > 0)
        .ok_or_else(|| format!("{what} {v:?} is not a positive integer"))
}

/// Parses the options of a bench run (`--bench` among them). Arguments that are not
/// options (criterion's name filters, which bundle runners pass to every bench) are
/// ignored with a note.
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--bench" => {}
            "--max-bytes" => o.max_bytes = parse_bytes(&value()?)?,
            "--gpus" => o.gpus = Some(positive(&value()?, "--gpus")?),
            "--runs" => o.runs = positive(&value()?, "--runs")?,
            "--warmup" => {
                let v = value()?;
                o.warmup = v
                    .parse()
                    .map_err(|_| format!("--warmup {v:?} is not a whole number"))?;
            }
            "--markdown" => o.markdown = Some(value()?.into()),
            "--python" => o.python = value()?,
            "--scripts" => o.scripts = value()?.into(),
            "--no-python" => o.run_python = false,
            "--no-cupy" => o.cupy = false,
            "--no-torch" => o.torch = false,
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other => eprintln!("multi_gpu: ignoring the argument {other:?}"),
        }
    }
    Ok(o)
}

/// The sizes measured: 1 MiB, 4 MiB, 16 MiB, ... up to `max_bytes`; `max_bytes` alone when
/// it is below 1 MiB.
pub fn sizes(max_bytes: usize) -> Vec<usize> {
    if max_bytes < MIN_BYTES {
        return vec![max_bytes];
    }
    let mut v = Vec::new();
    let mut b = MIN_BYTES;
    while b <= max_bytes {
        v.push(b);
        match b.checked_mul(4) {
            Some(next) => b = next,
            None => break,
        }
    }
    v
}

/// The calls timed together in one run at `bytes` (the time reported is per call):
/// enough to move about 512 MiB, between 1 and 20.
pub fn inner(bytes: usize) -> usize {
    (BYTES_PER_RUN / bytes.max(1)).clamp(1, MAX_INNER)
}

/// The communicator sizes of the all_reduce tables on `gpus` GPUs: all of them, and 2 as
/// well when there are more.
pub fn worlds(gpus: usize) -> Vec<usize> {
    if gpus > 2 {
        vec![gpus, 2]
    } else {
        vec![gpus]
    }
}

/// A size for tables: `1 MiB`, `256 MiB`, `4 GiB`, or bytes when it is no whole KiB.
pub fn size_label(bytes: usize) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} B")
}
