//! `amplify calibrate`: the noise multiplier σ of the Poisson-subsampled Gaussian that meets a
//! target over k steps: ε at δ, with the PLD accountant (certified upper bound, the default) or
//! RDP; or a membership attacker's TPR at an FPR, or its advantage, with the PLD accountant (the
//! certified trade-off bound of [`amp_math::risk`]).

use amp_math::accounting::{
    calibrate_event, Accountant, Event, PldAccountant, RdpAccountant, Search, Target,
};
use amp_math::rdp::Mechanism;
use amp_math::risk::RiskTarget;
use amp_model::param as p;
use amp_model::params::{Batching, ChoiceEnum};
use amp_model::{batching, training};
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::cmd::account::{accountant, grid, grid_step, AccountantKind};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("calibrate")
        .about("The noise multiplier σ that meets a target ε at δ, or a target attack risk, after k Poisson-sampled steps")
        .arg(args::required(p::Q).required(false).required_unless_present(BATCHING))
        .arg(
            args::required(p::STEPS)
                .required(false)
                .required_unless_present_any([BATCHING, p::EPOCHS.spec.name]),
        )
        .arg(args::param(p::BATCHING).help(
            "Calibrate a DP-SGD loop by how it forms batches (poisson, shuffle, balls-in-bins, allocation: \
             each example in exactly k = round(epochs) of the steps), with \
             --dataset-size, --batch-size, --epochs or --steps, --target-eps and --delta (zero-out, sensitivity 1)",
        ))
        .arg(args::param(p::DATASET).requires(BATCHING))
        .arg(args::param(p::BATCH).requires(BATCHING))
        .arg(args::param(p::EPOCHS).requires(BATCHING).conflicts_with(p::STEPS.spec.name))
        .arg(args::param(p::DELTA).help(format!(
            "{} ({}; needed with --target-eps)",
            p::DELTA.spec.help,
            p::DELTA.spec.domain_text()
        )))
        .arg(args::param(p::TARGET_EPS))
        .arg(args::param(p::TARGET_TPR))
        .arg(args::param(p::FPR).help(format!(
            "{} ({}; needed with --target-tpr)",
            p::FPR.spec.help,
            p::FPR.spec.domain_text()
        )))
        .arg(args::param(p::TARGET_ADVANTAGE))
        .group(
            ArgGroup::new("target")
                .args([
                    p::TARGET_EPS.spec.name,
                    p::TARGET_TPR.spec.name,
                    p::TARGET_ADVANTAGE.spec.name,
                ])
                .required(true)
                .multiple(false),
        )
        .arg(args::param(p::RECORDS).help(
            "Records per user R: σ for one user with R records, each in the Poisson sample \
             independently (add/remove one user; PLD accountant, not with --batching)",
        ))
        .arg(accountant(Some(AccountantKind::Pld)))
        .arg(grid())
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    sigma: f64,
    accountant: &'static str,
    relation: &'static str,
    /// R: the guarantee is for one user with R records when R > 1.
    records_per_user: u64,
    /// What was held below its target: `epsilon`, `tpr` or `advantage`.
    target: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fpr: Option<f64>,
}

const BATCHING: &str = "batching";

#[derive(Serialize)]
struct BatchingRecord {
    batching: &'static str,
    relation: &'static str,
    sensitivity: f64,
    sigma: f64,
    sigma_lower: Option<f64>,
    target_epsilon: f64,
    delta: f64,
    dataset_size: u64,
    batch_size: u64,
    steps_per_epoch: u64,
    epochs: u64,
    method: &'static str,
}

