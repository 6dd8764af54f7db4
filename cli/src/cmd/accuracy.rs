//! `amplify accuracy`: the accuracy page's numbers (Hu, Drechsler & Kim, "Accuracy gains from
//! privacy amplification through sampling for differential privacy", eqs. 5 and 8) at a sampling
//! rate, or at the rate that keeps a target share q of the variance.

use amp_model::param as p;
use amp_model::params::Value;
use amp_site::pages::accuracy::{DELTA_N, EPSILON_N, Q_VALUE, RATE_FOR_Q, SPEC as ACCURACY};
use amp_site::pages::Precision;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::{emit, reading};

pub fn command() -> Command {
    Command::new("accuracy")
        .about("Sampling first at rate n/N: ε_n, δ_n, the variance share q and the noise ratio r")
        .arg(args::required(p::EPS))
        .arg(args::param(p::DELTA))
        .arg(args::param(p::RATE))
        .arg(args::param(p::TARGET_Q))
        .group(
            ArgGroup::new("at")
                .args([p::RATE.spec.name, p::TARGET_Q.spec.name])
                .required(true),
        )
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon_n: f64,
    delta_n: f64,
    q: f64,
    r: f64,
    rate: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let mut v = args::values(m)?;
    if given(m, p::TARGET_Q) {
        // The page's inverse readout, then its numbers at that rate.
        let at_target = (ACCURACY.readouts)(&v, Precision::Quick);
        let rate = reading(&at_target, &RATE_FOR_Q)?;
        v.set(p::RATE.spec, Value::Real(rate))
            .map_err(|why| format!("the rate that keeps q is {rate}, but {why}"))?;
    }
    let r = (ACCURACY.readouts)(&v, Precision::Quick);
    let eps = v.real(p::EPS);
    let rate = v.real(p::RATE);
    emit(
        &Record {
            epsilon_n: reading(&r, &EPSILON_N)?,
            delta_n: reading(&r, &DELTA_N)?,
            q: reading(&r, &Q_VALUE)?,
            r: amp_math::accuracy::mean_noise_ratio(eps, rate).map_err(|e| e.to_string())?,
            rate,
            relation: amp_math::accuracy::RELATION.id(),
        },
        on(m, "json"),
    )
}
