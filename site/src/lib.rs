//! Everything the app and the CLI share above the model: pages and URL
//! state, the figure registry (model values → charts, drawn by `amp-chart`), the pre-rendered
//! pages, the exports and the compute worker's protocol.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

pub mod export;
pub mod figures;
pub mod heavy;
pub mod job;
pub mod pages;
pub mod probe;

#[cfg(all(feature = "svg", feature = "prose"))]
pub mod prerender;
#[cfg(feature = "prose")]
pub mod prose;
#[cfg(feature = "svg")]
pub mod svg;
