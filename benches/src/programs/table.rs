//! The programs group's results: every side's measurement of every row at every thread
//! setting, the Markdown table (NumPy ms, cuprite ms, NumPy/cuprite, the check, CPU time and
//! page faults per call), the geometric means per (size, threads), and the JSON document.

use super::def;
use super::runner::{parse_outcome, Row};
use crate::report::ms;
use serde_json::{json, Value};
use std::collections::HashMap;

/// One side's timing of one row, per call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// Median wall time (ms).
    pub median_ms: f64,
    /// Fastest wall time (ms).
    pub min_ms: f64,
    /// Median process CPU time, user + system (ms).
    pub cpu_ms: f64,
    /// Median minor page faults.
    pub minflt: f64,
    /// Timed runs.
    pub runs: usize,
}

/// A measurement or why there is none (`WRONG RESULT: ...` for a failed check).
pub type Outcome = Result<Measured, String>;

/// Everything the parent gathered.
#[derive(Clone, Debug)]
pub struct Results {
    /// The rows, in table order.
    pub rows: Vec<Row>,
    /// The thread settings run.
    pub threads: Vec<String>,
    /// The cuprite backend.
    pub backend: String,
    /// `(side, threads, key, size)` -> outcome; side is `numpy`, `cupy`, `jax` or `cuprite`.
    pub cells: HashMap<(String, String, String, String), Outcome>,
    /// Whether cuprite's result of `(threads, key, size)` was checked against NumPy.
    pub checked: HashMap<(String, String, String), bool>,
    /// A line per side and thread setting naming versions and devices.
    pub about: Vec<String>,
    /// Remarks for the caption.
    pub notes: Vec<String>,
    /// Failures besides the cells (a side that did not run).
    pub problems: Vec<String>,
}

/// A ratio as a table cell: bold below 1 (cuprite slower), four decimals below 0.1.
fn ratio_cell(r: Option<f64>) -> String {
    match r {
        None => "-".into(),
        Some(r) if r < 0.1 => format!("**{r:.4}**"),
        Some(r) if r < 1.0 => format!("**{r:.2}**"),
        Some(r) => format!("{r:.2}"),
    }
}

fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

