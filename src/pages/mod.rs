//! Pages. Every page is rendered from its declaration in `amp_plots::pages` by [`declared`]; the
//! other modules hold page-specific widgets.
pub mod accuracy;
pub mod declared;
pub mod home;
pub mod training;
