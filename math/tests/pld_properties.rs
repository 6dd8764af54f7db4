//! Property tests for the PLD accountant (math/src/pld.rs) on DP-SGD-like settings, on a coarse
//! grid (h = 1e-3) so that each case is fast: the optimistic δ never exceeds the pessimistic one;
//! the true δ lies between them, so the optimistic ε never exceeds the RDP bound (an upper bound
//! on the truth); ε(δ) and δ(ε) invert each other; more steps, a larger rate or less noise never
//! give a smaller ε.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::pld::{self, Estimate, PldPair};
use amp_math::rdp::{default_orders, epsilon_for_delta, Conversion, Curve, Mechanism, Sampling};
use proptest::prelude::*;

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..=hi.log10()).prop_map(move |x| 10f64.powf(x).clamp(lo, hi))
}

const H: f64 = 1e-3;

fn composed(sigma: f64, q: f64, steps: u64, est: Estimate) -> PldPair {
    pld::poisson_gaussian(sigma, q, H, est)
        .unwrap()
        .self_compose(steps)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn optimistic_below_pessimistic_below_rdp(
        sigma in log_uniform(0.6, 10.0), q in log_uniform(1e-3, 1.0), steps in 1u64..2000,
    ) {
        let hi = composed(sigma, q, steps, Estimate::Pessimistic);
        let lo = composed(sigma, q, steps, Estimate::Optimistic);
        for eps in [0.0, 0.1, 1.0, 3.0] {
            let (u, l) = (hi.delta_for_epsilon(eps), lo.delta_for_epsilon(eps));
            prop_assert!(l.is_finite() && u.is_finite() && l >= 0.0 && u <= 1.0);
            prop_assert!(l <= u * (1.0 + 1e-9) + 1e-15, "ε = {}: optimistic {} > pessimistic {}", eps, l, u);
        }
        let delta = 1e-5;
        let rdp = Curve::of(&Mechanism::Gaussian { sigma }, Sampling::Poisson { q }, &default_orders())
            .unwrap()
            .times(steps as f64);
        let e_rdp = epsilon_for_delta(&rdp, delta, Conversion::Improved).unwrap().epsilon;
        let e_lo = lo.epsilon_for_delta(delta).unwrap();
        let e_hi = hi.epsilon_for_delta(delta).unwrap();
        prop_assert!(e_lo <= e_hi + 1e-12, "ε band [{}, {}]", e_lo, e_hi);
        prop_assert!(e_lo <= e_rdp * (1.0 + 1e-9) + 1e-12, "optimistic {} above RDP {}", e_lo, e_rdp);
    }

    #[test]
    fn epsilon_and_delta_invert_each_other(
        sigma in log_uniform(0.6, 10.0), q in log_uniform(1e-3, 1.0), steps in 1u64..2000,
        delta in log_uniform(1e-10, 1e-2),
    ) {
        let hi = composed(sigma, q, steps, Estimate::Pessimistic);
        let e = hi.epsilon_for_delta(delta).unwrap();
        let back = hi.delta_for_epsilon(e);
        if e > 0.0 {
            prop_assert!((back - delta).abs() <= 1e-9 * delta, "δ {} → ε {} → δ {}", delta, e, back);
        } else {
            prop_assert!(back <= delta * (1.0 + 1e-9));
        }
    }

    #[test]
    fn epsilon_grows_with_steps_rate_and_less_noise(
        sigma in log_uniform(0.6, 10.0), q in log_uniform(1e-3, 0.5), steps in 1u64..1000,
    ) {
        let delta = 1e-5;
        let e = |s: f64, q: f64, k: u64| composed(s, q, k, Estimate::Pessimistic).epsilon_for_delta(delta).unwrap();
        let base = e(sigma, q, steps);
        prop_assert!(e(sigma, q, steps * 2) >= base - 1e-9);
        prop_assert!(e(sigma, (q * 2.0).min(1.0), steps) >= base - 1e-9);
        prop_assert!(e(sigma * 1.5, q, steps) <= base + 1e-9);
    }

    #[test]
    fn laplace_band_is_ordered_and_below_rdp(
        b in log_uniform(0.3, 20.0), q in log_uniform(1e-3, 1.0), steps in 1u64..1000,
    ) {
        let build = |est| pld::poisson_laplace(b, q, H, est).unwrap().self_compose(steps).unwrap();
        let (hi, lo) = (build(Estimate::Pessimistic), build(Estimate::Optimistic));
        let delta = 1e-5;
        let (e_hi, e_lo) = (hi.epsilon_for_delta(delta).unwrap(), lo.epsilon_for_delta(delta).unwrap());
        prop_assert!(e_lo <= e_hi + 1e-12, "band [{}, {}]", e_lo, e_hi);
        let rdp = Curve::of(&Mechanism::Laplace { scale: b }, Sampling::Poisson { q }, &default_orders())
            .unwrap()
            .times(steps as f64);
        let e_rdp = epsilon_for_delta(&rdp, delta, Conversion::Improved).unwrap().epsilon;
        prop_assert!(e_lo <= e_rdp * (1.0 + 1e-9) + 1e-12, "optimistic {} above RDP {}", e_lo, e_rdp);
    }
}
