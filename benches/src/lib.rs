//! Shared pieces of cuprite's benchmarks: deterministic input data (sin waves and a
//! pseudo-random generator, never zeros or constants), the list of backends every bench
//! group runs on ([`for_each_backend!`]), and the comparison runner behind
//! `cargo xtask bench`: the workload list as data ([`workloads`]), the prepared and checked
//! cases ([`cases`], [`cases_linalg`]), the options ([`options`]), timing on every cuprite backend
//! ([`compare`]), the NumPy and CuPy subprocesses ([`python`]), the table and JSON
//! ([`report`]), the crossover sweep over sizes ([`crossover`]) with its plots ([`plot`]),
//! progress bars for long runs ([`progress`]), and the "real programs" group
//! ([`programs`]: PolyBench/NPBench programs beside NumPy).
//!
//! The feature `cuda` adds the CUDA backend (device 0) to every bench and to the comparison.

pub mod api;
pub mod cases;
pub mod cases_counting;
pub mod cases_everyday;
pub mod cases_linalg;
pub mod cases_signal;
pub mod cases_spectral;
pub mod compare;
pub mod crossover;
pub mod data;
pub mod fusion;
pub mod options;
pub mod plot;
pub mod programs;
pub mod progress;
pub mod python;
pub mod report;
pub mod selftest;
pub mod side_by_side;
pub mod workloads;

pub use cases::{prepare, Case};
pub use compare::{run_all, run_comparison, Timing};
pub use crossover::{run_crossover, Sweep};
pub use options::CompareOptions;
pub use report::Report;
pub use workloads::{default_workloads, Rate, Workload, WorkloadId, ANCHOR_SCALE};

/// Calls `$f(c, "<backend>", &device)` once per backend compiled in and available: `cpu`
/// always, `cuda` (device 0) with the `cuda` feature when a GPU is present (otherwise a note
/// on stderr says why it is skipped). A bench group is a function generic over
/// `B: ArrayBackend` taking `(&mut Criterion, &str, &B)`; adding a backend is one line here.
///
/// ```
/// use criterion::Criterion;
/// use cuprite::ArrayBackend;
///
/// fn group<B: ArrayBackend>(_c: &mut Criterion, backend: &str, dev: &B) {
///     assert!(dev.label().starts_with(backend));
/// }
/// let mut c = Criterion::default();
/// cuprite_benches::for_each_backend!(group, &mut c);
/// ```
#[macro_export]
macro_rules! for_each_backend {
    ($f:path, $c:expr) => {{
        $f($c, "cpu", &::cuprite::Cpu::new());
        #[cfg(feature = "cuda")]
        match ::cuprite::Cuda::new(0) {
            Ok(dev) => $f($c, "cuda", &dev),
            Err(e) => eprintln!("skipping the cuda benches: {e}"),
        }
    }};
}

/// A short size label for bench names: `1e7` for 10 000 000, the plain number otherwise
/// (`1000`, `2048`).
pub fn size_label(n: usize) -> String {
    if n >= 10 && n.is_power_of_two() {
        return n.to_string();
    }
    let mut m = n;
    let mut e = 0;
    while m >= 10 && (m / 10) * 10 == m {
        m /= 10;
        e += 1;
    }
    if m == 1 && e >= 4 {
        format!("1e{e}")
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::size_label;

    #[test]
    fn size_labels() {
        assert_eq!(size_label(10_000_000), "1e7");
        assert_eq!(size_label(1000), "1000");
        assert_eq!(size_label(1 << 20), "1048576");
        assert_eq!(size_label(5_000_000), "5000000");
    }
}
