//! The PLDs of the mechanisms: Poisson-subsampled Gaussian and Laplace (both directions of
//! add/remove) and k-ary randomized response, as certified pairs.

use super::composition::{fft_size, load, pow_pair, read_out, window, Half, Power, Window};
use super::grid::{GridLaw, LossLaw};
#[allow(unused_imports)]
use super::*;
use crate::special::normal_cdf;

mod laplace;
pub use laplace::*;

/// The two PLDs of a mechanism under add/remove (remove: P is the output with the record, Q
/// without; add: the reverse). δ of the mechanism is the larger of the two δ.
#[derive(Clone, Debug, PartialEq)]
pub struct PldPair {
    /// P = with the record, Q = without.
    pub remove: Pld,
    /// P = without the record, Q = with.
    pub add: Pld,
}

impl PldPair {
    /// δ(ε): the larger of the two directions.
    pub fn delta_for_epsilon(&self, epsilon: f64) -> f64 {
        self.remove
            .delta_for_epsilon(epsilon)
            .max(self.add.delta_for_epsilon(epsilon))
    }

    /// [`Pld::delta_curve`] of both directions, the larger at each ε.
    pub fn delta_curve(&self, epsilons: &[f64]) -> Vec<f64> {
        self.remove
            .delta_curve(epsilons)
            .into_iter()
            .zip(self.add.delta_curve(epsilons))
            .map(|(a, b)| a.max(b))
            .collect()
    }

    /// ε(δ): the larger of the two directions' ε (each δ(ε) is decreasing).
    pub fn epsilon_for_delta(&self, delta: f64) -> Result<f64, MathError> {
        Ok(self
            .remove
            .epsilon_for_delta(delta)?
            .max(self.add.epsilon_for_delta(delta)?))
    }

    /// Composition of different mechanisms (each `count` times), both directions, by one packed
    /// FFT. All parts need the same grid step and rounding.
    pub fn compose(parts: &[(&PldPair, u64)]) -> Result<PldPair, MathError> {
        let remove: Vec<(&Pld, u64)> = parts.iter().map(|(p, k)| (&p.remove, *k)).collect();
        let add: Vec<(&Pld, u64)> = parts.iter().map(|(p, k)| (&p.add, *k)).collect();
        let (remove, add) = compose_two(&remove, &add)?;
        Ok(PldPair { remove, add })
    }

    /// k-fold self-composition of both directions.
    pub fn self_compose(&self, steps: u64) -> Result<PldPair, MathError> {
        let (remove, add) = compose_two(&[(&self.remove, steps)], &[(&self.add, steps)])?;
        Ok(PldPair { remove, add })
    }

    /// Buckets in the window of a k-fold self-composition (the larger of the two directions):
    /// what the FFT must hold, known before any transform is computed.
    pub fn composed_span(&self, steps: u64) -> usize {
        PldPair::composed_span_of(&[(self, steps)])
    }

    /// Buckets in the window of a composition of several pairs, each `count` times (at least
    /// once), the larger of the two directions ([`PldPair::composed_span`] for one pair). All
    /// pairs on one grid step.
    pub fn composed_span_of(parts: &[(&PldPair, u64)]) -> usize {
        if parts.is_empty() {
            return 0;
        }
        let remove: Vec<(&Pld, u64)> = parts
            .iter()
            .map(|(p, k)| (&p.remove, (*k).max(1)))
            .collect();
        let add: Vec<(&Pld, u64)> = parts.iter().map(|(p, k)| (&p.add, (*k).max(1))).collect();
        window(&remove).span().max(window(&add).span())
    }

