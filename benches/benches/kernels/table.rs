//! The results of the `kernels` bench: one [`Figure`] per measurement (cuprite's and the
//! reference's, under the ids `scripts/bench_kernels.py` uses), the [`Row`]s that put them
//! side by side with ratios, rates and goals, and their Markdown table and JSON. The
//! `dtypes` bench includes this file too (its ids are those of `scripts/bench_dtypes.py`).

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One measurement: its median and every sample (milliseconds, or microseconds for the
/// per-call launch overhead).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub samples: Vec<f64>,
}

impl Figure {
    /// The median of `samples` (the mean of the two middle ones for an even count).
    pub fn median_of(samples: Vec<f64>) -> Figure {
        let mut s = samples.clone();
        s.sort_by(f64::total_cmp);
        let m = s.len() / 2;
        let value = if s.is_empty() {
            f64::NAN
        } else if s.len() % 2 == 1 {
            s[m]
        } else {
            (s[m - 1] + s[m]) / 2.0
        };
        Figure { value, samples }
    }
}

/// Measurements by id, or why there is none.
pub type Figures = BTreeMap<String, Result<Figure, String>>;

/// The figures of a reference script's JSON `results` list: each item's `value` and
/// `samples` under its `id`, or its `error` (both scripts write this format).
pub fn figures_from_results(v: &Value) -> Result<Figures, String> {
    let mut figures = Figures::new();
    for r in v["results"].as_array().ok_or("no \"results\" list")? {
        let id = r["id"].as_str().ok_or("a result without \"id\"")?;
        let fig = match r["value"].as_f64() {
            Some(value) => Ok(Figure {
                value,
                samples: r["samples"]
                    .as_array()
                    .map(|s| s.iter().filter_map(Value::as_f64).collect())
                    .unwrap_or_default(),
            }),
            None => Err(r["error"].as_str().unwrap_or("no figure").to_string()),
        };
        figures.insert(id.to_string(), fig);
    }
    Ok(figures)
}

/// The unit of a row's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    Ms,
    Us,
}

impl Unit {
    fn label(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::Us => "µs",
        }
    }
}

/// What a row's time is a rate of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rate {
    None,
    /// Bytes moved per call; `true`: also shown as a percentage of the same system's copy
    /// bandwidth measured in the run (the `copy_ms` figure, 2 x its bytes moved).
    Bytes(f64, bool),
    /// Floating-point operations per call.
    Flops(f64),
    /// Floating-point operations per call, shown in TFLOP/s.
    #[allow(dead_code)] // the dtypes bench's; the kernels bench includes this file too
    TeraFlops(f64),
}

/// The goal a row is checked against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    None,
    /// cuprite's time at most the reference's (ratio >= 1).
    NoSlower,
    /// cuprite's time below the reference's (ratio > 1).
    Faster,
    /// cuprite's rate at least this fraction of its copy bandwidth.
    Bandwidth(f64),
    /// cuprite's rate at least this fraction of the reference's (ratio >= f).
    #[allow(dead_code)] // the dtypes bench's; the kernels bench includes this file too
    Ratio(f64),
}

/// One line of the table: a workload, cuprite's figure and the reference's.
#[derive(Clone, Debug)]
pub struct Row {
    /// The figure's id on the cuprite side.
    pub id: &'static str,
    pub workload: String,
    pub unit: Unit,
    pub rate: Rate,
    /// The reference system (`CuPy`, `NumPy`) and the id of its figure.
    pub system: &'static str,
    pub their_id: &'static str,
    pub goal: Goal,
}

/// A time and, where the row has one, its rate (`0.0590 ms, 2034 GB/s (95% of copy)`).
fn cell(row: &Row, fig: Option<&Result<Figure, String>>, copy_gbs: Option<f64>) -> String {
    match fig {
        None => "not run".into(),
        Some(Err(e)) => format!("error: {}", short(e)),
        Some(Ok(f)) => {
            let mut s = format!("{} {}", num(f.value), row.unit.label());
            if let Some((r, unit)) = rate(row, f.value) {
                s += &format!(", {} {unit}", num(r));
                if let (Rate::Bytes(_, true), Some(c)) = (row.rate, copy_gbs) {
                    s += &format!(" ({:.0}% of copy)", 100.0 * r / c);
                }
            }
            s
        }
    }
}

