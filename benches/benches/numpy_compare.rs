//! The comparison binary behind `cargo xtask bench`: the anchor workloads on every cuprite
//! backend compiled in (cpu; cuda with the `cuda` feature, skipped with a note when no GPU
//! is available), then NumPy and CuPy through Python, every result checked once untimed, in
//! one table with ratios and rates against ceilings measured in the same run.
//!
//! `cargo bench -p cuprite-benches --bench numpy_compare [--features cuda] -- [options]`, or
//! the binary itself from a bundle (`cargo xtask bundle`). `--help` lists the options
//! (see `cuprite_benches::options::USAGE`). Exit status: 0, 1 when a result is wrong or a
//! cuprite backend failed, 2 on bad options. `--crossover KEY` sweeps one workload over
//! sizes instead and draws the plot (`cuprite_benches::crossover`).

use cuprite_benches::{options::USAGE, run_comparison, run_crossover, CompareOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let opts = match CompareOptions::from_env().and_then(|o| o.parse_args(&args)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("numpy_compare: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let code = match opts.crossover {
        Some(id) => run_crossover(id, &opts),
        None => run_comparison(&opts),
    };
    std::process::exit(code);
}
