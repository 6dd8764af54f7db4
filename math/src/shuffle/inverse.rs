//! The inverse: the largest local ε₀ for which a bound certifies a central target.

use super::closed::{efmrtt19_formula, fmt21_eps0_limit, fmt23_eps0_limit};
#[allow(unused_imports)]
use super::*;

/// The answer of [`largest_eps0`].
#[derive(Clone, Debug, PartialEq)]
pub struct LargestEps0 {
    /// The largest local ε₀ the bound certifies for the target central ε.
    pub eps0: f64,
    /// Set, with the reason, when something other than meeting the target exactly set `eps0`:
    /// the bound's validity box (it would allow a larger ε₀ but does not apply there), or, for
    /// the privacy blanket bounds, the ε₀ above which the bound stops amplifying altogether (its
    /// ε jumps to ε₀ there, so the bound's ε at `eps0` is below the target).
    pub limited_by_validity: Option<&'static str>,
}

/// The largest ε₀ for which `bound` (generic randomizer) gives central ε ≤ `target_eps` at (n, δ).
/// See [`largest_eps0_with`].
pub fn largest_eps0(
    bound: Bound,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<LargestEps0, MathError> {
    largest_eps0_with(bound, Randomizer::Generic, target_eps, n, delta)
}

/// The largest ε₀ for which `bound` gives central ε ≤ `target_eps` at (n, δ), replace-one.
///
/// Solved with [`brent`] on ε(ε₀) − target (every bound here is non-decreasing in ε₀; checked on
/// 20,000 random points), to 1e-14 relative for the closed forms, 1e-12 for the privacy blanket
/// and 1e-10 for the clones; the result is then moved down, if needed, until the bound meets the
/// target. Errors: [`MathError::NoSolution`] when the validity box is empty at (n, δ) (EFMRTT19
/// with n < max(1000, 144 log(1/δ)) or δ > 0.01; FMT21 with n ≤ 16 log(4/δ)), or when even the
/// smallest ε₀ in the box misses the target; the reason says which. When the target is still met
/// at the box's edge (EFMRTT19's ε₀ = ½, FMT21's log(n/(16 log(4/δ)))), that edge is returned
/// with `limited_by_validity` set; likewise where a privacy blanket bound stops amplifying. The
/// bound's ε can be very steep in ε₀ (the clones with large δ and few expected clones: a slope of
/// 2000 was seen), so ε(`eps0`) meets the target to the ε₀ tolerance, not always to 1e-6 in ε.
/// Domain: 1e-12 ≤ target ≤ 100.
pub fn largest_eps0_with(
    bound: Bound,
    randomizer: Randomizer,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<LargestEps0, MathError> {
    check_epsilon("ε", target_eps)?;
    if !(MIN_EPS0..=MAX_EPS0).contains(&target_eps) {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: target_eps,
            expected: "between 1e-12 and 100",
        });
    }
    check_users(n)?;
    check_shuffle_delta(delta)?;
    check_randomizer(randomizer)?;
    let (cap, cap_reason) = validity_cap(bound, randomizer, n, delta)?;
    let eval = |e0: f64| epsilon_of(bound, randomizer, e0, n, delta);
    // Every bound is at most ε₀, so ε₀ = min(target, cap) meets the target when it is valid.
    let lo = target_eps.min(cap) * (1.0 - 1e-12);
    let Some(at_lo) = eval(lo) else {
        return Err(MathError::NoSolution {
            reason: format!("{} gives no value at ε₀ = {lo:e}", bound.id()),
        });
    };
    if at_lo > target_eps {
        return Err(MathError::NoSolution {
            reason: format!(
                "{} misses ε = {target_eps:e} even at ε₀ = {lo:e} (it gives {at_lo:e})",
                bound.id()
            ),
        });
    }
    match eval(cap) {
        Some(v) if v <= target_eps => {
            return Ok(LargestEps0 {
                eps0: cap,
                limited_by_validity: cap_reason,
            });
        }
        _ => {}
    }
    // Above the root: f > 0. For the clone bound f compares δ at the target ε with the target δ
    // instead of solving for ε at every step (its δ at a fixed ε increases with ε₀, so the sign is
    // the same: one δ evaluation per step instead of about twelve); the others compare ε.
    let f = |e0: f64| match bound {
        Bound::Fmt21Numerical => match fmt21_numerical_delta(target_eps, e0, n) {
            Ok((_, hi)) => hi - delta,
            Err(_) => 1.0,
        },
        Bound::Fmt23Numerical => match fmt23_numerical_delta(target_eps, e0, n) {
            Ok((_, hi)) => hi - delta,
            Err(_) => 1.0,
        },
        _ => match eval(e0) {
            Some(v) => v - target_eps,
            None => 1.0,
        },
    };
    // Bracket: from lo upwards by doubling to where the bound exceeds the target (or is invalid,
    // which only happens at the cap, handled above).
    let (a, b) = bracket_above(&f, lo, cap);
    // The inner ε of the numerical bounds carries a solver error (1e-12 for the clones, 1e-13
    // for the blanket), so the outer tolerance stays above it; the closed forms go to ~1e-14.
    let rel = match bound {
        Bound::Fmt21Numerical | Bound::Fmt23Numerical => 1e-10,
        Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett => 1e-12,
        Bound::Efmrtt19 | Bound::Fmt21 | Bound::Fmt23 => 1e-14,
    };
    let tol = Tolerance {
        abs: 1e-300,
        rel,
        max_iterations: 300,
    };
    let root = brent(f, a, b, tol)?;
    let e0 = step_down_to_target(&eval, root, rel, a, target_eps);
    let limited_by_validity = match bound {
        Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett => {
            let above = shuffle_epsilon_with(bound, randomizer, e0 * (1.0 + 1e-9), n, delta)?;
            above
                .no_amplification
                .then_some("the privacy blanket bound stops amplifying above this ε₀")
        }
        _ => None,
    };
    Ok(LargestEps0 {
        eps0: e0,
        limited_by_validity,
    })
}

