//! `amplify account`: k compositions of a (sampled) mechanism as (ε, δ), with the RDP accountant
//! (Mironov 2017; conversion of Canonne, Kamath & Steinke 2020) or the tight PLD accountant
//! (privacy loss distributions composed by FFT; Koskela et al. 2020, Doroshenko et al. 2022).

use amp_math::pld::{self, Estimate};
use amp_math::rdp::{
    delta_for_epsilon, epsilon_for_delta, guarantee_is_exact, Conversion, Mechanism, Sampling,
};
use amp_plots::figures::{batching, renyi, training};
use amp_plots::param as p;
use amp_plots::params::ParamValues;
use amp_plots::params::{Batching, ChoiceEnum};
use clap::{Arg, ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};

const BATCHING: &str = "batching";
use crate::cmd::mechanism;
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("account")
        .about("ε (or δ) after k steps of a sampled mechanism, with the RDP or the PLD accountant")
        .arg(accountant(None).required(false).required_unless_present(BATCHING))
        .args(mechanism::args().into_iter().map(|a| {
            if a.get_id() == p::MECH.spec.name {
                a.required(false).required_unless_present(BATCHING)
            } else {
                a
            }
        }))
        .arg(
            args::required(p::STEPS)
                .required(false)
                .required_unless_present_any([BATCHING, p::EPOCHS.spec.name]),
        )
        .arg(args::param(p::BATCHING).help(
            "Account a DP-SGD loop by how it forms batches: poisson, shuffle (reshuffled every epoch, fixed batch size) \
             or balls-in-bins; with --sigma, --dataset-size, --batch-size, --epochs or --steps and --delta. \
             All on the zero-out relation, sensitivity 1",
        ))
        .arg(args::param(p::DATASET).requires(BATCHING))
        .arg(args::param(p::BATCH).requires(BATCHING))
        .arg(args::param(p::EPOCHS).requires(BATCHING).conflicts_with(p::STEPS.spec.name))
        .arg(
            Arg::new("log-step")
                .long("log-step")
                .value_name("G")
                .requires(BATCHING)
                .help(format!(
                    "Balls in bins: the log-grid step of the sums, in [1e-4, 0.01] (default {}); smaller is slower with a narrower band",
                    batching::FINE_LOG_STEP
                ))
                .value_parser(|text: &str| match text.trim().parse::<f64>() {
                    Ok(g) if (1e-4..=0.01).contains(&g) => Ok(g),
                    _ => Err("the log-grid step must be a number between 1e-4 and 0.01".to_string()),
                }),
        )
        .arg(args::param(p::DELTA))
        .arg(args::param(p::TARGET_EPS))
        .group(
            ArgGroup::new("target")
                .args([p::DELTA.spec.name, p::TARGET_EPS.spec.name])
                .required(true),
        )
        .arg(args::param(p::CONVERSION))
        .arg(grid())
        .arg(args::json())
}

/// `--accountant rdp|pld`; required when there is no default.
pub fn accountant(default: Option<&'static str>) -> Arg {
    let arg = Arg::new("accountant")
        .long("accountant")
        .value_name("ACCOUNTANT")
        .value_parser(["rdp", "pld"]);
    match default {
        Some(d) => arg
            .help(format!(
                "rdp: Rényi DP with the improved conversion; pld: privacy loss distributions, a certified upper bound (default {d})"
            ))
            .default_value(d),
        None => arg
            .help("rdp: Rényi DP with the improved conversion; pld: privacy loss distributions, a certified upper bound and a lower bound")
            .required(true),
    }
}

/// `--grid H`: the PLD loss grid's step.
pub fn grid() -> Arg {
    let (lo, hi) = pld::STEP_RANGE;
    Arg::new("grid")
        .long("grid")
        .value_name("H")
        .help(format!(
            "The PLD accountant's loss grid step, in [{lo:e}, {hi}] (default {}): coarser is faster, still an upper bound, with a wider band",
            pld::DEFAULT_STEP
        ))
        .value_parser(move |text: &str| match text.trim().parse::<f64>() {
            Ok(h) if (lo..=hi).contains(&h) => Ok(h),
            _ => Err(format!(
                "the PLD grid step must be a number between {lo:e} and {hi}"
            )),
        })
}

