//! Property tests for amplification by subsampling (issue #2): monotonicity, the bounds
//! pε ≤ ε′ ≤ min(ε, p(e^ε − 1)), inverse∘forward = identity, and no NaN on the domain.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::subsampling::{
    amplified_epsilon, amplify, base_delta, base_epsilon, base_for_target, with_replacement_delta,
    Sampling,
};
use amp_math::EpsDelta;
use proptest::prelude::*;

/// ε log-uniform on [1e-12, 50] and p log-uniform on [1e-9, 1]: the box issue #2 names.
fn eps() -> impl Strategy<Value = f64> {
    (-12.0f64..50f64.log10()).prop_map(|x| 10f64.powf(x).min(50.0))
}
fn rate() -> impl Strategy<Value = f64> {
    (-9.0f64..=0.0).prop_map(|x| 10f64.powf(x).min(1.0))
}

/// Rounding slack for inequalities that hold with equality at p = 1: 4 ulp.
const SLACK: f64 = 4.0 * f64::EPSILON;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn monotone_in_epsilon_and_rate(e1 in eps(), e2 in eps(), p1 in rate(), p2 in rate()) {
        let (elo, ehi) = if e1 <= e2 { (e1, e2) } else { (e2, e1) };
        let (plo, phi) = if p1 <= p2 { (p1, p2) } else { (p2, p1) };
        let a = amplified_epsilon(elo, plo).unwrap();
        prop_assert!(a <= amplified_epsilon(ehi, plo).unwrap());
        prop_assert!(a <= amplified_epsilon(elo, phi).unwrap());
    }

    #[test]
    fn between_p_eps_and_min_eps_p_expm1(e in eps(), p in rate()) {
        let a = amplified_epsilon(e, p).unwrap();
        prop_assert!(a.is_finite() && a >= 0.0);
        prop_assert!(p * e <= a * (1.0 + SLACK), "pε = {} > ε′ = {}", p * e, a);
        let upper = e.min(p * e.exp_m1());
        prop_assert!(a <= upper * (1.0 + SLACK), "ε′ = {} > {}", a, upper);
    }

    #[test]
    fn inverse_after_forward_is_identity(e in eps(), p in rate()) {
        let a = amplified_epsilon(e, p).unwrap();
        let back = base_epsilon(a, p).unwrap();
        prop_assert!(((back - e) / e).abs() <= 1e-12, "ε = {} came back as {}", e, back);
    }

    #[test]
    fn forward_after_inverse_is_identity(t in eps(), p in rate()) {
        let b = base_epsilon(t, p).unwrap();
        prop_assert!(b.is_finite() && b >= t * (1.0 - SLACK));
        let again = amplified_epsilon(b.min(500.0), p).unwrap();
        if b <= 500.0 {
            prop_assert!(((again - t) / t).abs() <= 1e-12, "target {} came back as {}", t, again);
        }
    }

    #[test]
    fn delta_round_trips_for_every_scheme(
        e in eps(), d in prop_oneof![Just(0.0), (-12.0f64..-2.0).prop_map(|x| 10f64.powf(x))],
        n in 1u64..100_000, frac in 0.0f64..=1.0, which in 0usize..3,
    ) {
        let m = ((n as f64 * frac).round() as u64).clamp(1, n);
        let s = match which {
            0 => Sampling::Poisson { p: m as f64 / n as f64 },
            1 => Sampling::WithoutReplacement { m, n },
            _ => Sampling::WithReplacement { m, n },
        };
        let fwd = amplify(&s, EpsDelta { epsilon: e, delta: d }).unwrap();
        let (ep, dp) = (fwd.guarantee.epsilon, fwd.guarantee.delta);
        prop_assert!(ep.is_finite() && dp.is_finite() && (0.0..=1.0).contains(&dp));
        prop_assert!(dp >= d * fwd.inclusion_probability * (1.0 - SLACK));
        if ep > 0.0 && dp < 1.0 && dp < fwd.inclusion_probability {
            // The ε inverse is exact; δ round-trips whenever the target is attainable.
            let b = base_for_target(&s, fwd.guarantee).unwrap();
            prop_assert!(((b.epsilon - e) / e).abs() <= 1e-12);
            match (&b.delta, which) {
                (Ok(bd), 0 | 1) if d > 0.0 => {
                    prop_assert!(((bd - d) / d).abs() <= 1e-12, "δ = {} came back as {} ({:?})", d, bd, s);
                }
                (Err(err), 0 | 1) if d > 0.0 => prop_assert!(false, "inverse failed for {:?}: {}", s, err),
                _ => {}
            }
            // With replacement, δ′ = floor + δ·B where the floor (what δ = 0 gives) comes from
            // group privacy. When the floor dominates, δ is ill-conditioned in δ′ (cancellation),
            // so assert the round trip where it is well-posed and the forward residual always.
            if d > 0.0 && which == 2 {
                let bd = base_delta(&s, e, dp).unwrap();
                let again = amplify(&s, EpsDelta { epsilon: e, delta: bd }).unwrap().guarantee.delta;
                prop_assert!(((again - dp) / dp).abs() <= 1e-12, "δ′ = {} came back as {}", dp, again);
                let floor = amplify(&s, EpsDelta { epsilon: e, delta: 0.0 }).unwrap().guarantee.delta;
                if floor <= 0.5 * dp {
                    prop_assert!(((bd - d) / d).abs() <= 1e-12, "δ = {} came back as {}", d, bd);
                }
            }
        }
    }

    /// With replacement at up to 1000 draws per record (where an earlier version underflowed to 0):
    /// δ′ is finite, at least η·δ, increasing in δ and in m, and positive for a pure-DP mechanism
    /// once two draws can hit the same record.
    #[test]
    fn with_replacement_delta_is_sane_at_many_draws(
        e in (-6.0f64..1.5).prop_map(|x| 10f64.powf(x)),
        d in prop_oneof![Just(0.0), (-12.0f64..-2.0).prop_map(|x| 10f64.powf(x))],
        n in 2u64..5000, per in (-4.0f64..3.0).prop_map(|x| 10f64.powf(x)),
    ) {
        let m = ((n as f64 * per).round() as u64).clamp(2, 1000 * n);
        let s = Sampling::WithReplacement { m, n };
        let eta = s.inclusion_probability().unwrap();
        let dp = with_replacement_delta(e, d, m, n).unwrap();
        prop_assert!(dp.is_finite() && dp > 0.0 && dp <= 1.0, "δ′ = {} at m = {}, n = {}", dp, m, n);
        prop_assert!(dp >= eta * d * (1.0 - 1e-9));
        prop_assert!(with_replacement_delta(e, (d * 2.0).min(0.5), m, n).unwrap() >= dp * (1.0 - 1e-12));
        prop_assert!(with_replacement_delta(e, d, (m + 1).min(1000 * n), n).unwrap() >= dp * (1.0 - 1e-12));
    }

    #[test]
    fn no_nan_anywhere_on_the_domain(e in 0.0f64..=500.0, p in 0.0f64..=1.0) {
        let a = amplified_epsilon(e, p).unwrap();
        prop_assert!(a.is_finite());
        if p > 0.0 {
            prop_assert!(base_epsilon(e, p).unwrap().is_finite());
        }
    }
}
