//! `amplify subsampled-rr`: randomized response on a Poisson sample (Brown, lecture notes "Privacy
//! amplification", §1.3): its exact ε, the subsampling theorem's bound and the linear heuristic εp.

use amp_math::subsampling::{subsampled_rr, SUBSAMPLED_RR_RELATION};
use amp_model::param as p;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("subsampled-rr")
        .about("Randomized response on a sample: exact ε, the theorem's bound and εp")
        .arg(args::required(p::EPS))
        .arg(args::required(p::P))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon_exact: f64,
    epsilon_theorem: f64,
    epsilon_linear: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let s = subsampled_rr(v.real(p::EPS), v.real(p::P)).map_err(|e| e.to_string())?;
    emit(
        &Record {
            epsilon_exact: finite("epsilon_exact", s.exact)?,
            epsilon_theorem: finite("epsilon_theorem", s.theorem)?,
            epsilon_linear: finite("epsilon_linear", s.linear)?,
            relation: SUBSAMPLED_RR_RELATION.id(),
        },
        on(m, "json"),
    )
}
