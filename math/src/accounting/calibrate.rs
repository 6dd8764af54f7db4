//! One calibration: the noise, the number of steps or the sampling rate that meets a target, by
//! searching over "the event as a function of the unknown".

use super::{Accountant, Event};
use crate::risk::RiskTarget;
use crate::root::{brent, Tolerance};
use crate::special::{exp, ln};
use crate::MathError;

/// What a calibration holds at or below its target, read off the accountant's certified bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// ε at δ at most `epsilon`.
    Epsilon {
        /// The target ε.
        epsilon: f64,
        /// The δ it is read at, in (0, 1).
        delta: f64,
    },
    /// δ at ε at most `delta`.
    Delta {
        /// The target δ.
        delta: f64,
        /// The ε it is read at.
        epsilon: f64,
    },
    /// An attacker's success (TPR at an FPR, or the advantage) at most its target value.
    Risk(RiskTarget),
}

impl Target {
    /// The target value the measured quantity is held below.
    pub fn value(self) -> f64 {
        match self {
            Target::Epsilon { epsilon, .. } => epsilon,
            Target::Delta { delta, .. } => delta,
            Target::Risk(r) => r.value(),
        }
    }

    /// Check the target's domain.
    pub fn check(self) -> Result<Target, MathError> {
        match self {
            Target::Epsilon { epsilon, delta } => {
                crate::check_epsilon("target ε", epsilon)?;
                crate::check_delta("δ", delta)?;
            }
            Target::Delta { delta, epsilon } => {
                crate::check_delta("target δ", delta)?;
                crate::check_epsilon("ε", epsilon)?;
            }
            Target::Risk(r) => {
                r.check()?;
            }
        }
        Ok(self)
    }
}

/// How the unknown is searched for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Search {
    /// The smallest noise (σ, or b) meeting the target, the measured quantity falling as the noise
    /// grows: bracketed from 1 by halving (down to 0.2) or quadrupling (up to 10⁴), then Brent's
    /// method in log σ to accuracy `rel` in log σ (about that fraction of σ). The value returned
    /// meets the target; it exceeds the smallest such value by at most about 2·`rel`.
    /// `NoSolution` when 10⁴ is not enough, or when 0.2 already meets the target.
    Noise {
        /// Relative accuracy, clamped to [1e-9, 0.1].
        rel: f64,
    },
    /// The smallest value meeting the target, the quantity falling as the value grows, searched
    /// between `lo` and `hi` (a guess: widened to [0.1, 1,000] when it does not bracket the
    /// answer) to relative accuracy `rel`: the bracket [a value that misses, one that meets] is
    /// narrowed by false position on the log of the quantity against the log of the value
    /// (Illinois variant; a straight line for ε ∝ σ⁻ᵏ), each probe set a little past the
    /// estimate so that two probes usually close the bracket, with a bisection step (in log
    /// space) whenever a probe did not halve it. A value whose measure fails counts as missing
    /// the target (the figures' searches, which must not stop on one bad point), and its side is
    /// then bisected. Returns 0.1 when even that meets the target; `NoSolution` when 1,000 does not.
    Bracketed {
        /// Lower end of the guess.
        lo: f64,
        /// Upper end of the guess.
        hi: f64,
        /// Relative accuracy: the answer s meets the target, s/(1 + rel) may not.
        rel: f64,
    },
    /// The largest whole number (of steps, epochs) up to `limit` meeting the target, the
    /// quantity growing with it: doubling from 1, then bisection. `NoSolution` when even 1 misses
    /// the target or when `limit` still meets it.
    Count {
        /// The largest number searched.
        limit: u64,
    },
    /// The largest sampling rate in [`floor`, 1] meeting the target, the quantity growing with
    /// the rate: bisection in log rate to relative accuracy `rel`. Returns 1 when the full data
    /// meets the target; `NoSolution` when even `floor` misses it.
    Rate {
        /// The smallest rate searched, in (0, 1).
        floor: f64,
        /// Relative accuracy: the answer r meets the target, r·(1 + rel) may not.
        rel: f64,
    },
}

/// The unknown for which `measure(unknown)` meets `target` (is at most it), searched as `search`
/// says. `measure` is the certified quantity of the event built from the unknown, usually
/// `|x| accountant.measure(&event(x), target)` ([`calibrate_event`]); it must be monotone in the
/// unknown in the direction the search assumes.
pub fn calibrate(
    mut measure: impl FnMut(f64) -> Result<f64, MathError>,
    target: f64,
    search: Search,
) -> Result<f64, MathError> {
    match search {
        Search::Noise { rel } => noise(measure, target, rel),
        Search::Bracketed { lo, hi, rel } => {
            let probe = |s: f64| Probe::of(measure(s), target);
            bracketed(probe, lo, hi, rel).ok_or_else(|| MathError::NoSolution {
                reason: format!("no value between 0.1 and 1,000 meets the target {target}"),
            })
        }
        Search::Count { limit } => {
            let meets = |k: u64| -> Result<bool, MathError> { Ok(measure(k as f64)? <= target) };
            count(meets, limit).map(|k| k as f64)
        }
        Search::Rate { floor, rel } => rate(measure, target, floor, rel),
    }
}

