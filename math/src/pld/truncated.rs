//! Poisson sampling with a cap on the batch size ("truncated Poisson"): the PLD pairs of one step.
//!
//! The step: every record of a dataset of N records joins the batch independently with
//! probability q; if more than M joined, a uniformly random M of them are kept; the clipped
//! gradients (norm ≤ 1) of the kept records are summed and Gaussian noise of standard deviation σ
//! is added. Relation: add or remove one record, the dataset with the record holding N records
//! (N counts it; dp_accounting's `TruncatedSubsampledGaussianDpEvent` uses the same N).

#[allow(unused_imports)]
use super::*;
use crate::special::{ln_binomial_pmf, normal_cdf};

/// The probabilities that describe one truncated step for one record, with K ∼ Binomial(N − 1, q)
/// the number of other records that join the batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Truncation {
    /// t = P(K ≥ M): the others alone fill the cap, so the record, if it joins, may be dropped and
    /// displaces another if kept.
    pub truncated: f64,
    /// q′ = P(the record is kept | K ≥ M) = q·E[M/(K + 1) | K ≥ M] = (M/N)·P(Bin(N, q) ≥ M + 1)/t
    /// (the identity C(N−1, k)·M/(k + 1) = C(N, k + 1)·M/N turns the expectation into a tail).
    /// 0 when t = 0.
    pub rate_when_truncated: f64,
    /// q_eff = q(1 − t) + q′t: the probability that the record is in the step's batch.
    pub rate: f64,
    /// 1 − t = P(K < M), from log t (exact where t rounds to 1 and 1.0 − t would be 0).
    pub untruncated: f64,
}

/// [`Truncation`] of a step over N records at rate q with the cap M (N ≥ 1, M ≥ 1, 0 < q ≤ 1).
/// Exact up to rounding: the binomial tails are summed term by term in log space from Loader's
/// saddle-point form of the probabilities ([`ln_binomial_pmf`]), each to about 1e-13 relative.
pub fn truncation(n: u64, q: f64, max_batch: u64) -> Result<Truncation, MathError> {
    check_sizes(n, max_batch)?;
    crate::check_rate("q", q)?;
    let ln_t = ln_binomial_tail(n - 1, q, max_batch);
    let t = exp(ln_t);
    if t == 0.0 {
        return Ok(Truncation {
            truncated: 0.0,
            rate_when_truncated: 0.0,
            rate: q,
            untruncated: 1.0,
        });
    }
    let m = max_batch as f64;
    let ln_kept = ln(m / n as f64) + ln_binomial_tail(n, q, max_batch + 1);
    let q_cond = exp(ln_kept - ln_t).min(q);
    Ok(Truncation {
        truncated: t,
        rate_when_truncated: q_cond,
        rate: (q * (1.0 - t) + q_cond * t).min(q),
        untruncated: -exp_m1(ln_t),
    })
}

fn check_sizes(n: u64, max_batch: u64) -> Result<(), MathError> {
    if n == 0 {
        return Err(MathError::OutOfDomain {
            name: "N",
            value: 0.0,
            expected: "a dataset of at least one record",
        });
    }
    if max_batch == 0 {
        return Err(MathError::OutOfDomain {
            name: "M",
            value: 0.0,
            expected: "a maximum batch size of at least one record",
        });
    }
    Ok(())
}

/// log P(X = k), X ∼ Binomial(m, q), 0 < q ≤ 1, 0 ≤ k ≤ m (the ends in closed form).
fn ln_pmf(k: u64, m: u64, q: f64) -> f64 {
    if q == 1.0 {
        return if k == m { 0.0 } else { f64::NEG_INFINITY };
    }
    if k == 0 {
        return m as f64 * ln_1p(-q);
    }
    if k == m {
        return m as f64 * ln(q);
    }
    ln_binomial_pmf(k as f64, m as f64, q)
}

