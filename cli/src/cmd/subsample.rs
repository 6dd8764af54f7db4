//! `amplify subsample`: the (ε′, δ′) of a mechanism run on a random sample (Steinke, "Privacy
//! amplification by subsampling"; Balle, Barthe & Gaboardi 2018), or with `--invert` the base
//! (ε, δ) that meets a target.

use amp_format::compact_number;
use amp_math::subsampling::{amplify, base_for_target, Scheme};
use amp_math::EpsDelta;
use amp_model::param as p;
use amp_model::sampling::sampling;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("subsample")
        .about("ε′, δ′ of a mechanism on a random sample (or, with --invert, the base ε, δ for a target)")
        .arg(args::param(p::SCHEME))
        .arg(args::required(p::EPS))
        .arg(args::param(p::DELTA))
        .arg(args::param(p::P).conflicts_with_all([p::M.spec.name, p::N.spec.name]))
        .arg(
            args::param(p::M)
                .requires(p::N.spec.name)
                .required_if_eq_any([("scheme", "without-replacement"), ("scheme", "with-replacement")]),
        )
        .arg(args::param(p::N).requires(p::M.spec.name))
        .arg(args::switch(
            "invert",
            "Read --eps, --delta as the target ε′, δ′ and print the base ε, δ that meet it",
        ))
        .arg(args::json())
}

/// What `subsample` prints.
#[derive(Serialize)]
struct Record {
    scheme: &'static str,
    relation: &'static str,
    epsilon: f64,
    /// Absent when no base δ meets the target (the note says why).
    delta: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta_note: Option<String>,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let values = args::values(m)?;
    let scheme = values.choice(p::SCHEME);
    if scheme == Scheme::Poisson && !given(m, p::P) {
        return Err(
            "--scheme poisson (the default) needs --p; the fixed-size schemes take --m and --n"
                .into(),
        );
    }
    let s = sampling(&values);
    let given_pair =
        EpsDelta::new(values.real(p::EPS), values.real(p::DELTA)).map_err(|e| e.to_string())?;
    let invert = on(m, "invert");
    let (eps, delta, relation) = if invert {
        let b = base_for_target(&s, given_pair).map_err(|e| e.to_string())?;
        (b.epsilon, b.delta.map_err(|e| e.to_string()), b.relation)
    } else {
        let a = amplify(&s, given_pair).map_err(|e| e.to_string())?;
        (a.guarantee.epsilon, Ok(a.guarantee.delta), a.relation)
    };
    let eps = finite("ε", eps)?;
    let delta = match delta {
        Ok(d) => Ok(finite("δ", d)?),
        Err(why) => Err(why),
    };
    if on(m, "json") {
        let (delta, delta_note) = match delta {
            Ok(d) => (Some(d), None),
            Err(why) => (None, Some(why)),
        };
        return emit(
            &Record {
                scheme: scheme.id(),
                relation: relation.id(),
                epsilon: eps,
                delta,
                delta_note,
            },
            true,
        );
    }
    let delta_text = match &delta {
        Ok(d) => compact_number(*d),
        Err(why) => format!("none ({why})"),
    };
    Ok(if invert {
        format!(
            "base ε = {}, δ = {} for the target ε′ = {}, δ′ = {} ({}, {})",
            compact_number(eps),
            delta_text,
            compact_number(given_pair.epsilon),
            compact_number(given_pair.delta),
            scheme.label(),
            relation.label()
        )
    } else {
        format!(
            "ε′ = {}, δ′ = {} ({}, {})",
            compact_number(eps),
            delta_text,
            scheme.label(),
            relation.label()
        )
    })
}
