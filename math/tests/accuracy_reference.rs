//! The analytic part of seed 002 against `tools/reference/accuracy.py` (mpmath, 60 digits).
//! Tolerance 1e-12 relative (issue #4).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::accuracy::{
    mean_noise_ratio, mean_variances, rate_for_variance_fraction, variance_fraction,
};

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
