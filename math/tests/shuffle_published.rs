//! Published values of the shuffle bounds, and an independent brute-force check of the exact
//! clone-reduction ε.
//!
//! - FMT21 (arXiv 2012.12803) at n = 1e5, ε₀ = 4, δ = 1e-6: the theorem's closed form 0.53463,
//!   the published code's variant 0.53780, the published numerical method's range
//!   [0.16754, 0.17279], the exact value 0.16977 (all from math-reference.md), each to the digits
//!   given (half a unit of the last digit).
//! - EFMRTT19 (arXiv 1811.12469) at n = 1e5, ε₀ = ½, δ = 1e-6: 0.0705.
//! - BBGN19 (arXiv 1903.02837): the values printed in the authors' notebook
//!   (github.com/BorjaBalle/amplification-by-shuffling, n = 5000, ε₀ = 0.4), δ at ε = 0.005 to
//!   1e-9 relative, ε at δ = 1e-6 and ε₀ for ε = 0.005 to 1e-9 absolute (their root finder's
//!   tolerance and numerical expectation leave ~2e-11).
//! - FMT23 (arXiv 2208.04591), the stronger clones: no value of the paper could be read here, so
//!   the check is against the code Wang et al. published for the same pair (arXiv 2304.05007,
//!   github.com/wangsw/PrivacyAmplification, `amplificationUB`/`amplificationLB` with general
//!   ε₀-LDP parameters, 12 bisection steps on [0, ε₀], run by us): our exact ε lies inside each
//!   of its 15 brackets, and its closed form (`strong_clone_closed`) matches ours to the 6 digits
//!   printed.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::shuffle::{self, bbgn19_bennett_delta, bbgn19_hoeffding_delta, Bound, Randomizer};
use amp_math::special::ln_binomial;

fn near(got: f64, published: f64, half_unit: f64) {
    assert!(
        (got - published).abs() <= half_unit,
        "got {got}, published {published} (±{half_unit})"
    );
}

#[test]
fn fmt21_published_values() {
    let (eps0, n, delta) = (4.0, 100_000, 1e-6);
    let closed = shuffle::fmt21(eps0, n, delta).unwrap();
    assert!(closed.valid);
    near(closed.epsilon.unwrap(), 0.53463, 5e-6);
    near(
        shuffle::fmt21_code_variant(eps0, n, delta).unwrap(),
        0.53780,
        5e-6,
    );
    let (plo, phi) = shuffle::fmt21_published(eps0, n, delta).unwrap();
    near(plo, 0.16754, 5e-6);
    near(phi, 0.17279, 5e-6);
    let (lo, hi) = shuffle::fmt21_numerical(eps0, n, delta).unwrap();
    near(hi, 0.16977, 5e-6);
    assert!(lo <= hi && hi - lo < 1e-9, "[{lo}, {hi}]");
    // The same through the common interface.
    let r = shuffle::shuffle_epsilon(Bound::Fmt21Numerical, eps0, n, delta).unwrap();
    assert_eq!(r.epsilon, Some(hi));
    assert_eq!(r.exact_lower, Some(lo));
    assert_eq!((r.lower, r.upper), (Some(plo), Some(phi)));
    let b = shuffle::best(eps0, n, delta).unwrap();
    assert_eq!(b.bound, Bound::Fmt21Numerical);
}

#[test]
fn efmrtt19_published_value() {
    let r = shuffle::efmrtt19(0.5, 100_000, 1e-6).unwrap();
    near(r.epsilon.unwrap(), 0.0705, 5e-5);
    // Outside its box it is marked, not computed.
    let r = shuffle::efmrtt19(0.6, 100_000, 1e-6).unwrap();
    assert!(!r.valid && r.epsilon.is_none() && r.reason_invalid.is_some());
}

