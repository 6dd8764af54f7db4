//! The Rényi DP functions against the mpmath table written by `tools/reference/rdp.py` (60
//! digits), and two accountants' published test values.
//!
//! Tolerances (relative): base curves, conversions and the analytic Gaussian δ 1e-12; the exact
//! Poisson-subsampled Gaussian at whole orders and the paper bounds 1e-10; the exact Poisson
//! subsampled Gaussian at fractional orders (mpmath integrates the divergence numerically) 1e-8.
//! Every row is held to its tolerance; the worst error per kind is printed (`-- --nocapture`).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::rdp::{
    self, default_orders, epsilon_at_order, epsilon_for_delta, gaussian_delta, ln_delta_at_order,
    Conversion, Curve, Mechanism, Sampling,
};
use amp_math::MathError;

const TABLE: &str = include_str!("data/rdp.csv");

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

fn mechanism(name: &str, param: &str, param2: &str) -> Mechanism {
    match name {
        "gaussian" => Mechanism::Gaussian { sigma: num(param) },
        "laplace" => Mechanism::Laplace { scale: num(param) },
        "rr" => Mechanism::RandomizedResponse {
            epsilon: num(param),
        },
        "kary" => Mechanism::KaryRandomizedResponse {
            epsilon: num(param),
            k: param2
                .parse()
                .unwrap_or_else(|_| panic!("bad k {param2:?}")),
        },
        other => panic!("unknown mechanism {other}"),
    }
}

fn whole(alpha: f64) -> u64 {
    assert!(alpha.fract() == 0.0, "order {alpha} is not whole");
    alpha as u64
}

fn tolerance(kind: &str) -> f64 {
    match kind {
        "base" | "eps_classic" | "eps_improved" | "ln_delta_classic" | "ln_delta_improved"
        | "gaussian_delta" => 1e-12,
        "pg_int" | "pg_int_as_lower" | "zw_upper" | "wbk_upper" | "wbk_gauss_upper"
        | "wbk_lower" => 1e-10,
        "pg_frac" => 1e-8,
        other => panic!("no tolerance for {other}"),
    }
}

fn relative(got: f64, expected: f64) -> f64 {
    if expected == 0.0 {
        got.abs()
    } else {
        ((got - expected) / expected).abs()
    }
}

#[derive(Default)]
struct Worst {
    largest: f64,
    checks: usize,
}

