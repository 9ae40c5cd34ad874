//! Helpers shared by the criterion bench targets: the quick criterion configuration, bench
//! names, the check that an op works before it is timed, and the untimed comparison of a
//! backend's result with the CPU backend's ([`agrees`]); a bench binary whose results
//! disagree exits with status 1 at the end ([`exit_if_wrong`]).

#![allow(dead_code)]

use criterion::Criterion;
use cuprite::{Array, ArrayBackend, Cpu, Float};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set when a result disagreed with the CPU backend's.
static WRONG: AtomicBool = AtomicBool::new(false);

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

/// The CPU backend, the reference of [`agrees`].
pub fn cpu() -> Cpu {
    Cpu::new()
}

/// An array's copy on the CPU backend (the reference's input).
pub fn on_cpu<T: cuprite::Element, B: ArrayBackend>(a: &Array<T, B>) -> Array<T, Cpu> {
    a.to_device(&cpu())
        .expect("copying a bench input to the host")
}

/// Compares `got` (one untimed run on the backend under test) with `want` (the same op on
/// the CPU backend): same shape, and every element within `rtol * (1 + |want|)` (0 for
/// exact). True if they agree; otherwise prints why `name` is skipped, and the binary will
/// exit with status 1 ([`exit_if_wrong`]). An error of either run skips the bench.
pub fn agrees<T: Float, B: ArrayBackend>(
    name: &str,
    got: cuprite::Result<Array<T, B>>,
    want: cuprite::Result<Array<T, Cpu>>,
    rtol: f64,
) -> bool {
    let compare = || -> Result<(), String> {
        let got = got.map_err(|e| format!("error: {e}"))?;
        let want = want.map_err(|e| format!("error on the CPU backend: {e}"))?;
        if got.shape() != want.shape() {
            return Err(format!(
                "WRONG RESULT: shape {:?}, expected {:?}",
                got.shape(),
                want.shape()
            ));
        }
        let f64s = |a: Result<Vec<f64>, cuprite::Error>| a.map_err(|e| format!("error: {e}"));
        let g = f64s(got.astype::<f64>().and_then(|a| a.to_vec()))?;
        let w = f64s(want.astype::<f64>().and_then(|a| a.to_vec()))?;
        for (i, (g, w)) in g.iter().zip(&w).enumerate() {
            // Written so that a NaN fails.
            let ok = (g - w).abs() <= rtol * (1.0 + w.abs());
            if !ok {
                return Err(format!(
                    "WRONG RESULT: element {i} is {g}, the CPU backend gives {w}"
                ));
            }
        }
        Ok(())
    };
    match compare() {
        Ok(()) => true,
        Err(e) => {
            if e.starts_with("WRONG") {
                WRONG.store(true, Ordering::Relaxed);
            }
            eprintln!("skipping {name}: {e}");
            false
        }
    }
}

/// Exits with status 1 if any [`agrees`] check failed (call it at the end of the bench
/// target, after the benches that did run have printed their results).
pub fn exit_if_wrong() {
    if WRONG.load(Ordering::Relaxed) {
        eprintln!("some results disagreed with the CPU backend (see \"WRONG RESULT\" above)");
        std::process::exit(1);
    }
}
