//! What a privacy guarantee means for an attacker: membership inference as a hypothesis test.
//!
//! An attacker sees the output of a mechanism run on one of two neighbouring datasets and guesses
//! which. Any guess is a test; its false-positive rate α (FPR) and true-positive rate (TPR, one
//! minus the false-negative rate β) describe it. Differential privacy is exactly a limit on the
//! pairs (α, TPR) any test can reach (Wasserman & Zhou 2010; Kairouz, Oh & Viswanath 2015): for
//! output distributions P (positive) and Q (negative), with δ(ε) = sup_S P(S) − e^ε Q(S) the
//! hockey-stick divergence,
//!
//!   TPR ≤ δ(ε) + e^ε·α for every real ε, and the optimal TPR(α) = inf_ε (δ(ε) + e^ε α)
//!
//! (the optimal trade-off curve β(α) = 1 − TPR(α) of Dong, Roth & Su 2019, "Gaussian differential
//! privacy", arXiv 1905.02383, Proposition 2.12, written through the hockey-stick profile; the
//! Neyman–Pearson lemma makes the infimum attained by a likelihood-ratio test).
//!
//! Under add/remove the two datasets may be either way round (the record in the positive or in the
//! negative one), and the accountant's δ(ε) is the larger of the two directions of its privacy loss
//! distribution: the curves here bound both, as riskcal (Kulynych et al. 2024) and dp_accounting's
//! add-or-remove PLD do.
//!
//! Everything returns TPR as a function of FPR: the view of membership-inference papers (β(α) is
//! 1 − TPR).

use crate::pld::{Band, PldPair};
use crate::special::{exp, exp_m1, ln, normal_cdf, normal_quantile};
use crate::MathError;

mod gdp;
pub use gdp::*;

/// The largest TPR at FPR α that (ε, δ)-DP allows, for a guarantee that holds both ways round:
/// min(1, δ + e^ε α, 1 − e^{−ε}(1 − δ − α)) (Kairouz, Oh & Viswanath 2015, Theorem 2.1; the
/// four-segment region of Dong, Roth & Su 2019, eq. 5). Exact: randomized response with a δ atom
/// reaches it. Any relation (the one the guarantee is stated for). α in [0, 1], ε ≥ 0, δ in [0, 1].
pub fn eps_delta_tpr(epsilon: f64, delta: f64, fpr: f64) -> Result<f64, MathError> {
    crate::check_epsilon("ε", epsilon)?;
    crate::check_probability("δ", delta)?;
    crate::check_probability("FPR", fpr)?;
    Ok(eps_delta_tpr_unchecked(epsilon, delta, fpr))
}

fn eps_delta_tpr_unchecked(epsilon: f64, delta: f64, fpr: f64) -> f64 {
    let a = delta + exp(epsilon) * fpr;
    let b = 1.0 - exp(-epsilon) * (1.0 - delta - fpr);
    a.min(b).clamp(fpr, 1.0)
}

/// The largest TPR at FPR α allowed by a family of (ε, δ(ε)) guarantees that all hold (a profile,
/// say from a Rényi curve: δ(ε) on a grid of ε ≥ 0): the least of [`eps_delta_tpr`] over the
/// points. An upper bound on any attacker (tight when the family is the whole profile of a
/// symmetric pair). Points with δ ≥ 1 or non-finite values add nothing and are skipped.
pub fn profile_tpr(points: &[(f64, f64)], fpr: f64) -> Result<f64, MathError> {
    crate::check_probability("FPR", fpr)?;
    Ok(points
        .iter()
        .filter(|(e, d)| *e >= 0.0 && e.is_finite() && (0.0..1.0).contains(d))
        .map(|&(e, d)| eps_delta_tpr_unchecked(e, d, fpr))
        .fold(1.0f64, f64::min))
}

/// μ of the Gaussian mechanism with sensitivity 1, noise σ, composed k times: μ = √k/σ. The
/// mechanism is then exactly μ-GDP (Dong, Roth & Su 2019, Theorem 2.7 and Corollary 3.3). Exact;
/// any relation for which the query has sensitivity 1.
pub fn gaussian_mu(sigma: f64, steps: u64) -> Result<f64, MathError> {
    crate::check_positive("σ", sigma)?;
    Ok((steps as f64).sqrt() / sigma)
}

