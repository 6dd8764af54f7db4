//! Poisson batches capped at M records (add or remove one record; the dataset of N records counts
//! it): [`amp_math::pld::truncated_poisson_gaussian`], [`amp_math::pld::truncation`] and the
//! accountant's band of runs of it, against
//! (a) mpmath (`tools/reference/truncated.py` → `data/truncated.csv`): the probabilities t and q′
//!     summed term by term (q′ directly, not through the identity the code uses), and δ(ε) of one
//!     step of five explicit datasets in each direction: our certified δ is never below any of
//!     them, and our lower bound never above the largest;
//! (b) Google's dp_accounting 0.6.0 (`tools/external/dp_accounting_truncated.py` →
//!     `data/pld_dp_accounting_truncated.csv`, `TruncatedSubsampledGaussianDpEvent` composed by its
//!     PLD accountant, pessimistic): their certified ε (a looser bound of the same split) is never
//!     below our lower bound, and ours is at most theirs (to their grid's rounding);
//! and the limits theory fixes: a cap that cannot bind is Poisson sampling bit for bit, a cap
//! many standard deviations above the batch gives Poisson's ε, and above the expected batch size
//! ε falls as the cap grows.
#![allow(clippy::disallowed_methods)] // std's parsing is the independent reader of the tables

use amp_math::accounting::{Event, PldAccountant, RdpAccountant, Sampler};
use amp_math::pld::{poisson_gaussian, truncated_poisson_gaussian, truncation, Estimate};
use amp_math::rdp::Mechanism;
use amp_math::Relation;

const MPMATH: &str = include_str!("data/truncated.csv");
const DP_ACCOUNTING: &str = include_str!("data/pld_dp_accounting_truncated.csv");

fn rows(table: &str) -> Vec<Vec<f64>> {
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split(',').map(|x| x.trim().parse().expect(l)).collect())
        .collect()
}

const GAUSSIAN: fn(f64) -> Mechanism = |sigma| Mechanism::Gaussian { sigma };

#[test]
fn truncation_probabilities_match_mpmath() {
    let table = rows(MPMATH);
    assert!(table.len() >= 40, "{} rows", table.len());
    for r in &table {
        let (n, q, m) = (r[0] as u64, r[1], r[2] as u64);
        let tr = truncation(n, q, m).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
        assert!(
            close(tr.truncated, r[4]),
            "N = {n}, q = {q}, M = {m}: t {} vs {}",
            tr.truncated,
            r[4]
        );
        assert!(
            close(tr.rate_when_truncated, r[5]),
            "N = {n}, q = {q}, M = {m}: q′ {} vs {}",
            tr.rate_when_truncated,
            r[5]
        );
        let eff = q * (1.0 - r[4]) + r[5] * r[4];
        assert!(close(tr.rate, eff), "q_eff {} vs {eff}", tr.rate);
    }
}

/// Every explicit dataset's δ lies under our certified δ, and our lower bound (one of those
/// datasets, binned) under the largest of them.
#[test]
fn one_step_bounds_hold_the_datasets_of_mpmath() {
    let table = rows(MPMATH);
    // (N, q, M, σ, ε) → the largest δ over the datasets, each direction.
    type Key = (u64, u64, u64, u64, u64);
    let mut worst: Vec<(Key, f64, f64)> = Vec::new();
    for r in &table {
        let key = (
            r[0] as u64,
            r[1].to_bits(),
            r[2] as u64,
            r[3].to_bits(),
            r[7].to_bits(),
        );
        match worst.iter_mut().find(|w| w.0 == key) {
            Some(w) => {
                w.1 = w.1.max(r[8]);
                w.2 = w.2.max(r[9]);
            }
            None => worst.push((key, r[8], r[9])),
        }
    }
    assert!(worst.len() >= 9);
    let step = 1e-4;
    for ((n, q, m, sigma, eps), remove, add) in worst {
        let (q, sigma, eps) = (
            f64::from_bits(q),
            f64::from_bits(sigma),
            f64::from_bits(eps),
        );
        let up = truncated_poisson_gaussian(sigma, q, n, m, step, Estimate::Pessimistic).unwrap();
        let lo = truncated_poisson_gaussian(sigma, q, n, m, step, Estimate::Optimistic).unwrap();
        for (name, want, u, l) in [
            (
                "remove",
                remove,
                up.remove.delta_for_epsilon(eps),
                lo.remove.delta_for_epsilon(eps),
            ),
            (
                "add",
                add,
                up.add.delta_for_epsilon(eps),
                lo.add.delta_for_epsilon(eps),
            ),
        ] {
            let slack = 1e-12;
            assert!(
                want <= u + slack,
                "N = {n}, q = {q}, M = {m}, σ = {sigma}, ε = {eps}, {name}: a dataset's δ = {want:e} \
                 above the certified {u:e}"
            );
            assert!(
                l <= want + slack,
                "N = {n}, q = {q}, M = {m}, σ = {sigma}, ε = {eps}, {name}: lower bound {l:e} above \
                 every dataset's δ (largest {want:e})"
            );
        }
    }
}

