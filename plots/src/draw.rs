//! Drawing a [`Chart`] with plotters, generic over the backend: the app draws to a canvas, the CLI
//! and the tests to SVG, with this same function.
//!
//! Log axes are drawn in log10 coordinates on a linear plotters axis, with tick labels written as
//! powers of ten; this keeps one code path for every axis combination.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::figures::{Chart, Heatmap, LegendCorner, Role};
use crate::format::{decade_label, display_number, short_number};

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

    /// Dark theme (the app's dark mode): the same palette lightened where it would be too dark on
    /// the background; lines and text keep at least 4.5:1 against it.
    pub fn dark(scale: f64) -> Theme {
        Theme {
            scale,
            font: "sans-serif",
            background: RGBColor(13, 17, 23),
            text: RGBColor(230, 237, 243),
            grid: RGBColor(48, 54, 61),
            palette: [
                RGBColor(86, 180, 233),
                RGBColor(0, 190, 140),
                RGBColor(222, 143, 188),
                RGBColor(240, 180, 40),
                RGBColor(160, 215, 245),
                RGBColor(175, 175, 175),
            ],
            accent: RGBColor(255, 140, 60),
            reference: RGBColor(145, 152, 161),
        }
    }

    fn px(&self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }
}

pub(crate) fn to_axis(v: f64, log: bool) -> f64 {
    if log {
        amp_math::special::log10(v)
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
        display_number(amp_math::special::pow(10.0, v), 2)
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

/// Draw `chart` on `root`, with an optional title above it. Each panel's legend goes in the first
/// corner (the chart's own first) where it covers no curve, band edge or marker; where there is
/// none it is left out and the returned [`Frame`] says so (`legend_hidden`): the page then lists
/// it beside the canvas, and a standalone picture is drawn again with
/// [`draw_chart_legend_below`].
pub fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    title: Option<&str>,
) -> Result<Frame, String> {
    draw_chart_once(root, chart, theme, title, true)
}

/// `chart` over a band that holds its legend in as many columns as fit (for standalone pictures
/// whose legend fits nowhere inside the plot). When even the band would take half the picture,
/// the chart is drawn without a legend.
pub fn draw_chart_legend_below<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    title: Option<&str>,
) -> Result<Frame, String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    let items = legend_entries(chart, theme);
    let (w, h) = root.dim_in_pixel();
    let band = legend_band_height(root, &items, theme, w as i32).map_err(e)?;
    if items.is_empty() || band >= h as i32 / 2 {
        return draw_chart_once(root, chart, theme, title, false);
    }
    root.fill(&theme.background).map_err(e)?;
    let (top, bottom) = root.split_vertically(h as i32 - band);
    // The band first: drawing the chart ends by presenting the picture (an SVG is closed then).
    draw_legend_band(&bottom, &items, theme).map_err(e)?;
    let mut frame = draw_chart_once(&top, chart, theme, title, false)?;
    frame.legend_hidden = false;
    Ok(frame)
}

/// One drawing of the chart; `legend` false leaves every legend out (and reports it hidden).
fn draw_chart_once<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    title: Option<&str>,
    legend: bool,
) -> Result<Frame, String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    root.fill(&theme.background).map_err(e)?;
    let area = match title {
        Some(t) => root
            .titled(
                t,
                (theme.font, 16.0 * theme.scale)
                    .into_font()
                    .color(&theme.text),
            )
            .map_err(e)?,
        None => root.clone(),
    };
    let frame = match &chart.lower {
        None => draw_panel(&area, chart, theme, legend)?,
        Some(lower) => {
            let (_, h) = area.dim_in_pixel();
            let (top, bottom) = area.split_vertically((h as f64 * 0.6).round() as i32);
            let mut frame = draw_panel(&top, chart, theme, legend)?;
            let low = draw_panel(&bottom, lower, theme, legend)?;
            frame.legend_hidden |= low.legend_hidden;
            frame
        }
    };
    root.present().map_err(e)?;
    Ok(frame)
}

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
fn legend_entries(chart: &Chart, theme: &Theme) -> Vec<(String, Glyph)> {
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

/// Colour, line width and dash (length, gap) of a series' role.
fn role_style(role: Role, theme: &Theme) -> (RGBColor, f64, Option<(f64, f64)>) {
    match role {
        Role::Highlight => (theme.accent, 3.0, None),
        Role::Family(i) | Role::Scatter(i) => (theme.palette[i % theme.palette.len()], 1.6, None),
        Role::Bound(i) => (
            theme.palette[i % theme.palette.len()],
            2.0,
            Some((7.0, 4.0)),
        ),
        Role::HighlightBound => (theme.accent, 2.0, Some((7.0, 4.0))),
        Role::Reference => (theme.reference, 1.2, Some((3.0, 3.0))),
    }
}

/// Where a panel's plotting area is on the backend, in its pixels, and which data range it
/// shows: what a pointer position over the figure means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left and right edges of the plotting area, in backend pixels.
    pub left: f64,
    /// Right edge.
    pub right: f64,
    /// Top edge.
    pub top: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// The x axis's visible range, in data units.
    pub x_min: f64,
    /// Upper end.
    pub x_max: f64,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// The y axis's visible range, in data units.
    pub y_min: f64,
    /// Upper end.
    pub y_max: f64,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Where the legend was drawn inside the plot, in backend pixels (left, top, right, bottom);
    /// `None` when the panel has none inside.
    pub legend_box: Option<[f64; 4]>,
    /// The legend would have covered data in every corner of a panel and was left out of the
    /// picture ([`LegendFallback::Hide`]): the page shows it beside the figure instead.
    pub legend_hidden: bool,
}

