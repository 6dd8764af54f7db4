//! Privacy events as data, and the accountants that walk them.
//!
//! A run is described once, as plain data ([`Event`]): which mechanism releases what, how the
//! records reach it (a sampler), and how often it runs, composed with other events in sequence.
//! The description says nothing about how its privacy is computed. An [`Accountant`] turns an event
//! into a guarantee: the privacy loss distribution accountant ([`PldAccountant`]: a certified upper
//! bound and a lower bound, on a loss grid) and the Rényi DP accountant ([`RdpAccountant`]: an
//! upper bound through a conversion over orders). One search ([`calibrate`]) finds the noise, the
//! number of steps or the sampling rate that meets a target, over "the event as a function of the
//! unknown", with either accountant.
//!
//! The split follows Google's dp_accounting (`dp_event.py` and one accountant class per method;
//! `mechanism_calibration.py`), written anew here: a new sampler is one variant of [`Sampler`] (or
//! [`EpochSampler`]) and one arm in each accountant; an event an accountant cannot handle is
//! [`MathError::Unsupported`] with a sentence saying why, never a panic.
//!
//! Every event knows the neighbouring relation its guarantee holds for ([`Event::relation`]) and the
//! sensitivity its noise is scaled to ([`Event::sensitivity`]), so that a number is labelled by what
//! was computed, not by whoever asked.

mod calibrate;
mod event;
mod group;
mod pld;
mod rdp;

pub use calibrate::{calibrate, calibrate_event, Search, Target};
pub use event::{EpochSampler, Event, Sampler};
pub use group::group_lemma_epsilon;
pub use pld::{EpochSettings, Grid, PldAccountant};
pub use rdp::RdpAccountant;

use crate::MathError;

/// A guarantee read off an accountant: a certified upper bound, and where the accountant has one,
/// a lower bound on the exact value (the exact value of the event lies between them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Upper bound (certified: the event is at least this private).
    pub upper: f64,
    /// Lower bound (the event is no more private than this); `None` when the accountant gives
    /// upper bounds only (Rényi DP).
    pub lower: Option<f64>,
}

/// An accountant: turns an [`Event`] into (ε, δ) guarantees.
pub trait Accountant {
    /// A short name for messages ("the PLD accountant").
    fn name(&self) -> &'static str;

    /// ε at δ for the event.
    fn epsilon(&self, event: &Event, delta: f64) -> Result<Bounds, MathError>;

    /// δ at ε for the event.
    fn delta(&self, event: &Event, epsilon: f64) -> Result<Bounds, MathError>;

    /// The certified value of `target`'s quantity for the event (what [`calibrate`] holds below
    /// the target): ε at δ and δ at ε from the upper bounds; an attacker's TPR or advantage where
    /// the accountant can bound it (the PLD accountant), else [`MathError::Unsupported`].
    fn measure(&self, event: &Event, target: Target) -> Result<f64, MathError> {
        match target {
            Target::Epsilon { delta, .. } => Ok(self.epsilon(event, delta)?.upper),
            Target::Delta { epsilon, .. } => Ok(self.delta(event, epsilon)?.upper),
            Target::Risk(_) => Err(MathError::Unsupported {
                reason: format!(
                    "{} does not bound an attacker's success; use the PLD accountant",
                    self.name()
                ),
            }),
        }
    }
}