/// [`calibrate`] of an event built from the unknown, measured by `accountant` against `target`.
pub fn calibrate_event<A: Accountant + ?Sized>(
    accountant: &A,
    event: impl Fn(f64) -> Event,
    target: Target,
    search: Search,
) -> Result<f64, MathError> {
    let target = target.check()?;
    calibrate(
        |x| accountant.measure(&event(x), target),
        target.value(),
        search,
    )
}

/// [`Search::Noise`].
fn noise(
    mut measure: impl FnMut(f64) -> Result<f64, MathError>,
    target: f64,
    rel: f64,
) -> Result<f64, MathError> {
    crate::check_epsilon("target ε", target)?;
    let rel = rel.clamp(1e-9, 0.1);
    let (min, max) = (0.2f64, 1e4f64);
    let mut lo = 1.0f64.min(max);
    let mut hi;
    if measure(lo)? <= target {
        // Walk down until the target is missed.
        hi = lo;
        loop {
            lo = (lo / 2.0).max(min);
            if measure(lo)? > target {
                break;
            }
            if lo <= min {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "σ = {min} already meets ε = {target}; smaller σ is not searched"
                    ),
                });
            }
            hi = lo;
        }
    } else {
        loop {
            hi = (lo * 4.0).min(max);
            if measure(hi)? <= target {
                break;
            }
            if hi >= max {
                return Err(MathError::NoSolution {
                    reason: format!("even σ = {max} gives more than ε = {target}"),
                });
            }
            lo = hi;
        }
    }
    let mut err = None;
    let s = brent(
        |ls| match measure(exp(ls)) {
            Ok(e) => e - target,
            Err(e) => {
                err = Some(e);
                f64::NAN
            }
        },
        ln(lo),
        ln(hi),
        Tolerance {
            abs: rel,
            rel: 0.0,
            max_iterations: 60,
        },
    );
    if let Some(e) = err {
        return Err(e);
    }
    // Brent returns a point within the tolerance of the crossing; step to the side that meets the
    // target.
    let s = exp(s?);
    let s = if measure(s)? <= target {
        s
    } else {
        s * (1.0 + 2.0 * rel)
    };
    Ok(s)
}

/// One probe of [`Search::Bracketed`]: whether the value meets the target, and
/// ln(measure) − ln(target) where both are positive and finite (for the interpolation).
#[derive(Clone, Copy)]
struct Probe {
    fits: bool,
    gap: Option<f64>,
}

impl Probe {
    fn of(measured: Result<f64, MathError>, target: f64) -> Probe {
        match measured {
            Ok(e) if e <= target => Probe {
                fits: true,
                gap: (e > 0.0 && target > 0.0 && target.is_finite()).then(|| ln(e) - ln(target)),
            },
            Ok(e) => Probe {
                fits: false,
                gap: (e.is_finite() && target > 0.0).then(|| ln(e) - ln(target)),
            },
            Err(_) => Probe {
                fits: false,
                gap: None,
            },
        }
    }
}

