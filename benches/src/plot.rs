//! Plots of a crossover sweep ([`crate::crossover::Sweep`]): time per call against input
//! size, both axes logarithmic, one line per system, written as a PNG and an SVG with
//! plotters. The labels use DejaVu Sans Mono, embedded (`benches/assets`, with its licence),
//! so plots look the same on any machine, fonts installed or not.

use crate::crossover::Sweep;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");
const FAMILY: &str = "cuprite-plot";

/// Registers the embedded font once per process.
fn font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
                .map_err(|_| "the embedded plot font is not a valid font".to_string())
        })
        .clone()
}

/// A line colour per system, the same system always the same colour.
fn colour(key: &str) -> RGBColor {
    match key {
        "cuda" => RGBColor(0x76, 0xb9, 0x00),
        "cpu" => RGBColor(0xb8, 0x73, 0x33),
        "numpy" => RGBColor(0x1f, 0x77, 0xb4),
        "cupy" => RGBColor(0x9e, 0x1f, 0x63),
        _ => RGBColor(0x55, 0x55, 0x55),
    }
}

/// The range `[lo / 1.5, hi * 1.5]` of the positive values, for a log axis.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (hi > 0.0).then(|| (lo / 1.5, hi * 1.5))
}

/// Draws the sweep on any plotters drawing area.
fn draw<DB: DrawingBackend>(sweep: &Sweep, root: DrawingArea<DB, Shift>) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let n = sweep.elements();
    let (x0, x1) = range(n.iter().map(|&e| e as f64)).ok_or("the sweep has no sizes to plot")?;
    let (y0, y1) = range(
        sweep
            .series
            .iter()
            .flat_map(|s| s.ms.iter().flatten().copied()),
    )
    .ok_or("no system has a time to plot")?;
    root.fill(&WHITE).map_err(err)?;
    let title = format!("{}: time per call", sweep.id.description());
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FAMILY, 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("input elements")
        .y_desc("ms per call")
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .x_label_formatter(&|v| format!("{v:.0e}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(err)?;
    for s in &sweep.series {
        let c = colour(&s.key);
        let pts: Vec<(f64, f64)> = n
            .iter()
            .zip(&s.ms)
            .filter_map(|(&e, t)| Some((e as f64, (*t)?)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
            .map_err(err)?
            .label(s.title.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
        chart
            .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FAMILY, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Writes `crossover_<key>.png` and `crossover_<key>.svg` into `dir` (created if missing)
/// and returns their paths.
pub fn write_plots(sweep: &Sweep, dir: &Path) -> Result<Vec<PathBuf>, String> {
    font()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stem = format!("crossover_{}", sweep.id.key());
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    let size = (960, 600);
    draw(sweep, BitMapBackend::new(&png, size).into_drawing_area())
        .map_err(|e| format!("{}: {e}", png.display()))?;
    draw(sweep, SVGBackend::new(&svg, size).into_drawing_area())
        .map_err(|e| format!("{}: {e}", svg.display()))?;
    Ok(vec![png, svg])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crossover::{sweep_sizes, Series};
    use crate::workloads::WorkloadId;

    #[test]
    fn writes_a_png_and_an_svg() {
        let sizes = sweep_sizes(WorkloadId::Sum, 0.01).unwrap();
        let k = sizes.len();
        let line = |key: &str, f: &dyn Fn(f64) -> f64| Series {
            key: key.into(),
            title: format!("sys-{key}"),
            cuprite: key == "cpu",
            ms: sizes.iter().map(|w| Some(f(w.elements() as f64))).collect(),
            errors: Vec::new(),
        };
        let sweep = Sweep {
            id: WorkloadId::Sum,
            sizes: sizes.clone(),
            runs: 1,
            series: vec![
                line("cpu", &|n| 1e-6 * n),
                line("numpy", &|n| 2e-3 + 5e-7 * n),
            ],
            about: Vec::new(),
            notes: Vec::new(),
            problems: Vec::new(),
        };
        assert!(k >= 3);
        let dir = std::env::temp_dir().join(format!("cuprite-plot-{}", std::process::id()));
        let files = write_plots(&sweep, &dir).unwrap();
        let png = std::fs::read(&files[0]).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let svg = std::fs::read_to_string(&files[1]).unwrap();
        assert!(
            svg.contains("<svg") && svg.contains("sys-numpy"),
            "{svg:.400}"
        );
        assert!(svg.contains("<polyline"), "one line per system");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
