//! `cargo bench -p cuprite-benches --bench numpy_compare`: the anchor workloads on the CPU
//! backend and in NumPy, side by side in one table. Environment: `CUPRITE_BENCH_SCALE`
//! (element-count factor, 1.0 = about 1/10 of the anchors), `CUPRITE_BENCH_RUNS` (timed runs,
//! 7), `CUPRITE_BENCH_ONLY` (comma-separated workload keys), `CUPRITE_PYTHON` (`python3`).

use cuprite_benches::{run_comparison, CompareOptions};

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects workloads like CUPRITE_BENCH_ONLY.
    let mut opts = match CompareOptions::from_env() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filters.is_empty() {
        opts.only = Some(filters);
    }
    run_comparison(&cuprite::Cpu::new(), "cpu", &opts);
}
