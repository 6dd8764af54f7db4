//! The PLD of a user with several records under Poisson sampling: a mixture of Gaussians.

use super::grid::{GridLaw, LossLaw};
#[allow(unused_imports)]
use super::*;
use crate::special::{ln_binomial_pmf, normal_cdf};

/// The most records per user accounted (the mixture has R + 1 components).
pub const MAX_RECORDS: u64 = 64;

/// The pair of one user with R records, each in the step's Poisson sample independently with
/// probability q, with Gaussian noise σ on the sum of clipped contributions (each of norm ≤ 1):
/// the number K of the user's records in the sample is Binomial(R, q), and the worst case puts
/// all their contributions in one direction, so (Ganesh 2024, "Tight group-level DP guarantees for
/// DP-SGD with sampling via mixture of Gaussians mechanisms"; dp_accounting's
/// `MixtureOfGaussiansDpEvent`):
///
/// - remove (the user present, then absent): P = Σₖ wₖ N(k, σ²), Q = N(0, σ²), wₖ = P(K = k);
/// - add: the same two the other way round.
///
/// The remove loss L(x) = log Σₖ wₖ e^{(2kx − k²)/(2σ²)} is a log-sum-exp of lines of slopes
/// k/σ² ≥ 0, so increasing and convex in x, from log w₀ = R·log(1 − q) at −∞. Each grid loss l is
/// mapped back to the point x_l with L(x_l) = l (safeguarded Newton's method, to a few ulp) and
/// P(L ≤ l) = Σₖ wₖ Φ((x_l − k)/σ), Q(L ≤ l) = Φ(x_l/σ), each in its accurate tail; the add
/// direction reads the same points at −l. Relation: add or remove one user (all R records).
/// Exact in law, discretised as every PLD here: pessimistic gives an upper bound on δ, optimistic
/// a lower bound. R = 1 is [`poisson_gaussian`] itself (the same bits); q = 1 is the Gaussian
/// mechanism with sensitivity R.
pub fn poisson_gaussian_group(
    sigma: f64,
    q: f64,
    records: u64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    if records == 0 || records > MAX_RECORDS {
        return Err(MathError::OutOfDomain {
            name: "R",
            value: records as f64,
            expected: "a whole number of records per user from 1 to 64",
        });
    }
    if records == 1 {
        return poisson_gaussian(sigma, q, step, estimate);
    }
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    crate::check_rate("q", q)?;
    if q == 1.0 {
        // Every record is in every sample: N(R, σ²) against N(0, σ²).
        return poisson_gaussian(sigma / records as f64, 1.0, step, estimate);
    }
    let mix = Mixture::new(sigma, q, records);
    let floor = mix.ln_w[0];
    // The means of the loss tighten the optimistic (lower) bound; the pessimistic one needs none.
    let means = match estimate {
        Estimate::Optimistic => mix.loss_means(),
        Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
    };
    // The laws as functions of the loss (for the grids' ranges and tails): each maps l to x_l.
    let x_of = |l: f64| mix.point(l, None);
    let p_low = |x: f64| mix.lower(x);
    let p_up = |x: f64| mix.upper(x);
    let cdf_r = |l: f64| if l <= floor { 0.0 } else { p_low(x_of(l)) };
    let sur_r = |l: f64| if l <= floor { 1.0 } else { p_up(x_of(l)) };
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
    // Add: P = N(0, σ²), Q the mixture; L_add = −L, so L_add ≤ l ⇔ X ≥ x_{−l}.
    let cdf_a = |l: f64| {
        if -l <= floor {
            1.0
        } else {
            normal_cdf(-x_of(-l) / sigma)
        }
    };
    let sur_a = |l: f64| {
        if -l <= floor {
            0.0
        } else {
            normal_cdf(x_of(-l) / sigma)
        }
    };
    let qcdf_a = |l: f64| if -l <= floor { 1.0 } else { p_up(x_of(-l)) };
    let qsur_a = |l: f64| if -l <= floor { 0.0 } else { p_low(x_of(-l)) };
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
    group_pair(&mix, sigma, step, estimate, [&remove_law, &add_law])
}