/// The central-limit μ of k steps of the Poisson-subsampled Gaussian mechanism at rate q:
/// μ ≈ q·√(k(e^{1/σ²} − 1)) (Bu, Dong, Long & Su 2020, "Deep learning with Gaussian differential
/// privacy", eq. 6, from Dong, Roth & Su 2019, Theorem 5.2 / Corollary 5.4). An approximation, not
/// a bound: it holds as k → ∞ with q√k fixed, and is optimistic (too small) when q√k is large or k
/// small; the page shows it beside the certified band so the reader sees where. Add/remove.
pub fn clt_mu(q: f64, sigma: f64, steps: u64) -> Result<f64, MathError> {
    crate::check_rate("q", q)?;
    crate::check_positive("σ", sigma)?;
    Ok(q * ((steps as f64) * exp_m1(1.0 / (sigma * sigma))).sqrt())
}

/// The TPR at FPR α of μ-GDP: Φ(Φ⁻¹(α) + μ) (Dong, Roth & Su 2019, Definition 2.6: the trade-off
/// curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) is β). Exact for a Gaussian pair at distance μ.
pub fn gdp_tpr(mu: f64, fpr: f64) -> Result<f64, MathError> {
    if !(mu >= 0.0 && mu.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "μ",
            value: mu,
            expected: "a finite μ ≥ 0",
        });
    }
    crate::check_probability("FPR", fpr)?;
    if fpr == 0.0 || fpr == 1.0 {
        return Ok(fpr);
    }
    Ok(normal_cdf(normal_quantile(fpr) + mu))
}

/// The μ whose GDP curve passes through (α, TPR): Φ⁻¹(TPR) − Φ⁻¹(α), for 0 < α ≤ TPR < 1. The
/// inverse of [`gdp_tpr`] in μ.
pub fn gdp_mu_for_tpr(fpr: f64, tpr: f64) -> Result<f64, MathError> {
    if !(fpr > 0.0 && fpr <= tpr && tpr < 1.0) {
        return Err(MathError::OutOfDomain {
            name: "TPR",
            value: tpr,
            expected: "0 < FPR ≤ TPR < 1",
        });
    }
    Ok(normal_quantile(tpr) - normal_quantile(fpr))
}

/// The lower envelope min_i (a_i + b_i α) of lines with slopes b_i > 0, for α ≥ 0: the hull kept
/// in order of decreasing slope, each line with the α from which it is the least.
#[derive(Clone, Debug, PartialEq)]
struct Envelope {
    lines: Vec<(f64, f64)>,
    starts: Vec<f64>,
}

impl Envelope {
    /// From lines given in order of increasing slope (ties: any order).
    fn new(lines_by_slope: impl DoubleEndedIterator<Item = (f64, f64)>) -> Envelope {
        let mut lines: Vec<(f64, f64)> = Vec::new();
        let mut starts: Vec<f64> = Vec::new();
        'next: for (a, b) in lines_by_slope.rev() {
            if !(a.is_finite() && b.is_finite() && b > 0.0) {
                continue;
            }
            while let Some(&(la, lb)) = lines.last() {
                if b >= lb {
                    // Same slope (or out of order): keep the lower intercept.
                    if a >= la {
                        continue 'next;
                    }
                    lines.pop();
                    starts.pop();
                    continue;
                }
                // The new line (smaller slope) is the lower one from x on.
                let x = (a - la) / (lb - b);
                if x <= *starts.last().unwrap_or(&f64::NEG_INFINITY) {
                    lines.pop();
                    starts.pop();
                } else {
                    lines.push((a, b));
                    starts.push(x);
                    continue 'next;
                }
            }
            lines.push((a, b));
            starts.push(f64::NEG_INFINITY);
        }
        Envelope { lines, starts }
    }

    /// The envelope at α (+∞ if there is no line).
    fn at(&self, alpha: f64) -> f64 {
        // The last line whose start is ≤ α.
        let i = self.starts.partition_point(|&s| s <= alpha);
        if i == 0 {
            return f64::INFINITY;
        }
        let (a, b) = self.lines[i - 1];
        a + b * alpha
    }
}

