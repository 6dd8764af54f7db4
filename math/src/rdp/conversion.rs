//! RDP → (ε, δ) conversion (classic and improved), at one order and minimised over the orders of a
//! curve, with the search for the optimal order between the grid's orders.

use super::{guarantee_is_exact, Curve, Term};
use crate::root::golden_section_min;
use crate::special::{exp, ln, ln_1p, log10, powi};
use crate::MathError;

/// RDP → (ε, δ) conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// ε = ε(α) + log(1/δ)/(α − 1); δ = e^{(α−1)(ε(α) − ε)} (Mironov 2017, Prop. 3; the slides).
    Classic,
    /// ε = ε(α) + log((α−1)/α) − (log δ + log α)/(α − 1);
    /// δ = e^{(α−1)(ε(α) − ε)}·(1 − 1/α)^α/(α − 1)
    /// (Canonne, Kamath & Steinke 2020, arXiv 2004.00010, Prop. 12). Never worse than classic.
    Improved,
}

impl Conversion {
    /// Machine name: `classic`, `improved`.
    pub fn id(self) -> &'static str {
        match self {
            Conversion::Classic => "classic",
            Conversion::Improved => "improved",
        }
    }
}

/// ε at one order for a target δ ∈ (0, 1), clamped at 0. Upper bound on the true ε (the
/// conversions are sufficient conditions).
pub fn epsilon_at_order(rdp: f64, alpha: f64, delta: f64, conversion: Conversion) -> f64 {
    epsilon_at_order_unclamped(rdp, alpha, delta, conversion).max(0.0)
}

/// [`epsilon_at_order`] before the clamp at 0: what the search between orders minimises, so a
/// plateau at the clamp cannot mislead it.
fn epsilon_at_order_unclamped(rdp: f64, alpha: f64, delta: f64, conversion: Conversion) -> f64 {
    let a1 = alpha - 1.0;
    match conversion {
        Conversion::Classic => rdp - ln(delta) / a1,
        Conversion::Improved => rdp + ln_1p(-1.0 / alpha) - (ln(delta) + ln(alpha)) / a1,
    }
}

/// log δ at one order for a target ε ≥ 0, at most 0 (δ ≤ 1).
pub fn ln_delta_at_order(rdp: f64, alpha: f64, epsilon: f64, conversion: Conversion) -> f64 {
    ln_delta_at_order_unclamped(rdp, alpha, epsilon, conversion).min(0.0)
}

/// [`ln_delta_at_order`] before the clamp at 0 (δ = 1). The search between orders minimises this:
/// where the curve blows up past the best order (Poisson-subsampled Gaussian with tiny q, whose
/// last binomial term takes over), the clamped objective is flat at 0 there and a golden-section
/// search can walk onto the plateau.
fn ln_delta_at_order_unclamped(rdp: f64, alpha: f64, epsilon: f64, conversion: Conversion) -> f64 {
    let a1 = alpha - 1.0;
    match conversion {
        Conversion::Classic => a1 * (rdp - epsilon),
        Conversion::Improved => a1 * (rdp - epsilon) + alpha * ln_1p(-1.0 / alpha) - ln(a1),
    }
}

/// The result of a conversion minimised over a grid of orders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Converted {
    /// ε (the input when converting ε → δ).
    pub epsilon: f64,
    /// δ (the input when converting δ → ε).
    pub delta: f64,
    /// The order at which the minimum is attained.
    pub order: f64,
}

fn check_curve(curve: &Curve) -> Result<(), MathError> {
    if curve.orders.is_empty() || curve.orders.len() != curve.rdp.len() {
        return Err(MathError::Inconsistent {
            reason: "an RDP curve needs as many values as orders, and at least one".into(),
        });
    }
    for (&a, &r) in curve.orders.iter().zip(&curve.rdp) {
        if !(a > 1.0 && a.is_finite()) || r.is_nan() || r < 0.0 {
            return Err(MathError::Inconsistent {
                reason: format!("bad point on the RDP curve: α = {a}, ε(α) = {r}"),
            });
        }
    }
    Ok(())
}

