//! Legends: the entries of a chart (for the page, or with the glyphs that draw them), the legend
//! box in the first corner of the plot where it covers no data, and the band below the chart that
//! holds it in columns.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::role_style;
use super::Theme;
use crate::{Chart, LegendCorner, Role};

/// One legend entry as the page can show it outside the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// The series' or band's label.
    pub label: String,
    /// Its colour, as `#rrggbb`.
    pub color: String,
    /// How its sample looks.
    pub mark: LegendMark,
}

/// The sample drawn beside a legend entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendMark {
    /// A solid line.
    Line,
    /// A dashed line.
    Dashed,
    /// A filled swatch (a band).
    Fill,
    /// A dot (a scatter).
    Dot,
}

/// Every legend entry of `chart` (and its lower panel), in drawing order: bands, then labelled
/// series; an entry the lower panel repeats (same label, colour and mark) is listed once.
pub fn legend_marks(chart: &Chart, theme: &Theme) -> Vec<LegendEntry> {
    legend_list(chart, theme)
        .into_iter()
        .map(|(e, _)| e)
        .collect()
}

/// The legend entries with their drawing glyphs (for the band below the chart).
pub(super) fn legend_entries(chart: &Chart, theme: &Theme) -> Vec<(String, Glyph)> {
    legend_list(chart, theme)
        .into_iter()
        .map(|(e, g)| (e.label, g))
        .collect()
}

fn legend_list(chart: &Chart, theme: &Theme) -> Vec<(LegendEntry, Glyph)> {
    let hex = |c: RGBColor| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    let mut out: Vec<(LegendEntry, Glyph)> = Vec::new();
    let mut push = |e: LegendEntry, g: Glyph| {
        if !out.iter().any(|(x, _)| *x == e) {
            out.push((e, g));
        }
    };
    for c in std::iter::once(chart).chain(chart.lower.as_deref()) {
        for b in &c.bands {
            if b.points.len() >= 2 && !b.label.is_empty() {
                push(
                    LegendEntry {
                        label: b.label.clone(),
                        color: hex(theme.palette[0]),
                        mark: LegendMark::Fill,
                    },
                    Glyph::Fill(theme.palette[0].mix(0.25)),
                );
            }
        }
        for s in &c.series {
            if s.label.is_empty() {
                continue;
            }
            let (color, width, dash) = role_style(s.role, theme);
            let (mark, glyph) = match s.role {
                Role::Scatter(_) => (LegendMark::Dot, Glyph::Dot(color)),
                _ => (
                    if dash.is_some() {
                        LegendMark::Dashed
                    } else {
                        LegendMark::Line
                    },
                    Glyph::Line(color.stroke_width(theme.px(width)), dash.is_some()),
                ),
            };
            push(
                LegendEntry {
                    label: s.label.clone(),
                    color: hex(color),
                    mark,
                },
                glyph,
            );
        }
    }
    out
}

/// A legend entry's sample: a line (dashed or not) or a filled swatch.
pub(super) enum Glyph {
    Line(ShapeStyle, bool),
    Fill(RGBAColor),
    Dot(RGBColor),
}