/// An error on one line of at most 160 characters, without `|` (the JSON has it whole).
fn short(e: &str) -> String {
    let one: String = e.split_whitespace().collect::<Vec<_>>().join(" ");
    let one = one.replace('|', "/");
    match one.char_indices().nth(160) {
        Some((i, _)) => format!("{}…", &one[..i]),
        None => one,
    }
}

/// A number with four significant digits or more (`95.12`, `0.05904`, `2034`).
pub fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 10.0 {
        format!("{v:.2}")
    } else if a >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

/// The rate of a time `t` (in the row's unit) and its unit, if the row has a rate.
fn rate(row: &Row, t: f64) -> Option<(f64, &'static str)> {
    let secs = match row.unit {
        Unit::Ms => t * 1e-3,
        Unit::Us => t * 1e-6,
    };
    match row.rate {
        Rate::None => None,
        Rate::Bytes(b, _) => Some((b / secs / 1e9, "GB/s")),
        Rate::Flops(f) => Some((f / secs / 1e9, "GFLOP/s")),
        Rate::TeraFlops(f) => Some((f / secs / 1e12, "TFLOP/s")),
    }
}

/// The comparison of one row once both sides are known.
pub struct Judged {
    /// theirs / ours (> 1: cuprite faster).
    pub ratio: Option<f64>,
    /// cuprite's rate as a fraction of its copy bandwidth, for rows of a byte rate.
    pub of_copy: Option<f64>,
    /// `yes`, `no`, `?` (the figure needed is missing) or `—` (no goal).
    pub met: &'static str,
}

/// The copy bandwidth (GB/s) in `figs`, where the run has `copy_ms` for `copy_bytes`.
fn copy_gbs(figs: &Figures, copy_bytes: f64) -> Option<f64> {
    match figs.get("copy_ms") {
        Some(Ok(f)) => Some(copy_bytes / (f.value * 1e-3) / 1e9),
        _ => None,
    }
}

/// The whole result of a run: rows, both sides' figures and the notes printed under the
/// table.
pub struct Table {
    pub rows: Vec<Row>,
    pub ours: Figures,
    pub theirs: Figures,
    /// Bytes moved by the `copy_ms` workload (read + write).
    pub copy_bytes: f64,
    pub notes: Vec<String>,
}

impl Table {
    /// Ratio, share of the copy bandwidth and whether the goal is met, for `row`.
    pub fn judge(&self, row: &Row) -> Judged {
        let ours = self.ours.get(row.id).and_then(|r| r.as_ref().ok());
        let theirs = self.theirs.get(row.their_id).and_then(|r| r.as_ref().ok());
        let ratio = match (ours, theirs) {
            (Some(o), Some(t)) if o.value > 0.0 => Some(t.value / o.value),
            _ => None,
        };
        let of_copy = match (row.rate, ours, copy_gbs(&self.ours, self.copy_bytes)) {
            (Rate::Bytes(..), Some(o), Some(c)) => rate(row, o.value).map(|(r, _)| r / c),
            _ => None,
        };
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let met = match row.goal {
            Goal::None => "—",
            Goal::NoSlower => ratio.map_or("?", |r| yes_no(r >= 1.0)),
            Goal::Faster => ratio.map_or("?", |r| yes_no(r > 1.0)),
            Goal::Bandwidth(min) => of_copy.map_or("?", |f| yes_no(f >= min)),
            Goal::Ratio(min) => ratio.map_or("?", |r| yes_no(r >= min)),
        };
        Judged {
            ratio,
            of_copy,
            met,
        }
    }

    fn goal_text(goal: Goal, system: &str) -> String {
        match goal {
            Goal::None => "—".into(),
            Goal::NoSlower => format!("no slower than {system}"),
            Goal::Faster => format!("below {system}"),
            Goal::Bandwidth(f) => format!(">= {:.0}% of copy bandwidth", f * 100.0),
            Goal::Ratio(f) => format!(">= {:.0}% of {system}'s rate", f * 100.0),
        }
    }