impl Frame {
    /// The backend pixel where the data point (x, y) is drawn (outside the plotting area when the
    /// point is outside the axes' ranges).
    pub fn pixel_of(&self, x: f64, y: f64) -> (f64, f64) {
        let at = |v: f64, lo: f64, hi: f64, log: bool| {
            let (a, b) = (to_axis(lo, log), to_axis(hi, log));
            (to_axis(v, log) - a) / (b - a)
        };
        (
            self.left + at(x, self.x_min, self.x_max, self.x_log) * (self.right - self.left),
            self.bottom - at(y, self.y_min, self.y_max, self.y_log) * (self.bottom - self.top),
        )
    }

    /// The data x under horizontal pixel `px`, if it is inside the plotting area.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        if !(px >= self.left && px <= self.right) || self.right <= self.left {
            return None;
        }
        let t = (px - self.left) / (self.right - self.left);
        let (a, b) = (
            to_axis(self.x_min, self.x_log),
            to_axis(self.x_max, self.x_log),
        );
        let v = a + t * (b - a);
        Some(if self.x_log {
            amp_math::special::pow(10.0, v)
        } else {
            v
        })
    }
}

/// Each labelled series' and band's value at data x (linear interpolation between the two
/// neighbouring points, in the axes' own scales), for the pointer readout: (label, value) pairs;
/// bands give "(lower)" and "(upper)". Series that do not reach x are left out.
pub fn values_at(chart: &Chart, x: f64) -> Vec<(String, f64)> {
    let (xl, yl) = (chart.x.log, chart.y.log);
    let interp = |pts: &[(f64, f64)]| -> Option<f64> {
        let ax = to_axis(x, xl);
        let i = pts.iter().position(|p| p.0 >= x)?;
        if pts[i].0 == x {
            return Some(pts[i].1);
        }
        if i == 0 {
            return None;
        }
        let (p, q) = (pts[i - 1], pts[i]);
        let (px, qx) = (to_axis(p.0, xl), to_axis(q.0, xl));
        let (py, qy) = (to_axis(p.1, yl), to_axis(q.1, yl));
        if !(px.is_finite() && qx.is_finite() && py.is_finite() && qy.is_finite()) || qx <= px {
            return None;
        }
        let v = py + (ax - px) / (qx - px) * (qy - py);
        Some(if yl {
            amp_math::special::pow(10.0, v)
        } else {
            v
        })
    };
    let mut out = Vec::new();
    for s in &chart.series {
        if s.label.is_empty() || s.points.len() < 2 {
            continue;
        }
        if let Some(v) = interp(&s.points).filter(|v| v.is_finite()) {
            out.push((s.label.clone(), v));
        }
    }
    for b in &chart.bands {
        let lo: Vec<(f64, f64)> = b.points.iter().map(|p| (p.0, p.1)).collect();
        let hi: Vec<(f64, f64)> = b.points.iter().map(|p| (p.0, p.2)).collect();
        if let (Some(l), Some(h)) = (interp(&lo), interp(&hi)) {
            if l.is_finite() && h.is_finite() {
                out.push((format!("{} (lower)", b.label), l));
                out.push((format!("{} (upper)", b.label), h));
            }
        }
    }
    out
}

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

