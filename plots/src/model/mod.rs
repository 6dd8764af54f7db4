//! The model layer: what the pages, the figures and the CLI compute from the parameter values
//! before anything is drawn (runs as events, settings, cached accountings, calibrations and the
//! sentences that describe them). Figures only turn these values into charts.

pub mod accuracy;
pub mod batching;
pub mod iteration;
pub mod limits;
pub mod memo;
pub mod renyi;
pub mod risk;
pub mod run;
pub mod sampling;
pub mod shuffle;
pub mod subsampling;
pub mod training;
pub mod why;
