//! The last few values of an expensive computation, so that the readouts, the figures and the
//! CLI, which ask for the same ones, compute each once: the math crate's memo
//! ([`amp_math::memo`]), named here for the model's modules.

pub use amp_math::memo::{remembered, Slot};