#[test]
fn bbgn19_notebook_values() {
    let (n, eps0) = (5000, 0.4);
    let g = Randomizer::Generic;
    let rr2 = Randomizer::KRr { k: 2 };
    let rr100 = Randomizer::KRr { k: 100 };
    let rel = |got: f64, want: f64| assert!((got / want - 1.0).abs() < 1e-9, "{got} vs {want}");
    // δ at ε = 0.005.
    rel(
        bbgn19_hoeffding_delta(g, 0.005, eps0, n).unwrap(),
        0.037942471911790294,
    );
    rel(
        bbgn19_bennett_delta(g, 0.005, eps0, n).unwrap(),
        0.14009168313254008,
    );
    rel(
        bbgn19_hoeffding_delta(rr2, 0.005, eps0, n).unwrap(),
        0.005642546362741425,
    );
    rel(
        bbgn19_bennett_delta(rr2, 0.005, eps0, n).unwrap(),
        0.005686529997978448,
    );
    rel(
        bbgn19_hoeffding_delta(rr100, 0.005, eps0, n).unwrap(),
        0.007445148952583604,
    );
    rel(
        bbgn19_bennett_delta(rr100, 0.005, eps0, n).unwrap(),
        3.360217120217285e-09,
    );
    // ε at δ = 1e-6.
    let eps = |b: Bound, r: Randomizer| {
        shuffle::shuffle_epsilon_with(b, r, eps0, n, 1e-6)
            .unwrap()
            .epsilon
            .unwrap()
    };
    near(eps(Bound::Bbgn19Hoeffding, g), 0.05746164784348143, 1e-9);
    near(eps(Bound::Bbgn19Bennett, g), 0.11301679081207759, 1e-9);
    near(eps(Bound::Bbgn19Hoeffding, rr2), 0.02397882347116631, 1e-9);
    near(eps(Bound::Bbgn19Bennett, rr2), 0.02428301504607527, 1e-9);
    near(
        eps(Bound::Bbgn19Hoeffding, rr100),
        0.026881289729458715,
        1e-9,
    );
    near(
        eps(Bound::Bbgn19Bennett, rr100),
        0.0035207898339832183,
        1e-9,
    );
    near(
        shuffle::efmrtt19(eps0, n, 1e-6).unwrap().epsilon.unwrap(),
        0.2523130449483328,
        1e-12,
    );
    // The largest ε₀ for central ε = 0.005 at δ = 1e-6 (Bennett with a generic randomizer cannot
    // amplify there, so ε₀ = ε).
    let eps0_for = |b: Bound, r: Randomizer| {
        shuffle::largest_eps0_with(b, r, 0.005, n, 1e-6)
            .unwrap()
            .eps0
    };
    near(
        eps0_for(Bound::Bbgn19Hoeffding, g),
        0.04963572123548638,
        1e-9,
    );
    near(eps0_for(Bound::Bbgn19Bennett, g), 0.005, 1e-9);
    near(
        eps0_for(Bound::Bbgn19Hoeffding, rr2),
        0.09933108921716256,
        1e-9,
    );
    near(
        eps0_for(Bound::Bbgn19Bennett, rr2),
        0.09839052251746179,
        1e-9,
    );
    near(
        eps0_for(Bound::Bbgn19Hoeffding, rr100),
        0.0970004939783926,
        1e-9,
    );
    near(
        eps0_for(Bound::Bbgn19Bennett, rr100),
        0.5191456848866671,
        1e-9,
    );
    near(
        shuffle::largest_eps0(Bound::Efmrtt19, 0.005, n, 1e-6)
            .unwrap()
            .eps0,
        0.00792666110628386,
        1e-12,
    );
}