/// The plotters chart of one panel: log10 coordinates on linear axes.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A drawing error as text.
fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// A panel's axes in drawing coordinates (log10 on a log axis).
#[derive(Clone, Copy)]
struct Axes {
    x_log: bool,
    y_log: bool,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Axes {
    /// The chart's axes, or why they cannot be drawn.
    fn of(chart: &Chart) -> Result<Axes, String> {
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

    fn x_span(&self) -> f64 {
        self.x1 - self.x0
    }

    fn y_span(&self) -> f64 {
        self.y1 - self.y0
    }

    /// Where a marker goes in drawing coordinates, or None when it has no place on these axes
    /// (not finite, or not positive on a log axis).
    fn marker(&self, m: &crate::figures::Marker) -> Option<(f64, f64)> {
        let placeable = m.x.is_finite()
            && m.y.is_finite()
            && !(self.x_log && m.x <= 0.0)
            && !(self.y_log && m.y <= 0.0);
        placeable.then(|| self.clamp(m.x, m.y))
    }

    /// A data point in drawing coordinates, kept inside the plotting area.
    fn clamp(&self, x: f64, y: f64) -> (f64, f64) {
        (
            to_axis(x, self.x_log).clamp(self.x0, self.x1),
            to_axis(y, self.y_log).clamp(self.y0, self.y1),
        )
    }
}

/// One panel: axes, heatmap, bands, boxes, curves, markers, outlines, colour bar, legend (when
/// `with_legend`, in the first corner where it covers no data; hidden otherwise).
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    with_legend: bool,
) -> Result<Frame, String> {
    let axes = Axes::of(chart)?;
    let (mut cc, mut frame) = draw_mesh(root, chart, theme, axes)?;
    let mut legend: Vec<(String, Glyph)> = Vec::new();
    if let Some(hm) = &chart.heatmap {
        draw_heatmap(&mut cc, hm, axes)?;
    }
    draw_bands(&mut cc, chart, theme, axes, &mut legend)?;
    draw_boxes(&mut cc, chart, theme, axes)?;
    for series in &chart.series {
        draw_one_series(&mut cc, series, theme, axes, &mut legend)?;
    }
    // Curve and band pixels, sampled once for both the markers' labels and the legend.
    let data = if !chart.markers.is_empty() || (with_legend && !legend.is_empty()) {
        data_pixels(&cc, chart, axes, theme)
    } else {
        Vec::new()
    };
    let label_boxes = draw_markers(root, &mut cc, chart, theme, axes, &data)?;
    draw_outlines(&mut cc, chart, theme, axes)?;

    // The plotting area's pixel range is in backend coordinates; `root` may be a sub-area (a lower
    // panel, or below a title), so shift it into `root`'s own coordinates.
    let plot = cc.plotting_area().get_pixel_range();
    let (bx, by) = root.get_base_pixel();
    let plot = (
        plot.0.start - bx..plot.0.end - bx,
        plot.1.start - by..plot.1.end - by,
    );
    if let Some(hm) = &chart.heatmap {
        draw_colorbar(root, hm, (plot.0.clone(), plot.1.clone()), theme).map_err(err)?;
    }
    if legend.is_empty() {
        return Ok(frame);
    }
    if !with_legend {
        frame.legend_hidden = true;
        return Ok(frame);
    }
    let occupied = occupied_pixels(&data, theme, (bx, by), &label_boxes);
    let placed = draw_legend(
        root,
        &legend,
        chart.legend,
        (plot.0, plot.1),
        theme,
        &occupied,
    )
    .map_err(err)?;
    frame.legend_hidden = placed.is_none();
    frame.legend_box = placed.map(|[x0, y0, x1, y1]| {
        [
            (x0 + bx) as f64,
            (y0 + by) as f64,
            (x1 + bx) as f64,
            (y1 + by) as f64,
        ]
    });
    Ok(frame)
}

/// Pixels (in `root`'s coordinates) that show data: the curves and band edges (`data`, from
/// [`data_pixels`]), markers with their labels' boxes (`label_boxes`, as [`draw_markers`] placed
/// them; both in backend coordinates). A legend box must cover none of them.
fn occupied_pixels(
    data: &[(i32, i32)],
    theme: &Theme,
    (bx, by): (i32, i32),
    label_boxes: &[LabelBox],
) -> Vec<(i32, i32)> {
    let step = theme.px(3.0).max(1) as usize;
    let mut out: Vec<(i32, i32)> = data.iter().map(|&(x, y)| (x - bx, y - by)).collect();
    for b in label_boxes {
        // The point, and the label box's outline and middle line.
        out.push((b.point.0 - bx, b.point.1 - by));
        let (x0, y0, x1, y1) = (b.left - bx, b.top - by, b.right - bx, b.bottom - by);
        for x in (x0..=x1).step_by(step) {
            out.extend([(x, y0), (x, (y0 + y1) / 2), (x, y1)]);
        }
        for y in (y0..=y1).step_by(step) {
            out.extend([(x0, y), (x1, y)]);
        }
    }
    out
}

/// Pixels (backend coordinates) of every visible curve and band edge, sampled every 3 px.
fn data_pixels<DB: DrawingBackend>(
    cc: &Plot<'_, DB>,
    chart: &Chart,
    axes: Axes,
    theme: &Theme,
) -> Vec<(i32, i32)> {
    let to_px = |p: (f64, f64)| cc.backend_coord(&p);
    let step = theme.px(3.0).max(1) as f64;
    let mut out = Vec::new();
    let polyline = |pts: &[(f64, f64)], out: &mut Vec<(i32, i32)>| {
        let px: Vec<(i32, i32)> = pts.iter().map(|&p| to_px(p)).collect();
        for (i, &a) in px.iter().enumerate() {
            out.push(a);
            if let Some(&b) = px.get(i + 1) {
                let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
                let n = ((amp_math::special::hypot(dx, dy) / step).ceil() as usize).min(10_000);
                for k in 1..n {
                    let t = k as f64 / n as f64;
                    out.push((a.0 + (dx * t).round() as i32, a.1 + (dy * t).round() as i32));
                }
            }
        }
    };
    for s in &chart.series {
        for run in visible_runs(&s.points, axes) {
            polyline(&run, &mut out);
        }
    }
    for b in &chart.bands {
        let lo: Vec<(f64, f64)> = b.points.iter().map(|&(x, l, _)| (x, l)).collect();
        let hi: Vec<(f64, f64)> = b.points.iter().map(|&(x, _, h)| (x, h)).collect();
        for run in visible_runs(&lo, axes)
            .into_iter()
            .chain(visible_runs(&hi, axes))
        {
            polyline(&run, &mut out);
        }
    }
    // Outlined regions' edges too, so that a marker's label does not sit on one.
    for o in &chart.outlines {
        let ((x0, x1), (y0, y1)) = (o.x, o.y);
        let edge = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)];
        for run in visible_runs(&edge, axes) {
            polyline(&run, &mut out);
        }
    }
    // Box plots: each box's outline, whisker and caps.
    for b in &chart.boxes {
        if !box_drawable(b, axes) {
            continue;
        }
        let [w_lo, q1, _, q3, w_hi] = b.stats;
        let c = |x: f64, y: f64| axes.clamp(x, y);
        let (l, r, cap) = (b.x - BOX_HALF, b.x + BOX_HALF, BOX_HALF / 2.0);
        polyline(
            &[c(l, q1), c(r, q1), c(r, q3), c(l, q3), c(l, q1)],
            &mut out,
        );
        polyline(&[c(b.x, w_lo), c(b.x, w_hi)], &mut out);
        for y in [w_lo, w_hi] {
            polyline(&[c(b.x - cap, y), c(b.x + cap, y)], &mut out);
        }
    }
    out
}

