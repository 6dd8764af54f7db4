//! What the site adds to the figure registry (`amp_figures`, whose own tests sweep every figure):
//! each figure is shown on exactly one page, and its JSON and CSV exports carry its chart whole.

use amp_model::params::ParamValues;
use amp_site::export::{chart_csv, chart_json};
use amp_site::figures::{Chart, FigureSpec, FIGURES};
use amp_site::pages::Page;

#[test]
fn every_figure_is_shown_on_exactly_one_page() {
    assert!(!FIGURES.is_empty());
    for f in FIGURES {
        let on = Page::ALL
            .iter()
            .filter(|p| p.spec().figure_ids().contains(&f.id))
            .count();
        assert_eq!(on, 1, "{} is shown on {on} pages", f.id);
        assert!(Page::of(f.id).spec().figure_ids().contains(&f.id));
    }
}

/// The JSON export names the figure, gives every parameter's value and every series' points
/// exactly; the CSV has one row per plotted point, band edge pair, box statistic and marker.
#[test]
fn every_figure_exports_its_chart_at_defaults() {
    for f in FIGURES {
        let values = ParamValues::default();
        let chart = f.chart(&values).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        check_exports(f, &values, &chart);
    }
}

fn check_exports(f: &FigureSpec, values: &ParamValues, chart: &Chart) {
    let json: serde_json::Value = serde_json::from_str(&chart_json(f, values, chart))
        .unwrap_or_else(|e| panic!("{}: JSON does not parse: {e}", f.id));
    assert_eq!(json["figure"], f.id.as_str());
    for spec in f.params {
        assert!(
            json["parameters"][spec.name]["value"].is_string(),
            "{}: {}",
            f.id,
            spec.name
        );
    }
    let series = json["chart"]["series"].as_array().unwrap();
    assert_eq!(series.len(), chart.series.len(), "{}", f.id);
    for (s, j) in chart.series.iter().zip(series) {
        let pts: Vec<(f64, f64)> = j["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
            .collect();
        assert_eq!(pts, s.points, "{}: {}", f.id, s.label);
    }
    let csv = chart_csv(f, values, chart);
    let count = |c: &Chart| {
        c.series.iter().map(|s| s.points.len()).sum::<usize>()
            + c.bands.iter().map(|b| b.points.len()).sum::<usize>()
            + 5 * c.boxes.len()
            + c.markers.len()
    };
    let expected = count(chart) + chart.lower.as_deref().map_or(0, count);
    let rows = csv.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(rows, expected + 1, "{}: CSV rows (with the header)", f.id);
}
