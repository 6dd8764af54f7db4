//! Calibration and sizing: the grid step for a bucket budget, the band of both estimates, σ for
//! a target ε, and the analytic Gaussian mechanism.

#[allow(unused_imports)]
use super::*;

/// A grid step near `target` that divides `epsilon` exactly (so randomized response is exact).
pub fn step_dividing(epsilon: f64, target: f64) -> f64 {
    if epsilon <= 0.0 {
        return target;
    }
    epsilon / (epsilon / target).ceil()
}

/// The noise of an additive mechanism with sensitivity 1, run on a Poisson sample (DP-SGD's
/// step: the clipped gradient sum has sensitivity 1 in units of the clipping norm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// Gaussian noise of standard deviation σ (the noise multiplier).
    Gaussian(f64),
    /// Laplace noise of scale b (sensitivity measured in L1).
    Laplace(f64),
}

impl Noise {
    /// The pair of PLDs of one step at rate q ([`poisson_gaussian`] or [`poisson_laplace`]).
    pub fn poisson(self, q: f64, step: f64, estimate: Estimate) -> Result<PldPair, MathError> {
        match self {
            Noise::Gaussian(s) => poisson_gaussian(s, q, step, estimate),
            Noise::Laplace(b) => poisson_laplace(b, q, step, estimate),
        }
    }

    /// ε at δ of `steps` compositions from the pessimistic PLD alone on the grid step h: a
    /// certified upper bound (add/remove), what a calibration evaluates.
    pub fn upper_epsilon(
        self,
        q: f64,
        steps: u64,
        delta: f64,
        step: f64,
    ) -> Result<f64, MathError> {
        self.poisson(q, step, Estimate::Pessimistic)?
            .self_compose(steps)?
            .epsilon_for_delta(delta)
    }

    /// The same kind of noise with another size.
    pub fn with_size(self, size: f64) -> Noise {
        match self {
            Noise::Gaussian(_) => Noise::Gaussian(size),
            Noise::Laplace(_) => Noise::Laplace(size),
        }
    }
}

/// Finest and coarsest grid steps [`step_for_budget`] returns.
pub const STEP_RANGE: (f64, f64) = (1e-6, 100.0);

/// A grid step h for which `steps` compositions of the Poisson-subsampled `noise` at rate q need
/// about `buckets` buckets: the composed window's width W in loss units is measured on a coarse
/// probe grid (refined while it holds fewer than 256 buckets), then h = W / buckets, clamped to
/// [`STEP_RANGE`]. The cost of a composition is then about that of an FFT of `buckets` points,
/// whatever σ, q and k are; the price is accuracy (the band between the two estimates narrows
/// linearly with h), which the band shows.
pub fn step_for_budget(noise: Noise, q: f64, steps: u64, buckets: usize) -> Result<f64, MathError> {
    let mut probe = 1e-2;
    let width = loop {
        let span = noise
            .poisson(q, probe, Estimate::Pessimistic)?
            .composed_span(steps);
        if span >= 256 || probe < 1e-7 {
            break span as f64 * probe;
        }
        probe /= 30.0;
    };
    Ok((width / buckets.max(16) as f64).clamp(STEP_RANGE.0, STEP_RANGE.1))
}

/// The composed PLDs of both roundings on one grid: the true δ(ε) and ε(δ) of the composition lie
/// between their values.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// The grid step used.
    pub step: f64,
    /// Pessimistic (certified upper bound on δ and ε).
    pub upper: PldPair,
    /// Optimistic (lower bound).
    pub lower: PldPair,
}

/// The noise of one Gaussian release on all the records equivalent to `steps` of them at noise
/// σ, when the accountants use it: `Some(σ/√steps)` for steps > 1 and μ = √steps/σ ≤ 4.
///
/// k releases of the Gaussian mechanism without sampling are exactly one release at noise σ/√k
/// (the pair N(0, σ²I_k), N(1_k, σ²I_k) is N(0, σ²), N(√k, σ²) along 1_k): discretised once, its
/// two roundings are k times closer than composed k times (σ = 10, 1,000 steps, step 1e-4: the
/// attacker's band at FPR 0.001 is 3.4e-5 wide relative, not 1.7e-3). Only for μ ≤ 4, where one
/// release's grid is short (it spans about 20μ/h, built one bucket at a time, while composing k
/// short grids costs one FFT); beyond, the run is composed step by step (one release's losses
/// would also reach past exp's range from μ ≈ 30).
pub fn gaussian_as_one(sigma: f64, steps: u64) -> Option<f64> {
    let k = steps as f64;
    (steps > 1 && k.sqrt() / sigma <= 4.0).then(|| sigma / k.sqrt())
}

impl Band {
    /// `steps` compositions of the Poisson-subsampled `noise` at rate q on the grid step h (for
    /// Gaussian noise at q = 1, one release at σ/√steps, the same pair exactly).
    pub fn new(noise: Noise, q: f64, steps: u64, step: f64) -> Result<Band, MathError> {
        if let (Noise::Gaussian(sigma), true) = (noise, q == 1.0) {
            if let Some(one) = gaussian_as_one(sigma, steps) {
                return Band::new(Noise::Gaussian(one), 1.0, 1, step);
            }
        }
        let upper = noise
            .poisson(q, step, Estimate::Pessimistic)?
            .self_compose(steps)?;
        let lower = noise
            .poisson(q, step, Estimate::Optimistic)?
            .self_compose(steps)?;
        Ok(Band { step, upper, lower })
    }

    /// The same on the grid step that fits `buckets` ([`step_for_budget`]), but never finer than
    /// `min_step` (pass [`DEFAULT_STEP`] to stop at the usual precision when the budget would allow
    /// more, or `STEP_RANGE.0` to spend the whole budget).
    pub fn within(
        noise: Noise,
        q: f64,
        steps: u64,
        buckets: usize,
        min_step: f64,
    ) -> Result<Band, MathError> {
        let h = step_for_budget(noise, q, steps, buckets)?.max(min_step);
        Band::new(noise, q, steps, h)
    }

    /// ε at δ: (certified upper bound, lower bound).
    pub fn epsilon(&self, delta: f64) -> Result<(f64, f64), MathError> {
        Ok((
            self.upper.epsilon_for_delta(delta)?,
            self.lower.epsilon_for_delta(delta)?,
        ))
    }

    /// δ at ε: (certified upper bound, lower bound).
    pub fn delta(&self, epsilon: f64) -> (f64, f64) {
        (
            self.upper.delta_for_epsilon(epsilon),
            self.lower.delta_for_epsilon(epsilon),
        )
    }
}

/// ε at δ of `steps` compositions of the Poisson-subsampled Gaussian: (certified upper bound,
/// lower bound), on the grid step `step` (add/remove).
pub fn gaussian_epsilon(
    sigma: f64,
    q: f64,
    steps: u64,
    delta: f64,
    step: f64,
) -> Result<(f64, f64), MathError> {
    Band::new(Noise::Gaussian(sigma), q, steps, step)?.epsilon(delta)
}
