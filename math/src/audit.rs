//! What a privacy audit can prove: the ε lower bounds that membership guesses certify.
//!
//! **One run** (Steinke, Nasr & Jagielski, "Privacy auditing with one (1) training run", NeurIPS
//! 2023, arXiv 2305.08846). m canaries, each put in the training set independently with
//! probability ½; the auditor guesses in or out for r of them (abstaining on the rest) and v of
//! the guesses are right. If the training is (ε, δ)-DP (add/remove one canary), their main
//! theorem bounds the chance of v or more right guesses by
//! p(ε, δ) = P[B ≥ v] + 2mδ·max_{1 ≤ i ≤ v} P[v − i ≤ B < v]/i, with B ~ Binomial(r, e^ε/(1 + e^ε))
//! (at δ = 0 the number right is dominated by B: each guess is no better than randomized
//! response with parameter ε). An observed v with p(ε, δ) < 1 − c rejects (ε, δ)-DP at
//! confidence c; the certified lower bound is the largest ε so rejected. The δ term matters: it
//! grows with m, and a port that drops it certifies more than the theorem allows.
//!
//! **Many runs** (the classic audit: Jagielski, Ullman & Oprea 2020; Nasr et al. 2021). From
//! counts of false positives and false negatives over many runs with and without the canary,
//! one-sided Clopper–Pearson upper bounds FPR⁺ and FNR⁺ give ε ≥ ln((1 − δ − FNR⁺)/FPR⁺) (and the
//! same with the two rates swapped), since every (ε, δ)-DP test has FNR ≥ 1 − δ − e^ε·FPR. Trying
//! several thresholds and keeping the best spends the confidence on each: the bounds here use
//! confidence 1 − (1 − c)/(2·thresholds) per rate (Bonferroni), so the chosen pair holds at c.
//!
//! All values here are lower bounds on the true ε, holding with the stated confidence.

use crate::special::{exp, exp_m1, ln, ln_1p_exp, ln_binomial_pmf, log_add_exp};
use crate::MathError;

/// ln P[B = k] for B ~ Binomial(r, q) with ln q = `lq`, ln(1 − q) = `l1q` (every k in 0..=r).
fn ln_pmf(k: u64, r: u64, q: f64, lq: f64, l1q: f64) -> f64 {
    if k == 0 {
        r as f64 * l1q
    } else if k == r {
        r as f64 * lq
    } else {
        ln_binomial_pmf(k as f64, r as f64, q)
    }
}

/// The one-run audit's p-value bound p(ε, δ) (module notes): an upper bound on the chance that an
/// (ε, δ)-DP training lets r guesses on m canaries be right v or more times. Where v is at most
/// ⌊r·q⌋ (a median of B, so P[B ≥ v] ≥ ½) it is 1. Otherwise both sums run over the terms that
/// matter and bound the rest from above (so the result stays an upper bound): the upper tail
/// from v until a term is below 1e-18 of the sum (the terms fall from there on: the rest is at
/// most that term times their number); the running average P[v − i ≤ B < v]/i from the last j
/// below v with P[B = j] ≥ e^{−80} (the terms above it, each smaller, are added as their number
/// times the largest), down past the mode until a term is below the average (each further term
/// is smaller still, so the average only falls).
pub fn one_run_p_value(m: u64, r: u64, v: u64, epsilon: f64, delta: f64) -> Result<f64, MathError> {
    check_counts(m, r, v)?;
    crate::check_epsilon("ε", epsilon)?;
    crate::check_delta("δ", delta)?;
    // q = e^ε/(1 + e^ε): ln q = −ln(1 + e^{−ε}), ln(1 − q) = −ln(1 + e^ε).
    let (lq, l1q) = (-ln_1p_exp(-epsilon), -ln_1p_exp(epsilon));
    let q = exp(lq);
    if (v as f64) <= (r as f64 * q).floor() {
        return Ok(1.0);
    }
    let pmf = |k: u64| ln_pmf(k, r, q, lq, l1q);
    let mut tail = f64::NEG_INFINITY;
    for k in v..=r {
        let t = pmf(k);
        tail = log_add_exp(tail, t);
        if t < tail - 41.4 {
            tail = log_add_exp(tail, t + ln((r - k) as f64 + 1.0));
            break;
        }
    }
    let mut p = exp(tail);
    if delta > 0.0 {
        p += 2.0 * m as f64 * delta * average_below(v, r as f64 * q, &pmf);
    }
    Ok(p.min(1.0))
}

