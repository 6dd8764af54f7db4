//! Rényi DP accounting: subsampled curves by scheme and bound, composition, conversion to (ε, δ),
//! and the (ε, δ) composition theorems the slides of seed 003 compare RDP against.

use crate::rdp::{self, Mechanism};
use crate::root::{brent, golden_section_min, Tolerance};
use crate::special::{exp, exp_m1, ln, ln_1p, ln_normal_cdf, log10, powi};
use crate::MathError;

/// How the records reach the mechanism.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampling {
    /// Every record, every time (the base mechanism).
    Full,
    /// Poisson sampling: each record independently with probability q (add/remove).
    Poisson {
        /// q ∈ [0, 1].
        q: f64,
    },
    /// A uniformly random subset of a fixed fraction γ = m/n (replace-one).
    WithoutReplacement {
        /// γ ∈ [0, 1].
        gamma: f64,
    },
}

impl Sampling {
    /// The neighbouring relation the curves hold for.
    pub fn relation(&self) -> crate::Relation {
        match self {
            Sampling::WithoutReplacement { .. } => crate::Relation::ReplaceOne,
            _ => crate::Relation::AddRemove,
        }
    }

    /// The sampling probability (1 for [`Sampling::Full`]).
    pub fn rate(&self) -> f64 {
        match *self {
            Sampling::Full => 1.0,
            Sampling::Poisson { q } => q,
            Sampling::WithoutReplacement { gamma } => gamma,
        }
    }
}

/// Which curve of a subsampled mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The exact RDP (known for the base mechanisms and every mechanism here under Poisson
    /// sampling; not without replacement).
    Exact,
    /// A proven upper bound (Zhu & Wang for Poisson, Wang, Balle & Kasiviswanathan without
    /// replacement).
    Upper,
    /// A lower bound from a concrete pair of data sets (integer orders only).
    Lower,
}

impl Bound {
    /// Machine name: `exact`, `upper`, `lower`.
    pub fn id(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Upper => "upper",
            Bound::Lower => "lower",
        }
    }
}

/// ε(α) of `mech` under `sampling`, as the chosen `bound`.
///
/// | sampling | exact | upper | lower |
/// |---|---|---|---|
/// | full | base curve | base curve | base curve |
/// | Poisson, Gaussian | [`rdp::poisson_gaussian`] (MTZ 2019) | [`rdp::poisson_upper`] (ZW 2019) | [`rdp::wor_lower`]'s sum, integer α |
/// | Poisson, others | [`crate::poisson_rdp::poisson_exact`] (both directions) | [`rdp::poisson_upper`] | the same sum, integer α |
/// | without replacement, Gaussian | — | [`rdp::wor_upper_gaussian`] (WBK 2019, Thm. 27) | [`rdp::wor_lower`] (WBK 2019, Prop. 11), integer α |
/// | without replacement, others | — | [`rdp::wor_upper`] (WBK 2019, Thm. 9) | the same, integer α |
///
/// The lower sum Σ_j C(α,j)γ^j(1−γ)^{α−j}e^{(j−1)ε(j)} is the divergence of one concrete pair for
/// a mechanism whose worst pair attains ε(j) at every order (true of all four mechanisms here), so
/// it bounds the subsampled RDP from below under either scheme; under Poisson sampling it is the
/// remove direction of the divergence, which equals the exact value for the Gaussian (proved) and,
/// on the reference table, for the other three mechanisms. "—" is a [`MathError::NoSolution`] naming what is missing.
pub fn subsampled(
    mech: &Mechanism,
    sampling: Sampling,
    bound: Bound,
    alpha: f64,
) -> Result<f64, MathError> {
    mech.validate()?;
    let rate = sampling.rate();
    crate::check_probability("q", rate)?;
    if let Sampling::Full = sampling {
        return mech.rdp(alpha);
    }
    if bound == Bound::Lower {
        if !(alpha.fract() == 0.0 && alpha >= 2.0) {
            return Err(MathError::NoSolution {
                reason: format!(
                    "the lower bound exists at whole orders only (α = {alpha}); interpolating a lower \
                     bound would not be a bound"
                ),
            });
        }
        if alpha > rdp::MAX_ORDER {
            return Err(MathError::OutOfDomain {
                name: "α",
                value: alpha,
                expected: "above 1 and at most 10,000",
            });
        }
        return rdp::wor_lower(mech, rate, alpha as u64);
    }
    match (sampling, bound) {
        (Sampling::Poisson { q }, Bound::Exact) => match *mech {
            Mechanism::Gaussian { sigma } => rdp::poisson_gaussian(sigma, q, alpha),
            _ => crate::poisson_rdp::poisson_exact(mech, q, alpha),
        },
        (Sampling::Poisson { q }, _) => rdp::poisson_upper(mech, q, alpha),
        (Sampling::WithoutReplacement { .. }, Bound::Exact) => Err(MathError::NoSolution {
            reason: "no exact RDP is known under sampling without replacement; use the upper or \
                     lower bound"
                .into(),
        }),
        (Sampling::WithoutReplacement { gamma }, _) => match *mech {
            Mechanism::Gaussian { sigma } => rdp::wor_upper_gaussian(sigma, gamma, alpha),
            _ => rdp::wor_upper(mech, gamma, alpha),
        },
        (Sampling::Full, _) => unreachable_full(),
    }
}

