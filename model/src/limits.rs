//! The limits page's model (Steinke, "Limits of privacy amplification by
//! subsampling"): the machine-learning regime calculator's plain sentence, read by the page and
//! by `amplify regime`. Poisson sampling, add/remove neighbours, Laplace mechanisms throughout.

use amp_format::{group_digits, short_number};

/// The regime calculator's plain sentence (also used by the CLI).
pub fn regime_sentence(
    dataset: u64,
    batch: u64,
    total: f64,
    r: &amp_math::limits::Regime,
) -> String {
    format!(
        "Batch {} of {} for {} epochs with ε* = {} is {} steps of ε = {} each, c = ε/p = {}: the \
         subsampled mechanism adds {}× the noise of the full-data one (the bound says at most {}×).",
        group_digits(batch),
        group_digits(dataset),
        short_number(r.epochs, 3),
        short_number(total, 4),
        group_digits(r.steps),
        short_number(r.epsilon_per_step, 3),
        short_number(r.c, 3),
        fixed2(r.noise_factor),
        fixed2(r.noise_factor_bound)
    )
}

fn fixed2(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.2}")
    } else {
        short_number(x, 3)
    }
}
