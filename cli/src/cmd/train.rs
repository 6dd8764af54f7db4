//! `amplify train`: the training page's numbers for a DP-SGD run (its one readouts function, at
//! the refined precision the page settles on, or `--quick`): the tight ε with its lower bound,
//! Rényi DP beside it, the noise for a target ε, and the plain-language statement.

use amp_model::param as p;
use amp_model::params::{Batching, ChoiceEnum, Length, ParamValues};
use amp_site::pages::training::{
    CALIBRATED, CAP_CUT, CAP_RATE, GRID_STEP, GROUP_LEMMA, MICRO_EPSILON, RDP_EPSILON, RDP_ORDER,
    RUN_ADVANTAGE, RUN_BAYES, RUN_SHAPE, RUN_TPR, SPEC as TRAINING, STATEMENT, TIGHT, TIGHT_LOWER,
    WARNINGS,
};
use amp_site::pages::Precision;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::{emit, lines, reading, to_value};

pub fn command() -> Command {
    Command::new("train")
        .about("Privacy of a DP-SGD run: tight ε (PLD) with its lower bound, RDP ε, σ for a target, a statement")
        .arg(args::param(p::DATASET))
        .arg(args::param(p::BATCH))
        .arg(args::param(p::EPOCHS))
        .arg(args::param(p::STEPS))
        .group(ArgGroup::new("length").args([p::EPOCHS.spec.name, p::STEPS.spec.name]))
        .arg(args::param(p::BATCHING))
        .arg(args::param(p::RECORDS))
        .arg(args::param(p::MAX_BATCH))
        .arg(args::param(p::ACCUMULATION))
        .arg(args::param(p::BANDS))
        // σ keeps its default; b is required with --mechanism laplace.
        .args(args::group(&p::group::NOISE, &[p::SIGMA.spec]))
        .arg(args::param(p::DELTA))
        .arg(args::param(p::TARGET_EPS))
        .arg(args::param(p::FPR))
        .arg(args::param(p::PRIOR))
        .arg(args::switch(
            "quick",
            "The quick numbers the page shows while a slider moves (coarser grid) instead of the refined ones",
        ))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon: f64,
    epsilon_lower: f64,
    delta: f64,
    rdp_epsilon: Option<f64>,
    rdp_order: Option<f64>,
    sigma_for_target: Option<f64>,
    target_epsilon: f64,
    grid_step: f64,
    run: String,
    warnings: Vec<String>,
    statement: String,
    relation: &'static str,
    /// R: the guarantee is for one user with R records when R > 1.
    records_per_user: u64,
    /// ε for one user from one record's ε by the group-privacy lemma (R = 1: ε itself); null
    /// when the lemma gives no finite ε.
    group_lemma_epsilon: Option<f64>,
    /// Gradient accumulation steps A: the batch size given is a micro-batch when A > 1.
    accumulation_steps: u64,
    /// The batch of one noisy step, A·B.
    effective_batch_size: u64,
    /// ε if the micro-batch were taken for the batch (A times the steps at rate B/|x|): what a
    /// misconfigured accountant reports; ε itself when A = 1.
    micro_batch_epsilon: Option<f64>,
    /// The cap M on every Poisson batch (0: none).
    max_batch: u64,
    /// The chance a step's batch is cut to M (0 without a cap).
    cap_probability: Option<f64>,
    /// The chance an example is in a step's batch after the cap (q without one).
    capped_rate: Option<f64>,
    /// Bands b of a banded matrix factorisation (1: DP-SGD).
    bands: u64,
    /// With b > 1: the steps each example takes part in at most, ⌈T/b⌉ (null when b = 1).
    banded_participations: Option<u64>,
    /// With b > 1: the rate at which each step samples its group, b·B/|x| (null when b = 1).
    banded_rate: Option<f64>,
    attack: Option<AttackRecord>,
}

/// What the run means for a membership attacker, for the loop's own sampler (`--batching`):
/// certified upper bounds, as the page's readouts.
#[derive(Serialize)]
struct AttackRecord {
    batching: &'static str,
    relation: &'static str,
    fpr: f64,
    prior: f64,
    tpr_upper: f64,
    advantage_upper: f64,
    bayes_success_upper: f64,
}

/// The parameters given, with the length counted in steps when `--steps` is given (shared with
/// `account --batching` and `calibrate --batching`).
pub fn run_values(m: &ArgMatches) -> Result<ParamValues, String> {
    let mut v = args::values(m)?;
    // `account --batching` takes the sampler as text (it also knows `allocation`).
    if let Ok(Some(text)) = m.try_get_one::<String>(p::BATCHING.spec.name) {
        v.set(p::BATCHING.spec, p::BATCHING.spec.parse(text)?)?;
    }
    if given(m, p::STEPS) {
        v.set_choice(p::LENGTH, Length::Steps);
    }
    Ok(v)
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = run_values(m)?;
    let precision = if on(m, "quick") {
        Precision::Quick
    } else {
        Precision::Fine
    };
    let r = (TRAINING.readouts)(&v, precision);
    let optional = |spec| reading(&r, spec).ok();
    let relation = r
        .get(&TIGHT)
        .map(|x| x.relation.id())
        .ok_or("internal: no tight ε")?;
    let banded = amp_model::training::setting(&v)
        .ok()
        .filter(|t| t.bands > 1);
    let record = Record {
        bands: v.count(p::BANDS),
        banded_participations: banded.map(|t| t.steps),
        banded_rate: banded.map(|t| t.q),
        epsilon: reading(&r, &TIGHT)?,
        epsilon_lower: reading(&r, &TIGHT_LOWER)?,
        delta: v.real(p::DELTA),
        rdp_epsilon: optional(&RDP_EPSILON),
        rdp_order: optional(&RDP_ORDER),
        sigma_for_target: optional(&CALIBRATED),
        target_epsilon: v.real(p::TARGET_EPS),
        grid_step: reading(&r, &GRID_STEP)?,
        run: r.text(&RUN_SHAPE).unwrap_or_default().to_string(),
        warnings: r
            .text(&WARNINGS)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default(),
        statement: r.text(&STATEMENT).unwrap_or_default().to_string(),
        relation,
        records_per_user: v.count(p::RECORDS),
        group_lemma_epsilon: optional(&GROUP_LEMMA),
        accumulation_steps: v.count(p::ACCUMULATION),
        effective_batch_size: v.count(p::BATCH).saturating_mul(v.count(p::ACCUMULATION)),
        micro_batch_epsilon: optional(&MICRO_EPSILON),
        max_batch: v.count(p::MAX_BATCH),
        cap_probability: optional(&CAP_CUT),
        capped_rate: optional(&CAP_RATE),
        attack: match (
            reading(&r, &RUN_TPR),
            reading(&r, &RUN_ADVANTAGE),
            reading(&r, &RUN_BAYES),
        ) {
            (Ok(tpr_upper), Ok(advantage_upper), Ok(bayes_success_upper)) => Some(AttackRecord {
                batching: v.choice::<Batching>(p::BATCHING).id(),
                relation: r
                    .get(&RUN_TPR)
                    .map(|x| x.relation.id())
                    .ok_or("internal: no attacker TPR")?,
                fpr: v.real(p::FPR),
                prior: v.real(p::PRIOR),
                tpr_upper,
                advantage_upper,
                bayes_success_upper,
            }),
            _ => None,
        },
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        // The numbers, then the statement as a paragraph.
        Ok(format!(
            "{}\n\n{}",
            lines(&to_value(&record)?, &["statement", "warnings"]),
            record.statement
        ))
    }
}
