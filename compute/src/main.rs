//! The compute module (issue 35): the second WebAssembly module of the web app, which the compute
//! worker (`public/worker.js`) runs, and which the page loads itself only where there is no
//! worker. It answers the requests of `amp_site::job` with the same code the CLI runs, so its
//! numbers are the CLI's, bit for bit.
//!
//! The page's own module leaves out what only this one needs (`amp_site::heavy`: the deferred
//! figures and the numbers of the pages that compute off the page's thread), so that it arrives
//! sooner; this one is fetched once the page is live. Built by `scripts/build-compute.sh` (run by
//! Trunk's post-build hook) with the web app's Cargo profile, wasm-bindgen and wasm-opt.

// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]
use wasm_bindgen::prelude::*;

/// Compute what `request` asks for ([`amp_site::job::answer`]); called by `public/worker.js`.
#[wasm_bindgen]
pub fn answer(request: &str) -> String {
    // The spans of work inside (the accountant, the shuffle bounds) become the worker's
    // performance measures, which `public/worker.js` sends to the page with the answer.
    amp_site::probe::install(amp_site::probe::timeline::edge);
    amp_site::job::answer(request)
}

fn main() {}