/// The pair of [`poisson_gaussian_group`] from its two laws (remove, add): both directions'
/// grids, the points x_j over their indices ([`Points::new`]), and each direction's masses read at
/// them.
fn group_pair(
    mix: &Mixture,
    sigma: f64,
    step: f64,
    estimate: Estimate,
    [remove_law, add_law]: [&LossLaw; 2],
) -> Result<PldPair, MathError> {
    let r_grid @ (r_bottom, r_n) = Pld::grid(remove_law, step)?;
    let a_grid @ (a_bottom, a_n) = Pld::grid(add_law, step)?;
    // x_j for every grid index j either direction needs (remove: j = i; add: j = −i).
    let first = r_bottom.min(-(a_bottom + a_n as i64 - 1));
    let last = (r_bottom + r_n as i64 - 1).max(-a_bottom);
    let mut table = Points::new(mix, first, last, step);
    let remove_p = GridLaw {
        cdf: |t: &mut Points, i: i64| t.at(i).map_or(0.0, |x| mix.lower(x)),
        sur: |t: &mut Points, i: i64| t.at(i).map_or(1.0, |x| mix.upper(x)),
    };
    let remove_q = GridLaw {
        cdf: |t: &mut Points, i: i64| t.at(i).map_or(0.0, |x| normal_cdf(x / sigma)),
        sur: |t: &mut Points, i: i64| t.at(i).map_or(1.0, |x| normal_cdf(-x / sigma)),
    };
    let add_p = GridLaw {
        cdf: |t: &mut Points, i: i64| t.at(-i).map_or(1.0, |x| normal_cdf(-x / sigma)),
        sur: |t: &mut Points, i: i64| t.at(-i).map_or(0.0, |x| normal_cdf(x / sigma)),
    };
    let add_q = GridLaw {
        cdf: |t: &mut Points, i: i64| t.at(-i).map_or(1.0, |x| mix.upper(x)),
        sur: |t: &mut Points, i: i64| t.at(-i).map_or(0.0, |x| mix.lower(x)),
    };
    let remove = Pld::from_grid(
        remove_law, step, estimate, r_grid, &mut table, &remove_p, &remove_q,
    );
    let add = Pld::from_grid(add_law, step, estimate, a_grid, &mut table, &add_p, &add_q);
    Ok(PldPair { remove, add })
}

/// x_j at the grid indices first, first + 1, … (−∞ where the loss is at or below the floor).
struct Points {
    first: i64,
    xs: Vec<f64>,
}

impl Points {
    /// x_j for j = first..=last (the loss l = j·h), found in increasing order, each from the last
    /// (a few Newton steps); −∞ where l is at or below the mixture's floor log w₀.
    fn new(mix: &Mixture, first: i64, last: i64, step: f64) -> Points {
        let floor = mix.ln_w[0];
        let mut table = Points {
            first,
            xs: Vec::with_capacity((last - first + 1).max(0) as usize),
        };
        let mut prev = None;
        for j in first..=last {
            let l = j as f64 * step;
            let x = if l <= floor {
                f64::NEG_INFINITY
            } else {
                mix.point(l, prev)
            };
            if x.is_finite() {
                prev = Some(x);
            }
            table.xs.push(x);
        }
        table
    }

    /// x_j, or None below the floor (or outside the table, which the grids never ask for).
    fn at(&self, j: i64) -> Option<f64> {
        let k = j - self.first;
        if k < 0 {
            return None;
        }
        self.xs.get(k as usize).copied().filter(|x| x.is_finite())
    }
}

