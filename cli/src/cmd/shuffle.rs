//! `amplify shuffle`: the central ε of one shuffle bound (or the tightest valid one) at (ε₀, n,
//! δ), or with `--invert` the largest ε₀ that meets a target central ε. Replace one.

use amp_math::shuffle::{
    best_with, fmt21_rdp, fmt23_rdp, largest_eps0_over, shuffle_epsilon_with, Bound, Choice,
    Randomizer, BEST_ID, RELATION,
};
use amp_plots::model::shuffle::randomizer;
use amp_plots::param as p;
use amp_plots::params::RandomizerKind;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};
use crate::output::emit;

/// The id of `--bound` here (the Rényi page's `bound` parameter is another thing).
const BOUND: &str = "shuffle-bound";

pub fn command() -> Command {
    let options = Bound::ALL
        .iter()
        .map(|b| PossibleValue::new(b.id()).help(b.name()))
        .chain([PossibleValue::new(BEST_ID).help("The smallest valid ε among them")]);
    Command::new("shuffle")
        .about("Amplification by shuffling: central ε of n users' ε₀-DP reports (or, with --invert, the ε₀ for a target)")
        .arg(
            Arg::new(BOUND)
                .long("bound")
                .value_name("BOUND")
                .help("Which published bound, or the tightest valid one")
                .required(true)
                .value_parser(
                    PossibleValuesParser::new(options)
                        .try_map(|id: String| Choice::from_id(&id).ok_or("unknown bound")),
                ),
        )
        .arg(args::param(p::EPS0))
        .arg(args::param(p::TARGET_EPS).requires("invert"))
        .group(
            ArgGroup::new("input")
                .args([p::EPS0.spec.name, p::TARGET_EPS.spec.name])
                .required(true),
        )
        .arg(args::switch(
            "invert",
            "Print the largest ε₀ that meets --target-eps (instead of the ε of --eps0)",
        ))
        .arg(args::required(p::USERS))
        .arg(args::required(p::DELTA))
        .arg(args::param(p::RANDOMIZER))
        .arg(args::param(p::K).requires(p::RANDOMIZER.spec.name))
        .arg(
            Arg::new("orders")
                .long("orders")
                .value_name("A1,A2,…")
                .help("Also the Rényi DP of the clone reduction at these orders (with --bound fmt21-numerical or fmt23-numerical): a certified [lower, upper] per order")
                .value_parser(crate::cmd::rdp::orders)
                .conflicts_with("invert"),
        )
        .arg(args::json())
}

#[derive(Serialize)]
struct Forward {
    bound: &'static str,
    epsilon: Option<f64>,
    valid: bool,
    epsilon_lower: Option<f64>,
    epsilon_upper: Option<f64>,
    published_lower: Option<f64>,
    published_upper: Option<f64>,
    no_amplification: bool,
    reason_invalid: Option<&'static str>,
    randomizer: String,
    relation: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rdp_orders: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rdp_lower: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rdp_upper: Option<Vec<f64>>,
}

#[derive(Serialize)]
struct Inverse {
    bound: &'static str,
    eps0: f64,
    target_epsilon: f64,
    delta: f64,
    users: u64,
    randomizer: String,
    relation: &'static str,
    limited_by_validity: Option<&'static str>,
}

fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let choice = *m.get_one::<Choice>(BOUND).ok_or("shuffle needs --bound")?;
    let v = args::values(m)?;
    if given(m, p::K) && v.choice(p::RANDOMIZER) != RandomizerKind::KRr {
        return Err("--k only applies with --randomizer k-rr".into());
    }
    let r = randomizer(&v);
    let (n, delta) = (v.count(p::USERS), v.real(p::DELTA));
    let e = |x: amp_math::MathError| x.to_string();
    let r_text = match r {
        Randomizer::Generic => "generic".to_string(),
        Randomizer::KRr { k } => format!("{k}-rr"),
    };
    let json = on(m, "json");
    if on(m, "invert") && given(m, p::EPS0) {
        return Err(
            "--invert finds ε₀ for --target-eps; give --target-eps instead of --eps0".into(),
        );
    }
    if on(m, "invert") {
        let target = v.real(p::TARGET_EPS);
        let bounds: Vec<Bound> = match choice {
            Choice::Best => Bound::ALL.to_vec(),
            Choice::One(b) => vec![b],
        };
        let (b, l) = largest_eps0_over(&bounds, r, target, n, delta).map_err(e)?;
        return emit(
            &Inverse {
                bound: b.id(),
                eps0: crate::output::finite("eps0", l.eps0)?,
                target_epsilon: target,
                delta,
                users: n,
                randomizer: r_text,
                relation: RELATION.id(),
                limited_by_validity: l.limited_by_validity,
            },
            json,
        );
    }
    let eps0 = v.real(p::EPS0);
    // The clone reductions' Rényi DP at the given orders.
    let (mut rdp_orders, mut rdp_lower, mut rdp_upper) = (None, None, None);
    if let Some(orders) = m.get_one::<Vec<f64>>("orders") {
        let at = |a: f64| {
            match choice {
            Choice::One(Bound::Fmt21Numerical) => fmt21_rdp(eps0, n, a),
            Choice::One(Bound::Fmt23Numerical) => fmt23_rdp(r, eps0, n, a),
            _ => Err(amp_math::MathError::NoSolution {
                reason: "--orders needs --bound fmt21-numerical or fmt23-numerical (the Rényi DP of a clone reduction)".into(),
            }),
        }
        };
        let pairs = orders
            .iter()
            .map(|&a| at(a).map_err(e))
            .collect::<Result<Vec<_>, _>>()?;
        for &(lo, hi) in &pairs {
            crate::output::finite("rdp", lo)?;
            crate::output::finite("rdp", hi)?;
        }
        rdp_orders = Some(orders.clone());
        rdp_lower = Some(pairs.iter().map(|x| x.0).collect());
        rdp_upper = Some(pairs.iter().map(|x| x.1).collect());
    }
    let res = match choice {
        Choice::Best => best_with(r, eps0, n, delta).map_err(e)?,
        Choice::One(b) => shuffle_epsilon_with(b, r, eps0, n, delta).map_err(e)?,
    };
    // Lower and upper where the bound has both: the exact clone evaluation's two ends.
    let (lower, upper) = match res.exact_lower {
        Some(lo) => (finite(Some(lo)), finite(res.epsilon)),
        None => (None, None),
    };
    emit(
        &Forward {
            bound: res.bound.id(),
            epsilon: finite(res.epsilon),
            valid: res.valid,
            epsilon_lower: lower,
            epsilon_upper: upper,
            published_lower: finite(res.lower),
            published_upper: finite(res.upper),
            no_amplification: res.no_amplification,
            reason_invalid: res.reason_invalid,
            randomizer: r_text,
            relation: RELATION.id(),
            rdp_orders,
            rdp_lower,
            rdp_upper,
        },
        json,
    )
}
