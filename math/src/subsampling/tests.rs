//! Tests of [`super`], in a file of their own so that the module stays short.

use super::*;

#[test]
fn poisson_sample_size_is_the_binomial_mean_and_spread() {
    // The binomial law's own moments, summed over its probabilities (built by the ratio
    // P[k + 1]/P[k] = (n − k)/(k + 1)·p/(1 − p)), against the closed forms.
    for (n, p) in [
        (1u64, 0.5),
        (10, 0.1),
        (60, 0.01),
        (200, 0.37),
        (100, 0.95),
        (500, 0.6),
    ] {
        let mut pk = (1.0f64 - p).powi(n as i32);
        let (mut m1, mut m2) = (0.0, 0.0);
        for k in 0..=n {
            m1 += k as f64 * pk;
            m2 += (k * k) as f64 * pk;
            pk *= (n - k) as f64 / (k + 1) as f64 * p / (1.0 - p);
        }
        let (mean, sd) = poisson_sample_size(n, p).unwrap();
        assert!(
            (mean - m1).abs() <= 1e-10 * m1.max(1.0),
            "n {n}, p {p}: {mean} vs {m1}"
        );
        let var = m2 - m1 * m1;
        assert!(
            (sd * sd - var).abs() <= 1e-8 * var.max(1e-3),
            "n {n}, p {p}: {sd} vs {var}"
        );
    }
    // Steinke's setting on the page: 60,000 records at p = 0.01: 600 ± 24.37.
    let (mean, sd) = poisson_sample_size(60_000, 0.01).unwrap();
    assert!((mean - 600.0).abs() < 1e-9 && (sd - 594f64.sqrt()).abs() < 1e-9);
    // The ends of the domain: nobody or everybody is kept, the size is certain.
    assert_eq!(poisson_sample_size(1000, 0.0).unwrap(), (0.0, 0.0));
    assert_eq!(poisson_sample_size(1000, 1.0).unwrap(), (1000.0, 0.0));
    assert!(poisson_sample_size(0, 0.1).is_err());
    assert!(poisson_sample_size(10, 1.5).is_err());
    assert!(poisson_sample_size(10, f64::NAN).is_err());
}

#[test]
fn seed_values() {
    // Hu, Drechsler & Kim, Section 3: ε = 1 with a 1% sample allows 5.1523.
    let e = base_epsilon(1.0, 0.01).unwrap();
    assert!((e - 5.1523).abs() < 5e-5, "{e}");
    // Section 4.3: N = 10001, n = 101.
    let p = 101.0 / 10001.0;
    assert!((base_epsilon(0.1, p).unwrap() - 2.4348).abs() < 5e-5);
    assert!((base_epsilon(1.0, p).unwrap() - 5.1425).abs() < 5e-5);
    // OpenDP's test quotes log(1 + 0.1(e² − 1)) as 0.4941 (an upper rounding); the value is
    // 0.4940287 (mpmath), so it lies within 1e-4 of the quoted figure.
    let v = amplified_epsilon(2.0, 0.1).unwrap();
    assert!((v - 0.4941).abs() < 1e-4 && (v - 0.494_028_708_044_178_8).abs() < 1e-15);
}

/// Found by mutation testing (tools/mutants.sh): names, domain edges and the far branch of
/// the inverse that no other test reached.
#[test]
fn names_and_domain_edges() {
    for s in Scheme::ALL {
        assert_eq!(Scheme::from_id(s.id()), Some(s));
    }
    assert_eq!(Scheme::from_id("poisson"), Some(Scheme::Poisson));
    assert_eq!(
        Scheme::from_id("with-replacement"),
        Some(Scheme::WithReplacement)
    );
    assert_eq!(Scheme::from_id("nope"), None);
    assert_eq!(Scheme::Poisson.label(), "Poisson (rate p)");
    assert_eq!(
        Scheme::WithoutReplacement.label(),
        "m of n without replacement"
    );
    // m = n without replacement is the whole dataset, allowed; m = n + 1 is not.
    assert!(Sampling::WithoutReplacement { m: 5, n: 5 }
        .validate()
        .is_ok());
    assert!(Sampling::WithoutReplacement { m: 6, n: 5 }
        .validate()
        .is_err());
    // Counts up to 2^53 inclusive.
    assert!(Sampling::WithoutReplacement { m: 1, n: MAX_COUNT }
        .validate()
        .is_ok());
    assert!(Sampling::WithoutReplacement {
        m: 1,
        n: MAX_COUNT + 1
    }
    .validate()
    .is_err());
    assert!(Sampling::WithoutReplacement { m: 0, n: 5 }
        .validate()
        .is_err());
    // With replacement: NaN in either argument, m out of range with a good n.
    assert!(matches!(
        with_replacement_inclusion(f64::NAN, 10.0),
        Err(MathError::NotANumber { .. })
    ));
    assert!(matches!(
        with_replacement_inclusion(1.0, f64::NAN),
        Err(MathError::NotANumber { .. })
    ));
    assert!(with_replacement_inclusion(-1.0, 10.0).is_err());
    assert!(with_replacement_inclusion(1.0, 0.5).is_err());
    // One record: drawn iff there is at least one draw.
    assert_eq!(with_replacement_inclusion(0.0, 1.0).unwrap(), 0.0);
    assert_eq!(with_replacement_inclusion(0.5, 1.0).unwrap(), 1.0);
    // One draw from n ≥ 2 records: δ′ = δ/n exactly.
    let d = with_replacement_delta(1.0, 1e-6, 1, 10).unwrap();
    assert!((d - 1e-7).abs() <= 1e-22, "{d}");
    // Poisson: δ′ = p·δ exactly; the inverse divides by p. Bad base ε is refused.
    let a = amplify(
        &Sampling::Poisson { p: 0.1 },
        EpsDelta {
            epsilon: 1.0,
            delta: 1e-6,
        },
    )
    .unwrap();
    assert!((a.guarantee.delta - 1e-7).abs() <= 1e-22);
    let s = Sampling::Poisson { p: 0.1 };
    assert!((base_delta(&s, 1.0, 1e-7).unwrap() - 1e-6).abs() <= 1e-21);
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(base_delta(&s, bad, 1e-7).is_err(), "{bad}");
    }
    // A base ε of 0 is allowed (pure δ).
    assert!((base_delta(&s, 0.0, 1e-7).unwrap() - 1e-6).abs() <= 1e-21);
    // The linear heuristic of subsampled randomized response is p·ε.
    assert_eq!(subsampled_rr(2.0, 0.25).unwrap().linear, 0.5);
    // The inverse where (e^ε′ − 1)/p overflows: log(1 + (e^500 − 1)/1e-200) = 500 + 200·ln 10
    // to double precision (the −1 and the 1 are far below an ulp).
    let e = base_epsilon(500.0, 1e-200).unwrap();
    let want = 500.0 + 200.0 * std::f64::consts::LN_10;
    assert!(
        (e - want).abs() <= 4.0 * f64::EPSILON * want,
        "{e} vs {want}"
    );
}

