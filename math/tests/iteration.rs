//! Tests for amplification by iteration (math/src/iteration.rs).
//!
//! Closed-form values against numbers worked out by hand below (the arithmetic is in the
//! comments); the (ε, δ) conversion at parameters where the best order lies on the grid; ε(t)
//! increasing in t, decreasing in σ and in T; amplified ≤ composition everywhere, with equality
//! at t = T; the whole curve equal to the one-position function; the positions for the figure;
//! the mean factor H_T/T; the step-size condition; and bad inputs giving errors, never panics.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::iteration::{
    amplification_factor, check_step_size, composition_epsilon, composition_rdp,
    epsilon_by_position, iteration_epsilon, iteration_rdp, iteration_rdp_slope,
    mean_amplification_factor, orders, plot_positions, remaining_steps, OnePassSgd, RELATION,
};
use amp_math::rdp::Conversion;
use amp_math::{MathError, Relation};
use proptest::prelude::*;

mod common;
use common::any_f64;

fn sgd(steps: u64, sigma: f64, lipschitz: f64, batch: u64) -> OnePassSgd {
    OnePassSgd {
        steps,
        sigma,
        lipschitz,
        batch,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

#[test]
fn relation_is_replace_one() {
    assert_eq!(RELATION, Relation::ReplaceOne);
}

#[test]
fn closed_form_at_round_parameters() {
    // σ = 2, L = 1, b = 1, T = 10. Δ = 2L/b = 2, one step's slope Δ²/(2σ²) = 4/8 = 0.5.
    let s = sgd(10, 2.0, 1.0, 1);
    assert_eq!(s.sensitivity(), 2.0);
    assert_eq!(s.step_rdp_slope(), 0.5);
    // α = 3, t = 6: T − t + 1 = 5 steps, ε = 3·0.5/5 = 0.3.
    assert!(close(iteration_rdp(3.0, 6, &s).unwrap(), 0.3, 1e-15));
    // α = 3, t = 1: 10 steps, ε = 1.5/10 = 0.15.
    assert!(close(iteration_rdp(3.0, 1, &s).unwrap(), 0.15, 1e-15));
    // α = 3, t = T = 10: one step, ε = 1.5, the unamplified value.
    assert_eq!(iteration_rdp(3.0, 10, &s).unwrap(), 1.5);
    assert_eq!(composition_rdp(3.0, &s).unwrap(), 1.5);
    // The theorem's own form α·2L²/(σ²(T − t + 1)) = 3·2/(4·5) = 0.3 at t = 6.
    assert!(close(
        iteration_rdp(3.0, 6, &s).unwrap(),
        3.0 * 2.0 / (4.0 * 5.0),
        1e-15
    ));
    assert_eq!(remaining_steps(6, 10).unwrap(), 5);
    assert_eq!(amplification_factor(6, 10).unwrap(), 0.2);
    assert_eq!(amplification_factor(10, 10).unwrap(), 1.0);
}

#[test]
fn batch_divides_the_sensitivity() {
    // σ = 0.5, L = 2, b = 4: Δ = 2·2/4 = 1, slope 1/(2·0.25) = 2. T = 100, t = 51: 50 steps.
    // α = 2: ε = 2·2/50 = 0.08.
    let s = sgd(100, 0.5, 2.0, 4);
    assert_eq!(s.sensitivity(), 1.0);
    assert_eq!(s.step_rdp_slope(), 2.0);
    assert!(close(iteration_rdp(2.0, 51, &s).unwrap(), 0.08, 1e-15));
    // Four times the batch, a sixteenth of the RDP (Δ ∝ 1/b).
    let s1 = sgd(100, 0.5, 2.0, 1);
    let ratio = iteration_rdp(2.0, 51, &s1).unwrap() / iteration_rdp(2.0, 51, &s).unwrap();
    assert!(close(ratio, 16.0, 1e-15));
}

#[test]
fn agrees_with_the_coefficient_of_tf_privacy_tutorial() {
    // TensorFlow Privacy's logistic-regression tutorial (one epoch of m steps, record in step s)
    // uses RDP α·2(z·b)⁻²/(m − s + 1) with noise multiplier z = σ/L. z = 1.1, b = 5, L = 3
    // (σ = 3.3), 20 steps, s = 11: 2/(5.5²)/10 = 2/30.25/10 = 0.006611570247933884.
    let s = sgd(20, 3.3, 3.0, 5);
    assert!(close(
        iteration_rdp_slope(11, &s).unwrap(),
        0.006_611_570_247_933_884,
        1e-14
    ));
}

#[test]
fn epsilon_classic_conversion_by_hand() {
    // σ = 2, L = 1, T = 10, t = 3: 8 steps, slope 0.5/8 = 0.0625. δ = e^−16, log(1/δ) = 16.
    // Classic: ε = min_α 0.0625α + 16/(α − 1); the continuous optimum α = 1 + √(16/0.0625) = 17
    // is on the grid, ε = 0.0625·17 + 16/16 = 1.0625 + 1 = 2.0625 (α = 16: 2.0667, 18: 2.0662).
    let s = sgd(10, 2.0, 1.0, 1);
    let delta = (-16.0f64).exp();
    let e = iteration_epsilon(3, &s, delta, Conversion::Classic).unwrap();
    assert_eq!(e.order, 17.0);
    assert!(close(e.epsilon, 2.0625, 1e-14));
    assert_eq!(e.delta, delta);
    // Without amplification, slope 0.5: optimum 1 + √32 = 6.657 lies between grid orders; the
    // best of them is 6.75: 0.5·6.75 + 16/5.75 = 3.375 + 2.7826087 = 6.157608695652174
    // (6.5 gives 6.1591, 7 gives 6.1667). The continuous optimum 0.5 + 2√8 = 6.1569 is below.
    let c = composition_epsilon(&s, delta, Conversion::Classic).unwrap();
    assert_eq!(c.order, 6.75);
    assert!(close(c.epsilon, 6.157_608_695_652_174, 1e-14));
    // t = T is the composition value exactly.
    let last = iteration_epsilon(10, &s, delta, Conversion::Classic).unwrap();
    assert_eq!(last, c);
}

#[test]
fn improved_conversion_is_never_worse() {
    let s = sgd(1000, 1.5, 1.0, 1);
    let positions: Vec<u64> = (1..=1000).step_by(37).collect();
    let classic = epsilon_by_position(&s, &positions, 1e-6, Conversion::Classic).unwrap();
    let improved = epsilon_by_position(&s, &positions, 1e-6, Conversion::Improved).unwrap();
    for (c, i) in classic.iter().zip(&improved) {
        assert!(i.epsilon <= c.epsilon);
    }
}

#[test]
fn monotone_in_position() {
    // Later records have fewer noisy steps after them: ε grows with t.
    for &(steps, sigma) in &[(50u64, 0.7), (1000, 3.0), (100_000, 10.0)] {
        let s = sgd(steps, sigma, 1.0, 1);
        let mut prev = 0.0;
        for t in plot_positions(steps, 300).unwrap() {
            let r = iteration_rdp(4.0, t, &s).unwrap();
            assert!(r > prev, "RDP not increasing at t = {t}");
            prev = r;
        }
        let pos: Vec<u64> = (1..=steps).step_by((steps / 50).max(1) as usize).collect();
        for conv in [Conversion::Classic, Conversion::Improved] {
            let eps = epsilon_by_position(&s, &pos, 1e-5, conv).unwrap();
            for w in eps.windows(2) {
                assert!(w[1].epsilon >= w[0].epsilon);
            }
        }
    }
}

#[test]
fn monotone_in_sigma_and_steps_and_lipschitz() {
    let delta = 1e-5;
    // More noise, less privacy loss.
    let (mut prev_r, mut prev_e) = (f64::INFINITY, f64::INFINITY);
    for sigma in [0.3, 0.5, 1.0, 2.0, 5.0, 20.0] {
        let s = sgd(200, sigma, 1.0, 1);
        let r = iteration_rdp(8.0, 37, &s).unwrap();
        let e = iteration_epsilon(37, &s, delta, Conversion::Improved)
            .unwrap()
            .epsilon;
        assert!(r < prev_r);
        assert!(e < prev_e);
        prev_r = r;
        prev_e = e;
    }
    // The same record (t = 5), more steps after it: less privacy loss.
    let mut prev_r = f64::INFINITY;
    let mut prev_e = f64::INFINITY;
    for steps in [5u64, 6, 10, 100, 1000, 1_000_000] {
        let s = sgd(steps, 1.0, 1.0, 1);
        let r = iteration_rdp(2.5, 5, &s).unwrap();
        let e = iteration_epsilon(5, &s, delta, Conversion::Classic)
            .unwrap()
            .epsilon;
        assert!(r < prev_r);
        assert!(e <= prev_e);
        prev_r = r;
        prev_e = e;
    }
    // Larger gradients, more loss.
    let a = iteration_rdp(2.0, 3, &sgd(10, 1.0, 1.0, 1)).unwrap();
    let b = iteration_rdp(2.0, 3, &sgd(10, 1.0, 2.0, 1)).unwrap();
    assert!(close(b, 4.0 * a, 1e-15));
}

#[test]
fn amplified_never_above_composition_and_equal_at_the_end() {
    for &(steps, sigma, lip, batch) in &[
        (1u64, 1.0, 1.0, 1u64),
        (7, 0.5, 2.0, 3),
        (1000, 4.0, 0.1, 16),
        (123_456, 1.3, 1.0, 1),
    ] {
        let s = sgd(steps, sigma, lip, batch);
        for alpha in [1.01, 2.0, 10.5, 1000.0, 10_000.0] {
            let c = composition_rdp(alpha, &s).unwrap();
            for t in plot_positions(steps, 200).unwrap() {
                assert!(iteration_rdp(alpha, t, &s).unwrap() <= c);
            }
            assert_eq!(iteration_rdp(alpha, steps, &s).unwrap(), c);
        }
        let positions = plot_positions(steps, 200).unwrap();
        for conv in [Conversion::Classic, Conversion::Improved] {
            let c = composition_epsilon(&s, 1e-6, conv).unwrap();
            for e in epsilon_by_position(&s, &positions, 1e-6, conv).unwrap() {
                assert!(e.epsilon <= c.epsilon);
            }
            assert_eq!(
                iteration_epsilon(steps, &s, 1e-6, conv).unwrap().epsilon,
                c.epsilon
            );
        }
    }
}

#[test]
fn whole_curve_matches_single_positions() {
    let s = sgd(60, 0.8, 1.0, 2);
    let all: Vec<u64> = (1..=60).collect();
    let curve = epsilon_by_position(&s, &all, 1e-5, Conversion::Improved).unwrap();
    assert_eq!(curve.len(), 60);
    for (t, e) in all.iter().zip(&curve) {
        let one = iteration_epsilon(*t, &s, 1e-5, Conversion::Improved).unwrap();
        assert_eq!(one, *e);
    }
    // Positions in any order, with repeats.
    let some = epsilon_by_position(&s, &[60, 1, 60, 30], 1e-5, Conversion::Improved).unwrap();
    assert_eq!(some[0], some[2]);
    assert_eq!(some[1], curve[0]);
    assert_eq!(some[3], curve[29]);
}

#[test]
fn long_runs_use_high_orders() {
    // T = 10⁶, σ = 4, L = 1: slope 2/16 = 0.125; the first record's is 1.25e-7, whose best
    // order 1 + √(log(10⁶)/1.25e-7) ≈ 10⁴ is far above 1024. ε ≈ 2√(1.25e-7·13.8) ≈ 0.0026.
    let s = sgd(1_000_000, 4.0, 1.0, 1);
    let e = iteration_epsilon(1, &s, 1e-6, Conversion::Classic).unwrap();
    assert!(e.order > 1024.0);
    assert!(e.epsilon < 0.003, "{}", e.epsilon);
    assert!(*orders().last().unwrap() == 10_000.0);
    // A full-resolution figure for such a run is cheap.
    let pos = plot_positions(1_000_000, 500).unwrap();
    let eps = epsilon_by_position(&s, &pos, 1e-6, Conversion::Improved).unwrap();
    assert_eq!(eps.len(), pos.len());
    assert!(eps
        .iter()
        .all(|e| e.epsilon.is_finite() && e.epsilon >= 0.0));
}

#[test]
fn figure_positions() {
    // Small T: every position.
    assert_eq!(plot_positions(5, 10).unwrap(), vec![1, 2, 3, 4, 5]);
    assert_eq!(plot_positions(1, 2).unwrap(), vec![1]);
    for &(steps, points) in &[
        (11u64, 10usize),
        (1000, 2),
        (1000, 3),
        (1_000_000, 400),
        (1 << 53, 1000),
    ] {
        let p = plot_positions(steps, points).unwrap();
        assert!(p.len() <= points && p.len() >= 2);
        assert_eq!(p[0], 1);
        assert_eq!(*p.last().unwrap(), steps);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
    }
    // Dense near the end: with T = 10⁶ and 400 points, T − 1 and T − 2 are both there.
    let p = plot_positions(1_000_000, 400).unwrap();
    assert!(p.contains(&999_999) && p.contains(&999_998));
}

#[test]
fn mean_factor() {
    // T = 1: 1. T = 4: (1 + 1/2 + 1/3 + 1/4)/4 = (25/12)/4 = 25/48.
    assert_eq!(mean_amplification_factor(1).unwrap(), 1.0);
    assert!(close(
        mean_amplification_factor(4).unwrap(),
        25.0 / 48.0,
        1e-15
    ));
    // Past 10⁴ the asymptotic series is used; it agrees with a direct sum.
    for steps in [10_001u64, 54_321, 1_000_000] {
        let direct: f64 = (1..=steps).rev().map(|k| 1.0 / k as f64).sum::<f64>() / steps as f64;
        assert!(close(
            mean_amplification_factor(steps).unwrap(),
            direct,
            1e-14
        ));
    }
    // It is the average of the per-position factors.
    let avg: f64 = (1..=300)
        .map(|t| amplification_factor(t, 300).unwrap())
        .sum::<f64>()
        / 300.0;
    assert!(close(mean_amplification_factor(300).unwrap(), avg, 1e-14));
}

#[test]
fn step_size_condition() {
    // β = 4: 2/β = 0.5.
    assert!(check_step_size(0.5, 4.0).is_ok());
    assert!(check_step_size(0.1, 4.0).is_ok());
    assert!(matches!(
        check_step_size(0.51, 4.0),
        Err(MathError::Inconsistent { .. })
    ));
    assert!(matches!(
        check_step_size(f64::NAN, 4.0),
        Err(MathError::NotANumber { .. })
    ));
    assert!(check_step_size(0.0, 4.0).is_err());
    assert!(check_step_size(0.1, -1.0).is_err());
    assert!(check_step_size(0.1, f64::INFINITY).is_err());
}

#[test]
fn bad_inputs_are_errors() {
    let s = sgd(10, 1.0, 1.0, 1);
    // Position outside [1, T].
    assert!(iteration_rdp(2.0, 0, &s).is_err());
    assert!(iteration_rdp(2.0, 11, &s).is_err());
    assert!(remaining_steps(3, 0).is_err());
    assert!(amplification_factor(0, 5).is_err());
    assert!(iteration_epsilon(11, &s, 1e-5, Conversion::Classic).is_err());
    assert!(epsilon_by_position(&s, &[1, 2, 0], 1e-5, Conversion::Classic).is_err());
    // Orders.
    for alpha in [1.0, 0.5, -3.0, 10_001.0, f64::INFINITY] {
        assert!(iteration_rdp(alpha, 3, &s).is_err());
        assert!(composition_rdp(alpha, &s).is_err());
    }
    assert!(matches!(
        iteration_rdp(f64::NAN, 3, &s),
        Err(MathError::NotANumber { .. })
    ));
    // Parameters.
    for bad in [
        sgd(0, 1.0, 1.0, 1),
        sgd((1 << 53) + 1, 1.0, 1.0, 1),
        sgd(10, 0.0, 1.0, 1),
        sgd(10, -1.0, 1.0, 1),
        sgd(10, f64::NAN, 1.0, 1),
        sgd(10, f64::INFINITY, 1.0, 1),
        sgd(10, 1.0, 0.0, 1),
        sgd(10, 1.0, f64::NAN, 1),
        sgd(10, 1.0, f64::INFINITY, 1),
        sgd(10, 1.0, 1.0, 0),
        sgd(10, 1e-200, 1e200, 1),
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
        assert!(iteration_rdp(2.0, 1, &bad).is_err());
        assert!(composition_rdp(2.0, &bad).is_err());
        assert!(composition_epsilon(&bad, 1e-5, Conversion::Classic).is_err());
    }
    // δ outside (0, 1).
    for delta in [0.0, 1.0, -0.1, f64::NAN] {
        assert!(iteration_epsilon(3, &s, delta, Conversion::Improved).is_err());
        assert!(composition_epsilon(&s, delta, Conversion::Improved).is_err());
    }
    // Figure positions and mean.
    assert!(plot_positions(0, 10).is_err());
    assert!(plot_positions(10, 1).is_err());
    assert!(plot_positions(10, 2_000_000).is_err());
    assert!(mean_amplification_factor(0).is_err());
}

fn any_count() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(u64::MAX),
        Just(1 << 53),
        0u64..100,
        any::<u64>()
    ]
}