/// The band of the optimal trade-off curve of a mechanism (or a whole run) between the output
/// with the record (positive: a member) and without it (negative), from its privacy loss
/// distributions: `tpr(α)` gives (upper, lower) with the optimal attacker's TPR between them.
///
/// Both directions of the PLD describe this one pair. The remove direction (P = with, Q = without)
/// gives TPR ≤ δ_r(ε) + e^ε α; the add direction (P = without, Q = with), applied to the
/// complement of the attacker's test, gives TPR ≤ 1 − e^{−ε}(1 − α − δ_a(ε)); each family alone is
/// exact over all real ε, and with discretised δ the least of both is kept.
///
/// + Upper: the least of those lines over ε on the PLD's grid, with the pessimistic δ⁺ (a
///   certified upper bound): every ε gives a bound, so no attacker's TPR at FPR α exceeds it. For
///   the discretised remove direction the infimum over all ε is reached on the grid (between grid
///   points δ⁺ is A − e^ε·B, so δ⁺ + e^ε α is linear in e^ε).
/// + Lower: for ε in [ε_i, ε_{i+1}] of the grid δ(ε) ≥ δ⁻(ε_{i+1}), e^ε ≥ e^{ε_i} and
///   e^{−ε} ≥ e^{−ε_{i+1}}, which bounds each family's infimum from below by a line per grid
///   interval (and one per end, from δ(ε) ≥ max(0, 1 − e^ε)); the larger of the two families'
///   bounds is at most the true curve, which the likelihood-ratio test reaches. Loses at most a
///   factor e^h on α.
///
/// Both are then clamped to [α, 1] (random guessing reaches TPR = α). This is the membership
/// orientation (positive = with the record), the one riskcal (Kulynych et al. 2024) computes; the
/// (ε, δ) region and the advantage are the same either way round. Add/remove. Cost: one pass over
/// the grid to build, O(log n) per α.
#[derive(Clone, Debug, PartialEq)]
pub struct Tradeoff {
    upper: [Envelope; 2],
    lower: [Envelope; 2],
    advantage: (f64, f64),
}

/// The add direction's lines are used for ε ≥ this only: below it 1 − δ_a(ε) is tiny and computed
/// as a difference, and e^{−ε} would amplify its rounding (e^{10}·1e-16 ≈ 2e-12 here).
const ADD_FLOOR: f64 = -10.0;

/// Slopes e^{±ε} overflow beyond |ε| ≈ 709; such lines only matter at α < 1e-300.
const SLOPE_CAP: f64 = 700.0;

/// The remove direction's line at ε with δ(ε) = d: TPR ≤ d + e^ε α, as (intercept, slope).
fn remove_line(e: f64, d: f64) -> (f64, f64) {
    (d, exp(e))
}

/// The add direction's line at ε with δ(ε) = d: TPR ≤ 1 − e^{−ε}(1 − δ) + e^{−ε} α.
fn add_line(e: f64, d: f64) -> (f64, f64) {
    let s = exp(-e);
    (1.0 - s * (1.0 - d.min(1.0)), s)
}

/// δ bounds of one direction on the grid: (upper, lower).
type Profile<'a> = (&'a [f64], &'a [f64]);

