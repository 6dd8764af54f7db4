//! `amplify calibrate`: the noise multiplier σ of the Poisson-subsampled Gaussian that meets a
//! target ε at δ over k steps, with the PLD accountant (certified upper bound, the default) or RDP.

use amp_math::pld::{calibrate_sigma, Noise};
use amp_math::rdp::Mechanism;
use amp_math::rdp_accounting::{default_orders, epsilon_for_delta, Conversion, Curve, Sampling};
use amp_plots::param as p;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::cmd::account::{accountant, grid, grid_step};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("calibrate")
        .about("The noise multiplier σ that meets a target ε at δ after k Poisson-sampled steps")
        .arg(args::required(p::Q))
        .arg(args::required(p::STEPS))
        .arg(args::required(p::DELTA))
        .arg(args::required(p::TARGET_EPS))
        .arg(accountant(Some("pld")))
        .arg(grid())
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    sigma: f64,
    accountant: String,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let values = args::values(m)?;
    let accountant = m
        .get_one::<String>("accountant")
        .cloned()
        .unwrap_or_else(|| "pld".into());
    let grid = grid_step(m);
    let (q, steps, delta, target) = (
        values.real(p::Q),
        values.count(p::STEPS),
        values.real(p::DELTA),
        values.real(p::TARGET_EPS),
    );
    if q == 0.0 {
        return Err("--q must be above 0".into());
    }
    if delta <= 0.0 {
        return Err("--delta must be above 0".into());
    }
    let sampling = Sampling::Poisson { q };
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
    let record = Record {
        sigma: finite("sigma", sigma)?,
        accountant,
        relation: sampling.relation().id(),
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