fn unreachable_full() -> Result<f64, MathError> {
    Err(MathError::Inconsistent {
        reason: "internal: full sampling handled above".into(),
    })
}

/// The tightest curve that is still a guarantee: exact where known, otherwise the upper bound.
/// This is what composition and conversion use.
pub fn guarantee(mech: &Mechanism, sampling: Sampling, alpha: f64) -> Result<f64, MathError> {
    match subsampled(mech, sampling, Bound::Exact, alpha) {
        Err(MathError::NoSolution { .. }) => subsampled(mech, sampling, Bound::Upper, alpha),
        other => other,
    }
}

/// Whether [`guarantee`] is exact (true) or an upper bound (false) for this combination.
pub fn guarantee_is_exact(_mech: &Mechanism, sampling: Sampling) -> bool {
    match sampling {
        Sampling::Full => true,
        // Exact for every mechanism here: the Gaussian (Mironov, Talwar & Zhang 2019) and the
        // others from both directions of the divergence (crate::poisson_rdp).
        Sampling::Poisson { .. } => true,
        Sampling::WithoutReplacement { gamma } => gamma == 0.0,
    }
}

/// The default grid of orders for conversion: 25 orders with α − 1 log-spaced on [10⁻³, 1]
/// (many compositions of a rarely sampled mechanism have their optimum just above 1), then every
/// quarter to 12, every whole number to 64, every 8 to 256, and 320, 384, 512, 768, 1024. 154 orders.
pub fn default_orders() -> Vec<f64> {
    let mut v = Vec::with_capacity(160);
    for i in 0..25 {
        v.push(1.0 + libm::pow(10.0, -3.0 + 3.0 * i as f64 / 24.0));
    }
    // 1 + 10^0 = 2 is the last of those.
    for i in 1..=40 {
        v.push(2.0 + 0.25 * i as f64);
    }
    for a in 13..=64 {
        v.push(a as f64);
    }
    for a in (72..=256).step_by(8) {
        v.push(a as f64);
    }
    v.extend([320.0, 384.0, 512.0, 768.0, 1024.0]);
    v
}

/// One term of an RDP curve: `steps` compositions of `mech` under `sampling`, at its
/// [`guarantee`] (or, with `upper`, at the general upper bound), known at every order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// The base mechanism.
    pub mech: Mechanism,
    /// How the records reach it.
    pub sampling: Sampling,
    /// The upper bound rather than the guarantee.
    pub upper: bool,
    /// How many compositions.
    pub steps: f64,
}

impl Term {
    /// steps·ε(α) of this term.
    pub fn at(&self, alpha: f64) -> Result<f64, MathError> {
        let r = if self.upper {
            subsampled(&self.mech, self.sampling, Bound::Upper, alpha)?
        } else {
            guarantee(&self.mech, self.sampling, alpha)?
        };
        Ok(r * self.steps)
    }
}

/// An RDP curve sampled on a grid of orders, and, when it is built from mechanisms, the terms it
/// is the sum of, so that a conversion can evaluate it between the grid's orders.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Orders α > 1, increasing.
    pub orders: Vec<f64>,
    /// ε(α) at each order.
    pub rdp: Vec<f64>,
    /// What the curve is the sum of; empty when it is known on its grid only.
    pub terms: Vec<Term>,
}