#[test]
fn rdp_matches_mpmath() {
    let mut worst: std::collections::BTreeMap<String, Worst> = Default::default();
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 7, "malformed row {line}");
        let (kind, expected) = (c[0], num(c[6]));
        let mut check = |kind: &str, got: Result<f64, MathError>| {
            let rel = match &got {
                Ok(g) => relative(*g, expected),
                Err(_) => f64::INFINITY,
            };
            // A NaN is never within tolerance.
            let within = rel <= tolerance(kind);
            if !within {
                let message = match &got {
                    Ok(g) => format!("{line}: got {g:e}, relative error {rel:.2e}"),
                    Err(e) => format!("{line}: error {e:?}"),
                };
                failures.push(message);
            }
            let w = worst.entry(kind.to_string()).or_default();
            w.largest = w.largest.max(rel);
            w.checks += 1;
        };
        match kind {
            "base" => check(kind, mechanism(c[1], c[2], c[3]).rdp(num(c[5]))),
            "pg_int" => {
                let (sigma, q, alpha) = (num(c[2]), num(c[4]), num(c[5]));
                check(kind, rdp::poisson_gaussian_integer(sigma, q, whole(alpha)));
                // The any-order entry point sends whole orders to the same sum.
                check(kind, rdp::poisson_gaussian(sigma, q, alpha));
                // rdp::subsampled documents that the lower-bound sum equals the exact
                // value for the Poisson Gaussian.
                let g = Mechanism::Gaussian { sigma };
                check("pg_int_as_lower", rdp::wor_lower(&g, q, whole(alpha)));
            }
            "pg_frac" => check(kind, rdp::poisson_gaussian(num(c[2]), num(c[4]), num(c[5]))),
            "zw_upper" => {
                let m = mechanism(c[1], c[2], c[3]);
                check(kind, rdp::poisson_upper(&m, num(c[4]), num(c[5])));
            }
            "wbk_upper" => {
                let m = mechanism(c[1], c[2], c[3]);
                check(kind, rdp::wor_upper(&m, num(c[4]), num(c[5])));
            }
            "wbk_gauss_upper" => {
                check(
                    kind,
                    rdp::wor_upper_gaussian(num(c[2]), num(c[4]), num(c[5])),
                );
            }
            "wbk_lower" => {
                let m = mechanism(c[1], c[2], c[3]);
                check(kind, rdp::wor_lower(&m, num(c[4]), whole(num(c[5]))));
            }
            "eps_classic" | "eps_improved" => {
                let conv = if kind == "eps_classic" {
                    Conversion::Classic
                } else {
                    Conversion::Improved
                };
                check(
                    kind,
                    Ok(epsilon_at_order(num(c[2]), num(c[5]), num(c[3]), conv)),
                );
            }
            "ln_delta_classic" | "ln_delta_improved" => {
                let conv = if kind == "ln_delta_classic" {
                    Conversion::Classic
                } else {
                    Conversion::Improved
                };
                check(
                    kind,
                    Ok(ln_delta_at_order(num(c[2]), num(c[5]), num(c[3]), conv)),
                );
            }
            "gaussian_delta" => check(kind, gaussian_delta(num(c[2]), num(c[3]))),
            other => panic!("unknown kind {other}"),
        }
        rows += 1;
    }
    for (k, w) in &worst {
        eprintln!(
            "largest relative error for {k}: {:.2e} ({} checks)",
            w.largest, w.checks
        );
    }
    assert!(rows > 3000, "table too small: {rows}");
    assert!(
        failures.is_empty(),
        "{} rows out of tolerance:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// ε after `steps` compositions of the exact Poisson-subsampled Gaussian, converted with the
/// improved conversion over exactly the given `orders`, as the libraries do (a curve known on its
/// grid only, so no refinement between orders): (ε, optimal order).
fn accountant(sigma: f64, q: f64, steps: f64, delta: f64, orders: &[f64]) -> (f64, f64) {
    let exact = Curve::of(
        &Mechanism::Gaussian { sigma },
        Sampling::Poisson { q },
        orders,
    )
    .unwrap();
    let curve = Curve::sampled(exact.orders, exact.rdp).times(steps);
    let c = epsilon_for_delta(&curve, delta, Conversion::Improved).unwrap();
    (c.epsilon, c.order)
}

/// What the app and the CLI report: the default grid, refined between orders.
fn refined(sigma: f64, q: f64, steps: f64, delta: f64) -> (f64, f64) {
    let curve = Curve::of(
        &Mechanism::Gaussian { sigma },
        Sampling::Poisson { q },
        &default_orders(),
    )
    .unwrap()
    .times(steps);
    let c = epsilon_for_delta(&curve, delta, Conversion::Improved).unwrap();
    (c.epsilon, c.order)
}

/// Opacus (pytorch/opacus, `opacus/tests/accountants_test.py`, `test_rdp_accountant`): σ = 1.5,
/// sample rate 0.04, int(90/0.04) = 2250 steps, δ = 1e-5 → ε = 7.32911117143 (assertAlmostEqual,
/// 7 places), with Opacus's default orders 1 + x/10 (x = 1..99) and 12..63 and its conversion
/// ε = ρ − (log δ + log α)/(α − 1) + log((α − 1)/α), the improved one.
#[test]
fn opacus_rdp_accountant_test_value() {
    let orders: Vec<f64> = (1..100)
        .map(|x| 1.0 + x as f64 / 10.0)
        .chain((12..64).map(|a| a as f64))
        .collect();
    let (eps, order) = accountant(1.5, 0.04, 2250.0, 1e-5, &orders);
    eprintln!("Opacus: ε = {eps} at order {order}");
    assert!((eps - 7.32911117143).abs() < 5e-8, "{eps}");
    // Minimised over the order, ours is never above the library's grid value.
    let (ours, at) = refined(1.5, 0.04, 2250.0, 1e-5);
    eprintln!("refined: ε = {ours} at order {at}");
    assert!(ours <= eps, "{ours} > {eps}");
}

/// TensorFlow Privacy (`compute_dp_sgd_privacy_lib_test.py`, `test_compute_dp_sgd_privacy`):
/// (n, batch, σ, epochs, δ) → (ε, order) with q = batch/n, ⌈epochs·n/batch⌉ steps, the orders
/// [1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5] + 5..63 + [128, 256, 512] and the improved
/// conversion. The test asserts ε to 7 decimal places and the order exactly.
#[test]
fn tensorflow_privacy_dp_sgd_test_values() {
    let orders: Vec<f64> = [1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0, 4.5]
        .into_iter()
        .chain((5..64).map(|a| a as f64))
        .chain([128.0, 256.0, 512.0])
        .collect();
    let cases: [(f64, f64, f64, f64, f64, f64, f64); 3] = [
        (60000.0, 150.0, 1.3, 15.0, 1e-5, 0.7242234026109595, 19.0),
        (100000.0, 100.0, 1.0, 30.0, 1e-7, 1.4154988495444845, 13.0),
        (1e8, 1024.0, 0.1, 10.0, 1e-7, 5907982.31138195, 1.25),
    ];
    for (n, batch, sigma, epochs, delta, expected, expected_order) in cases {
        let steps = (epochs * n / batch).ceil();
        let (eps, order) = accountant(sigma, batch / n, steps, delta, &orders);
        eprintln!("TensorFlow Privacy n = {n}: ε = {eps} at order {order} (expected {expected})");
        assert_eq!(order, expected_order, "n = {n}");
        // 7 decimal places, as assertAlmostEqual; relative 1e-13 for the ε of 5.9 million, whose
        // seventh decimal is below double precision of the composed curve.
        let tol = 5e-8f64.max(1e-13 * expected);
        assert!((eps - expected).abs() < tol, "n = {n}: {eps} vs {expected}");
        // Minimised over the order, ours is never above the library's grid value.
        let (ours, at) = refined(sigma, batch / n, steps, delta);
        eprintln!("refined: ε = {ours} at order {at}");
        assert!(ours <= eps * (1.0 + 1e-13), "n = {n}: {ours} > {eps}");
    }
}
