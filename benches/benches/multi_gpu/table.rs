//! The figures of the `multi_gpu` bench and their Markdown: one table per measurement with
//! the size, cuprite's rate, the reference's rate measured in the same run, and their ratio,
//! each failure or missing reference said below its table.
//!
//! Rates are in GB/s of 10^9 bytes, as nccl-tests reports them: a copy's is its size over
//! its time; an all_reduce's algbw is the same, its busbw is algbw x 2(n-1)/n for n ranks
//! (the traffic of each rank's link in a ring, which a link's bandwidth bounds whatever n is).

use crate::options::size_label;

/// One timed figure: the median and the fastest of the timed runs, per call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Time {
    /// Median milliseconds per call.
    pub median_ms: f64,
    /// Fastest milliseconds per call.
    pub min_ms: f64,
}

impl Time {
    /// The median and minimum of `ms` (`None` when empty).
    pub fn from_samples(ms: &[f64]) -> Option<Time> {
        if ms.is_empty() {
            return None;
        }
        let mut v = ms.to_vec();
        v.sort_by(f64::total_cmp);
        let m = v.len() / 2;
        let median_ms = if v.len() % 2 == 1 {
            v[m]
        } else {
            0.5 * (v[m - 1] + v[m])
        };
        Some(Time {
            median_ms,
            min_ms: v[0],
        })
    }
}

/// A figure, or why there is none: `WRONG RESULT: ...` when a check failed, `SKIPPED: ...`
/// when the size does not fit the GPUs' free memory (not a failure), else the error.
pub type Outcome = Result<Time, String>;

/// GB/s (10^9 bytes a second) of `bytes` in `ms` milliseconds.
pub fn gbps(bytes: usize, ms: f64) -> f64 {
    bytes as f64 / (ms * 1e-3) / 1e9
}

/// nccl-tests' bus bandwidth factor of an all_reduce over `world` ranks: 2(n-1)/n.
pub fn bus_factor(world: usize) -> f64 {
    if world == 0 {
        return 0.0;
    }
    2.0 * (world - 1) as f64 / world as f64
}

/// A rate with as many digits as it deserves.
pub fn rate(x: f64) -> String {
    if !x.is_finite() {
        "—".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// One size of a copy table.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyRow {
    pub bytes: usize,
    pub ours: Outcome,
    /// `None`: the reference did not run (its section note says why).
    pub theirs: Option<Outcome>,
}

/// One size of an all_reduce table.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceRow {
    pub bytes: usize,
    /// `all_reduce_in_place` (what `torch.distributed.all_reduce` does).
    pub in_place: Outcome,
    /// `all_reduce` into a new array.
    pub out_of_place: Outcome,
    /// `None`: the reference did not run.
    pub theirs: Option<Outcome>,
}

/// A titled Markdown table with notes under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    pub title: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub notes: Vec<String>,
}

impl Section {
    /// The section as Markdown: a heading, the table (numbers right-aligned), the notes as a
    /// list.
    pub fn markdown(&self) -> String {
        let mut s = format!("### {}\n\n", self.title);
        if !self.header.is_empty() {
            s += &format!("| {} |\n", self.header.join(" | "));
            let align: Vec<&str> = (0..self.header.len())
                .map(|i| if i == 0 { "---" } else { "---:" })
                .collect();
            s += &format!("|{}|\n", align.join("|"));
            for r in &self.rows {
                s += &format!("| {} |\n", r.join(" | "));
            }
            s.push('\n');
        }
        for n in &self.notes {
            s += &format!("- {n}\n");
        }
        if !self.notes.is_empty() {
            s.push('\n');
        }
        s
    }
}

/// A cell of a rate, `error` (explained in a note), or `—` (not measured).
fn rate_cell(bytes: usize, o: Option<&Outcome>, factor: f64) -> String {
    match o {
        Some(Ok(t)) => rate(gbps(bytes, t.median_ms) * factor),
        Some(Err(e)) if e.starts_with("WRONG RESULT") => "WRONG".into(),
        Some(Err(e)) if e.starts_with("SKIPPED") => "skipped".into(),
        Some(Err(_)) => "error".into(),
        None => "—".into(),
    }
}

/// Their median time over ours (the rate ratio, > 1: cuprite faster), or `—`.
fn ratio_cell(ours: &Outcome, theirs: Option<&Outcome>) -> String {
    match (ours, theirs) {
        (Ok(a), Some(Ok(b))) if a.median_ms > 0.0 => format!("{:.2}", b.median_ms / a.median_ms),
        _ => "—".into(),
    }
}