/// The mixture Σₖ wₖ N(k, σ²), k = 0..=R, wₖ the Binomial(R, q) probabilities.
///
/// Sums over the components skip those that cannot change a double: a normal tail beyond 40σ is
/// exactly 0 or 1 in floating point (Φ(−40) < 10⁻³⁴⁰), so components farther than that from x enter
/// the distribution functions through prefix and suffix sums of the weights; and an exponential
/// term more than 745 below the largest adds nothing to their sum (the log-sum-exp's terms are
/// concave in k, the binomial being log-concave, so the largest is found by ternary search and the
/// kept ones are contiguous around it). Each evaluation costs O(σ) components instead of O(R).
struct Mixture {
    sigma: f64,
    /// log wₖ.
    ln_w: Vec<f64>,
    /// wₖ.
    w: Vec<f64>,
    /// Σ_{j<k} w_j, k = 0..=R + 1.
    below: Vec<f64>,
    /// Σ_{j≥k} w_j, k = 0..=R + 1 (summed from the top, so small tails keep their digits).
    above: Vec<f64>,
    /// The first and last components of non-zero weight.
    span: (usize, usize),
    /// e^{dₖ}, dₖ = log(wₖ₊₁/wₖ) − (2k + 1)/(2σ²), k = 0..R − 1, for [`Mixture::shifted_sums`];
    /// `None` when some |dₖ| ≥ 600 (a factor could leave the doubles' range there).
    steps: Option<Vec<f64>>,
}

/// The standard normal density φ(t).
fn phi(t: f64) -> f64 {
    exp(-0.5 * t * t) / (2.0 * std::f64::consts::PI).sqrt()
}

/// Components farther than this many σ from x have normal tails of exactly 0 or 1.
const REACH: f64 = 40.0;

impl Mixture {
    fn new(sigma: f64, q: f64, records: u64) -> Mixture {
        let r = records as f64;
        let ln_w: Vec<f64> = (0..=records)
            .map(|k| match k {
                0 => r * ln_1p(-q),
                k if k == records => r * ln(q),
                k => ln_binomial_pmf(k as f64, r, q),
            })
            .collect();
        // Components more than e⁻⁷⁰⁰ below the heaviest carry less than 10⁻³⁰⁰ of the mass:
        // dropped (weight 0), which moves no δ by anything a double can show.
        // (The log-weights stay whole: the loss's floor is log w₀, and the log-sum-exp skips
        // negligible terms itself.)
        let heaviest = ln_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = ln_w
            .iter()
            .map(|&a| if a < heaviest - 700.0 { 0.0 } else { exp(a) })
            .collect();
        let first = w.iter().position(|&x| x > 0.0).unwrap_or(0);
        let last = w.iter().rposition(|&x| x > 0.0).unwrap_or(0);
        let n = w.len();
        let mut below = vec![0.0; n + 1];
        for k in 0..n {
            below[k + 1] = below[k] + w[k];
        }
        let mut above = vec![0.0; n + 1];
        for k in (0..n).rev() {
            above[k] = above[k + 1] + w[k];
        }
        let s2 = sigma * sigma;
        let d: Vec<f64> = ln_w
            .windows(2)
            .enumerate()
            .map(|(k, a)| a[1] - a[0] - (2 * k + 1) as f64 / (2.0 * s2))
            .collect();
        let steps = d
            .iter()
            .all(|d| d.abs() < 600.0)
            .then(|| d.iter().map(|&d| exp(d)).collect());
        Mixture {
            sigma,
            ln_w,
            w,
            below,
            above,
            span: (first, last),
            steps,
        }
    }

    /// The components within [`REACH`]·σ of x, a..=b, clamped to those of non-zero weight
    /// (first..=last): a in first..=last + 1 and b in first − 1..=last, with a = b + 1 when there
    /// are none (every component is then below a or above b).
    fn near(&self, x: f64) -> (usize, i64) {
        // Only components of non-zero weight: the others add 0 wherever they are counted.
        let (first, last) = (self.span.0 as f64, self.span.1 as f64);
        let a = (x - REACH * self.sigma).ceil().clamp(first, last + 1.0) as usize;
        let b =
            ((x + REACH * self.sigma).floor().clamp(first - 1.0, last) as i64).max(a as i64 - 1);
        (a, b)
    }

