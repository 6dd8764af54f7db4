//! The figure registry: a figure is an id, a title, a page, the parameters it reads and a pure
//! function from parameter values to a [`Chart`]. Drawing is shared ([`crate::draw`]).
//!
//! The app, the embed mode, the CLI's `plot` and `figures` commands and the tests all enumerate
//! [`FIGURES`].

use amp_math::median_sim::Simulation;

use crate::pages::Page;
use crate::params::ParamValues;

pub mod accuracy;
pub mod iteration;
mod limits;
pub mod renyi;
pub mod shuffle;
mod subsampling;
pub mod training;

pub use limits::{group_digits, regime_sentence};

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

/// A registered figure.
pub struct FigureSpec {
    /// Stable kebab-case id: part of URLs, embeds and CLI commands.
    pub id: &'static str,
    /// Title shown above the figure.
    pub title: &'static str,
    /// The page it belongs to.
    pub page: Page,
    /// The parameters it reads (its embed shows controls for these).
    pub params: &'static [&'static str],
    /// Parameters → chart. Errors are one sentence for the reader.
    pub compute: Compute,
}

/// How a figure's chart is computed.
#[derive(Clone, Copy)]
pub enum Compute {
    /// Directly from the parameters (fast enough for every slider movement).
    Direct(fn(&ParamValues) -> Result<Chart, String>),
    /// From the parameters and a finished median simulation (seed 002), which the app runs in
    /// slices and the CLI runs to the end first.
    Simulated(fn(&ParamValues, &Simulation) -> Result<Chart, String>),
    /// Directly from the parameters, but too slow (tens to hundreds of milliseconds) to follow a
    /// slider: the app computes it once the controls have rested, showing a "computing" state
    /// and the last picture meanwhile.
    Deferred(fn(&ParamValues) -> Result<Chart, String>),
}

impl FigureSpec {
    /// Compute the chart, running the simulation to the end first if the figure needs one (for the
    /// CLI and tests; the app uses [`FigureSpec::chart_with`] with its own simulation).
    pub fn chart(&self, values: &ParamValues) -> Result<Chart, String> {
        match self.compute {
            Compute::Direct(f) | Compute::Deferred(f) => f(values),
            Compute::Simulated(f) => {
                let mut sim =
                    Simulation::new(accuracy::sim_config(values)?).map_err(|e| e.to_string())?;
                sim.run_to_end();
                f(values, &sim)
            }
        }
    }

    /// Compute the chart with an already finished simulation (ignored by direct figures).
    pub fn chart_with(
        &self,
        values: &ParamValues,
        sim: Option<&Simulation>,
    ) -> Result<Chart, String> {
        match (self.compute, sim) {
            (Compute::Direct(f), _) | (Compute::Deferred(f), _) => f(values),
            (Compute::Simulated(f), Some(s)) => f(values, s),
            (Compute::Simulated(_), None) => Err("waiting for the simulation".into()),
        }
    }

    /// Whether the figure needs the median simulation.
    pub fn is_simulated(&self) -> bool {
        matches!(self.compute, Compute::Simulated(_))
    }

    /// Whether the app computes the figure only once the controls rest.
    pub fn is_deferred(&self) -> bool {
        matches!(self.compute, Compute::Deferred(_))
    }
}

impl std::fmt::Debug for FigureSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FigureSpec").field("id", &self.id).finish()
    }
}

