//! The exact Rényi DP of Poisson-subsampled Laplace and randomized response against mpmath's
//! evaluation of both divergences from their definitions (`tools/reference/rdp_poisson_exact.py`,
//! table `data/rdp_poisson_exact.csv`), and what follows from it: the remove direction dominates
//! on the table, the exact curve lies between the lower and upper bounds, and Zhu & Wang's upper
//! bound is up to several times the exact value at high orders.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::rdp::{self, poisson_directions, poisson_exact, Mechanism};

const TABLE: &str = include_str!("data/rdp_poisson_exact.csv");

struct Row {
    mech: Mechanism,
    q: f64,
    alpha: f64,
    remove: f64,
    add: f64,
}

fn rows() -> Vec<Row> {
    let mut lines = TABLE.lines().filter(|l| !l.trim().is_empty());
    assert_eq!(
        lines.next(),
        Some("mech,param,param2,rate,alpha,remove,add")
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let n = |i: usize| -> f64 { f[i].parse().unwrap_or_else(|_| panic!("{l}")) };
            let mech = match f[0] {
                "laplace" => Mechanism::Laplace { scale: n(1) },
                "rr" => Mechanism::RandomizedResponse { epsilon: n(1) },
                "kary" => Mechanism::KaryRandomizedResponse {
                    epsilon: n(1),
                    k: f[2].parse().unwrap(),
                },
                other => panic!("unknown mechanism {other}"),
            };
            Row {
                mech,
                q: n(3),
                alpha: n(4),
                remove: n(5),
                add: n(6),
            }
        })
        .collect()
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn both_directions_match_mpmath() {
    let rows = rows();
    assert!(rows.len() >= 150, "{}", rows.len());
    let mut worst: f64 = 0.0;
    for r in &rows {
        let (remove, add) = poisson_directions(&r.mech, r.q, r.alpha).unwrap();
        let e = rel(remove, r.remove).max(rel(add, r.add));
        assert!(
            e < 1e-11,
            "{:?} q = {} α = {}: remove {remove} vs {}, add {add} vs {}",
            r.mech,
            r.q,
            r.alpha,
            r.remove,
            r.add
        );
        worst = worst.max(e);
        // The exact curve is the larger direction; on this table that is always "remove".
        assert_eq!(
            poisson_exact(&r.mech, r.q, r.alpha).unwrap(),
            remove.max(add)
        );
        assert!(
            r.remove >= r.add,
            "{:?} q = {} α = {}",
            r.mech,
            r.q,
            r.alpha
        );
    }
    println!("largest relative error: {worst:.2e} ({} rows)", rows.len());
}

#[test]
fn exact_lies_between_the_bounds_and_the_upper_bound_is_loose_at_high_orders() {
    let mut most: f64 = 0.0;
    for r in rows() {
        let exact = poisson_exact(&r.mech, r.q, r.alpha).unwrap();
        let upper = rdp::poisson_upper(&r.mech, r.q, r.alpha).unwrap();
        assert!(
            exact <= upper * (1.0 + 1e-12),
            "{:?} {} {}: {exact} > {upper}",
            r.mech,
            r.q,
            r.alpha
        );
        if r.alpha.fract() == 0.0 {
            let lower = rdp::wor_lower(&r.mech, r.q, r.alpha as u64).unwrap();
            assert!(
                (exact - lower).abs() <= 1e-10 * exact,
                "at whole orders the remove direction is the binomial sum: {exact} vs {lower}"
            );
        }
        most = most.max(upper / exact);
    }
    // The example: b = 0.5, q = 0.01, α = 32: exact 0.0099427 (mpmath: 0.00994266167620889);
    // Zhu & Wang's bound (as checked against mpmath in rdp_reference.rs) is 0.019005 there.
    let lap = Mechanism::Laplace { scale: 0.5 };
    let exact = poisson_exact(&lap, 0.01, 32.0).unwrap();
    let upper = rdp::poisson_upper(&lap, 0.01, 32.0).unwrap();
    assert!((exact - 0.009_942_661_676_208_89).abs() < 1e-13, "{exact}");
    assert!((upper / exact - 1.911).abs() < 0.001, "{upper} / {exact}");
    println!("upper bound over exact: at most {most:.2}×");
}

#[test]
fn finite_and_ordered_at_the_corners_of_the_domain() {
    // b ∈ [0.05, 100], ε ∈ [1e-3, 20], k ≤ 1000, q ∈ [1e-9, 1], α ∈ (1, 10⁴].
    let mechs = [
        Mechanism::Laplace { scale: 0.05 },
        Mechanism::Laplace { scale: 100.0 },
        Mechanism::RandomizedResponse { epsilon: 20.0 },
        Mechanism::RandomizedResponse { epsilon: 1e-3 },
        Mechanism::KaryRandomizedResponse {
            epsilon: 20.0,
            k: 1000,
        },
        Mechanism::KaryRandomizedResponse {
            epsilon: 1e-3,
            k: 1000,
        },
    ];
    for m in mechs {
        for q in [1e-9, 1e-4, 0.5, 0.999, 1.0] {
            let mut last = 0.0;
            for a in [1.001, 1.01, 2.0, 100.0, 10000.0] {
                let e =
                    poisson_exact(&m, q, a).unwrap_or_else(|e| panic!("{m:?} q={q} α={a}: {e}"));
                assert!(e.is_finite() && e >= 0.0, "{m:?} q={q} α={a}: {e}");
                // Non-decreasing in α; never above the base curve.
                assert!(e >= last * (1.0 - 1e-9), "{m:?} q={q} α={a}: {e} < {last}");
                assert!(e <= m.rdp(a).unwrap() * (1.0 + 1e-9), "{m:?} q={q} α={a}");
                last = e;
            }
        }
    }
}
