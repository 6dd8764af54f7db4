//! `amplify calibrate`: the noise multiplier σ of the Poisson-subsampled Gaussian that meets a
//! target over k steps: ε at δ, with the PLD accountant (certified upper bound, the default) or
//! RDP; or a membership attacker's TPR at an FPR, or its advantage, with the PLD accountant (the
//! certified trade-off bound of [`amp_math::risk`]).

use amp_math::pld::{calibrate_sigma, Noise};
use amp_math::rdp::Mechanism;
use amp_math::rdp_accounting::{default_orders, epsilon_for_delta, Conversion, Curve, Sampling};
use amp_math::risk::{sigma_for_risk, RiskTarget};
use amp_plots::param as p;
use clap::{ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::cmd::account::{accountant, grid, grid_step};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("calibrate")
        .about("The noise multiplier σ that meets a target ε at δ, or a target attack risk, after k Poisson-sampled steps")
        .arg(args::required(p::Q))
        .arg(args::required(p::STEPS))
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
        .arg(accountant(Some("pld")))
        .arg(grid())
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    sigma: f64,
    accountant: String,
    relation: &'static str,
    /// What was held below its target: `epsilon`, `tpr` or `advantage`.
    target: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fpr: Option<f64>,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let values = args::values(m)?;
    let accountant = m
        .get_one::<String>("accountant")
        .cloned()
        .unwrap_or_else(|| "pld".into());
    let grid = grid_step(m);
    let (q, steps) = (values.real(p::Q), values.count(p::STEPS));
    if q == 0.0 {
        return Err("--q must be above 0".into());
    }
    let sampling = Sampling::Poisson { q };
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
        if accountant != "pld" {
            return Err(
                "an attack target is calibrated with the PLD accountant only (--accountant pld)"
                    .into(),
            );
        }
        args::refuse(m, p::DELTA, "with an attack target (it has no δ)")?;
        if matches!(t, RiskTarget::Advantage(_)) {
            args::refuse(m, p::FPR, "with --target-advantage")?;
        }
        let s =
            sigma_for_risk(Noise::Gaussian(1.0), q, steps, t, grid).map_err(|e| e.to_string())?;
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
        let sigma = if accountant == "pld" {
            // The certified (pessimistic) bound alone: the σ found is enough.
            calibrate_sigma(
                |s| Noise::Gaussian(s).upper_epsilon(q, steps, delta, grid),
                target,
            )
        } else {
            let orders = default_orders();
            calibrate_sigma(
                |s| {
                    let curve = Curve::of(&Mechanism::Gaussian { sigma: s }, sampling, &orders)?
                        .times(steps as f64);
                    Ok(epsilon_for_delta(&curve, delta, Conversion::Improved)?.epsilon)
                },
                target,
            )
        }
        .map_err(|e| e.to_string())?;
        (sigma, "epsilon", None)
    };
    let record = Record {
        sigma: finite("sigma", sigma)?,
        accountant,
        relation: sampling.relation().id(),
        target,
        fpr,
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "sigma = {}",
            amp_plots::format::compact_number(record.sigma)
        ))
    }
}
