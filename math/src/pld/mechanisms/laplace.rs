//! The PLDs of the Poisson-subsampled Laplace mechanism (add/remove): the mixture's privacy loss,
//! with its atoms at both ends, on the grid.

use super::*;

/// PLDs of the Poisson-subsampled Laplace mechanism (sensitivity 1, scale b, rate q), add/remove.
///
/// With g(x) = (|x| − |x − 1|)/b ∈ [−1/b, 1/b]: remove has P = (1 − q)Lap(0, b) + qLap(1, b),
/// Q = Lap(0, b), L(x) = log(1 − q + q e^{g(x)}), increasing, with atoms at both ends (x ≤ 0 and
/// x ≥ 1); add is the reverse pair with L = −(the same log) under Lap(0, b).
pub fn poisson_laplace(
    scale: f64,
    q: f64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    if !(scale > 0.0 && scale.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "b",
            value: scale,
            expected: "a positive finite number",
        });
    }
    check_rate(q)?;
    let b = scale;
    let means = match estimate {
        Estimate::Optimistic => laplace_loss_means(b, q),
        Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
    };
    let laplace = LaplaceMixture::new(b, q);
    let remove = laplace.remove(means[0], step, estimate)?;
    let add = laplace.add(means[1], step, estimate)?;
    Ok(PldPair { remove, add })
}

/// `inside()` for l in [lo, hi), else the value `below` l < lo or `above` l ≥ hi: a loss
/// distribution's function outside the losses that occur.
fn clamped(
    l: f64,
    (lo, hi): (f64, f64),
    (below, above): (f64, f64),
    inside: impl Fn() -> f64,
) -> f64 {
    if l < lo {
        below
    } else if l >= hi {
        above
    } else {
        inside()
    }
}

/// The two distributions of the Poisson-subsampled Laplace mechanism, Lap(0, b) and the mixture
/// (1 − q)Lap(0, b) + qLap(1, b), with the range [l_min, l_max] of the remove direction's loss
/// (its atoms at x ≤ 0 and x ≥ 1), for [`poisson_laplace`].
struct LaplaceMixture {
    pub(super) b: f64,
    pub(super) q: f64,
    pub(super) l_min: f64,
    pub(super) l_max: f64,
}

impl LaplaceMixture {
    /// The mechanism of scale b and rate q, with l_min = log(1 − q + q e^{−1/b}) and
    /// l_max = log(1 − q + q e^{1/b}).
    pub(super) fn new(b: f64, q: f64) -> LaplaceMixture {
        let ratio_ln = |g: f64| ln_1p(q * exp_m1(g));
        let (l_min, l_max) = (ratio_ln(-1.0 / b), ratio_ln(1.0 / b));
        LaplaceMixture { b, q, l_min, l_max }
    }

    /// Lap(μ, b)'s distribution function at x.
    fn lap_cdf(&self, x: f64, mu: f64) -> f64 {
        let b = self.b;
        if x < mu {
            0.5 * exp((x - mu) / b)
        } else {
            1.0 - 0.5 * exp((mu - x) / b)
        }
    }

    /// Lap(μ, b)'s survival function at x.
    fn lap_sur(&self, x: f64, mu: f64) -> f64 {
        let b = self.b;
        if x < mu {
            1.0 - 0.5 * exp((x - mu) / b)
        } else {
            0.5 * exp((mu - x) / b)
        }
    }

    /// x with g(x) = mixture_exponent(v): x = (b·g + 1)/2 inside (0, 1).
    pub(super) fn x_of(&self, v: f64) -> f64 {
        ((self.b * mixture_exponent(v, self.q) + 1.0) / 2.0).clamp(0.0, 1.0)
    }

    /// The mixture's distribution function at x.
    fn mix_cdf(&self, x: f64) -> f64 {
        let q = self.q;
        (1.0 - q) * self.lap_cdf(x, 0.0) + q * self.lap_cdf(x, 1.0)
    }

    /// The mixture's survival function at x.
    fn mix_sur(&self, x: f64) -> f64 {
        let q = self.q;
        (1.0 - q) * self.lap_sur(x, 0.0) + q * self.lap_sur(x, 1.0)
    }

    /// The remove direction's PLD: P the mixture, Q = Lap(0, b), L = log(1 − q + q e^{g(x)});
    /// `(mean, mean_error)` its E_P[L] (NaN if unknown).
    pub(super) fn remove(
        &self,
        (mean, mean_error): (f64, f64),
        step: f64,
        estimate: Estimate,
    ) -> Result<Pld, MathError> {
        let (l_min, l_max) = (self.l_min, self.l_max);
        let cdf_r = |l: f64| clamped(l, (l_min, l_max), (0.0, 1.0), || self.mix_cdf(self.x_of(l)));
        let sur_r = |l: f64| clamped(l, (l_min, l_max), (1.0, 0.0), || self.mix_sur(self.x_of(l)));
        // Under Q = Lap(0, b).
        let qcdf_r = |l: f64| {
            clamped(l, (l_min, l_max), (0.0, 1.0), || {
                self.lap_cdf(self.x_of(l), 0.0)
            })
        };
        let qsur_r = |l: f64| {
            clamped(l, (l_min, l_max), (1.0, 0.0), || {
                self.lap_sur(self.x_of(l), 0.0)
            })
        };
        Pld::from_law(
            &LossLaw {
                cdf: &cdf_r,
                survival: &sur_r,
                q_cdf: &qcdf_r,
                q_survival: &qsur_r,
                lo: l_min,
                hi: l_max,
                mean,
                mean_error,
            },
            step,
            estimate,
        )
    }

    /// The add direction's PLD: P = Lap(0, b), Q the mixture, L = −log(1 − q + q e^{g(x)});
    /// `(mean, mean_error)` its E_P[L] (NaN if unknown).
    pub(super) fn add(
        &self,
        (mean, mean_error): (f64, f64),
        step: f64,
        estimate: Estimate,
    ) -> Result<Pld, MathError> {
        let (l_min, l_max) = (self.l_min, self.l_max);
        // Add: L = −ratio_ln(g(x)) under Lap(0, b); L ≤ l ⇔ g(x) ≥ mixture_exponent(−l).
        let cdf_a = |l: f64| {
            clamped(l, (-l_max, -l_min), (0.0, 1.0), || {
                self.lap_sur(self.x_of(-l), 0.0)
            })
        };
        let sur_a = |l: f64| {
            clamped(l, (-l_max, -l_min), (1.0, 0.0), || {
                self.lap_cdf(self.x_of(-l), 0.0)
            })
        };
        // Under Q = the mixture.
        let qcdf_a = |l: f64| {
            clamped(l, (-l_max, -l_min), (0.0, 1.0), || {
                self.mix_sur(self.x_of(-l))
            })
        };
        let qsur_a = |l: f64| {
            clamped(l, (-l_max, -l_min), (1.0, 0.0), || {
                self.mix_cdf(self.x_of(-l))
            })
        };
        Pld::from_law(
            &LossLaw {
                cdf: &cdf_a,
                survival: &sur_a,
                q_cdf: &qcdf_a,
                q_survival: &qsur_a,
                lo: -l_max,
                hi: -l_min,
                mean,
                mean_error,
            },
            step,
            estimate,
        )
    }
}
