//! Property tests of the attacker's view (amp_math::risk): the band is ordered and inside
//! [α, 1]; the true curve grows with the sampling rate, the number of steps and 1/σ, so the lower
//! bound of the more private run never exceeds the upper bound of the less private one; the GDP
//! curve and its inverse round-trip; calibration meets its target and not by much.

use amp_math::pld::{Band, Estimate, Noise};
use amp_math::risk::*;
use amp_math::special::{normal_cdf, normal_quantile};
use proptest::prelude::*;

fn noise() -> impl Strategy<Value = Noise> {
    prop_oneof![
        (0.5..4.0f64).prop_map(Noise::Gaussian),
        (0.5..4.0f64).prop_map(Noise::Laplace),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn band_is_ordered_and_monotone_in_q_steps_and_noise(
        noise in noise(),
        q in 0.001..1.0f64,
        steps in 1u64..200,
        alpha in prop_oneof![1e-6..1e-3f64, 1e-3..0.5f64, 0.5..1.0f64],
        more in 1.05..3.0f64,
    ) {
        let h = 2e-3;
        let band = |n: Noise, q: f64, k: u64| Tradeoff::from_band(&Band::new(n, q, k, h).unwrap()).unwrap();
        let base = band(noise, q, steps).tpr(alpha).unwrap();
        prop_assert!(alpha <= base.1 && base.1 <= base.0 && base.0 <= 1.0, "{base:?}");
        let size = match noise { Noise::Gaussian(s) | Noise::Laplace(s) => s };
        // Less private runs: a larger rate, more steps, less noise.
        let others = [
            band(noise, (q * more).min(1.0), steps),
            band(noise, q, ((steps as f64) * more).ceil() as u64),
            band(noise.with_size(size / more), q, steps),
        ];
        for (i, t) in others.iter().enumerate() {
            let (u, l) = t.tpr(alpha).unwrap();
            prop_assert!(l <= u);
            prop_assert!(base.1 <= u + 1e-12, "change {i}: lower {} above the less private upper {u}", base.1);
        }
    }

    #[test]
    fn gdp_round_trips_and_quantile_inverts_the_cdf(
        mu in 0.0..6.0f64,
        alpha in prop_oneof![1e-12..1e-3f64, 1e-3..0.999f64],
        p in prop_oneof![1e-300..1e-10f64, 1e-10..1.0f64],
    ) {
        let t = gdp_tpr(mu, alpha).unwrap();
        prop_assert!(t >= alpha && t <= 1.0);
        if t < 1.0 - 1e-6 && t > alpha * (1.0 + 1e-9) {
            let m = gdp_mu_for_tpr(alpha, t).unwrap();
            prop_assert!((m - mu).abs() <= 1e-7 * mu.max(1.0), "{mu} -> {t} -> {m}");
        }
        let z = normal_quantile(p);
        let back = normal_cdf(z);
        prop_assert!((back - p).abs() <= 1e-13 * p, "{p} -> {z} -> {back}");
    }

    #[test]
    fn eps_delta_region_is_monotone_and_contains_the_diagonal(
        e in 0.0..10.0f64,
        d in 0.0..0.5f64,
        a in 0.0..1.0f64,
        b in 0.0..1.0f64,
    ) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let tl = eps_delta_tpr(e, d, lo).unwrap();
        let th = eps_delta_tpr(e, d, hi).unwrap();
        prop_assert!(lo <= tl && tl <= th && th <= 1.0);
        // More ε or more δ allows more.
        prop_assert!(eps_delta_tpr(e + 0.5, d, lo).unwrap() >= tl);
        prop_assert!(eps_delta_tpr(e, (d + 0.1).min(1.0), lo).unwrap() >= tl);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn calibration_meets_the_target_and_not_by_much(
        q in 0.005..0.2f64,
        steps in 10u64..500,
        fpr in prop_oneof![Just(0.001), Just(0.01), Just(0.1)],
        lift in 1.5..8.0f64,
        adv in 0.02..0.5f64,
    ) {
        let h = 5e-3;
        let tpr = (fpr * lift).min(0.99);
        for target in [RiskTarget::Tpr { fpr, tpr }, RiskTarget::Advantage(adv)] {
            let risk = |s: f64| {
                let pair = Noise::Gaussian(s)
                    .poisson(q, h, Estimate::Pessimistic)
                    .unwrap()
                    .self_compose(steps)
                    .unwrap();
                target.risk(&pair).unwrap()
            };
            match sigma_for_risk(q, steps, target, h) {
                Ok(s) => {
                    prop_assert!(risk(s) <= target.value(), "{target:?}: σ {s} gives {}", risk(s));
                    prop_assert!(risk(s * 0.998) > target.value(), "{target:?}: σ {s} is not the smallest");
                }
                // Only when the answer is outside [0.2, 10⁴].
                Err(e) => prop_assert!(risk(0.2) <= target.value() || risk(1e4) > target.value(), "{e}"),
            }
        }
    }
}

/// σ whose certified risk over `steps` Poisson-sampled Gaussian steps at rate q meets the target,
/// on the loss grid h (the accountants' calibration, relative accuracy 1e-4).
fn sigma_for_risk(
    q: f64,
    steps: u64,
    target: RiskTarget,
    h: f64,
) -> Result<f64, amp_math::MathError> {
    use amp_math::accounting::{calibrate_event, Event, PldAccountant, Search, Target};
    calibrate_event(
        &PldAccountant::with_step(h),
        |s| Event::poisson(amp_math::rdp::Mechanism::Gaussian { sigma: s }, q).repeated(steps),
        Target::Risk(target),
        Search::Noise { rel: 1e-4 },
    )
}
