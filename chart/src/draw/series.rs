//! The chart's data as lines and areas: curves (solid or dashed) and scatters, split into the runs
//! that are inside the visible range, and shaded bands; each adds its legend entry.

use plotters::prelude::*;

use super::axes::{to_axis, Axes};
use super::legend::Glyph;
use super::theme::role_style;
use super::{err, Plot, Theme};
use crate::{Chart, Role};

/// Shaded bands between a lower and an upper curve.
pub(super) fn draw_bands<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
    legend: &mut Vec<(String, Glyph)>,
) -> Result<(), String> {
    for band in &chart.bands {
        if band.points.len() < 2 {
            continue;
        }
        let mut poly: Vec<(f64, f64)> = band
            .points
            .iter()
            .map(|&(x, l, _)| axes.clamp(x, l))
            .collect();
        poly.extend(band.points.iter().rev().map(|&(x, _, u)| axes.clamp(x, u)));
        let fill = theme.palette[0].mix(0.12).filled();
        cc.draw_series(std::iter::once(Polygon::new(poly, fill)))
            .map_err(err)?;
        legend.push((band.label.clone(), Glyph::Fill(theme.palette[0].mix(0.25))));
    }
    Ok(())
}

/// A series' points in drawing coordinates, split into runs inside the visible range: a curve
/// that leaves the plot ends at its last visible point instead of being flattened against the
/// frame.
pub(super) fn visible_runs(points: &[(f64, f64)], axes: Axes) -> Vec<Vec<(f64, f64)>> {
    let (xl, yl) = (axes.x_log, axes.y_log);
    let (xspan, yspan) = (axes.x_span(), axes.y_span());
    let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for &(x, y) in points {
        let ok = x.is_finite() && y.is_finite() && (!xl || x > 0.0) && (!yl || y > 0.0);
        let (ax, ay) = if ok {
            (to_axis(x, xl), to_axis(y, yl))
        } else {
            (f64::NAN, f64::NAN)
        };
        let inside = ok
            && ax >= axes.x0 - 1e-9 * xspan
            && ax <= axes.x1 + 1e-9 * xspan
            && ay >= axes.y0 - 1e-9 * yspan
            && ay <= axes.y1 + 1e-9 * yspan;
        if inside {
            if let Some(r) = runs.last_mut() {
                r.push((ax.clamp(axes.x0, axes.x1), ay.clamp(axes.y0, axes.y1)));
            }
        } else if runs.last().is_some_and(|r| !r.is_empty()) {
            runs.push(Vec::new());
        }
    }
    runs
}

/// One curve (solid or dashed, by its role) or scatter, and its legend entry.
pub(super) fn draw_one_series<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    series: &crate::Series,
    theme: &Theme,
    axes: Axes,
    legend: &mut Vec<(String, Glyph)>,
) -> Result<(), String> {
    let mut runs = visible_runs(&series.points, axes);
    if !matches!(series.role, Role::Scatter(_)) {
        runs.retain(|r| r.len() >= 2);
    }
    let legend_only = series.points.is_empty() && !series.label.is_empty();
    if runs.is_empty() && !legend_only {
        return Ok(());
    }
    let (color, width, dash) = role_style(series.role, theme);
    if let Role::Scatter(_) = series.role {
        let r = theme.px(2.5);
        let dots: Vec<Circle<(f64, f64), u32>> = runs
            .iter()
            .flatten()
            .map(|&p| Circle::new(p, r, color.filled()))
            .collect();
        cc.draw_series(dots).map_err(err)?;
        if !series.label.is_empty() {
            legend.push((series.label.clone(), Glyph::Dot(color)));
        }
        return Ok(());
    }
    let style = color.stroke_width(theme.px(width));
    for pts in runs {
        match dash {
            None => cc.draw_series(LineSeries::new(pts, style)).map_err(err)?,
            Some((d, g)) => cc
                .draw_series(DashedLineSeries::new(pts, theme.px(d), theme.px(g), style))
                .map_err(err)?,
        };
    }
    if !series.label.is_empty() {
        legend.push((series.label.clone(), Glyph::Line(style, dash.is_some())));
    }
    Ok(())
}
