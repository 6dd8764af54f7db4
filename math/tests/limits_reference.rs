//! The limits functions against the mpmath table written by `tools/reference/limits.py`.
//! Tolerance 1e-12 relative (issue #3) on ε ∈ [1e-9, 10], p ∈ [1e-9, 1], c ∈ [1e-6, 1e4].
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::limits::{
    mse_break_even_rate, mse_standard, mse_subsampled_terms, noise_factor_bound, noise_ratio,
    noise_ratio_bounds, ratio_floor, taylor_terms,
};

const TABLE: &str = include_str!("data/limits.csv");
const TOLERANCE: f64 = 1e-12;

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

#[test]
fn limits_match_mpmath() {
    let mut worst: std::collections::BTreeMap<String, f64> = Default::default();
    let mut rows = 0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 5, "malformed row {line}");
        let expected = num(c[4]);
        let got = match c[0] {
            "noise_ratio" => noise_ratio(num(c[1]), num(c[2])).unwrap(),
            "ratio_floor" => ratio_floor(num(c[3])).unwrap(),
            "factor_bound" => noise_factor_bound(num(c[3])).unwrap(),
            "taylor1" => taylor_terms(num(c[1]), num(c[2])).unwrap()[0],
            "taylor2" => taylor_terms(num(c[1]), num(c[2])).unwrap()[1],
            "taylor3" => taylor_terms(num(c[1]), num(c[2])).unwrap()[2],
            "mse_noise" => {
                mse_subsampled_terms(num(c[1]), num(c[2]), num(c[3]))
                    .unwrap()
                    .1
            }
            "break_even" => mse_break_even_rate(num(c[1]), num(c[3])).unwrap().unwrap(),
            "ratio_lower" => {
                let (lo, hi) = noise_ratio_bounds(num(c[1]), num(c[2])).unwrap();
                assert_eq!(hi, 1.0, "{line}");
                lo
            }
            "mse_standard" => mse_standard(num(c[1]), num(c[3])).unwrap(),
            other => panic!("unknown kind {other}"),
        };
        let rel = if expected == 0.0 {
            got.abs()
        } else {
            ((got - expected) / expected).abs()
        };
        assert!(
            rel <= TOLERANCE,
            "{line}: got {got:e}, relative error {rel:e}"
        );
        let w = worst.entry(c[0].to_string()).or_default();
        *w = w.max(rel);
        rows += 1;
    }
    assert!(rows > 1000, "table too small: {rows}");
    for (k, w) in worst {
        eprintln!("largest relative error for {k}: {w:.2e}");
    }
}

/// Inputs outside each function's domain are refused at its own edge.
#[test]
fn domains_are_checked_at_their_edges() {
    use amp_math::limits::{epsilon_p, noise_factor};
    for bad in [0.0, -0.1, 1.5, f64::NAN] {
        assert!(noise_ratio(1.0, bad).is_err(), "R at p = {bad}");
        assert!(noise_factor(1.0, bad).is_err(), "1/R at p = {bad}");
        assert!(noise_ratio_bounds(1.0, bad).is_err(), "bounds at p = {bad}");
        assert!(taylor_terms(1.0, bad).is_err(), "Taylor at p = {bad}");
        assert!(epsilon_p(1.0, bad).is_err(), "ε_p at p = {bad}");
    }
    for bad in [-1.0, f64::NAN, 1e13] {
        assert!(ratio_floor(bad).is_err(), "c = {bad}");
        assert!(noise_factor_bound(bad).is_err(), "c = {bad}");
    }
    assert_eq!(ratio_floor(0.0).unwrap(), 1.0);
    assert!(ratio_floor(1e12).is_ok());
    assert!(mse_standard(0.0, 100.0).is_err());
    assert!(mse_standard(1.0, 0.0).is_err());
    assert_eq!(noise_ratio(0.0, 0.3).unwrap(), 1.0);
}

/// Below ε = 1e-200 the ratio is log(1 + ε/p)/(ε/p), which stays inside eq. 6's bounds even when
/// p is smaller than ε (a first-order series in ε/p would go negative there), and meets the main
/// formula's values across the switch.
#[test]
fn noise_ratio_at_tiny_epsilon_and_tinier_rate() {
    use amp_math::limits::noise_ratio;
    // ε ≫ p: R = log(1 + 1e10)/1e10 = 2.302585093e-9 (log(1e10 + 1) = 23.02585093…).
    let r = noise_ratio(1e-250, 1e-260).unwrap();
    assert!((r - 23.025_850_930_040_455e-10).abs() <= 1e-22, "{r}");
    // ε = p: log 2.
    let r = noise_ratio(1e-250, 1e-250).unwrap();
    assert!((r - std::f64::consts::LN_2).abs() <= 1e-15, "{r}");
    // ε ≪ p: 1 − ε/(2p) rounds to 1.
    assert_eq!(noise_ratio(1e-250, 0.5).unwrap(), 1.0);
    // Subnormal ε: the main formula's product p·ε_p would lose digits there (ε = 1e-320 keeps
    // about 4); the branch gives R = 1 − ε/(2p) = 1 to double precision.
    for (e, p) in [(1e-310, 0.5), (1e-320, 1e-3), (5e-324, 1e-6)] {
        let r = noise_ratio(e, p).unwrap();
        assert!((r - 1.0).abs() <= 1e-15, "ε {e:e}, p {p}: {r}");
    }
    // Across the switch the two forms agree.
    for p in [1e-210, 1e-199, 1e-100, 0.3] {
        let below = noise_ratio(0.999_999e-200, p).unwrap();
        let above = noise_ratio(1.000_001e-200, p).unwrap();
        // (the inputs differ by 2e-6 relative, R by at most as much)
        assert!(
            (below - above).abs() <= 3e-6 * above,
            "p {p}: {below} vs {above}"
        );
    }
}