/// Draw the legend box in a corner of the plotting area. Text is measured through the backend
/// (`estimate_text_size`), never through plotters' font layer, which on the web inserts styled
/// elements into the page.
pub(super) fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    corner: LegendCorner,
    (xs, ys): (std::ops::Range<i32>, std::ops::Range<i32>),
    theme: &Theme,
    occupied: &[(i32, i32)],
) -> Result<Option<[i32; 4]>, DrawingAreaErrorKind<DB::ErrorType>> {
    if items.is_empty() {
        return Ok(None);
    }
    let font = theme.text_style(12.0);
    let pad = theme.px(8.0) as i32;
    let glyph_w = theme.px(24.0) as i32;
    let gap = theme.px(6.0) as i32;
    let (text_w, line_h) = legend_text_size(root, items, theme)?;
    let box_w = pad * 2 + glyph_w + gap + text_w;
    let box_h = pad * 2 + line_h * items.len() as i32;
    let margin = theme.px(8.0) as i32;
    if box_h + 2 * margin > ys.end - ys.start || box_w + 2 * margin > xs.end - xs.start {
        // Too small to hold a legend without hiding the data.
        return Ok(None);
    }
    let place = |c: LegendCorner| {
        let y0 = match c {
            LegendCorner::UpperLeft | LegendCorner::UpperRight => ys.start + margin,
            LegendCorner::LowerLeft | LegendCorner::LowerRight => ys.end - margin - box_h,
        };
        let x0 = match c {
            LegendCorner::LowerRight | LegendCorner::UpperRight => xs.end - margin - box_w,
            _ => xs.start + margin,
        };
        (x0, y0)
    };
    // The chart's corner first, then the others; the first whose box (and a few pixels around it)
    // covers no data.
    let slack = theme.px(2.0) as i32;
    let free = |(x0, y0): (i32, i32)| {
        !occupied.iter().any(|&(x, y)| {
            x >= x0 - slack && x <= x0 + box_w + slack && y >= y0 - slack && y <= y0 + box_h + slack
        })
    };
    let order = [
        corner,
        LegendCorner::UpperRight,
        LegendCorner::UpperLeft,
        LegendCorner::LowerRight,
        LegendCorner::LowerLeft,
    ];
    let Some((x0, y0)) = order.into_iter().map(place).find(|&p| free(p)) else {
        return Ok(None);
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
        draw_glyph(root, glyph, gx, mid, glyph_w, theme)?;
        root.draw(&Text::new(
            label.clone(),
            (gx + glyph_w + gap, mid),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(Some([x0, y0, x0 + box_w, y0 + box_h]))
}

/// Height of the band under the chart that holds `items` in as many columns as fit in `width`.
pub(super) fn legend_band_height<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    theme: &Theme,
    width: i32,
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    let (cols, _, line_h) = legend_columns(root, items, theme, width)?;
    let rows = items.len().div_ceil(cols.max(1)) as i32;
    Ok(rows * line_h + 2 * theme.px(8.0) as i32)
}

/// The widest legend label and the line height, in pixels (text measured through the backend).
fn legend_text_size<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    theme: &Theme,
) -> Result<(i32, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    let font = theme.text_style(12.0);
    let mut text_w = 0;
    let mut line_h = theme.px(16.0) as i32;
    for (label, _) in items {
        let (w, h) = root.estimate_text_size(label, &font)?;
        text_w = text_w.max(w as i32);
        line_h = line_h.max(h as i32 + theme.px(2.0) as i32);
    }
    Ok((text_w, line_h))
}

/// (columns, column width, line height) of a legend laid out across `width`.
fn legend_columns<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    theme: &Theme,
    width: i32,
) -> Result<(usize, i32, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    let (text_w, line_h) = legend_text_size(root, items, theme)?;
    let col_w = theme.px(24.0 + 6.0 + 16.0) as i32 + text_w;
    let usable = width - 2 * theme.px(14.0) as i32;
    let cols = ((usable / col_w.max(1)) as usize).clamp(1, items.len().max(1));
    Ok((cols, col_w, line_h))
}

/// The legend in a band of its own, in columns, left-aligned with the chart's margin.
pub(super) fn draw_legend_band<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, _) = area.dim_in_pixel();
    let (cols, col_w, line_h) = legend_columns(area, items, theme, w as i32)?;
    let rows = items.len().div_ceil(cols.max(1));
    let font = theme.text_style(12.0);
    let (glyph_w, gap) = (theme.px(24.0) as i32, theme.px(6.0) as i32);
    let (left, top) = (theme.px(14.0) as i32, theme.px(8.0) as i32);
    for (i, (label, glyph)) in items.iter().enumerate() {
        // Column-major, so entries read down each column.
        let (col, row) = (i / rows, i % rows);
        let gx = left + col as i32 * col_w;
        let mid = top + row as i32 * line_h + line_h / 2;
        draw_glyph(area, glyph, gx, mid, glyph_w, theme)?;
        area.draw(&Text::new(
            label.clone(),
            (gx + glyph_w + gap, mid),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// A legend entry's sample at (gx, mid), `glyph_w` wide.
fn draw_glyph<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    glyph: &Glyph,
    gx: i32,
    mid: i32,
    glyph_w: i32,
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    match glyph {
        Glyph::Fill(c) => {
            let h = theme.px(5.0) as i32;
            root.draw(&Rectangle::new(
                [(gx, mid - h), (gx + glyph_w, mid + h)],
                c.filled(),
            ))
        }
        Glyph::Dot(c) => root.draw(&Circle::new(
            (gx + glyph_w / 2, mid),
            theme.px(3.0),
            c.filled(),
        )),
        Glyph::Line(style, false) => root.draw(&PathElement::new(
            vec![(gx, mid), (gx + glyph_w, mid)],
            *style,
        )),
        Glyph::Line(style, true) => {
            let seg = glyph_w / 5;
            for k in [0, 2, 4] {
                root.draw(&PathElement::new(
                    vec![(gx + k * seg, mid), (gx + (k + 1) * seg, mid)],
                    *style,
                ))?;
            }
            Ok(())
        }
    }
}
