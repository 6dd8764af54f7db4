//! Property tests for the shuffle module (math/src/shuffle.rs) on the domain ε₀ ∈ [10⁻³, 10],
//! n ∈ [1, 10⁶], δ ∈ [10⁻¹², ½] (k-ary randomized response with k ∈ [2, 1000]):
//!
//! - every bound's ε falls as n grows and as δ grows, and rises with ε₀ (compared where both
//!   values are valid), and never exceeds ε₀;
//! - the exact clone-reduction ε: lower ≤ upper, apart by less than 1e-9 + 1e-7·ε (2e-9 in δ);
//!   the published method's upper end is at least the exact value, and its lower end is at most
//!   the exact value plus one bisection step (the published lower run returns the right end of its
//!   last interval, which is not a certified lower bound; the left end is);
//! - inverses round-trip: the bound at `largest_eps0(t)` is at most t, and at an ε₀ larger by
//!   1e-7 relative it exceeds t, unless the validity box (or a blanket bound's end of
//!   amplification) set ε₀;
//! - subsampled randomized response: exact ≤ p·ε ≤ theorem ≤ ε, all non-decreasing in p;
//! - arbitrary inputs (NaN, infinities, negatives, n = 0, δ ≥ 1) give errors or values, never a
//!   panic, NaN or a negative ε.
//!
//! amp-math is optimised in the test profile (workspace Cargo.toml), so the numerical bounds,
//! solved several times per case, stay fast enough for hundreds of cases.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::mean_error;
use amp_math::shuffle::{self, Bound, Randomizer};
use amp_math::MathError;
use proptest::prelude::*;

mod common;
use common::any_f64;

/// Relative slack for inequalities between separately solved values: the inner solvers stop at
/// 1e-12 relative (clones) and 1e-13 (blanket).
const SLACK: f64 = 1e-9;

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..=hi.log10()).prop_map(move |x| 10f64.powf(x).clamp(lo, hi))
}

fn users(lo: f64, hi: f64) -> impl Strategy<Value = u64> {
    log_uniform(lo, hi).prop_map(|x| x.round() as u64)
}

fn randomizer() -> impl Strategy<Value = Randomizer> {
    prop_oneof![
        Just(Randomizer::Generic),
        users(2.0, 1000.0).prop_map(|k| Randomizer::KRr { k }),
    ]
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![
        Just(Bound::Efmrtt19),
        Just(Bound::Bbgn19Hoeffding),
        Just(Bound::Bbgn19Bennett),
        Just(Bound::Fmt21),
        Just(Bound::Fmt21Numerical),
        Just(Bound::Fmt23),
        Just(Bound::Fmt23Numerical),
    ]
}

/// The bound's ε, or None when not valid. Uses the fast exact path for the clones.
fn eps_of(b: Bound, r: Randomizer, eps0: f64, n: u64, delta: f64) -> Option<f64> {
    if b == Bound::Fmt21Numerical {
        return Some(shuffle::fmt21_numerical(eps0, n, delta).unwrap().1);
    }
    if b == Bound::Fmt23Numerical && r != Randomizer::Generic {
        return Some(shuffle::fmt23_numerical(eps0, n, delta).unwrap().1);
    }
    let out = shuffle::shuffle_epsilon_with(b, r, eps0, n, delta).unwrap();
    assert_eq!(out.valid, out.epsilon.is_some());
    out.epsilon
}

fn le(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a <= b * (1.0 + SLACK) + 1e-15,
        _ => true,
    }
}

