//! A drawn chart as data: CSV and JSON of every plotted series and band, with a header naming the
//! figure, its parameters (with units) and the axes. The app's export buttons and the CLI's
//! `plot --format csv|json` both use these, so the files agree with the picture.

use crate::figures::{Chart, FigureSpec, Role};
use amp_format::{compact_number, json_string};
use amp_model::params::ParamValues;

/// `name=value unit` for each parameter the figure reads, in its order.
fn parameter_list(spec: &FigureSpec, values: &ParamValues) -> Vec<(String, String, String)> {
    spec.params
        .iter()
        .map(|p| {
            (
                p.name.to_string(),
                p.format(values.get(p)),
                p.unit.to_string(),
            )
        })
        .collect()
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Family(_) => "family",
        Role::Highlight => "yours",
        Role::Bound(_) => "bound",
        Role::HighlightBound => "your bound",
        Role::Reference => "reference",
        Role::Scatter(_) => "points",
    }
}

/// The chart as CSV: `#` comment lines (figure, parameters with units, axes, notes), then one row
/// per plotted point, `series,kind,x,y,y_upper` (bands give their lower edge as y and the upper
/// as y_upper; markers are the kind `marker`). Numbers are written so they parse back to the
/// same doubles. Box plots are written as five rows per box (their quantiles).
pub fn chart_csv(spec: &FigureSpec, values: &ParamValues, chart: &Chart) -> String {
    let mut out = String::new();
    out.push_str(&format!("# figure: {} ({})\n", spec.id, spec.title));
    for (name, value, unit) in parameter_list(spec, values) {
        if unit.is_empty() {
            out.push_str(&format!("# parameter: {name} = {value}\n"));
        } else {
            out.push_str(&format!("# parameter: {name} = {value} {unit}\n"));
        }
    }
    for (axis, a) in [("x", &chart.x), ("y", &chart.y)] {
        out.push_str(&format!(
            "# {axis}: {}{}\n",
            a.label,
            if a.log { " (log scale)" } else { "" }
        ));
    }
    for n in &chart.notes {
        out.push_str(&format!("# note: {}\n", n.replace('\n', " ")));
    }
    out.push_str("series,kind,x,y,y_upper\n");
    let mut panel = |c: &Chart, prefix: &str| {
        for s in &c.series {
            for &(x, y) in &s.points {
                out.push_str(&format!(
                    "{},{},{},{},\n",
                    field(&format!("{prefix}{}", s.label)),
                    role_name(s.role),
                    compact_number(x),
                    compact_number(y)
                ));
            }
        }
        for b in &c.bands {
            for &(x, lo, hi) in &b.points {
                out.push_str(&format!(
                    "{},band,{},{},{}\n",
                    field(&format!("{prefix}{}", b.label)),
                    compact_number(x),
                    compact_number(lo),
                    compact_number(hi)
                ));
            }
        }
        for b in &c.boxes {
            for (q, v) in ["q2.5", "q25", "median", "q75", "q97.5"]
                .iter()
                .zip(b.stats)
            {
                out.push_str(&format!(
                    "{},box,{},{},\n",
                    field(&format!("{prefix}box {q}")),
                    compact_number(b.x),
                    compact_number(v)
                ));
            }
        }
        for m in &c.markers {
            out.push_str(&format!(
                "{},marker,{},{},\n",
                field(&format!("{prefix}{}", m.label)),
                compact_number(m.x),
                compact_number(m.y)
            ));
        }
    };
    panel(chart, "");
    if let Some(lower) = &chart.lower {
        panel(lower, "lower panel: ");
    }
    out
}

fn json_points2(points: &[(f64, f64)]) -> String {
    let body: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("[{},{}]", compact_number(*x), compact_number(*y)))
        .collect();
    format!("[{}]", body.join(","))
}

