//! `amplify iteration`: ε at δ of the last iterate of one pass of noisy SGD for the first record,
//! the middle one, and without amplification (Feldman, Mironov, Talwar & Thakurta 2018; Brown,
//! lecture notes "Privacy amplification"), and of a run over many passes on a bounded set: after T
//! steps, with every iterate released, the plateau, the burn-in, the closed form where it holds and
//! the attacker's view (Brown, Theorem 3.1; Altschuler & Talwar 2022). The numbers are the
//! iteration page's readouts.

use amp_model::param as p;
use amp_model::params::ChoiceEnum;
use amp_site::pages::iteration::{
    FIRST, MANY_ATTACK, MANY_BURN_IN, MANY_CLOSED_FORM, MANY_COMPOSITION, MANY_LAST, MANY_PLATEAU,
    MIDDLE, PLAIN, SPEC as ITERATION,
};
use amp_site::pages::Precision;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::{emit, reading};

pub fn command() -> Command {
    Command::new("iteration")
        .about("Privacy amplification by iteration: ε of the last iterate for the first and middle record of one pass, and over many passes on a bounded set")
        .arg(args::required(p::ITERATIONS))
        .arg(args::required(p::SIGMA))
        .arg(args::param(p::STEP_BATCH))
        .arg(args::param(p::DELTA))
        .arg(args::param(p::STEP_SIZE))
        .arg(args::param(p::SMOOTHNESS))
        .arg(args::param(p::PASS_STEPS))
        .arg(args::param(p::PASS_RECORDS))
        .arg(args::param(p::PASS_BATCHES))
        .arg(args::param(p::PASS_BATCH))
        .arg(args::param(p::DIAMETER))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon_first: f64,
    epsilon_middle: f64,
    epsilon_plain: f64,
    many_passes: ManyPasses,
    delta: f64,
    relation: &'static str,
}

/// The run over many passes (`--pass-steps`, `--pass-records`, `--pass-batches`, `--pass-batch`,
/// `--diameter`, with σ, η, β and δ shared).
#[derive(Serialize)]
struct ManyPasses {
    batches: &'static str,
    epsilon_last: f64,
    epsilon_composition: f64,
    epsilon_plateau: f64,
    burn_in_steps: f64,
    /// `null` where the closed form's conditions do not hold.
    epsilon_closed_form: Option<f64>,
    /// The attacker's view: the most members a test that wrongly accuses 1% of non-members can
    /// catch, from the last iterate's Rényi curve after T steps (an upper bound).
    attack_tpr_at_fpr_1_percent: f64,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let r = (ITERATION.readouts)(&v, Precision::Quick);
    emit(
        &Record {
            epsilon_first: reading(&r, &FIRST)?,
            epsilon_middle: reading(&r, &MIDDLE)?,
            epsilon_plain: reading(&r, &PLAIN)?,
            many_passes: ManyPasses {
                batches: v.choice(p::PASS_BATCHES).id(),
                epsilon_last: reading(&r, &MANY_LAST)?,
                epsilon_composition: reading(&r, &MANY_COMPOSITION)?,
                epsilon_plateau: reading(&r, &MANY_PLATEAU)?,
                burn_in_steps: reading(&r, &MANY_BURN_IN)?,
                epsilon_closed_form: reading(&r, &MANY_CLOSED_FORM).ok(),
                attack_tpr_at_fpr_1_percent: reading(&r, &MANY_ATTACK)?,
            },
            delta: v.real(p::DELTA),
            relation: amp_math::iteration::RELATION.id(),
        },
        on(m, "json"),
    )
}
