//! A user with R records under Poisson sampling (user-level DP, add or remove one user): the
//! mixture-of-Gaussians PLD ([`amp_math::pld::poisson_gaussian_group`]) and the accountant's band
//! for runs of it, against
//! (a) mpmath (`tools/reference/users.py` → `data/users.csv`): δ(ε) of one step in each direction
//!     from the exact tails at the loss's root, inside our [optimistic, pessimistic] δ;
//! (b) Google's dp_accounting 0.6.0 (`tools/external/dp_accounting_users.py` →
//!     `data/pld_dp_accounting_users.csv`, `MixtureOfGaussiansDpEvent` composed by its PLD
//!     accountant at value discretisation 1e-4, pessimistic): their ε at δ inside our band on the
//!     same grid step, to 0.2%, and our upper bound within 0.2% of theirs;
//! and the limits and orders theory fixes: R = 1 is the record-level event bit for bit, ε grows
//! with R, and the group-privacy lemma never beats the tight band.
#![allow(clippy::disallowed_methods)] // std's parsing is the independent reader of the tables

use amp_math::accounting::{group_lemma_epsilon, Event, PldAccountant, Sampler};
use amp_math::pld::{self, poisson_gaussian_group, Estimate};
use amp_math::rdp::Mechanism;
use amp_math::Relation;

const MPMATH: &str = include_str!("data/users.csv");
const DP_ACCOUNTING: &str = include_str!("data/pld_dp_accounting_users.csv");

fn rows(table: &str) -> Vec<Vec<f64>> {
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split(',').map(|x| x.trim().parse().expect(l)).collect())
        .collect()
}

#[test]
fn one_step_holds_mpmaths_delta_in_both_directions() {
    let table = rows(MPMATH);
    assert!(table.len() >= 80, "{} rows", table.len());
    let mut widest: f64 = 0.0;
    for r in &table {
        let (sigma, q, records, eps) = (r[0], r[1], r[2] as u64, r[3]);
        let up = poisson_gaussian_group(sigma, q, records, 1e-3, Estimate::Pessimistic).unwrap();
        let lo = poisson_gaussian_group(sigma, q, records, 1e-3, Estimate::Optimistic).unwrap();
        for (name, want, u, l) in [
            (
                "remove",
                r[4],
                up.remove.delta_for_epsilon(eps),
                lo.remove.delta_for_epsilon(eps),
            ),
            (
                "add",
                r[5],
                up.add.delta_for_epsilon(eps),
                lo.add.delta_for_epsilon(eps),
            ),
        ] {
            let slack = 1e-12;
            assert!(
                l <= want + slack && want <= u + slack,
                "σ = {sigma}, q = {q}, R = {records}, ε = {eps}, {name}: mpmath δ = {want:e} \
                 outside [{l:e}, {u:e}]"
            );
            if want > 1e-9 {
                widest = widest.max((u - l) / want);
            }
        }
    }
    // On a grid of 1e-3 the band is a few percent of δ at most.
    assert!(widest < 5e-2, "relative band width up to {widest}");
    eprintln!("widest relative band: {widest:.3e}");
}