/// The grid step given, or the default (dp_accounting's).
pub fn grid_step(m: &ArgMatches) -> f64 {
    m.get_one::<f64>("grid")
        .copied()
        .unwrap_or(pld::DEFAULT_STEP)
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    if given(m, p::BATCHING) {
        return run_batching(m);
    }
    match m.get_one::<String>("accountant").map(String::as_str) {
        Some("pld") => run_pld(m),
        _ => run_rdp(m),
    }
}

#[derive(Serialize)]
struct RdpRecord {
    epsilon: f64,
    delta: f64,
    order: f64,
    conversion: &'static str,
    curve: &'static str,
    relation: &'static str,
}

fn run_rdp(m: &ArgMatches) -> Result<String, String> {
    if m.contains_id("grid") {
        return Err("--grid applies to the PLD accountant only".into());
    }
    let (values, st) = mechanism::setting(m)?;
    let conversion: Conversion = values.choice(p::CONVERSION);
    let curve = renyi::step_curve(&st)
        .map_err(|e| e.to_string())?
        .times(values.real(p::STEPS));
    let c = if given(m, p::DELTA) {
        epsilon_for_delta(&curve, values.real(p::DELTA), conversion)
    } else {
        delta_for_epsilon(&curve, values.real(p::TARGET_EPS), conversion)
    }
    .map_err(|e| e.to_string())?;
    let exact = guarantee_is_exact(&st.mech, st.sampling);
    let record = RdpRecord {
        epsilon: finite("epsilon", c.epsilon)?,
        delta: finite("delta", c.delta)?,
        order: finite("order", c.order)?,
        conversion: conversion.id(),
        curve: if exact { "exact" } else { "upper" },
        relation: st.sampling.relation().id(),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "epsilon = {}\ndelta = {}\norder = {}",
            amp_plots::format::compact_number(record.epsilon),
            amp_plots::format::compact_number(record.delta),
            amp_plots::format::compact_number(record.order)
        ))
    }
}

#[derive(Serialize)]
struct PldEpsilon {
    epsilon: f64,
    epsilon_lower: f64,
    delta: f64,
    accountant: &'static str,
    relation: &'static str,
}

#[derive(Serialize)]
struct PldDelta {
    epsilon: f64,
    delta: f64,
    delta_lower: f64,
    accountant: &'static str,
    relation: &'static str,
}

fn run_pld(m: &ArgMatches) -> Result<String, String> {
    if given(m, p::CONVERSION) {
        return Err("--conversion applies to the RDP accountant only".into());
    }
    let (values, st) = mechanism::setting(m)?;
    let q = match st.sampling {
        Sampling::Poisson { q } => q,
        Sampling::Full => 1.0,
        Sampling::WithoutReplacement { .. } => return Err(
            "the PLD accountant supports Poisson sampling (add/remove) only; use --scheme poisson"
                .into(),
        ),
    };
    if q == 0.0 {
        return Err("--q must be above 0 for the PLD accountant".into());
    }
    let (hi, lo) = (
        compose(&values, &st.mech, q, grid_step(m), Estimate::Pessimistic)?,
        compose(&values, &st.mech, q, grid_step(m), Estimate::Optimistic)?,
    );
    let relation = st.sampling.relation().id();
    let json = on(m, "json");
    if given(m, p::DELTA) {
        let delta = values.real(p::DELTA);
        let e_hi = hi.epsilon_for_delta(delta).map_err(|e| e.to_string())?;
        let e_lo = lo.epsilon_for_delta(delta).map_err(|e| e.to_string())?;
        let record = PldEpsilon {
            epsilon: finite("epsilon", e_hi)?,
            epsilon_lower: finite("epsilon_lower", e_lo)?,
            delta,
            accountant: "pld",
            relation,
        };
        if json {
            emit(&record, true)
        } else {
            Ok(crate::output::lines(
                &crate::output::to_value(&record)?,
                &["accountant", "relation"],
            ))
        }
    } else {
        let eps = values.real(p::TARGET_EPS);
        let record = PldDelta {
            epsilon: eps,
            delta: finite("delta", hi.delta_for_epsilon(eps))?,
            delta_lower: finite("delta_lower", lo.delta_for_epsilon(eps))?,
            accountant: "pld",
            relation,
        };
        if json {
            emit(&record, true)
        } else {
            Ok(crate::output::lines(
                &crate::output::to_value(&record)?,
                &["accountant", "relation"],
            ))
        }
    }
}