/// Found by the property below: FMT21's closed form exceeds ε₀ near the edge of its validity; the
/// bound then reports ε₀ (what the shuffled ε₀-LDP protocol meets anyway), flagged.
#[test]
fn fmt21_never_reports_more_than_eps0() {
    let (eps0, n, delta) = (0.001_836_790_823_166_737, 206, 1.486_787_443_761_751_8e-5);
    let out = shuffle::fmt21(eps0, n, delta).unwrap();
    assert!(out.valid);
    assert_eq!(out.epsilon, Some(eps0));
    assert!(out.no_amplification);
    // Well inside its domain it amplifies and is not flagged.
    let out = shuffle::fmt21(4.0, 100_000, 1e-6).unwrap();
    assert!(out.epsilon.unwrap() < 0.54 && !out.no_amplification);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn monotone_in_n_eps0_and_delta(
        b in bound(), r in randomizer(),
        e1 in log_uniform(1e-3, 10.0), e2 in log_uniform(1e-3, 10.0),
        n1 in users(1.0, 1e6), n2 in users(1.0, 1e6),
        d1 in log_uniform(1e-12, 0.5), d2 in log_uniform(1e-12, 0.5),
    ) {
        let (elo, ehi) = if e1 <= e2 { (e1, e2) } else { (e2, e1) };
        let (nlo, nhi) = if n1 <= n2 { (n1, n2) } else { (n2, n1) };
        let (dlo, dhi) = if d1 <= d2 { (d1, d2) } else { (d2, d1) };
        let base = eps_of(b, r, elo, nlo, dlo);
        if let Some(v) = base {
            prop_assert!(v.is_finite() && v >= 0.0 && v <= elo * (1.0 + SLACK), "{:?}: {}", b, v);
        }
        let more_users = eps_of(b, r, elo, nhi, dlo);
        prop_assert!(le(more_users, base), "{:?} n {}→{}: {:?} → {:?}", b, nlo, nhi, base, more_users);
        let larger_eps0 = eps_of(b, r, ehi, nlo, dlo);
        prop_assert!(le(base, larger_eps0), "{:?} ε₀ {}→{}: {:?} → {:?}", b, elo, ehi, base, larger_eps0);
        let larger_delta = eps_of(b, r, elo, nlo, dhi);
        prop_assert!(le(larger_delta, base), "{:?} δ {}→{}: {:?} → {:?}", b, dlo, dhi, base, larger_delta);
    }

    #[test]
    fn exact_clone_range_and_published_range(
        eps0 in log_uniform(1e-2, 8.0), n in users(1.0, 2e5), delta in log_uniform(1e-10, 0.1),
    ) {
        let (lo, hi) = shuffle::fmt21_numerical(eps0, n, delta).unwrap();
        // The certified ends differ by 2e-9 in δ, so by 2e-9/|d log δ/dε| in ε.
        prop_assert!(lo <= hi && hi - lo <= 1e-7 * hi + 1e-9, "[{}, {}]", lo, hi);
        prop_assert!(hi <= eps0);
        let (plo, phi) = shuffle::fmt21_published(eps0, n, delta).unwrap();
        prop_assert!(plo <= phi);
        // One step of the published bisection, which starts from the code's closed form where it
        // applies and from ε₀ elsewhere.
        let limit = (n as f64 / (16.0 * (4.0 / delta).ln())).ln();
        let start = if eps0 < limit { shuffle::fmt21_code_variant(eps0, n, delta).unwrap() } else { eps0 };
        let step = start / 1024.0;
        prop_assert!(hi <= phi * (1.0 + SLACK) || phi >= eps0 * (1.0 - SLACK),
            "exact {} above the published upper {}", hi, phi);
        prop_assert!(lo >= plo - step * (1.0 + SLACK), "exact {} below the published lower {} − step", lo, plo);
        // The δ profile at the exact ends straddles the target.
        let (dlo, _) = shuffle::fmt21_numerical_delta(hi, eps0, n).unwrap();
        prop_assert!(dlo <= delta * (1.0 + 1e-6));
    }

    /// More clones never hurt: the stronger clone reduction's δ(ε) is at most the 2021 one's at
    /// every (ε, ε₀, n) (each D_c falls with c and 2/(e^{ε₀} + 1) ≥ e^{−ε₀}, so its clone count
    /// is stochastically larger), and both bracket their value tightly.
    #[test]
    fn stronger_clones_never_lose(
        eps0 in log_uniform(1e-3, 10.0), frac in 0.0f64..1.0, n in users(1.0, 1e6),
    ) {
        let eps = eps0 * frac;
        let (lo23, hi23) = shuffle::fmt23_numerical_delta(eps, eps0, n).unwrap();
        let (lo21, hi21) = shuffle::fmt21_numerical_delta(eps, eps0, n).unwrap();
        prop_assert!(lo23 <= hi23 && lo21 <= hi21);
        prop_assert!(lo23 <= hi21, "ε = {}, ε₀ = {}, n = {}: {} > {}", eps, eps0, n, lo23, hi21);
        prop_assert!(hi23 <= 1.0 && lo23 >= 0.0);
        if n == 1 {
            // No other user: both are the local guarantee's δ at ε, the same number.
            prop_assert!((hi23 - hi21).abs() <= 1e-8 * hi21.max(1e-300));
        }
    }

    #[test]
    fn subsampled_rr_chain(eps in log_uniform(1e-9, 300.0), p1 in log_uniform(1e-9, 1.0), p2 in log_uniform(1e-9, 1.0)) {
        let (plo, phi) = if p1 <= p2 { (p1, p2) } else { (p2, p1) };
        let a = shuffle::subsampled_rr(eps, plo).unwrap();
        let tight = 1.0 + 4.0 * f64::EPSILON;
        prop_assert!(a.exact >= 0.0 && a.exact <= a.linear * tight, "{:?}", a);
        prop_assert!(a.linear <= a.theorem * tight && a.theorem <= eps * tight, "{:?}", a);
        let b = shuffle::subsampled_rr(eps, phi).unwrap();
        prop_assert!(a.exact <= b.exact * tight && a.theorem <= b.theorem * tight);
        prop_assert!(shuffle::subsampled_rr_prime_exact(eps, plo).unwrap() <= plo * eps * tight);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn largest_eps0_round_trips(
        b in bound(), r in randomizer(),
        t in log_uniform(1e-3, 3.0), n in users(1.0, 1e5), delta in log_uniform(1e-12, 0.1),
    ) {
        match shuffle::largest_eps0_with(b, r, t, n, delta) {
            Ok(sol) => {
                // Every bound is at most ε₀, so ε₀ = t always meets the target, unless the box
                // stops below t.
                prop_assert!(sol.eps0 >= t * (1.0 - SLACK) || sol.limited_by_validity.is_some(),
                    "{:?}: ε₀ {} below the target {}", b, sol.eps0, t);
                let v = eps_of(b, r, sol.eps0, n, delta).expect("valid at the returned ε₀");
                prop_assert!(v <= t * (1.0 + 1e-12), "{:?}: ε({}) = {} > {}", b, sol.eps0, v, t);
                if sol.limited_by_validity.is_none() && sol.eps0 < 100.0 {
                    // The largest: a slightly larger ε₀ misses the target (ε(ε₀) can be steep, so
                    // this is the test rather than ε(ε₀) ≈ t).
                    let above = eps_of(b, r, sol.eps0 * (1.0 + 1e-7), n, delta);
                    prop_assert!(above.is_none_or(|a| a > t), "{:?}: ε({}) = {:?} still meets {}", b, sol.eps0 * (1.0 + 1e-7), above, t);
                }
            }
            Err(MathError::NoSolution { reason }) => {
                // Only the bounds with a validity box can lack a solution, and the stronger
                // clones for a randomizer they do not cover.
                let stronger_excluded = matches!(b, Bound::Fmt23 | Bound::Fmt23Numerical)
                    && r == Randomizer::Generic;
                prop_assert!(matches!(b, Bound::Efmrtt19 | Bound::Fmt21 | Bound::Fmt23) || stronger_excluded,
                    "{:?}: {}", b, reason);
            }
            Err(e) => prop_assert!(false, "{:?}: {}", b, e),
        }
    }

    #[test]
    fn shuffled_rr_error_between_central_and_local(
        n in users(1e3, 1e6), eps in log_uniform(1e-2, 2.0), delta in log_uniform(1e-10, 1e-3),
    ) {
        let local = mean_error::mean_error_local_rr(n, eps, 0.5).unwrap();
        let shuffled = mean_error::mean_error_shuffled_rr(n, eps, delta, Bound::Fmt21Numerical, 0.5).unwrap();
        // Shuffling lets each user spend ε₀ ≥ ε, so the error is at most the local one.
        prop_assert!(shuffled.local_eps0.unwrap() >= eps * (1.0 - SLACK));
        prop_assert!(shuffled.rmse <= local.rmse * (1.0 + SLACK));
        let central = mean_error::mean_error_central_laplace(n, eps, 0.5).unwrap();
        prop_assert!(central.rmse <= local.rmse * (1.0 + SLACK));
    }
}

/// A value that is not a valid result: NaN, infinite or negative.
fn bad(x: f64) -> bool {
    !x.is_finite() || x < 0.0
}

fn any_users() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1u64),
        Just(2u64),
        Just(1_000_000_001u64),
        Just(u64::MAX),
        users(1.0, 1e5),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_inputs_never_panic(
        b in bound(), r in prop_oneof![Just(Randomizer::Generic), any::<u64>().prop_map(|k| Randomizer::KRr { k })],
        x in any_f64(), y in any_f64(), z in any_f64(), n in any_users(),
    ) {
        if let Ok(out) = shuffle::shuffle_epsilon_with(b, r, x, n, y) {
            if let Some(e) = out.epsilon { prop_assert!(!bad(e), "{:?}", out); }
        }
        if let Ok(out) = shuffle::largest_eps0_with(b, r, x, n, y) { prop_assert!(!bad(out.eps0)); }
        if let Ok(v) = shuffle::bbgn19_hoeffding_delta(r, x, y, n) { prop_assert!(!v.is_nan() && v >= 0.0); }
        if let Ok(v) = shuffle::bbgn19_bennett_delta(r, x, y, n) { prop_assert!(!v.is_nan() && v >= 0.0); }
        if let Ok(v) = shuffle::clone_divergence(n, x, y) { prop_assert!(!bad(v) && v <= 1.0); }
        if let Ok((lo, hi)) = shuffle::fmt21_numerical_delta(x, y, n) { prop_assert!(!bad(lo) && lo <= hi && hi <= 1.0); }
        if let Ok(v) = shuffle::subsampled_rr_exact(x, y) { prop_assert!(!bad(v)); }
        if let Ok(v) = shuffle::subsampled_rr(x, y) { prop_assert!(!bad(v.exact) && !bad(v.theorem)); }
        if let Ok(v) = mean_error::mean_error_central_laplace(n, x, y) { prop_assert!(!bad(v.rmse)); }
        if let Ok(v) = mean_error::mean_error_local_rr(n, x, y) { prop_assert!(!bad(v.rmse)); }
        if let Ok(v) = mean_error::mean_error_shuffled_rr(n, x, y, b, z) { prop_assert!(!bad(v.rmse)); }
        if let Ok(v) = shuffle::fmt21_code_variant(x, n, y) { prop_assert!(!bad(v)); }
    }
}

