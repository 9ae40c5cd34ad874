//! `cargo xtask`: project automation.
//!
//! - `cargo xtask ci` runs what CI runs: rustfmt check, clippy with warnings denied, the tests.
//! - `cargo xtask bench [options]` runs the notebook workloads on every cuprite backend asked
//!   for beside NumPy and CuPy (when importable) and prints one table (the `numpy_compare`
//!   runner of `benches/`).
//! - `cargo xtask bench --group programs [options]` runs the "real programs" group instead:
//!   PolyBench/NPBench programs written in cuprite as their NumPy originals, beside NumPy
//!   (and CuPy and the programs' `jax.jit` forms on the GPU), at two sizes, at 1 thread and at the default threads (the `programs`
//!   bench of `benches/`).
//! - `cargo xtask bundle [--out DIR]` builds every test binary, the benches and the
//!   examples with the CUDA backend into a directory with a `run.sh` that runs them on a GPU
//!   host without a Rust toolchain ([`bundle`]).

mod bundle;
mod bundle_select;
mod cargo;
mod run_sh;

use std::env;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  ci                      what .ci/run runs: rustfmt check, clippy (warnings denied),
                          cargo test, with the cuda feature (GPU tests ignored)
  bench [options]         the notebook workloads on cuprite, NumPy and CuPy, one table
      --backend LIST      cuprite backends: cpu, cuda, all (cuda or all builds with the
                          `cuda` feature; default: cpu, the only one compiled without it)
      --quick             scale the sizes by 0.1 (fits in seconds on a laptop)
      --scale F           scale the element counts by F (1.0 = about 1/10 of the anchors,
                          10 = the anchor sizes)
      --runs N            timed runs per workload (median reported)
      --filter a,b        only these workloads (keys as printed in the table)
      --json FILE         also write the results as JSON
      --markdown FILE     also write the table as Markdown
      --no-numpy, --no-cupy
                          leave out NumPy or CuPy
      --python EXE        the Python interpreter (default python3)
      --crossover KEY     instead of the table, time workload KEY at sizes from about
                          1000 elements up to its size at --scale on every system, say
                          where each cuprite backend becomes faster than each other
                          system, and plot time against size (log-log) to
                          crossover_KEY.png and .svg
      --plot-dir DIR      where the plots go (default target/crossover)
  bench --group fusion [options]
                          element-wise chains, a chain ending in a sum, softmax, a
                          normalisation and a stencil on a backend and on Fused<backend>,
                          beside NumPy and numexpr (cpu) or CuPy, cupy.fuse, jax.jit and
                          torch.compile (cuda); `--help` of the bench lists its options
      --backend cpu|cuda, --n N, --seed-n N, --dtype f32|f64, --runs R, --filter a,b,
      --markdown FILE, --no-python
  bench --group programs [options]
                          PolyBench/NPBench programs written in cuprite as their NumPy
                          originals and a micro section (one row per known slow cause),
                          beside NumPy (and CuPy and the jax.jit forms of
                          scripts/programs_jax.py with --backend cuda), each result checked
                          against NumPy first, at 1 thread and at the default threads
      --backend B         the cuprite backend: cpu, cuda (builds with the `cuda`
                          feature), fused-cpu or fused-cuda (the same behind Fused)
      --sizes LIST        small, medium (default both)
      --threads LIST      1, default (default both)
      --runs N            timed runs per row (default 5)
      --max-seconds S     time budget of one row's timed runs on one side (default 2)
      --filter a,b        only these programs; --no-micro, --micro-only
      --json FILE, --markdown FILE, --no-numpy, --no-cupy, --no-jax, --python EXE
  bundle [options]        build the GPU bundle: test binaries (with the cuda feature),
                          benches, examples, scripts and run.sh, stripped
      --out DIR           where (default bundle/; replaced if it holds a previous bundle)
      --no-strip          keep the symbols
      --no-compress       leave the binaries unpacked (no payload.tar.xz)
      --tests S           all (default), none, or a list of PACKAGE (its test targets),
                          PACKAGE:lib (its unit tests), PACKAGE:TARGET (cuprite:suite)
      --benches S         all (default), none, or bench names (per_op,batched_linalg)
      --examples S        all (default), none, or example names (quickstart)
      --test-profile      test binaries with the test profile (minutes) instead of
                          release: `--tests cuprite-cuda:lib --benches none --examples
                          none --test-profile` is the quick bundle of one area";

/// What `.ci/run` runs, with the same features and environment: the CUDA backend is
/// compiled (its GPU tests are reported as ignored without a GPU), incremental caches off.
fn ci() -> bool {
    let env = [("CARGO_INCREMENTAL", "0".to_string())];
    cargo::run(&["fmt", "--all", "--", "--check"], &env)
        && cargo::run(
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--features",
                "cuprite/cuda",
                "--",
                "-D",
                "warnings",
            ],
            &env,
        )
        && cargo::run(&["test", "--features", "cuprite/cuda"], &env)
}