/// `--batching`: σ whose certified upper bound for the loop meets the target, and the σ below
/// which the loop's lower bound already exceeds it.
fn run_batching(m: &ArgMatches) -> Result<String, String> {
    for (flag, given_it) in [
        ("--q", args::given(m, p::Q)),
        ("--target-tpr", args::given(m, p::TARGET_TPR)),
        ("--target-advantage", args::given(m, p::TARGET_ADVANTAGE)),
        ("--fpr", args::given(m, p::FPR)),
        ("--grid", m.contains_id("grid")),
        (
            "--accountant",
            m.value_source("accountant") == Some(clap::parser::ValueSource::CommandLine),
        ),
    ] {
        if given_it {
            return Err(format!(
                "{flag} does not apply with --batching (give --dataset-size, --batch-size, --epochs or --steps, --target-eps and --delta)"
            ));
        }
    }
    if !args::given(m, p::TARGET_EPS) || !args::given(m, p::DELTA) {
        return Err("--batching needs --target-eps and --delta".into());
    }
    if !args::given(m, p::DATASET) || !args::given(m, p::BATCH) {
        return Err("--batching needs --dataset-size and --batch-size".into());
    }
    let values = crate::cmd::train::run_values(m)?;
    let t = training::setting(&values)?;
    let kind: Batching = values.choice(p::BATCHING);
    let target = values.real(p::TARGET_EPS);
    let (sigma, lower) =
        batching::sigma_for_target(kind, &t, target, batching::FINE_LOG_STEP, 1e-3)?;
    let e = batching::epochs(&t);
    let record = BatchingRecord {
        batching: kind.id(),
        relation: batching::RELATION.id(),
        sensitivity: 1.0,
        sigma: finite("sigma", sigma)?,
        sigma_lower: lower,
        target_epsilon: target,
        delta: t.delta,
        dataset_size: t.dataset,
        batch_size: t.batch,
        steps_per_epoch: e.steps_per_epoch,
        epochs: e.upper,
        method: batching::method(kind),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "sigma = {}",
            amp_format::compact_number(record.sigma)
        ))
    }
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let values = args::values(m)?;
    let records = values.count(p::RECORDS);
    if records > 1 && args::given(m, p::BATCHING) {
        return Err(
            "--records-per-user is calibrated for Poisson sampling at --q (without --batching)"
                .into(),
        );
    }
    if args::given(m, p::BATCHING) {
        return run_batching(m);
    }
    let accountant = AccountantKind::given(m).unwrap_or(AccountantKind::Pld);
    let grid = grid_step(m);
    let (q, steps) = (values.real(p::Q), values.count(p::STEPS));
    if q == 0.0 {
        return Err("--q must be above 0".into());
    }
    // The run as a function of the unknown noise multiplier.
    let run = |sigma: f64| {
        Event::poisson_users(Mechanism::Gaussian { sigma }, q, records).repeated(steps)
    };
    if records > 1 && accountant != AccountantKind::Pld {
        return Err(
            "--records-per-user needs the PLD accountant (Rényi DP of a user's records is not \
             computed here)"
                .into(),
        );
    }
    let pld = PldAccountant::with_step(grid);
    // An attack target: the certified trade-off bound from the PLD.
    let risk = if args::given(m, p::TARGET_TPR) {
        if !args::given(m, p::FPR) {
            return Err("--target-tpr needs --fpr (the false-positive rate it is read at)".into());
        }
        Some(RiskTarget::Tpr {
            fpr: values.real(p::FPR),
            tpr: values.real(p::TARGET_TPR),
        })
    } else if args::given(m, p::TARGET_ADVANTAGE) {
        Some(RiskTarget::Advantage(values.real(p::TARGET_ADVANTAGE)))
    } else {
        None
    };
    let (sigma, target, fpr) = if let Some(t) = risk {
        if accountant != AccountantKind::Pld {
            return Err(
                "an attack target is calibrated with the PLD accountant only (--accountant pld)"
                    .into(),
            );
        }
        args::refuse(m, p::DELTA, "with an attack target (it has no δ)")?;
        if matches!(t, RiskTarget::Advantage(_)) {
            args::refuse(m, p::FPR, "with --target-advantage")?;
        }
        let s = calibrate_event(&pld, run, Target::Risk(t), Search::Noise { rel: 1e-4 })
            .map_err(|e| e.to_string())?;
        match t {
            RiskTarget::Tpr { fpr, .. } => (s, "tpr", Some(fpr)),
            RiskTarget::Advantage(_) => (s, "advantage", None),
        }
    } else {
        args::refuse(m, p::FPR, "with --target-eps")?;
        if !args::given(m, p::DELTA) {
            return Err("--target-eps needs --delta".into());
        }
        let (delta, target) = (values.real(p::DELTA), values.real(p::TARGET_EPS));
        if delta <= 0.0 {
            return Err("--delta must be above 0".into());
        }
        // The PLD's certified (pessimistic) bound alone: the σ found is enough.
        let rdp = RdpAccountant::default();
        let acc: &dyn Accountant = if accountant == AccountantKind::Pld {
            &pld
        } else {
            &rdp
        };
        let target = Target::Epsilon {
            epsilon: target,
            delta,
        };
        let sigma = calibrate_event(acc, run, target, Search::Noise { rel: 1e-5 })
            .map_err(|e| e.to_string())?;
        (sigma, "epsilon", None)
    };
    let record = Record {
        sigma: finite("sigma", sigma)?,
        accountant: accountant.id(),
        relation: run(sigma).relation().map_err(|e| e.to_string())?.id(),
        records_per_user: records,
        target,
        fpr,
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "sigma = {}",
            amp_format::compact_number(record.sigma)
        ))
    }
}
