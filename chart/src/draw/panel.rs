//! One panel, drawn in order (axes, heatmap, bands, boxes, curves, markers, outlines, colour bar,
//! legend), and the pixels that show data, which markers' labels and the legend keep clear of.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::annotations::{draw_markers, draw_outlines, LabelBox};
use super::axes::{draw_mesh, Axes};
use super::boxes::{box_drawable, draw_boxes, BOX_HALF};
use super::heatmap::{draw_colorbar, draw_heatmap};
use super::legend::{draw_legend, Glyph};
use super::series::{draw_bands, draw_one_series, visible_runs};
use super::{err, Frame, Plot, Theme};
use crate::Chart;

/// One panel: axes, heatmap, bands, boxes, curves, markers, outlines, colour bar, legend (when
/// `with_legend`, in the first corner where it covers no data; hidden otherwise).
pub(super) fn draw_panel<DB: DrawingBackend>(
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
                let n = ((libm::hypot(dx, dy) / step).ceil() as usize).min(10_000);
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