    /// P(X ≤ x) = Σₖ wₖ Φ((x − k)/σ): the weights below the window count whole.
    fn lower(&self, x: f64) -> f64 {
        let s = self.sigma;
        let (a, b) = self.near(x);
        let mut sum = self.below[a];
        for k in a as i64..=b {
            sum += self.w[k as usize] * normal_cdf((x - k as f64) / s);
        }
        sum
    }

    /// P(X > x) = Σₖ wₖ Φ((k − x)/σ): the weights above the window count whole.
    fn upper(&self, x: f64) -> f64 {
        let s = self.sigma;
        let (a, b) = self.near(x);
        let mut sum = self.above[(b + 1) as usize];
        for k in a as i64..=b {
            sum += self.w[k as usize] * normal_cdf((k as f64 - x) / s);
        }
        sum
    }

    /// The mixture's density at x, times σ: Σₖ wₖ φ((x − k)/σ) over the components near x.
    fn density(&self, x: f64) -> f64 {
        let (a, b) = self.near(x);
        (a as i64..=b)
            .map(|k| self.w[k as usize] * phi((x - k as f64) / self.sigma))
            .sum()
    }

    /// E_P[L] of the remove and add directions (their KL divergences), each with an error bound:
    /// the trapezoidal rule in t = x/σ over [−40, 40 + R/σ] (exponentially convergent for these
    /// smooth, rapidly decaying integrands), checked against the rule with twice the step; the
    /// error returned is 10 times their difference plus 1e-15 (as for one record,
    /// `gaussian_loss_means`).
    fn loss_means(&self) -> [(f64, f64); 2] {
        let s = self.sigma;
        let r = (self.w.len() - 1) as f64;
        let a0 = self.ln_w[0];
        let rule = |h: f64| -> (f64, f64) {
            let (lo, hi) = (-40.0, 40.0 + r / s);
            let n = ((hi - lo) / h).ceil() as usize;
            let (mut rem, mut add) = (0.0, 0.0);
            for i in 0..=n {
                let t = lo + i as f64 * h;
                let l = a0 + self.excess(s * t).0;
                rem += self.density(s * t) * l;
                add -= phi(t) * l;
            }
            (rem * h, add * h)
        };
        let h = (s / 8.0).min(0.125);
        let (r1, a1) = rule(h);
        let (r2, a2) = rule(2.0 * h);
        [
            (r1, 10.0 * (r1 - r2).abs() + 1e-15),
            (a1, 10.0 * (a1 - a2).abs() + 1e-15),
        ]
    }

    /// L(x) − log w₀ = log(1 + Σ_{k≥1} e^{cₖ + kx/σ²}), cₖ = log(wₖ/w₀) − k²/(2σ²), and its
    /// derivative in x, E[K | x]/σ² (log-sum-exp over the terms within 745 of the largest, shifted
    /// by it; log1p when all terms are below 1).
    fn excess(&self, x: f64) -> (f64, f64) {
        let s2 = self.sigma * self.sigma;
        let a0 = self.ln_w[0];
        let n = self.ln_w.len() - 1;
        let term =
            |k: usize| self.ln_w[k] - a0 + (2.0 * k as f64 * x - (k * k) as f64) / (2.0 * s2);
        // The largest term over k ≥ 1 (concave in k): ternary search, then the neighbours.
        let (mut lo, mut hi) = (1usize, n);
        while hi - lo > 2 {
            let m1 = lo + (hi - lo) / 3;
            let m2 = hi - (hi - lo) / 3;
            if term(m1) < term(m2) {
                lo = m1 + 1;
            } else {
                hi = m2;
            }
        }
        let k_top = (lo..=hi)
            .max_by(|&a, &b| term(a).total_cmp(&term(b)))
            .unwrap_or(1);
        let top = term(k_top);
        let (mut first, mut last) = (k_top, k_top);
        while first > 1 && term(first - 1) >= top - 745.0 {
            first -= 1;
        }
        while last < n && term(last + 1) >= top - 745.0 {
            last += 1;
        }
        let (sum, weighted) = self.shifted_sums(x, &term, k_top, first, last);
        if top < 0.0 {
            // 1 + Σ e^{tₖ} with every tₖ < 0: log1p of the sum keeps the digits near 0.
            let scale = exp(top);
            let (sum, weighted) = (scale * sum, scale * weighted);
            (ln_1p(sum), weighted / (1.0 + sum) / s2)
        } else {
            let sum = exp(-top) + sum;
            (top + ln(sum), weighted / sum / s2)
        }
    }