/// Options of `bench` that take a value, and those that do not (validated here so a typo
/// fails before the build; the runner checks the values).
const BENCH_VALUE_FLAGS: [&str; 10] = [
    "--backend",
    "--crossover",
    "--plot-dir",
    "--scale",
    "--runs",
    "--filter",
    "--json",
    "--markdown",
    "--python",
    "--scripts",
];
const BENCH_FLAGS: [&str; 3] = ["--quick", "--no-numpy", "--no-cupy"];

/// Options of `bench --group programs` that take a value, and those that do not.
const PROGRAMS_VALUE_FLAGS: [&str; 10] = [
    "--backend",
    "--sizes",
    "--threads",
    "--runs",
    "--max-seconds",
    "--filter",
    "--json",
    "--markdown",
    "--python",
    "--scripts",
];
const PROGRAMS_FLAGS: [&str; 5] = [
    "--no-micro",
    "--micro-only",
    "--no-numpy",
    "--no-cupy",
    "--no-jax",
];

/// The `cargo bench` command line of `bench --group programs` (the `programs` bench),
/// with output paths made absolute against `cwd`.
fn programs_command(args: &[String], cwd: &std::path::Path) -> Result<Vec<String>, String> {
    let mut forwarded = Vec::new();
    let mut cuda = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if PROGRAMS_VALUE_FLAGS.contains(&a.as_str()) {
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            let v = match a.as_str() {
                "--backend" => {
                    cuda |= v.trim().ends_with("cuda");
                    v.clone()
                }
                "--json" | "--markdown" | "--scripts" => cwd.join(v).to_string_lossy().into_owned(),
                _ => v.clone(),
            };
            forwarded.push(a.clone());
            forwarded.push(v);
        } else if PROGRAMS_FLAGS.contains(&a.as_str()) || !a.starts_with('-') {
            forwarded.push(a.clone());
        } else {
            return Err(format!("unknown bench --group programs option {a}"));
        }
    }
    Ok(cargo_bench("programs", cuda, forwarded))
}

/// The `cargo bench` command line of `bench --group fusion` (the `fusion` bench): the
/// options go to it as they are (it checks them), a `--markdown` path made absolute
/// against `cwd`; `--backend cuda` builds with the `cuda` feature.
fn fusion_command(args: &[String], cwd: &std::path::Path) -> Vec<String> {
    let mut forwarded = Vec::new();
    let mut cuda = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        forwarded.push(a.clone());
        if matches!(a.as_str(), "--backend" | "--markdown" | "--scripts") {
            if let Some(v) = it.next() {
                cuda |= a == "--backend" && v.trim() == "cuda";
                forwarded.push(match a.as_str() {
                    "--backend" => v.clone(),
                    _ => cwd.join(v).to_string_lossy().into_owned(),
                });
            }
        }
    }
    cargo_bench("fusion", cuda, forwarded)
}

/// Splits `--group NAME` off the bench options: the group (`numpy`, the default, or
/// `programs`) and the other options.
fn bench_group(args: &[String]) -> Result<(String, Vec<String>), String> {
    let mut group = "numpy".to_string();
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--group" {
            group = it.next().ok_or("--group needs a value")?.clone();
        } else {
            rest.push(a.clone());
        }
    }
    match group.as_str() {
        "numpy" | "programs" | "fusion" => Ok((group, rest)),
        g => Err(format!(
            "unknown bench group {g:?} (numpy, programs, fusion)"
        )),
    }
}

/// The `cargo bench` command line for the bench options: whether the `cuda` feature is
/// needed (`--backend` names cuda or all), the arguments forwarded to the runner with output
/// paths made absolute against `cwd` (cargo runs benches from the package directory).
fn bench_command(args: &[String], cwd: &std::path::Path) -> Result<Vec<String>, String> {
    let mut forwarded = Vec::new();
    let mut cuda = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if BENCH_VALUE_FLAGS.contains(&a.as_str()) {
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            let v = match a.as_str() {
                "--backend" => {
                    cuda |= v.split(',').any(|b| matches!(b.trim(), "cuda" | "all"));
                    v.clone()
                }
                "--json" | "--markdown" | "--scripts" | "--plot-dir" => {
                    cwd.join(v).to_string_lossy().into_owned()
                }
                _ => v.clone(),
            };
            forwarded.push(a.clone());
            forwarded.push(v);
        } else if BENCH_FLAGS.contains(&a.as_str()) || !a.starts_with('-') {
            forwarded.push(a.clone());
        } else {
            return Err(format!("unknown bench option {a}"));
        }
    }
    if forwarded.iter().any(|a| a == "--crossover") && !forwarded.iter().any(|a| a == "--plot-dir")
    {
        forwarded.push("--plot-dir".into());
        forwarded.push(cwd.join("target/crossover").to_string_lossy().into_owned());
    }
    Ok(cargo_bench("numpy_compare", cuda, forwarded))
}

