//! Everything the app and the CLI share above the math: parameter declarations, pages and URL
//! state, the figure registry, and one drawing function generic over the plotters backend.
#![forbid(unsafe_code)]

pub mod chart;
pub mod draw;
pub mod export;
pub mod figures;
pub mod format;
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

pub use plotters;