#[test]
fn invalid_inputs_are_typed_errors() {
    use MathError::*;
    let e = |r: Result<shuffle::ShuffleEpsilon, MathError>| r.unwrap_err();
    assert!(matches!(
        e(shuffle::shuffle_epsilon(Bound::Fmt21, f64::NAN, 1000, 1e-6)),
        NotANumber { .. }
    ));
    assert!(matches!(
        e(shuffle::shuffle_epsilon(Bound::Fmt21, -1.0, 1000, 1e-6)),
        OutOfDomain { .. }
    ));
    assert!(matches!(
        e(shuffle::shuffle_epsilon(Bound::Fmt21, 0.0, 1000, 1e-6)),
        OutOfDomain { .. }
    ));
    assert!(matches!(
        e(shuffle::shuffle_epsilon(
            Bound::Fmt21Numerical,
            1.0,
            0,
            1e-6
        )),
        OutOfDomain { .. }
    ));
    for d in [1.0, 1.5, 0.0, -1e-9, 1e-101] {
        assert!(matches!(
            e(shuffle::shuffle_epsilon(Bound::Efmrtt19, 0.3, 10_000, d)),
            OutOfDomain { .. }
        ));
    }
    assert!(matches!(
        e(shuffle::shuffle_epsilon(
            Bound::Efmrtt19,
            0.3,
            10_000,
            f64::NAN
        )),
        NotANumber { .. }
    ));
    assert!(matches!(
        e(shuffle::shuffle_epsilon_with(
            Bound::Bbgn19Bennett,
            Randomizer::KRr { k: 1 },
            1.0,
            1000,
            1e-6
        )),
        OutOfDomain { .. }
    ));
    assert!(matches!(
        shuffle::subsampled_rr_exact(1.0, 1.5),
        Err(OutOfDomain { .. })
    ));
    assert!(matches!(
        mean_error::mean_error_local_rr(100, 0.0, 0.5),
        Err(OutOfDomain { .. })
    ));
    // Validity boxes: not an error, a marked result.
    let r = shuffle::shuffle_epsilon(Bound::Fmt21, 8.0, 1000, 1e-6).unwrap();
    assert!(!r.valid && r.reason_invalid.is_some());
    let r = shuffle::shuffle_epsilon(Bound::Efmrtt19, 0.3, 500, 1e-6).unwrap();
    assert!(!r.valid);
    // Inverses whose box is empty say so.
    let err = shuffle::largest_eps0(Bound::Efmrtt19, 0.1, 500, 1e-6).unwrap_err();
    assert!(
        matches!(err, NoSolution { .. }) && err.to_string().contains("EFMRTT19"),
        "{err}"
    );
    let err = shuffle::largest_eps0(Bound::Fmt21, 0.1, 100, 1e-6).unwrap_err();
    assert!(
        matches!(err, NoSolution { .. }) && err.to_string().contains("FMT21"),
        "{err}"
    );
    // Each of EFMRTT19's three conditions alone empties its box (n ≥ 1000; δ ≤ 0.01;
    // n ≥ 144·log(1/δ), which n = 1000 at δ = 1e-5 misses: 144·log(1e5) = 1658), and the inverse
    // says which conditions, not merely that no value was found.
    for (n, delta) in [(500, 1e-6), (100_000, 0.05), (1000, 1e-5)] {
        let err = shuffle::largest_eps0(Bound::Efmrtt19, 0.1, n, delta).unwrap_err();
        assert!(
            err.to_string().contains("does not apply") && err.to_string().contains("144"),
            "n {n}, δ {delta}: {err}"
        );
    }
    // FMT23's closed form inverts where its box is not empty: the largest ε₀ meets the target
    // and stays inside the box (k-ary randomized response, whose clones it needs).
    let krr = shuffle::Randomizer::KRr { k: 2 };
    let r = shuffle::largest_eps0_with(Bound::Fmt23, krr, 0.1, 1_000_000, 1e-6).unwrap();
    let at = shuffle::shuffle_epsilon_with(Bound::Fmt23, krr, r.eps0, 1_000_000, 1e-6).unwrap();
    assert!(
        at.valid && at.epsilon.unwrap() <= 0.1 * (1.0 + 1e-9),
        "{r:?} {at:?}"
    );
    assert!(r.eps0 > 1.0, "{r:?}");
    // The privacy blanket's inverse says when the bound gives no amplification at the answer,
    // and only then.
    let r = shuffle::largest_eps0(Bound::Bbgn19Hoeffding, 2.0, 1000, 1e-6).unwrap();
    assert!(r.limited_by_validity.is_some(), "{r:?}");
    let r = shuffle::largest_eps0(Bound::Bbgn19Hoeffding, 0.1, 100_000, 1e-6).unwrap();
    assert!(r.limited_by_validity.is_none(), "{r:?}");
    // At n = 1000 the blanket stops amplifying between ε₀ = 1 and 1.5; the answer for ε = 0.3
    // (ε₀ ≈ 0.69) is limited by the target, not by that, though ε₀ + 1 no longer amplifies.
    let r = shuffle::largest_eps0(Bound::Bbgn19Hoeffding, 0.3, 1000, 1e-6).unwrap();
    assert!(
        r.limited_by_validity.is_none() && r.eps0 > 0.6 && r.eps0 < 0.8,
        "{r:?}"
    );
    assert!(
        shuffle::shuffle_epsilon_with(
            Bound::Bbgn19Hoeffding,
            Randomizer::Generic,
            r.eps0 + 1.0,
            1000,
            1e-6
        )
        .unwrap()
        .no_amplification
    );
    // Inverses limited by the box report it.
    let r = shuffle::largest_eps0(Bound::Efmrtt19, 0.5, 100_000, 1e-6).unwrap();
    assert_eq!(r.eps0, 0.5);
    assert!(r.limited_by_validity.is_some());
}