/// [`Search::Bracketed`]: `None` when even 1,000 misses the target. Works in x = ln(value).
fn bracketed(mut probe: impl FnMut(f64) -> Probe, lo: f64, hi: f64, rel: f64) -> Option<f64> {
    let (mut lo, mut hi) = (lo.max(0.1), hi.min(1000.0));
    let mut at_hi = probe(hi);
    if !at_hi.fits {
        (lo, hi) = (hi, 1000.0);
        at_hi = probe(hi);
        if !at_hi.fits {
            return None;
        }
    }
    let mut at_lo = probe(lo);
    if at_lo.fits {
        (lo, hi, at_hi) = (0.1, lo, at_lo);
        at_lo = probe(lo);
        if at_lo.fits {
            return Some(lo);
        }
    }
    let tol = ln(1.0 + rel.max(1e-12));
    let (mut xl, mut xh) = (ln(lo), ln(hi));
    // The gaps the interpolation uses (Illinois: an end kept twice in a row has its gap halved).
    let (mut gl, mut gh) = (at_lo.gap, at_hi.gap);
    // Some(true): the upper end was kept last time.
    let mut kept: Option<bool> = None;
    // Every second probe: when the two did not halve the bracket, the next probe bisects it.
    let (mut mark, mut probes, mut bisect) = (xh - xl, 0u32, false);
    while xh - xl > tol {
        let x = match (gl, gh) {
            (Some(a), Some(b)) if !bisect && a > 0.0 && b <= 0.0 => {
                let estimate = xl + a * (xh - xl) / (a - b);
                // Past the estimate by about half the tolerance, away from the end that moved
                // last: when the estimate is good, the root then lies between this probe and
                // that end, and the next probe, set past the next estimate the other way,
                // closes the bracket.
                let past = if kept == Some(false) { -0.45 } else { 0.45 } * tol;
                (estimate + past).clamp(xl + 0.45 * tol, xh - 0.45 * tol)
            }
            _ => 0.5 * (xl + xh),
        };
        let p = probe(exp(x));
        if p.fits {
            (xh, gh) = (x, p.gap);
            if kept == Some(false) {
                gl = gl.map(|g| 0.5 * g);
            }
            kept = Some(false);
        } else {
            (xl, gl) = (x, p.gap);
            if kept == Some(true) {
                gh = gh.map(|g| 0.5 * g);
            }
            kept = Some(true);
        }
        probes += 1;
        bisect = false;
        if probes % 2 == 0 {
            bisect = xh - xl > 0.5 * mark;
            mark = xh - xl;
        }
    }
    Some(exp(xh))
}