#[test]
fn dp_accounting_is_never_below_our_lower_bound_nor_above_our_upper() {
    let table = rows(DP_ACCOUNTING);
    assert!(table.len() >= 12, "{} rows", table.len());
    let mut tightest: f64 = f64::INFINITY;
    for r in &table {
        let (n, q, m, sigma, steps, delta, theirs) = (
            r[0] as u64,
            r[1],
            r[2] as u64,
            r[3],
            r[4] as u64,
            r[5],
            r[6],
        );
        let event = Event::truncated_poisson(GAUSSIAN(sigma), q, m, n).repeated(steps);
        let band = PldAccountant::with_step(1e-4).band(&event).unwrap();
        let (up, lo) = band.epsilon(delta).unwrap();
        // Their grid's rounding: one value discretisation interval per composed PLD pair, at most.
        let grid = 1e-4 * 2.0;
        assert!(
            lo <= theirs + grid,
            "N = {n}, q = {q}, M = {m}, σ = {sigma}, {steps} steps: our lower {lo} above their {theirs}"
        );
        assert!(
            up <= theirs * (1.0 + 1e-3) + grid,
            "N = {n}, q = {q}, M = {m}, σ = {sigma}, {steps} steps: our upper {up} above their {theirs}"
        );
        tightest = tightest.min(theirs / up);
    }
    assert!(tightest >= 0.999, "{tightest}");
}

#[test]
fn a_cap_that_cannot_bind_is_poisson_sampling() {
    let mech = GAUSSIAN(1.0);
    assert_eq!(
        Event::truncated_poisson(mech, 0.01, 1000, 1000),
        Event::poisson(mech, 0.01)
    );
    // M = N − 1 never binds either (the others number N − 1): the same PLDs, bit for bit.
    for est in [Estimate::Pessimistic, Estimate::Optimistic] {
        assert_eq!(
            truncated_poisson_gaussian(1.0, 0.01, 1000, 999, 1e-3, est).unwrap(),
            poisson_gaussian(1.0, 0.01, 1e-3, est).unwrap()
        );
    }
}

/// Above the expected batch size the cap binds less and less often: the certified ε falls as M
/// grows, to Poisson sampling's own ε (to 1e-9) when M is 12 standard deviations above B.
#[test]
fn epsilon_falls_with_the_cap_to_poisson() {
    let (n, b, sigma, steps, delta) = (60_000u64, 256.0, 1.0, 500u64, 1e-5);
    let q = b / n as f64;
    let acc = PldAccountant::with_step(2e-4);
    let eps = |m: u64| {
        acc.band(&Event::truncated_poisson(GAUSSIAN(sigma), q, m, n).repeated(steps))
            .unwrap()
            .epsilon(delta)
            .unwrap()
    };
    let poisson = acc
        .band(&Event::poisson(GAUSSIAN(sigma), q).repeated(steps))
        .unwrap()
        .epsilon(delta)
        .unwrap();
    let caps = [256u64, 264, 272, 288, 304, 320, 352, 448];
    let ups: Vec<(f64, f64)> = caps.iter().map(|&m| eps(m)).collect();
    for w in ups.windows(2) {
        assert!(w[1].0 <= w[0].0 + 1e-12, "{ups:?}");
    }
    for (up, lo) in &ups {
        // Never below Poisson's (beyond rounding: the mixture's weights move the grid masses in
        // the last bits).
        assert!(
            lo <= up && *up >= poisson.0 * (1.0 - 1e-9),
            "{ups:?} vs {poisson:?}"
        );
    }
    let far = ups.last().unwrap().0;
    assert!(
        (far - poisson.0).abs() <= 1e-9 * poisson.0,
        "{far} vs {}",
        poisson.0
    );
    // The cap near B costs a lot: more than twice Poisson's ε here.
    assert!(ups[0].0 > 2.0 * poisson.0, "{ups:?}");
}

#[test]
fn refusals_say_why() {
    let bad = |e: Event| e.validate().unwrap_err().to_string();
    let capped = |mechanism, max_batch, n| Event::Sampled {
        sampler: Sampler::TruncatedPoisson {
            q: 0.1,
            max_batch,
            n,
        },
        mechanism,
    };
    assert!(bad(capped(GAUSSIAN(1.0), 0, 100)).contains("cap"));
    assert!(bad(capped(Mechanism::Laplace { scale: 1.0 }, 10, 100)).contains("Gaussian"));
    assert!(truncation(0, 0.1, 5).is_err());
    assert!(truncation(10, 0.1, 0).is_err());
    assert!(truncation(10, 0.0, 5).is_err());
    assert!(truncated_poisson_gaussian(0.0, 0.1, 100, 5, 1e-3, Estimate::Pessimistic).is_err());
    let e = capped(GAUSSIAN(1.0), 10, 100);
    assert_eq!(e.relation().unwrap(), Relation::AddRemove);
    let rdp = RdpAccountant::default().curve(&e).unwrap_err().to_string();
    assert!(rdp.contains("PLD"), "{rdp}");
}
