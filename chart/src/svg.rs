//! A chart as a standalone SVG document (the CLI's `plot`, the pre-rendered pages, the app's
//! export, the native tests).

use plotters::prelude::*;

use crate::draw::{draw_chart, draw_chart_legend_below, Theme};
use crate::Chart;

/// Default size of an exported figure, in pixels.
pub const SIZE: (u32, u32) = (820, 520);

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

/// Whether `chart` drawn at `size` finds no place for its legend inside the plot (where the app
/// lists the legend under the canvas instead).
pub fn legend_outside(chart: &Chart, size: (u32, u32)) -> bool {
    let mut scratch = String::new();
    let root = SVGBackend::with_string(&mut scratch, size).into_drawing_area();
    draw_chart(&root, chart, &Theme::light(1.0), None).is_ok_and(|f| f.legend_hidden)
}