/// [`Search::Count`].
fn count(
    mut meets: impl FnMut(u64) -> Result<bool, MathError>,
    limit: u64,
) -> Result<u64, MathError> {
    if !meets(1)? {
        return Err(MathError::NoSolution {
            reason: "even one step gives more than the target".into(),
        });
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while meets(hi)? {
        if hi >= limit {
            return Err(MathError::NoSolution {
                reason: format!("{limit} steps still meet the target (the most searched)"),
            });
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(limit);
    }
    // meets(lo), not meets(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// [`Search::Rate`].
fn rate(
    mut measure: impl FnMut(f64) -> Result<f64, MathError>,
    target: f64,
    floor: f64,
    rel: f64,
) -> Result<f64, MathError> {
    if !(floor > 0.0 && floor < 1.0) {
        return Err(MathError::OutOfDomain {
            name: "smallest rate",
            value: floor,
            expected: "strictly between 0 and 1",
        });
    }
    let rel = rel.clamp(1e-12, 0.5);
    if measure(1.0)? <= target {
        return Ok(1.0);
    }
    if measure(floor)? > target {
        return Err(MathError::NoSolution {
            reason: format!("even the rate {floor} gives more than the target {target}"),
        });
    }
    // measure(lo) meets the target, measure(hi) does not.
    let (mut lo, mut hi) = (floor, 1.0f64);
    while hi / lo > 1.0 + rel {
        let mid = (lo * hi).sqrt();
        if measure(mid)? <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::special::{exp_m1, pow};

    #[test]
    fn each_search_finds_the_crossing_of_a_known_function() {
        // ε(σ) = 2/σ: the smallest σ with ε ≤ 0.5 is 4.
        let s = calibrate(|s| Ok(2.0 / s), 0.5, Search::Noise { rel: 1e-9 }).unwrap();
        assert!(2.0 / s <= 0.5 && (s - 4.0).abs() < 1e-7, "{s}");
        let b = calibrate(
            |s| Ok(2.0 / s),
            0.5,
            Search::Bracketed {
                lo: 1.0,
                hi: 2.0,
                rel: 1e-6,
            },
        )
        .unwrap();
        assert!(2.0 / b <= 0.5 && b < 4.0 * (1.0 + 2e-6), "{b}");
        // ε(k) = 0.01·k: the largest k with ε ≤ 1 is 100.
        let k = calibrate(
            |k| Ok(0.01 * k),
            1.0 + 1e-12,
            Search::Count { limit: 1 << 20 },
        )
        .unwrap();
        assert_eq!(k, 100.0);
        // ε(q) = 10·q: the largest rate with ε ≤ 1 is 0.1.
        let r = calibrate(
            |q| Ok(10.0 * q),
            1.0,
            Search::Rate {
                floor: 1e-6,
                rel: 1e-9,
            },
        )
        .unwrap();
        assert!(10.0 * r <= 1.0 && (r - 0.1).abs() < 1e-9, "{r}");
    }

    type Measure = dyn Fn(f64) -> Result<f64, MathError>;

    /// The bracketed search keeps its contract (the answer meets the target, the answer
    /// shrunk by the accuracy does not: so within `rel` of the smallest value) on power laws,
    /// steps, failing stretches and brackets that miss the answer, and it needs few probes where
    /// the quantity is a power of the value (the figures' ε against σ).
    #[test]
    fn the_bracketed_search_meets_its_contract_in_few_probes() {
        let cases: Vec<(&str, Box<Measure>, f64)> = vec![
            ("2/σ", Box::new(|s| Ok(2.0 / s)), 4.0),
            ("9/σ²", Box::new(|s| Ok(9.0 / (s * s))), 3.0),
            (
                "0.3/σ^0.7",
                Box::new(|s| Ok(0.3 / pow(s, 0.7))),
                pow(0.3, 1.0 / 0.7),
            ),
            (
                "e^(4/σ) − 1",
                Box::new(|s| Ok(exp_m1(4.0 / s))),
                4.0 / ln(2.0),
            ),
            (
                "a step at 3.7",
                Box::new(|s| Ok(if s < 3.7 { 5.0 } else { 0.5 })),
                3.7,
            ),
            (
                "fails below 2.5",
                Box::new(|s| {
                    if s < 2.5 {
                        Err(MathError::NotANumber { name: "x" })
                    } else {
                        Ok(1.0 / s)
                    }
                }),
                2.5,
            ),
        ];
        for (name, f, root) in &cases {
            let target = if name.starts_with("e^") {
                1.0
            } else {
                f(*root).unwrap()
            };
            for (lo, hi) in [
                (0.5, 2.0),
                (root / 2.0, root * 2.0),
                (100.0, 200.0),
                (0.1, 1000.0),
            ] {
                for rel in [0.01, 1e-4] {
                    let mut probes = 0;
                    let got = calibrate(
                        |s| {
                            probes += 1;
                            f(s)
                        },
                        target,
                        Search::Bracketed { lo, hi, rel },
                    )
                    .unwrap();
                    let meets = |s: f64| f(s).map(|e| e <= target).unwrap_or(false);
                    assert!(meets(got), "{name} [{lo}, {hi}] rel {rel}: {got} misses");
                    assert!(
                        got <= root * (1.0 + rel) * (1.0 + 1e-12) && got >= root * (1.0 - 1e-12),
                        "{name} [{lo}, {hi}] rel {rel}: {got} against {root}"
                    );
                    // Bisection in log space would take 2 + ⌈log₂(ln(hi/lo)/ln(1 + rel))⌉.
                    let bisection = 2.0 + (ln(ln(1e4) / ln(1.0 + rel)) / ln(2.0)).ceil() + 2.0;
                    assert!(
                        f64::from(probes) <= 3.0 * bisection,
                        "{name} [{lo}, {hi}] rel {rel}: {probes} probes"
                    );
                    // A power law is a straight line in log-log: two probes after the ends.
                    // (Measured: 4 or 5 for every bracket here; e^(4/σ) − 1 takes 7 to 12.)
                    if name.contains("/σ") && !name.starts_with("e^") {
                        assert!(probes <= 5, "{name} [{lo}, {hi}]: {probes} probes");
                    }
                }
            }
        }
    }

    #[test]
    fn searches_say_when_there_is_no_answer() {
        let too_small = calibrate(|_| Ok(0.0), 1.0, Search::Noise { rel: 1e-3 });
        assert!(too_small.unwrap_err().to_string().contains("already meets"));
        let too_big = calibrate(|_| Ok(10.0), 1.0, Search::Noise { rel: 1e-3 });
        assert!(too_big.unwrap_err().to_string().contains("even σ"));
        assert!(calibrate(Ok, 0.5, Search::Count { limit: 10 }).is_err());
        assert!(calibrate(|_| Ok(0.0), 0.5, Search::Count { limit: 10 }).is_err());
        assert_eq!(
            calibrate(
                |_| Ok(0.0),
                0.5,
                Search::Rate {
                    floor: 0.01,
                    rel: 0.01
                }
            )
            .unwrap(),
            1.0
        );
        assert!(calibrate(
            |_| Ok(1.0),
            0.5,
            Search::Rate {
                floor: 0.01,
                rel: 0.01
            }
        )
        .is_err());
        let none = calibrate(
            |_| Ok(10.0),
            1.0,
            Search::Bracketed {
                lo: 1.0,
                hi: 2.0,
                rel: 0.01,
            },
        );
        assert!(matches!(none, Err(MathError::NoSolution { .. })));
        // An error inside the measure stops the noise search with that error.
        let failing = calibrate(
            |_| Err(MathError::NotANumber { name: "x" }),
            1.0,
            Search::Noise { rel: 0.01 },
        );
        assert_eq!(failing, Err(MathError::NotANumber { name: "x" }));
    }
}
