//! The comparison's results: every system's timings side by side ([`Report`]), the ceilings
//! measured in the same run (the best copy bandwidth and the best GEMM rate seen on each
//! device), the Markdown table and the JSON document.

use crate::compare::Timing;
use crate::workloads::{Rate, Workload, WorkloadId};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Where a system runs: ceilings are per device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    /// The host CPU (cuprite-cpu, NumPy).
    Cpu,
    /// The GPU (cuprite-cuda, CuPy).
    Gpu,
}

impl DeviceKind {
    /// `"cpu"` or `"gpu"`.
    pub fn key(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Gpu => "gpu",
        }
    }
}

/// One system's timings of every workload.
#[derive(Clone, Debug)]
pub struct SystemRun {
    /// Short key (`cpu`, `cuda`, `numpy`, `cupy`), used in the JSON and the ratio columns.
    pub key: String,
    /// Column title (`cuprite-cuda`, `NumPy`).
    pub title: String,
    /// Whether this is a cuprite backend (ratios to NumPy and CuPy are given for these).
    pub cuprite: bool,
    /// The device it runs on.
    pub device: DeviceKind,
    /// A line naming versions and the device.
    pub about: String,
    /// Timing, or why there is none, by workload key.
    pub results: HashMap<String, Result<Timing, String>>,
    /// Extra per-workload data for the JSON output (the scripts' raw entries).
    pub raw: HashMap<String, Value>,
}

impl SystemRun {
    /// The timing of a workload, if it ran.
    pub fn timing(&self, w: &Workload) -> Option<&Timing> {
        self.results.get(w.id.key()).and_then(|r| r.as_ref().ok())
    }
}

/// The best rates measured on one device in this run: the denominators of `% of ceiling`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ceiling {
    /// Best `copy` bandwidth (bytes read + written per second).
    pub copy_bytes_per_s: Option<f64>,
    /// Best f64 matmul rate (FLOP/s).
    pub gemm_f64_flops: Option<f64>,
    /// Best f32 matmul rate (FLOP/s).
    pub gemm_f32_flops: Option<f64>,
}

/// The whole comparison.
#[derive(Clone, Debug)]
pub struct Report {
    /// Element-count factor of the run.
    pub scale: f64,
    /// Timed runs per workload.
    pub runs: usize,
    /// The workloads, in table order.
    pub workloads: Vec<Workload>,
    /// Every system that ran, cuprite backends first.
    pub systems: Vec<SystemRun>,
    /// Why a system did not run, and other remarks for the caption.
    pub notes: Vec<String>,
    /// Problems that make the run fail (a wrong result, a cuprite error, a named backend that
    /// could not run), besides those in `systems`.
    pub problems: Vec<String>,
}

/// The work of one call in the unit of its rate.
fn work(rate: Rate) -> f64 {
    match rate {
        Rate::Bytes(x) | Rate::Flops(x) | Rate::Elements(x) => x,
    }
}

/// Whether a workload's rate is compared with a ceiling, and which.
fn ceiling_of(w: &Workload, c: &Ceiling) -> Option<f64> {
    match (w.id, w.rate()) {
        (WorkloadId::AddSmall, _) => None,
        (_, Rate::Bytes(_)) => c.copy_bytes_per_s,
        (WorkloadId::MatmulF64, _) => c.gemm_f64_flops,
        (WorkloadId::MatmulF32, _) => c.gemm_f32_flops,
        _ => None,
    }
}

/// Formats a time in milliseconds with about 4 significant digits.
pub fn ms(t: f64) -> String {
    if t >= 100.0 {
        format!("{t:.1}")
    } else if t >= 1.0 {
        format!("{t:.3}")
    } else {
        format!("{t:.5}")
    }
}

fn max_opt(a: Option<f64>, b: f64) -> Option<f64> {
    Some(a.map_or(b, |a| a.max(b)))
}

impl Report {
    /// The ceilings of `device`: the best rate (fastest run) of `copy` and of the matmuls over
    /// every system on that device.
    pub fn ceiling(&self, device: DeviceKind) -> Ceiling {
        let mut c = Ceiling::default();
        for s in self.systems.iter().filter(|s| s.device == device) {
            for w in &self.workloads {
                let Some(t) = s.timing(w) else { continue };
                let rate = work(w.rate()) / (t.min_ms * 1e-3);
                match w.id {
                    WorkloadId::Copy => c.copy_bytes_per_s = max_opt(c.copy_bytes_per_s, rate),
                    WorkloadId::MatmulF64 => c.gemm_f64_flops = max_opt(c.gemm_f64_flops, rate),
                    WorkloadId::MatmulF32 => c.gemm_f32_flops = max_opt(c.gemm_f32_flops, rate),
                    _ => {}
                }
            }
        }
        c
    }