proptest! {
    /// Any input whatsoever: an error or a finite, non-negative value, never a panic.
    #[test]
    fn never_panics(
        alpha in any_f64(),
        delta in any_f64(),
        sigma in any_f64(),
        lip in any_f64(),
        steps in any_count(),
        batch in any_count(),
        t in any_count(),
        points in 0usize..50,
    ) {
        let s = sgd(steps, sigma, lip, batch);
        if let Ok(r) = iteration_rdp(alpha, t, &s) {
            prop_assert!(r.is_finite() && r >= 0.0);
        }
        if let Ok(r) = composition_rdp(alpha, &s) {
            prop_assert!(r.is_finite() && r >= 0.0);
        }
        for conv in [Conversion::Classic, Conversion::Improved] {
            if let Ok(e) = iteration_epsilon(t, &s, delta, conv) {
                prop_assert!(e.epsilon.is_finite() && e.epsilon >= 0.0);
            }
        }
        let _ = remaining_steps(t, steps);
        let _ = amplification_factor(t, steps);
        let _ = check_step_size(alpha, sigma);
        if steps <= 1 << 20 {
            let _ = plot_positions(steps, points);
            if let Ok(m) = mean_amplification_factor(steps) {
                prop_assert!(m > 0.0 && m <= 1.0);
            }
        }
    }

    /// On the valid domain: amplified ≤ composition, and the ratio is exactly 1/(T − t + 1).
    #[test]
    fn ratio_is_the_amplification_factor(
        sigma in (-2.0..4.0f64).prop_map(|x| 10f64.powf(x)),
        lip in (-3.0..3.0f64).prop_map(|x| 10f64.powf(x)),
        steps in 1u64..1_000_000_000,
        batch in 1u64..10_000,
        frac in 0.0..1.0f64,
        alpha in 1.001..10_000.0f64,
    ) {
        let s = sgd(steps, sigma, lip, batch);
        let t = ((frac * steps as f64) as u64).clamp(1, steps);
        let a = iteration_rdp(alpha, t, &s).unwrap();
        let c = composition_rdp(alpha, &s).unwrap();
        prop_assert!(a <= c);
        let f = amplification_factor(t, steps).unwrap();
        prop_assert!(close(a, c * f, 1e-14));
    }
}

