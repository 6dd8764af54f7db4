//! The one-run audit's bound against an independent implementation in mpmath at 40 digits
//! (tools/reference/audit.py: every sum taken in full, where the crate cuts its sums and bounds
//! the rest): the p-value bound on a grid up to m = 10⁶ canaries and 10⁴ guesses, and the
//! certified ε (the first crossing of 1 − c).

#![allow(clippy::disallowed_methods)] // std's functions as an independent check

use amp_math::audit::{one_run_epsilon, one_run_p_value};

#[test]
fn the_one_run_bound_matches_mpmath() {
    let text = include_str!("data/audit.csv");
    let (mut ps, mut es) = (0, 0);
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (m, r, v): (u64, u64, u64) = (
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
        );
        let delta: f64 = f[5].parse().unwrap();
        let want: f64 = f[7].parse().unwrap();
        match f[0] {
            "p" => {
                let eps: f64 = f[4].parse().unwrap();
                let got = one_run_p_value(m, r, v, eps, delta).unwrap();
                // At or below the median ⌊r·q⌋ the crate answers 1 (the tail alone is ≥ ½).
                let q = 1.0 / (1.0 + (-eps).exp());
                if got == 1.0 && (v as f64) <= (r as f64 * q).floor() {
                    ps += 1;
                    continue;
                }
                // The crate's value is an upper bound that may exceed the exact sum by the terms
                // it bounds instead of summing (below 1e-12 relative), never fall below it.
                assert!(
                    got >= want * (1.0 - 1e-12) && got <= want * (1.0 + 1e-9) + 1e-300,
                    "m = {m}, r = {r}, v = {v}, ε = {eps}, δ = {delta}: {got} vs {want}"
                );
                ps += 1;
            }
            "eps" => {
                let c: f64 = f[6].parse().unwrap();
                let got = one_run_epsilon(m, r, v, delta, c).unwrap();
                assert!(
                    (got - want).abs() <= 1e-7 * want.max(1.0),
                    "m = {m}, r = {r}, v = {v}, δ = {delta}, c = {c}: {got} vs {want}"
                );
                es += 1;
            }
            k => panic!("unknown row kind {k}"),
        }
    }
    assert!(ps >= 50 && es >= 5, "{ps} p-values, {es} bounds");
}
