//! The analytic part of Hu, Drechsler & Kim, "Accuracy gains from privacy amplification through
//! sampling for differential privacy", against `tools/reference/accuracy.py` (mpmath, 60 digits).
//! Tolerance 1e-12 relative (issue #4).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::accuracy::{
    delta_n, epsilon_n, mean_noise_ratio, mean_noise_ratio_naive, mean_variances,
    no_gain_threshold, rate_for_variance_fraction, variance_fraction,
};
use amp_math::MathError;

const TABLE: &str = include_str!("data/accuracy.csv");

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

#[test]
fn accuracy_matches_mpmath() {
    let mut worst: std::collections::BTreeMap<String, f64> = Default::default();
    let mut rows = 0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        let expected = num(c[4]);
        let got = match c[0] {
            "q" => variance_fraction(num(c[1]), num(c[2])).unwrap(),
            "r" => mean_noise_ratio(num(c[1]), num(c[2])).unwrap(),
            "rate_for_q" => rate_for_variance_fraction(num(c[1]), num(c[3])).unwrap(),
            "v_sample" => mean_variances(num(c[1]), num(c[2]), 10001.0, 1.0, num(c[3]))
                .unwrap()
                .sample_total(),
            "v_population" => {
                mean_variances(num(c[1]), 0.5, 10001.0, num(c[3]), 0.05)
                    .unwrap()
                    .population
            }
            "delta_n" => delta_n(num(c[3]), num(c[2])).unwrap(),
            "eps_n" => epsilon_n(num(c[1]), num(c[2])).unwrap(),
            "no_gain" => no_gain_threshold(num(c[1]), num(c[2]), num(c[3])).unwrap(),
            other => panic!("unknown kind {other}"),
        };
        let rel = if expected == 0.0 {
            got.abs()
        } else {
            ((got - expected) / expected).abs()
        };
        assert!(rel <= 1e-12, "{line}: got {got:e}, relative error {rel:e}");
        let w = worst.entry(c[0].to_string()).or_default();
        *w = w.max(rel);
        rows += 1;
    }
    assert!(rows > 500, "table too small: {rows}");
    for (k, w) in worst {
        eprintln!("largest relative error for {k}: {w:.2e}");
    }
}

/// Inputs outside each function's domain are refused, each at its own edge (so a check that was
/// dropped or loosened is noticed).
#[test]
fn domains_are_checked_at_their_edges() {
    // The rate n/N ∈ (0, 1].
    for bad in [0.0, -0.1, 1.5, f64::NAN] {
        assert!(epsilon_n(1.0, bad).is_err(), "ε_n at rate {bad}");
        assert!(delta_n(1e-6, bad).is_err(), "δ_n at rate {bad}");
        assert!(mean_noise_ratio(1.0, bad).is_err(), "r at rate {bad}");
        assert!(
            mean_variances(1.0, bad, 100.0, 1.0, 0.1).is_err(),
            "V at rate {bad}"
        );
    }
    // δ_n must stay below 1: exactly 1 is refused, just below is not.
    assert!(matches!(
        delta_n(0.5, 0.5),
        Err(MathError::NoSolution { .. })
    ));
    assert!(delta_n(0.25, 0.5).is_ok_and(|d| d == 0.5));
    // The target share q ∈ (0, 1), open at both ends.
    for bad in [0.0, 1.0, -0.5, 1.5, f64::NAN] {
        assert!(
            matches!(
                rate_for_variance_fraction(1.0, bad),
                Err(MathError::OutOfDomain { .. })
            ),
            "target {bad}"
        );
    }
    for ok in [1e-9, 0.5, 0.99] {
        assert!(rate_for_variance_fraction(1.0, ok).is_ok(), "target {ok}");
    }
    // At a large ε, q stays below a high target at every rate: no solution, said as such.
    match rate_for_variance_fraction(500.0, 0.9) {
        Err(MathError::NoSolution { reason }) => {
            assert!(reason.contains("stays below"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // The mean's inputs: N and R positive and finite, S² non-negative (0 allowed).
    for (n, r, s2) in [
        (0.0, 1.0, 0.1),
        (-1.0, 1.0, 0.1),
        (f64::INFINITY, 1.0, 0.1),
        (100.0, 0.0, 0.1),
        (100.0, f64::NAN, 0.1),
        (100.0, 1.0, -0.1),
    ] {
        assert!(
            mean_variances(1.0, 0.1, n, r, s2).is_err(),
            "N {n}, R {r}, S² {s2}"
        );
    }
    assert!(mean_variances(1.0, 0.1, 100.0, 1.0, 0.0).is_ok());
    assert!(mean_variances(0.0, 0.1, 100.0, 1.0, 0.1).is_err());
}

/// The naive form of eq. 8 agrees with the stable one wherever double precision suffices (its
/// failure below ε ≈ 1e-8 is what the page shows).
#[test]
fn naive_noise_ratio_agrees_with_the_stable_one_at_moderate_epsilon() {
    for eps in [0.05, 0.5, 1.0, 3.0] {
        for rate in [0.001, 0.01, 0.3, 1.0] {
            let (naive, stable) = (
                mean_noise_ratio_naive(eps, rate),
                mean_noise_ratio(eps, rate).unwrap(),
            );
            assert!(
                ((naive - stable) / stable).abs() < 1e-9,
                "ε = {eps}, rate = {rate}: {naive} vs {stable}"
            );
        }
    }
}
