//! Drawing a [`Chart`] with plotters, generic over the backend: the app draws to a canvas, the CLI
//! and the tests to SVG, with this same function.
//!
//! Log axes are drawn in log10 coordinates on a linear plotters axis, with tick labels written as
//! powers of ten; this keeps one code path for every axis combination.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::figures::{Chart, LegendCorner, Role};
use crate::format::{decade_label, display_number};

/// Colours and sizes. `scale` multiplies every length (device pixel ratio on screens).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    /// Length multiplier (1 for SVG, the device pixel ratio on a canvas).
    pub scale: f64,
    /// Font family for all text.
    pub font: &'static str,
    /// Plot background.
    pub background: RGBColor,
    /// Text and axes.
    pub text: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Family curves, bounds.
    pub palette: [RGBColor; 6],
    /// The reader's own curve and point.
    pub accent: RGBColor,
    /// Reference lines.
    pub reference: RGBColor,
}

impl Theme {
    /// Light theme. Palette: Okabe & Ito's colour-blind-safe set.
    pub fn light(scale: f64) -> Theme {
        Theme {
            scale,
            font: "sans-serif",
            background: RGBColor(255, 255, 255),
            text: RGBColor(31, 35, 40),
            grid: RGBColor(216, 222, 228),
            palette: [
                RGBColor(0, 114, 178),
                RGBColor(0, 158, 115),
                RGBColor(204, 121, 167),
                RGBColor(230, 159, 0),
                RGBColor(86, 180, 233),
                RGBColor(90, 90, 90),
            ],
            accent: RGBColor(213, 94, 0),
            reference: RGBColor(110, 119, 129),
        }
    }

    fn px(&self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }
}

fn to_axis(v: f64, log: bool) -> f64 {
    if log {
        v.log10()
    } else {
        v
    }
}

/// Tick label at axis coordinate v: decades on log axes ("0.01", "1e-6"), plain numbers otherwise.
fn tick(v: f64, log: bool, span: f64) -> String {
    if !log {
        return display_number(v, 3);
    }
    let k = v.round();
    if (v - k).abs() < 1e-6 {
        decade_label(k as i32)
    } else if span < 1.5 {
        display_number(10f64.powf(v), 2)
    } else {
        String::new()
    }
}

/// How many labels to request: on a log axis one per decade (or every other decade), never more
/// than `room` (what fits in the axis's pixel length).
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
    wanted.min(room).max(2)
}

/// Draw `chart` on `root`, with an optional title above it.
pub fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    title: Option<&str>,
) -> Result<(), String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    root.fill(&theme.background).map_err(e)?;
    let s = theme.scale;
    let (xl, yl) = (chart.x.log, chart.y.log);
    let (x0, x1) = (to_axis(chart.x.min, xl), to_axis(chart.x.max, xl));
    let (y0, y1) = (to_axis(chart.y.min, yl), to_axis(chart.y.max, yl));
    if !(x0.is_finite() && x1.is_finite() && y0.is_finite() && y1.is_finite() && x1 > x0 && y1 > y0)
    {
        return Err("the figure's range is empty or not finite".into());
    }
    let font = |size: f64| (theme.font, size * s).into_font().color(&theme.text);
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(theme.px(14.0))
        .x_label_area_size(theme.px(46.0))
        .y_label_area_size(theme.px(62.0));
    if let Some(t) = title {
        builder.caption(t, font(16.0));
    }
    let mut cc = builder.build_cartesian_2d(x0..x1, y0..y1).map_err(e)?;
    let (xspan, yspan) = (x1 - x0, y1 - y0);
    // Room for tick labels: about 70 px per x label and 26 px per y label.
    let (w, h) = root.dim_in_pixel();
    let x_room = (w as f64 / (70.0 * s)) as usize;
    let y_room = (h as f64 / (26.0 * s)) as usize;
    cc.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .axis_desc_style(font(13.0))
        .label_style(font(12.0))
        .x_labels(label_count(xspan, xl, x_room))
        .y_labels(label_count(yspan, yl, y_room))
        .x_label_formatter(&|v| tick(*v, xl, xspan))
        .y_label_formatter(&|v| tick(*v, yl, yspan))
        .bold_line_style(theme.grid.stroke_width(theme.px(1.0)))
        .light_line_style(TRANSPARENT)
        .axis_style(theme.text.stroke_width(theme.px(1.0)))
        .draw()
        .map_err(e)?;

    // Keep everything inside the plotting area.
    let clamp = |x: f64, y: f64| -> (f64, f64) {
        (to_axis(x, xl).clamp(x0, x1), to_axis(y, yl).clamp(y0, y1))
    };
    let mut legend: Vec<(String, Glyph)> = Vec::new();

    for band in &chart.bands {
        if band.points.len() < 2 {
            continue;
        }
        let mut poly: Vec<(f64, f64)> = band.points.iter().map(|&(x, l, _)| clamp(x, l)).collect();
        poly.extend(band.points.iter().rev().map(|&(x, _, u)| clamp(x, u)));
        let fill = theme.palette[0].mix(0.12).filled();
        cc.draw_series(std::iter::once(Polygon::new(poly, fill)))
            .map_err(e)?;
        legend.push((band.label.clone(), Glyph::Fill(theme.palette[0].mix(0.25))));
    }

    for series in &chart.series {
        let pts: Vec<(f64, f64)> = series
            .points
            .iter()
            .filter(|(x, y)| {
                x.is_finite() && y.is_finite() && (!xl || *x > 0.0) && (!yl || *y > 0.0)
            })
            .map(|&(x, y)| clamp(x, y))
            .collect();
        if pts.len() < 2 {
            continue;
        }
        let (color, width, dash) = match series.role {
            Role::Highlight => (theme.accent, 3.0, None),
            Role::Family(i) => (theme.palette[i % theme.palette.len()], 1.6, None),
            Role::Bound(i) => (
                theme.palette[i % theme.palette.len()],
                2.0,
                Some((7.0, 4.0)),
            ),
            Role::Reference => (theme.reference, 1.2, Some((3.0, 3.0))),
        };
        let style = color.stroke_width(theme.px(width));
        match dash {
            None => cc.draw_series(LineSeries::new(pts, style)).map_err(e)?,
            Some((d, g)) => cc
                .draw_series(DashedLineSeries::new(pts, theme.px(d), theme.px(g), style))
                .map_err(e)?,
        };
        legend.push((series.label.clone(), Glyph::Line(style, dash.is_some())));
    }

    for m in &chart.markers {
        if !(m.x.is_finite() && m.y.is_finite()) || (xl && m.x <= 0.0) || (yl && m.y <= 0.0) {
            continue;
        }
        let at = clamp(m.x, m.y);
        let r = theme.px(5.0) as i32;
        // Put the label to the left of the point when it sits in the right third of the plot.
        let dx = if at.0 > x0 + 0.66 * xspan {
            -(theme.px(8.0) as i32) - (m.label.chars().count() as f64 * 7.0 * s) as i32
        } else {
            theme.px(8.0) as i32
        };
        let dy = -(theme.px(20.0) as i32);
        let el = EmptyElement::at(at)
            + Circle::new((0, 0), r, theme.accent.filled())
            + Circle::new((0, 0), r, theme.background.stroke_width(theme.px(1.5)))
            + Text::new(m.label.clone(), (dx, dy), font(13.0));
        cc.draw_series(std::iter::once(el)).map_err(e)?;
    }

    let plot = cc.plotting_area().get_pixel_range();
    draw_legend(root, &legend, chart.legend, (plot.0, plot.1), theme).map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

