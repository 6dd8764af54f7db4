//! The error of a private mean of n bits in the central, local and shuffle models (Brown, lecture
//! notes "Privacy amplification", §2.1–2.2), as standard deviations.

use crate::shuffle::{check_users, largest_eps0, Bound, MAX_EPS0};
use crate::special::exp_m1;
use crate::{check_epsilon, check_probability, MathError};

/// The error of a private estimate of the mean of n bits, as standard deviations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanError {
    /// Sampling error √(μ(1 − μ)/n): the non-private estimate's standard deviation around μ.
    pub sampling_sd: f64,
    /// Standard deviation added by privacy.
    pub privacy_sd: f64,
    /// Root-mean-square error around μ: √(sampling_sd² + privacy_sd²) (the estimates are unbiased
    /// and the two errors independent). The notes' bound |μ̃ − μ| ≲ sampling + privacy adds the
    /// two instead; RMSE is at most that sum.
    pub rmse: f64,
    /// For the shuffle model: the local ε₀ each user runs randomized response with.
    pub local_eps0: Option<f64>,
}

fn check_mean_inputs(n: u64, eps: f64, mean: f64) -> Result<(), MathError> {
    check_users(n)?;
    check_epsilon("ε", eps)?;
    if eps < 1e-300 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: eps,
            expected:
                "at least 1e-300 (ε = 0 allows no estimate; below 1e-300 the error overflows)",
        });
    }
    check_probability("μ", mean)
}

fn mean_error(n: u64, mean: f64, privacy_sd: f64, local_eps0: Option<f64>) -> MeanError {
    let sampling_sd = (mean * (1.0 - mean) / n as f64).sqrt();
    MeanError {
        sampling_sd,
        privacy_sd,
        rmse: crate::special::hypot(sampling_sd, privacy_sd),
        local_eps0,
    }
}

/// Standard deviation of the debiased binary randomized response mean at local ε:
/// √(e^ε/n)/(e^ε − 1) = 1/(2√n·sinh(ε/2)).
fn rr_privacy_sd(n: u64, eps: f64) -> f64 {
    // sinh(x) = (expm1(x) − expm1(−x))/2, accurate for small x.
    let x = 0.5 * eps;
    let sinh = 0.5 * (exp_m1(x) - exp_m1(-x));
    0.5 / ((n as f64).sqrt() * sinh)
}

/// Central model: the mean of n bits x_i ∈ {0, 1} (i.i.d. with mean μ) released with Laplace noise
/// of scale 1/(nε) (sensitivity 1/n, replace-one; pure ε-DP).
///
/// Source: Brown, §2.1: error ≲ 1/√n + 1/(nε). Here exactly: sampling sd √(μ(1 − μ)/n),
/// privacy sd √2/(nε) (a Laplace variable of scale b has sd √2·b). Domain: 1 ≤ n ≤ 1e9,
/// 1e-300 ≤ ε ≤ 500, μ ∈ [0, 1]. Exact.
pub fn mean_error_central_laplace(n: u64, eps: f64, mean: f64) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    let privacy = std::f64::consts::SQRT_2 / (n as f64 * eps);
    Ok(mean_error(n, mean, privacy, None))
}

/// Local model: each user reports RR_ε(x_i) (keep w.p. e^ε/(e^ε + 1)); the analyst debiases,
/// μ̃ = (ȳ − 1/(e^ε + 1))·(e^ε + 1)/(e^ε − 1).
///
/// Source: Brown, §2.1: error ≲ 1/√n + 1/(√n·ε). Exact variance: given the data, each
/// report is a Bernoulli of variance q(1 − q) with q = 1/(e^ε + 1) whatever x_i is, so the
/// privacy variance is q(1 − q)/(n(1 − 2q)²) = e^ε/(n(e^ε − 1)²), i.e. sd 1/(2√n·sinh(ε/2))
/// (≈ 1/(√n·ε) for small ε); the sampling term is as in the central model. The estimate is not
/// clipped to [0, 1]. Relation: replace-one (ε-LDP). Domain as
/// [`mean_error_central_laplace`]. Exact.
pub fn mean_error_local_rr(n: u64, eps: f64, mean: f64) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    Ok(mean_error(n, mean, rr_privacy_sd(n, eps), None))
}

/// Shuffle model: each user runs RR_{ε₀} with the largest ε₀ for which `bound` certifies central
/// (ε, δ) after shuffling ([`largest_eps0`]), and the analyst debiases as in the local model.
///
/// Source: Brown, §2.2 (shuffling recovers about 1/√n + √log(1/δ)/(nε)). The privacy
/// sd is the local one at ε₀; `local_eps0` reports ε₀. Relation: replace-one. Errors as
/// [`largest_eps0`] (e.g. a bound with an empty validity box).
pub fn mean_error_shuffled_rr(
    n: u64,
    eps: f64,
    delta: f64,
    bound: Bound,
    mean: f64,
) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    let eps0 = largest_eps0(bound, eps.min(MAX_EPS0), n, delta)?.eps0;
    Ok(mean_error(n, mean, rr_privacy_sd(n, eps0), Some(eps0)))
}
