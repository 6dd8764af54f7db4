//! What the widely used accounting libraries compute, reproduced from their conventions (read
//! from their source), so that the app can predict the number a practitioner's library prints
//! and name the cause of each gap to the certified band. These are not this crate's own bounds:
//! each function says which library's convention it follows and how that convention differs.

pub mod dp_accounting;
pub mod opacus;
pub mod tf_privacy;