    /// Everything that makes the run fail: the `problems`, every wrong result (any system)
    /// and every error of a cuprite backend.
    pub fn failures(&self) -> Vec<String> {
        let mut v = self.problems.clone();
        for s in &self.systems {
            for w in &self.workloads {
                if let Some(Err(e)) = s.results.get(w.id.key()) {
                    if s.cuprite || e.starts_with("WRONG RESULT") {
                        v.push(format!("{} {}: {e}", s.title, w.id.key()));
                    }
                }
            }
        }
        v
    }

    /// The caption and the Markdown table.
    pub fn markdown(&self) -> String {
        let ceilings: HashMap<DeviceKind, Ceiling> = [DeviceKind::Cpu, DeviceKind::Gpu]
            .into_iter()
            .map(|d| (d, self.ceiling(d)))
            .collect();
        let mut out = format!(
            "Scale {} (10 = the anchor sizes), median of {} timed runs after a checked \
             warm-up. GPU times are device times between CUDA events recorded around the \
             call, for cuprite and for CuPy (cupyx.profiler.benchmark) alike; CPU times are \
             wall-clock times. The JSON output also has the wall time to the end of a device \
             sync.\n\n",
            self.scale, self.runs
        );
        for s in &self.systems {
            out += &format!("- {}: {}\n", s.title, s.about);
        }
        for d in [DeviceKind::Gpu, DeviceKind::Cpu] {
            if !self.systems.iter().any(|s| s.device == d) {
                continue;
            }
            let c = &ceilings[&d];
            let f = |x: Option<f64>, unit: f64, name: &str| {
                x.map_or(format!("{name} n/a"), |v| format!("{name} {:.1}", v / unit))
            };
            out += &format!(
                "- ceilings on the {} (best run of this table): {} GB/s, {} GFLOP/s, {} GFLOP/s\n",
                d.key().to_uppercase(),
                f(c.copy_bytes_per_s, 1e9, "copy"),
                f(c.gemm_f64_flops, 1e9, "matmul f64"),
                f(c.gemm_f32_flops, 1e9, "matmul f32"),
            );
        }
        for n in &self.notes {
            out += &format!("- note: {n}\n");
        }
        for s in self.systems.iter().filter(|s| s.cuprite) {
            let wall: Vec<&str> = self
                .workloads
                .iter()
                .filter(|w| s.timing(w).is_some_and(|t| t.wall_only))
                .map(|w| w.id.key())
                .collect();
            if !wall.is_empty() {
                out += &format!(
                    "- note: {}'s device timer failed; wall-clock times (with a sync) for: {}\n",
                    s.title,
                    wall.join(", ")
                );
            }
        }
        out += "\n";

        let cuprite: Vec<&SystemRun> = self.systems.iter().filter(|s| s.cuprite).collect();
        let refs: Vec<&SystemRun> = self.systems.iter().filter(|s| !s.cuprite).collect();
        let mut head = vec!["workload".to_string(), "size".to_string()];
        let mut align = vec!["---", "---"];
        for s in &self.systems {
            head.push(format!("{} ms", s.title));
            align.push("---:");
        }
        for c in &cuprite {
            for r in &refs {
                head.push(format!("{}/{}", r.title, c.title));
                align.push("---:");
            }
        }
        for s in &self.systems {
            head.push(format!("{} rate (% ceiling)", s.title));
            align.push("---:");
        }
        out += &format!("| {} |\n| {} |\n", head.join(" | "), align.join(" | "));
        for w in &self.workloads {
            let mut row = vec![w.id.description().to_string(), w.size_text()];
            for s in &self.systems {
                row.push(match s.results.get(w.id.key()) {
                    Some(Ok(t)) => ms(t.median_ms),
                    Some(Err(e)) => e.replace('|', "/"),
                    None => "n/a".into(),
                });
            }
            for c in &cuprite {
                for r in &refs {
                    row.push(match (c.timing(w), r.timing(w)) {
                        (Some(ct), Some(rt)) => format!("{:.2}", rt.median_ms / ct.median_ms),
                        _ => String::new(),
                    });
                }
            }
            for s in &self.systems {
                row.push(match s.timing(w) {
                    Some(t) => {
                        let rate = w.rate().format(t.median_ms);
                        match ceiling_of(w, &ceilings[&s.device]) {
                            Some(c) => {
                                let got = work(w.rate()) / (t.median_ms * 1e-3);
                                format!("{rate} ({:.0}%)", 100.0 * got / c)
                            }
                            None => rate,
                        }
                    }
                    None => String::new(),
                });
            }
            out += &format!("| {} |\n", row.join(" | "));
        }
        out += "\nRatios are reference time / cuprite time: above 1, cuprite is faster.\n";
        out
    }

