//! `amplify ratio`: how much more noise the subsampled Laplace mechanism adds (Steinke, "Limits
//! of privacy amplification by subsampling", eqs. 6–8), from ε and p or from c = ε/p.
//! The numbers are the limits page's readouts.

use amp_model::param as p;
use amp_site::pages::limits::{
    EPSILON_P, NOISE_BOUND, NOISE_FACTOR, NOISE_RATIO, RATIO_FLOOR, SPEC as LIMITS,
};
use amp_site::pages::Precision;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::{emit, reading};

pub fn command() -> Command {
    Command::new("ratio")
        .about(
            "The noise ratio of subsampled vs full-data Laplace (from --eps and --p, or from --c)",
        )
        .arg(args::param(p::EPS).requires(p::P.spec.name))
        .arg(args::param(p::P).requires(p::EPS.spec.name))
        .arg(args::param(p::C))
        .group(
            ArgGroup::new("input")
                .args([p::EPS.spec.name, p::C.spec.name])
                .required(true),
        )
        .arg(args::json())
}

#[derive(Serialize)]
struct FromRate {
    epsilon_p: f64,
    noise_ratio: f64,
    noise_factor: f64,
    lower_bound: f64,
    upper_bound: f64,
    relation: &'static str,
}

#[derive(Serialize)]
struct FromC {
    ratio_floor: f64,
    noise_factor: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let readings = (LIMITS.readouts)(&v, Precision::Quick);
    let relation = amp_math::limits::RELATION.id();
    if given(m, p::C) {
        return emit(
            &FromC {
                ratio_floor: reading(&readings, &RATIO_FLOOR)?,
                noise_factor: reading(&readings, &NOISE_BOUND)?,
                relation,
            },
            on(m, "json"),
        );
    }
    let (eps, rate) = (v.real(p::EPS), v.real(p::P));
    let (lower, upper) =
        amp_math::limits::noise_ratio_bounds(eps, rate).map_err(|e| e.to_string())?;
    emit(
        &FromRate {
            epsilon_p: reading(&readings, &EPSILON_P)?,
            noise_ratio: reading(&readings, &NOISE_RATIO)?,
            noise_factor: reading(&readings, &NOISE_FACTOR)?,
            lower_bound: lower,
            upper_bound: upper,
            relation,
        },
        on(m, "json"),
    )
}
