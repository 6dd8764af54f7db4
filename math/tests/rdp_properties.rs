//! Property tests for Rényi DP (math/src/rdp/) on the declared
//! domain: σ ∈ [0.1, 10⁴], b ∈ [0.05, 100], randomized response ε ∈ [10⁻³, 20] (k ≤ 1000),
//! q ∈ [10⁻⁹, 1], α ∈ [1.001, 10⁴] (whole orders up to 256 where a lower bound is involved).
//!
//! upper ≥ exact ≥ lower wherever they exist; q = 0 gives 0 and q = 1 the base curve; huge noise
//! gives ≈ 0; monotone in α (exact and base curves, lower bound) and in q (every curve, below
//! q = 1); finite and non-negative everywhere; improved conversion ≤ classic; ε → δ → ε round
//! trip; composed ε non-decreasing in the number of steps.
//!
//! Also: the upper bounds never exceed the base curve, and the exact curve has a value (matching
//! mpmath's integration) just below q = 1/2, where an earlier version stopped with
//! `NoConvergence`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::rdp::{
    self, default_orders, delta_for_epsilon, epsilon_at_order, epsilon_for_delta,
    epsilon_for_delta_over_steps, gaussian_delta, Conversion, Curve, Mechanism, Sampling,
};
use proptest::prelude::*;

/// Relative slack for inequalities between separately rounded values.
const SLACK: f64 = 1e-9;

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..=hi.log10()).prop_map(move |x| 10f64.powf(x).clamp(lo, hi))
}

fn mechanism() -> impl Strategy<Value = Mechanism> {
    prop_oneof![
        log_uniform(0.1, 1e4).prop_map(|sigma| Mechanism::Gaussian { sigma }),
        log_uniform(0.05, 100.0).prop_map(|scale| Mechanism::Laplace { scale }),
        log_uniform(1e-3, 20.0).prop_map(|epsilon| Mechanism::RandomizedResponse { epsilon }),
        (log_uniform(1e-3, 20.0), 2u64..=1000)
            .prop_map(|(epsilon, k)| Mechanism::KaryRandomizedResponse { epsilon, k }),
    ]
}

fn sigma() -> impl Strategy<Value = f64> {
    log_uniform(0.1, 1e4)
}

/// q log-uniform on [1e-9, 1], with q = 1 itself now and then.
fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![9 => log_uniform(1e-9, 1.0), 1 => Just(1.0)]
}

/// q log-uniform on [1e-9, 1).
fn rate_below_one() -> impl Strategy<Value = f64> {
    log_uniform(1e-9, 1.0 - 1e-12)
}

/// α − 1 log-uniform on [10⁻³, 10⁴ − 1], with whole orders now and then.
fn order() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => log_uniform(1e-3, 1e4 - 1.0).prop_map(|x| (1.0 + x).min(1e4)),
        1 => (2u64..=10_000).prop_map(|a| a as f64),
    ]
}

fn whole_order() -> impl Strategy<Value = u64> {
    2u64..=256
}

/// a ≤ b up to the slack (and an absolute floor far below anything meaningful).
fn le(a: f64, b: f64) -> bool {
    a <= b * (1.0 + SLACK) + 1e-300
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()) + 1e-300
}

