//! The figure registry: a figure is an id, a title, a page, the parameters it reads and a pure
//! function from parameter values to a [`Chart`]. Drawing is shared ([`crate::draw`]).
//!
//! The app, the embed mode, the CLI's `plot` and `figures` commands and the tests all enumerate
//! [`FIGURES`].

use amp_math::median_sim::Simulation;

use amp_math::MathError;

use crate::pages::Page;
use crate::param as p;
use crate::params::{ParamSpec, ParamValues};

/// Declares [`FigureId`], one variant per registered figure with its stable URL id.
macro_rules! figure_ids {
    ($( $v:ident = $id:literal; )+) => {
        /// The name of a registered figure. Its position is its place in [`FIGURES`] (checked by a
        /// test), so [`FigureId::spec`] is a plain index.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum FigureId { $( #[doc = $id] $v ),+ }

        impl FigureId {
            /// Every figure, in registry order.
            pub const ALL: &'static [FigureId] = &[$( FigureId::$v ),+];

            /// The stable kebab-case id (URLs, embeds, CLI commands, file names).
            pub fn as_str(self) -> &'static str {
                match self { $( FigureId::$v => $id ),+ }
            }

            /// Parse an id (the URL and CLI boundary only).
            pub fn from_id(id: &str) -> Option<FigureId> {
                FigureId::ALL.iter().copied().find(|f| f.as_str() == id)
            }
        }
    };
}

impl FigureId {
    /// The registry entry.
    pub fn spec(self) -> &'static FigureSpec {
        &FIGURES[self as usize]
    }

    /// Whether the figure always draws a second panel under the first ([`Chart::lower`]; checked
    /// by a test at the defaults). On a phone such a figure gets a square box instead of 16:10,
    /// decided before anything is computed so that nothing moves when it is drawn.
    /// `mean-noise-ratio` is left out: its lower panel appears only when the reader asks for the
    /// naive formula.
    pub fn two_panels(self) -> bool {
        matches!(
            self,
            FigureId::NeighbourDensities
                | FigureId::KnownInclusion
                | FigureId::TaylorOrders
                | FigureId::NoiseForTarget
                | FigureId::IterationPrivacyByPosition
        )
    }
}

impl std::fmt::Display for FigureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub mod accuracy;
pub mod batching;
pub mod iteration;
mod limits;
pub mod renyi;
pub mod risk;
pub mod shuffle;
mod subsampling;
pub mod training;
mod why;

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

figure_ids! {
    HomeAmplification = "home-amplification";
    AmplificationVsRate = "amplification-vs-rate";
    AmplificationVsEpsilon = "amplification-vs-epsilon";
    SampleBudget = "sample-budget";
    NeighbourDensities = "neighbour-densities";
    KnownInclusion = "known-inclusion";
    NoiseRatioVsEpsilon = "noise-ratio-vs-epsilon";
    TaylorOrders = "taylor-orders";
    NoiseRatioFixedC = "noise-ratio-fixed-c";
    NoiseBoundVsC = "noise-bound-vs-c";
    MseComparison = "mse-comparison";
    RegimeMap = "regime-map";
    VarianceFractionQ = "variance-fraction-q";
    MeanVarianceVsRate = "mean-variance-vs-rate";
    MeanNoiseRatio = "mean-noise-ratio";
    PopulationDensity = "population-density";
    PrivateEstimates = "private-estimates";
    SensitivityRatio = "sensitivity-ratio";
    NoiseMagnitude = "noise-magnitude";
    SampleMedians = "sample-medians";
    MedianMseVsRate = "median-mse-vs-rate";
    RdpBase = "rdp-base";
    RdpSubsampled = "rdp-subsampled";
    RdpCdpLines = "rdp-cdp-lines";
    RdpComposition = "rdp-composition";
    RdpOptimalOrder = "rdp-optimal-order";
    EpsilonVsEpochs = "epsilon-vs-epochs";
    BatchingComparison = "batching-comparison";
    BatchingNoise = "batching-noise";
    PrivacyProfile = "privacy-profile";
    PrivacyLossDistribution = "privacy-loss-distribution";
    NoiseForTarget = "noise-for-target";
    GaussianNoiseRatio = "gaussian-noise-ratio";
    TradeoffCurve = "tradeoff-curve";
    TprVsSteps = "tpr-vs-steps";
    NoiseForRisk = "noise-for-risk";
    ShuffleEpsilonVsUsers = "shuffle-epsilon-vs-users";
    ShuffleEpsilonVsLocal = "shuffle-epsilon-vs-local";
    ShuffleVsSubsample = "shuffle-vs-subsample";
    ErrorCentralLocalShuffle = "error-central-local-shuffle";
    SubsampledRr = "subsampled-rr";
    IterationPrivacyByPosition = "iteration-privacy-by-position";
    IterationNoiseSchedule = "iteration-noise-schedule";
}

