//! Reusable components.
pub mod controls;
pub mod figure;
pub mod readout;
