//! `amplify shuffle`: the central ε of one shuffle bound (or the tightest valid one) at (ε₀, n,
//! δ), or with `--invert` the largest ε₀ that meets a target central ε. Replace one.

use amp_math::shuffle::{
    best_with, fmt21_rdp, fmt23_rdp, largest_eps0_over, shuffle_epsilon_with, Bound, Choice,
    Randomizer, BEST_ID, RELATION,
};
use amp_model::param as p;
use amp_model::params::{ParamValues, RandomizerKind};
use amp_model::shuffle::{randomizer, rounds, rounds_attack, rounds_local_for_target, rounds_rdp};
use amp_model::training::FINE;
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
        .arg(
            args::param(p::ROUNDS).long_help(
                "Compose R rounds of the shuffle (the same users report R times): the clone \
                 pair's privacy loss distribution composed R times (a certified band), beside \
                 R-fold composition of the one-round ε (basic or advanced) and Rényi DP. Needs \
                 --bound fmt21-numerical, fmt23-numerical or best (the stronger clones where the \
                 randomizer allows them).",
            ),
        )
        .arg(args::required(p::DELTA))
        .arg(
            args::param(p::FPR)
                .requires(p::ROUNDS.spec.name)
                .long_help(
                    "With --rounds: the optimal membership attacker after R rounds, its \
                     true-positive rate at this false-positive rate (a certified band, as `amplify \
                     risk` gives for DP-SGD) and its advantage",
                ),
        )
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
struct Rounds {
    bound: &'static str,
    rounds: u64,
    eps0: f64,
    users: u64,
    delta: f64,
    /// The certified upper bound after R rounds.
    epsilon: f64,
    epsilon_lower: f64,
    epsilon_upper: f64,
    pld_epsilon_lower: f64,
    pld_epsilon_upper: f64,
    naive_epsilon: f64,
    naive_method: &'static str,
    rdp_epsilon: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    fpr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tpr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tpr_lower: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    advantage: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    advantage_lower: Option<f64>,
    randomizer: String,
    relation: &'static str,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<u64>,
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
    // R rounds: the clone pair composed (FMT21's clones, or FMT23's where allowed).
    if given(m, p::ROUNDS) {
        return run_rounds(m, &v, choice, r_text);
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
                rounds: None,
            },
            json,
        );
    }
    let eps0 = v.real(p::EPS0);
    // The clone reductions' Rényi DP at the given orders.
    let (rdp_orders, rdp_lower, rdp_upper) = clone_rdp(m, choice, r, eps0, n)?;
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

/// `shuffle --rounds`: R rounds of the clone pair composed, forward or inverse, with the
/// attacker at `--fpr`.
fn run_rounds(
    m: &ArgMatches,
    v: &ParamValues,
    choice: Choice,
    r_text: String,
) -> Result<String, String> {
    let r = randomizer(v);
    let (n, delta) = (v.count(p::USERS), v.real(p::DELTA));
    let e = |x: amp_math::MathError| x.to_string();
    let json = on(m, "json");
    let stronger = match choice {
        Choice::One(Bound::Fmt21Numerical) => false,
        Choice::One(Bound::Fmt23Numerical) => {
            if let Some(why) = amp_math::shuffle::stronger_clones_exclude(r) {
                return Err(format!("the stronger clone reduction {why}"));
            }
            true
        }
        Choice::Best => amp_math::shuffle::stronger_clones_exclude(r).is_none(),
        Choice::One(b) => {
            return Err(format!(
                "--rounds composes a clone reduction's loss distribution; {} has none: use \
                 --bound fmt21-numerical, fmt23-numerical or best",
                b.id()
            ))
        }
    };
    let bound = if stronger {
        Bound::Fmt23Numerical
    } else {
        Bound::Fmt21Numerical
    };
    let rounds_n = v.count(p::ROUNDS);
    if on(m, "invert") {
        let target = v.real(p::TARGET_EPS);
        let eps0 = rounds_local_for_target(v, stronger, FINE, 1e-7)?;
        return emit(
            &Inverse {
                bound: bound.id(),
                eps0: crate::output::finite("eps0", eps0)?,
                target_epsilon: target,
                delta,
                users: n,
                randomizer: r_text,
                relation: RELATION.id(),
                limited_by_validity: None,
                rounds: Some(rounds_n),
            },
            json,
        );
    }
    if m.contains_id("orders") {
        return Err("--orders gives one round's Rényi DP; with --rounds the composed Rényi ε is rdp_epsilon".into());
    }
    let res = rounds(v, stronger, FINE)?;
    let rdp = rounds_rdp(v, stronger)?;
    // The attacker after R rounds, at --fpr.
    let (mut fpr, mut tpr, mut adv) = (None, None, None);
    if given(m, p::FPR) {
        let a = rounds_attack(v, stronger, FINE)?;
        let x = v.real(p::FPR);
        fpr = Some(x);
        tpr = Some(a.tradeoff.tpr(x).map_err(e)?);
        adv = Some(a.tradeoff.advantage());
    }
    let f = crate::output::finite;
    emit(
        &Rounds {
            bound: bound.id(),
            rounds: rounds_n,
            eps0: v.real(p::EPS0),
            users: n,
            delta,
            epsilon: f("epsilon", res.upper)?,
            epsilon_lower: f("epsilon_lower", res.lower)?,
            epsilon_upper: res.upper,
            pld_epsilon_lower: f("pld_epsilon_lower", res.pld_lower)?,
            pld_epsilon_upper: f("pld_epsilon_upper", res.pld_upper)?,
            naive_epsilon: f("naive_epsilon", res.naive)?,
            naive_method: res.naive_method,
            rdp_epsilon: f("rdp_epsilon", rdp)?,
            fpr,
            tpr: tpr.map(|t| t.0),
            tpr_lower: tpr.map(|t| t.1),
            advantage: adv.map(|t| t.0),
            advantage_lower: adv.map(|t| t.1),
            randomizer: r_text,
            relation: RELATION.id(),
        },
        json,
    )
}

/// The orders given, and the Rényi DP's lower and upper ends at each.
type OrdersRdp = (Option<Vec<f64>>, Option<Vec<f64>>, Option<Vec<f64>>);

/// The clone reduction's Rényi DP at `--orders` (its lower and upper ends), if given.
fn clone_rdp(
    m: &ArgMatches,
    choice: Choice,
    r: Randomizer,
    eps0: f64,
    n: u64,
) -> Result<OrdersRdp, String> {
    let e = |x: amp_math::MathError| x.to_string();
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
    Ok((rdp_orders, rdp_lower, rdp_upper))
}