/// Why a figure has no chart to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartError {
    /// Its inputs are not ready yet (the median simulation is still running).
    Pending,
    /// The figure does not apply at these parameters, and why, in one sentence for the reader.
    NotApplicable(String),
    /// A formula refused its inputs.
    Math(MathError),
}

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChartError::Pending => f.write_str("waiting for the simulation"),
            ChartError::NotApplicable(why) => f.write_str(why),
            ChartError::Math(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ChartError {}

impl From<MathError> for ChartError {
    fn from(e: MathError) -> Self {
        ChartError::Math(e)
    }
}

impl From<String> for ChartError {
    fn from(why: String) -> Self {
        ChartError::NotApplicable(why)
    }
}

impl From<&str> for ChartError {
    fn from(why: &str) -> Self {
        ChartError::NotApplicable(why.to_string())
    }
}

/// What computing a figure gives.
pub type ChartResult = Result<Chart, ChartError>;

/// A registered figure.
pub struct FigureSpec {
    /// Stable kebab-case id: part of URLs, embeds and CLI commands.
    pub id: FigureId,
    /// Title shown above the figure.
    pub title: &'static str,
    /// The page it belongs to.
    pub page: Page,
    /// The parameters it reads (its embed shows controls for these).
    pub params: &'static [&'static ParamSpec],
    /// Parameters → chart. Errors are one sentence for the reader.
    pub compute: Compute,
}

/// How a figure's chart is computed.
#[derive(Clone, Copy)]
pub enum Compute {
    /// Directly from the parameters (fast enough for every slider movement).
    Direct(fn(&ParamValues) -> ChartResult),
    /// From the parameters and a finished median simulation (seed 002), which the app runs in
    /// slices and the CLI runs to the end first.
    Simulated(fn(&ParamValues, &Simulation) -> ChartResult),
    /// Directly from the parameters, but too slow (tens to hundreds of milliseconds) to follow a
    /// slider: the app computes it once the controls have rested, showing a "computing" state
    /// and the last picture meanwhile.
    Deferred(fn(&ParamValues) -> ChartResult),
}

impl FigureSpec {
    /// Compute the chart, running the simulation to the end first if the figure needs one (for the
    /// CLI and tests; the app uses [`FigureSpec::chart_with`] with its own simulation).
    pub fn chart(&self, values: &ParamValues) -> ChartResult {
        match self.compute {
            Compute::Direct(f) | Compute::Deferred(f) => f(values),
            Compute::Simulated(f) => {
                let mut sim = Simulation::new(accuracy::sim_config(values)?)?;
                sim.run_to_end();
                f(values, &sim)
            }
        }
    }