    /// The k-fold self-compositions for several k from one forward transform: the FFT is sized
    /// for the widest window, each k costs one inverse transform. Same results as
    /// [`PldPair::self_compose`] up to rounding (each k keeps its own window and truncation bound;
    /// a window shorter than the transform only wraps the mass already bounded by [`TAIL`]).
    pub fn self_compose_many(&self, steps: &[u64]) -> Result<Vec<PldPair>, MathError> {
        if steps.contains(&0) {
            return Err(MathError::Inconsistent {
                reason: "compose at least one step".into(),
            });
        }
        let windows: Vec<(Window, Window)> = steps
            .iter()
            .map(|&k| (window(&[(&self.remove, k)]), window(&[(&self.add, k)])))
            .collect();
        let span = windows
            .iter()
            .map(|(a, b)| a.span().max(b.span()))
            .max()
            .unwrap_or(1);
        let n = fft_size(span)?;
        let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
        load(Some(&self.remove), &mut re);
        load(Some(&self.add), &mut im);
        fft::forward(&mut re, &mut im);
        let mut x = Half::zero(n / 2 + 1);
        for c in fft::half_chunks(n) {
            x.store(&Pair::split(&re, &im, &c), &c);
        }
        let scale = 1.0 / n as f64;
        let mut out = Vec::with_capacity(steps.len());
        for (&k, (wr, wa)) in steps.iter().zip(&windows) {
            let power = Power::new(k);
            for c in fft::half_chunks(n) {
                let mut y = x.get(&c);
                pow_pair(&mut y, power, power);
                y.join(&mut re, &mut im, &c, scale);
            }
            fft::inverse_unscaled(&mut re, &mut im);
            out.push(PldPair {
                remove: read_out(&[(&self.remove, k)], wr, Cow::Borrowed(&re)),
                add: read_out(&[(&self.add, k)], wa, Cow::Borrowed(&im)),
            });
        }
        Ok(out)
    }
}

pub(super) fn check_rate(q: f64) -> Result<(), MathError> {
    crate::check_rate("q", q)
}

/// x at which the mixture ratio 1 − q + q·e^{g} equals e^{v}: g = log((e^v − 1 + q)/q), for
/// v > log(1 − q); −∞ at or below.
pub(super) fn mixture_exponent(v: f64, q: f64) -> f64 {
    mixture_exponent_ln(v, q, ln(q))
}

/// [`mixture_exponent`] given ln_q = ln(q) (the same value, one logarithm fewer).
pub(super) fn mixture_exponent_ln(v: f64, q: f64, ln_q: f64) -> f64 {
    let num = exp_m1(v) + q;
    if num <= 0.0 {
        f64::NEG_INFINITY
    } else {
        ln(num) - ln_q
    }
}

/// The two distributions of the Poisson-subsampled Gaussian, N(0, σ²) and the mixture
/// (1 − q)N(0, σ²) + qN(1, σ²), at the points x_j = σ² log((e^{j·h} − 1 + q)/q) + ½ of the grid
/// (j = first, first + 1, …), each in its lower tail (distribution function: Φ(x_j/σ) and
/// (1 − q)Φ(x_j/σ) + qΦ((x_j − 1)/σ)) or its upper tail (survival function: Φ(−x_j/σ) and
/// (1 − q)Φ(−x_j/σ) + qΦ((1 − x_j)/σ)), whichever the law being discretised asks for (the one
/// accurate where it is small). The remove direction's laws at the loss l = j·h and the add
/// direction's at −l are all among these values, so each is computed once, with the same
/// expressions as the laws' own (so the same bits).
///
/// `gauss[k]` and `mixture[k]` keep the last value computed at x_{first + k}, negated if it is the
/// upper tail's (every value is ≥ 0, and −0.0 is told apart by its sign), NaN if none. They are
/// filled ahead, lower tails below each distribution's median and upper tails above (what the laws
/// ask for, except at a point or two next to the medians), block by block with one function
/// evaluated at a time (independent evaluations in a row run fastest); a value asked for in the
/// other tail is computed when asked for. Below the remove direction's smallest loss
/// (j·h ≤ log(1 − q), the indices below `start`) the laws are the constants 0 (lower tail) and 1
/// (upper tail), as in theirs.
pub(super) struct GaussianTable {
    pub(super) sigma: f64,
    pub(super) q: f64,
    pub(super) s2: f64,
    pub(super) ln_q: f64,
    pub(super) step: f64,
    pub(super) first: i64,
    pub(super) start: i64,
    pub(super) gauss: Vec<f64>,
    pub(super) mixture: Vec<f64>,
}