impl Curve {
    /// The [`guarantee`] curve of `mech` under `sampling` on `orders`.
    pub fn of(mech: &Mechanism, sampling: Sampling, orders: &[f64]) -> Result<Curve, MathError> {
        Curve::from_term(
            Term {
                mech: *mech,
                sampling,
                upper: false,
                steps: 1.0,
            },
            orders,
        )
    }

    /// The general upper-bound curve of `mech` under `sampling` on `orders`
    /// ([`subsampled`] with [`Bound::Upper`]).
    pub fn upper(mech: &Mechanism, sampling: Sampling, orders: &[f64]) -> Result<Curve, MathError> {
        Curve::from_term(
            Term {
                mech: *mech,
                sampling,
                upper: true,
                steps: 1.0,
            },
            orders,
        )
    }

    fn from_term(term: Term, orders: &[f64]) -> Result<Curve, MathError> {
        let rdp = orders
            .iter()
            .map(|&a| term.at(a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Curve {
            orders: orders.to_vec(),
            rdp,
            terms: vec![term],
        })
    }

    /// A curve known on its grid only (no terms to evaluate between the orders).
    pub fn sampled(orders: Vec<f64>, rdp: Vec<f64>) -> Curve {
        Curve {
            orders,
            rdp,
            terms: Vec::new(),
        }
    }

    /// The curve of `steps` adaptive compositions: k·ε(α) (Mironov 2017, Prop. 1). Exact for the
    /// composition of RDP guarantees.
    pub fn times(&self, steps: f64) -> Curve {
        Curve {
            orders: self.orders.clone(),
            rdp: self.rdp.iter().map(|r| r * steps).collect(),
            terms: self
                .terms
                .iter()
                .map(|t| Term {
                    steps: t.steps * steps,
                    ..*t
                })
                .collect(),
        }
    }

    /// The curve at any order α > 1, from its terms; `None` for a curve known on its grid only.
    pub fn at(&self, alpha: f64) -> Option<Result<f64, MathError>> {
        if self.terms.is_empty() {
            return None;
        }
        Some(self.terms.iter().map(|t| t.at(alpha)).sum())
    }
}

/// Compose different mechanisms: Σ_i k_i·ε_i(α) on a shared grid (Mironov 2017, Prop. 1).
/// Errors if the grids differ.
pub fn compose(parts: &[(&Curve, f64)]) -> Result<Curve, MathError> {
    let Some((first, _)) = parts.first() else {
        return Err(MathError::Inconsistent {
            reason: "nothing to compose".into(),
        });
    };
    let mut out = Curve {
        orders: first.orders.clone(),
        rdp: vec![0.0; first.orders.len()],
        terms: Vec::new(),
    };
    let all_known = parts.iter().all(|(c, _)| !c.terms.is_empty());
    for (c, k) in parts {
        if c.orders != out.orders {
            return Err(MathError::Inconsistent {
                reason: "curves on different order grids cannot be added".into(),
            });
        }
        if !(k.is_finite() && *k >= 0.0) {
            return Err(MathError::OutOfDomain {
                name: "steps",
                value: *k,
                expected: "a finite number at least 0",
            });
        }
        for (o, r) in out.rdp.iter_mut().zip(&c.rdp) {
            *o += k * r;
        }
        if all_known {
            out.terms.extend(c.times(*k).terms);
        }
    }
    Ok(out)
}

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

/// δ(ε) of the Gaussian mechanism with sensitivity 1 and noise σ, exactly:
/// δ = Φ(1/(2σ) − εσ) − e^ε Φ(−1/(2σ) − εσ) (Balle & Wang 2018, arXiv 1805.06530, Theorem 8).
/// Computed as Φ(a)·(1 − e^{ε + log Φ(b) − log Φ(a)}), the exponent through erfcx in the lower tail
/// (within 1e-12 relative of mpmath down to δ = 1e-178 on the reference table). Exact; any relation for which
/// the query has sensitivity 1.
pub fn gaussian_delta(sigma: f64, epsilon: f64) -> Result<f64, MathError> {
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    crate::check_epsilon("ε", epsilon)?;
    let a = 0.5 / sigma - epsilon * sigma;
    let b = -0.5 / sigma - epsilon * sigma;
    let la = ln_normal_cdf(a);
    let x = if a < -1.0 {
        // Both in the lower tail: Φ(y) = ½·erfcx(−y/√2)·e^{−y²/2} and b² − a² = 2ε, so
        // ε + log Φ(b) − log Φ(a) = log erfcx(−b/√2) − log erfcx(−a/√2) exactly, without the two
        // large logarithms whose rounding would cost 1e-11 of δ.
        let r = std::f64::consts::FRAC_1_SQRT_2;
        ln(crate::special::erfcx(-b * r)) - ln(crate::special::erfcx(-a * r))
    } else {
        epsilon + ln_normal_cdf(b) - la
    };
    // 1 − e^x for x < 0, accurate near 0.
    let frac = -exp_m1(x.min(0.0));
    Ok((exp(la) * frac).clamp(0.0, 1.0))
}

/// The smallest ε with [`gaussian_delta`] ≤ δ, by [`brent`] (relative 4 ulp). δ ∈ (0, 1); 0 when
/// even ε = 0 meets δ. Exact.
pub fn gaussian_epsilon(sigma: f64, delta: f64) -> Result<f64, MathError> {
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 (the Gaussian mechanism has no pure ε)",
        });
    }
    if gaussian_delta(sigma, 0.0)? <= delta {
        return Ok(0.0);
    }
    // δ(ε) ≤ Φ(1/(2σ) − εσ) ≤ e^{−(εσ − 1/(2σ))²/2}: ε = 1/(2σ²) + √(2 log(1/δ))/σ is enough.
    let mut hi = 0.5 / (sigma * sigma) + libm::sqrt(2.0 * -ln(delta)) / sigma + 1e-12;
    hi = hi.min(crate::MAX_EPSILON);
    let f = |e: f64| {
        gaussian_delta(sigma, e)
            .map(|d| d - delta)
            .unwrap_or(f64::NAN)
    };
    if f(hi) > 0.0 {
        return Err(MathError::NoSolution {
            reason: format!("δ = {delta:e} needs ε above 500 at σ = {sigma}"),
        });
    }
    brent(f, 0.0, hi, Tolerance::TIGHT)
}