fn ok(v: f64) -> bool {
    v.is_finite() && v >= 0.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn upper_exact_lower_are_ordered(mech in mechanism(), q in rate(), a in whole_order(), alpha in order()) {
        let af = a as f64;
        let lower = rdp::wor_lower(&mech, q, a).unwrap();
        let pu = rdp::poisson_upper(&mech, q, af).unwrap();
        let wu = rdp::wor_upper(&mech, q, af).unwrap();
        prop_assert!(le(lower, pu), "lower {} > Poisson upper {} ({:?}, q = {}, α = {})", lower, pu, mech, q, a);
        prop_assert!(le(lower, wu), "lower {} > WOR upper {} ({:?}, q = {}, α = {})", lower, wu, mech, q, a);
        if let Mechanism::Gaussian { sigma } = mech {
            let exact = rdp::poisson_gaussian(sigma, q, af).unwrap();
            prop_assert!(le(lower, exact) && le(exact, pu),
                "lower {} ≤ exact {} ≤ upper {} fails (σ = {}, q = {}, α = {})", lower, exact, pu, sigma, q, a);
            // For the Poisson Gaussian the lower-bound sum is the exact value (rdp::subsampled docs).
            prop_assert!(close(lower, exact, SLACK), "lower {} ≠ exact {} (σ = {}, q = {}, α = {})", lower, exact, sigma, q, a);
            // Any order: the upper bound is interpolated between whole orders.
            let exact = rdp::poisson_gaussian(sigma, q, alpha).unwrap();
            let pu = rdp::poisson_upper(&mech, q, alpha).unwrap();
            prop_assert!(le(exact, pu), "exact {} > upper {} (σ = {}, q = {}, α = {})", exact, pu, sigma, q, alpha);
        }
    }

    #[test]
    fn rate_zero_gives_zero_and_rate_one_the_base_curve(mech in mechanism(), a in whole_order(), alpha in order()) {
        let base = mech.rdp(alpha).unwrap();
        prop_assert_eq!(rdp::poisson_upper(&mech, 0.0, alpha).unwrap(), 0.0);
        prop_assert_eq!(rdp::wor_upper(&mech, 0.0, alpha).unwrap(), 0.0);
        prop_assert_eq!(rdp::wor_lower(&mech, 0.0, a).unwrap(), 0.0);
        prop_assert_eq!(rdp::poisson_upper(&mech, 1.0, alpha).unwrap(), base);
        prop_assert_eq!(rdp::wor_upper(&mech, 1.0, alpha).unwrap(), base);
        let (lower, base_a) = (rdp::wor_lower(&mech, 1.0, a).unwrap(), mech.rdp(a as f64).unwrap());
        prop_assert!(close(lower, base_a, SLACK), "lower at γ = 1: {} vs {} ({:?}, α = {})", lower, base_a, mech, a);
        if let Mechanism::Gaussian { sigma } = mech {
            prop_assert_eq!(rdp::poisson_gaussian(sigma, 0.0, alpha).unwrap(), 0.0);
            prop_assert_eq!(rdp::poisson_gaussian_integer(sigma, 0.0, a).unwrap(), 0.0);
            let e = rdp::poisson_gaussian(sigma, 1.0, alpha).unwrap();
            prop_assert!(close(e, base, SLACK), "exact at q = 1: {} vs {} (σ = {}, α = {})", e, base, sigma, alpha);
            let e = rdp::poisson_gaussian_integer(sigma, 1.0, a).unwrap();
            prop_assert!(close(e, base_a, SLACK), "integer exact at q = 1: {} vs {} (σ = {}, α = {})", e, base_a, sigma, a);
        }
    }

    /// σ = 10⁶: ε(α) ≤ α/(2σ²) ≤ 10⁻⁹ for α ≤ 2000, for the base curve, the exact subsampled curve
    /// and the lower bound. (The Zhu–Wang and WBK upper bounds keep terms 3e^{(ℓ−1)ε(ℓ)} − 1 ≥ 2 and
    /// min{2, ·} = 2 that do not vanish with the noise, so they are not ≈ 0 unless q is small.)
    #[test]
    fn huge_noise_is_nearly_private(q in rate(), alpha in log_uniform(1e-3, 1999.0), a in whole_order()) {
        let alpha = 1.0 + alpha;
        let g = Mechanism::Gaussian { sigma: 1e6 };
        for v in [
            g.rdp(alpha).unwrap(),
            rdp::poisson_gaussian(1e6, q, alpha).unwrap(),
            rdp::wor_lower(&g, q, a).unwrap(),
        ] {
            prop_assert!(ok(v) && v < 1e-9, "{} at q = {}, α = {}, whole α = {}", v, q, alpha, a);
        }
    }

    #[test]
    fn exact_base_and_lower_curves_are_monotone_in_order(
        mech in mechanism(), s in sigma(), q in rate(), a1 in order(), a2 in order(),
        w1 in whole_order(), w2 in whole_order(),
    ) {
        let (lo, hi) = if a1 <= a2 { (a1, a2) } else { (a2, a1) };
        let (e_lo, e_hi) = (rdp::poisson_gaussian(s, q, lo).unwrap(), rdp::poisson_gaussian(s, q, hi).unwrap());
        prop_assert!(le(e_lo, e_hi), "exact ε({}) = {} > ε({}) = {} (σ = {}, q = {})", lo, e_lo, hi, e_hi, s, q);
        let (b_lo, b_hi) = (mech.rdp(lo).unwrap(), mech.rdp(hi).unwrap());
        prop_assert!(le(b_lo, b_hi), "base ε({}) = {} > ε({}) = {} ({:?})", lo, b_lo, hi, b_hi, mech);
        let (wl, wh) = (w1.min(w2), w1.max(w2));
        let (l_lo, l_hi) = (rdp::wor_lower(&mech, q, wl).unwrap(), rdp::wor_lower(&mech, q, wh).unwrap());
        prop_assert!(le(l_lo, l_hi), "lower ε({}) = {} > ε({}) = {} ({:?}, q = {})", wl, l_lo, wh, l_hi, mech, q);
    }

    /// Below q = 1 (q = 1 itself is covered by the base-curve properties).
    #[test]
    fn every_curve_is_monotone_in_rate(
        mech in mechanism(), q1 in rate_below_one(), q2 in rate_below_one(),
        alpha in order(), a in whole_order(),
    ) {
        let (lo, hi) = if q1 <= q2 { (q1, q2) } else { (q2, q1) };
        let pairs = [
            ("Poisson upper", rdp::poisson_upper(&mech, lo, alpha).unwrap(), rdp::poisson_upper(&mech, hi, alpha).unwrap()),
            ("WOR upper", rdp::wor_upper(&mech, lo, alpha).unwrap(), rdp::wor_upper(&mech, hi, alpha).unwrap()),
            ("lower", rdp::wor_lower(&mech, lo, a).unwrap(), rdp::wor_lower(&mech, hi, a).unwrap()),
        ];
        for (name, x, y) in pairs {
            prop_assert!(le(x, y), "{} at q = {}: {} > at q = {}: {} ({:?}, α = {}, whole α = {})", name, lo, x, hi, y, mech, alpha, a);
        }
        if let Mechanism::Gaussian { sigma } = mech {
            let (x, y) = (rdp::poisson_gaussian(sigma, lo, alpha).unwrap(), rdp::poisson_gaussian(sigma, hi, alpha).unwrap());
            prop_assert!(le(x, y), "exact at q = {}: {} > at q = {}: {} (σ = {}, α = {})", lo, x, hi, y, sigma, alpha);
        }
    }

    #[test]
    fn every_value_is_finite_and_non_negative(mech in mechanism(), s in sigma(), q in rate(), alpha in order(), a in whole_order()) {
        let values = [
            mech.rdp(alpha).unwrap(),
            mech.ln_moment(alpha).unwrap(),
            rdp::poisson_gaussian(s, q, alpha).unwrap(),
            rdp::poisson_gaussian_integer(s, q, a).unwrap(),
            rdp::poisson_upper(&mech, q, alpha).unwrap(),
            rdp::wor_upper(&mech, q, alpha).unwrap(),
            rdp::wor_lower(&mech, q, a).unwrap(),
        ];
        for (i, v) in values.into_iter().enumerate() {
            prop_assert!(ok(v), "value {} is {} ({:?}, σ = {}, q = {}, α = {}, whole α = {})", i, v, mech, s, q, alpha, a);
        }
    }

    #[test]
    fn gaussian_delta_is_a_probability(s in sigma(), e in prop_oneof![Just(0.0), log_uniform(1e-6, 500.0)]) {
        let d = gaussian_delta(s, e).unwrap();
        prop_assert!(d.is_finite() && (0.0..=1.0).contains(&d), "δ = {} at σ = {}, ε = {}", d, s, e);
    }

    #[test]
    fn improved_conversion_is_never_worse(
        rho in prop_oneof![Just(0.0), log_uniform(1e-12, 1e3)], alpha in order(),
        delta in log_uniform(1e-300, 0.999), eps in log_uniform(1e-6, 500.0),
    ) {
        let (i, c) = (
            epsilon_at_order(rho, alpha, delta, Conversion::Improved),
            epsilon_at_order(rho, alpha, delta, Conversion::Classic),
        );
        prop_assert!(ok(i) && ok(c) && i <= c, "improved {} > classic {} (ρ = {}, α = {}, δ = {})", i, c, rho, alpha, delta);
        let (i, c) = (
            amp_math::rdp::ln_delta_at_order(rho, alpha, eps, Conversion::Improved),
            amp_math::rdp::ln_delta_at_order(rho, alpha, eps, Conversion::Classic),
        );
        prop_assert!(i <= c && c <= 0.0 && !i.is_nan(), "log δ improved {} > classic {} (ρ = {}, α = {}, ε = {})", i, c, rho, alpha, eps);
    }
}

