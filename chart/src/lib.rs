//! What a figure is before it is drawn: axes, curves, bands, boxes, markers, a heat map and the
//! text alternative, as plain data ([`Chart`]), and their drawing with plotters, generic over the
//! backend ([`draw`]; SVG documents with the `svg` feature, [`svg`]). A chart knows no parameters
//! and no mathematics: the site's figures compute charts from the model's values, this crate
//! draws them, and the site's exports write them out. `carried` is a chart's text codec (the
//! compute worker's answers and the pre-rendered pages' `data-chart`).
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

pub mod draw;
#[cfg(feature = "svg")]
pub mod svg;

pub use plotters;

/// One axis of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Axis title, with the symbol.
    pub label: String,
    /// Logarithmic axis.
    pub log: bool,
    /// Category labels at given positions, shown instead of numbers (box plots); empty for a
    /// numeric axis.
    pub categories: Vec<(f64, String)>,
    /// Lower end of the visible range.
    pub min: f64,
    /// Upper end of the visible range.
    pub max: f64,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// One of a family of comparable curves; the index picks its colour.
    Family(usize),
    /// The reader's own curve: thick, in the accent colour.
    Highlight,
    /// A bound: dashed.
    Bound(usize),
    /// The reader's own bound: dashed, in the accent colour.
    HighlightBound,
    /// A reference line (e.g. "no amplification"): thin and grey.
    Reference,
    /// Unconnected points (e.g. values computed naively), in a palette colour.
    Scatter(usize),
}

/// A box plot of one distribution: whiskers at the 2.5% and 97.5% quantiles, the box from the
/// first to the third quartile, a line at the median.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxStat {
    /// Position on the x axis.
    pub x: f64,
    /// 2.5% quantile, first quartile, median, third quartile, 97.5% quantile.
    pub stats: [f64; 5],
    /// Palette index of its colour.
    pub color: usize,
}

/// A named curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text; empty to leave the series out of the legend. A series with a label and no
    /// points is a legend-only entry (e.g. one entry for a family of dashed floors).
    pub label: String,
    /// Points in data coordinates, increasing in x; every coordinate finite (and positive on a log
    /// axis).
    pub points: Vec<(f64, f64)>,
    /// How to draw it.
    pub role: Role,
}

/// A shaded region between two curves on the same x grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Legend text.
    pub label: String,
    /// (x, lower, upper) triples.
    pub points: Vec<(f64, f64, f64)>,
}

/// A labelled point: the reader's current setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Data x.
    pub x: f64,
    /// Data y.
    pub y: f64,
    /// Label drawn beside it.
    pub label: String,
}

/// Values on a grid of cells, drawn as coloured rectangles with a colour bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    /// Cell edges along x (one more than the number of columns), increasing.
    pub x_edges: Vec<f64>,
    /// Cell edges along y (one more than the number of rows), increasing.
    pub y_edges: Vec<f64>,
    /// Values row by row (row 0 at the lowest y); NaN cells are left blank.
    pub values: Vec<f64>,
    /// What the colour means, with its unit (colour-bar title).
    pub label: String,
    /// Colour on a log scale of the value.
    pub log_color: bool,
}

/// A labelled rectangle drawn as an outline (a region of interest).
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    /// x range.
    pub x: (f64, f64),
    /// y range.
    pub y: (f64, f64),
    /// Label drawn at its top-left corner.
    pub label: String,
}

/// Where the legend goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendCorner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom left.
    LowerLeft,
    /// Bottom right.
    LowerRight,
}

/// Everything needed to draw one figure, computed from parameters alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Shaded bands (drawn first).
    pub bands: Vec<Band>,
    /// Box plots.
    pub boxes: Vec<BoxStat>,
    /// Curves.
    pub series: Vec<Series>,
    /// Marked points.
    pub markers: Vec<Marker>,
    /// Legend position.
    pub legend: LegendCorner,
    /// A coloured grid drawn under everything else.
    pub heatmap: Option<Heatmap>,
    /// Outlined regions.
    pub outlines: Vec<Outline>,
    /// A second panel drawn below this one (its x axis usually the same).
    pub lower: Option<Box<Chart>>,
    /// Parts left out because they are outside a formula's domain, in words.
    pub notes: Vec<String>,
    /// A text alternative: what the figure shows and its key numbers at the current parameters.
    pub summary: String,
}

impl Axis {
    /// A numeric axis (no category labels) from `min` to `max`.
    pub fn numeric(label: impl Into<String>, log: bool, min: f64, max: f64) -> Axis {
        Axis {
            label: label.into(),
            log,
            categories: vec![],
            min,
            max,
        }
    }
}

impl Chart {
    /// A chart with these axes, its legend corner and text alternative, and nothing drawn yet.
    pub fn new(x: Axis, y: Axis, legend: LegendCorner, summary: String) -> Chart {
        Chart {
            x,
            y,
            bands: vec![],
            boxes: vec![],
            series: vec![],
            markers: vec![],
            legend,
            heatmap: None,
            outlines: vec![],
            lower: None,
            notes: vec![],
            summary,
        }
    }
}

mod carried;