    /// Compute the chart with an already finished simulation (ignored by direct figures).
    pub fn chart_with(&self, values: &ParamValues, sim: Option<&Simulation>) -> ChartResult {
        match (self.compute, sim) {
            (Compute::Direct(f), _) | (Compute::Deferred(f), _) => f(values),
            (Compute::Simulated(f), Some(s)) => f(values, s),
            (Compute::Simulated(_), None) => Err(ChartError::Pending),
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

/// The training run's controls, read by the figures of the run itself (ε against its length, its
/// privacy profile and its privacy loss distribution).
static RUN_PARAMS: &[&ParamSpec] = &[
    p::DATASET.spec,
    p::BATCH.spec,
    p::MECH.spec,
    p::SIGMA.spec,
    p::SCALE.spec,
    p::LENGTH.spec,
    p::EPOCHS.spec,
    p::STEPS.spec,
    p::DELTA.spec,
];

/// One-pass noisy SGD's controls, read by both figures of the iteration page.
static ITERATION_PARAMS: &[&ParamSpec] = &[
    p::ITERATIONS.spec,
    p::SIGMA.spec,
    p::STEP_SIZE.spec,
    p::SMOOTHNESS.spec,
    p::DELTA.spec,
];

/// The median simulation's controls, read by the accuracy page's population figures.
static SIM_PARAMS: &[&ParamSpec] = &[
    p::POPULATION.spec,
    p::POPULATION_SIZE.spec,
    p::RUNS.spec,
    p::SEED.spec,
];

/// The subsampled mechanism's controls with the reader's order, read by the Rényi page's
/// subsampled curve and its zCDP/tCDP lines.
static SUBSAMPLED_RDP_PARAMS: &[&ParamSpec] = &[
    p::MECH.spec,
    p::SIGMA.spec,
    p::SCALE.spec,
    p::EPS.spec,
    p::K.spec,
    p::SCHEME.spec,
    p::Q.spec,
    p::N.spec,
    p::ALPHA.spec,
];

/// Every figure of the app.
pub static FIGURES: &[FigureSpec] = &[
    FigureSpec {
        id: FigureId::HomeAmplification,
        title: "What sampling at rate p does to ε",
        page: Page::Home,
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(subsampling::vs_rate),
    },
    FigureSpec {
        id: FigureId::AmplificationVsRate,
        title: "Amplified ε′ against the sampling rate",
        page: Page::Subsampling,
        params: &[p::SCHEME.spec, p::EPS.spec, p::P.spec, p::M.spec, p::N.spec],
        compute: Compute::Direct(subsampling::vs_rate),
    },
    FigureSpec {
        id: FigureId::AmplificationVsEpsilon,
        title: "Amplified ε′ against the base ε, with its bounds",
        page: Page::Subsampling,
        params: &[p::SCHEME.spec, p::EPS.spec, p::P.spec, p::M.spec, p::N.spec],
        compute: Compute::Direct(subsampling::vs_epsilon),
    },
    FigureSpec {
        id: FigureId::SampleBudget,
        title: "The ε a sample may spend for a target ε′",
        page: Page::Subsampling,
        params: &[p::SCHEME.spec, p::EPS.spec, p::P.spec, p::M.spec, p::N.spec],
        compute: Compute::Direct(subsampling::sample_budget),
    },
    FigureSpec {
        id: FigureId::NeighbourDensities,
        title: "Why sampling helps: the two neighbours' outputs and the privacy loss",
        page: Page::Subsampling,
        params: &[p::NOISE.spec, p::EPS.spec, p::P.spec],
        compute: Compute::Direct(why::neighbour_densities),
    },
    FigureSpec {
        id: FigureId::KnownInclusion,
        title: "No gain when the sample is known: the privacy loss with inclusion disclosed",
        page: Page::Subsampling,
        params: &[p::NOISE.spec, p::EPS.spec, p::P.spec],
        compute: Compute::Direct(why::known_inclusion),
    },
    FigureSpec {
        id: FigureId::NoiseRatioVsEpsilon,
        title: "Noise ratio against ε",
        page: Page::Limits,
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(limits::ratio_vs_epsilon),
    },
    FigureSpec {
        id: FigureId::TaylorOrders,
        title: "ε_p and its Taylor approximations",
        page: Page::Limits,
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(limits::taylor_orders),
    },
    FigureSpec {
        id: FigureId::NoiseRatioFixedC,
        title: "Noise ratio with ε = c·p, against p",
        page: Page::Limits,
        params: &[p::C.spec, p::P.spec],
        compute: Compute::Direct(limits::ratio_fixed_c),
    },
    FigureSpec {
        id: FigureId::NoiseBoundVsC,
        title: "The noise bound c/log(1 + c)",
        page: Page::Limits,
        params: &[p::C.spec],
        compute: Compute::Direct(limits::bound_vs_c),
    },
    FigureSpec {
        id: FigureId::MseComparison,
        title: "Mean squared error: standard against subsampled",
        page: Page::Limits,
        params: &[p::EPS.spec, p::P.spec, p::N.spec],
        compute: Compute::Direct(limits::mse_comparison),
    },
    FigureSpec {
        id: FigureId::RegimeMap,
        title: "The machine-learning regime: noise factor over batch size and epochs",
        page: Page::Limits,
        params: &[
            p::DATASET.spec,
            p::TOTAL_EPS.spec,
            p::BATCH.spec,
            p::EPOCHS.spec,
            p::C.spec,
        ],
        compute: Compute::Direct(limits::regime_map),
    },
    FigureSpec {
        id: FigureId::VarianceFractionQ,
        title: "How small the sampling variance must be: q against the rate",
        page: Page::Accuracy,
        params: &[p::EPS.spec, p::RATE.spec, p::TARGET_Q.spec],
        compute: Compute::Direct(accuracy::variance_fraction_q),
    },
    FigureSpec {
        id: FigureId::MeanVarianceVsRate,
        title: "The private mean: sample variance relative to the population's",
        page: Page::Accuracy,
        params: &[
            p::EPS.spec,
            p::RATE.spec,
            p::POPULATION_SIZE.spec,
            p::RANGE.spec,
            p::POP_VARIANCE.spec,
        ],
        compute: Compute::Direct(accuracy::mean_variance_vs_rate),
    },
    FigureSpec {
        id: FigureId::MeanNoiseRatio,
        title: "Noise ratio r(ε, n/N) of the mean, and the rounding artifact",
        page: Page::Accuracy,
        params: &[p::EPS.spec, p::RATE.spec, p::NAIVE.spec],
        compute: Compute::Direct(accuracy::mean_noise_ratio_fig),
    },
    FigureSpec {
        id: FigureId::PopulationDensity,
        title: "The simulated population",
        page: Page::Accuracy,
        params: &[p::POPULATION.spec, p::POPULATION_SIZE.spec, p::SEED.spec],
        compute: Compute::Direct(accuracy::population_density),
    },
    FigureSpec {
        id: FigureId::PrivateEstimates,
        title: "The whole population's mean and median, released many times",
        page: Page::Accuracy,
        params: SIM_PARAMS,
        compute: Compute::Direct(accuracy::private_estimates),
    },
    FigureSpec {
        id: FigureId::SensitivityRatio,
        title: "Smooth sensitivity of the sample median over the population's",
        page: Page::Accuracy,
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::sensitivity_ratio),
    },
    FigureSpec {
        id: FigureId::NoiseMagnitude,
        title: "How much noise is added",
        page: Page::Accuracy,
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::noise_magnitude),
    },
    FigureSpec {
        id: FigureId::SampleMedians,
        title: "Where the sample medians fall",
        page: Page::Accuracy,
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::sample_medians),
    },
    FigureSpec {
        id: FigureId::MedianMseVsRate,
        title: "Error of the private median against the sampling rate",
        page: Page::Accuracy,
        params: SIM_PARAMS,
        compute: Compute::Simulated(accuracy::median_mse_vs_rate),
    },
    FigureSpec {
        id: FigureId::RdpBase,
        title: "Rényi DP curves of the base mechanisms",
        page: Page::Renyi,
        params: &[
            p::MECH.spec,
            p::SIGMA.spec,
            p::SCALE.spec,
            p::EPS.spec,
            p::K.spec,
            p::ALPHA.spec,
        ],
        compute: Compute::Direct(renyi::base),
    },
    FigureSpec {
        id: FigureId::RdpSubsampled,
        title: "Rényi DP of the subsampled mechanism: exact, upper and lower bounds",
        page: Page::Renyi,
        params: SUBSAMPLED_RDP_PARAMS,
        compute: Compute::Direct(renyi::subsampled_fig),
    },
    FigureSpec {
        id: FigureId::RdpCdpLines,
        title: "zCDP does not amplify, tCDP does: lines above the subsampled curve",
        page: Page::Renyi,
        params: SUBSAMPLED_RDP_PARAMS,
        compute: Compute::Direct(renyi::cdp_lines),
    },
    FigureSpec {
        id: FigureId::RdpComposition,
        title: "Overall (ε, δ) over k compositions: RDP against (ε, δ) composition",
        page: Page::Renyi,
        params: &[
            p::MECH.spec,
            p::SIGMA.spec,
            p::SCALE.spec,
            p::EPS.spec,
            p::K.spec,
            p::SCHEME.spec,
            p::Q.spec,
            p::N.spec,
            p::STEPS.spec,
            p::DELTA.spec,
        ],
        compute: Compute::Direct(renyi::composition_fig),
    },
    FigureSpec {
        id: FigureId::RdpOptimalOrder,
        title: "The order that gives the best (ε, δ), against k",
        page: Page::Renyi,
        params: &[
            p::MECH.spec,
            p::SIGMA.spec,
            p::SCALE.spec,
            p::EPS.spec,
            p::K.spec,
            p::SCHEME.spec,
            p::Q.spec,
            p::N.spec,
            p::STEPS.spec,
            p::DELTA.spec,
        ],
        compute: Compute::Direct(renyi::optimal_order_fig),
    },
    FigureSpec {
        id: FigureId::EpsilonVsEpochs,
        title: "ε against the length of training: tight band and Rényi DP",
        page: Page::Training,
        params: RUN_PARAMS,
        compute: Compute::Direct(training::epsilon_vs_epochs),
    },
    FigureSpec {
        id: FigureId::BatchingComparison,
        title: "ε against epochs for Poisson, shuffled and balls-in-bins batches",
        page: Page::Training,
        params: &[
            p::DATASET.spec,
            p::BATCH.spec,
            p::MECH.spec,
            p::SIGMA.spec,
            p::LENGTH.spec,
            p::EPOCHS.spec,
            p::STEPS.spec,
            p::BATCHING.spec,
            p::DELTA.spec,
        ],
        compute: Compute::Deferred(batching::comparison),
    },
    FigureSpec {
        id: FigureId::BatchingNoise,
        title: "The noise each way of forming batches needs for a target ε",
        page: Page::Training,
        params: &[
            p::DATASET.spec,
            p::BATCH.spec,
            p::MECH.spec,
            p::SIGMA.spec,
            p::LENGTH.spec,
            p::EPOCHS.spec,
            p::STEPS.spec,
            p::BATCHING.spec,
            p::DELTA.spec,
            p::TARGET_EPS.spec,
        ],
        compute: Compute::Deferred(batching::noise),
    },
    FigureSpec {
        id: FigureId::PrivacyProfile,
        title: "The privacy profile δ(ε) of the run",
        page: Page::Training,
        params: RUN_PARAMS,
        compute: Compute::Direct(training::privacy_profile),
    },
    FigureSpec {
        id: FigureId::PrivacyLossDistribution,
        title: "The privacy loss distribution of one step and of the run",
        page: Page::Training,
        params: RUN_PARAMS,
        compute: Compute::Deferred(why::privacy_loss_distribution),
    },
    FigureSpec {
        id: FigureId::NoiseForTarget,
        title: "Noise needed for a target ε, against the batch size",
        page: Page::Training,
        params: &[
            p::DATASET.spec,
            p::BATCH.spec,
            p::MECH.spec,
            p::LENGTH.spec,
            p::EPOCHS.spec,
            p::STEPS.spec,
            p::DELTA.spec,
            p::TARGET_EPS.spec,
        ],
        compute: Compute::Deferred(training::noise_for_target),
    },
    FigureSpec {
        id: FigureId::GaussianNoiseRatio,
        title: "The noise ratio for the Gaussian mechanism, against the rate",
        page: Page::Training,
        params: &[
            p::DATASET.spec,
            p::BATCH.spec,
            p::LENGTH.spec,
            p::EPOCHS.spec,
            p::STEPS.spec,
            p::DELTA.spec,
            p::TARGET_EPS.spec,
        ],
        compute: Compute::Deferred(training::gaussian_noise_ratio),
    },
    FigureSpec {
        id: FigureId::TradeoffCurve,
        title: "What an attacker can do: the trade-off curve of the run",
        page: Page::Risk,
        params: &[
            p::MECH.spec,
            p::SIGMA.spec,
            p::SCALE.spec,
            p::EPS.spec,
            p::K.spec,
            p::Q.spec,
            p::STEPS.spec,
            p::DELTA.spec,
            p::FPR.spec,
            p::TRADEOFF_VIEW.spec,
        ],
        compute: Compute::Direct(risk::tradeoff_curve),
    },
    FigureSpec {
        id: FigureId::TprVsSteps,
        title: "The attacker's TPR as training goes on: sampling against none",
        page: Page::Risk,
        params: &[
            p::MECH.spec,
            p::SIGMA.spec,
            p::SCALE.spec,
            p::EPS.spec,
            p::K.spec,
            p::Q.spec,
            p::STEPS.spec,
            p::FPR.spec,
        ],
        compute: Compute::Deferred(risk::tpr_vs_steps),
    },
    FigureSpec {
        id: FigureId::NoiseForRisk,
        title: "Noise for a target attack risk against noise for a target ε",
        page: Page::Risk,
        params: &[
            p::MECH.spec,
            p::Q.spec,
            p::STEPS.spec,
            p::DELTA.spec,
            p::FPR.spec,
            p::TARGET_TPR.spec,
            p::TARGET_EPS.spec,
        ],
        compute: Compute::Deferred(risk::noise_for_risk),
    },
    FigureSpec {
        id: FigureId::ShuffleEpsilonVsUsers,
        title: "Central ε against the number of users, every shuffle bound",
        page: Page::Shuffling,
        params: &[
            p::EPS0.spec,
            p::USERS.spec,
            p::DELTA.spec,
            p::RANDOMIZER.spec,
            p::K.spec,
        ],
        compute: Compute::Deferred(shuffle::epsilon_vs_users),
    },
    FigureSpec {
        id: FigureId::ShuffleEpsilonVsLocal,
        title: "Central ε against the local ε₀, every shuffle bound",
        page: Page::Shuffling,
        params: &[
            p::EPS0.spec,
            p::USERS.spec,
            p::DELTA.spec,
            p::RANDOMIZER.spec,
            p::K.spec,
        ],
        compute: Compute::Deferred(shuffle::epsilon_vs_local),
    },
    FigureSpec {
        id: FigureId::ShuffleVsSubsample,
        title: "What a central target allows: shuffling against subsampling",
        page: Page::Shuffling,
        params: &[
            p::USERS.spec,
            p::DELTA.spec,
            p::RANDOMIZER.spec,
            p::K.spec,
            p::TARGET_EPS.spec,
            p::P.spec,
        ],
        compute: Compute::Deferred(shuffle::shuffle_vs_subsample),
    },
    FigureSpec {
        id: FigureId::ErrorCentralLocalShuffle,
        title: "Error of a private mean: central, local and shuffled",
        page: Page::Shuffling,
        params: &[p::USERS.spec, p::DELTA.spec, p::TARGET_EPS.spec],
        compute: Compute::Deferred(shuffle::error_central_local_shuffle),
    },
    FigureSpec {
        id: FigureId::SubsampledRr,
        title: "Randomized response on a subsample: exact ε, εp and the theorem",
        page: Page::Shuffling,
        params: &[p::EPS.spec, p::P.spec],
        compute: Compute::Direct(shuffle::subsampled_rr_fig),
    },
    FigureSpec {
        id: FigureId::IterationPrivacyByPosition,
        title: "Privacy of the last iterate by the position of the record",
        page: Page::Iteration,
        params: ITERATION_PARAMS,
        compute: Compute::Direct(iteration::privacy_by_position),
    },
    FigureSpec {
        id: FigureId::IterationNoiseSchedule,
        title: "Where the noise goes: three schedules with the same total noise",
        page: Page::Iteration,
        params: ITERATION_PARAMS,
        compute: Compute::Direct(iteration::noise_schedule),
    },
];

/// Look up a figure by its URL / CLI id (the boundary only; code names figures by [`FigureId`]).
pub fn figure(id: &str) -> Option<&'static FigureSpec> {
    FigureId::from_id(id).map(FigureId::spec)
}

/// `count` points spaced evenly in log between lo and hi (inclusive), lo > 0.
pub fn log_grid(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let (a, b) = (amp_math::special::ln(lo), amp_math::special::ln(hi));
    (0..count)
        .map(|i| {
            if i + 1 == count {
                hi
            } else {
                amp_math::special::exp(a + (b - a) * i as f64 / (count - 1) as f64)
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