impl GaussianTable {
    /// The table for indices first..=last (floor = log(1 − q)), filled ahead.
    pub(super) fn new(
        sigma: f64,
        q: f64,
        step: f64,
        first: i64,
        last: i64,
        floor: f64,
    ) -> GaussianTable {
        let mut start = first;
        while start <= last && start as f64 * step <= floor {
            start += 1;
        }
        let m = (last - first + 1).max(0) as usize;
        let from = (start - first).clamp(0, m as i64) as usize;
        let mut t = GaussianTable {
            sigma,
            q,
            s2: sigma * sigma,
            ln_q: ln(q),
            step,
            first,
            start,
            gauss: Vec::with_capacity(m),
            mixture: Vec::with_capacity(m),
        };
        // The medians: N(0, σ²)'s at x = 0, the mixture's where its distribution function
        // crosses ½ (bisections; both only decide which tail to fill ahead).
        let median = |below: &dyn Fn(f64) -> bool| {
            let (mut lo, mut hi) = (from, m);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if below(t.x(first + mid as i64)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let g_med = median(&|x| x <= 0.0);
        let m_med = median(&|x| t.mixture_value(x, t.gauss_value(x, false), false) <= 0.5);
        t.gauss.resize(from, f64::NAN);
        t.mixture.resize(from, f64::NAN);
        // Block by block, in separate passes (evaluations of one function in a row run fastest):
        // the points, N(0, σ²)'s tails, the mixture's.
        let mut xs = [0.0; 512];
        for lo in (from..m).step_by(xs.len()) {
            let hi = (lo + xs.len()).min(m);
            let xs = &mut xs[..hi - lo];
            for (k, x) in (lo..hi).zip(xs.iter_mut()) {
                *x = t.x(first + k as i64);
            }
            for (k, &x) in (lo..hi).zip(xs.iter()) {
                let upper = k >= g_med;
                let g = t.gauss_value(x, upper);
                t.gauss.push(GaussianTable::keep(g, upper));
            }
            for (k, &x) in (lo..hi).zip(xs.iter()) {
                let (g_upper, upper) = (k >= g_med, k >= m_med);
                let a = if upper == g_upper {
                    t.gauss[k].abs()
                } else {
                    t.gauss_value(x, upper)
                };
                let v = t.mixture_value(x, a, upper);
                t.mixture.push(GaussianTable::keep(v, upper));
            }
        }
        t
    }

    /// x_j (for j ≥ start).
    #[inline]
    pub(super) fn x(&self, j: i64) -> f64 {
        self.s2 * mixture_exponent_ln(j as f64 * self.step, self.q, self.ln_q) + 0.5
    }

    /// The value of tail `upper` if the table keeps it as `v`.
    #[inline]
    pub(super) fn kept(v: f64, upper: bool) -> Option<f64> {
        (!v.is_nan() && v.is_sign_negative() == upper).then_some(v.abs())
    }

    /// How the table keeps the value v of tail `upper`.
    #[inline]
    pub(super) fn keep(v: f64, upper: bool) -> f64 {
        if upper {
            -v
        } else {
            v
        }
    }

    /// N(0, σ²)'s tail at x: Φ(x/σ) (lower) or Φ(−x/σ) (upper).
    #[inline]
    pub(super) fn gauss_value(&self, x: f64, upper: bool) -> f64 {
        normal_cdf(if upper {
            -x / self.sigma
        } else {
            x / self.sigma
        })
    }

    /// The mixture's tail at x given N(0, σ²)'s, a: (1 − q)a + qΦ((x − 1)/σ) (lower) or
    /// (1 − q)a + qΦ((1 − x)/σ) (upper).
    #[inline]
    pub(super) fn mixture_value(&self, x: f64, a: f64, upper: bool) -> f64 {
        let b = normal_cdf(if upper {
            (1.0 - x) / self.sigma
        } else {
            (x - 1.0) / self.sigma
        });
        (1.0 - self.q) * a + self.q * b
    }

    /// `gauss_value` at point k, kept.
    #[inline]
    pub(super) fn gauss_at(&mut self, k: usize, x: f64, upper: bool) -> f64 {
        let v = self.gauss_value(x, upper);
        self.gauss[k] = GaussianTable::keep(v, upper);
        v
    }

    /// The mixture's tail at point k (k ≥ start − first), kept, with N(0, σ²)'s.
    pub(super) fn mixture_at(&mut self, k: usize, upper: bool) -> f64 {
        if let Some(v) = GaussianTable::kept(self.mixture[k], upper) {
            return v;
        }
        let x = self.x(self.first + k as i64);
        let a = match GaussianTable::kept(self.gauss[k], upper) {
            Some(a) => a,
            None => self.gauss_at(k, x, upper),
        };
        let v = self.mixture_value(x, a, upper);
        self.mixture[k] = GaussianTable::keep(v, upper);
        v
    }

    /// N(0, σ²)'s tail at x_j: Φ(x_j/σ) (lower) or Φ(−x_j/σ) (upper).
    #[inline]
    pub(super) fn gauss(&mut self, j: i64, upper: bool) -> f64 {
        if j < self.start {
            return if upper { 1.0 } else { 0.0 };
        }
        let k = (j - self.first) as usize;
        match GaussianTable::kept(self.gauss[k], upper) {
            Some(v) => v,
            None => self.gauss_at(k, self.x(j), upper),
        }
    }

    /// The mixture's tail at x_j: (1 − q)Φ(x_j/σ) + qΦ((x_j − 1)/σ) (lower) or
    /// (1 − q)Φ(−x_j/σ) + qΦ((1 − x_j)/σ) (upper).
    #[inline]
    pub(super) fn mixture(&mut self, j: i64, upper: bool) -> f64 {
        if j < self.start {
            return if upper { 1.0 } else { 0.0 };
        }
        self.mixture_at((j - self.first) as usize, upper)
    }
}

/// E_P[L] of the two directions of the Poisson-subsampled Gaussian (their KL divergences), with
/// an error bound: trapezoidal rule in t = x/σ on [−40, 40 + 1/σ] (exponentially convergent for
/// these analytic integrands; step min(1/8, σ/8) keeps the nearest complex singularity of
/// log(1 − q + q e^{…}), at distance ≥ πσ/2, many steps away), checked against the rule with twice
/// the step: the error returned is 10 times their difference plus 1e-15.
pub(super) fn gaussian_loss_means(sigma: f64, q: f64) -> [(f64, f64); 2] {
    let loss = |x: f64| ln_1p(q * exp_m1((2.0 * x - 1.0) / (2.0 * sigma * sigma)));
    let phi = |t: f64| exp(-0.5 * t * t) / (2.0 * std::f64::consts::PI).sqrt();
    let rule = |h: f64| -> (f64, f64) {
        let (lo, hi) = (-40.0, 40.0 + 1.0 / sigma);
        let n = ((hi - lo) / h).ceil() as usize;
        let (mut r, mut a) = (0.0, 0.0);
        for i in 0..=n {
            let t = lo + i as f64 * h;
            let l = loss(sigma * t);
            r += ((1.0 - q) * phi(t) + q * phi(t - 1.0 / sigma)) * l;
            a -= phi(t) * l;
        }
        (r * h, a * h)
    };
    let h = (sigma / 8.0).min(0.125);
    let (r1, a1) = rule(h);
    let (r2, a2) = rule(2.0 * h);
    [
        (r1, 10.0 * (r1 - r2).abs() + 1e-15),
        (a1, 10.0 * (a1 - a2).abs() + 1e-15),
    ]
}

/// PLDs of the Poisson-subsampled Gaussian mechanism (sensitivity 1, noise σ, rate q), add/remove,
/// both directions.
///
/// Remove: P = (1 − q)N(0, σ²) + qN(1, σ²), Q = N(0, σ²); L(x) = log(1 − q + q e^{(2x − 1)/(2σ²)})
/// is increasing in x, so P(L ≤ l) = (1 − q)Φ(x_l/σ) + qΦ((x_l − 1)/σ) with
/// x_l = σ² log((e^l − 1 + q)/q) + ½. Add: P = N(0, σ²), Q the mixture, L = −(the same log), so
/// P(L ≤ l) = 1 − Φ(x_{−l}/σ). (Koskela, Jälkö & Honkela 2020; Zhu, Dong & Wang 2022.)
/// Pessimistic: δ is an upper bound; optimistic: a lower bound.
///
/// Both directions' laws (under P and under Q) are tails of the same two distributions, N(0, σ²)
/// and the mixture: the remove direction's at the grid point l = i·h at x_l, the add direction's
/// at x_{−l}, where the remove direction's are at its grid point of index −i. So x_l and each tail
/// value needed, Φ(±x_l/σ) and Φ(±(x_l − 1)/σ), are computed once per grid point and shared by the
/// four laws (a table of them; the same expressions, so the same masses bit for bit as
/// evaluating each law on its own).
pub fn poisson_gaussian(
    sigma: f64,
    q: f64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    check_sigma(sigma)?;
    check_rate(q)?;
    let s2 = sigma * sigma;
    let means = match estimate {
        Estimate::Optimistic => gaussian_loss_means(sigma, q),
        Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
    };
    let ln_q = ln(q);
    let x_of = |v: f64| s2 * mixture_exponent_ln(v, q, ln_q) + 0.5;
    let floor = ln_1p(-q); // the smallest loss of the remove direction (−∞ when q = 1)
                           // The laws as functions of the loss, for the grids' ranges and their tails; the masses come
                           // from the shared table below (the same values).
    let cdf_r = |l: f64| {
        if l <= floor {
            return 0.0;
        }
        let x = x_of(l);
        (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma)
    };
    let sur_r = |l: f64| {
        if l <= floor {
            return 1.0;
        }
        let x = x_of(l);
        (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma)
    };
    // Under Q = N(0, σ²).
    let qcdf_r = |l: f64| {
        if l <= floor {
            0.0
        } else {
            normal_cdf(x_of(l) / sigma)
        }
    };
    let qsur_r = |l: f64| {
        if l <= floor {
            1.0
        } else {
            normal_cdf(-x_of(l) / sigma)
        }
    };
    let remove_law = LossLaw {
        cdf: &cdf_r,
        survival: &sur_r,
        q_cdf: &qcdf_r,
        q_survival: &qsur_r,
        lo: floor,
        hi: f64::INFINITY,
        mean: means[0].0,
        mean_error: means[0].1,
    };
    let cdf_a = |l: f64| {
        if -l <= floor {
            return 1.0;
        }
        normal_cdf(-x_of(-l) / sigma)
    };
    let sur_a = |l: f64| {
        if -l <= floor {
            return 0.0;
        }
        normal_cdf(x_of(-l) / sigma)
    };
    // Under Q = the mixture: Q(L ≤ l) = Q(X ≥ x_{−l}).
    let qcdf_a = |l: f64| {
        if -l <= floor {
            return 1.0;
        }
        let x = x_of(-l);
        (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma)
    };
    let qsur_a = |l: f64| {
        if -l <= floor {
            return 0.0;
        }
        let x = x_of(-l);
        (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma)
    };
    let add_law = LossLaw {
        cdf: &cdf_a,
        survival: &sur_a,
        q_cdf: &qcdf_a,
        q_survival: &qsur_a,
        lo: f64::NEG_INFINITY,
        hi: -floor,
        mean: means[1].0,
        mean_error: means[1].1,
    };
    gaussian_pair(sigma, q, step, estimate, floor, [&remove_law, &add_law])
}

/// σ of the Gaussian noise: an error unless it is a positive finite number.
fn check_sigma(sigma: f64) -> Result<(), MathError> {
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    Ok(())
}

/// The pair of [`poisson_gaussian`] from its two laws (remove, add; floor = log(1 − q)): both
/// directions' grids, the shared [`GaussianTable`] over their indices, and each direction's masses
/// read from it.
fn gaussian_pair(
    sigma: f64,
    q: f64,
    step: f64,
    estimate: Estimate,
    floor: f64,
    [remove_law, add_law]: [&LossLaw; 2],
) -> Result<PldPair, MathError> {
    let r_grid @ (r_bottom, r_n) = Pld::grid(remove_law, step)?;
    let a_grid @ (a_bottom, a_n) = Pld::grid(add_law, step)?;
    // The table covers the remove grid's indices i and the add grid's −i.
    let first = r_bottom.min(-(a_bottom + a_n as i64 - 1));
    let last = (r_bottom + r_n as i64 - 1).max(-a_bottom);
    let mut table = GaussianTable::new(sigma, q, step, first, last, floor);
    // Remove: P is the mixture and Q = N(0, σ²), at x_i. Add: P = N(0, σ²) and Q the mixture, with
    // L ≤ l ⇔ X ≥ x_{−l}, so their distribution functions are the upper tails at x_{−i}.
    let remove_p = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.mixture(i, false),
        sur: |t: &mut GaussianTable, i: i64| t.mixture(i, true),
    };
    let remove_q = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.gauss(i, false),
        sur: |t: &mut GaussianTable, i: i64| t.gauss(i, true),
    };
    let add_p = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.gauss(-i, true),
        sur: |t: &mut GaussianTable, i: i64| t.gauss(-i, false),
    };
    let add_q = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.mixture(-i, true),
        sur: |t: &mut GaussianTable, i: i64| t.mixture(-i, false),
    };
    let remove = Pld::from_grid(
        remove_law, step, estimate, r_grid, &mut table, &remove_p, &remove_q,
    );
    let add = Pld::from_grid(add_law, step, estimate, a_grid, &mut table, &add_p, &add_q);
    Ok(PldPair { remove, add })
}