/// Half a box plot's width, in x-axis units (the boxes stand at whole x positions).
const BOX_HALF: f64 = 0.28;

/// Whether a box has five finite statistics that the y axis can show.
fn box_drawable(b: &crate::figures::BoxStat, axes: Axes) -> bool {
    b.stats
        .iter()
        .all(|v| v.is_finite() && (!axes.y_log || *v > 0.0))
}

/// A marker's point and its label's box, in backend pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LabelBox {
    point: (i32, i32),
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
}

/// Where a marker's label goes: the offset of the text's top-left corner from the point. Of the
/// four places beside the point (above right, above left, below right, below left; the side away
/// from the nearer edge first), the one inside the plotting area that covers the fewest curve and
/// band pixels.
fn label_offset(
    point: (i32, i32),
    (tw, th): (i32, i32),
    pad: i32,
    gap: i32,
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    data: &[(i32, i32)],
) -> (i32, i32) {
    let right_first = point.0 < plot.0.start + (plot.0.end - plot.0.start) * 2 / 3;
    let (right, left) = (gap, -gap - tw);
    let (above, below) = (-gap - th, gap);
    let order = if right_first {
        [(right, above), (left, above), (right, below), (left, below)]
    } else {
        [(left, above), (right, above), (left, below), (right, below)]
    };
    let cost = |(dx, dy): (i32, i32)| {
        let (x0, y0) = (point.0 + dx - pad, point.1 + dy - pad);
        let (x1, y1) = (point.0 + dx + tw + pad, point.1 + dy + th + pad);
        let outside = x0 < plot.0.start || x1 > plot.0.end || y0 < plot.1.start || y1 > plot.1.end;
        let covered = data
            .iter()
            .filter(|&&(x, y)| x0 <= x && x <= x1 && y0 <= y && y <= y1)
            .count();
        (outside, covered)
    };
    let mut best = order[0];
    let mut best_cost = cost(best);
    for &o in &order[1..] {
        let c = cost(o);
        if c < best_cost {
            best = o;
            best_cost = c;
        }
    }
    best
}