impl Tradeoff {
    /// From δ bounds of both directions on one ascending grid of ε (each an upper and a lower
    /// bound at every point). The grid must reach below and above the losses that matter (the
    /// PLD's support) and contain 0 for the advantage; outside it the bounds stay valid, only
    /// looser.
    pub fn from_profiles(
        epsilons: &[f64],
        remove: Profile,
        add: Profile,
    ) -> Result<Tradeoff, MathError> {
        let n = epsilons.len();
        if n == 0
            || [remove.0, remove.1, add.0, add.1]
                .iter()
                .any(|v| v.len() != n)
            || epsilons.windows(2).any(|w| w[0] >= w[1])
            || epsilons.iter().any(|e| !e.is_finite())
        {
            return Err(MathError::Inconsistent {
                reason: "a trade-off profile needs δ bounds on one ascending grid of ε".into(),
            });
        }
        let ok = |e: f64| e.abs() < SLOPE_CAP;
        // The upper envelopes: remove direction's lines δ + e^ε α, the add direction's
        // 1 − e^{−ε}(1 − δ) + e^{−ε} α, from the pessimistic δ.
        let up = Certified::new(epsilons, remove.0, add.0);
        let mut lines = Vec::with_capacity(n + 1);
        // Below the grid: δ(ε) + e^ε α ≥ 1 − e^ε(1 − α) ≥ 1 − e^{ε_0}(1 − α).
        let e0 = exp(epsilons[0].min(SLOPE_CAP));
        lines.push((1.0 - e0, e0));
        for (i, &e) in epsilons.iter().enumerate() {
            if !ok(e) {
                continue;
            }
            // ε in [ε_i, ε_{i+1}] (above the grid when i is the last: δ ≥ 0).
            let d = remove.1.get(i + 1).copied().unwrap_or(0.0);
            lines.push((d.max(0.0), exp(e)));
        }
        let rem_lo = Envelope::new(lines.into_iter());
        // Add direction: lines 1 − e^{−ε}(1 − δ) + e^{−ε} α, slopes decreasing with ε.
        let first = epsilons.partition_point(|&e| e < ADD_FLOOR);
        let grid = &epsilons[first..];
        let mut lines = Vec::with_capacity(grid.len() + 2);
        if let (Some(&lo), Some(&hi)) = (grid.first(), grid.last()) {
            // Below: 1 − e^{−ε}(1 − α − δ) ≥ e^{−ε} α ≥ e^{−ε_0} α (δ ≥ 1 − e^ε).
            lines.push((0.0, exp(-lo)));
            for i in 0..grid.len() - 1 {
                let (a, b) = (grid[i], grid[i + 1]);
                if !ok(a) || !ok(b) {
                    continue;
                }
                let d = add.1[first + i + 1].max(0.0);
                lines.push((1.0 - exp(-a) + exp(-b) * d, exp(-a)));
            }
            // Above: δ ≥ 0, so at least 1 − e^{−ε_n}(1 − α).
            let s = exp(-hi.min(SLOPE_CAP));
            lines.push((1.0 - s, s));
        }
        // Unstable is enough: the envelope keeps the lower of two lines of equal slope.
        crate::heap_sort_by(&mut lines, |x, y| x.1.total_cmp(&y.1).is_lt());
        let add_lo = Envelope::new(lines.into_iter());
        // The advantage δ(0), the same in both directions for the true pair.
        let zero = epsilons.partition_point(|&e| e < 0.0);
        let advantage = if zero < n && epsilons[zero] == 0.0 {
            (
                remove.0[zero].min(add.0[zero]).clamp(0.0, 1.0),
                remove.1[zero].max(add.1[zero]).clamp(0.0, 1.0),
            )
        } else {
            (1.0, 0.0)
        };
        Ok(Tradeoff {
            upper: [up.rem, up.add],
            lower: [rem_lo, add_lo],
            advantage,
        })
    }

    /// From δ bounds of a symmetric pair (both directions the same, as for randomized response).
    pub fn from_profile(
        epsilons: &[f64],
        upper: &[f64],
        lower: &[f64],
    ) -> Result<Tradeoff, MathError> {
        Tradeoff::from_profiles(epsilons, (upper, lower), (upper, lower))
    }

    /// From the composed PLDs of both roundings (pessimistic, optimistic) on one grid step.
    pub fn from_pairs(upper: &PldPair, lower: &PldPair) -> Result<Tradeoff, MathError> {
        let epsilons = lattice(&[upper, lower])?;
        let ru = upper.remove.delta_curve(&epsilons);
        let rl = lower.remove.delta_curve(&epsilons);
        let au = upper.add.delta_curve(&epsilons);
        let al = lower.add.delta_curve(&epsilons);
        Tradeoff::from_profiles(&epsilons, (&ru, &rl), (&au, &al))
    }

    /// From a [`Band`] (the training page's and the CLI's accountant).
    pub fn from_band(band: &Band) -> Result<Tradeoff, MathError> {
        Tradeoff::from_pairs(&band.upper, &band.lower)
    }

    /// (upper, lower) bounds on the optimal attacker's TPR at FPR α in [0, 1].
    pub fn tpr(&self, fpr: f64) -> Result<(f64, f64), MathError> {
        crate::check_probability("FPR", fpr)?;
        Ok(self.tpr_unchecked(fpr))
    }

    fn tpr_unchecked(&self, fpr: f64) -> (f64, f64) {
        let up = self.upper[0]
            .at(fpr)
            .min(self.upper[1].at(fpr))
            .clamp(fpr, 1.0);
        let lo = self.lower[0].at(fpr).max(self.lower[1].at(fpr));
        let lo = if lo.is_finite() { lo } else { 0.0 };
        (up, lo.clamp(fpr, 1.0).min(up))
    }

    /// The band at many FPRs at once (each in [0, 1]; NaN pairs for values outside).
    pub fn curve(&self, fprs: &[f64]) -> Vec<(f64, f64)> {
        fprs.iter()
            .map(|&a| {
                if (0.0..=1.0).contains(&a) {
                    self.tpr_unchecked(a)
                } else {
                    (f64::NAN, f64::NAN)
                }
            })
            .collect()
    }

