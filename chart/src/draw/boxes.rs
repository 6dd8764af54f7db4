//! Box plots: each box from the first to the third quartile, its median and its whiskers.

use plotters::prelude::*;

use super::axes::Axes;
use super::{err, Plot, Theme};
use crate::Chart;

/// Half a box plot's width, in x-axis units (the boxes stand at whole x positions).
pub(super) const BOX_HALF: f64 = 0.28;

/// Whether a box has five finite statistics that the y axis can show.
pub(super) fn box_drawable(b: &crate::BoxStat, axes: Axes) -> bool {
    b.stats
        .iter()
        .all(|v| v.is_finite() && (!axes.y_log || *v > 0.0))
}

/// Box plots: the box from the first to the third quartile, the median, the whiskers.
pub(super) fn draw_boxes<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
) -> Result<(), String> {
    for b in &chart.boxes {
        if !box_drawable(b, axes) {
            continue;
        }
        let [w_lo, q1, med, q3, w_hi] = b.stats;
        let color = theme.palette[b.color % theme.palette.len()];
        let half = BOX_HALF;
        let stroke = color.stroke_width(theme.px(1.5));
        let (x, l, r) = (b.x, b.x - half, b.x + half);
        let p = |x: f64, y: f64| axes.clamp(x, y);
        cc.draw_series(std::iter::once(Rectangle::new(
            [p(l, q1), p(r, q3)],
            color.mix(0.25).filled(),
        )))
        .map_err(err)?;
        cc.draw_series(std::iter::once(Rectangle::new(
            [p(l, q1), p(r, q3)],
            stroke,
        )))
        .map_err(err)?;
        let median_style = theme.text.stroke_width(theme.px(2.5));
        cc.draw_series(std::iter::once(PathElement::new(
            vec![p(l, med), p(r, med)],
            median_style,
        )))
        .map_err(err)?;
        for (from, to) in [(q1, w_lo), (q3, w_hi)] {
            cc.draw_series(std::iter::once(PathElement::new(
                vec![p(x, from), p(x, to)],
                stroke,
            )))
            .map_err(err)?;
            cc.draw_series(std::iter::once(PathElement::new(
                vec![p(x - half / 2.0, to), p(x + half / 2.0, to)],
                stroke,
            )))
            .map_err(err)?;
        }
    }
    Ok(())
}
