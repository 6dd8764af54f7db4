//! Rendering a registry figure to an SVG string (CLI `plot`, native tests): the figure's chart at
//! `values`, drawn by [`amp_chart::svg`].

use amp_chart::svg::chart_svg;

use crate::FigureSpec;
use amp_model::params::ParamValues;

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