    /// The advantage max over tests of TPR − FPR, which is δ(0) (the total variation distance of
    /// the pair): (upper, lower), the least upper and the largest lower bound of the two
    /// directions.
    pub fn advantage(&self) -> (f64, f64) {
        self.advantage
    }
}

/// The grid points of PLDs on one step: each PLD's support from one point below its lowest to one
/// above its highest loss, and 0 (for the advantage), merged in ascending order. Only the supports
/// are covered, not the gaps between them and 0: a composed run far from 0 (a long run without
/// sampling) would otherwise need a grid as long as its mean loss over the step. Fewer points only
/// loosen the bands (the lines left out are the ones that no α selects).
fn lattice(pairs: &[&PldPair]) -> Result<Vec<f64>, MathError> {
    let plds: Vec<&crate::pld::Pld> = pairs.iter().flat_map(|p| [&p.remove, &p.add]).collect();
    let step = plds[0].step;
    if plds.iter().any(|p| p.step != step) {
        return Err(MathError::Inconsistent {
            reason: "both roundings need the same grid step".into(),
        });
    }
    let mut ranges: Vec<(i64, i64)> = plds
        .iter()
        .map(|p| (p.offset - 1, p.offset + p.masses.len() as i64))
        .collect();
    ranges.push((0, 0));
    crate::heap_sort_by(&mut ranges, |a, b| a < b);
    let mut idx: Vec<i64> = Vec::new();
    for (lo, hi) in ranges {
        let from = idx.last().map_or(lo, |&l| lo.max(l + 1));
        idx.extend(from..=hi);
    }
    Ok(idx.into_iter().map(|i| i as f64 * step).collect())
}

/// The Bayes-optimal probability of guessing membership right from the PLDs of both roundings:
/// (upper, lower) of [`bayes_success`], with δ_r at e = log((1 − π)/π) bounded by both directions
/// (δ_r(e) = 1 − e^e + e^e δ_a(−e) for the true pair).
pub fn bayes_band(upper: &PldPair, lower: &PldPair, prior: f64) -> Result<(f64, f64), MathError> {
    // Both directions' readings of δ_r(e); the tighter one (least of two upper bounds, largest of
    // two lower bounds).
    let read = |pair: &PldPair, e: f64| {
        let through_add = 1.0 - exp(e) + exp(e) * pair.add.delta_for_epsilon(-e);
        (pair.remove.delta_for_epsilon(e), through_add)
    };
    let up = bayes_success(
        |e| {
            let (r, a) = read(upper, e);
            r.min(a)
        },
        prior,
    )?;
    let lo = bayes_success(
        |e| {
            let (r, a) = read(lower, e);
            r.max(a)
        },
        prior,
    )?;
    Ok((up, lo.min(up)))
}

/// The Bayes-optimal probability of guessing membership right, for a prior π that the record is
/// in: (1 − π) + π·δ(log((1 − π)/π)), where δ is the hockey-stick divergence at that ε (negative
/// when π > ½). This is max over tests of π·TPR + (1 − π)(1 − FPR), which by the line
/// TPR ≤ δ(ε) + e^ε α at e^ε = (1 − π)/π equals the formula (Kairouz, Oh & Viswanath 2015; the
/// Bayes-security reading of Chatzikokolakis, Cherubin, Palamidessi & Troncoso 2023). Pass the
/// upper bound on δ for a certified upper bound on the success, the lower one for a lower bound.
/// The result is at least max(π, 1 − π) (guessing the prior) and at most 1.
pub fn bayes_success(delta_at: impl Fn(f64) -> f64, prior: f64) -> Result<f64, MathError> {
    if !(prior > 0.0 && prior < 1.0) {
        return Err(MathError::OutOfDomain {
            name: "prior",
            value: prior,
            expected: "a probability strictly between 0 and 1",
        });
    }
    let e = ln(1.0 - prior) - ln(prior);
    let s = (1.0 - prior) + prior * delta_at(e);
    Ok(s.clamp(prior.max(1.0 - prior), 1.0))
}