#[test]
fn dp_accountings_mixture_of_gaussians_lies_in_our_band() {
    let table = rows(DP_ACCOUNTING);
    assert!(table.len() >= 40, "{} rows", table.len());
    let acc = PldAccountant::with_step(pld::DEFAULT_STEP);
    let mut failures = Vec::new();
    for r in &table {
        let (sigma, q, records, steps, delta, theirs) =
            (r[0], r[1], r[2] as u64, r[3] as u64, r[4], r[5]);
        let run = Event::poisson_users(Mechanism::Gaussian { sigma }, q, records).repeated(steps);
        let (upper, lower) = acc.band(&run).unwrap().epsilon(delta).unwrap();
        let tol = 2e-3;
        let inside = lower <= theirs * (1.0 + tol) && theirs <= upper * (1.0 + tol);
        let close = ((upper - theirs) / theirs).abs() <= tol;
        if !(inside && close) {
            failures.push(format!(
                "σ = {sigma}, q = {q}, R = {records}, {steps} steps: theirs {theirs}, ours [{lower}, {upper}]"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn one_record_is_the_record_level_run_bit_for_bit() {
    let m = Mechanism::Gaussian { sigma: 0.9 };
    let user = Event::poisson_users(m, 0.02, 1).repeated(300);
    let record = Event::poisson(m, 0.02).repeated(300);
    assert_eq!(user, record);
    assert_eq!(user.relation(), Ok(Relation::AddRemove));
    let two = Event::poisson_users(m, 0.02, 2);
    assert_eq!(two.relation(), Ok(Relation::AddRemoveUser));
    assert_eq!(two.records_per_user(), 2);
    assert_eq!(two.record_level(), Event::poisson(m, 0.02));
}

#[test]
fn epsilon_grows_with_the_records_and_the_lemma_never_beats_the_band() {
    let acc = PldAccountant::with_step(1e-3);
    let m = Mechanism::Gaussian { sigma: 1.5 };
    let mut last = 0.0;
    for records in [1, 2, 3, 5, 8] {
        let run = Event::poisson_users(m, 0.01, records).repeated(200);
        let (upper, lower) = acc.band(&run).unwrap().epsilon(1e-6).unwrap();
        assert!(
            lower <= upper && lower > last,
            "R = {records}: [{lower}, {upper}] after {last}"
        );
        if let Some(lemma) = group_lemma_epsilon(&run, records, 1e-6, &acc).unwrap() {
            assert!(
                lemma >= lower,
                "R = {records}: lemma {lemma} below the band's lower end {lower}"
            );
        }
        last = upper;
    }
}

#[test]
fn several_records_are_refused_where_there_is_no_analysis() {
    let laplace = Event::Sampled {
        sampler: Sampler::PoissonUser { q: 0.1, records: 3 },
        mechanism: Mechanism::Laplace { scale: 1.0 },
    };
    assert!(laplace
        .validate()
        .unwrap_err()
        .to_string()
        .contains("Gaussian"));
    let zero = Event::Sampled {
        sampler: Sampler::PoissonUser { q: 0.1, records: 0 },
        mechanism: Mechanism::Gaussian { sigma: 1.0 },
    };
    assert!(zero.validate().is_err());
    assert!(poisson_gaussian_group(1.0, 0.1, 0, 1e-3, Estimate::Pessimistic).is_err());
    assert!(poisson_gaussian_group(1.0, 0.0, 2, 1e-3, Estimate::Pessimistic).is_err());
    assert!(poisson_gaussian_group(f64::NAN, 0.1, 2, 1e-3, Estimate::Pessimistic).is_err());
    let rdp = amp_math::accounting::RdpAccountant::default();
    let run = Event::poisson_users(Mechanism::Gaussian { sigma: 1.0 }, 0.1, 2);
    assert!(rdp.curve(&run).is_err());
}

#[test]
fn many_records_with_little_noise_keep_every_mass_finite() {
    // Losses above 709 (e^l overflows) once reached the pessimistic split as ∞·0.
    for records in [32, 64] {
        let up =
            poisson_gaussian_group(0.3, 0.004267, records, 0.1, Estimate::Pessimistic).unwrap();
        let lo = poisson_gaussian_group(0.3, 0.004267, records, 0.1, Estimate::Optimistic).unwrap();
        for pld in [&up.remove, &up.add, &lo.remove, &lo.add] {
            assert!(pld.masses.iter().all(|m| m.is_finite() && *m >= 0.0));
        }
        let (u, l) = (up.delta_for_epsilon(50.0), lo.delta_for_epsilon(50.0));
        assert!(l <= u && u < 1.0, "R = {records}: [{l}, {u}]");
    }
    let acc = PldAccountant::with_step(0.05);
    let run = Event::poisson_users(Mechanism::Gaussian { sigma: 0.3 }, 0.004267, 64).repeated(703);
    let (upper, lower) = acc.band(&run).unwrap().epsilon(1e-6).unwrap();
    assert!(lower <= upper && upper > 1000.0, "[{lower}, {upper}]");
}
