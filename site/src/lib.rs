//! Everything the app and the CLI share above the model: pages and URL
//! state, the figure registry (re-exported from `amp-figures`), the pre-rendered
//! pages, the exports and the compute worker's protocol.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

pub mod export;
pub mod job;
pub mod pages;
pub mod probe;

#[cfg(all(feature = "svg", feature = "prose"))]
pub mod prerender;
#[cfg(feature = "prose")]
pub mod prose;
#[cfg(feature = "svg")]
pub use amp_figures::svg;

/// The figure registry lives in its own crate (`figures/`), so that a page's change does not
/// recompile or re-sweep it.
pub use amp_figures as figures;
pub use amp_figures::heavy;