/// The k-fold composition of one step's PLD (pessimistic: a certified upper bound; optimistic: a
/// lower bound).
pub fn compose(
    values: &ParamValues,
    mech: &Mechanism,
    q: f64,
    h: f64,
    est: Estimate,
) -> Result<pld::PldPair, String> {
    let steps = values.count(p::STEPS);
    let pair = match *mech {
        Mechanism::Gaussian { sigma } => pld::poisson_gaussian(sigma, q, h, est),
        Mechanism::Laplace { scale } => pld::poisson_laplace(scale, q, h, est),
        Mechanism::RandomizedResponse { epsilon } if q == 1.0 => {
            pld::randomized_response(epsilon, 2, pld::step_dividing(epsilon, h), est)
        }
        Mechanism::KaryRandomizedResponse { epsilon, k } if q == 1.0 => {
            pld::randomized_response(epsilon, k, pld::step_dividing(epsilon, h), est)
        }
        _ => {
            return Err("randomized response is accounted without sampling here (omit --q)".into())
        }
    }
    .map_err(|e| e.to_string())?;
    pair.self_compose(steps).map_err(|e| e.to_string())
}

#[derive(Serialize)]
struct BatchingRecord {
    batching: &'static str,
    relation: &'static str,
    sensitivity: f64,
    epsilon: f64,
    epsilon_lower: f64,
    poisson_epsilon: f64,
    poisson_epsilon_lower: f64,
    poisson_grid_step: f64,
    delta: f64,
    sigma: f64,
    dataset_size: u64,
    batch_size: u64,
    steps_per_epoch: u64,
    epochs: u64,
    epochs_lower: u64,
    steps: u64,
    log_step: Option<f64>,
    method: &'static str,
}

/// `--batching`: the training loop's own band, beside the Poisson number.
fn run_batching(m: &ArgMatches) -> Result<String, String> {
    for (flag, given_it) in [
        ("--accountant", m.contains_id("accountant")),
        ("--q", given(m, p::Q)),
        ("--target-eps", given(m, p::TARGET_EPS)),
        ("--conversion", given(m, p::CONVERSION)),
        ("--grid", m.contains_id("grid")),
    ] {
        if given_it {
            return Err(format!(
                "{flag} does not apply with --batching (give --sigma, --dataset-size, --batch-size, --epochs or --steps, and --delta)"
            ));
        }
    }
    if !given(m, p::SIGMA) || !given(m, p::DELTA) {
        return Err("--batching needs --sigma and --delta".into());
    }
    if !given(m, p::DATASET) || !given(m, p::BATCH) {
        return Err("--batching needs --dataset-size and --batch-size".into());
    }
    if !given(m, p::EPOCHS) && !given(m, p::STEPS) {
        return Err("--batching needs --epochs or --steps".into());
    }
    let values = crate::cmd::train::run_values(m)?;
    let t = training::setting(&values)?;
    let sigma = batching::gaussian_sigma(&t)?;
    let kind: Batching = values.choice(p::BATCHING);
    let log_step = m
        .get_one::<f64>("log-step")
        .copied()
        .unwrap_or(batching::FINE_LOG_STEP);
    let band = batching::band_for(kind, &t, training::FINE, log_step, false)?;
    let poisson = batching::poisson_band(&t, training::FINE)?;
    let e = batching::epochs(&t);
    let record = BatchingRecord {
        batching: kind.id(),
        relation: batching::RELATION.id(),
        sensitivity: 1.0,
        epsilon: finite("epsilon", band.upper)?,
        epsilon_lower: finite("epsilon_lower", band.lower)?,
        poisson_epsilon: finite("poisson_epsilon", poisson.upper)?,
        poisson_epsilon_lower: finite("poisson_epsilon_lower", poisson.lower)?,
        poisson_grid_step: training::cached_band(&t, training::FINE)?.step,
        delta: t.delta,
        sigma,
        dataset_size: t.dataset,
        batch_size: t.batch,
        steps_per_epoch: e.steps_per_epoch,
        epochs: e.upper,
        epochs_lower: e.lower,
        steps: t.steps,
        log_step: (kind == Batching::BallsInBins)
            .then(|| batching::log_step_for(sigma, e.steps_per_epoch, log_step)),
        method: batching::method(kind),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(crate::output::lines(
            &crate::output::to_value(&record)?,
            &["method"],
        ))
    }
}