/// The per-step (ε, δ) guarantee of a mechanism: pure ε for Laplace and randomized response (δ
/// ignored, 0), [`gaussian_epsilon`] at δ for the Gaussian.
pub fn base_epsilon_delta(mech: &Mechanism, delta: f64) -> Result<(f64, f64), MathError> {
    mech.validate()?;
    match *mech {
        Mechanism::Gaussian { sigma } => Ok((gaussian_epsilon(sigma, delta)?, delta)),
        _ => Ok((mech.rdp_infinity(), 0.0)),
    }
}

/// Composition of k steps of the subsampled (ε, δ) guarantee, as the slides compare against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Composed {
    /// Total ε.
    pub epsilon: f64,
    /// Total δ (at most the target).
    pub delta: f64,
}

/// Amplified per-step (ε′, δ′) for a base (ε, δ): ε′ = log(1 + γ(e^ε − 1)), δ′ = γδ (the slides'
/// subsampling lemma; Balle, Barthe & Gaboardi 2018). Poisson: add/remove; without replacement:
/// replace-one.
fn amplified(eps: f64, delta: f64, rate: f64) -> (f64, f64) {
    (ln_1p(rate * exp_m1(eps)), rate * delta)
}

/// Naive (basic) composition of k steps of the amplified (ε, δ) guarantee: (kε′, kδ′) (Dwork,
/// Kenthapadi, McSherry, Mironov & Naor 2006). For the Gaussian the base δ is chosen as
/// δ_total/(kγ) (capped below 1) so the total is the target δ. Upper bound.
pub fn naive_composition(
    mech: &Mechanism,
    sampling: Sampling,
    steps: f64,
    delta: f64,
) -> Result<Composed, MathError> {
    check_steps(steps)?;
    let rate = sampling.rate();
    let base_delta = per_step_base_delta(mech, delta, steps, rate);
    let (e0, d0) = base_epsilon_delta(mech, base_delta)?;
    let (e, d) = amplified(e0, d0, rate);
    Ok(Composed {
        epsilon: steps * e,
        delta: steps * d,
    })
}

fn per_step_base_delta(mech: &Mechanism, delta: f64, steps: f64, rate: f64) -> f64 {
    match mech {
        Mechanism::Gaussian { .. } => (delta / (steps * rate.max(f64::MIN_POSITIVE))).min(0.5),
        _ => 0.0,
    }
}

