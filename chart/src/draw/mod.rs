//! Drawing a [`Chart`] with plotters, generic over the backend: the app draws to a canvas, the CLI
//! and the tests to SVG, with this same function.
//!
//! Log axes are drawn in log10 coordinates on a linear plotters axis, with tick labels written as
//! powers of ten; this keeps one code path for every axis combination.
//!
//! This file holds the entry points; the parts of a drawing are in the submodules: `theme`
//! (colours, sizes, line styles), `axes` (coordinates, ticks, the frame and grid), `panel`
//! (one panel in drawing order, and the pixels that show data), `series` (curves, scatters,
//! bands), `boxes` (box plots), `heatmap` (cells and colour bar), `annotations` (markers,
//! outlined regions, category labels), `legend` (the legend inside the plot, in a band below it,
//! or as entries for the page) and `pointer` (what a pointer position over the figure means).

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::Chart;

mod annotations;
mod axes;
mod boxes;
mod heatmap;
mod legend;
mod panel;
mod pointer;
mod series;
mod theme;

pub use heatmap::colormap;
pub use legend::{legend_marks, LegendEntry, LegendMark};
pub use pointer::{values_at, Frame};
pub use theme::Theme;

use legend::{draw_legend_band, legend_band_height, legend_entries};
use panel::draw_panel;

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
    let items = legend_entries(chart, theme);
    let (w, h) = root.dim_in_pixel();
    let band = legend_band_height(root, &items, theme, w as i32).map_err(err)?;
    if items.is_empty() || band >= h as i32 / 2 {
        return draw_chart_once(root, chart, theme, title, false);
    }
    root.fill(&theme.background).map_err(err)?;
    let (top, bottom) = root.split_vertically(h as i32 - band);
    // The band first: drawing the chart ends by presenting the picture (an SVG is closed then).
    draw_legend_band(&bottom, &items, theme).map_err(err)?;
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
    root.fill(&theme.background).map_err(err)?;
    let area = match title {
        Some(t) => root.titled(t, theme.text_style(16.0)).map_err(err)?,
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
    root.present().map_err(err)?;
    Ok(frame)
}

/// The plotters chart of one panel: log10 coordinates on linear axes.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A drawing error as text.
fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}
