//! TensorFlow Privacy 0.9, `compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy(n, batch_size,
//! noise_multiplier, epochs, delta)`: the ε the library's DP-SGD tutorials print. It composes
//! ⌈epochs·n/B⌉ Poisson-sampled Gaussian steps at q = B/n in dp_accounting's RDP accountant
//! ([`super::dp_accounting`]: the signs-dropped fractional series, the KL bound and the cut at
//! order 1.01 in the conversion) on an order grid of its own. Add/remove neighbours. (The
//! library's newer `compute_dp_sgd_privacy_statement` halves the noise multiplier for
//! micro-batching; that is not what this reproduces.)

use super::dp_accounting;
use crate::MathError;

/// The orders `compute_dp_sgd_privacy` hands the accountant: 1.25, 1.5, 1.75, 2, 2.25, 2.5, 3,
/// 3.5, 4, 4.5, then 5, 6, …, 63, then 128, 256, 512 (72 orders).
pub fn orders() -> Vec<f64> {
    let mut v = vec![1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0, 4.5];
    v.extend((5..64).map(|a| a as f64));
    v.extend([128.0, 256.0, 512.0]);
    v
}

/// The steps the function composes: ⌈epochs·n/B⌉ (in floating point, as it computes it).
pub fn steps(n: u64, batch: u64, epochs: f64) -> u64 {
    (epochs * n as f64 / batch as f64).ceil() as u64
}

/// (ε, order) at δ as `compute_dp_sgd_privacy(n, B, σ, epochs, δ)` returns it: q = B/n,
/// [`steps`] steps, dp_accounting's RDP of each order of [`orders`] and its conversion. An upper
/// bound on the true ε of that many Poisson-sampled steps. Refused for B > n (the library raises).
pub fn compute_dp_sgd_privacy(
    n: u64,
    batch: u64,
    sigma: f64,
    epochs: f64,
    delta: f64,
) -> Result<(f64, f64), MathError> {
    if batch == 0 || batch > n {
        return Err(MathError::OutOfDomain {
            name: "B",
            value: batch as f64,
            expected: "a batch size from 1 to n (the library raises for B > n)",
        });
    }
    let q = batch as f64 / n as f64;
    let k = steps(n, batch, epochs) as f64;
    let curve = dp_accounting::poisson_gaussian_curve_on(orders(), sigma, q, k)?;
    dp_accounting::epsilon(&curve, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_and_the_steps_are_the_librarys() {
        let o = orders();
        assert_eq!(o.len(), 72);
        assert_eq!(
            (o[0], o[9], o[10], o[68], o[71]),
            (1.25, 4.5, 5.0, 63.0, 512.0)
        );
        assert_eq!(steps(60_000, 256, 15.0), 3516);
        assert!(compute_dp_sgd_privacy(10, 11, 1.0, 1.0, 1e-5).is_err());
    }
}