    /// The Markdown table (header, one line per row) followed by the notes, one per line.
    pub fn markdown(&self) -> String {
        self.markdown_with("CuPy (or NumPy)")
    }

    /// [`Table::markdown`] with `reference` as the header of the reference column.
    pub fn markdown_with(&self, reference: &str) -> String {
        let mut s = format!(
            "| workload | cuprite | {reference} | ratio | goal | met? |\n\
             | --- | ---: | ---: | ---: | --- | --- |\n"
        );
        let our_copy = copy_gbs(&self.ours, self.copy_bytes);
        let their_copy = copy_gbs(&self.theirs, self.copy_bytes);
        for row in &self.rows {
            let j = self.judge(row);
            let theirs = self.theirs.get(row.their_id);
            s += &format!(
                "| {} | {} | {}{} | {} | {} | {} |\n",
                row.workload,
                cell(row, self.ours.get(row.id), our_copy),
                if theirs.is_some() {
                    format!("{}: ", row.system)
                } else {
                    String::new()
                },
                cell(row, theirs, their_copy),
                j.ratio.map_or("—".into(), |r| format!("{r:.2}")),
                Self::goal_text(row.goal, row.system),
                j.met,
            );
        }
        if !self.notes.is_empty() {
            s.push('\n');
            for n in &self.notes {
                s += &format!("- {n}\n");
            }
        }
        s
    }

    /// Every row with both figures, ratio and goal, the figures by id and the notes.
    pub fn json(&self, about: Value) -> Value {
        let fig = |f: Option<&Result<Figure, String>>| match f {
            None => Value::Null,
            Some(Ok(f)) => json!({"value": f.value, "samples": f.samples}),
            Some(Err(e)) => json!({"error": e}),
        };
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                let j = self.judge(row);
                json!({
                    "id": row.id,
                    "workload": row.workload,
                    "unit": row.unit.label(),
                    "cuprite": fig(self.ours.get(row.id)),
                    "system": row.system,
                    "reference": fig(self.theirs.get(row.their_id)),
                    "ratio": j.ratio,
                    "cuprite_share_of_copy": j.of_copy,
                    "goal": Self::goal_text(row.goal, row.system),
                    "met": j.met,
                })
            })
            .collect();
        json!({"about": about, "rows": rows, "notes": self.notes})
    }

    /// Failures that make the run exit 1: a wrong result on either side, or any error of
    /// cuprite's.
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, r) in &self.ours {
            if let Err(e) = r {
                out.push(format!("cuprite {id}: {e}"));
            }
        }
        for (id, r) in &self.theirs {
            if let Err(e) = r {
                if e.contains("WRONG RESULT") {
                    out.push(format!("reference {id}: {e}"));
                }
            }
        }
        out
    }

    /// Writes `md` (this table's Markdown) to `markdown` and the JSON with `about` to `json`
    /// where given, then prints the failures; the exit status: 1 when a write failed or a
    /// row failed, else 0. `bench` names the bench in the messages.
    pub fn write_outputs(
        &self,
        bench: &str,
        md: &str,
        markdown: Option<&std::path::Path>,
        json: Option<&std::path::Path>,
        about: Value,
    ) -> i32 {
        let mut code = 0;
        if let Some(p) = markdown {
            if let Err(e) = std::fs::write(p, md) {
                eprintln!("{bench}: writing {}: {e}", p.display());
                code = 1;
            }
        }
        if let Some(p) = json {
            let text = serde_json::to_string_pretty(&self.json(about)).expect("JSON of the table");
            if let Err(e) = std::fs::write(p, text) {
                eprintln!("{bench}: writing {}: {e}", p.display());
                code = 1;
            }
        }
        let failures = self.failures();
        if !failures.is_empty() {
            println!("FAILED");
            for f in &failures {
                println!("  {f}");
            }
            code = 1;
        }
        code
    }
}