#[test]
fn edge_cases() {
    // One user: no clones, δ(ε) = (e^{ε₀} − e^ε)/(e^{ε₀} + 1).
    let (eps0, delta): (f64, f64) = (1.0, 0.1);
    let (lo, hi) = shuffle::fmt21_numerical(eps0, 1, delta).unwrap();
    let want = (eps0.exp() - delta * (eps0.exp() + 1.0)).ln();
    assert!(
        (hi - want).abs() < 1e-9 && (lo - want).abs() < 1e-9,
        "{lo} {hi} {want}"
    );
    // Huge ε₀: nothing to hide among; ε = ε₀ − O(δ).
    let (_, hi) = shuffle::fmt21_numerical(100.0, 1_000_000_000, 1e-6).unwrap();
    assert!(hi <= 100.0 && hi > 99.9);
    // Tiny ε₀ and a billion users: finite and small.
    let (lo, hi) = shuffle::fmt21_numerical(1e-3, 1_000_000_000, 1e-100).unwrap();
    assert!(lo > 0.0 && hi < 1e-3 && hi - lo < 1e-12, "{lo} {hi}");
    // δ large enough that ε = 0 already works.
    let (lo, hi) = shuffle::fmt21_numerical(0.01, 1_000_000, 0.9).unwrap();
    assert_eq!((lo, hi), (0.0, 0.0));
    // The published method at tiny n (blocks reaching below c = 0).
    let (plo, phi) = shuffle::fmt21_published(2.0, 3, 1e-3).unwrap();
    assert!(plo <= phi && phi <= 2.0);
    // Subsampled RR at p = 1 is RR itself; at ε = 1e-9, p = 1e-9 it is ≈ pε.
    assert!((shuffle::subsampled_rr_exact(0.7, 1.0).unwrap() - 0.7).abs() < 1e-15);
    let v = shuffle::subsampled_rr_exact(1e-9, 1e-9).unwrap();
    assert!((v / 1e-18 - 1.0).abs() < 1e-12, "{v}");
}