/// The smallest ε for a target δ ∈ (0, 1) over the orders α > 1, with its order: the grid's
/// best, refined between the grid's orders when the curve knows its terms (golden-section search,
/// then the best order at three significant digits; see `refine`), so the grid's spacing costs
/// nothing. An upper bound on the mechanism's ε at that δ. Ties go to the smaller grid order.
pub fn epsilon_for_delta(
    curve: &Curve,
    delta: f64,
    conversion: Conversion,
) -> Result<Converted, MathError> {
    check_curve(curve)?;
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 (RDP never gives δ = 0 for these mechanisms)",
        });
    }
    let mut best = Converted {
        epsilon: f64::INFINITY,
        delta,
        order: f64::NAN,
    };
    for (&a, &r) in curve.orders.iter().zip(&curve.rdp) {
        let e = epsilon_at_order(r, a, delta, conversion);
        if e < best.epsilon {
            best.epsilon = e;
            best.order = a;
        }
    }
    if !best.epsilon.is_finite() {
        return Err(MathError::NoSolution {
            reason: "ε is infinite at every order".into(),
        });
    }
    // The search minimises the unclamped value (above the clamp the grid's best is its own
    // unclamped value; a clamped 0 cannot be improved on).
    if best.epsilon > 0.0 {
        let (e, a) = refine(curve, 1.0, (best.epsilon, best.order), |r, a| {
            epsilon_at_order_unclamped(r, a, delta, conversion)
        });
        (best.epsilon, best.order) = (e.max(0.0), a);
    }
    Ok(best)
}

/// The order α rounded to three significant digits, and its two neighbours at that precision
/// (e.g. 18.7 → 18.6, 18.7, 18.8; 1.234 → 1.22, 1.23, 1.24), each the double nearest its
/// decimal.
fn three_digit_orders(alpha: f64) -> [f64; 3] {
    let e = libm::floor(log10(alpha)) as i32;
    if e >= 2 {
        let unit = powi(10.0, e - 2);
        let n = (alpha / unit).round();
        [(n - 1.0) * unit, n * unit, (n + 1.0) * unit]
    } else {
        let scale = powi(10.0, 2 - e);
        let n = (alpha * scale).round();
        [(n - 1.0) / scale, n / scale, (n + 1.0) / scale]
    }
}

/// The grid's best (value, order) of `objective(scale·ε(α), α)`, improved between the grid's
/// orders when the curve is known exactly there ([`Curve::at`] of exact terms). Inside the two grid intervals
/// around the best order: golden-section search to near the minimiser, then, from it rounded to
/// three significant digits, a walk along orders of three significant digits while the
/// objective decreases (about 30 evaluations of the curve). So the order reported has three digits and the value is the one at that
/// order; for an objective unimodal around the grid's best, no order of three significant digits
/// in that bracket does better (in particular no coarser grid's order). Never worse than the grid
/// (its best is kept when nothing beats it); an order where the curve cannot be evaluated counts
/// as +∞.
fn refine(
    curve: &Curve,
    scale: f64,
    best: (f64, f64),
    objective: impl Fn(f64, f64) -> f64,
) -> (f64, f64) {
    // Only curves known exactly between the grid's orders are searched: an upper bound
    // interpolated between whole orders gains little from it and costs much more to evaluate.
    let exact = |t: &Term| !t.upper && guarantee_is_exact(&t.mech, t.sampling);
    if curve.terms.is_empty() || !curve.terms.iter().all(exact) || !best.0.is_finite() {
        return best;
    }
    let Some(i) = curve.orders.iter().position(|&a| a == best.1) else {
        return best;
    };
    let last = curve.orders.len() - 1;
    let (lo, hi) = (
        curve.orders[i.saturating_sub(1)],
        curve.orders[(i + 1).min(last)],
    );
    if hi <= lo {
        return best;
    }
    let g = |a: f64| {
        if !(a > 1.0 && (lo..=hi).contains(&a)) {
            return f64::INFINITY;
        }
        match curve.at(a) {
            Some(Ok(r)) if r.is_finite() => objective(r * scale, a),
            _ => f64::INFINITY,
        }
    };
    // Near the minimiser first (25 golden-section steps shrink the bracket to 7e-6 of its width,
    // within a few three-digit orders even where the grid is sparse), then walk.
    let start = golden_section_min(&g, lo, hi, 25);
    let [down, mid, up] = three_digit_orders(start);
    let mut here = (g(mid), mid);
    let (below, above) = ((g(down), down), (g(up), up));
    // Walk towards the smaller neighbour while it keeps decreasing (at most across the bracket).
    let (mut next, step_up) = if above.0 < here.0 && above.0 <= below.0 {
        (above, true)
    } else if below.0 < here.0 {
        (below, false)
    } else {
        (here, true)
    };
    for _ in 0..200 {
        // (NaN never occurs: g gives +∞ where the curve has no value.)
        if next.0 >= here.0 {
            break;
        }
        here = next;
        let [d, _, u] = three_digit_orders(here.1);
        let a = if step_up { u } else { d };
        next = (g(a), a);
    }
    if here.0 < best.0 {
        here
    } else {
        best
    }
}