#[test]
fn out_of_domain_inputs_are_typed_errors() {
    assert!(matches!(
        amplified_epsilon(f64::NAN, 0.1),
        Err(MathError::NotANumber { .. })
    ));
    assert!(matches!(
        amplified_epsilon(-1.0, 0.1),
        Err(MathError::OutOfDomain { .. })
    ));
    assert!(matches!(
        amplified_epsilon(1.0, 1.5),
        Err(MathError::OutOfDomain { .. })
    ));
    assert!(matches!(
        amplified_epsilon(f64::INFINITY, 0.5),
        Err(MathError::OutOfDomain { .. })
    ));
    assert!(matches!(
        EpsDelta::new(1.0, 1.0),
        Err(MathError::OutOfDomain { .. })
    ));
    assert!(matches!(
        base_epsilon(1.0, 0.0),
        Err(MathError::OutOfDomain { .. })
    ));
    let wor = Sampling::WithoutReplacement { m: 11, n: 10 };
    assert!(matches!(
        wor.validate(),
        Err(MathError::Inconsistent { .. })
    ));
    let zero = Sampling::WithReplacement { m: 0, n: 10 };
    assert!(matches!(
        zero.validate(),
        Err(MathError::OutOfDomain { .. })
    ));
    let many = Sampling::WithReplacement { m: 10_001, n: 10 };
    assert!(matches!(
        many.validate(),
        Err(MathError::Inconsistent { .. })
    ));
}

#[test]
fn group_bound_is_delta_for_one_and_grows_to_one() {
    assert_eq!(group_profile_bound(1.0, 1e-6, 1), 1e-6);
    assert_eq!(group_profile_bound(0.0, 0.0, 5), 0.0);
    assert!((group_profile_bound(0.0, 0.1, 3) - 0.3).abs() < 1e-15);
    let mut last = 0.0;
    for k in 1..200 {
        let b = group_profile_bound(0.3, 1e-3, k);
        assert!(b >= last && b <= 1.0);
        last = b;
    }
    assert_eq!(group_profile_bound(50.0, 0.5, 3), 1.0);
}

#[test]
fn with_replacement_pure_dp_gets_a_delta_floor() {
    // m = 256 draws of n = 60000 with a pure 1-DP base mechanism: δ′ ≈ P(K = 2)·δ₂ with
    // δ₂ = (e² − e)/(e² + 1) (the two-position bound at δ = 0), P(K = 2) ≈ ½(m/n)².
    let d = with_replacement_delta(1.0, 0.0, 256, 60_000).unwrap();
    let e = std::f64::consts::E;
    let approx = 0.5 * (256.0f64 / 60_000.0).powi(2) * (e * e - e) / (e * e + 1.0);
    assert!((d / approx - 1.0).abs() < 0.01, "{d} vs {approx}");
    let s = Sampling::WithReplacement { m: 256, n: 60_000 };
    assert!(matches!(
        base_delta(&s, 1.0, 1e-9),
        Err(MathError::NoSolution { .. })
    ));
}

#[test]
fn inverse_delta_without_solution_says_why() {
    let s = Sampling::Poisson { p: 0.01 };
    let err = base_delta(&s, 1.0, 0.5).unwrap_err();
    assert!(err.to_string().contains("every base δ"), "{err}");
    assert_eq!(base_delta(&s, 1.0, 1e-8).unwrap(), 1e-8 / 0.01);
}