/// `cargo bench -p cuprite-benches --bench NAME [--features cuda] -- ARGS`.
fn cargo_bench(name: &str, cuda: bool, args: Vec<String>) -> Vec<String> {
    let mut cmd: Vec<String> = ["bench", "-p", "cuprite-benches", "--bench", name]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if cuda {
        cmd.extend(["--features".to_string(), "cuda".to_string()]);
    }
    cmd.push("--".into());
    cmd.extend(args);
    cmd
}

fn bench(args: &[String]) -> bool {
    let cwd = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let cmd = bench_group(args).and_then(|(group, rest)| match group.as_str() {
        "programs" => programs_command(&rest, &cwd),
        "fusion" => Ok(fusion_command(&rest, &cwd)),
        _ => bench_command(&rest, &cwd),
    });
    match cmd {
        Ok(cmd) => {
            let refs: Vec<&str> = cmd.iter().map(String::as_str).collect();
            cargo::run(&refs, &[])
        }
        Err(msg) => {
            eprintln!("xtask: {msg}\n\n{USAGE}");
            false
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let ok = match args.first().map(String::as_str) {
        Some("ci") if args.len() == 1 => ci(),
        Some("bench") => bench(&args[1..]),
        Some("bundle") => match bundle::Options::parse(&args[1..]) {
            Ok(opts) => match bundle::bundle(&opts) {
                Ok(()) => true,
                Err(e) => {
                    eprintln!("xtask bundle: {e}");
                    false
                }
            },
            Err(msg) => {
                eprintln!("xtask: {msg}\n\n{USAGE}");
                false
            }
        },
        _ => {
            eprintln!("{USAGE}");
            false
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn bench_options_are_forwarded() {
        let cmd = bench_command(
            &strings(&[
                "--quick",
                "--runs",
                "3",
                "--filter",
                "sum,sort_f64",
                "--json",
                "out.json",
            ]),
            Path::new("/home/u"),
        )
        .unwrap();
        assert_eq!(
            cmd,
            strings(&[
                "bench",
                "-p",
                "cuprite-benches",
                "--bench",
                "numpy_compare",
                "--",
                "--quick",
                "--runs",
                "3",
                "--filter",
                "sum,sort_f64",
                "--json",
                "/home/u/out.json",
            ])
        );
    }

    #[test]
    fn cuda_backend_turns_the_feature_on() {
        let cmd = bench_command(&strings(&["--backend", "cpu,cuda"]), Path::new("/")).unwrap();
        assert!(cmd.windows(2).any(|w| w == ["--features", "cuda"]));
        let cmd = bench_command(&strings(&["--backend", "all"]), Path::new("/")).unwrap();
        assert!(cmd.contains(&"cuda".to_string()));
        let cmd = bench_command(&strings(&["--backend", "cpu"]), Path::new("/")).unwrap();
        assert!(!cmd.contains(&"--features".to_string()));
    }

    #[test]
    fn crossover_plots_default_to_target() {
        let cmd = bench_command(&strings(&["--crossover", "sum"]), Path::new("/home/u")).unwrap();
        assert!(cmd.ends_with(&strings(&[
            "--crossover",
            "sum",
            "--plot-dir",
            "/home/u/target/crossover"
        ])));
        let cmd = bench_command(
            &strings(&["--crossover", "sum", "--plot-dir", "p"]),
            Path::new("/w"),
        )
        .unwrap();
        assert!(cmd.ends_with(&strings(&["--plot-dir", "/w/p"])));
    }

    #[test]
    fn the_programs_group_runs_its_own_bench() {
        let (group, rest) = bench_group(&strings(&[
            "--sizes", "small", "--group", "programs", "--json", "p.json",
        ]))
        .unwrap();
        assert_eq!(group, "programs");
        let cmd = programs_command(&rest, Path::new("/w")).unwrap();
        assert_eq!(
            cmd,
            strings(&[
                "bench",
                "-p",
                "cuprite-benches",
                "--bench",
                "programs",
                "--",
                "--sizes",
                "small",
                "--json",
                "/w/p.json",
            ])
        );
        let cmd = programs_command(&strings(&["--backend", "cuda"]), Path::new("/")).unwrap();
        assert!(cmd.windows(2).any(|w| w == ["--features", "cuda"]));
        assert!(programs_command(&strings(&["--quick"]), Path::new("/")).is_err());
        assert!(bench_group(&strings(&["--group", "nope"])).is_err());
        assert_eq!(bench_group(&strings(&["--quick"])).unwrap().0, "numpy");
    }

    #[test]
    fn bad_bench_options_are_reported() {
        assert!(bench_command(&strings(&["--runs"]), Path::new("/")).is_err());
        assert!(bench_command(&strings(&["--gpu"]), Path::new("/")).is_err());
    }
}
