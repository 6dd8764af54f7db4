//! Checks the subsampling functions against the mpmath table written by
//! `tools/reference/subsampling.py` (60 digits). Tolerance: 1e-12 relative (issue #2); the largest
//! error seen is printed so the doc comments' accuracy claims can be checked.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::subsampling::{
    amplified_epsilon, base_epsilon, with_replacement_delta, with_replacement_inclusion,
};

const TABLE: &str = include_str!("data/subsampling.csv");
const TOLERANCE: f64 = 1e-12;

fn field(s: &str) -> f64 {
    s.parse()
        .unwrap_or_else(|_| panic!("bad number {s:?} in reference table"))
}

#[test]
fn subsampling_matches_mpmath() {
    let mut worst: std::collections::BTreeMap<&str, (f64, String)> = Default::default();
    let mut rows = 0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 7, "malformed row {line}");
        let expected = field(c[6]);
        let got = match c[0] {
            "forward" => amplified_epsilon(field(c[1]), field(c[3])).unwrap(),
            "inverse" => base_epsilon(field(c[1]), field(c[3])).unwrap(),
            "wr_inclusion" => with_replacement_inclusion(field(c[4]), field(c[5])).unwrap(),
            "wr_delta" => with_replacement_delta(
                field(c[1]),
                field(c[2]),
                c[4].parse().unwrap(),
                c[5].parse().unwrap(),
            )
            .unwrap(),
            other => panic!("unknown kind {other}"),
        };
        let rel = if expected == 0.0 {
            got.abs()
        } else {
            ((got - expected) / expected).abs()
        };
        assert!(
            rel <= TOLERANCE,
            "{line}: got {got:e}, relative error {rel:e} > {TOLERANCE:e}"
        );
        let e = worst.entry(c[0]).or_insert((0.0, String::new()));
        if rel > e.0 {
            *e = (rel, line.to_string());
        }
        rows += 1;
    }
    assert!(rows > 1000, "reference table too small: {rows} rows");
    for (kind, (rel, line)) in worst {
        eprintln!("largest relative error for {kind}: {rel:.2e} at {line}");
    }
}