proptest! {
    // Each case evaluates a few Rényi moments of the clone pairs (milliseconds each at n ≤ 2e4).
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The clone pairs' Rényi DP: a bracket that closes, non-increasing in n, non-decreasing in
    /// the order and in ε₀, the stronger clones never above the 2021 ones, and the classic RDP
    /// conversion never below the exact ε of the same pair (it is a looser route to (ε, δ)).
    #[test]
    fn clone_rdp_is_ordered_and_converts_above_the_exact_epsilon(
        eps0 in log_uniform(1e-2, 6.0), e2 in log_uniform(1e-2, 6.0),
        n in users(1.0, 2e4), n2 in users(1.0, 2e4),
        l1 in log_uniform(1.01, 64.0), l2 in log_uniform(1.01, 64.0),
        delta in log_uniform(1e-10, 1e-2),
    ) {
        let krr = Randomizer::KRr { k: 2 };
        let (lo, hi) = shuffle::fmt21_rdp(eps0, n, l1).unwrap();
        prop_assert!(0.0 <= lo && lo <= hi && hi - lo <= 2e-5 * hi + 1e-300, "[{}, {}]", lo, hi);
        let (slo, shi) = shuffle::fmt23_rdp(krr, eps0, n, l1).unwrap();
        prop_assert!(slo <= hi * (1.0 + SLACK), "stronger {} above clones {}", slo, hi);
        prop_assert!(shi >= slo);
        // Monotone in n, the order and ε₀.
        let (nlo, nhi) = if n <= n2 { (n, n2) } else { (n2, n) };
        let a = shuffle::fmt21_rdp(eps0, nlo, l1).unwrap();
        let b = shuffle::fmt21_rdp(eps0, nhi, l1).unwrap();
        prop_assert!(b.0 <= a.1 * (1.0 + SLACK), "n {}→{}: {:?} → {:?}", nlo, nhi, a, b);
        let (llo, lhi) = if l1 <= l2 { (l1, l2) } else { (l2, l1) };
        let a = shuffle::fmt23_rdp(krr, eps0, n, llo).unwrap();
        let b = shuffle::fmt23_rdp(krr, eps0, n, lhi).unwrap();
        prop_assert!(a.0 <= b.1 * (1.0 + SLACK), "λ {}→{}: {:?} → {:?}", llo, lhi, a, b);
        let (elo, ehi) = if eps0 <= e2 { (eps0, e2) } else { (e2, eps0) };
        let a = shuffle::fmt21_rdp(elo, n, l1).unwrap();
        let b = shuffle::fmt21_rdp(ehi, n, l1).unwrap();
        prop_assert!(a.0 <= b.1 * (1.0 + SLACK), "ε₀ {}→{}: {:?} → {:?}", elo, ehi, a, b);
        // RDP → (ε, δ) at this order: ε = D_λ + log(1/δ)/(λ − 1) is at least the exact ε.
        let via_rdp = (hi + (1.0 / delta).ln() / (l1 - 1.0)).min(eps0);
        let (exact_lo, _) = shuffle::fmt21_numerical(eps0, n, delta).unwrap();
        prop_assert!(exact_lo <= via_rdp * (1.0 + SLACK), "exact {} > via RDP {}", exact_lo, via_rdp);
    }
}