/// [`epsilon_for_delta`] of k·curve for each k in `steps`, on the curve's grid of orders only (no
/// search between them: this is the figures' sweep over k, which must follow a slider; the
/// numbers a page reports come from [`epsilon_for_delta`]), with the per-order terms of the
/// conversion computed once (ε_k = min_α k·ε(α) + c(α, δ)). Same values as calling
/// [`epsilon_for_delta`] on the grid-only [`Curve::sampled`] of [`Curve::times`] for each k.
pub fn epsilon_for_delta_over_steps(
    curve: &Curve,
    steps: &[f64],
    delta: f64,
    conversion: Conversion,
) -> Result<Vec<Converted>, MathError> {
    check_curve(curve)?;
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 (RDP never gives δ = 0 for these mechanisms)",
        });
    }
    // c(α) = epsilon_at_order(0, α, δ) before clamping.
    let offsets: Vec<f64> = curve
        .orders
        .iter()
        .map(|&a| {
            let a1 = a - 1.0;
            match conversion {
                Conversion::Classic => -ln(delta) / a1,
                Conversion::Improved => ln_1p(-1.0 / a) - (ln(delta) + ln(a)) / a1,
            }
        })
        .collect();
    steps
        .iter()
        .map(|&k| {
            if !(k.is_finite() && k >= 0.0) {
                return Err(MathError::OutOfDomain {
                    name: "steps",
                    value: k,
                    expected: "a finite number at least 0",
                });
            }
            let mut best = Converted {
                epsilon: f64::INFINITY,
                delta,
                order: f64::NAN,
            };
            for ((&a, &r), &c) in curve.orders.iter().zip(&curve.rdp).zip(&offsets) {
                let e = (r * k + c).max(0.0);
                if e < best.epsilon {
                    best.epsilon = e;
                    best.order = a;
                }
            }
            Ok(best)
        })
        .collect()
}

/// The smallest δ for a target ε ≥ 0 over the orders, with its order (the grid's best, refined
/// between orders as in [`epsilon_for_delta`]). An upper bound on
/// the mechanism's δ(ε); at most 1.
pub fn delta_for_epsilon(
    curve: &Curve,
    epsilon: f64,
    conversion: Conversion,
) -> Result<Converted, MathError> {
    check_curve(curve)?;
    crate::check_epsilon("ε", epsilon)?;
    // Minimised unclamped (see `ln_delta_at_order_unclamped`), clamped at δ = 1 after.
    let mut best = (f64::INFINITY, f64::NAN);
    for (&a, &r) in curve.orders.iter().zip(&curve.rdp) {
        let l = ln_delta_at_order_unclamped(r, a, epsilon, conversion);
        if l < best.0 {
            best = (l, a);
        }
    }
    if best.0 < 0.0 {
        best = refine(curve, 1.0, best, |r, a| {
            ln_delta_at_order_unclamped(r, a, epsilon, conversion)
        });
    }
    Ok(Converted {
        epsilon,
        delta: exp(best.0.min(0.0)),
        order: best.1,
    })
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use crate::rdp::{default_orders, Mechanism, Sampling};

    #[test]
    fn conversions_agree_with_their_inverses() {
        let c = Curve::of(
            &Mechanism::Gaussian { sigma: 1.0 },
            Sampling::Full,
            &default_orders(),
        )
        .unwrap();
        for conv in [Conversion::Classic, Conversion::Improved] {
            let e = epsilon_for_delta(&c, 1e-5, conv).unwrap();
            let d = delta_for_epsilon(&c, e.epsilon, conv).unwrap();
            assert!(((d.delta - 1e-5) / 1e-5).abs() < 1e-9, "{conv:?}: {d:?}");
        }
        let classic = epsilon_for_delta(&c, 1e-5, Conversion::Classic).unwrap();
        let improved = epsilon_for_delta(&c, 1e-5, Conversion::Improved).unwrap();
        assert!(improved.epsilon < classic.epsilon);
    }

    #[test]
    fn conversion_over_steps_equals_one_at_a_time() {
        let c = Curve::of(
            &Mechanism::Gaussian { sigma: 0.9 },
            Sampling::Poisson { q: 0.01 },
            &default_orders(),
        )
        .unwrap();
        let steps = [1.0, 7.0, 1e3, 1e6];
        for conv in [Conversion::Classic, Conversion::Improved] {
            let all = epsilon_for_delta_over_steps(&c, &steps, 1e-7, conv).unwrap();
            for (k, got) in steps.iter().zip(all) {
                // The sweep stays on the grid: compare with the grid-only conversion.
                let scaled = c.times(*k);
                let grid = Curve::sampled(scaled.orders, scaled.rdp);
                let one = epsilon_for_delta(&grid, 1e-7, conv).unwrap();
                assert_eq!(one.order, got.order);
                assert!(
                    (one.epsilon - got.epsilon).abs() <= 1e-13 * one.epsilon,
                    "{one:?} {got:?}"
                );
            }
        }
    }
}