/// log P(X ≥ k₀), X ∼ Binomial(m, q), 0 < q ≤ 1: above the mode the terms from k₀ up, below it
/// 1 − (the terms from k₀ − 1 down), each summed relative to its first term (the largest) until a
/// term adds less than 1e-18 of the sum; −∞ for k₀ > m.
pub(crate) fn ln_binomial_tail(m: u64, q: f64, k0: u64) -> f64 {
    if k0 == 0 {
        return 0.0;
    }
    if k0 > m {
        return f64::NEG_INFINITY;
    }
    if q == 1.0 {
        return 0.0;
    }
    let mode = ((m as f64 + 1.0) * q).floor() as u64;
    let odds = ln(q) - ln_1p(-q);
    // Σ exp(ln P(k) − ln P(start)) over k moving away from the mode.
    let sum_from = |start: u64, up: bool| -> f64 {
        let mut k = start;
        let mut ln_term = 0.0f64;
        let mut sum = 1.0f64;
        loop {
            if up {
                if k == m {
                    break;
                }
                ln_term += ln((m - k) as f64 / (k + 1) as f64) + odds;
                k += 1;
            } else {
                if k == 0 {
                    break;
                }
                ln_term += ln(k as f64 / (m - k + 1) as f64) - odds;
                k -= 1;
            }
            let term = exp(ln_term);
            sum += term;
            if term < 1e-18 * sum {
                break;
            }
        }
        sum
    };
    if k0 > mode {
        ln_pmf(k0, m, q) + ln(sum_from(k0, true))
    } else {
        let below = exp(ln_pmf(k0 - 1, m, q)) * sum_from(k0 - 1, false);
        ln_1p(-below.min(1.0))
    }
}