/// max over 1 ≤ i ≤ v of P[v − i ≤ B < v]/i, from above (see [`one_run_p_value`]), for v above
/// the mode; `pmf(j)` = ln P[B = j].
fn average_below(v: u64, mode: f64, pmf: &dyn Fn(u64) -> f64) -> f64 {
    // The terms rise from v − 1 down to the mode: the first j (from the top) where ln P ≥ −80.
    let floor = mode.floor().max(0.0) as u64;
    let (mut lo, mut hi) = (floor.min(v - 1), v - 1);
    if pmf(hi) < -80.0 {
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if pmf(mid) >= -80.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
    } else {
        lo = hi;
    }
    let start = lo;
    let skipped = (v - 1 - start) as f64;
    let mut sum = if skipped > 0.0 {
        skipped * exp(pmf(start + 1))
    } else {
        0.0
    };
    let mut best = sum;
    let mut j = start;
    loop {
        let i = (v - j) as f64;
        let t = exp(pmf(j));
        sum += t;
        best = best.max(sum / i);
        if ((j as f64) < mode && t <= sum / i) || j == 0 {
            break;
        }
        j -= 1;
    }
    best
}

fn check_counts(m: u64, r: u64, v: u64) -> Result<(), MathError> {
    if !(v <= r && r <= m && m >= 1) {
        return Err(MathError::Inconsistent {
            reason: format!(
                "an audit needs right guesses ≤ guesses ≤ canaries, at least one canary (got v = {v}, r = {r}, m = {m})"
            ),
        });
    }
    Ok(())
}

fn check_confidence(confidence: f64) -> Result<(), MathError> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(MathError::OutOfDomain {
            name: "confidence",
            value: confidence,
            expected: "strictly between 0 and 1",
        });
    }
    Ok(())
}

/// The ε lower bound a one-run audit certifies at confidence c from v right guesses out of r on
/// m canaries: the first ε at which p(ε, δ) reaches 1 − c ([`one_run_p_value`]), found on a grid
/// of relative step 0.5% and then by bisection within the last step (the value returned always
/// rejects). The first crossing, not any rejected ε: p need not rise with ε where the δ term
/// acts, and only the first crossing keeps the search's choice from cherry-picking. 0 when even
/// ε = 0 is not rejected; at most 100.
pub fn one_run_epsilon(
    m: u64,
    r: u64,
    v: u64,
    delta: f64,
    confidence: f64,
) -> Result<f64, MathError> {
    check_confidence(confidence)?;
    let level = 1.0 - confidence;
    let rejects = |e: f64| one_run_p_value(m, r, v, e, delta).map(|p| p < level);
    if !rejects(0.0)? {
        return Ok(0.0);
    }
    let mut lo = 0.0;
    let hi = loop {
        let next = lo + 0.005 * (lo + 0.2);
        if next > 100.0 {
            return Ok(lo);
        }
        if !rejects(next)? {
            break next;
        }
        lo = next;
    };
    last_rejected(lo, hi, &rejects)
}

