//! What each library prints for one DP-SGD run, predicted from its conventions
//! ([`amp_math::libraries`]) against the libraries themselves: the table
//! `data/libraries_explain.csv` is written by `tools/external/libraries_explain.py` (Opacus 1.6.0,
//! TensorFlow Privacy 0.9.0, dp_accounting 0.6.0, prv_accountant 0.2.0; see
//! `tools/external/README.md`). None of them is needed to run this test.
//!
//! Predicted to 1e-6 relative (and the same optimal order): Opacus's RDP and Gaussian
//! accountants, dp_accounting's RDP accountant, TensorFlow Privacy's `compute_dp_sgd_privacy`.
//! The numerical accountants are checked to their own tolerance against this crate's certified
//! band [lower, upper] (PLD, grid step 1e-4): Opacus's PRV accountant returns PRV's upper
//! bound, the ε of its upper curve at δ − δ/1000 plus eps_error = 0.01, so it lies between the
//! band's lower end at δ and its upper end at 0.999·δ plus 0.01;
//! prv_accountant's lower and upper bounds bracket the band within 0.01; dp_accounting's PLD is
//! pessimistic on a grid of 1e-4 and lies within 0.2% of the upper bound.

use amp_math::libraries::{dp_accounting, opacus, tf_privacy};
use amp_math::pld;

const TABLE: &str = include_str!("data/libraries_explain.csv");
const HEADER: &str = "n,batch,sigma,epochs,delta,opacus_q,opacus_steps,opacus_rdp,\
opacus_rdp_order,opacus_gdp,opacus_prv,q,steps,dpacc_rdp,dpacc_rdp_order,dpacc_pld,tfp_eps,\
tfp_order,prv_lower,prv_estimate,prv_upper";
const REL: f64 = 1e-6;
const PRV_ERROR: f64 = 0.01;

/// Each row's fields by header name.
fn rows() -> Vec<(usize, std::collections::HashMap<&'static str, f64>)> {
    let mut lines = TABLE
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().expect("empty table");
    assert_eq!(header, HEADER);
    let names: Vec<&'static str> = HEADER.split(',').collect();
    lines
        .map(|(i, l)| {
            let values: Vec<f64> = l
                .split(',')
                .map(|x| x.parse().unwrap_or_else(|_| panic!("line {}: {x}", i + 1)))
                .collect();
            assert_eq!(values.len(), names.len(), "line {}", i + 1);
            (i + 1, names.iter().copied().zip(values).collect())
        })
        .collect()
}

fn close(ours: f64, theirs: f64) -> bool {
    ((ours - theirs) / theirs).abs() <= REL
}

#[test]
fn the_table_has_at_least_twenty_runs() {
    assert!(rows().len() >= 20, "{} rows", rows().len());
}

#[test]
fn opacus_rdp_and_gaussian_accountants_are_predicted() {
    let mut failures = Vec::new();
    for (line, r) in rows() {
        let (n, b) = (r["n"] as u64, r["batch"] as u64);
        let (q, per_epoch) = opacus::loader(n, b).unwrap();
        let steps = r["epochs"] as u64 * per_epoch;
        assert!(
            close(q, r["opacus_q"]) && steps == r["opacus_steps"] as u64,
            "line {line}: q {q}, {steps} steps"
        );
        let (e, order) = opacus::rdp_epsilon(r["sigma"], q, steps, r["delta"]).unwrap();
        if !close(e, r["opacus_rdp"]) || order != r["opacus_rdp_order"] {
            failures.push(format!(
                "line {line}: RDP {e} at {order}, Opacus {} at {}",
                r["opacus_rdp"], r["opacus_rdp_order"]
            ));
        }
        let g = opacus::gdp_epsilon(r["sigma"], q, steps, r["delta"]).unwrap();
        if !close(g, r["opacus_gdp"]) {
            failures.push(format!("line {line}: GDP {g}, Opacus {}", r["opacus_gdp"]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dp_accounting_rdp_and_tf_privacy_are_predicted() {
    let mut failures = Vec::new();
    for (line, r) in rows() {
        let curve = dp_accounting::poisson_gaussian_curve(r["sigma"], r["q"], r["steps"]).unwrap();
        let (e, order) = dp_accounting::epsilon(&curve, r["delta"]).unwrap();
        if !close(e, r["dpacc_rdp"]) || order != r["dpacc_rdp_order"] {
            failures.push(format!(
                "line {line}: dp_accounting RDP {e} at {order}, theirs {} at {}",
                r["dpacc_rdp"], r["dpacc_rdp_order"]
            ));
        }
        let (t, order) = tf_privacy::compute_dp_sgd_privacy(
            r["n"] as u64,
            r["batch"] as u64,
            r["sigma"],
            r["epochs"],
            r["delta"],
        )
        .unwrap();
        if !close(t, r["tfp_eps"]) || order != r["tfp_order"] {
            failures.push(format!(
                "line {line}: compute_dp_sgd_privacy {t} at {order}, theirs {} at {}",
                r["tfp_eps"], r["tfp_order"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_numerical_accountants_are_within_their_tolerance_of_the_band() {
    let mut failures = Vec::new();
    for (line, r) in rows() {
        let (sigma, delta) = (r["sigma"], r["delta"]);
        let (upper, lower) =
            pld::gaussian_epsilon(sigma, r["q"], r["steps"] as u64, delta, pld::DEFAULT_STEP)
                .unwrap();
        // Opacus's PRV runs on its own rate and steps, and returns the ε of PRV's upper curve
        // at δ − δ/1000 (its default delta_error) plus eps_error: between the band's lower
        // bound at δ and its upper bound at 0.999·δ plus 0.01.
        let band = |d: f64| {
            pld::gaussian_epsilon(
                sigma,
                r["opacus_q"],
                r["opacus_steps"] as u64,
                d,
                pld::DEFAULT_STEP,
            )
            .unwrap()
        };
        let ((_, o_lower), (o_upper, _)) = (band(delta), band(delta * (1.0 - 1e-3)));
        let prv = r["opacus_prv"];
        // (1e-5 more: the two discretisations' own rounding, seen up to 4.6e-6.)
        if !(prv >= o_lower && prv <= o_upper + PRV_ERROR + 1e-5) {
            failures.push(format!(
                "line {line}: Opacus PRV {prv} outside [{o_lower}, {o_upper} + 0.01]"
            ));
        }
        let (lo, up) = (r["prv_lower"], r["prv_upper"]);
        if !(lo <= upper + 1e-9 && up >= lower - 1e-9 && up - lo <= 2.0 * PRV_ERROR + 1e-3) {
            failures.push(format!(
                "line {line}: prv_accountant [{lo}, {up}] against the band [{lower}, {upper}]"
            ));
        }
        let pld_theirs = r["dpacc_pld"];
        if !(((upper - pld_theirs) / pld_theirs).abs() <= 2e-3 && lower <= pld_theirs * 1.002) {
            failures.push(format!(
                "line {line}: dp_accounting PLD {pld_theirs} against the band [{lower}, {upper}]"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