/// The upper end of a validity box in ε₀ and, when the bound sets it, why.
type Cap = (f64, Option<&'static str>);

/// A bound's validity box in ε₀ at (n, δ): the largest ε₀ it applies to (at most
/// [`MAX_EPS0`]) with the reason when that edge comes from the bound rather than the domain, or
/// [`MathError::NoSolution`] when the box is empty (or the bound excludes `randomizer`).
fn validity_cap(
    bound: Bound,
    randomizer: Randomizer,
    n: u64,
    delta: f64,
) -> Result<Cap, MathError> {
    Ok(match bound {
        Bound::Efmrtt19 => {
            if n < 1000 || delta > 0.01 || efmrtt19_formula(1.0, n as f64, delta) > 1.0 {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "EFMRTT19 does not apply at n = {n}, δ = {delta:e} for any ε₀ (it needs \
                         n ≥ 1000, δ ≤ 0.01 and n ≥ 144·log(1/δ))"
                    ),
                });
            }
            (0.5, Some("EFMRTT19 needs ε₀ ≤ 1/2"))
        }
        Bound::Fmt21 => {
            let lim = fmt21_eps0_limit(n, delta);
            if lim <= 0.0 {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "FMT21's closed form needs ε₀ ≤ log(n/(16·log(4/δ))), which is not \
                         positive at n = {n}, δ = {delta:e}"
                    ),
                });
            }
            (
                lim.min(MAX_EPS0),
                Some("FMT21 needs ε₀ ≤ log(n/(16·log(4/δ)))"),
            )
        }
        Bound::Fmt23 | Bound::Fmt23Numerical => {
            if let Some(why) = stronger_clones_exclude(randomizer) {
                return Err(MathError::NoSolution {
                    reason: format!("{} {why}", bound.id()),
                });
            }
            if bound == Bound::Fmt23 {
                let lim = fmt23_eps0_limit(n, delta);
                if lim <= 0.0 {
                    return Err(MathError::NoSolution {
                        reason: format!(
                            "FMT23's closed form needs ε₀ ≤ log((n − 1)/(8·log(4/δ)) − 1), which \
                             is not positive at n = {n}, δ = {delta:e}"
                        ),
                    });
                }
                (
                    lim.min(MAX_EPS0),
                    Some("FMT23 needs ε₀ ≤ log((n − 1)/(8·log(4/δ)) − 1)"),
                )
            } else {
                (MAX_EPS0, None)
            }
        }
        _ => (MAX_EPS0, None),
    })
}

/// The bracket of the root of `f` above `lo`: from [lo, 2·lo] upwards by doubling (capped at
/// `cap`) until f > 0 at the upper end or the cap is reached; returns (a, b), f(a) ≤ 0 for
/// a > lo.
fn bracket_above(f: &impl Fn(f64) -> f64, lo: f64, cap: f64) -> (f64, f64) {
    let mut a = lo;
    let mut b = (2.0 * lo).min(cap);
    while b < cap && f(b) <= 0.0 {
        a = b;
        b = (2.0 * b).min(cap);
    }
    (a, b)
}

/// An ε₀ at or below `root` that meets the target: `root` itself if `eval` says so, else
/// `root` minus a doubling step (from 2·`rel`·`root`, at most 40 tries, not below `a`); `a`, the
/// bracket's checked lower end, when none of them was seen to meet it.
fn step_down_to_target(
    eval: &impl Fn(f64) -> Option<f64>,
    root: f64,
    rel: f64,
    a: f64,
    target_eps: f64,
) -> f64 {
    // Stay on the side that meets the target: step down by the bracket width until it does.
    let mut e0 = root;
    let mut step = 2.0 * rel * root;
    for _ in 0..40 {
        match eval(e0) {
            Some(v) if v <= target_eps => break,
            _ => {
                e0 = (root - step).max(a);
                step *= 2.0;
            }
        }
    }
    // Never return an ε₀ that was not checked to meet the target: the bracket's lower end was.
    if !eval(e0).is_some_and(|v| v <= target_eps) {
        e0 = a;
    }
    e0
}

/// The largest ε₀ any of `bounds` certifies for central ε ≤ `target_eps` at (n, δ), with the bound
/// that gives it (each bound certifies its own answer, so the largest is a valid answer). Errors
/// with the last bound's reason when none of them has a solution.
pub fn largest_eps0_over(
    bounds: &[Bound],
    randomizer: Randomizer,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<(Bound, LargestEps0), MathError> {
    let mut best: Option<(Bound, LargestEps0)> = None;
    let mut last = MathError::NoSolution {
        reason: "no bound was given".to_string(),
    };
    for &b in bounds {
        match largest_eps0_with(b, randomizer, target_eps, n, delta) {
            Ok(l) if best.as_ref().is_none_or(|(_, w)| l.eps0 > w.eps0) => best = Some((b, l)),
            Ok(_) => {}
            Err(e) => last = e,
        }
    }
    best.ok_or(last)
}