/// Bisection between an ε that is rejected (`lo`) and one that is not (`hi`) to 1e-9 relative:
/// the last rejected ε found (always rejected).
fn last_rejected(
    mut lo: f64,
    mut hi: f64,
    rejects: &dyn Fn(f64) -> Result<bool, MathError>,
) -> Result<f64, MathError> {
    while hi - lo > 1e-9 * hi.max(1.0) {
        let mid = 0.5 * (lo + hi);
        if rejects(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// At δ = 0 and all r guesses right, the one-run bound in closed form: p = q^r < 1 − c exactly
/// when ε < −ln(e^{a} − 1) with a = −ln(1 − c)/r; it depends on r and c alone (not on m). Exact.
pub fn perfect_guesses_epsilon(r: u64, confidence: f64) -> Result<f64, MathError> {
    check_confidence(confidence)?;
    if r == 0 {
        return Ok(0.0);
    }
    let a = -ln(1.0 - confidence) / r as f64;
    Ok((-ln(exp_m1(a))).max(0.0))
}

/// The fewest guesses r, on `canaries` m ≥ r canaries, with a share `accuracy` of them right
/// (rounded down), that certify ε ≥ `target` at confidence c ([`one_run_epsilon`]); `None` when
/// no r up to m does (the accuracy must exceed e^ε/(1 + e^ε) at the target for any r to).
pub fn guesses_needed(
    target: f64,
    accuracy: f64,
    canaries: u64,
    delta: f64,
    confidence: f64,
) -> Result<Option<u64>, MathError> {
    crate::check_epsilon("target ε", target)?;
    crate::check_probability("accuracy", accuracy)?;
    let certifies = |r: u64| {
        let v = (accuracy * r as f64).floor() as u64;
        one_run_epsilon(canaries, r, v, delta, confidence).map(|e| e >= target)
    };
    if canaries == 0 || !certifies(canaries)? {
        return Ok(None);
    }
    // The certified ε grows with r at a fixed accuracy (up to the rounding of v): bisection for
    // the first r that certifies, then a walk down over the rounding's steps.
    let (mut lo, mut hi) = (0u64, canaries);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if certifies(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// The ε an ideal attacker's one-run audit would typically certify when each canary's guess is a
/// test against a trade-off curve: guess "in" when a canary's score is high (members reach that
/// region with probability `tpr`, non-members with `fpr`), "out" when it is low (the same rates,
/// by symmetry), abstain otherwise. Out of m canaries that is r = m(tpr + fpr) guesses on average
/// with v = m·tpr right; the one-run bound at those counts (rounded down), by bisection: an
/// estimate of what such an audit certifies, not itself a certificate.
pub fn typical_one_run_epsilon(
    m: u64,
    tpr: f64,
    fpr: f64,
    delta: f64,
    confidence: f64,
) -> Result<f64, MathError> {
    crate::check_probability("TPR", tpr)?;
    crate::check_probability("FPR", fpr)?;
    check_confidence(confidence)?;
    let r = ((m as f64) * (tpr + fpr)).floor().min(m as f64) as u64;
    let v = ((m as f64) * tpr).floor().min(r as f64) as u64;
    // An estimate, so a bisection (the largest rejected ε where p rises with ε) will do.
    let level = 1.0 - confidence;
    let rejects = |e: f64| one_run_p_value(m, r, v, e, delta).map(|p| p < level);
    if !rejects(0.0)? {
        return Ok(0.0);
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while rejects(hi)? {
        lo = hi;
        hi *= 2.0;
        if hi > 100.0 {
            return Ok(lo);
        }
    }
    last_rejected(lo, hi, &rejects)
}

/// One-sided Clopper–Pearson upper bound on a rate from k events in n trials at confidence c:
/// the p with P[Binomial(n, p) ≤ k] = 1 − c (1 when k = n), by bisection to 1e-12. Exact up to
/// the bisection (the bound is conservative: the returned p has that tail at most 1 − c).
pub fn clopper_pearson_upper(k: u64, n: u64, confidence: f64) -> Result<f64, MathError> {
    check_confidence(confidence)?;
    if k > n || n == 0 {
        return Err(MathError::Inconsistent {
            reason: format!("a rate needs events ≤ trials and at least one trial (got {k} of {n})"),
        });
    }
    if k == n {
        return Ok(1.0);
    }
    let level = 1.0 - confidence;
    let cdf = |p: f64| -> f64 {
        let (lq, l1q) = (ln(p), ln(1.0 - p));
        let mut s = f64::NEG_INFINITY;
        for j in 0..=k {
            s = log_add_exp(s, ln_pmf(j, n, p, lq, l1q));
        }
        exp(s)
    };
    let (mut lo, mut hi) = (k as f64 / n as f64, 1.0);
    while hi - lo > 1e-12 {
        let mid = 0.5 * (lo + hi);
        // The tail P[B ≤ k] falls as p grows.
        if cdf(mid) > level {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(hi)
}

/// The ε lower bound of a many-run audit at confidence c from false positives among the runs
/// without the canary and false negatives among those with it, when the threshold was the best of
/// `thresholds` tried (module notes): max over the two orders of ln((1 − δ − FNR⁺)/FPR⁺), at
/// least 0.
pub fn many_run_epsilon(
    false_positives: u64,
    runs_without: u64,
    false_negatives: u64,
    runs_with: u64,
    thresholds: u64,
    delta: f64,
    confidence: f64,
) -> Result<f64, MathError> {
    check_confidence(confidence)?;
    crate::check_delta("δ", delta)?;
    let each = 1.0 - (1.0 - confidence) / (2.0 * thresholds.max(1) as f64);
    let fpr = clopper_pearson_upper(false_positives, runs_without, each)?;
    let fnr = clopper_pearson_upper(false_negatives, runs_with, each)?;
    let one = |a: f64, b: f64| {
        let num = 1.0 - delta - a;
        if num > 0.0 && b > 0.0 {
            ln(num / b)
        } else {
            0.0
        }
    };
    Ok(one(fnr, fpr).max(one(fpr, fnr)).max(0.0))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std's functions as an independent check
mod tests {
    use super::*;

    #[test]
    fn perfect_guesses_match_the_closed_form_and_ignore_m_at_delta_zero() {
        for r in [1u64, 10, 100, 1000, 100_000] {
            let closed = perfect_guesses_epsilon(r, 0.95).unwrap();
            for m in [r, 10 * r, 1_000_000] {
                let e = one_run_epsilon(m, r, r, 0.0, 0.95).unwrap();
                assert!(
                    (e - closed).abs() < 1e-8 * closed.max(1.0),
                    "r = {r}, m = {m}: {e} vs {closed}"
                );
            }
            // q^r at the closed form is 0.05.
            let q = 1.0 / (1.0 + (-closed).exp());
            if closed > 0.0 {
                assert!((q.powi(r as i32) - 0.05).abs() < 1e-9, "r = {r}");
            }
        }
        // Three right guesses cannot reject anything at 95%: 1/8 > 0.05.
        assert_eq!(perfect_guesses_epsilon(3, 0.95).unwrap(), 0.0);
    }

    /// The δ term lowers what the audit certifies, the more the more canaries; dropping it would
    /// certify more (the check a port without it fails).
    #[test]
    fn the_delta_term_costs_certified_epsilon() {
        let no_delta = one_run_epsilon(1_000_000, 1000, 1000, 0.0, 0.95).unwrap();
        let with = one_run_epsilon(1_000_000, 1000, 1000, 1e-5, 0.95).unwrap();
        assert!(with < no_delta - 0.5, "{with} vs {no_delta}");
        let fewer = one_run_epsilon(1000, 1000, 1000, 1e-5, 0.95).unwrap();
        assert!(fewer > with && fewer < no_delta, "{fewer}");
    }

    #[test]
    fn the_p_value_is_a_tail_and_grows_with_epsilon() {
        // v = r/2 right at ε = 0: P[Bin(r, ½) ≥ r/2] > ½.
        assert!(one_run_p_value(100, 100, 50, 0.0, 0.0).unwrap() > 0.5);
        let mut last = 0.0;
        for e in [0.0, 0.5, 1.0, 2.0, 4.0] {
            let p = one_run_p_value(1000, 500, 400, e, 1e-6).unwrap();
            assert!(p >= last, "{e}: {p} < {last}");
            last = p;
        }
        // Direct sum at small r.
        let (r, v, e) = (20u64, 15u64, 0.7f64);
        let q = 1.0 / (1.0 + (-e).exp());
        let pmf = |k: u64| {
            let c: f64 = (1..=k).map(|i| (r - k + i) as f64 / i as f64).product();
            c * q.powi(k as i32) * (1.0 - q).powi((r - k) as i32)
        };
        let tail: f64 = (v..=r).map(pmf).sum();
        let alpha = (1..=v)
            .map(|i| (v - i..v).map(pmf).sum::<f64>() / i as f64)
            .fold(0.0, f64::max);
        let ours = one_run_p_value(50, r, v, e, 1e-3).unwrap();
        let direct = tail + 2.0 * 50.0 * 1e-3 * alpha;
        assert!(
            ((ours - direct) / direct).abs() < 1e-12,
            "{ours} vs {direct}"
        );
    }

    #[test]
    fn guesses_needed_inverts_the_bound() {
        let r = guesses_needed(2.0, 1.0, 10_000, 0.0, 0.95)
            .unwrap()
            .unwrap();
        assert!(one_run_epsilon(10_000, r, r, 0.0, 0.95).unwrap() >= 2.0);
        assert!(one_run_epsilon(10_000, r - 1, r - 1, 0.0, 0.95).unwrap() < 2.0);
        // Guesses right 80% of the time never certify ε = 2 (e²/(1 + e²) ≈ 0.88).
        assert_eq!(
            guesses_needed(2.0, 0.8, 1_000_000, 0.0, 0.95).unwrap(),
            None
        );
    }

    #[test]
    fn clopper_pearson_bounds_hold_their_tail() {
        // 0 of n: the bound is 1 − (1 − c)^{1/n}.
        let u = clopper_pearson_upper(0, 100, 0.95).unwrap();
        assert!((u - (1.0 - 0.05f64.powf(0.01))).abs() < 1e-10, "{u}");
        // 30 of 100: the 95% quantile of Beta(31, 70), 0.38422061279420 (mpmath, betainc's root).
        let u = clopper_pearson_upper(30, 100, 0.95).unwrap();
        assert!((u - 0.384_220_612_794_2).abs() < 1e-10, "{u}");
        // Many runs: 1 false positive in 1,000 and 100 false negatives in 1,000.
        let one = many_run_epsilon(1, 1000, 100, 1000, 1, 0.0, 0.95).unwrap();
        let tried = many_run_epsilon(1, 1000, 100, 1000, 100, 0.0, 0.95).unwrap();
        assert!(one > 4.0 && tried < one, "{one} {tried}");
    }
}