    /// The results as one JSON document.
    pub fn json(&self) -> Value {
        let ceilings: serde_json::Map<String, Value> = [DeviceKind::Cpu, DeviceKind::Gpu]
            .into_iter()
            .filter(|d| self.systems.iter().any(|s| s.device == *d))
            .map(|d| {
                let c = self.ceiling(d);
                (
                    d.key().to_string(),
                    json!({
                        "copy_gb_per_s": c.copy_bytes_per_s.map(|v| v / 1e9),
                        "matmul_f64_gflop_per_s": c.gemm_f64_flops.map(|v| v / 1e9),
                        "matmul_f32_gflop_per_s": c.gemm_f32_flops.map(|v| v / 1e9),
                    }),
                )
            })
            .collect();
        let systems: Vec<Value> = self
            .systems
            .iter()
            .map(|s| {
                json!({"key": s.key, "title": s.title, "cuprite": s.cuprite,
                       "device": s.device.key(), "about": s.about})
            })
            .collect();
        let rows: Vec<Value> = self
            .workloads
            .iter()
            .map(|w| {
                let (unit, amount) = match w.rate() {
                    Rate::Bytes(b) => ("bytes", b),
                    Rate::Flops(f) => ("flops", f),
                    Rate::Elements(e) => ("elements", e),
                };
                let mut results = serde_json::Map::new();
                for s in &self.systems {
                    let mut r = match s.results.get(w.id.key()) {
                        Some(Ok(t)) => json!({"median_ms": t.median_ms, "min_ms": t.min_ms,
                                              "wall_median_ms": t.wall_median_ms,
                                              "wall_clock_only": t.wall_only}),
                        Some(Err(e)) => json!({ "error": e }),
                        None => json!({"error": "not run"}),
                    };
                    if let Some(raw) = s.raw.get(w.id.key()) {
                        r["raw"] = raw.clone();
                    }
                    results.insert(s.key.clone(), r);
                }
                json!({"id": w.id.key(), "description": w.id.description(),
                       "dims": w.dims, "inner": w.inner, "size": w.size_text(),
                       "work": {"unit": unit, "per_call": amount}, "results": results})
            })
            .collect();
        json!({
            "scale": self.scale,
            "runs": self.runs,
            "systems": systems,
            "ceilings": ceilings,
            "notes": self.notes,
            "failures": self.failures(),
            "rows": rows,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::default_workloads;

    fn system(key: &str, cuprite: bool, device: DeviceKind, ms: &[(&str, f64)]) -> SystemRun {
        SystemRun {
            key: key.into(),
            title: key.into(),
            cuprite,
            device,
            about: format!("{key} about"),
            results: ms
                .iter()
                .map(|(k, t)| (k.to_string(), Ok(Timing::new(*t, *t))))
                .collect(),
            raw: HashMap::new(),
        }
    }

    fn report() -> Report {
        let workloads: Vec<Workload> = default_workloads(1.0)
            .into_iter()
            .filter(|w| ["copy", "add", "matmul_f64"].contains(&w.id.key()))
            .collect();
        let mut cuda = system(
            "cuda",
            true,
            DeviceKind::Gpu,
            &[("copy", 1.0), ("add", 1.0), ("matmul_f64", 2.0)],
        );
        cuda.results
            .insert("matmul_f64".into(), Err("WRONG RESULT: element 0".into()));
        let cupy = system(
            "cupy",
            false,
            DeviceKind::Gpu,
            &[("copy", 0.5), ("add", 2.0), ("matmul_f64", 4.0)],
        );
        Report {
            scale: 1.0,
            runs: 3,
            workloads,
            systems: vec![cuda, cupy],
            notes: vec!["cpu skipped".into()],
            problems: vec![],
        }
    }

    #[test]
    fn ceilings_are_the_best_run_per_device() {
        let r = report();
        let c = r.ceiling(DeviceKind::Gpu);
        // copy: 25M f64 read + written = 400 MB in 0.5 ms.
        assert_eq!(c.copy_bytes_per_s, Some(400e6 / 0.5e-3));
        assert_eq!(c.gemm_f64_flops, Some(2.0 * 2000f64.powi(3) / 4e-3));
        assert_eq!(r.ceiling(DeviceKind::Cpu), Ceiling::default());
    }

    #[test]
    fn table_has_ratios_and_percentages() {
        let md = report().markdown();
        assert!(md.contains("| cuda ms | cupy ms | cupy/cuda |"), "{md}");
        // add: 600 MB in 1 ms = 600 GB/s, 75% of the 800 GB/s copy ceiling; CuPy 2x slower.
        assert!(
            md.contains("| a + b f64 | 25000000 | 1.000 | 2.000 | 2.00 | 600.0 GB/s (75%) |"),
            "{md}"
        );
        assert!(md.contains("WRONG RESULT"));
        assert!(md.contains("note: cpu skipped"));
    }

    #[test]
    fn wrong_results_fail_the_run() {
        let r = report();
        assert_eq!(r.failures().len(), 1);
        let j = r.json();
        assert_eq!(j["rows"][0]["id"], "add");
        assert_eq!(j["rows"][0]["results"]["cupy"]["median_ms"], 2.0);
        assert_eq!(j["failures"].as_array().unwrap().len(), 1);
    }
}