fn sampling() -> impl Strategy<Value = Sampling> {
    prop_oneof![
        Just(Sampling::Full),
        log_uniform(1e-9, 1.0).prop_map(|q| Sampling::Poisson { q }),
        log_uniform(1e-9, 1.0).prop_map(|gamma| Sampling::WithoutReplacement { gamma }),
    ]
}

fn conversion() -> impl Strategy<Value = Conversion> {
    prop_oneof![Just(Conversion::Classic), Just(Conversion::Improved)]
}

proptest! {
    // A curve on the default grid (154 orders, up to 1024) per case: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn conversion_round_trips_and_composes_monotonically(
        mech in mechanism(), s in sampling(), conv in conversion(),
        delta in log_uniform(1e-12, 0.5), k1 in log_uniform(1.0, 1e6), k2 in log_uniform(1.0, 1e6),
    ) {
        let base = Curve::of(&mech, s, &default_orders()).unwrap();
        let (lo, hi) = if k1 <= k2 { (k1, k2) } else { (k2, k1) };
        let e_lo = epsilon_for_delta(&base.times(lo), delta, conv).unwrap();
        let e_hi = epsilon_for_delta(&base.times(hi), delta, conv).unwrap();
        prop_assert!(ok(e_lo.epsilon) && le(e_lo.epsilon, e_hi.epsilon),
            "ε after {} steps {} > after {} steps {} ({:?}, {:?}, {:?})", lo, e_lo.epsilon, hi, e_hi.epsilon, mech, s, conv);
        let other = match conv {
            Conversion::Classic => Conversion::Improved,
            Conversion::Improved => Conversion::Classic,
        };
        let e_other = epsilon_for_delta(&base.times(lo), delta, other).unwrap();
        let (imp, cla) = if conv == Conversion::Improved { (e_lo.epsilon, e_other.epsilon) } else { (e_other.epsilon, e_lo.epsilon) };
        prop_assert!(imp <= cla, "improved {} > classic {}", imp, cla);
        let many = epsilon_for_delta_over_steps(&base, &[lo, hi], delta, conv).unwrap();
        prop_assert!(le(many[0].epsilon, many[1].epsilon));
        // ε → δ → ε: converting the ε found for δ back gives δ (when ε was not clamped at 0, and
        // within the ε ≤ 500 that delta_for_epsilon accepts).
        if e_lo.epsilon > 0.0 && e_lo.epsilon <= amp_math::MAX_EPSILON {
            let d = delta_for_epsilon(&base.times(lo), e_lo.epsilon, conv).unwrap();
            prop_assert!(close(d.delta, delta, 1e-9), "δ = {} came back as {} (ε = {}, order {} then {}; {:?}, {:?}, {:?}, k = {})",
                delta, d.delta, e_lo.epsilon, e_lo.order, d.order, mech, s, conv, lo);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Subsampling never increases Rényi divergence (joint convexity of e^{(α−1)D_α}), so the base
    /// curve ε(α) is itself an upper bound on the subsampled curve, under either scheme. The
    /// Zhu–Wang and WBK bounds as the papers state them exceed it for large q and weak base
    /// mechanisms (their terms 3e^{(ℓ−1)ε(ℓ)} and 2e^{(j−1)ε(j)} do not vanish with the noise;
    /// Gaussian σ = 10, q = 0.5, α = 3: 0.1176 and 0.1266 against 0.015), so the functions cap
    /// them by it.
    #[test]
    fn upper_bounds_never_exceed_the_base_curve(mech in mechanism(), q in rate(), alpha in order()) {
        let base = mech.rdp(alpha).unwrap();
        let pu = rdp::poisson_upper(&mech, q, alpha).unwrap();
        let wu = rdp::wor_upper(&mech, q, alpha).unwrap();
        prop_assert!(le(pu, base), "Poisson upper {} > base {} ({:?}, q = {}, α = {})", pu, base, mech, q, alpha);
        prop_assert!(le(wu, base), "WOR upper {} > base {} ({:?}, q = {}, α = {})", wu, base, mech, q, alpha);
    }
}

/// Just below q = 1/2 (an earlier version stopped with `NoConvergence` there). The values are
/// mpmath's numerical integration of the divergence (tools/reference/rdp.py, `pg_frac` rows).
#[test]
fn exact_curve_converges_just_below_one_half() {
    for (sigma, q, alpha, expected) in [
        (10.0, 0.49, 1.001, 1.203263723961884e-3),
        (10.0, 0.499, 1.01, 1.2590620039003648e-3),
        (100.0, 0.499, 1.5, 1.8675542811620898e-5),
        (30.0, 0.4999, 1.5, 2.0830786846886386e-4),
    ] {
        let got = rdp::poisson_gaussian(sigma, q, alpha);
        assert!(
            matches!(got, Ok(v) if close(v, expected, 1e-8)),
            "σ = {sigma}, q = {q}, α = {alpha}: {got:?}, expected {expected:e}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn exact_curve_is_finite_just_below_one_half(s in log_uniform(0.1, 1e4), q in 0.45f64..0.5, alpha in log_uniform(1e-3, 10.0)) {
        let v = rdp::poisson_gaussian(s, q, 1.0 + alpha);
        prop_assert!(matches!(v, Ok(x) if ok(x)), "{:?} at σ = {}, q = {}, α = {}", v, s, q, 1.0 + alpha);
    }
}

/// Whether `x` is written with at most three significant digits (as the refined order is).
fn three_digits(x: f64) -> bool {
    let e = x.log10().floor() as i32;
    let scaled = x * 10f64.powi(2 - e);
    (scaled - scaled.round()).abs() < 1e-9 * scaled
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Minimised over the order, the conversion is never above the grid's best, and what it
    /// reports is consistent: the order (unless a grid order wins) has three significant digits
    /// and ε is the conversion of the curve at that order.
    #[test]
    fn refined_conversion_beats_the_grid_and_is_the_value_at_its_order(
        mech in mechanism(),
        q in log_uniform(1e-4, 0.5),
        steps in log_uniform(1.0, 1e5),
        delta in log_uniform(1e-10, 1e-3),
        classic in any::<bool>(),
    ) {
        let conversion = if classic { Conversion::Classic } else { Conversion::Improved };
        let sampling = Sampling::Poisson { q };
        let orders = default_orders();
        let Ok(one) = Curve::of(&mech, sampling, &orders) else { return Ok(()); };
        let curve = one.times(steps);
        let grid_only = Curve::sampled(curve.orders.clone(), curve.rdp.clone());
        let (Ok(r), Ok(g)) = (
            epsilon_for_delta(&curve, delta, conversion),
            epsilon_for_delta(&grid_only, delta, conversion),
        ) else { return Ok(()); };
        prop_assert!(r.epsilon <= g.epsilon, "refined {:?} above the grid's {:?}", r, g);
        if !orders.contains(&r.order) {
            prop_assert!(three_digits(r.order), "order {}", r.order);
            let at = curve.at(r.order).unwrap().unwrap();
            let e = epsilon_at_order(at, r.order, delta, conversion);
            prop_assert_eq!(e, r.epsilon);
        }
        // The same for δ at a given ε, and for the per-steps conversion.
        let eps = g.epsilon.max(0.01);
        let (Ok(dr), Ok(dg)) = (
            delta_for_epsilon(&curve, eps, conversion),
            delta_for_epsilon(&grid_only, eps, conversion),
        ) else { return Ok(()); };
        prop_assert!(dr.delta <= dg.delta, "refined δ {:?} above the grid's {:?}", dr, dg);
        let over = epsilon_for_delta_over_steps(&one, &[steps], delta, conversion).unwrap();
        prop_assert!(over[0].epsilon <= g.epsilon * (1.0 + SLACK));
    }
}

/// Every subsampled curve refuses a rate outside [0, 1] (or NaN) with an error naming it, rather
/// than computing with it.
#[test]
fn subsampled_curves_refuse_a_rate_outside_zero_one() {
    let gauss = Mechanism::Gaussian { sigma: 1.0 };
    for bad in [-0.1, 1.5, f64::NAN] {
        let named = |r: Result<f64, amp_math::MathError>, name: &str| {
            matches!(r, Err(amp_math::MathError::OutOfDomain { name: n, .. }
                | amp_math::MathError::NotANumber { name: n }) if n == name)
        };
        assert!(
            named(rdp::poisson_gaussian_integer(1.0, bad, 4), "q"),
            "{bad}"
        );
        assert!(named(rdp::poisson_gaussian(1.0, bad, 4.5), "q"), "{bad}");
        assert!(
            named(rdp::poisson_gaussian_unsigned(1.0, bad, 4.5), "q"),
            "{bad}"
        );
        assert!(named(rdp::poisson_upper(&gauss, bad, 4.0), "q"), "{bad}");
        assert!(named(rdp::wor_lower(&gauss, bad, 4), "γ"), "{bad}");
        assert!(named(rdp::wor_upper(&gauss, bad, 4.0), "γ"), "{bad}");
    }
}
