//! Helpers shared by the criterion bench targets: the quick criterion configuration, bench
//! names and the check that an op works before it is timed.

#![allow(dead_code)]

use criterion::Criterion;
use std::time::Duration;

/// A criterion configured so the whole suite runs in a few minutes: 10 samples, 0.5 s of
/// warm-up, 2 s of measurement per bench.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

/// `<backend>_<op>_<size>`, e.g. `cpu_sum_1e7`, so reports put backends side by side.
pub fn name(backend: &str, op: &str, n: usize) -> String {
    format!("{backend}_{op}_{}", cuprite_benches::size_label(n))
}

/// Runs `f` once untimed: true if it succeeds; otherwise prints why `name` is skipped (a
/// backend may refuse a workload, e.g. out of memory; one bench must not abort the suite).
pub fn works<T>(name: &str, f: impl FnOnce() -> cuprite::Result<T>) -> bool {
    match f() {
        Ok(_) => true,
        Err(e) => {
            eprintln!("skipping {name}: {e}");
            false
        }
    }
}
