//! Annotations over the data: marked points with their labels (each beside its point where it
//! covers the fewest curve pixels), outlined regions, and category labels under the x axis.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::Axes;
use super::{err, Plot, Theme};
use crate::Chart;

/// A marker's point and its label's box, in backend pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LabelBox {
    pub(super) point: (i32, i32),
    pub(super) left: i32,
    pub(super) top: i32,
    pub(super) right: i32,
    pub(super) bottom: i32,
}

/// Where a marker's label goes: the offset of the text's top-left corner from the point. Of the
/// four places beside the point (above right, above left, below right, below left; the side away
/// from the nearer edge first), the one inside the plotting area that overlaps the labels already
/// placed (`taken`) least and then covers the fewest curve and band pixels; if none is inside,
/// the one that leaves the area least.
fn label_offset(
    point: (i32, i32),
    (tw, th): (i32, i32),
    pad: i32,
    gap: i32,
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    data: &[(i32, i32)],
    taken: &[LabelBox],
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
        // How far the box leaves the plotting area (0 inside): where no place fits (a small
        // chart), the one that leaves it least, never one that runs over the axis labels.
        let outside = (plot.0.start - x0).max(0)
            + (x1 - plot.0.end).max(0)
            + (plot.1.start - y0).max(0)
            + (y1 - plot.1.end).max(0);
        let overlap: i32 = taken
            .iter()
            .map(|b| {
                let w = (x1.min(b.right) - x0.max(b.left)).max(0);
                let h = (y1.min(b.bottom) - y0.max(b.top)).max(0);
                w * h
            })
            .sum();
        let covered = data
            .iter()
            .filter(|&&(x, y)| x0 <= x && x <= x1 && y0 <= y && y <= y1)
            .count();
        (outside, overlap, covered)
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

/// Marked points with their labels, each label on a translucent box.
pub(super) fn draw_markers<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
    data: &[(i32, i32)],
) -> Result<Vec<LabelBox>, String> {
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
            .estimate_text_size(&m.label, &theme.text_style(13.0))
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
            &boxes,
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
            + Text::new(m.label.clone(), (dx, dy), theme.text_style(13.0));
        cc.draw_series(std::iter::once(el)).map_err(err)?;
    }
    Ok(boxes)
}

/// Outlined regions with their labels, and category labels under the x axis (box plots).
pub(super) fn draw_outlines<DB: DrawingBackend>(
    cc: &mut Plot<'_, DB>,
    chart: &Chart,
    theme: &Theme,
    axes: Axes,
) -> Result<(), String> {
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
                theme.text_style(12.0).color(&theme.background),
            );
        cc.draw_series(std::iter::once(label)).map_err(err)?;
    }
    for (x, label) in &chart.x.categories {
        let at = axes.clamp(*x, chart.y.min);
        let el = EmptyElement::at((at.0, axes.y0))
            + Text::new(
                label.clone(),
                (0, theme.px(6.0) as i32),
                theme
                    .text_style(12.0)
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            );
        cc.draw_series(std::iter::once(el)).map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod label_tests {
    use super::label_offset;

    /// A plotting area 0..400 × 0..300 (y grows downwards) and a label 100 × 14 with 3 px of
    /// padding, 8 px from its point.
    fn place(point: (i32, i32), data: &[(i32, i32)]) -> (i32, i32) {
        label_offset(point, (100, 14), 3, 8, (0..400, 0..300), data, &[])
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
        // A plot too narrow for the label on either side: the side it overflows least.
        let narrow = |point| label_offset(point, (100, 14), 3, 8, (0..150, 0..300), &[], &[]);
        assert_eq!(narrow((60, 150)), (8, -22));
        assert_eq!(narrow((100, 150)), (-108, -22));
    }

    #[test]
    fn a_label_keeps_clear_of_the_labels_placed_before_it() {
        use super::LabelBox;
        // A label already above left of the point: above right is free, so that.
        let left = LabelBox {
            point: (0, 0),
            left: 40,
            top: 125,
            right: 145,
            bottom: 145,
        };
        assert_eq!(
            label_offset((150, 150), (100, 14), 3, 8, (0..400, 0..300), &[], &[left]),
            (8, -22)
        );
        // Labels above on both sides: below, even where a curve runs (a label over a label
        // hides both).
        let right = LabelBox {
            point: (0, 0),
            left: 155,
            top: 125,
            right: 260,
            bottom: 145,
        };
        let below: Vec<(i32, i32)> = (160..260).map(|x| (x, 165)).collect();
        assert_eq!(
            label_offset(
                (150, 150),
                (100, 14),
                3,
                8,
                (0..400, 0..300),
                &below,
                &[left, right]
            ),
            (-108, 8)
        );
    }
}
