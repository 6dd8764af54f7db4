//! The figure registry: a figure is an id, a title, the parameters it reads and a pure function
//! from parameter values to a [`Chart`]. Drawing is shared (`amp_chart`). A page lists its
//! figures (in the pages module); a figure does not know its page, and reads what it draws from
//! the model (`amp_model`).
//!
//! The app, the embed mode, the CLI's `plot` and `figures` commands and the tests all enumerate
//! [`FIGURES`].

#![forbid(unsafe_code)]
#![warn(clippy::too_many_lines)]

use amp_math::median_sim::Simulation;

pub mod heavy;
#[cfg(feature = "svg")]
pub mod svg;

use amp_model::param as p;
use amp_model::params;
use amp_model::params::{ParamSpec, ParamValues};

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
                | FigureId::BandedNoise
                | FigureId::IterationPrivacyByPosition
        )
    }
}

impl std::fmt::Display for FigureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

mod accuracy;
mod audit;
mod batching;
mod iteration;
mod limits;
mod renyi;
mod risk;
mod shuffle;
mod subsampling;
mod training;
mod why;

pub use amp_format::group_digits;

pub use amp_model::ModelError;

/// What computing a figure gives: its chart, or why there is none.
pub type ChartResult = Result<Chart, ModelError>;
pub use amp_chart::{
    Axis, Band, BoxStat, Chart, Heatmap, LegendCorner, Marker, Outline, Role, Series,
};

mod registry;
pub use registry::*;

/// A registered figure.
pub struct FigureSpec {
    /// Stable kebab-case id: part of URLs, embeds and CLI commands.
    pub id: FigureId,
    /// Title shown above the figure.
    pub title: &'static str,
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
    /// From the parameters and a finished median simulation (Hu, Drechsler & Kim, "Accuracy gains
    /// from privacy amplification through sampling for differential privacy"), which the app runs
    /// in slices and the CLI runs to the end first.
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
                let mut sim = Simulation::new(amp_model::accuracy::sim_config(values)?)?;
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
            (Compute::Simulated(_), None) => Err(ModelError::Pending),
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

/// The caption of a figure that does not apply at the reader's settings; the reason is shown once,
/// on its own line under it.
pub const REFUSED_CAPTION: &str = "This figure cannot be drawn for these settings:";

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