fn json_panel(c: &Chart) -> String {
    let axis = |a: &crate::figures::Axis| {
        format!(
            "{{\"label\":{},\"log\":{},\"min\":{},\"max\":{}}}",
            json_string(&a.label),
            a.log,
            compact_number(a.min),
            compact_number(a.max)
        )
    };
    let series: Vec<String> = c
        .series
        .iter()
        .map(|s| {
            format!(
                "{{\"label\":{},\"kind\":{},\"points\":{}}}",
                json_string(&s.label),
                json_string(role_name(s.role)),
                json_points2(&s.points)
            )
        })
        .collect();
    let bands: Vec<String> = c
        .bands
        .iter()
        .map(|b| {
            let pts: Vec<String> = b
                .points
                .iter()
                .map(|(x, lo, hi)| {
                    format!(
                        "[{},{},{}]",
                        compact_number(*x),
                        compact_number(*lo),
                        compact_number(*hi)
                    )
                })
                .collect();
            format!(
                "{{\"label\":{},\"points\":[{}]}}",
                json_string(&b.label),
                pts.join(",")
            )
        })
        .collect();
    let boxes: Vec<String> = c
        .boxes
        .iter()
        .map(|b| {
            let q: Vec<String> = b.stats.iter().map(|v| compact_number(*v)).collect();
            format!(
                "{{\"x\":{},\"quantiles\":[{}]}}",
                compact_number(b.x),
                q.join(",")
            )
        })
        .collect();
    let markers: Vec<String> = c
        .markers
        .iter()
        .map(|m| {
            format!(
                "{{\"label\":{},\"x\":{},\"y\":{}}}",
                json_string(&m.label),
                compact_number(m.x),
                compact_number(m.y)
            )
        })
        .collect();
    let notes: Vec<String> = c.notes.iter().map(|n| json_string(n)).collect();
    format!(
        "{{\"x\":{},\"y\":{},\"series\":[{}],\"bands\":[{}],\"boxes\":[{}],\"markers\":[{}],\"notes\":[{}]}}",
        axis(&c.x),
        axis(&c.y),
        series.join(","),
        bands.join(","),
        boxes.join(","),
        markers.join(","),
        notes.join(",")
    )
}

/// The chart as JSON: `{"figure", "title", "parameters": {name: {"value", "unit"}}, "summary",
/// "chart": {"x", "y", "series", "bands", "boxes", "markers", "notes"}, "lower": {…} or null}`.
pub fn chart_json(spec: &FigureSpec, values: &ParamValues, chart: &Chart) -> String {
    let params: Vec<String> = parameter_list(spec, values)
        .into_iter()
        .map(|(name, value, unit)| {
            format!(
                "{}:{{\"value\":{},\"unit\":{}}}",
                json_string(&name),
                json_string(&value),
                json_string(&unit)
            )
        })
        .collect();
    format!(
        "{{\"figure\":{},\"title\":{},\"parameters\":{{{}}},\"summary\":{},\"chart\":{},\"lower\":{}}}",
        json_string(spec.id.as_str()),
        json_string(spec.title),
        params.join(","),
        json_string(&chart.summary),
        json_panel(chart),
        chart
            .lower
            .as_deref()
            .map_or_else(|| "null".to_string(), json_panel)
    )
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use crate::figures::figure;

    #[test]
    fn csv_rows_are_the_plotted_points_and_the_header_names_the_parameters() {
        let spec = figure("amplification-vs-rate").unwrap();
        let values = ParamValues::default();
        let chart = spec.chart(&values).unwrap();
        let csv = chart_csv(spec, &values, &chart);
        assert!(csv.starts_with("# figure: amplification-vs-rate"));
        assert!(csv.contains("# parameter: eps = 1\n"));
        assert!(csv.contains("# parameter: n = 60000 records\n"));
        let rows: Vec<&str> = csv
            .lines()
            .filter(|l| !l.starts_with('#'))
            .skip(1)
            .collect();
        let points: usize =
            chart.series.iter().map(|s| s.points.len()).sum::<usize>() + chart.markers.len();
        assert_eq!(rows.len(), points);
        // The highlighted curve's values parse back to the same doubles.
        let yours = chart
            .series
            .iter()
            .find(|s| s.role == Role::Highlight)
            .unwrap();
        let parsed: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.contains(",yours,"))
            .map(|r| {
                let f: Vec<&str> = r.rsplitn(4, ',').collect();
                (f[2].parse().unwrap(), f[1].parse().unwrap())
            })
            .collect();
        assert_eq!(parsed, yours.points);
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
    }

    #[test]
    fn json_holds_every_series_and_band() {
        let spec = figure("epsilon-vs-epochs").unwrap();
        let values = ParamValues::default();
        let chart = spec.chart(&values).unwrap();
        let json = chart_json(spec, &values, &chart);
        assert!(json.starts_with("{\"figure\":\"epsilon-vs-epochs\""));
        for s in &chart.series {
            assert!(json.contains(&json_string(&s.label)), "{}", s.label);
        }
        for b in &chart.bands {
            assert!(json.contains(&json_string(&b.label)), "{}", b.label);
        }
        assert_eq!(json.matches('{').count(), json.matches('}').count());
        assert_eq!(json.matches('[').count(), json.matches(']').count());
    }
}