/// A note for each failed figure of a row.
fn error_notes(bytes: usize, figures: &[(&str, Option<&Outcome>)], notes: &mut Vec<String>) {
    for (who, o) in figures {
        if let Some(Err(e)) = o {
            notes.push(format!("{}, {who}: {e}", size_label(bytes)));
        }
    }
}

/// A copy table: size, cuprite GB/s, the reference's GB/s, ratio. `missing` says why the
/// reference did not run, if it did not.
pub fn copy_section(
    title: String,
    reference: &str,
    rows: &[CopyRow],
    missing: Option<&str>,
) -> Section {
    let mut notes = Vec::new();
    let body = rows
        .iter()
        .map(|r| {
            error_notes(
                r.bytes,
                &[("cuprite", Some(&r.ours)), (reference, r.theirs.as_ref())],
                &mut notes,
            );
            vec![
                size_label(r.bytes),
                rate_cell(r.bytes, Some(&r.ours), 1.0),
                rate_cell(r.bytes, r.theirs.as_ref(), 1.0),
                ratio_cell(&r.ours, r.theirs.as_ref()),
            ]
        })
        .collect();
    if let Some(why) = missing {
        notes.insert(0, format!("{reference} not measured: {why}"));
    }
    Section {
        title,
        header: vec![
            "size".into(),
            "cuprite GB/s".into(),
            format!("{reference} GB/s"),
            format!("ratio (cuprite / {reference})"),
        ],
        rows: body,
        notes,
    }
}

/// An all_reduce table over `world` ranks: size, cuprite's algbw and busbw (in place), the
/// reference's, the ratio, and cuprite's busbw out of place (algbw on one rank, where busbw
/// is zero by definition).
pub fn reduce_section(
    title: String,
    world: usize,
    rows: &[ReduceRow],
    missing: Option<&str>,
) -> Section {
    const REF: &str = "torch";
    let bus = bus_factor(world);
    let mut notes = Vec::new();
    let body = rows
        .iter()
        .map(|r| {
            error_notes(
                r.bytes,
                &[
                    ("cuprite in place", Some(&r.in_place)),
                    ("cuprite out of place", Some(&r.out_of_place)),
                    (REF, r.theirs.as_ref()),
                ],
                &mut notes,
            );
            let busbw = |o: Option<&Outcome>| {
                if world == 1 {
                    "—".to_string()
                } else {
                    rate_cell(r.bytes, o, bus)
                }
            };
            let out_of_place = if world == 1 {
                rate_cell(r.bytes, Some(&r.out_of_place), 1.0)
            } else {
                busbw(Some(&r.out_of_place))
            };
            vec![
                size_label(r.bytes),
                rate_cell(r.bytes, Some(&r.in_place), 1.0),
                busbw(Some(&r.in_place)),
                rate_cell(r.bytes, r.theirs.as_ref(), 1.0),
                busbw(r.theirs.as_ref()),
                ratio_cell(&r.in_place, r.theirs.as_ref()),
                out_of_place,
            ]
        })
        .collect();
    if let Some(why) = missing {
        notes.insert(0, format!("torch.distributed not measured: {why}"));
    }
    if world == 1 {
        notes.push(
            "one rank: NCCL has nothing to exchange; in place it moves no data (the \
             figures time the call itself), out of place it copies on the device; busbw = \
             algbw x 2(n-1)/n is 0, shown as —"
                .into(),
        );
    }
    let oop = if world == 1 {
        "cuprite out-of-place algbw"
    } else {
        "cuprite out-of-place busbw"
    };
    Section {
        title,
        header: vec![
            "size".into(),
            "cuprite algbw GB/s".into(),
            "cuprite busbw GB/s".into(),
            "torch algbw GB/s".into(),
            "torch busbw GB/s".into(),
            "ratio (cuprite / torch)".into(),
            oop.into(),
        ],
        rows: body,
        notes,
    }
}

/// Whether a cuprite figure failed, or either side's check did (each such row makes the
/// exit status 1; a size skipped for memory does not).
pub fn copy_failed(r: &CopyRow) -> bool {
    fails(&r.ours) || wrong(r.theirs.as_ref())
}

/// As [`copy_failed`] for an all_reduce row.
pub fn reduce_failed(r: &ReduceRow) -> bool {
    fails(&r.in_place) || fails(&r.out_of_place) || wrong(r.theirs.as_ref())
}

/// Whether a cuprite figure failed (a size skipped for memory did not).
fn fails(o: &Outcome) -> bool {
    matches!(o, Err(e) if !e.starts_with("SKIPPED"))
}

fn wrong(o: Option<&Outcome>) -> bool {
    matches!(o, Some(Err(e)) if e.starts_with("WRONG RESULT"))
}