/// The certified upper (pessimistic) or a lower (optimistic) pair of one truncated step.
///
/// **Upper bound** (our derivation; dp_accounting 0.6.0 follows the same split, Chua et al. 2025,
/// arXiv 2508.15089, but bounds its second branch more loosely). Reveal K to the adversary (a
/// post-processing the other way: it can only help). If K < M nothing is ever dropped and the
/// pair is the Poisson-subsampled Gaussian at rate q. If K ≥ M: without the record the batch is
/// a uniform M of the K others; with it, the record is kept with probability M/(K + 1) and then
/// replaces a uniform one of those M. Writing both batches as a uniform M − 1 of the others plus
/// one more (another record o, or the record itself) and using the joint convexity of the
/// hockey-stick divergence over (the M − 1, o), each component is ((1 − r)N(c, σ²) + rN(c + Δ, σ²),
/// N(c, σ²)) with |Δ| ≤ 2 and r = qM/(K + 1): the Poisson-subsampled Gaussian with sensitivity 2,
/// i.e. noise σ/2. The components share this worst case, so averaging over K ≥ M gives the rate
/// q′ = E[r | K ≥ M]. The step's pair is thus dominated by the mixture, with K's branch revealed,
/// (1 − t)·PoissonGaussian(σ, q) + t·PoissonGaussian(σ/2, q′), in both directions.
///
/// **Lower bound**: five datasets, each an exact pair on a line: every other gradient −c and the
/// record's +1, for c = 0, ¼, ½, ¾, 1 (shifted by cM, the output's mean is c(M − min(K, M)) without
/// the record; the record adds 1 when it joins an uncapped batch, and 1 + c when it displaces
/// another). c = 0 is the Poisson-subsampled Gaussian at rate q_eff ([`poisson_gaussian`], used
/// exactly); the others are mixtures of N(j/4, σ²), post-processed into bins of width at most
/// σ²/200 and σ/8 (fewer outcomes: still a lower bound), with components of weight below e⁻³⁰⁰ of
/// the largest left out (their effect on δ is below 1e-100·e^ε). The pair with the largest KL
/// divergence (both directions summed, ranked on bins of σ/8) is composed. When K's range below
/// the cap spans more than 20,000 values (datasets of many millions), or a dataset's fine bins
/// would take more than 3·10⁷ multiply-adds, that dataset is left out, and for σ > 16 only c = 0
/// is used (c = 0 always stays): the cost stays bounded and the result is still a lower bound.
///
/// t = 0 (M > N − 1, or a cap the others never reach in floating point) is the Poisson pair
/// itself, bit for bit.
pub fn truncated_poisson_gaussian(
    sigma: f64,
    q: f64,
    n: u64,
    max_batch: u64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    let tr = truncation(n, q, max_batch)?;
    if tr.truncated == 0.0 {
        return poisson_gaussian(sigma, q, step, estimate);
    }
    match estimate {
        Estimate::Pessimistic => {
            let plain = poisson_gaussian(sigma, q, step, estimate)?;
            let uncut = tr.untruncated;
            if tr.rate_when_truncated == 0.0 {
                // The record is never kept when the cap binds: that branch is the identity pair.
                return Ok(PldPair {
                    remove: mixture(&plain.remove, uncut, None),
                    add: mixture(&plain.add, uncut, None),
                });
            }
            let capped = poisson_gaussian(sigma / 2.0, tr.rate_when_truncated, step, estimate)?;
            Ok(PldPair {
                remove: mixture(&plain.remove, uncut, Some(&capped.remove)),
                add: mixture(&plain.add, uncut, Some(&capped.add)),
            })
        }
        Estimate::Optimistic => {
            // The datasets with c > 0 spread over K's range below the cap (about 25 standard
            // deviations): past MAX_SPREAD whole values, c = 0 alone (Poisson at the capped rate,
            // still a lower bound) keeps the cost bounded.
            let others = (n - 1) as f64;
            let sd = (others * q * (1.0 - q)).sqrt();
            let mode = ((others + 1.0) * q).floor();
            let spread = (max_batch as f64 - 1.0) - (mode - 30.0 * sd).max(0.0);
            // Noise far above the gradients (σ > 16) blurs the displacement the datasets with
            // c > 0 show, and their bins would be long: c = 0 alone there.
            if spread > MAX_SPREAD || sigma > 16.0 {
                return poisson_gaussian(sigma, tr.rate, step, estimate);
            }
            let widest = QUARTERS;
            // Rank the datasets on coarse bins (8 per σ), then bin the best one finely; a
            // dataset whose fine bins would cost more than MAX_WORK multiply-adds is left out.
            let mut best: Option<(f64, usize, LinePair)> = None;
            for quarters in 0..=widest {
                let pair = LinePair::others_at(quarters, sigma, q, n, max_batch, &tr);
                if quarters > 0 && pair.work(true) > MAX_WORK {
                    continue;
                }
                let kl = pair.bins(false).kl();
                if best.as_ref().is_none_or(|(b, _, _)| kl > *b) {
                    best = Some((kl, quarters, pair));
                }
            }
            match best {
                Some((_, quarters, pair)) if quarters > 0 => Ok(pair.bins(true).pld(step)),
                // c = 0: the Poisson pair at q_eff, exact rather than binned.
                _ => poisson_gaussian(sigma, tr.rate, step, estimate),
            }
        }
    }
}

