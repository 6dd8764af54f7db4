//! `amplify rdp`: ε(α) of a base or subsampled mechanism at the given orders (Wang, Balle &
//! Kasiviswanathan 2019 and Mironov, Talwar & Zhang 2019; Wang's slides "Privacy amplification by
//! subsampling and Rényi DP").

use amp_format::compact_number;
use amp_math::rdp::{subsampled, Bound, MAX_ORDER};
use amp_model::param as p;
use clap::{Arg, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::cmd::mechanism;
use crate::output::emit;

pub fn command() -> Command {
    Command::new("rdp")
        .about("Rényi DP ε(α) of a mechanism, sampled or not, at the given orders")
        .args(mechanism::args())
        .arg(args::param(p::BOUND))
        .arg(
            Arg::new("orders")
                .long("orders")
                .value_name("A1,A2,…")
                .help("Orders α, comma-separated, each above 1 and at most 10,000")
                .required(true)
                .value_parser(orders),
        )
        .arg(args::json())
}

/// `--orders 1.5,2,32`: each above 1 and at most [`MAX_ORDER`].
pub(crate) fn orders(text: &str) -> Result<Vec<f64>, String> {
    if text.len() > 10_000 {
        return Err("the list is too long (at most 10,000 characters)".into());
    }
    text.split(',')
        .map(|t| {
            let a: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("“{}” is not a number", t.trim()))?;
            if a > 1.0 && a <= MAX_ORDER {
                Ok(a)
            } else {
                Err(format!(
                    "every order must be above 1 and at most 10,000 (got {a})"
                ))
            }
        })
        .collect()
}

#[derive(Serialize)]
struct Record {
    orders: Vec<f64>,
    rdp: Vec<f64>,
    bound: &'static str,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let (values, st) = mechanism::setting(m)?;
    let orders = m
        .get_one::<Vec<f64>>("orders")
        .cloned()
        .ok_or("--orders is required")?;
    let bound: Bound = values.choice(p::BOUND);
    let rdp: Vec<f64> = orders
        .iter()
        .map(|&a| subsampled(&st.mech, st.sampling, bound, a).map_err(|e| e.to_string()))
        .collect::<Result<_, String>>()?;
    if rdp.iter().any(|v| !v.is_finite()) {
        return Err("the result is not a finite number at these settings".into());
    }
    if on(m, "json") {
        return emit(
            &Record {
                orders,
                rdp,
                bound: bound.id(),
                relation: st.sampling.relation().id(),
            },
            true,
        );
    }
    Ok(orders
        .iter()
        .zip(&rdp)
        .map(|(a, r)| format!("ε({}) = {}", compact_number(*a), compact_number(*r)))
        .collect::<Vec<_>>()
        .join("\n"))
}