/// The privacy-blanket ε is the *smallest* ε whose δ(ε) meets the target: δ(ε) ≤ δ, and every ε
/// below it (a fine log-spaced scan from 1e-12·ε₀) misses the target. Cases include a δ(ε) that
/// is not monotone on (0, ε₀) (a small blanket: its bound grows again near ε₀), where the crossing
/// nearest ε₀ is not the smallest, and no amplification at all. (The branch for a target met at
/// the first grid point, 5e-10·ε₀, is not reached by any n ≤ 10⁹ tried.)
#[test]
fn the_blanket_epsilon_is_the_smallest_that_meets_the_target() {
    type DeltaAt = fn(Randomizer, f64, f64, u64) -> Result<f64, MathError>;
    let kinds: [(Bound, DeltaAt); 2] = [
        (Bound::Bbgn19Hoeffding, shuffle::bbgn19_hoeffding_delta),
        (Bound::Bbgn19Bennett, shuffle::bbgn19_bennett_delta),
    ];
    let rr2 = Randomizer::KRr { k: 2 };
    let cases = [
        (Randomizer::Generic, 1.0, 100_000u64, 1e-6),
        (Randomizer::Generic, 3.0, 3_000, 0.1),
        (Randomizer::Generic, 4.0, 100, 1e-3),
        (rr2, 0.5, 1_000, 1e-6),
        (rr2, 3.0, 300, 1e-2),
        (rr2, 4.0, 1_000, 1e-6),
        (rr2, 4.0, 1_000, 1e-3),
        (Randomizer::KRr { k: 100 }, 6.0, 1_000, 1e-4),
        (Randomizer::Generic, 0.01, 1_000_000_000, 1e-3),
        (Randomizer::Generic, 8.0, 10, 1e-6),
    ];
    let (mut dips, mut none) = (0, 0);
    for (bound, delta_at) in kinds {
        for &(r, eps0, n, delta) in &cases {
            let out = shuffle::shuffle_epsilon_with(bound, r, eps0, n, delta).unwrap();
            let eps = out.epsilon.unwrap();
            let d = |e: f64| delta_at(r, e, eps0, n).unwrap();
            let what = format!("{bound:?} {r:?} ε₀ = {eps0}, n = {n}, δ = {delta}: ε = {eps}");
            let top = if out.no_amplification {
                none += 1;
                assert_eq!(eps, eps0, "{what}");
                eps0
            } else {
                assert!(
                    eps < eps0 && d(eps) <= delta * (1.0 + 1e-9),
                    "{what}: δ(ε) = {:e}",
                    d(eps)
                );
                // Within 1e-9 of the crossing.
                eps * (1.0 - 1e-9)
            };
            // Nothing below meets the target.
            for i in 0..4000 {
                let e = 1e-12 * eps0 * (top / (1e-12 * eps0)).powf(i as f64 / 3999.0);
                if e < top {
                    let v = d(e);
                    assert!(v > delta, "{what}: δ({e}) = {v:e} already meets δ");
                }
            }
            // Is δ(ε) monotone on (0, ε₀)?
            let mut prev = f64::INFINITY;
            let mut dipped = false;
            for i in 1..400 {
                let v = d(eps0 * i as f64 / 400.0);
                dipped |= v > prev * (1.0 + 1e-9);
                prev = v;
            }
            if dipped && !out.no_amplification {
                dips += 1;
            }
        }
    }
    assert!(dips >= 2 && none >= 2, "dips {dips}, none {none}");
}