/// w·a + (1 − w)·b on a's grid, both directions' masses, with the loss 0 for b = `None` (the
/// identity pair). Revealing which branch ran makes the mixture of the PLDs the PLD of the pair
/// (each branch keeps its own loss). Pessimistic PLDs only (the slack adds as the masses do).
///
/// A branch `a` of weight w below [`NEGLIGIBLE`] moves whole to the loss +∞ instead: a pessimistic
/// move (δ(ε) can only grow, by at most w a step, so by at most k·w < 10⁻²⁸ over k ≤ 10¹² steps),
/// which keeps a's support (σ at rate q, wide on the fine grid the capped branch asks for) from
/// stretching the grid. With the cap M = 1 of a batch of 256 (w = P(K < 1) ≈ e⁻²⁵⁶), ε against the
/// epochs took 116 s that way, the masses of a carrying 10⁻¹¹¹ of the probability.
fn mixture(a: &Pld, w: f64, b: Option<&Pld>) -> Pld {
    let (b_offset, b_masses, b_inf, b_slack) = match b {
        Some(b) => (b.offset, b.masses.clone(), b.infinity, b.slack),
        None => (0, vec![1.0], 0.0, 0.0),
    };
    // a's finite masses, or none when they move to +∞ (with their mass `moved`).
    let (a_offset, a_masses, moved) = if w < NEGLIGIBLE {
        (b_offset, &[][..], a.finite_mass())
    } else {
        (a.offset, &a.masses[..], 0.0)
    };
    let lo = a_offset.min(b_offset);
    let hi = (a_offset + a_masses.len() as i64).max(b_offset + b_masses.len() as i64);
    let mut masses = vec![0.0; (hi - lo) as usize];
    for (i, m) in a_masses.iter().enumerate() {
        masses[(a_offset - lo) as usize + i] += w * m;
    }
    for (i, m) in b_masses.iter().enumerate() {
        masses[(b_offset - lo) as usize + i] += (1.0 - w) * m;
    }
    Pld {
        step: a.step,
        offset: lo,
        masses,
        infinity: w * (moved + a.infinity) + (1.0 - w) * b_inf,
        slack: w * a.slack + (1.0 - w) * b_slack,
        estimate: a.estimate,
        drift: 0.0,
        spread: 0.0,
        fail: 0.0,
    }
}

/// The weight below which [`mixture`] moves a branch to the loss +∞ (see there).
const NEGLIGIBLE: f64 = 1e-40;

/// The most values of K below the cap the lower bound's datasets with c > 0 hold.
const MAX_SPREAD: f64 = 20_000.0;

/// The most multiply-adds the fine bins of one lower-bound dataset may take.
const MAX_WORK: f64 = 3e7;

/// Quarters per unit of the positions of a [`LinePair`] (the others' gradients are −c with c a
/// whole number of quarters).
const QUARTERS: usize = 4;

/// A pair of laws on a line, each a mixture of N(j/4, σ²) at positions j/4, j = 0, 1, …, with the
/// weights `p[j]` (with the record) and `q[j]` (without).
struct LinePair {
    sigma: f64,
    p: Vec<f64>,
    q: Vec<f64>,
}

impl LinePair {
    /// The dataset with every other gradient −c (c = `quarters`/4, 0 ≤ c ≤ 1) and the record's +1,
    /// shifted by cM so that positions are ≥ 0. K others join: without the record the mean is
    /// c(M − min(K, M)); with it, the same when the record stays out or is dropped, 1 + c(M − K)
    /// when it joins an uncapped batch (K < M), and 1 + c when it displaces another (K ≥ M,
    /// kept). c = 0 is dataset (a) (the Poisson pair at q_eff), c = 1 dataset (b).
    fn others_at(quarters: usize, sigma: f64, q: f64, n: u64, m: u64, tr: &Truncation) -> LinePair {
        let others = n - 1;
        // K's law where it matters: k from the cap down while its weight is above e^-300 of the
        // largest (or while k is above the mode). t > 0, so M − 1 ≤ N − 1.
        let mode = ((others as f64 + 1.0) * q).floor() as u64;
        let top = m - 1;
        let ln_peak = ln_pmf(top.min(mode), others, q);
        let mut weights: Vec<f64> = Vec::new(); // weights[i] = P(K = M − 1 − i)
        let mut k = top as i64;
        while k >= 0 {
            let lw = ln_pmf(k as u64, others, q);
            if lw < ln_peak - 300.0 && (k as u64) < mode {
                break;
            }
            weights.push(exp(lw));
            k -= 1;
        }
        let t = tr.truncated;
        let kept = tr.rate_when_truncated * t;
        let at = |i: usize| i * quarters; // the position c·i in quarters
        let len = at(weights.len()) + QUARTERS + quarters + 1;
        let mut p = vec![0.0; len];
        let mut qq = vec![0.0; len];
        qq[0] += t;
        p[0] += (1.0 - q) * t + (q * t - kept).max(0.0);
        p[QUARTERS + quarters] += kept;
        for (i, w) in weights.iter().enumerate() {
            // K = M − 1 − i: M − K = i + 1.
            let j = at(i + 1);
            qq[j] += w;
            p[j] += (1.0 - q) * w;
            p[j + QUARTERS] += q * w;
        }
        LinePair { sigma, p, q: qq }
    }