/// The clone reduction's ε by brute force: weights from lgamma over every clone count whose
/// probability exceeds e^{-80}, each divergence from its definition Σ_j max(0, P(j) − e^ε Q(j))
/// over j within 15 standard deviations of c/2 (symmetric, so both orders agree), and 50 halvings
/// of [0, ε₀]. Shares nothing with the library but `ln_binomial` (lgamma).
fn brute_force_epsilon(eps0: f64, n: u64, delta: f64) -> f64 {
    let big_n = (n - 1) as f64;
    let p = (-eps0).exp();
    let q = -(-eps0).exp_m1();
    let alpha = eps0.exp() / (eps0.exp() + 1.0);
    // (weight, first j, P and Q over the window) per clone count.
    let mut table: Vec<(f64, Vec<(f64, f64)>)> = Vec::new();
    for c in 0..n {
        let lw = ln_binomial(big_n, c as f64) + c as f64 * p.ln() + (big_n - c as f64) * q.ln();
        if lw < -80.0 {
            continue;
        }
        let cf = c as f64;
        let half_width = (15.0 * cf.sqrt() / 2.0).ceil() as i64 + 2;
        let jlo = (c.div_ceil(2) as i64 - half_width).max(0);
        let jhi = c as i64 + 1 - jlo;
        let b = |j: i64| -> f64 {
            if j < 0 || j > c as i64 {
                0.0
            } else {
                (ln_binomial(cf, j as f64) - cf * std::f64::consts::LN_2).exp()
            }
        };
        let pq: Vec<(f64, f64)> = (jlo..=jhi)
            .map(|j| {
                let (b0, b1) = (b(j - 1), b(j));
                (
                    alpha * b0 + (1.0 - alpha) * b1,
                    alpha * b1 + (1.0 - alpha) * b0,
                )
            })
            .collect();
        table.push((lw.exp(), pq));
    }
    let delta_at = |eps: f64| -> f64 {
        let e = eps.exp();
        table
            .iter()
            .map(|(w, pq)| {
                let (mut a, mut b) = (0.0, 0.0);
                for &(pj, qj) in pq {
                    a += (pj - e * qj).max(0.0);
                    b += (qj - e * pj).max(0.0);
                }
                w * a.max(b)
            })
            .sum()
    };
    let (mut lo, mut hi) = (0.0, eps0);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if delta_at(mid) <= delta {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[test]
fn exact_clone_epsilon_matches_brute_force() {
    for &(eps0, n, delta) in &[
        (4.0, 100_000u64, 1e-6),
        (1.0, 10_000, 1e-6),
        (2.0, 3000, 1e-3),
    ] {
        let brute = brute_force_epsilon(eps0, n, delta);
        let (lo, hi) = shuffle::fmt21_numerical(eps0, n, delta).unwrap();
        eprintln!("ε₀ = {eps0}, n = {n}, δ = {delta}: brute force {brute:.12}, exact [{lo:.12}, {hi:.12}]");
        assert!(
            (brute - hi).abs() < 1e-6 && (brute - lo).abs() < 1e-6,
            "brute force {brute} vs [{lo}, {hi}]"
        );
    }
}

/// (n, δ, ε₀, Wang et al.'s upper run, lower run, closed form), general ε₀-LDP parameters
/// (p = q = e^{ε₀}, β = (e^{ε₀} − 1)/(e^{ε₀} + 1)), printed to 6 decimals.
const WANG_GENERAL: [(u64, f64, f64, f64, f64, f64); 15] = [
    (100_000, 1e-6, 0.1, 0.000781, 0.000757, 0.005047),
    (100_000, 1e-6, 1.0, 0.012451, 0.012207, 0.060361),
    (100_000, 1e-6, 3.0, 0.065918, 0.065186, 0.255150),
    (100_000, 1e-6, 4.0, 0.118164, 0.117188, 0.407794),
    (100_000, 1e-6, 5.0, 0.206299, 0.205078, 0.613581),
    (1_000_000, 1e-8, 0.1, 0.000366, 0.000342, 0.001824),
    (1_000_000, 1e-8, 1.0, 0.005127, 0.004883, 0.022193),
    (1_000_000, 1e-8, 3.0, 0.025635, 0.024902, 0.099588),
    (1_000_000, 1e-8, 4.0, 0.045898, 0.044922, 0.166517),
    (1_000_000, 1e-8, 5.0, 0.078125, 0.076904, 0.265595),
    (10_000, 1e-6, 0.1, 0.002808, 0.002783, 0.015903),
    (10_000, 1e-6, 1.0, 0.043213, 0.042969, 0.180015),
    (10_000, 1e-6, 3.0, 0.226318, 0.225586, 0.654612),
    (10_000, 1e-6, 4.0, 0.411133, 0.410156, 0.958174),
    // The closed form does not apply here (Wang et al.'s code returns ε₀).
    (10_000, 1e-6, 5.0, 0.742188, 0.740967, f64::NAN),
];

#[test]
fn fmt23_matches_the_published_code_for_the_same_pair() {
    let krr = Randomizer::KRr { k: 2 };
    for (n, delta, eps0, up, low, closed) in WANG_GENERAL {
        let (lo, hi) = shuffle::fmt23_numerical(eps0, n, delta).unwrap();
        // Their runs return the ends of a bisection interval (printed to 6 decimals): ours lies
        // between them.
        assert!(
            low - 5e-7 <= lo && hi <= up + 5e-7,
            "n = {n}, δ = {delta:e}, ε₀ = {eps0}: ours [{lo}, {hi}], theirs [{low}, {up}]"
        );
        assert!(lo <= hi && hi - lo < 1e-9 * hi.max(1e-3));
        let c = shuffle::fmt23(krr, eps0, n, delta).unwrap();
        if closed.is_nan() {
            assert!(!c.valid && c.epsilon.is_none());
        } else {
            near(c.epsilon.unwrap(), closed, 5e-7);
        }
        // Tighter than the 2021 clones everywhere here.
        let (_, old) = shuffle::fmt21_numerical(eps0, n, delta).unwrap();
        assert!(hi < old, "n = {n}, ε₀ = {eps0}: {hi} ≥ {old}");
    }
    // The headline point, to the digits of our own evaluation, through the common interface:
    // the tightest for randomized response, not valid for a generic randomizer.
    let r = shuffle::shuffle_epsilon_with(Bound::Fmt23Numerical, krr, 4.0, 100_000, 1e-6).unwrap();
    near(r.epsilon.unwrap(), 0.1181531, 5e-8);
    assert_eq!(
        shuffle::best_with(krr, 4.0, 100_000, 1e-6).unwrap().bound,
        Bound::Fmt23Numerical
    );
    let g = shuffle::shuffle_epsilon(Bound::Fmt23Numerical, 4.0, 100_000, 1e-6).unwrap();
    assert!(!g.valid && g.epsilon.is_none() && g.reason_invalid.is_some());
    let g = shuffle::shuffle_epsilon(Bound::Fmt23, 4.0, 100_000, 1e-6).unwrap();
    assert!(!g.valid && g.epsilon.is_none());
    assert_eq!(
        shuffle::best(4.0, 100_000, 1e-6).unwrap().bound,
        Bound::Fmt21Numerical
    );
}

#[test]
fn fmt23_inverse_round_trips() {
    // The largest ε₀ whose stronger-clone ε meets a target: ε(ε₀) at the answer is the target
    // (to the ε₀ tolerance), and the answer is larger than the 2021 clones allow.
    let krr = Randomizer::KRr { k: 3 };
    for (target, n, delta) in [
        (0.1181531, 100_000, 1e-6),
        (0.05, 10_000, 1e-6),
        (1.0, 1000, 1e-8),
    ] {
        let l = shuffle::largest_eps0_with(Bound::Fmt23Numerical, krr, target, n, delta).unwrap();
        let (_, hi) = shuffle::fmt23_numerical(l.eps0, n, delta).unwrap();
        assert!(
            hi <= target && hi > target * (1.0 - 1e-6),
            "{target} {n}: ε₀ {} gives {hi}",
            l.eps0
        );
        let old = shuffle::largest_eps0(Bound::Fmt21Numerical, target, n, delta).unwrap();
        assert!(l.eps0 > old.eps0, "{} ≤ {}", l.eps0, old.eps0);
        let c = shuffle::largest_eps0_with(Bound::Fmt23, krr, target, n, delta);
        if let Ok(c) = c {
            let v = shuffle::fmt23(krr, c.eps0, n, delta)
                .unwrap()
                .epsilon
                .unwrap();
            assert!(v <= target * (1.0 + 1e-12), "{v} > {target}");
            assert!(
                c.eps0 <= l.eps0,
                "closed form allows more than the exact reduction"
            );
        }
    }
    // A generic randomizer gets a reason, not an answer.
    let e = shuffle::largest_eps0(Bound::Fmt23Numerical, 0.1, 100_000, 1e-6).unwrap_err();
    assert!(e.to_string().contains("k-ary"), "{e}");
}
