//! Rendering a registry figure to an SVG string (CLI `plot`, native tests, app export).

use plotters::prelude::*;

use crate::draw::{draw_chart, draw_chart_legend_below, Theme};
use crate::figures::{Chart, FigureSpec};
use crate::params::ParamValues;

/// Default size of an exported figure, in pixels.
pub const SIZE: (u32, u32) = (820, 520);

/// Compute and draw `figure` at `values` as a standalone SVG document with its title.
pub fn render_svg(
    figure: &FigureSpec,
    values: &ParamValues,
    size: (u32, u32),
) -> Result<String, String> {
    chart_svg(
        &figure.chart(values).map_err(|e| e.to_string())?,
        figure.title,
        size,
    )
}

/// Draw an already computed chart as a standalone SVG document with `title` (the app's export:
/// the picture on screen, without computing it again).
pub fn chart_svg(chart: &Chart, title: &str, size: (u32, u32)) -> Result<String, String> {
    draw_svg(chart, Some(title), size)
}

/// [`chart_svg`] with or without a title inside the picture (without: as a page shows it under
/// its own heading).
pub fn draw_svg(chart: &Chart, title: Option<&str>, size: (u32, u32)) -> Result<String, String> {
    let mut out = String::new();
    let hidden = {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw_chart(&root, chart, &Theme::light(1.0), title)?.legend_hidden
    };
    if hidden {
        // The legend fits nowhere inside the plot: draw again, with a band for it below.
        out.clear();
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw_chart_legend_below(&root, chart, &Theme::light(1.0), title)?;
    }
    Ok(out)
}