    /// Bins per quarter of a unit in [`LinePair::bins`]: `fine`, a shift of 2 moves the loss by at
    /// most 1/100 per bin and there are at least 8 bins per σ; else 8 per σ; 1 to 4096 per unit.
    fn per_quarter(&self, fine: bool) -> usize {
        let per_unit = if fine {
            (200.0 / (self.sigma * self.sigma)).max(8.0 / self.sigma)
        } else {
            8.0 / self.sigma
        };
        (per_unit.clamp(1.0, 4096.0) / QUARTERS as f64).ceil() as usize
    }

    /// Multiply-adds [`LinePair::bins`] would take (components with weight × kernel length).
    fn work(&self, fine: bool) -> f64 {
        let s = (self.per_quarter(fine) * QUARTERS) as f64;
        let kernel = 2.0 * (20.0 * self.sigma * s).ceil();
        let used = self
            .p
            .iter()
            .zip(&self.q)
            .filter(|(a, b)| **a != 0.0 || **b != 0.0)
            .count() as f64;
        used * kernel
    }

    /// The bin masses of both laws on bins of width 1/s over the positions ± 20σ (s a whole
    /// number of quarters; `fine`: a shift of 2 moves the loss by at most 1/100 per bin,
    /// 1/s ≤ σ²/200, and at least 8 bins per σ; else 8 bins per σ, to rank the datasets): each
    /// component's masses are one shared table of normal masses, shifted.
    fn bins(&self, fine: bool) -> Binned {
        let per_quarter = self.per_quarter(fine);
        let s = per_quarter * QUARTERS;
        let width = 1.0 / s as f64;
        let reach = (20.0 * self.sigma / width).ceil() as usize;
        // kernel[d] = mass of N(0, σ²) in [(d − reach)·w, (d − reach + 1)·w), from the smaller tail.
        let kernel: Vec<f64> = (0..2 * reach)
            .map(|d| {
                let a = (d as f64 - reach as f64) * width / self.sigma;
                let b = a + width / self.sigma;
                if a >= 0.0 {
                    normal_cdf(-a) - normal_cdf(-b)
                } else {
                    normal_cdf(b) - normal_cdf(a)
                }
            })
            .collect();
        let bins = (self.p.len() - 1) * per_quarter + 2 * reach;
        let mut bp = vec![0.0; bins];
        let mut bq = vec![0.0; bins];
        for (j, (&wp, &wq)) in self.p.iter().zip(&self.q).enumerate() {
            if wp == 0.0 && wq == 0.0 {
                continue;
            }
            let start = j * per_quarter;
            for (d, k) in kernel.iter().enumerate() {
                bp[start + d] += wp * k;
                bq[start + d] += wq * k;
            }
        }
        Binned { p: bp, q: bq }
    }
}

/// The masses of a [`LinePair`]'s two laws in the same bins.
struct Binned {
    p: Vec<f64>,
    q: Vec<f64>,
}

impl Binned {
    /// KL(P‖Q) + KL(Q‖P) of the binned laws (bins where one law has no mass count as 0: only a
    /// ranking of the two datasets).
    fn kl(&self) -> f64 {
        self.p
            .iter()
            .zip(&self.q)
            .filter(|(p, q)| **p > 0.0 && **q > 0.0)
            .map(|(p, q)| (p - q) * (ln(*p) - ln(*q)))
            .sum()
    }