    /// Σₖ e^{tₖ − t_top} and Σₖ k·e^{tₖ − t_top} over k = first..=last (tₖ = `term`(k), t_top its
    /// largest). Where the table of steps allows (see [`Mixture::steps`]), each term is the one
    /// before it times e^{dₖ}·e^{x/σ²} (tₖ₊₁ − tₖ = dₖ + x/σ²), walking out from k_top: two
    /// exponentials an evaluation instead of one a component, each term within about 2 ulp a
    /// step of its own exponential (R ≤ 64 steps: 3e-14 relative at most). Else one exponential
    /// per term.
    fn shifted_sums(
        &self,
        x: f64,
        term: &dyn Fn(usize) -> f64,
        k_top: usize,
        first: usize,
        last: usize,
    ) -> (f64, f64) {
        let (mut sum, mut weighted) = (0.0, 0.0);
        let drift = x / (self.sigma * self.sigma);
        match &self.steps {
            Some(steps) if drift.abs() < 600.0 => {
                let r = exp(drift);
                (sum, weighted) = (1.0, k_top as f64);
                // e_{k+1} = e_k·e^{d_k}·r upwards, e_k = e_{k+1}/(e^{d_k}·r) downwards.
                let mut e = 1.0;
                for (k, f) in (k_top + 1..=last).zip(&steps[k_top..last]) {
                    e *= f * r;
                    sum += e;
                    weighted += k as f64 * e;
                }
                let mut e = 1.0;
                for (k, f) in (first..k_top).rev().zip(steps[first..k_top].iter().rev()) {
                    e /= f * r;
                    sum += e;
                    weighted += k as f64 * e;
                }
            }
            _ => {
                let top = term(k_top);
                for k in first..=last {
                    let e = exp(term(k) - top);
                    sum += e;
                    weighted += k as f64 * e;
                }
            }
        }
        (sum, weighted)
    }

