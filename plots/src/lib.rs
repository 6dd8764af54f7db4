//! Everything the app and the CLI share above the math: parameter declarations, pages and URL
//! state, the figure registry (model values → charts, drawn by `amp-chart`).
#![forbid(unsafe_code)]

pub mod error;
pub mod export;
pub mod figures;
pub mod heavy;
pub mod job;
pub mod json;
pub mod model;
pub mod pages;
pub mod param;
pub mod params;
pub mod probe;

#[cfg(all(feature = "svg", feature = "prose"))]
pub mod prerender;
#[cfg(feature = "prose")]
pub mod prose;
#[cfg(feature = "svg")]
pub mod svg;
