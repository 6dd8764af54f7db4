//! `amplify risk`: what k steps of a (Poisson-sampled) mechanism mean for a membership attacker:
//! the optimal attacker's TPR at the given false-positive rates as a certified band from the
//! privacy loss distributions, the advantage max(TPR − FPR), the Bayes-optimal success for a prior,
//! and Gaussian DP's μ: numeric, from the run's certified trade-off curve (Gomez et al. 2025), with
//! its regret and the error rate down to which it holds, beside the exact μ without sampling or
//! the central-limit approximation with it.

use amp_math::accounting::PldAccountant;
use amp_math::rdp::Mechanism;
use amp_math::rdp::Sampling;
use amp_math::risk::{bayes_band, clt_mu, gaussian_mu, gdp_fit, Tradeoff};
use amp_model::param as p;
use amp_model::params::Value;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::cmd::account::{grid, grid_step};
use crate::cmd::mechanism;
use crate::output::{emit, finite};

/// FPRs reported when `--fpr` is not given.
const DEFAULT_FPRS: [f64; 3] = [0.001, 0.01, 0.1];

pub fn command() -> Command {
    Command::new("risk")
        .about("The membership attacker's TPR at given FPRs, advantage and Bayes success after k steps (certified band from the PLD)")
        .args(mechanism::args())
        .arg(args::required(p::STEPS))
        .arg(
            Arg::new(p::FPR.spec.name)
                .long(p::FPR.spec.name)
                .value_name("FPR")
                .help(format!(
                    "{} Comma-separated list ({}; default {})",
                    p::FPR.spec.help,
                    p::FPR.spec.domain_text(),
                    DEFAULT_FPRS.map(|a| a.to_string()).join(",")
                ))
                .value_delimiter(',')
                .action(ArgAction::Append)
                .value_parser(|text: &str| p::FPR.spec.parse(text)),
        )
        .arg(args::param(p::PRIOR))
        .arg(args::param(p::DELTA).help(
            "δ at which the run's ε and the group-privacy lemma's ε are reported (default 1e-5)",
        ))
        .arg(args::param(p::RECORDS).help(
            "Records per user R: the attacker tests whether one user with R records took part, \
             each record in the Poisson sample independently (Gaussian noise)",
        ))
        .arg(grid())
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    relation: &'static str,
    steps: u64,
    q: f64,
    fpr: Vec<f64>,
    tpr_upper: Vec<f64>,
    tpr_lower: Vec<f64>,
    advantage_upper: f64,
    advantage_lower: f64,
    prior: f64,
    bayes_success_upper: f64,
    bayes_success_lower: f64,
    /// The numeric μ of the certified trade-off curve: the least μ with G_μ below the curve at
    /// every test whose two error rates are both at least `gdp_alpha_min` (an upper bound there);
    /// null when no test on the curve has both error rates at least 1e-10 (μ above about 12.7).
    gdp_mu: Option<f64>,
    /// The worst-case regret of reporting `gdp_mu` instead of the curve (Gomez et al.).
    gdp_regret: Option<f64>,
    /// The smallest error rate down to which `gdp_mu` holds (at most 1e-10; 0: every test).
    gdp_alpha_min: Option<f64>,
    /// Gaussian noise, one record per user: √k/σ without sampling (exact) or the central-limit
    /// μ of Bu et al. with it (an approximation, often too small); null otherwise.
    gdp_mu_clt: Option<f64>,
    /// "exact" or "central-limit approximation" (of `gdp_mu_clt`).
    gdp_mu_clt_kind: Option<&'static str>,
    grid: f64,
    /// R (1: one record).
    records_per_user: u64,
    /// ε at δ (`--delta`, 1e-5 by default here) for one user from one record's ε by the
    /// group-privacy lemma (R = 1: the run's ε); null when the lemma gives no finite ε.
    group_lemma_epsilon: Option<f64>,
    /// The run's certified ε at that δ.
    epsilon: f64,
    delta: f64,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let (values, st) = mechanism::setting(m)?;
    let q = match st.sampling {
        Sampling::Poisson { q } => q,
        Sampling::Full => 1.0,
        Sampling::WithoutReplacement { .. } => {
            return Err("risk uses Poisson sampling (add/remove) only; use --scheme poisson".into())
        }
    };
    let fprs: Vec<f64> = match m.get_many::<Value>(p::FPR.spec.name) {
        Some(list) => list
            .map(|v| match v {
                Value::Real(a) => Ok(*a),
                _ => Err("--fpr takes numbers".to_string()),
            })
            .collect::<Result<_, _>>()?,
        None => DEFAULT_FPRS.to_vec(),
    };
    let h = grid_step(m);
    let records = values.count(p::RECORDS);
    let event = if records > 1 {
        if !matches!(st.mech, Mechanism::Gaussian { .. }) {
            return Err("--records-per-user needs --mechanism gaussian".into());
        }
        amp_math::accounting::Event::poisson_users(st.mech, q, records)
            .repeated(values.count(p::STEPS))
    } else {
        mechanism::event(&st, values.count(p::STEPS))
    };
    let acc = PldAccountant::with_step(h);
    let pld_band = acc.band(&event).map_err(|e| e.to_string())?;
    let delta = if args::given(m, p::DELTA) {
        values.real(p::DELTA)
    } else {
        1e-5
    };
    let epsilon = pld_band.epsilon(delta).map_err(|e| e.to_string())?.0;
    let group_lemma_epsilon = if records > 1 {
        amp_math::accounting::group_lemma_epsilon(&event, records, delta, &acc)
            .map_err(|e| e.to_string())?
    } else {
        Some(epsilon)
    };
    let band = pld_band;
    let (upper, lower) = (&band.upper, &band.lower);
    let t = Tradeoff::from_pairs(upper, lower).map_err(|e| e.to_string())?;
    let band = t.curve(&fprs);
    let (adv_hi, adv_lo) = t.advantage();
    let prior = values.real(p::PRIOR);
    let (bayes_hi, bayes_lo) = bayes_band(upper, lower, prior).map_err(|e| e.to_string())?;
    let steps = values.count(p::STEPS);
    let fit = gdp_fit(upper).ok();
    let (gdp_mu_clt, gdp_mu_clt_kind) = match st.mech {
        Mechanism::Gaussian { .. } if records > 1 => (None, None),
        Mechanism::Gaussian { sigma } if q == 1.0 => (
            Some(gaussian_mu(sigma, steps).map_err(|e| e.to_string())?),
            Some("exact"),
        ),
        Mechanism::Gaussian { sigma } => (
            Some(clt_mu(q, sigma, steps).map_err(|e| e.to_string())?),
            Some("central-limit approximation"),
        ),
        _ => (None, None),
    };
    let record = Record {
        relation: event.relation().map_err(|e| e.to_string())?.id(),
        steps,
        q,
        tpr_upper: band
            .iter()
            .map(|b| finite("tpr_upper", b.0))
            .collect::<Result<_, _>>()?,
        tpr_lower: band
            .iter()
            .map(|b| finite("tpr_lower", b.1))
            .collect::<Result<_, _>>()?,
        fpr: fprs,
        advantage_upper: finite("advantage_upper", adv_hi)?,
        advantage_lower: finite("advantage_lower", adv_lo)?,
        prior,
        bayes_success_upper: finite("bayes_success_upper", bayes_hi)?,
        bayes_success_lower: finite("bayes_success_lower", bayes_lo)?,
        gdp_mu: fit.map(|f| finite("gdp_mu", f.mu)).transpose()?,
        gdp_regret: fit.map(|f| finite("gdp_regret", f.regret)).transpose()?,
        gdp_alpha_min: fit.map(|f| f.alpha_min),
        gdp_mu_clt,
        gdp_mu_clt_kind,
        grid: h,
        records_per_user: records,
        group_lemma_epsilon,
        epsilon: finite("epsilon", epsilon)?,
        delta,
    };
    emit(&record, on(m, "json"))
}
