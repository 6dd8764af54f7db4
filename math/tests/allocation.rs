//! Random allocation without epochs: each example in exactly k of T steps ([`Event::Allocation`],
//! zero-out, Gaussian noise), accounted by the PLD accountant: the upper bound through Feldman &
//! Shenfeld's decomposition into k one-step allocations among ⌊T/k⌋ or ⌈T/k⌉ steps (each one epoch
//! of balls in bins), the lower bound through the Gaussian mechanism of the sum of the T outputs
//! (k > 1) or the balls-in-bins epoch itself (k = 1). Checked against
//! (a) the limits that must hold exactly: k = 1 is one epoch of balls in bins, k = T is the Gaussian
//!     mechanism composed T times (μ = √T/σ, analytic ε);
//! (b) PLD_accounting 2.0 (`tools/external/pld_accounting_allocation.py` →
//!     `data/pld_accounting_allocation.csv`, its own decomposition at absolute accuracy 0.01): our
//!     certified ε within its bracket widened by the two accuracies, our lower bound below its
//!     certified ε;
//! and the order theory fixes: more participations never cost less.
#![allow(clippy::disallowed_methods)] // std's parsing is the independent reader of the table

use amp_math::accounting::{
    Accountant, EpochSampler, EpochSettings, Event, PldAccountant, RdpAccountant,
};
use amp_math::batching::{deterministic_epsilon, Neighbours};
use amp_math::rdp::Mechanism;
use amp_math::Relation;

const PLD_ACCOUNTING: &str = include_str!("data/pld_accounting_allocation.csv");

fn rows(table: &str) -> Vec<Vec<f64>> {
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split(',').map(|x| x.trim().parse().expect(l)).collect())
        .collect()
}

fn allocation(sigma: f64, steps: u64, participations: u64) -> Event {
    Event::Allocation {
        mechanism: Mechanism::Gaussian { sigma },
        steps,
        participations,
    }
}

fn accountant() -> PldAccountant {
    PldAccountant::with_budget(236_000, 1e-7, EpochSettings::FINE)
}

#[test]
fn one_participation_is_one_epoch_of_balls_in_bins() {
    let acc = accountant();
    for (sigma, t) in [(1.0, 1000u64), (2.0, 100), (0.8, 37)] {
        let ours = acc.band(&allocation(sigma, t, 1)).unwrap();
        let bnb = acc
            .band(&Event::Epochs {
                sampler: EpochSampler::BallsInBins,
                mechanism: Mechanism::Gaussian { sigma },
                steps_per_epoch: t,
                upper_epochs: 1,
                lower_epochs: 1,
            })
            .unwrap();
        assert_eq!(
            ours.epsilon(1e-5).unwrap(),
            bnb.epsilon(1e-5).unwrap(),
            "σ = {sigma}, T = {t}"
        );
    }
}

#[test]
fn every_step_is_the_gaussian_mechanism_composed() {
    let acc = accountant();
    for (sigma, t) in [(10.0, 100u64), (30.0, 400)] {
        let (up, lo) = acc
            .band(&allocation(sigma, t, t))
            .unwrap()
            .epsilon(1e-5)
            .unwrap();
        let exact = deterministic_epsilon(sigma, t, Neighbours::ZeroOut, 1e-5).unwrap();
        assert!(
            lo <= exact + 1e-9 && exact <= up + 1e-9,
            "[{lo}, {up}] vs {exact}"
        );
        assert!(up - lo <= 0.02 * exact, "[{lo}, {up}] vs {exact}");
    }
}

#[test]
fn more_participations_cost_more() {
    let acc = accountant();
    let mut last = (0.0, 0.0);
    for k in [1u64, 2, 5, 10, 50, 200] {
        let b = acc.epsilon(&allocation(1.0, 200, k), 1e-5).unwrap();
        let lo = b.lower.unwrap();
        assert!(lo <= b.upper, "k = {k}: [{lo}, {}]", b.upper);
        assert!(
            b.upper >= last.0 && lo >= last.1 - 1e-9,
            "k = {k}: {b:?} after {last:?}"
        );
        last = (b.upper, lo);
    }
}

#[test]
fn pld_accounting_agrees_with_our_decomposition() {
    let table = rows(PLD_ACCOUNTING);
    assert!(table.len() >= 5, "{} rows", table.len());
    let acc = accountant();
    for r in &table {
        let (sigma, t, k, delta, up, lo) = (r[0], r[1] as u64, r[2] as u64, r[3], r[4], r[5]);
        let b = acc.epsilon(&allocation(sigma, t, k), delta).unwrap();
        // Both are the same decomposition: our certified ε within theirs, each to its accuracy
        // (theirs 0.01 absolute, ours the band's width).
        let ours_lo = b.lower.unwrap();
        let width = b.upper - ours_lo;
        let slack = if k == 1 {
            0.01 + width
        } else {
            0.01 + 0.02 * up
        };
        assert!(
            b.upper >= lo - slack && b.upper <= up + slack,
            "σ = {sigma}, T = {t}, k = {k}: ours {} against their [{lo}, {up}]",
            b.upper
        );
        assert!(
            ours_lo <= up + 1e-9,
            "σ = {sigma}, T = {t}, k = {k}: lower {ours_lo} above {up}"
        );
    }
}

#[test]
fn refusals_say_why() {
    let err = |e: Event| e.validate().unwrap_err().to_string();
    assert!(err(allocation(1.0, 10, 0)).contains("from 1 to T"));
    assert!(err(allocation(1.0, 10, 11)).contains("from 1 to T"));
    let laplace = Event::Allocation {
        mechanism: Mechanism::Laplace { scale: 1.0 },
        steps: 10,
        participations: 2,
    };
    assert!(err(laplace).contains("Gaussian"));
    assert_eq!(
        allocation(1.0, 10, 2).relation().unwrap(),
        Relation::ZeroOut
    );
    let rdp = RdpAccountant::default()
        .curve(&allocation(1.0, 10, 2))
        .unwrap_err()
        .to_string();
    assert!(rdp.contains("PLD"), "{rdp}");
    let mixed = Event::Composed(vec![
        allocation(1.0, 10, 2),
        Event::poisson(Mechanism::Gaussian { sigma: 1.0 }, 0.1).repeated(5),
    ]);
    let why = accountant().band(&mixed).unwrap_err().to_string();
    assert!(why.contains("alone"), "{why}");
}
