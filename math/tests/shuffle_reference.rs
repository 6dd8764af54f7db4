//! The shuffle-model functions against the mpmath table written by `tools/reference/shuffle.py`
//! (50 digits, direct sums, no shared code).
//!
//! Tolerances (relative): closed forms (EFMRTT19, FMT21, subsampled randomized response, error of
//! a mean) 1e-12; the privacy blanket δ(ε) 1e-10; one clone count's divergence 1e-12; inverses
//! solved with Brent (largest ε₀ of FMT21 and the shuffled-RR error that uses it) 1e-9. The clone
//! reduction's δ(ε) is held to more than a tolerance: its certified lower and upper values must
//! bracket mpmath's value (allowing 1e-12 for the oracle's own rounding) and each lie within 2e-9
//! of it. The worst error per kind is printed (`-- --nocapture`).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::mean_error;
use amp_math::shuffle::{
    self, bbgn19_bennett_delta, bbgn19_hoeffding_delta, clone_divergence, fmt21_numerical_delta,
    fmt21_rdp, fmt23_numerical_delta, fmt23_rdp, largest_eps0, Bound, Randomizer,
};

const TABLE: &str = include_str!("data/shuffle.csv");

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

fn whole(s: &str) -> u64 {
    s.parse()
        .unwrap_or_else(|_| panic!("bad whole number {s:?}"))
}

fn relative(got: f64, expected: f64) -> f64 {
    if expected == 0.0 {
        got.abs()
    } else {
        ((got - expected) / expected).abs()
    }
}

fn tolerance(kind: &str) -> f64 {
    match kind {
        "efmrtt19" | "efmrtt19_eps0" | "fmt21" | "rr_exact" | "rr_theorem" | "rr_prime"
        | "mean_central" | "mean_local" | "clone_div" | "fmt23" => 1e-12,
        "hoeffding" | "bennett" => 1e-10,
        "fmt21_eps0" | "mean_shuffled" => 1e-9,
        "clone_delta" | "stronger_delta" => 2e-9,
        // Every clone count is its own block at these n, so the bracket closes to rounding.
        "clone_rdp" => 1e-10,
        // Blocks of counts at these n: the moments' bracket closes to 1e-5 of the value.
        "clone_rdp_window" => 1e-5,
        // Not an evaluation of our formula: the exact δ of one small shuffle, which the stronger
        // clone bound must dominate (checked in the row; the "error" is how far below it is).
        "krr_shuffled" => f64::INFINITY,
        other => panic!("no tolerance for {other}"),
    }
}

/// A certified pair [lo, hi] must contain the reference and each end lie within the kind's
/// tolerance of it; its midpoint is what the row reports.
fn bracketed(line: &str, kind: &str, (lo, hi): (f64, f64), expected: f64) -> f64 {
    assert!(
        lo <= expected * (1.0 + 1e-12) && hi >= expected * (1.0 - 1e-12),
        "{line}: [{lo:e}, {hi:e}] does not bracket the reference"
    );
    let e = relative(lo, expected).max(relative(hi, expected));
    assert!(e <= tolerance(kind), "{line}: [{lo:e}, {hi:e}]");
    0.5 * (lo + hi)
}

fn randomizer(k: &str) -> Randomizer {
    match whole(k) {
        0 => Randomizer::Generic,
        k => Randomizer::KRr { k },
    }
}

