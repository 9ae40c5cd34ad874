//! `cargo xtask`: project automation.
//!
//! - `cargo xtask ci` runs what CI runs: rustfmt check, clippy with warnings denied, the tests.
//! - `cargo xtask bench [--quick] [--scale F] [--runs N] [--filter a,b]` runs the workloads of
//!   the notebooks on every compiled backend beside NumPy (when python3 with numpy is
//!   importable) and prints one table (the `numpy_compare` runner of `benches/`).

use std::env;
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <command>

commands:
  ci                      rustfmt check, clippy (warnings denied), cargo test
  bench [options]         the notebook workloads beside NumPy, one table
      --quick             scale the sizes by 0.1 (fits in seconds on a laptop)
      --scale F           scale the element counts by F (1.0 = about 1/10 of the anchors)
      --runs N            timed runs per workload (median reported)
      --filter a,b        only these workloads (keys as printed in the table)";

/// Runs a cargo command, returning whether it succeeded.
fn cargo(args: &[&str], envs: &[(&str, String)]) -> bool {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("== cargo {}", args.join(" "));
    let mut cmd = Command::new(cargo);
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    match cmd.status() {
        Ok(s) => s.success(),
        Err(e) => {
            eprintln!("xtask: could not run cargo: {e}");
            false
        }
    }
}

fn ci() -> bool {
    cargo(&["fmt", "--all", "--", "--check"], &[])
        && cargo(
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
            &[],
        )
        && cargo(&["test"], &[])
}

/// Parses the bench options into the runner's environment variables.
fn bench_env(args: &[String]) -> Result<Vec<(&'static str, String)>, String> {
    let mut envs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--quick" => envs.push(("CUPRITE_BENCH_SCALE", "0.1".to_string())),
            "--scale" => {
                let v = value("--scale")?;
                v.parse::<f64>()
                    .map_err(|_| format!("--scale: not a number: {v}"))?;
                envs.push(("CUPRITE_BENCH_SCALE", v));
            }
            "--runs" => {
                let v = value("--runs")?;
                v.parse::<usize>()
                    .map_err(|_| format!("--runs: not a count: {v}"))?;
                envs.push(("CUPRITE_BENCH_RUNS", v));
            }
            "--filter" => envs.push(("CUPRITE_BENCH_ONLY", value("--filter")?)),
            other => return Err(format!("unknown bench option {other}")),
        }
    }
    Ok(envs)
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let ok = match args.first().map(String::as_str) {
        Some("ci") if args.len() == 1 => ci(),
        Some("bench") => match bench_env(&args[1..]) {
            Ok(envs) => cargo(
                &["bench", "-p", "cuprite-benches", "--bench", "numpy_compare"],
                &envs,
            ),
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

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn bench_options_become_runner_variables() {
        let envs = bench_env(&strings(&[
            "--quick",
            "--runs",
            "3",
            "--filter",
            "sum,sort_f64",
        ]))
        .unwrap();
        assert_eq!(
            envs,
            vec![
                ("CUPRITE_BENCH_SCALE", "0.1".to_string()),
                ("CUPRITE_BENCH_RUNS", "3".to_string()),
                ("CUPRITE_BENCH_ONLY", "sum,sort_f64".to_string()),
            ]
        );
    }

    #[test]
    fn bad_bench_options_are_reported() {
        assert!(bench_env(&strings(&["--scale", "fast"])).is_err());
        assert!(bench_env(&strings(&["--runs"])).is_err());
        assert!(bench_env(&strings(&["--gpu"])).is_err());
    }
}
