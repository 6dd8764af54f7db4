//! Reusable components.
pub mod controls;
pub mod deferred;
pub mod figure;
pub mod readout;