/// E_P[L] of the two directions of the Poisson-subsampled Laplace mechanism, with an error bound:
/// the atoms at x ≤ 0 and x ≥ 1 exactly, the middle ∫₀¹ by Simpson's rule with 8192 intervals,
/// checked against 4096 (error returned: 10 times the difference plus 1e-15).
pub(super) fn laplace_loss_means(b: f64, q: f64) -> [(f64, f64); 2] {
    let loss = |x: f64| ln_1p(q * exp_m1((2.0 * x - 1.0) / b));
    let p0 = |x: f64| exp(-x / b) / (2.0 * b);
    let p1 = |x: f64| exp(-(1.0 - x) / b) / (2.0 * b);
    let simpson = |n: usize, f: &dyn Fn(f64) -> f64| -> f64 {
        let h = 1.0 / n as f64;
        let mut acc = f(0.0) + f(1.0);
        for i in 1..n {
            acc += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        acc * h / 3.0
    };
    let e = exp(-1.0 / b);
    let (l_min, l_max) = (loss(0.0), loss(1.0));
    let remove_mid = |x: f64| loss(x) * ((1.0 - q) * p0(x) + q * p1(x));
    let add_mid = |x: f64| -loss(x) * p0(x);
    let remove_atoms =
        l_min * ((1.0 - q) * 0.5 + q * 0.5 * e) + l_max * ((1.0 - q) * 0.5 * e + q * 0.5);
    let add_atoms = -(l_min * 0.5 + l_max * 0.5 * e);
    let (r1, r2) = (simpson(8192, &remove_mid), simpson(4096, &remove_mid));
    let (a1, a2) = (simpson(8192, &add_mid), simpson(4096, &add_mid));
    [
        (remove_atoms + r1, 10.0 * (r1 - r2).abs() + 1e-15),
        (add_atoms + a1, 10.0 * (a1 - a2).abs() + 1e-15),
    ]
}

/// PLD of k-ary randomized response with parameter ε (k = 2: binary), changing one person's
/// value: loss +ε with probability e^ε/(e^ε + k − 1), −ε with 1/(e^ε + k − 1), 0 with the rest.
/// Symmetric, so both directions are the same. With a grid step dividing ε the discretisation is
/// exact, and composition matches the binomial computation.
pub fn randomized_response(
    epsilon: f64,
    k: u64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    crate::check_epsilon("ε", epsilon)?;
    if k < 2 {
        return Err(MathError::OutOfDomain {
            name: "k",
            value: k as f64,
            expected: "at least 2",
        });
    }
    let den = exp(epsilon) + (k - 1) as f64;
    let p = exp(epsilon) / den;
    let r = 1.0 / den;
    let atoms = [(epsilon, p), (-epsilon, r), (0.0, (k - 2) as f64 * r)];
    let pld = Pld::from_atoms(&atoms, step, estimate);
    Ok(PldPair {
        remove: pld.clone(),
        add: pld,
    })
}
