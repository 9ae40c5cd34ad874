//! The "real programs" group behind `cargo xtask bench --group programs`: PolyBench and
//! NPBench programs written in cuprite line for line as their NumPy originals, and one micro
//! row per known slow cause, each beside NumPy (and CuPy with `--backend cuda`), checked
//! against NumPy before it is timed, at 1 thread and at the default threads
//! (`cuprite_benches::programs`).
//!
//! `cargo bench -p cuprite-benches --bench programs [--features cuda] -- [options]`;
//! `--help` lists the options. Exit status: 0, 1 when a result is wrong or a cuprite program
//! failed, 2 on bad options. The binary runs itself as a child per thread setting
//! (`--child SPEC`, internal).

use cuprite_benches::programs::options::{ProgramOptions, USAGE};
use cuprite_benches::programs::runner::{child_main, parent_main};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let opts = match ProgramOptions::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("programs: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let code = match &opts.child_spec {
        Some(spec) => child_main(&opts, spec),
        None => parent_main(&opts),
    };
    std::process::exit(code);
}