/// Over several bounds the inverse is the largest ε₀ any one of them certifies, named with its
/// bound, whatever their order; with none applicable, the last one's reason.
#[test]
fn the_largest_eps0_over_bounds_is_the_largest_of_each() {
    let generic = shuffle::Randomizer::Generic;
    let bounds = [
        Bound::Efmrtt19,
        Bound::Fmt21Numerical,
        Bound::Fmt21,
        Bound::Bbgn19Hoeffding,
    ];
    for (t, n) in [(0.1, 100_000_u64), (0.5, 1_000_000)] {
        let each: Vec<f64> = bounds
            .iter()
            .filter_map(|&b| shuffle::largest_eps0_with(b, generic, t, n, 1e-6).ok())
            .map(|r| r.eps0)
            .collect();
        let max = each.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = each.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(max > min, "the bounds differ at t {t}, n {n}: {each:?}");
        let mut reversed = bounds;
        reversed.reverse();
        for order in [bounds, reversed] {
            let (b, l) = shuffle::largest_eps0_over(&order, generic, t, n, 1e-6).unwrap();
            assert_eq!(l.eps0, max, "t {t}, n {n}, {order:?}");
            let alone = shuffle::largest_eps0_with(b, generic, t, n, 1e-6).unwrap();
            assert_eq!(alone.eps0, max, "{b:?}");
        }
    }
    let err = shuffle::largest_eps0_over(&[Bound::Efmrtt19], generic, 0.1, 500, 1e-6).unwrap_err();
    assert!(err.to_string().contains("does not apply"), "{err}");
}

/// The clone divergence takes every clone count up to the largest population (10⁹ users), and no
/// larger; at that count it is still a probability, and no larger than at a smaller count.
#[test]
fn clone_divergence_domain_ends_at_the_largest_population() {
    let top = shuffle::clone_divergence(shuffle::MAX_USERS, 1e-5, 1.0)
        .expect("the largest clone count is in the domain");
    let smaller = shuffle::clone_divergence(shuffle::MAX_USERS / 4, 1e-5, 1.0).unwrap();
    assert!(top > 0.0 && top <= smaller, "{top} against {smaller}");
    assert!(matches!(
        shuffle::clone_divergence(shuffle::MAX_USERS + 1, 0.01, 1.0),
        Err(MathError::OutOfDomain { name: "c", .. })
    ));
}
