//! Properties of the noise ratio (Steinke, "Limits of privacy amplification by subsampling"): the
//! bounds of eq. 6, monotonicity, the floor of eq. 8, and the regime calculator's factor never
//! above its bound.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::limits::{
    noise_factor_bound, noise_ratio, ratio_floor, regime, taylor_terms, Duration,
};
use amp_math::subsampling::base_epsilon;
use proptest::prelude::*;

fn eps() -> impl Strategy<Value = f64> {
    (-9.0f64..=1.0).prop_map(|x| 10f64.powf(x))
}
fn rate() -> impl Strategy<Value = f64> {
    (-9.0f64..=0.0).prop_map(|x| 10f64.powf(x).min(1.0))
}
fn cval() -> impl Strategy<Value = f64> {
    (-6.0f64..=4.0).prop_map(|x| 10f64.powf(x))
}

const SLACK: f64 = 4.0 * f64::EPSILON;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn ratio_within_eq6_bounds(e in eps(), p in rate()) {
        let r = noise_ratio(e, p).unwrap();
        prop_assert!(r.is_finite() && r <= 1.0);
        prop_assert!(r >= p / (p + e) * (1.0 - SLACK), "R = {} below p/(p+ε) = {}", r, p / (p + e));
    }

    #[test]
    fn ratio_falls_with_eps_and_rises_with_p(e1 in eps(), e2 in eps(), p1 in rate(), p2 in rate()) {
        let (elo, ehi) = if e1 <= e2 { (e1, e2) } else { (e2, e1) };
        let (plo, phi) = if p1 <= p2 { (p1, p2) } else { (p2, p1) };
        let r = noise_ratio(elo, plo).unwrap();
        prop_assert!(noise_ratio(ehi, plo).unwrap() <= r * (1.0 + SLACK));
        prop_assert!(noise_ratio(elo, phi).unwrap() >= r * (1.0 - SLACK));
    }

    /// Eq. 8: whenever ε ≤ c·p, R ≥ log(1 + c)/c.
    #[test]
    fn floor_holds_below_c_times_p(c in cval(), p in rate(), frac in 0.0f64..=1.0) {
        let e = (c * p * frac).max(1e-300);
        prop_assume!(e <= 500.0);
        let r = noise_ratio(e, p).unwrap();
        prop_assert!(r >= ratio_floor(c).unwrap() * (1.0 - 1e-12), "R = {} < floor {}", r, ratio_floor(c).unwrap());
    }

    #[test]
    fn floor_is_decreasing_and_bound_is_its_inverse(c1 in cval(), c2 in cval()) {
        let (lo, hi) = if c1 <= c2 { (c1, c2) } else { (c2, c1) };
        prop_assert!(ratio_floor(hi).unwrap() <= ratio_floor(lo).unwrap());
        let f = ratio_floor(lo).unwrap();
        prop_assert!((f * noise_factor_bound(lo).unwrap() - 1.0).abs() < 1e-15);
    }

    /// The Taylor terms sum to ε_p up to the next order when ε/p is small.
    #[test]
    fn taylor_series_converges_for_small_eps_over_p(x in -9.0f64..-3.0, p in rate()) {
        let e = p * 10f64.powf(x);
        let t = taylor_terms(e, p).unwrap();
        let exact = base_epsilon(e, p).unwrap();
        let third = t[0] + t[1] + t[2];
        // The remainder is O((ε/p)^4)·(1/p)-ish: relative to ε_p ≈ ε/p it is O((ε/p)^3).
        prop_assert!(((third - exact) / exact).abs() <= 10.0 * (e / p).powi(3) + 1e-14);
    }

    #[test]
    fn regime_factor_never_exceeds_its_bound(
        dataset in 100u64..10_000_000, frac in 0.0f64..1.0, epochs in 0.01f64..100.0, total in 0.01f64..20.0,
    ) {
        let batch = ((dataset as f64 * frac) as u64).clamp(1, dataset);
        let r = regime(dataset, batch, Duration::Epochs(epochs), total).unwrap();
        prop_assert!(r.noise_factor >= 1.0 - SLACK);
        prop_assert!(r.noise_factor <= r.noise_factor_bound * (1.0 + 1e-12));
        prop_assert!(r.steps >= 1 && (r.epochs - r.steps as f64 * r.p).abs() < 1e-9 * r.epochs);
    }
}

/// The regime calculator refuses each input outside its domain, naming it, and accepts the ends
/// of the domain (2^53 examples and steps, 1e9 epochs).
#[test]
fn regime_refuses_each_input_outside_its_domain() {
    use amp_math::limits::{regime, Duration};
    use amp_math::MathError;
    let top = 1u64 << 53;
    let out = |r: Result<_, MathError>, what: &str| match r {
        Err(MathError::OutOfDomain { name, .. }) => assert_eq!(name, what),
        Err(MathError::Inconsistent { .. }) => assert_eq!(what, "batch"),
        other => panic!("{what}: {other:?}"),
    };
    out(regime(0, 1, Duration::Steps(10), 1.0), "dataset size");
    out(regime(top + 1, 1, Duration::Steps(10), 1.0), "dataset size");
    out(regime(100, 0, Duration::Steps(10), 1.0), "batch");
    out(regime(100, 101, Duration::Steps(10), 1.0), "batch");
    out(regime(100, 10, Duration::Steps(0), 1.0), "steps");
    out(regime(100, 10, Duration::Steps(top + 1), 1.0), "steps");
    out(regime(100, 10, Duration::Epochs(0.0), 1.0), "epochs");
    out(regime(100, 10, Duration::Epochs(-1.0), 1.0), "epochs");
    out(regime(100, 10, Duration::Epochs(2e9), 1.0), "epochs");
    out(regime(100, 10, Duration::Epochs(f64::NAN), 1.0), "epochs");
    out(regime(100, 10, Duration::Steps(10), 0.0), "ε*");
    assert!(regime(100, 10, Duration::Steps(10), -1.0).is_err());
    // The ends of the domain are accepted.
    assert!(regime(top, top / 2, Duration::Steps(1), 1.0).is_ok());
    assert!(regime(100, 100, Duration::Steps(top), 1.0).is_ok());
    assert!(regime(100, 10, Duration::Epochs(1e9), 1.0).is_ok());
    let r = regime(100, 10, Duration::Epochs(1e-9), 1.0).unwrap();
    assert_eq!(r.steps, 1, "epochs round to at least one step");
}
