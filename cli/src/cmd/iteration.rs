//! `amplify iteration`: ε at δ of the last iterate of one pass of noisy SGD for the first record,
//! the middle one, and without amplification (Feldman, Mironov, Talwar & Thakurta 2018; Brown,
//! lecture notes "Privacy amplification"). The numbers are the iteration page's readouts.

use amp_model::param as p;
use amp_site::pages::iteration::{FIRST, MIDDLE, PLAIN, SPEC as ITERATION};
use amp_site::pages::Precision;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::{emit, reading};

pub fn command() -> Command {
    Command::new("iteration")
        .about("Privacy amplification by iteration: ε of the last iterate for the first and middle record")
        .arg(args::required(p::ITERATIONS))
        .arg(args::required(p::SIGMA))
        .arg(args::param(p::STEP_BATCH))
        .arg(args::param(p::DELTA))
        .arg(args::param(p::STEP_SIZE))
        .arg(args::param(p::SMOOTHNESS))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon_first: f64,
    epsilon_middle: f64,
    epsilon_plain: f64,
    delta: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let r = (ITERATION.readouts)(&v, Precision::Quick);
    emit(
        &Record {
            epsilon_first: reading(&r, &FIRST)?,
            epsilon_middle: reading(&r, &MIDDLE)?,
            epsilon_plain: reading(&r, &PLAIN)?,
            delta: v.real(p::DELTA),
            relation: amp_math::iteration::RELATION.id(),
        },
        on(m, "json"),
    )
}