impl PartialEq for FigureSpec {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// Every figure of the app.
pub static FIGURES: &[FigureSpec] = &[
    FigureSpec {
        id: "amplification-vs-rate",
        title: "Amplified ε′ against the sampling rate",
        page: Page::Subsampling,
        params: &["scheme", "eps", "p", "m", "n"],
        compute: Compute::Direct(subsampling::vs_rate),
    },
    FigureSpec {
        id: "amplification-vs-epsilon",
        title: "Amplified ε′ against the base ε, with its bounds",
        page: Page::Subsampling,
        params: &["scheme", "eps", "p", "m", "n"],
        compute: Compute::Direct(subsampling::vs_epsilon),
    },
    FigureSpec {
        id: "sample-budget",
        title: "The ε a sample may spend for a target ε′",
        page: Page::Subsampling,
        params: &["scheme", "eps", "p", "m", "n"],
        compute: Compute::Direct(subsampling::sample_budget),
    },
    FigureSpec {
        id: "noise-ratio-vs-epsilon",
        title: "Noise ratio against ε",
        page: Page::Limits,
        params: &["eps", "p"],
        compute: Compute::Direct(limits::ratio_vs_epsilon),
    },
    FigureSpec {
        id: "taylor-orders",
        title: "ε_p and its Taylor approximations",
        page: Page::Limits,
        params: &["eps", "p"],
        compute: Compute::Direct(limits::taylor_orders),
    },
    FigureSpec {
        id: "noise-ratio-fixed-c",
        title: "Noise ratio with ε = c·p, against p",
        page: Page::Limits,
        params: &["c", "p"],
        compute: Compute::Direct(limits::ratio_fixed_c),
    },
    FigureSpec {
        id: "noise-bound-vs-c",
        title: "The noise bound c/log(1 + c)",
        page: Page::Limits,
        params: &["c"],
        compute: Compute::Direct(limits::bound_vs_c),
    },
    FigureSpec {
        id: "mse-comparison",
        title: "Mean squared error: standard against subsampled",
        page: Page::Limits,
        params: &["eps", "p", "n"],
        compute: Compute::Direct(limits::mse_comparison),
    },
    FigureSpec {
        id: "regime-map",
        title: "The machine-learning regime: noise factor over batch size and epochs",
        page: Page::Limits,
        params: &["dataset", "total-eps", "batch", "epochs"],
        compute: Compute::Direct(limits::regime_map),
    },
    FigureSpec {
        id: "variance-fraction-q",
        title: "How small the sampling variance must be: q against the rate",
        page: Page::Accuracy,
        params: &["eps", "rate", "target-q"],
        compute: Compute::Direct(accuracy::variance_fraction_q),
    },
    FigureSpec {
        id: "mean-variance-vs-rate",
        title: "The private mean: sample variance relative to the population's",
        page: Page::Accuracy,
        params: &["eps", "rate", "N", "range", "pop-variance"],
        compute: Compute::Direct(accuracy::mean_variance_vs_rate),
    },
    FigureSpec {
        id: "mean-noise-ratio",
        title: "Noise ratio r(ε, n/N) of the mean, and the rounding artifact",
        page: Page::Accuracy,
        params: &["eps", "rate", "naive"],
        compute: Compute::Direct(accuracy::mean_noise_ratio_fig),
    },
    FigureSpec {
        id: "population-density",
        title: "The simulated population",
        page: Page::Accuracy,
        params: &["population", "N", "seed"],
        compute: Compute::Direct(accuracy::population_density),
    },
    FigureSpec {
        id: "sensitivity-ratio",
        title: "Smooth sensitivity of the sample median over the population's",
        page: Page::Accuracy,
        params: &["population", "N", "runs", "seed"],
        compute: Compute::Simulated(accuracy::sensitivity_ratio),
    },
    FigureSpec {
        id: "noise-magnitude",
        title: "How much noise is added",
        page: Page::Accuracy,
        params: &["population", "N", "runs", "seed"],
        compute: Compute::Simulated(accuracy::noise_magnitude),
    },
    FigureSpec {
        id: "sample-medians",
        title: "Where the sample medians fall",
        page: Page::Accuracy,
        params: &["population", "N", "runs", "seed"],
        compute: Compute::Simulated(accuracy::sample_medians),
    },
    FigureSpec {
        id: "median-mse-vs-rate",
        title: "Error of the private median against the sampling rate",
        page: Page::Accuracy,
        params: &["population", "N", "runs", "seed"],
        compute: Compute::Simulated(accuracy::median_mse_vs_rate),
    },
    FigureSpec {
        id: "rdp-base",
        title: "Rényi DP curves of the base mechanisms",
        page: Page::Renyi,
        params: &["mech", "sigma", "scale", "eps", "k", "alpha"],
        compute: Compute::Direct(renyi::base),
    },
    FigureSpec {
        id: "rdp-subsampled",
        title: "Rényi DP of the subsampled mechanism: exact, upper and lower bounds",
        page: Page::Renyi,
        params: &[
            "mech", "sigma", "scale", "eps", "k", "scheme", "q", "n", "alpha",
        ],
        compute: Compute::Direct(renyi::subsampled_fig),
    },
    FigureSpec {
        id: "rdp-composition",
        title: "Overall (ε, δ) over k compositions: RDP against (ε, δ) composition",
        page: Page::Renyi,
        params: &[
            "mech", "sigma", "scale", "eps", "k", "scheme", "q", "n", "steps", "delta",
        ],
        compute: Compute::Direct(renyi::composition_fig),
    },
    FigureSpec {
        id: "rdp-optimal-order",
        title: "The order that gives the best (ε, δ), against k",
        page: Page::Renyi,
        params: &[
            "mech", "sigma", "scale", "eps", "k", "scheme", "q", "n", "steps", "delta",
        ],
        compute: Compute::Direct(renyi::optimal_order_fig),
    },
    FigureSpec {
        id: "epsilon-vs-epochs",
        title: "ε against the length of training: tight band and Rényi DP",
        page: Page::Training,
        params: &[
            "dataset", "batch", "mech", "sigma", "scale", "length", "epochs", "steps", "delta",
        ],
        compute: Compute::Direct(training::epsilon_vs_epochs),
    },
    FigureSpec {
        id: "privacy-profile",
        title: "The privacy profile δ(ε) of the run",
        page: Page::Training,
        params: &[
            "dataset", "batch", "mech", "sigma", "scale", "length", "epochs", "steps", "delta",
        ],
        compute: Compute::Direct(training::privacy_profile),
    },
    FigureSpec {
        id: "noise-for-target",
        title: "Noise needed for a target ε, against the batch size",
        page: Page::Training,
        params: &[
            "dataset",
            "batch",
            "mech",
            "length",
            "epochs",
            "steps",
            "delta",
            "target-eps",
        ],
        compute: Compute::Deferred(training::noise_for_target),
    },
    FigureSpec {
        id: "gaussian-noise-ratio",
        title: "The noise ratio for the Gaussian mechanism, against the rate",
        page: Page::Training,
        params: &[
            "dataset",
            "batch",
            "length",
            "epochs",
            "steps",
            "delta",
            "target-eps",
        ],
        compute: Compute::Deferred(training::gaussian_noise_ratio),
    },
    FigureSpec {
        id: "shuffle-epsilon-vs-users",
        title: "Central ε against the number of users, every shuffle bound",
        page: Page::Shuffling,
        params: &["eps0", "users", "delta", "randomizer", "k"],
        compute: Compute::Deferred(shuffle::epsilon_vs_users),
    },
    FigureSpec {
        id: "shuffle-epsilon-vs-local",
        title: "Central ε against the local ε₀, every shuffle bound",
        page: Page::Shuffling,
        params: &["eps0", "users", "delta", "randomizer", "k"],
        compute: Compute::Deferred(shuffle::epsilon_vs_local),
    },
    FigureSpec {
        id: "shuffle-vs-subsample",
        title: "What a central target allows: shuffling against subsampling",
        page: Page::Shuffling,
        params: &["users", "delta", "randomizer", "k", "target-eps", "p"],
        compute: Compute::Deferred(shuffle::shuffle_vs_subsample),
    },
    FigureSpec {
        id: "error-central-local-shuffle",
        title: "Error of a private mean: central, local and shuffled",
        page: Page::Shuffling,
        params: &["users", "delta", "target-eps"],
        compute: Compute::Deferred(shuffle::error_central_local_shuffle),
    },
    FigureSpec {
        id: "subsampled-rr",
        title: "Randomized response on a subsample: exact ε, εp and the theorem",
        page: Page::Shuffling,
        params: &["eps", "p"],
        compute: Compute::Direct(shuffle::subsampled_rr_fig),
    },
    FigureSpec {
        id: "iteration-privacy-by-position",
        title: "Privacy of the last iterate by the position of the record",
        page: Page::Iteration,
        params: &["iterations", "sigma", "step-size", "smoothness", "delta"],
        compute: Compute::Direct(iteration::privacy_by_position),
    },
];

/// Look up a figure by id.
pub fn figure(id: &str) -> Option<&'static FigureSpec> {
    FIGURES.iter().find(|f| f.id == id)
}

/// `count` points spaced evenly in log between lo and hi (inclusive), lo > 0.
pub fn log_grid(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0..count)
        .map(|i| {
            if i + 1 == count {
                hi
            } else {
                (a + (b - a) * i as f64 / (count - 1) as f64).exp()
            }
        })
        .collect()
}

/// A log-axis range that contains every y of the series with a margin of a factor 1.6.
pub fn log_range<'a>(ys: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for &y in ys {
        if y.is_finite() && y > 0.0 {
            lo = lo.min(y);
            hi = hi.max(y);
        }
    }
    if !lo.is_finite() || hi <= 0.0 {
        return (0.1, 10.0);
    }
    (lo / 1.6, hi * 1.6)
}
