//! The computations that only the compute module carries.
//!
//! The web app is two WebAssembly modules (issue 35): the page's, which must arrive before
//! anything is live (the interface, the drawing, and the math of the quick numbers and the
//! figures that follow a slider), and the compute module's, which the compute worker loads once
//! the page is live (everything the compute worker can be asked). What decides the split is
//! this module: a figure declared [`crate::Compute::Deferred`] and the numbers of a page
//! that computes them off the page's thread name their function through [`chart`] and
//! [`readouts`]. With this crate's `compute` feature (the CLI, the tests, the compute module)
//! those are the functions themselves; without it (the page's module) they are stand-ins, so that
//! the linker leaves the functions, and all the math only they reach, out of the page's module.

use amp_chart::Chart;
use amp_model::params::ParamValues;
use amp_model::readings::{Precision, Readings};
use amp_model::ModelError;

/// A figure's computation (a [`crate::ChartResult`]).
pub type ChartFn = fn(&ParamValues) -> Result<Chart, ModelError>;
/// A page's numbers.
pub type ReadoutsFn = fn(&ParamValues, Precision) -> Readings;

/// Whether this build carries the heavy computations (the `compute` feature).
pub const HERE: bool = cfg!(feature = "compute");

/// `f` itself where this build carries the heavy computations, otherwise a stand-in that says the
/// chart is computed elsewhere.
#[cfg(feature = "compute")]
pub const fn chart(f: ChartFn) -> ChartFn {
    f
}

/// `f` itself where this build carries the heavy computations, otherwise a stand-in that says the
/// chart is computed elsewhere.
#[cfg(not(feature = "compute"))]
pub const fn chart(_: ChartFn) -> ChartFn {
    elsewhere
}

/// `f` itself where this build carries the heavy computations, otherwise a stand-in with no
/// numbers (the page shows them as pending until the compute module's arrive).
#[cfg(feature = "compute")]
pub const fn readouts(f: ReadoutsFn) -> ReadoutsFn {
    f
}

/// `f` itself where this build carries the heavy computations, otherwise a stand-in with no
/// numbers (the page shows them as pending until the compute module's arrive).
#[cfg(not(feature = "compute"))]
pub const fn readouts(_: ReadoutsFn) -> ReadoutsFn {
    no_readings
}

#[cfg(not(feature = "compute"))]
fn elsewhere(_: &ParamValues) -> Result<Chart, ModelError> {
    Err(ModelError::Elsewhere)
}

#[cfg(not(feature = "compute"))]
fn no_readings(_: &ParamValues, _: Precision) -> Readings {
    Readings::default()
}
