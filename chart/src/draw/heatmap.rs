//! Heatmaps: the viridis-like colour scale, the cells coloured by value, and the colour bar beside
//! the plot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::Axes;
use super::{err, Plot, Theme};
use crate::Heatmap;

/// Colour of t ∈ [0, 1] on a viridis-like scale (dark purple → blue → green → yellow):
/// perceptually ordered and readable for colour-blind readers.
pub fn colormap(t: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (68, 1, 84),
        (59, 82, 139),
        (33, 145, 140),
        (94, 201, 98),
        (253, 231, 37),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The heatmap's cells, coloured by value.
pub(super) fn draw_heatmap<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    hm: &Heatmap,
    axes: Axes,
) -> Result<(), String> {
    let range = heat_range(hm);
    let cols = hm.x_edges.len().saturating_sub(1);
    let mut cells = Vec::with_capacity(hm.values.len());
    for (k, &v) in hm.values.iter().enumerate() {
        let (i, j) = (k % cols.max(1), k / cols.max(1));
        if !v.is_finite() || j + 1 >= hm.y_edges.len() || i + 1 >= hm.x_edges.len() {
            continue;
        }
        let a = axes.clamp(hm.x_edges[i], hm.y_edges[j]);
        let b = axes.clamp(hm.x_edges[i + 1], hm.y_edges[j + 1]);
        cells.push(Rectangle::new(
            [a, b],
            colormap(heat_t(v, range, hm.log_color)).filled(),
        ));
    }
    cc.draw_series(cells).map_err(err)?;
    Ok(())
}

/// The finite value range of a heatmap, in colour space (log10 when `log_color`).
fn heat_range(hm: &Heatmap) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in &hm.values {
        if v.is_finite() && (!hm.log_color || v > 0.0) {
            let c = if hm.log_color { libm::log10(v) } else { v };
            lo = lo.min(c);
            hi = hi.max(c);
        }
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        return (lo, lo + 1.0);
    }
    (lo, hi)
}

fn heat_t(v: f64, (lo, hi): (f64, f64), log: bool) -> f64 {
    let c = if log { libm::log10(v) } else { v };
    (c - lo) / (hi - lo)
}

/// A vertical colour bar right of the plot, with its title above and a few tick labels.
pub(super) fn draw_colorbar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    hm: &Heatmap,
    (xs, ys): (std::ops::Range<i32>, std::ops::Range<i32>),
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let font = theme.text_style(12.0);
    let range = heat_range(hm);
    let x0 = xs.end + theme.px(14.0) as i32;
    let w = theme.px(14.0) as i32;
    let (top, bottom) = (ys.start + theme.px(18.0) as i32, ys.end);
    let steps = 48;
    for k in 0..steps {
        let y1 = bottom - (bottom - top) * k / steps;
        let y0 = bottom - (bottom - top) * (k + 1) / steps;
        let t = (k as f64 + 0.5) / steps as f64;
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + w, y1)],
            colormap(t).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x0, top), (x0 + w, bottom)],
        theme.grid.stroke_width(1),
    ))?;
    root.draw(&Text::new(
        hm.label.clone(),
        (x0 - theme.px(10.0) as i32, ys.start),
        font.clone(),
    ))?;
    // Ticks: every decade on a log scale (at most 6), else the two ends.
    let (lo, hi) = range;
    let mut ticks: Vec<f64> = Vec::new();
    if hm.log_color {
        let (a, b) = (lo.ceil() as i32, hi.floor() as i32);
        let step = ((b - a) / 5 + 1).max(1);
        let mut k = a;
        while k <= b {
            ticks.push(k as f64);
            k += step;
        }
    }
    if ticks.len() < 2 {
        ticks = vec![lo, hi];
    }
    for c in ticks {
        let t = (c - lo) / (hi - lo);
        let y = bottom - ((bottom - top) as f64 * t).round() as i32;
        let v = if hm.log_color { libm::pow(10.0, c) } else { c };
        root.draw(&PathElement::new(
            vec![(x0 + w, y), (x0 + w + theme.px(4.0) as i32, y)],
            theme.text.stroke_width(1),
        ))?;
        root.draw(&Text::new(
            amp_format::short_number(v, 3),
            (x0 + w + theme.px(6.0) as i32, y),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