#[test]
fn shuffle_matches_mpmath() {
    let mut worst: std::collections::BTreeMap<String, (f64, String)> = Default::default();
    let mut rows = 0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 9, "malformed row {line}");
        let (kind, eps, eps0, n, delta, p, k, mu) =
            (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        let expected = num(c[8]);
        let got = match kind {
            "efmrtt19" => shuffle::efmrtt19(num(eps0), whole(n), num(delta))
                .unwrap()
                .epsilon
                .unwrap_or_else(|| panic!("{line}: not valid")),
            "efmrtt19_eps0" => {
                largest_eps0(Bound::Efmrtt19, num(eps), whole(n), num(delta))
                    .unwrap()
                    .eps0
            }
            "fmt21" => shuffle::fmt21(num(eps0), whole(n), num(delta))
                .unwrap()
                .epsilon
                .unwrap_or_else(|| panic!("{line}: not valid")),
            "fmt21_eps0" => {
                let r = largest_eps0(Bound::Fmt21, num(eps), whole(n), num(delta)).unwrap();
                assert!(r.limited_by_validity.is_none(), "{line}");
                r.eps0
            }
            "hoeffding" => {
                bbgn19_hoeffding_delta(randomizer(k), num(eps), num(eps0), whole(n)).unwrap()
            }
            "bennett" => {
                bbgn19_bennett_delta(randomizer(k), num(eps), num(eps0), whole(n)).unwrap()
            }
            "clone_div" => clone_divergence(whole(n), num(eps), num(eps0)).unwrap(),
            "clone_delta" => {
                let (lo, hi) = fmt21_numerical_delta(num(eps), num(eps0), whole(n)).unwrap();
                bracketed(line, kind, (lo, hi), expected)
            }
            "stronger_delta" => {
                let (lo, hi) = fmt23_numerical_delta(num(eps), num(eps0), whole(n)).unwrap();
                bracketed(line, kind, (lo, hi), expected)
            }
            "clone_rdp" | "clone_rdp_window" => {
                let (lambda, eps0, n) = (num(p), num(eps0), whole(n));
                let (lo, hi) = if whole(k) == 1 {
                    fmt23_rdp(Randomizer::KRr { k: 2 }, eps0, n, lambda).unwrap()
                } else {
                    fmt21_rdp(eps0, n, lambda).unwrap()
                };
                bracketed(line, kind, (lo, hi), expected)
            }
            "fmt23" => shuffle::fmt23(Randomizer::KRr { k: 2 }, num(eps0), whole(n), num(delta))
                .unwrap()
                .epsilon
                .unwrap_or_else(|| panic!("{line}: not valid")),
            "krr_shuffled" => {
                // The stronger clone reduction is an upper bound for k-ary randomized response:
                // its δ(ε) dominates the exact δ of this shuffle (a tight instance when the others
                // hold user 1's values).
                let (_, hi) = fmt23_numerical_delta(num(eps), num(eps0), whole(n)).unwrap();
                assert!(hi >= expected, "{line}: bound {hi:e} < exact {expected:e}");
                assert_eq!(mu.len() as u64 + 1, whole(n), "{line}");
                assert!(whole(k) >= 2, "{line}");
                hi
            }
            "rr_exact" => shuffle::subsampled_rr_exact(num(eps), num(p)).unwrap(),
            "rr_theorem" => shuffle::subsampled_rr(num(eps), num(p)).unwrap().theorem,
            "rr_prime" => shuffle::subsampled_rr_prime_exact(num(eps), num(p)).unwrap(),
            "mean_central" => {
                mean_error::mean_error_central_laplace(whole(n), num(eps), num(mu))
                    .unwrap()
                    .rmse
            }
            "mean_local" => {
                mean_error::mean_error_local_rr(whole(n), num(eps), num(mu))
                    .unwrap()
                    .rmse
            }
            "mean_shuffled" => {
                mean_error::mean_error_shuffled_rr(
                    whole(n),
                    num(eps),
                    num(delta),
                    Bound::Fmt21,
                    num(mu),
                )
                .unwrap()
                .rmse
            }
            other => panic!("unknown kind {other}"),
        };
        let rel = relative(got, expected);
        let tol = tolerance(kind);
        assert!(
            rel <= tol,
            "{line}: got {got:e}, relative error {rel:e} > {tol:e}"
        );
        let e = worst
            .entry(kind.to_string())
            .or_insert((0.0, String::new()));
        if rel > e.0 {
            *e = (rel, line.to_string());
        }
        rows += 1;
    }
    assert!(rows > 1500, "reference table too small: {rows} rows");
    for (kind, (rel, line)) in worst {
        eprintln!("largest relative error for {kind}: {rel:.2e} at {line}");
    }
}
