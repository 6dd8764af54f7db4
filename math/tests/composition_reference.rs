//! The optimal composition of k (ε, δ)-DP mechanisms against the mpmath table written by
//! `tools/reference/composition.py` (a bisection on the full sum, not the closed form per
//! interval used here), and its properties: at most the advanced and the naive composition, never
//! below one step's ε′ at δ_k, growing with k, and equal to Kairouz, Oh & Viswanath's grid points.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::rdp::{
    advanced_composition, naive_composition, optimal_composition, optimal_composition_epsilon,
    Mechanism, Sampling,
};

const TABLE: &str = include_str!("data/composition.csv");

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

#[test]
fn optimal_composition_matches_mpmath() {
    let mut rows = 0;
    let mut worst: f64 = 0.0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 5, "malformed row {line}");
        let (eps, delta, k, dt, expected) = (num(c[0]), num(c[1]), num(c[2]), num(c[3]), num(c[4]));
        let got = optimal_composition_epsilon(eps, delta, k, dt).unwrap();
        let err = if expected == 0.0 {
            got.abs()
        } else {
            ((got - expected) / expected).abs()
        };
        worst = worst.max(err);
        assert!(err < 1e-9, "{line}: got {got}");
        rows += 1;
    }
    assert!(rows >= 150, "{rows} rows");
    eprintln!("optimal composition: {rows} rows, worst relative error {worst:e}");
}

/// Theorem 3.3's grid: k-fold composition is ((k − 2i)ε, 1 − (1 − δ)^k(1 − δ_i))-DP with
/// δ_i = Σ_{l<i} C(k, l)(e^{(k−l)ε} − e^{(k−2i+l)ε})/(1 + e^ε)^k, so asking for that δ returns
/// (k − 2i)ε. Computed here term by term in plain floating point (k small).
#[test]
fn the_grid_points_of_the_theorem_come_back() {
    for &(eps, delta, k) in &[(0.5f64, 0.0f64, 6u32), (1.0, 1e-6, 9), (0.2, 1e-4, 12)] {
        let kf = f64::from(k);
        let binom =
            |n: u32, r: u32| (0..r).fold(1.0, |a, j| a * f64::from(n - j) / f64::from(j + 1));
        for i in 1..k / 2 {
            let di: f64 = (0..i)
                .map(|l| {
                    binom(k, l)
                        * ((f64::from(k - l) * eps).exp() - (f64::from(k - 2 * i + l) * eps).exp())
                        / (1.0 + eps.exp()).powf(kf)
                })
                .sum();
            let dt = 1.0 - (1.0 - delta).powf(kf) * (1.0 - di);
            let got = optimal_composition_epsilon(eps, delta, kf, dt).unwrap();
            let want = f64::from(k - 2 * i) * eps;
            assert!(
                (got - want).abs() < 1e-9 * want,
                "ε {eps}, δ {delta}, k {k}, i {i}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn optimal_lies_below_advanced_and_naive_and_grows_with_k() {
    let sampling = Sampling::Poisson { q: 0.01 };
    for mech in [
        Mechanism::Laplace { scale: 0.5 },
        Mechanism::Gaussian { sigma: 1.0 },
    ] {
        let mut last = 0.0;
        for k in [1.0, 10.0, 100.0, 1000.0, 10000.0] {
            let opt = optimal_composition(&mech, sampling, k, 1e-5)
                .unwrap()
                .epsilon;
            let adv = advanced_composition(&mech, sampling, k, 1e-5)
                .unwrap()
                .epsilon;
            let naive = naive_composition(&mech, sampling, k, 1e-5).unwrap().epsilon;
            assert!(
                opt <= adv * (1.0 + 1e-12),
                "{mech:?} k {k}: optimal {opt} > advanced {adv}"
            );
            assert!(
                opt <= naive * (1.0 + 1e-12),
                "{mech:?} k {k}: optimal {opt} > naive {naive}"
            );
            assert!(opt > last, "{mech:?} k {k}: {opt} not above {last}");
            last = opt;
        }
    }
}

#[test]
fn bad_input_is_refused_not_computed() {
    assert!(optimal_composition_epsilon(1.0, 0.0, 1e7, 1e-5).is_err());
    assert!(optimal_composition_epsilon(1.0, 0.0, 2.5, 1e-5).is_err());
    assert!(optimal_composition_epsilon(1.0, 1e-3, 100.0, 1e-5).is_err());
    assert!(optimal_composition_epsilon(f64::NAN, 0.0, 10.0, 1e-5).is_err());
    assert!(optimal_composition_epsilon(1.0, 0.0, 10.0, 0.0).is_err());
}