/// The schedules' factors against the definition σ²/Σ_{s≥t}σ_s², summed here step by step from
/// each schedule's σ_s², and their (ε, δ) at the first and last positions.
#[test]
fn noise_schedules_spend_the_same_variance_and_move_privacy_to_early_records() {
    use amp_math::iteration::{epsilon_by_position_scheduled, schedule_factor, NoiseSchedule};
    let sigma2 = 1.0; // factors do not depend on σ
    for steps in [1u64, 2, 7, 100] {
        let tf = steps as f64;
        let variance = |sch: NoiseSchedule, s: u64| -> f64 {
            match sch {
                NoiseSchedule::Constant => sigma2,
                NoiseSchedule::LinearVariance => 2.0 * sigma2 * s as f64 / (tf + 1.0),
                NoiseSchedule::AtTheEnd => {
                    if s == steps {
                        tf * sigma2
                    } else {
                        0.0
                    }
                }
            }
        };
        for sch in [
            NoiseSchedule::Constant,
            NoiseSchedule::LinearVariance,
            NoiseSchedule::AtTheEnd,
        ] {
            let total: f64 = (1..=steps).map(|s| variance(sch, s)).sum();
            assert!(
                close(total, tf * sigma2, 1e-12),
                "{sch:?}: same total variance"
            );
            for t in 1..=steps {
                let tail: f64 = (t..=steps).map(|s| variance(sch, s)).sum();
                let want = sigma2 / tail;
                let got = schedule_factor(sch, t, steps).unwrap();
                assert!(
                    close(got, want, 1e-12),
                    "{sch:?} T {steps} t {t}: {got} vs {want}"
                );
            }
        }
    }
    assert!(schedule_factor(NoiseSchedule::Constant, 0, 5).is_err());
    assert!(schedule_factor(NoiseSchedule::AtTheEnd, 6, 5).is_err());
    // (ε, δ): the first record is the same under all three (it sees all the variance); the last
    // gains under the linear schedule; at the end every record has the first's ε.
    let run = sgd(1000, 5.0, 1.0, 1);
    let at = |sch, t| {
        epsilon_by_position_scheduled(&run, sch, &[t], 1e-6, Conversion::Improved).unwrap()[0]
            .epsilon
    };
    let first = at(NoiseSchedule::Constant, 1);
    assert!(close(at(NoiseSchedule::LinearVariance, 1), first, 1e-12));
    for t in [1, 500, 1000] {
        assert!(close(at(NoiseSchedule::AtTheEnd, t), first, 1e-12), "t {t}");
    }
    let (lin_last, const_last) = (
        at(NoiseSchedule::LinearVariance, 1000),
        at(NoiseSchedule::Constant, 1000),
    );
    assert!(
        lin_last < const_last && lin_last > first,
        "{lin_last} {const_last} {first}"
    );
}
