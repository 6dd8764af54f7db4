//! `amplify regime`: a training run's sampling rate, steps, per-step ε and the noise it costs
//! (Steinke, "Limits of privacy amplification by subsampling"), with the sentence the limits page
//! shows.

use amp_math::limits::{self, Duration};
use amp_model::limits::regime_sentence;
use amp_model::param as p;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::{emit, finite, lines, to_value};

pub fn command() -> Command {
    Command::new("regime")
        .about("Where a training run sits: rate, steps, ε per step, c = ε/p and the noise it costs")
        .arg(args::required(p::DATASET))
        .arg(args::required(p::BATCH))
        .arg(args::param(p::EPOCHS))
        .arg(args::param(p::STEPS))
        .group(
            ArgGroup::new("duration")
                .args([p::EPOCHS.spec.name, p::STEPS.spec.name])
                .required(true),
        )
        .arg(args::required(p::TOTAL_EPS))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    p: f64,
    steps: u64,
    epochs: f64,
    epsilon_per_step: f64,
    c: f64,
    noise_factor: f64,
    noise_factor_bound: f64,
    relation: &'static str,
    sentence: String,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let d = if given(m, p::STEPS) {
        Duration::Steps(v.count(p::STEPS))
    } else {
        Duration::Epochs(v.real(p::EPOCHS))
    };
    let (dataset, batch, total) = (v.count(p::DATASET), v.count(p::BATCH), v.real(p::TOTAL_EPS));
    let r = limits::regime(dataset, batch, d, total).map_err(|x| x.to_string())?;
    let record = Record {
        p: finite("p", r.p)?,
        steps: r.steps,
        epochs: finite("epochs", r.epochs)?,
        epsilon_per_step: finite("epsilon_per_step", r.epsilon_per_step)?,
        c: finite("c", r.c)?,
        noise_factor: finite("noise_factor", r.noise_factor)?,
        noise_factor_bound: finite("noise_factor_bound", r.noise_factor_bound)?,
        relation: limits::RELATION.id(),
        sentence: regime_sentence(dataset, batch, total, &r),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        // The numbers, then the sentence on its own line.
        Ok(format!(
            "{}\n{}",
            lines(&to_value(&record)?, &["sentence"]),
            record.sentence
        ))
    }
}
