//! A panel's axes: data to drawing coordinates (log10 on a log axis), tick labels, and the frame,
//! grid, ticks and axis titles that plotters draws for them.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{err, Frame, Plot, Theme};
use crate::Chart;
use amp_format::{decade_label, display_number, short_number};

pub(super) fn to_axis(v: f64, log: bool) -> f64 {
    if log {
        libm::log10(v)
    } else {
        v
    }
}

/// Tick label at axis coordinate v: decades on log axes ("0.01", "1e-6"), plain numbers otherwise.
fn tick(v: f64, log: bool, span: f64) -> String {
    if !log {
        // A tick meant to be 0 can arrive as ±1e-17 from the axis's arithmetic.
        let v = if v.abs() < 1e-9 * span { 0.0 } else { v };
        return short_number(v, 3);
    }
    let k = v.round();
    if (v - k).abs() < 1e-6 {
        decade_label(k as i32)
    } else if span < 1.5 {
        display_number(libm::pow(10.0, v), 2)
    } else {
        String::new()
    }
}

/// How many labels to request: on a log axis one per decade (or every other decade), never more
/// than `room` (what fits in the axis's pixel length), never fewer than 3.
fn label_count(span: f64, log: bool, room: usize) -> usize {
    let wanted = if !log {
        6
    } else {
        let decades = span.floor() as usize + 1;
        if decades <= 9 {
            decades.max(3)
        } else {
            decades / 2 + 1
        }
    };
    wanted.min(room).max(3)
}

/// A panel's axes in drawing coordinates (log10 on a log axis).
#[derive(Clone, Copy)]
pub(super) struct Axes {
    pub(super) x_log: bool,
    pub(super) y_log: bool,
    pub(super) x0: f64,
    pub(super) x1: f64,
    pub(super) y0: f64,
    pub(super) y1: f64,
}

impl Axes {
    /// The chart's axes, or why they cannot be drawn.
    pub(super) fn of(chart: &Chart) -> Result<Axes, String> {
        let (x_log, y_log) = (chart.x.log, chart.y.log);
        let a = Axes {
            x_log,
            y_log,
            x0: to_axis(chart.x.min, x_log),
            x1: to_axis(chart.x.max, x_log),
            y0: to_axis(chart.y.min, y_log),
            y1: to_axis(chart.y.max, y_log),
        };
        let finite = [a.x0, a.x1, a.y0, a.y1].iter().all(|v| v.is_finite());
        if finite && a.x1 > a.x0 && a.y1 > a.y0 {
            Ok(a)
        } else {
            Err("the figure's range is empty or not finite".into())
        }
    }

    pub(super) fn x_span(&self) -> f64 {
        self.x1 - self.x0
    }

    pub(super) fn y_span(&self) -> f64 {
        self.y1 - self.y0
    }

    /// Where a marker goes in drawing coordinates, or None when it has no place on these axes
    /// (not finite, or not positive on a log axis).
    pub(super) fn marker(&self, m: &crate::Marker) -> Option<(f64, f64)> {
        let placeable = m.x.is_finite()
            && m.y.is_finite()
            && !(self.x_log && m.x <= 0.0)
            && !(self.y_log && m.y <= 0.0);
        placeable.then(|| self.clamp(m.x, m.y))
    }

    /// A data point in drawing coordinates, kept inside the plotting area.
    pub(super) fn clamp(&self, x: f64, y: f64) -> (f64, f64) {
        (
            to_axis(x, self.x_log).clamp(self.x0, self.x1),
            to_axis(y, self.y_log).clamp(self.y0, self.y1),
        )
    }
}

/// The panel's frame, grid, ticks and axis titles; where the plotting area landed.
pub(super) fn draw_mesh<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
) -> Result<(Plot<'a, DB>, Frame), String> {
    let s = theme.scale;
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(theme.px(14.0))
        .x_label_area_size(theme.px(46.0))
        .y_label_area_size(theme.px(62.0));
    if chart.heatmap.is_some() {
        // Room for the colour bar.
        builder.margin_right(theme.px(96.0));
    }
    let mut cc = builder
        .build_cartesian_2d(axes.x0..axes.x1, axes.y0..axes.y1)
        .map_err(err)?;
    let (px_range, py_range) = cc.plotting_area().get_pixel_range();
    let frame = Frame {
        left: px_range.start as f64,
        right: px_range.end as f64,
        top: py_range.start as f64,
        bottom: py_range.end as f64,
        x_min: chart.x.min,
        x_max: chart.x.max,
        x_log: axes.x_log,
        y_min: chart.y.min,
        y_max: chart.y.max,
        y_log: axes.y_log,
        legend_box: None,
        legend_hidden: false,
    };
    let (xl, yl) = (axes.x_log, axes.y_log);
    let (xspan, yspan) = (axes.x_span(), axes.y_span());
    // Room for tick labels: about 70 px per x label and 26 px per y label, along the plotting
    // area (the panel less its margins and the x axis's label area).
    let (w, h) = root.dim_in_pixel();
    let x_room = (w as f64 / (70.0 * s)) as usize;
    let y_room = ((h as f64 - 74.0 * s).max(0.0) / (26.0 * s)) as usize;
    cc.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .axis_desc_style(theme.text_style(13.0))
        .label_style(theme.text_style(12.0))
        .x_labels(if chart.x.categories.is_empty() {
            label_count(xspan, xl, x_room)
        } else {
            0
        })
        .y_labels(label_count(yspan, yl, y_room))
        .x_label_formatter(&|v| tick(*v, xl, xspan))
        .y_label_formatter(&|v| tick(*v, yl, yspan))
        .bold_line_style(theme.grid.stroke_width(theme.px(1.0)))
        .light_line_style(TRANSPARENT)
        .axis_style(theme.text.stroke_width(theme.px(1.0)))
        .draw()
        .map_err(err)?;
    Ok((cc, frame))
}