fn check_steps(steps: f64) -> Result<(), MathError> {
    if steps.is_nan() {
        return Err(MathError::NotANumber { name: "k" });
    }
    if !(1.0..=1e9).contains(&steps) {
        return Err(MathError::OutOfDomain {
            name: "k",
            value: steps,
            expected: "between 1 and 10⁹",
        });
    }
    Ok(())
}

/// Advanced composition of k steps of the amplified (ε′, δ′) guarantee:
/// ε = √(2k log(1/δ̃))·ε′ + kε′(e^{ε′} − 1), δ = kδ′ + δ̃ (Dwork, Rothblum & Vadhan 2010, Theorem
/// III.3). The target δ is split between δ̃ and the per-step δ′ (Gaussian only) at the best of 16
/// log-spaced splits. Upper bound.
pub fn advanced_composition(
    mech: &Mechanism,
    sampling: Sampling,
    steps: f64,
    delta: f64,
) -> Result<Composed, MathError> {
    check_steps(steps)?;
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0 for advanced composition",
        });
    }
    let rate = sampling.rate();
    let eval = |slack: f64, per_step: f64| -> Result<Composed, MathError> {
        let (e0, d0) = base_epsilon_delta(mech, per_step)?;
        let (e, d) = amplified(e0, d0, rate);
        Ok(Composed {
            epsilon: libm::sqrt(2.0 * steps * -ln(slack)) * e + steps * e * exp_m1(e),
            delta: steps * d + slack,
        })
    };
    if !matches!(mech, Mechanism::Gaussian { .. }) || rate == 0.0 {
        return eval(delta, 0.0);
    }
    let mut best: Option<Composed> = None;
    const SPLITS: i32 = 16;
    for i in 0..SPLITS {
        // The slack δ̃ takes a fraction t ∈ [10⁻⁴, 0.99] of δ.
        let t = libm::pow(
            10.0,
            -4.0 + (4.0 + libm::log10(0.99)) * i as f64 / (SPLITS - 1) as f64,
        );
        let per_step = ((1.0 - t) * delta / (steps * rate)).min(0.5);
        let c = eval(t * delta, per_step)?;
        if best.is_none_or(|b| c.epsilon < b.epsilon) {
            best = Some(c);
        }
    }
    best.ok_or(MathError::NoConvergence { iterations: 16 })
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {

    /// Found by mutation testing (tools/mutants.sh): the names, relations and rates, and the
    /// lower bound's domain, which no other test pinned down.
    #[test]
    fn names_relations_and_the_lower_bounds_domain() {
        use crate::Relation;
        assert_eq!(Sampling::Full.relation(), Relation::AddRemove);
        assert_eq!(Sampling::Poisson { q: 0.1 }.relation(), Relation::AddRemove);
        assert_eq!(
            Sampling::WithoutReplacement { gamma: 0.1 }.relation(),
            Relation::ReplaceOne
        );
        assert_eq!(Sampling::Full.rate(), 1.0);
        assert_eq!(Sampling::Poisson { q: 0.25 }.rate(), 0.25);
        assert_eq!(Sampling::WithoutReplacement { gamma: 0.5 }.rate(), 0.5);
        assert_eq!(
            [Bound::Exact.id(), Bound::Upper.id(), Bound::Lower.id()],
            ["exact", "upper", "lower"]
        );
        let g = Mechanism::Gaussian { sigma: 2.0 };
        let s = Sampling::Poisson { q: 0.1 };
        // Whole orders from 2 up to 10,000 inclusive.
        assert_eq!(
            subsampled(&g, s, Bound::Lower, 3.0).unwrap(),
            rdp::wor_lower(&g, 0.1, 3).unwrap()
        );
        for bad in [2.5, 1.0, 10_001.0] {
            assert!(subsampled(&g, s, Bound::Lower, bad).is_err(), "{bad}");
        }
        assert!(subsampled(&g, s, Bound::Lower, 10_000.0).is_ok());
    }

    use super::*;

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

    #[test]
    fn gaussian_delta_round_trip() {
        for &s in &[0.3, 1.0, 5.0] {
            for &d in &[1e-3, 1e-8] {
                let e = gaussian_epsilon(s, d).unwrap();
                let back = gaussian_delta(s, e).unwrap();
                assert!(((back - d) / d).abs() < 1e-8, "σ = {s}, δ = {d}: {back}");
            }
        }
    }
}