    /// The x with L(x) = l (l above log w₀): safeguarded Newton's method on the convex increasing
    /// L(x) − log w₀ = l − log w₀, from `guess` (the point of a nearby loss) or from the largest
    /// component's line, bracketed by doubling; to 4 ulp or 100 steps.
    fn point(&self, l: f64, guess: Option<f64>) -> f64 {
        let target = l - self.ln_w[0];
        let f = |x: f64| {
            let (e, d) = self.excess(x);
            (e - target, d)
        };
        let r = (self.ln_w.len() - 1) as f64;
        let s2 = self.sigma * self.sigma;
        // L(x) ≥ log w_R + (2Rx − R²)/(2σ²): at that line's crossing, L ≥ l.
        let start = guess.unwrap_or((l - self.ln_w[self.ln_w.len() - 1]) * s2 / r + r / 2.0);
        let (mut lo, mut hi) = (start, start);
        let mut width = 1.0_f64.max(start.abs() * 1e-3);
        while f(hi).0 < 0.0 {
            hi += width;
            width *= 2.0;
            if !hi.is_finite() {
                return f64::NAN;
            }
        }
        width = 1.0_f64.max(start.abs() * 1e-3);
        while f(lo).0 > 0.0 {
            lo -= width;
            width *= 2.0;
            if !lo.is_finite() {
                return f64::NEG_INFINITY;
            }
        }
        // Newton's method from the right of the root converges monotonically on a convex
        // increasing function; the bracket only guards against rounding.
        let mut x = hi;
        for _ in 0..100 {
            let (v, d) = f(x);
            if v == 0.0 {
                return x;
            }
            if v > 0.0 {
                hi = x;
            } else {
                lo = x;
            }
            let mut next = x - v / d;
            if !(next >= lo && next <= hi) {
                next = 0.5 * (lo + hi);
            }
            if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs().max(1e-300) {
                return next;
            }
            x = next;
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walked products of [`Mixture::shifted_sums`] against one exponential a term (the table
    /// taken away), over σ, q, R and x from far left to far right of the components.
    #[test]
    fn walked_terms_equal_one_exponential_each() {
        for &(sigma, q, r) in &[
            (100.0, 0.01, 64u64),
            (0.5, 0.3, 64),
            (2.0, 1e-4, 16),
            (5.0, 0.9, 64),
        ] {
            let walked = Mixture::new(sigma, q, r);
            assert!(walked.steps.is_some(), "σ = {sigma}");
            let mut plain = Mixture::new(sigma, q, r);
            plain.steps = None;
            for i in -40..=40 {
                let x = i as f64 * sigma.max(1.0) * 3.0;
                let (a, da) = walked.excess(x);
                let (b, db) = plain.excess(x);
                assert!(
                    (a - b).abs() <= 1e-13 * b.abs().max(1e-300),
                    "σ = {sigma}, x = {x}: {a} {b}"
                );
                assert!(
                    (da - db).abs() <= 1e-13 * db.abs().max(1e-300),
                    "σ = {sigma}, x = {x}: {da} {db}"
                );
            }
        }
        // Small noise: some |dₖ| ≥ 600, so the table is left out and every term is exponentiated.
        assert!(Mixture::new(0.02, 0.1, 64).steps.is_none());
    }

    #[test]
    fn one_record_is_the_poisson_gaussian_bit_for_bit() {
        for est in [Estimate::Pessimistic, Estimate::Optimistic] {
            let a = poisson_gaussian_group(1.1, 0.01, 1, 1e-3, est).unwrap();
            let b = poisson_gaussian(1.1, 0.01, 1e-3, est).unwrap();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn the_points_invert_the_loss() {
        let m = Mixture::new(0.8, 0.05, 4);
        let mut prev = None;
        for i in -200..400 {
            let l = m.ln_w[0] + 1e-6 + i as f64 * 0.01 + 2.0;
            let x = m.point(l, prev);
            prev = Some(x);
            let back = m.ln_w[0] + m.excess(x).0;
            assert!(
                (back - l).abs() <= 1e-13 * l.abs().max(1.0),
                "{l} {x} {back}"
            );
        }
    }

    #[test]
    fn every_record_sampled_is_the_gaussian_of_sensitivity_r() {
        let a = poisson_gaussian_group(2.0, 1.0, 4, 1e-3, Estimate::Pessimistic).unwrap();
        let b = poisson_gaussian(0.5, 1.0, 1e-3, Estimate::Pessimistic).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn the_band_holds_the_mixture_and_grows_with_the_records() {
        let mut last = 0.0;
        for r in [1, 2, 3, 5] {
            let up = poisson_gaussian_group(1.0, 0.02, r, 1e-3, Estimate::Pessimistic).unwrap();
            let lo = poisson_gaussian_group(1.0, 0.02, r, 1e-3, Estimate::Optimistic).unwrap();
            let (u, l) = (up.delta_for_epsilon(0.5), lo.delta_for_epsilon(0.5));
            assert!(l <= u && u > last, "R = {r}: [{l}, {u}] after {last}");
            last = u;
        }
    }
}