/// The risk a calibration holds below a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RiskTarget {
    /// The attacker's TPR at the given FPR (certified upper bound) at most `tpr`.
    Tpr {
        /// The false-positive rate of interest.
        fpr: f64,
        /// The largest TPR allowed there.
        tpr: f64,
    },
    /// The advantage max(TPR − FPR) = δ(0) at most this.
    Advantage(f64),
}

impl RiskTarget {
    /// Check the target's domain: 0 < FPR < TPR < 1, or 0 < advantage < 1.
    pub fn check(self) -> Result<RiskTarget, MathError> {
        match self {
            RiskTarget::Tpr { fpr, tpr } => {
                if !(fpr > 0.0 && fpr < tpr && tpr < 1.0) {
                    return Err(MathError::OutOfDomain {
                        name: "target TPR",
                        value: tpr,
                        expected: "above the FPR and below 1 (0 < FPR < TPR < 1)",
                    });
                }
            }
            RiskTarget::Advantage(v) => {
                if !(v > 0.0 && v < 1.0) {
                    return Err(MathError::OutOfDomain {
                        name: "target advantage",
                        value: v,
                        expected: "strictly between 0 and 1",
                    });
                }
            }
        }
        Ok(self)
    }

    /// The risk of a composed pessimistic pair (a certified upper bound), in the target's terms.
    pub fn risk(self, upper: &PldPair) -> Result<f64, MathError> {
        match self {
            RiskTarget::Tpr { fpr, .. } => Ok(upper_tpr(upper, fpr)),
            RiskTarget::Advantage(_) => Ok(upper
                .remove
                .delta_for_epsilon(0.0)
                .min(upper.add.delta_for_epsilon(0.0))),
        }
    }

    /// The target value.
    pub fn value(self) -> f64 {
        match self {
            RiskTarget::Tpr { tpr, .. } => tpr,
            RiskTarget::Advantage(v) => v,
        }
    }
}

/// The certified upper bound on TPR at one FPR from a pessimistic pair alone (what calibration
/// evaluates): the least over the grid of both directions' lines (see [`Tradeoff`]), clamped to
/// [α, 1]. O(grid) with no envelope built.
pub fn upper_tpr(upper: &PldPair, fpr: f64) -> f64 {
    let Ok(epsilons) = lattice(&[upper]) else {
        return 1.0;
    };
    let rem = upper.remove.delta_curve(&epsilons);
    let add = upper.add.delta_curve(&epsilons);
    let mut best = 1.0f64;
    for ((&e, r), a) in epsilons.iter().zip(rem).zip(add) {
        if e.abs() >= SLOPE_CAP {
            continue;
        }
        let (c, b) = remove_line(e, r);
        best = best.min(c + b * fpr);
        if e >= ADD_FLOOR {
            let (c, b) = add_line(e, a);
            best = best.min(c + b * fpr);
        }
    }
    best.max(fpr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pld::{Band, Noise};

    /// A long run without sampling has its losses far from 0 (mean k/(2σ²)): the lattice covers
    /// the supports and 0, not the gap between them, and the band is still right (μ = √k/σ).
    #[test]
    fn lattice_covers_the_supports_not_the_gap_to_zero() {
        let (sigma, steps) = (4.0, 40_000u64);
        let band = Band::within(Noise::Gaussian(sigma), 1.0, steps, 4_000, 1e-6).unwrap();
        let supports: usize = [&band.upper, &band.lower]
            .iter()
            .flat_map(|p| [p.remove.masses.len(), p.add.masses.len()])
            .sum();
        let grid = lattice(&[&band.upper, &band.lower]).unwrap();
        let mean = steps as f64 / (2.0 * sigma * sigma);
        assert!(
            band.upper.remove.offset as f64 * band.step > 0.5 * mean,
            "the losses sit far from 0"
        );
        assert!(grid.len() <= supports + 9, "{} > {supports}", grid.len());
        assert!(grid.windows(2).all(|w| w[0] < w[1]) && grid.contains(&0.0));
        // μ = 50: TPR at α = 1e-3 is Φ(Φ⁻¹(1e-3) + 50) = 1 to double precision; at μ-GDP the
        // band must contain it.
        let t = Tradeoff::from_band(&band).unwrap();
        let (up, lo) = t.tpr(1e-3).unwrap();
        let exact = gdp_tpr(gaussian_mu(sigma, steps).unwrap(), 1e-3).unwrap();
        assert!(lo <= exact && exact <= up, "{lo} ≤ {exact} ≤ {up}");
        assert!(lo > 0.999_999, "{lo}");
    }
}
