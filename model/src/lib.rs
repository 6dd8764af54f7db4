//! The model: the parameters (declarations in [`param`], their domains, groups and values in
//! [`params`]), and what the pages, the figures and the CLI compute from their values before
//! anything is drawn: runs as events ([`run`]), each topic's settings, cached accountings,
//! calibrations and the sentences that describe them, and why a value is not there
//! ([`ModelError`]). Figures only turn these values into charts. No drawing, no browser: the
//! crate depends on the math and on how numbers are written, nothing else.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

pub mod constraints;
pub mod error;
pub mod json;
pub mod param;
pub mod params;
pub mod readings;

pub mod accuracy;
pub mod audit;
pub mod batching;
pub mod iteration;
pub mod libraries;
pub mod limits;
pub mod memo;
pub mod renyi;
pub mod risk;
pub mod run;
pub mod sampling;
pub mod shuffle;
pub mod subsampling;
pub mod training;
pub mod tuning;
pub mod why;

pub use error::ModelError;
