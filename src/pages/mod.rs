//! Pages. Most are rendered from their declaration in `amp_plots::pages` by [`declared`]; the
//! other modules hold page-specific widgets, and the two pages still rendered by their own
//! component (training, shuffling).
pub mod accuracy;
pub mod declared;
pub mod home;
pub mod shuffling;
pub mod training;