    /// The optimistic PLD pair of the binned laws: the atoms are the exact law of the binned
    /// pair's loss (a post-processing of the dataset's pair), rounded down.
    fn pld(&self, step: f64) -> PldPair {
        let (bp, bq) = (&self.p, &self.q);
        let atom = |a: f64, b: f64| -> (f64, f64) {
            if b == 0.0 {
                (f64::INFINITY, a)
            } else {
                (ln(a) - ln(b), a)
            }
        };
        let remove: Vec<(f64, f64)> = bp
            .iter()
            .zip(bq)
            .filter(|(p, _)| **p > 0.0)
            .map(|(&p, &q)| atom(p, q))
            .collect();
        let add: Vec<(f64, f64)> = bq
            .iter()
            .zip(bp)
            .filter(|(q, _)| **q > 0.0)
            .map(|(&q, &p)| atom(q, p))
            .collect();
        PldPair {
            remove: trimmed_pld(remove, step),
            add: trimmed_pld(add, step),
        }
    }
}

/// The most probability [`trimmed_pld`] leaves out at each end of the loss.
const TRIM: f64 = 1e-30;

/// The optimistic PLD of loss atoms without their extreme finite losses: the atoms below a loss
/// l₋ and above a loss l₊ are left out, each side holding at most [`TRIM`] (l₋ and l₊ found by
/// bisection on the loss, the mass beyond a loss being monotone in it). Leaving mass out only lowers
/// δ(ε) (every atom adds (1 − e^{ε − l})₊ ≥ 0 times its mass), so the PLD stays a lower bound, and
/// the left-out mass is counted where the coupling bound fails (`fail`). The bins' far tails (±20σ)
/// otherwise spread the atoms over losses up to about ±200 at mass 10⁻⁸⁰: with the cap M = 1 of a
/// batch of 256, 10⁸ grid buckets where the pessimistic pair needs 300.
fn trimmed_pld(atoms: Vec<(f64, f64)>, step: f64) -> Pld {
    let finite = || atoms.iter().filter(|a| a.0.is_finite());
    let (lo, hi) = finite().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
        (lo.min(a.0), hi.max(a.0))
    });
    let above = |l: f64| -> f64 { finite().filter(|a| a.0 > l).map(|a| a.1).sum() };
    let below = |l: f64| -> f64 { finite().filter(|a| a.0 < l).map(|a| a.1).sum() };
    // The least l₊ (to bisection's precision) with at most TRIM above it, and the largest l₋.
    let bisect = |mut ok: f64, mut bad: f64, fits: &dyn Fn(f64) -> bool| {
        for _ in 0..200 {
            let mid = 0.5 * (ok + bad);
            if mid == ok || mid == bad {
                break;
            }
            if fits(mid) {
                ok = mid;
            } else {
                bad = mid;
            }
        }
        ok
    };
    if lo >= hi {
        return Pld::from_loss_atoms(&atoms, step, Estimate::Optimistic, true);
    }
    let top = if above(lo) <= TRIM {
        lo
    } else {
        bisect(hi, lo, &|l| above(l) <= TRIM)
    };
    let bottom = bisect(lo, top, &|l| below(l) <= TRIM);
    let kept: Vec<(f64, f64)> = atoms
        .iter()
        .copied()
        .filter(|a| !a.0.is_finite() || (a.0 >= bottom && a.0 <= top))
        .collect();
    let mut pld = Pld::from_loss_atoms(&kept, step, Estimate::Optimistic, true);
    pld.fail += below(bottom) + above(top);
    pld
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_at_or_above_the_dataset_is_poisson_itself() {
        for est in [Estimate::Pessimistic, Estimate::Optimistic] {
            let a = truncated_poisson_gaussian(1.0, 0.01, 1000, 1000, 1e-3, est).unwrap();
            let b = poisson_gaussian(1.0, 0.01, 1e-3, est).unwrap();
            assert_eq!(a, b);
        }
        let tr = truncation(1000, 0.01, 1000).unwrap();
        assert_eq!(tr.truncated, 0.0);
        assert_eq!(tr.rate, 0.01);
    }

    #[test]
    fn tails_sum_to_one() {
        for &(m, q, k) in &[
            (100u64, 0.3, 30u64),
            (1000, 0.01, 7),
            (60000, 256.0 / 60000.0, 300),
        ] {
            let up = exp(ln_binomial_tail(m, q, k));
            let below: f64 = (0..k).map(|j| exp(ln_pmf(j, m, q))).sum();
            assert!(
                (up + below - 1.0).abs() < 1e-12,
                "{m} {q} {k}: {up} + {below}"
            );
        }
    }

    /// Atoms with a far tail on both sides: trimming keeps δ(ε) at or below the untrimmed PLD's
    /// (a lower bound stays one), by at most the trimmed mass, and counts that mass in `fail`.
    #[test]
    fn trimming_the_far_losses_keeps_a_lower_bound() {
        let mut atoms = vec![
            (-150.0, 1e-40),
            (-90.0, 1e-33),
            (190.0, 1e-35),
            (200.0, 1e-31),
        ];
        atoms.extend((0..200).map(|i| (-1.0 + 0.01 * i as f64, 1.0 / 200.0)));
        atoms.push((f64::INFINITY, 1e-9));
        let full = Pld::from_loss_atoms(&atoms, 1e-3, Estimate::Optimistic, true);
        let trimmed = trimmed_pld(atoms.clone(), 1e-3);
        assert!(trimmed.masses.len() < 3000, "{}", trimmed.masses.len());
        assert!(full.masses.len() > 300_000);
        // 1e-40 + 1e-33 from below, 1e-31 + 1e-35 from above: the four far atoms.
        let far = 1e-40 + 1e-33 + 1e-35 + 1e-31;
        assert!((trimmed.fail - far).abs() < 1e-45, "{}", trimmed.fail);
        assert_eq!(trimmed.infinity, 1e-9);
        // Mass above TRIM is never left out.
        let mut heavy = atoms.clone();
        heavy.push((50.0, 2e-30));
        let kept = trimmed_pld(heavy, 1e-3);
        assert!(
            kept.masses.len() > 50_000 && kept.fail < 2e-30,
            "{}",
            kept.fail
        );
        for eps in [0.0, 0.3, 0.9, 150.0, 195.0] {
            let (a, b) = (trimmed.raw_delta(eps), full.raw_delta(eps));
            assert!(a <= b && b - a <= 1e-34 + 1e-31, "ε = {eps}: {a} > {b}");
        }
    }

    /// The cap M = 1 of a batch of 256: the uncapped branch (P(K < 1) ≈ e⁻²⁵⁶, 1 − t rounds to
    /// 0) goes to the loss +∞ whole, and the lower pair's far tails are trimmed, so both pairs stay
    /// short on the fine grid the capped branch asks for (10⁸ buckets before).
    #[test]
    fn a_cap_of_one_keeps_both_pairs_short() {
        let n = 60_000;
        let q = 256.0 / n as f64;
        let uncut = truncation(n, q, 1).unwrap().untruncated;
        assert!(uncut > 0.0 && uncut < 1e-100, "{uncut}");
        let up = truncated_poisson_gaussian(5.0, q, n, 1, 2e-6, Estimate::Pessimistic).unwrap();
        let lo = truncated_poisson_gaussian(5.0, q, n, 1, 2e-6, Estimate::Optimistic).unwrap();
        for (name, pld) in [
            ("upper", &up.remove),
            ("upper add", &up.add),
            ("lower", &lo.remove),
            ("lower add", &lo.add),
        ] {
            assert!(pld.masses.len() < 100_000, "{name}: {}", pld.masses.len());
        }
        let plain =
            truncated_poisson_gaussian(5.0, q, n, 300, 2e-6, Estimate::Pessimistic).unwrap();
        assert!(
            up.remove.infinity >= uncut,
            "{} {uncut}",
            up.remove.infinity
        );
        assert!(
            up.remove.infinity <= plain.remove.infinity + 1e-100,
            "{} {}",
            up.remove.infinity,
            plain.remove.infinity
        );
        for eps in [0.0, 1e-4, 1e-3] {
            assert!(lo.remove.delta_for_epsilon(eps) <= up.remove.delta_for_epsilon(eps));
        }
    }
}