impl Results {
    /// No results yet.
    pub fn new(rows: Vec<Row>, threads: Vec<String>, backend: String) -> Self {
        Results {
            rows,
            threads,
            backend,
            cells: HashMap::new(),
            checked: HashMap::new(),
            about: Vec::new(),
            notes: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Adds one side's results at one thread setting (the script's or a child's JSON list).
    pub fn add(&mut self, side: &str, threads: &str, about: &str, results: &[Value]) {
        self.about
            .push(format!("{side} ({threads} threads): {about}"));
        for r in results {
            let key = r["id"].as_str().unwrap_or("?").to_string();
            let size = r["size"].as_str().unwrap_or("?").to_string();
            if side == "cuprite" {
                let checked = r["check"].as_str() == Some("ok");
                self.checked
                    .insert((threads.into(), key.clone(), size.clone()), checked);
            }
            self.cells
                .insert((side.into(), threads.into(), key, size), parse_outcome(r));
        }
    }

    fn cell(&self, side: &str, threads: &str, row: &Row) -> Option<&Outcome> {
        self.cells.get(&(
            side.to_string(),
            threads.to_string(),
            row.key.clone(),
            row.size.clone(),
        ))
    }

    fn time(&self, side: &str, threads: &str, row: &Row) -> Option<&super::table::Measured> {
        self.cell(side, threads, row).and_then(|o| o.as_ref().ok())
    }

    /// NumPy's median over cuprite's (> 1: cuprite faster), where both ran and cuprite's
    /// result was checked.
    pub fn ratio(&self, threads: &str, row: &Row) -> Option<f64> {
        self.over("numpy", threads, row)
    }

    /// `side`'s median over cuprite's, where both ran and cuprite's result was checked (a
    /// side's own wrong result is an error cell, so it has no time).
    pub fn over(&self, side: &str, threads: &str, row: &Row) -> Option<f64> {
        let ok = self
            .checked
            .get(&(threads.into(), row.key.clone(), row.size.clone()))
            .copied()
            .unwrap_or(false);
        let (n, c) = (
            self.time(side, threads, row)?,
            self.time("cuprite", threads, row)?,
        );
        ok.then(|| n.median_ms / c.median_ms)
    }

    fn status(&self, threads: &str, row: &Row) -> String {
        match self.cell("cuprite", threads, row) {
            None => "not run".into(),
            Some(Err(e)) if e.starts_with("WRONG RESULT") => format!("**FAIL** {e}"),
            Some(Err(e)) => format!("**ERROR** {e}"),
            Some(Ok(_)) => {
                match self
                    .checked
                    .get(&(threads.into(), row.key.clone(), row.size.clone()))
                {
                    Some(true) => "ok".into(),
                    _ => "unchecked".into(),
                }
            }
        }
    }

    /// The geometric mean of the ratios of the rows of `size` at `threads`, and how many.
    pub fn geomean(&self, size: &str, threads: &str) -> Option<(f64, usize)> {
        self.geomean_over("numpy", size, threads)
    }

    /// The geometric mean of `side`'s medians over cuprite's ([`Results::over`]) of the rows
    /// of `size` at `threads`, and how many.
    pub fn geomean_over(&self, side: &str, size: &str, threads: &str) -> Option<(f64, usize)> {
        let v: Vec<f64> = self
            .rows
            .iter()
            .filter(|r| r.size == size)
            .filter_map(|r| self.over(side, threads, r))
            .collect();
        geomean(&v).map(|g| (g, v.len()))
    }

    /// Every failure: a wrong result, a cuprite error, a side that did not run.
    pub fn failures(&self) -> Vec<String> {
        let mut v = self.problems.clone();
        for ((side, threads, key, size), o) in &self.cells {
            if let Err(e) = o {
                if side == "cuprite" || e.starts_with("WRONG RESULT") {
                    v.push(format!("{side} {key} {size} ({threads} threads): {e}"));
                }
            }
        }
        v.sort();
        v
    }

    /// The caption, the table and the geometric means.
    pub fn markdown(&self) -> String {
        let gpu = self.backend.ends_with("cuda");
        let mut out = String::from(
            "Median wall time per call after a checked warm-up (the run count shrinks for \
             slow rows; see the JSON). NumPy/cuprite > 1: cuprite faster. CPU = process \
             user + system time per call; flt = minor page faults per call.\n\n",
        );
        for a in &self.about {
            out += &format!("- {a}\n");
        }
        for n in &self.notes {
            out += &format!("- note: {n}\n");
        }
        out += "\n| program | size | threads | NumPy ms | cuprite ms | NumPy/cuprite | check \
                | NumPy CPU ms | cuprite CPU ms | NumPy flt | cuprite flt |";
        if gpu {
            out += " CuPy ms | CuPy/cuprite | jax.jit ms | jax.jit/cuprite |";
        }
        out += "\n|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|";
        if gpu {
            out += "---:|---:|---:|---:|";
        }
        out += "\n";
        let f = |m: Option<&Measured>, g: fn(&Measured) -> f64| m.map_or("-".into(), |m| ms(g(m)));
        let flt = |m: Option<&Measured>| m.map_or("-".into(), |m| format!("{:.0}", m.minflt));
        for row in &self.rows {
            for t in &self.threads {
                let (n, c) = (self.time("numpy", t, row), self.time("cuprite", t, row));
                let ratio = ratio_cell(self.ratio(t, row));
                let what = def(&row.key).map_or(row.key.as_str(), |d| d.key);
                out += &format!(
                    "| {what} | {} | {t} | {} | {} | {ratio} | {} | {} | {} | {} | {} |",
                    row.size,
                    f(n, |m| m.median_ms),
                    f(c, |m| m.median_ms),
                    self.status(t, row),
                    f(n, |m| m.cpu_ms),
                    f(c, |m| m.cpu_ms),
                    flt(n),
                    flt(c),
                );
                if gpu {
                    for side in ["cupy", "jax"] {
                        let r = ratio_cell(self.over(side, t, row));
                        let time = match self.cell(side, t, row) {
                            Some(Ok(m)) => ms(m.median_ms),
                            Some(Err(e)) if e.starts_with("WRONG RESULT") => "wrong".into(),
                            Some(Err(_)) => "error".into(),
                            None => "-".into(),
                        };
                        out += &format!(" {time} | {r} |");
                    }
                }
                out += "\n";
            }
        }
        let sides: &[&str] = if gpu {
            &["numpy", "cupy", "jax"]
        } else {
            &["numpy"]
        };
        out += "\nGeometric means of the other side over cuprite (checked rows; > 1: cuprite \
                faster):\n\n| size | threads |";
        for side in sides {
            out += &format!(" {side}/cuprite | rows |");
        }
        out += "\n|---|---|";
        out += &"---:|---:|".repeat(sides.len());
        out += "\n";
        for size in ["small", "medium", "micro"] {
            for t in &self.threads {
                if sides
                    .iter()
                    .all(|s| self.geomean_over(s, size, t).is_none())
                {
                    continue;
                }
                out += &format!("| {size} | {t} |");
                for side in sides {
                    out += &match self.geomean_over(side, size, t) {
                        Some((g, n)) if g < 0.1 => format!(" {g:.4} | {n} |"),
                        Some((g, n)) => format!(" {g:.2} | {n} |"),
                        None => " - | 0 |".into(),
                    };
                }
                out += "\n";
            }
        }
        out
    }

    /// The JSON document: every cell with the rows' parameters and the geometric means.
    pub fn json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .flat_map(|row| {
                self.threads.iter().map(move |t| {
                    let side = |s: &str| match self.cell(s, t, row) {
                        Some(Ok(m)) => json!({"median_ms": m.median_ms, "min_ms": m.min_ms,
                            "cpu_ms": m.cpu_ms, "minflt": m.minflt, "runs": m.runs}),
                        Some(Err(e)) => json!({"error": e}),
                        None => Value::Null,
                    };
                    json!({"id": row.key, "size": row.size, "params": row.params,
                           "inner": row.inner, "threads": t, "numpy": side("numpy"),
                           "cuprite": side("cuprite"), "cupy": side("cupy"), "jax": side("jax"),
                           "ratio_numpy_over_cuprite": self.ratio(t, row),
                           "check": self.status(t, row)})
                })
            })
            .collect();
        let mut means = Vec::new();
        for size in ["small", "medium", "micro"] {
            for t in &self.threads {
                if let Some((g, n)) = self.geomean(size, t) {
                    let other = |s| self.geomean_over(s, size, t).map(|(g, _)| g);
                    means.push(json!({"size": size, "threads": t, "geomean": g, "rows": n,
                                      "cupy_over_cuprite": other("cupy"),
                                      "jax_over_cuprite": other("jax")}));
                }
            }
        }
        json!({"backend": self.backend, "about": self.about, "notes": self.notes,
               "problems": self.problems, "rows": rows, "geomeans": means})
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn ratios_and_geomeans() {
        let row = |k: &str| Row {
            key: k.into(),
            size: "small".into(),
            params: vec![4],
            inner: 1,
        };
        let mut r = Results::new(vec![row("lu"), row("mlp")], vec!["1".into()], "cpu".into());
        let entry = |k: &str, t: f64| {
            json!({"id": k, "size": "small", "median_ms": t, "min_ms": t, "cpu_ms": t,
                   "minflt": 0.0, "runs": 3, "check": "ok"})
        };
        r.add(
            "numpy",
            "1",
            "NumPy",
            &[entry("lu", 2.0), entry("mlp", 1.0)],
        );
        r.add(
            "cuprite",
            "1",
            "cuprite",
            &[entry("lu", 1.0), entry("mlp", 2.0)],
        );
        assert_eq!(r.ratio("1", &r.rows[0]), Some(2.0));
        let (g, n) = r.geomean("small", "1").unwrap();
        assert!((g - 1.0).abs() < 1e-12 && n == 2);
        assert!(r.failures().is_empty());
        r.add(
            "cuprite",
            "1",
            "cuprite",
            &[json!({"id": "mlp", "size": "small", "error": "WRONG RESULT: x"})],
        );
        assert_eq!(r.failures().len(), 1);
        assert!(r.markdown().contains("**FAIL**"));
    }

    #[test]
    fn gpu_tables_have_cupy_and_jax_columns_and_means() {
        let row = Row {
            key: "lu".into(),
            size: "medium".into(),
            params: vec![4],
            inner: 1,
        };
        let mut r = Results::new(vec![row], vec!["default".into()], "cuda".into());
        let entry = |t: f64| {
            json!({"id": "lu", "size": "medium", "median_ms": t, "min_ms": t, "cpu_ms": t,
                   "minflt": 0.0, "runs": 3, "check": "ok"})
        };
        r.add("numpy", "default", "NumPy", &[entry(8.0)]);
        r.add("cupy", "default", "CuPy", &[entry(6.0)]);
        r.add("jax", "default", "JAX", &[entry(1.0)]);
        r.add("cuprite", "default", "cuprite", &[entry(2.0)]);
        assert_eq!(r.over("cupy", "default", &r.rows[0]), Some(3.0));
        assert_eq!(r.geomean_over("jax", "medium", "default"), Some((0.5, 1)));
        let md = r.markdown();
        assert!(
            md.contains("jax.jit/cuprite") && md.contains("**0.50**"),
            "{md}"
        );
        assert!(
            md.contains("| medium | default | 4.00 | 1 | 3.00 | 1 | 0.50 | 1 |"),
            "{md}"
        );
        // A jax.jit form that disagrees with NumPy is a failure, and has no ratio.
        r.add(
            "jax",
            "default",
            "JAX",
            &[json!({"id": "lu", "size": "medium", "error": "WRONG RESULT: output 0"})],
        );
        assert_eq!(r.over("jax", "default", &r.rows[0]), None);
        assert_eq!(r.failures().len(), 1);
        assert!(r.markdown().contains("| wrong | - |"));
    }
}
