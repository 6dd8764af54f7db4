//! `amplify account`: k compositions of a (sampled) mechanism as (ε, δ), with the RDP accountant
//! (Mironov 2017; conversion of Canonne, Kamath & Steinke 2020) or the tight PLD accountant
//! (privacy loss distributions composed by FFT; Koskela et al. 2020, Doroshenko et al. 2022).

use amp_math::pld::{self, Estimate};
use amp_math::rdp::Mechanism;
use amp_math::rdp_accounting::{
    delta_for_epsilon, epsilon_for_delta, guarantee_is_exact, Conversion, Sampling,
};
use amp_plots::figures::renyi;
use amp_plots::param as p;
use amp_plots::params::ParamValues;
use clap::{Arg, ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::cmd::mechanism;
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("account")
        .about("ε (or δ) after k steps of a sampled mechanism, with the RDP or the PLD accountant")
        .arg(accountant(None))
        .args(mechanism::args())
        .arg(args::required(p::STEPS))
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