/// The panel's frame, grid, ticks and axis titles; where the plotting area landed.
fn draw_mesh<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
) -> Result<(Plot<'a, DB>, Frame), String> {
    let s = theme.scale;
    let font = |size: f64| (theme.font, size * s).into_font().color(&theme.text);
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
        .axis_desc_style(font(13.0))
        .label_style(font(12.0))
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

/// The heatmap's cells, coloured by value.
fn draw_heatmap<DB: DrawingBackend>(
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

/// Shaded bands between a lower and an upper curve.
fn draw_bands<DB: DrawingBackend>(
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

/// Box plots: the box from the first to the third quartile, the median, the whiskers.
fn draw_boxes<DB: DrawingBackend>(
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

/// A series' points in drawing coordinates, split into runs inside the visible range: a curve
/// that leaves the plot ends at its last visible point instead of being flattened against the
/// frame.
fn visible_runs(points: &[(f64, f64)], axes: Axes) -> Vec<Vec<(f64, f64)>> {
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
fn draw_one_series<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    series: &crate::figures::Series,
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

/// Marked points with their labels, each label on a translucent box.
fn draw_markers<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
    data: &[(i32, i32)],
) -> Result<Vec<LabelBox>, String> {
    let s = theme.scale;
    let font = |size: f64| (theme.font, size * s).into_font().color(&theme.text);
    let mut boxes = Vec::new();
    if chart.markers.is_empty() {
        return Ok(boxes);
    }
    let plot = cc.plotting_area().get_pixel_range();
    for m in &chart.markers {
        let Some(at) = axes.marker(m) else {
            continue;
        };
        let r = theme.px(5.0) as i32;
        // The label sits on a translucent box so it reads on any background (heatmaps included),
        // beside the point where it covers the least of the curves.
        let (tw, th) = root
            .estimate_text_size(&m.label, &font(13.0))
            .map_err(err)?;
        let (tw, th) = (tw as i32, th as i32);
        let pad = theme.px(3.0) as i32;
        let point = cc.backend_coord(&at);
        let (dx, dy) = label_offset(
            point,
            (tw, th),
            pad,
            theme.px(8.0) as i32,
            plot.clone(),
            data,
        );
        boxes.push(LabelBox {
            point,
            left: point.0 + dx - pad,
            top: point.1 + dy - pad,
            right: point.0 + dx + tw + pad,
            bottom: point.1 + dy + th + pad,
        });
        let el = EmptyElement::at(at)
            + Circle::new((0, 0), r, theme.accent.filled())
            + Circle::new((0, 0), r, theme.background.stroke_width(theme.px(1.5)))
            + Rectangle::new(
                [(dx - pad, dy - pad), (dx + tw + pad, dy + th + pad)],
                theme.background.mix(0.8).filled(),
            )
            + Text::new(m.label.clone(), (dx, dy), font(13.0));
        cc.draw_series(std::iter::once(el)).map_err(err)?;
    }
    Ok(boxes)
}

/// Outlined regions with their labels, and category labels under the x axis (box plots).
fn draw_outlines<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
) -> Result<(), String> {
    let font = |size: f64| {
        (theme.font, size * theme.scale)
            .into_font()
            .color(&theme.text)
    };
    for o in &chart.outlines {
        let a = axes.clamp(o.x.0, o.y.0);
        let b = axes.clamp(o.x.1, o.y.1);
        let stroke = theme.background.stroke_width(theme.px(3.0));
        cc.draw_series(std::iter::once(Rectangle::new([a, b], stroke)))
            .map_err(err)?;
        let inner = theme.text.stroke_width(theme.px(1.5));
        cc.draw_series(std::iter::once(Rectangle::new([a, b], inner)))
            .map_err(err)?;
        let corner = (a.0.min(b.0), a.1.max(b.1));
        let label = EmptyElement::at(corner)
            + Text::new(
                o.label.clone(),
                (theme.px(4.0) as i32, theme.px(4.0) as i32),
                font(12.0).color(&theme.background),
            );
        cc.draw_series(std::iter::once(label)).map_err(err)?;
    }
    for (x, label) in &chart.x.categories {
        let at = axes.clamp(*x, chart.y.min);
        let el = EmptyElement::at((at.0, axes.y0))
            + Text::new(
                label.clone(),
                (0, theme.px(6.0) as i32),
                font(12.0).pos(Pos::new(HPos::Center, VPos::Top)),
            );
        cc.draw_series(std::iter::once(el)).map_err(err)?;
    }
    Ok(())
}

/// The finite value range of a heatmap, in colour space (log10 when `log_color`).
fn heat_range(hm: &Heatmap) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in &hm.values {
        if v.is_finite() && (!hm.log_color || v > 0.0) {
            let c = if hm.log_color {
                amp_math::special::log10(v)
            } else {
                v
            };
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
    let c = if log { amp_math::special::log10(v) } else { v };
    (c - lo) / (hi - lo)
}

/// A vertical colour bar right of the plot, with its title above and a few tick labels.
fn draw_colorbar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    hm: &Heatmap,
    (xs, ys): (std::ops::Range<i32>, std::ops::Range<i32>),
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = theme.scale;
    let font = (theme.font, 12.0 * s).into_font().color(&theme.text);
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
        let v = if hm.log_color {
            amp_math::special::pow(10.0, c)
        } else {
            c
        };
        root.draw(&PathElement::new(
            vec![(x0 + w, y), (x0 + w + theme.px(4.0) as i32, y)],
            theme.text.stroke_width(1),
        ))?;
        root.draw(&Text::new(
            crate::format::short_number(v, 3),
            (x0 + w + theme.px(6.0) as i32, y),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// A legend entry's sample: a line (dashed or not) or a filled swatch.
enum Glyph {
    Line(ShapeStyle, bool),
    Fill(RGBAColor),
    Dot(RGBColor),
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
    occupied: &[(i32, i32)],
) -> Result<Option<[i32; 4]>, DrawingAreaErrorKind<DB::ErrorType>> {
    if items.is_empty() {
        return Ok(None);
    }
    let font = (theme.font, 12.0 * theme.scale)
        .into_font()
        .color(&theme.text);
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
fn legend_band_height<DB: DrawingBackend>(
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
    let font = (theme.font, 12.0 * theme.scale)
        .into_font()
        .color(&theme.text);
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
fn draw_legend_band<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, Glyph)],
    theme: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, _) = area.dim_in_pixel();
    let (cols, col_w, line_h) = legend_columns(area, items, theme, w as i32)?;
    let rows = items.len().div_ceil(cols.max(1));
    let font = (theme.font, 12.0 * theme.scale)
        .into_font()
        .color(&theme.text);
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

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std as an independent check
mod pointer_tests {
    use super::*;
    use crate::figures::{Axis, Band, LegendCorner, Role, Series};

    #[test]
    fn frame_maps_pixels_to_data_on_log_and_linear_axes() {
        let f = Frame {
            left: 100.0,
            right: 300.0,
            top: 0.0,
            bottom: 100.0,
            x_min: 0.01,
            x_max: 100.0,
            x_log: true,
            y_min: 1.0,
            y_max: 2.0,
            y_log: false,
            legend_box: None,
            legend_hidden: false,
        };
        assert_eq!(f.x_at(99.0), None);
        assert_eq!(f.x_at(301.0), None);
        assert!((f.x_at(100.0).unwrap() - 0.01).abs() < 1e-15);
        assert!((f.x_at(200.0).unwrap() - 1.0).abs() < 1e-12);
        let lin = Frame {
            x_log: false,
            x_min: -1.0,
            x_max: 3.0,
            ..f
        };
        assert!((lin.x_at(150.0).unwrap() - 0.0).abs() < 1e-12);
        // And back: data to pixels (y linear from 1 at the bottom to 2 at the top).
        let (px, py) = f.pixel_of(1.0, 1.25);
        assert!(
            (px - 200.0).abs() < 1e-9 && (py - 75.0).abs() < 1e-9,
            "{px} {py}"
        );
        let (px, py) = lin.pixel_of(0.0, 2.0);
        assert!((px - 150.0).abs() < 1e-9 && py.abs() < 1e-9, "{px} {py}");
        let log_y = Frame {
            y_log: true,
            y_min: 1e-6,
            y_max: 1.0,
            ..lin
        };
        let (_, py) = log_y.pixel_of(0.0, 1e-3);
        assert!((py - 50.0).abs() < 1e-9, "{py}");
        for x in [0.5, 7.0, 99.0] {
            assert!((f.x_at(f.pixel_of(x, 1.5).0).unwrap() - x).abs() < 1e-9 * x);
        }
    }

    #[test]
    fn values_interpolate_in_the_axes_scales_and_skip_curves_that_do_not_reach() {
        let mut c = Chart::new(
            Axis::numeric("x", true, 1.0, 100.0),
            Axis::numeric("y", true, 1.0, 1e4),
            LegendCorner::UpperLeft,
            String::new(),
        );
        // y = x² is a straight line on log-log axes: interpolation there is exact.
        c.series.push(Series {
            label: "square".into(),
            points: vec![(1.0, 1.0), (10.0, 100.0), (100.0, 1e4)],
            role: Role::Highlight,
        });
        c.series.push(Series {
            label: "short".into(),
            points: vec![(20.0, 1.0), (100.0, 2.0)],
            role: Role::Family(0),
        });
        c.series.push(Series {
            label: String::new(),
            points: vec![(1.0, 1.0), (100.0, 1.0)],
            role: Role::Reference,
        });
        c.bands.push(Band {
            label: "band".into(),
            points: vec![(1.0, 1.0, 2.0), (100.0, 10.0, 20.0)],
        });
        let v = values_at(&c, 3.0);
        assert_eq!(v.len(), 3, "{v:?}");
        assert_eq!(v[0].0, "square");
        assert!((v[0].1 - 9.0).abs() < 1e-12);
        assert_eq!(v[1].0, "band (lower)");
        assert!((v[1].1 - 10f64.powf(3f64.log10() / 2.0)).abs() < 1e-12);
        assert_eq!(values_at(&c, 10.0)[0].1, 100.0);
    }
}

#[cfg(test)]
mod label_tests {
    use super::label_offset;

    /// A plotting area 0..400 × 0..300 (y grows downwards) and a label 100 × 14 with 3 px of
    /// padding, 8 px from its point.
    fn place(point: (i32, i32), data: &[(i32, i32)]) -> (i32, i32) {
        label_offset(point, (100, 14), 3, 8, (0..400, 0..300), data)
    }

    #[test]
    fn a_label_goes_where_it_covers_no_curve() {
        // Nothing in the way: above and to the right in the left two thirds, to the left beyond.
        assert_eq!(place((100, 150), &[]), (8, -22));
        assert_eq!(place((350, 150), &[]), (-108, -22));
        // A curve through the space above right: above left instead.
        let above_right: Vec<(i32, i32)> = (160..260).map(|x| (x, 135)).collect();
        assert_eq!(place((150, 150), &above_right), (-108, -22));
        // Curves above on both sides: below, on the right.
        let above: Vec<(i32, i32)> = (0..400).map(|x| (x, 135)).collect();
        assert_eq!(place((150, 150), &above), (8, 8));
        // Near the top edge the label does not leave the plot: below.
        assert_eq!(place((100, 10), &[]), (8, 8));
        // Near the left edge, with a curve above right: not off the plot to the left, so the
        // least covered place inside it.
        let near_edge: Vec<(i32, i32)> = (30..130).map(|x| (x, 135)).collect();
        assert_eq!(place((20, 150), &near_edge), (8, 8));
    }
}