/// A legend entry's sample: a line (dashed or not) or a filled swatch.
enum Glyph {
    Line(ShapeStyle, bool),
    Fill(RGBAColor),
}

/// Draw the legend box in a corner of the plotting area. Text is measured through the backend
/// (`estimate_text_size`), never through plotters' font layer, which on the web inserts styled
/// elements into the page.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    corner: LegendCorner,
    (xs, ys): (std::ops::Range<i32>, std::ops::Range<i32>),
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if items.is_empty() {
        return Ok(());
    }
    let s = theme.scale;
    let font = (theme.font, 12.0 * s).into_font().color(&theme.text);
    let pad = theme.px(8.0) as i32;
    let glyph_w = theme.px(24.0) as i32;
    let gap = theme.px(6.0) as i32;
    let mut text_w = 0;
    let mut line_h = theme.px(16.0) as i32;
    for (label, _) in items {
        let (w, h) = root.estimate_text_size(label, &font)?;
        text_w = text_w.max(w as i32);
        line_h = line_h.max(h as i32 + theme.px(2.0) as i32);
    }
    let box_w = pad * 2 + glyph_w + gap + text_w;
    let box_h = pad * 2 + line_h * items.len() as i32;
    let margin = theme.px(8.0) as i32;
    if box_h + 2 * margin > ys.end - ys.start || box_w + 2 * margin > xs.end - xs.start {
        // Too small to hold a legend without hiding the data; the text alternative lists the series.
        return Ok(());
    }
    let x0 = xs.start + margin;
    let y0 = match corner {
        LegendCorner::UpperLeft => ys.start + margin,
        LegendCorner::LowerLeft | LegendCorner::LowerRight => ys.end - margin - box_h,
    };
    let x0 = match corner {
        LegendCorner::LowerRight => xs.end - margin - box_w,
        _ => x0,
    };
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        theme.background.mix(0.9).filled(),
    ))?;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + box_w, y0 + box_h)],
        theme.grid.stroke_width(theme.px(1.0)),
    ))?;
    for (i, (label, glyph)) in items.iter().enumerate() {
        let top = y0 + pad + line_h * i as i32;
        let mid = top + line_h / 2;
        let gx = x0 + pad;
        match glyph {
            Glyph::Fill(c) => {
                let h = theme.px(5.0) as i32;
                root.draw(&Rectangle::new(
                    [(gx, mid - h), (gx + glyph_w, mid + h)],
                    c.filled(),
                ))?;
            }
            Glyph::Line(style, false) => {
                root.draw(&PathElement::new(
                    vec![(gx, mid), (gx + glyph_w, mid)],
                    *style,
                ))?;
            }
            Glyph::Line(style, true) => {
                let seg = glyph_w / 5;
                for k in [0, 2, 4] {
                    root.draw(&PathElement::new(
                        vec![(gx + k * seg, mid), (gx + (k + 1) * seg, mid)],
                        *style,
                    ))?;
                }
            }
        }
        root.draw(&Text::new(
            label.clone(),
            (gx + glyph_w + gap, mid),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
