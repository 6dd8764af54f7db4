//! `amplify account`: k compositions of a (sampled) mechanism as (ε, δ), with the RDP accountant
//! (Mironov 2017; conversion of Canonne, Kamath & Steinke 2020) or the tight PLD accountant
//! (privacy loss distributions composed by FFT; Koskela et al. 2020, Doroshenko et al. 2022).

use amp_math::accounting::{Accountant, PldAccountant, RdpAccountant};
use amp_math::pld;
use amp_math::rdp::default_orders;
use amp_math::rdp::Mechanism;
use amp_model::param as p;
use amp_model::params::{Batching, ChoiceEnum};
use amp_model::run::{Phase, Run};
use amp_model::{batching, training};
use clap::{Arg, ArgGroup, ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, given, on};

const BATCHING: &str = "batching";
/// `--batching allocation`: random allocation, k of T steps.
const ALLOCATION: &str = "allocation";
const RUN: &str = "run";
use crate::cmd::mechanism;
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("account")
        .about("ε (or δ) after k steps of a sampled mechanism, or of a run of phases (--run), with the PLD or the RDP accountant")
        .arg(accountant(Some(AccountantKind::Pld)))
        .args(mechanism::args().into_iter().map(|a| {
            if a.get_id() == p::MECH.spec.name {
                a.required(false)
                    .required_unless_present_any([BATCHING, RUN])
                    .conflicts_with(RUN)
            } else {
                a
            }
        }))
        .arg(
            args::required(p::STEPS)
                .required(false)
                .required_unless_present_any([BATCHING, p::EPOCHS.spec.name, RUN])
                .conflicts_with(RUN),
        )
        .arg(
            Arg::new(RUN)
                .long(RUN)
                .value_name("FILE")
                .conflicts_with(BATCHING)
                .help(
                    "A run of phases as a JSON file (each phase with its own mechanism, noise, \
                     sampler and length; see docs/usage.md): the whole run's ε at the file's δ (or --delta)",
                ),
        )
        // The page's samplers, and random allocation (k of T steps), which only `account` takes.
        .arg(
            Arg::new(BATCHING)
                .long(BATCHING)
                .value_name("SAMPLER")
                .value_parser([
                    "poisson",
                    "shuffle",
                    "balls-in-bins",
                    "truncated-poisson",
                    ALLOCATION,
                ])
                .help(
                    "Account a DP-SGD loop by how it forms batches: poisson, shuffle (reshuffled every epoch, fixed batch size), \
                     balls-in-bins, truncated-poisson (Poisson batches cut to --max-batch), with --sigma, --dataset-size, \
                     --batch-size, --epochs or --steps and --delta; or allocation (each example in exactly --participations k \
                     of --steps T steps), with --sigma, --steps and --delta. All on the zero-out relation, sensitivity 1, \
                     except truncated-poisson (add/remove one example, the dataset size counting it)",
                ),
        )
        .arg(args::param(p::PARTICIPATIONS).requires(BATCHING))
        .arg(args::param(p::MAX_BATCH).requires(BATCHING))
        .arg(args::param(p::DATASET).requires(BATCHING))
        .arg(args::param(p::BATCH).requires(BATCHING))
        .arg(args::param(p::EPOCHS).requires(BATCHING).conflicts_with(p::STEPS.spec.name))
        .arg(
            Arg::new("log-step")
                .long("log-step")
                .value_name("G")
                .requires(BATCHING)
                .help(format!(
                    "Balls in bins: the log-grid step of the sums, in [1e-4, 0.01] (default {}); smaller is slower with a narrower band",
                    batching::FINE_LOG_STEP
                ))
                .value_parser(|text: &str| match text.trim().parse::<f64>() {
                    Ok(g) if (1e-4..=0.01).contains(&g) => Ok(g),
                    _ => Err("the log-grid step must be a number between 1e-4 and 0.01".to_string()),
                }),
        )
        .arg(args::param(p::DELTA))
        .arg(args::param(p::TARGET_EPS))
        .group(ArgGroup::new("target").args([p::DELTA.spec.name, p::TARGET_EPS.spec.name]))
        .arg(args::param(p::CONVERSION))
        .arg(grid())
        .arg(args::param(p::RECORDS).help(
            "Records per user R: ε for one user with R records, each in the Poisson sample \
             independently (add/remove one user; the PLD accountant with --mechanism gaussian and --q)",
        ))
        .arg(args::json())
}

/// Which accountant `--accountant` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountantKind {
    /// Rényi DP with the improved conversion.
    Rdp,
    /// Privacy loss distributions (a certified band).
    Pld,
}

impl AccountantKind {
    /// Every accountant, as `--accountant` lists them.
    pub const ALL: [AccountantKind; 2] = [AccountantKind::Rdp, AccountantKind::Pld];

    /// The flag's value and the JSON output's `accountant` field.
    pub fn id(self) -> &'static str {
        match self {
            AccountantKind::Rdp => "rdp",
            AccountantKind::Pld => "pld",
        }
    }

    /// The accountant given with `--accountant`, if one is.
    pub fn given(m: &ArgMatches) -> Option<AccountantKind> {
        let id = m.get_one::<String>("accountant")?;
        AccountantKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// `--accountant rdp|pld`; required when there is no default.
pub fn accountant(default: Option<AccountantKind>) -> Arg {
    let arg = Arg::new("accountant")
        .long("accountant")
        .value_name("ACCOUNTANT")
        .value_parser(AccountantKind::ALL.map(AccountantKind::id));
    match default {
        Some(d) => arg
            .help(format!(
                "rdp: Rényi DP with the improved conversion; pld: privacy loss distributions, a certified upper bound (default {})",
                d.id()
            ))
            .default_value(d.id()),
        None => arg
            .help("rdp: Rényi DP with the improved conversion; pld: privacy loss distributions, a certified upper bound and a lower bound")
            .required(true),
    }
}

/// `--grid H`: the PLD loss grid's step.
pub fn grid() -> Arg {
    let (lo, hi) = pld::STEP_RANGE;
    Arg::new("grid")
        .long("grid")
        .value_name("H")
        .help(format!(
            "The PLD accountant's loss grid step, in [{lo:e}, {hi}] (default {}): coarser is faster, still an upper bound, with a wider band",
            pld::DEFAULT_STEP
        ))
        .value_parser(move |text: &str| match text.trim().parse::<f64>() {
            Ok(h) if (lo..=hi).contains(&h) => Ok(h),
            _ => Err(format!(
                "the PLD grid step must be a number between {lo:e} and {hi}"
            )),
        })
}

/// The grid step given, or the default (dp_accounting's).
pub fn grid_step(m: &ArgMatches) -> f64 {
    m.get_one::<f64>("grid")
        .copied()
        .unwrap_or(pld::DEFAULT_STEP)
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let pld = AccountantKind::given(m) == Some(AccountantKind::Pld);
    if given(m, p::RECORDS)
        && args::values(m)?.count(p::RECORDS) > 1
        && (given(m, p::BATCHING) || m.contains_id(RUN) || !pld || !given(m, p::Q))
    {
        return Err(
            "--records-per-user is accounted with the PLD accountant for Poisson sampling at --q \
             (not with --batching, --run or --accountant rdp)"
                .into(),
        );
    }
    if given(m, p::BATCHING) {
        if m.get_one::<String>(BATCHING).map(String::as_str) == Some(ALLOCATION) {
            return run_allocation(m);
        }
        return run_batching(m);
    }
    if m.contains_id(RUN) {
        return run_file(m);
    }
    if !given(m, p::DELTA) && !given(m, p::TARGET_EPS) {
        return Err("give --delta (for ε at that δ) or --target-eps (for δ at that ε)".into());
    }
    match AccountantKind::given(m) {
        Some(AccountantKind::Pld) => run_pld(m),
        _ => run_rdp(m),
    }
}

#[derive(Serialize)]
struct RdpRecord {
    epsilon: f64,
    delta: f64,
    order: f64,
    conversion: &'static str,
    curve: &'static str,
    relation: &'static str,
}

fn run_rdp(m: &ArgMatches) -> Result<String, String> {
    if m.contains_id("grid") {
        return Err("--grid applies to the PLD accountant only".into());
    }
    let (values, st) = mechanism::setting(m)?;
    let event = mechanism::event(&st, values.count(p::STEPS));
    let acc = RdpAccountant {
        orders: default_orders(),
        conversion: values.choice(p::CONVERSION),
    };
    let c = if given(m, p::DELTA) {
        acc.converted(&event, values.real(p::DELTA))
    } else {
        acc.converted_delta(&event, values.real(p::TARGET_EPS))
    }
    .map_err(|e| e.to_string())?;
    let exact = acc.is_exact(&event).map_err(|e| e.to_string())?;
    let record = RdpRecord {
        epsilon: finite("epsilon", c.epsilon)?,
        delta: finite("delta", c.delta)?,
        order: finite("order", c.order)?,
        conversion: acc.conversion.id(),
        curve: if exact { "exact" } else { "upper" },
        relation: event.relation().map_err(|e| e.to_string())?.id(),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(format!(
            "epsilon = {}\ndelta = {}\norder = {}",
            amp_format::compact_number(record.epsilon),
            amp_format::compact_number(record.delta),
            amp_format::compact_number(record.order)
        ))
    }
}

#[derive(Serialize)]
struct PldEpsilon {
    epsilon: f64,
    epsilon_lower: f64,
    delta: f64,
    accountant: &'static str,
    relation: &'static str,
    /// R (1: record-level).
    records_per_user: u64,
    /// ε for one user from one record's ε by the group-privacy lemma (R = 1: ε itself); null
    /// when the lemma gives no finite ε.
    group_lemma_epsilon: Option<f64>,
}

#[derive(Serialize)]
struct PldDelta {
    epsilon: f64,
    delta: f64,
    delta_lower: f64,
    accountant: &'static str,
    relation: &'static str,
}

fn run_pld(m: &ArgMatches) -> Result<String, String> {
    if given(m, p::CONVERSION) {
        return Err("--conversion applies to the RDP accountant only".into());
    }
    let (values, st) = mechanism::setting(m)?;
    let records = values.count(p::RECORDS);
    let event = match (records, st.sampling) {
        (1, _) => mechanism::event(&st, values.count(p::STEPS)),
        (r, amp_math::rdp::Sampling::Poisson { q }) => {
            amp_math::accounting::Event::poisson_users(st.mech, q, r)
                .repeated(values.count(p::STEPS))
        }
        _ => return Err("--records-per-user needs Poisson sampling (--scheme poisson)".into()),
    };
    let acc = PldAccountant::with_step(grid_step(m));
    let relation = event.relation().map_err(|e| e.to_string())?.id();
    let value = if given(m, p::DELTA) {
        let delta = values.real(p::DELTA);
        let b = acc.epsilon(&event, delta).map_err(|e| e.to_string())?;
        crate::output::to_value(&PldEpsilon {
            epsilon: finite("epsilon", b.upper)?,
            epsilon_lower: finite("epsilon_lower", b.lower.unwrap_or(f64::NAN))?,
            delta,
            accountant: AccountantKind::Pld.id(),
            relation,
            records_per_user: records,
            group_lemma_epsilon: amp_math::accounting::group_lemma_epsilon(
                &event, records, delta, &acc,
            )
            .map_err(|e| e.to_string())?,
        })?
    } else {
        let eps = values.real(p::TARGET_EPS);
        let b = acc.delta(&event, eps).map_err(|e| e.to_string())?;
        crate::output::to_value(&PldDelta {
            epsilon: eps,
            delta: finite("delta", b.upper)?,
            delta_lower: finite("delta_lower", b.lower.unwrap_or(f64::NAN))?,
            accountant: AccountantKind::Pld.id(),
            relation,
        })?
    };
    if on(m, "json") {
        emit(&value, true)
    } else {
        Ok(crate::output::lines(&value, &["accountant", "relation"]))
    }
}

#[derive(Serialize)]
struct PhaseRecord {
    mechanism: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sigma: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scale: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    eps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<u64>,
    sampling: &'static str,
    rate: f64,
    steps: u64,
    relation: &'static str,
    epsilon: f64,
    epsilon_lower: Option<f64>,
}

#[derive(Serialize)]
struct RunRecord {
    epsilon: f64,
    epsilon_lower: Option<f64>,
    delta: f64,
    accountant: &'static str,
    relation: &'static str,
    phases: Vec<PhaseRecord>,
}

/// The `i`th (from 0) phase's line of `account --run`: its mechanism and parameters, sampling, length, relation
/// and ε alone at δ.
fn phase_record(
    acc: &dyn Accountant,
    i: usize,
    ph: &Phase,
    delta: f64,
) -> Result<PhaseRecord, String> {
    let e = ph.event();
    let b = acc
        .epsilon(&e, delta)
        .map_err(|x| format!("phase {}: {x}", i + 1))?;
    let (mechanism, sigma, scale, eps, k) = match ph.mechanism {
        Mechanism::Gaussian { sigma } => ("gaussian", Some(sigma), None, None, None),
        Mechanism::Laplace { scale } => ("laplace", None, Some(scale), None, None),
        Mechanism::RandomizedResponse { epsilon } => {
            ("randomized-response", None, None, Some(epsilon), None)
        }
        Mechanism::KaryRandomizedResponse { epsilon, k } => (
            "kary-randomized-response",
            None,
            None,
            Some(epsilon),
            Some(k),
        ),
    };
    Ok(PhaseRecord {
        mechanism,
        sigma,
        scale,
        eps,
        k,
        sampling: ph.sampling.id(),
        rate: ph.sampling.rate(),
        steps: ph.steps(),
        relation: e.relation().map_err(|x| x.to_string())?.id(),
        epsilon: finite("epsilon", b.upper)?,
        epsilon_lower: b.lower,
    })
}

/// `--run FILE`: the whole run's ε at δ (the file's, or `--delta`), and each phase's alone.
fn run_file(m: &ArgMatches) -> Result<String, String> {
    for (flag, given_it) in [
        ("--q", given(m, p::Q)),
        ("--scheme", given(m, p::SCHEME)),
        ("--n", given(m, p::N)),
        ("--sigma", given(m, p::SIGMA)),
        ("--scale", given(m, p::SCALE)),
        ("--eps", given(m, p::EPS)),
        ("--k", given(m, p::K)),
        ("--target-eps", given(m, p::TARGET_EPS)),
    ] {
        if given_it {
            return Err(format!(
                "{flag} does not apply with --run (the run file holds every phase's settings)"
            ));
        }
    }
    let path = m.get_one::<String>(RUN).ok_or("--run needs a file")?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the run file {path}: {e}"))?;
    let run = Run::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let values = args::values(m)?;
    let delta = if given(m, p::DELTA) {
        values.real(p::DELTA)
    } else {
        run.delta
    };
    let rdp = AccountantKind::given(m) == Some(AccountantKind::Rdp);
    if rdp && m.contains_id("grid") {
        return Err("--grid applies to the PLD accountant only".into());
    }
    if !rdp && given(m, p::CONVERSION) {
        return Err("--conversion applies to the RDP accountant only".into());
    }
    let pld = PldAccountant::with_step(grid_step(m));
    let rdp_acc = RdpAccountant {
        orders: default_orders(),
        conversion: values.choice(p::CONVERSION),
    };
    let acc: &dyn Accountant = if rdp { &rdp_acc } else { &pld };
    let event = run.event();
    let relation = event.relation().map_err(|e| e.to_string())?.id();
    let whole = acc.epsilon(&event, delta).map_err(|e| e.to_string())?;
    let phases = run
        .phases
        .iter()
        .enumerate()
        .map(|(i, ph)| phase_record(acc, i, ph, delta))
        .collect::<Result<Vec<_>, String>>()?;
    let record = RunRecord {
        epsilon: finite("epsilon", whole.upper)?,
        epsilon_lower: whole.lower,
        delta,
        accountant: if rdp {
            AccountantKind::Rdp
        } else {
            AccountantKind::Pld
        }
        .id(),
        relation,
        phases,
    };
    if on(m, "json") {
        return emit(&record, true);
    }
    let n = amp_format::compact_number;
    let mut out = format!("epsilon = {}\n", n(record.epsilon));
    if let Some(l) = record.epsilon_lower {
        out += &format!("epsilon_lower = {}\n", n(l));
    }
    out += &format!("delta = {}\nrelation = {relation}", n(delta));
    for (i, ph) in record.phases.iter().enumerate() {
        out += &format!(
            "\nphase {}: {} steps of {} ({}, rate {}), epsilon alone = {}",
            i + 1,
            ph.steps,
            ph.mechanism,
            ph.sampling,
            n(ph.rate),
            n(ph.epsilon)
        );
    }
    Ok(out)
}

#[derive(Serialize)]
struct BatchingRecord {
    batching: &'static str,
    relation: &'static str,
    sensitivity: f64,
    epsilon: f64,
    epsilon_lower: f64,
    /// The cap M on the batch size (null without one).
    max_batch: Option<u64>,
    /// The chance a step's batch is cut to M (null without a cap).
    cap_probability: Option<f64>,
    poisson_epsilon: f64,
    poisson_epsilon_lower: f64,
    poisson_grid_step: f64,
    delta: f64,
    sigma: f64,
    dataset_size: u64,
    batch_size: u64,
    steps_per_epoch: u64,
    epochs: u64,
    epochs_lower: u64,
    steps: u64,
    log_step: Option<f64>,
    method: &'static str,
}

/// `--batching`: the training loop's own band, beside the Poisson number.
fn run_batching(m: &ArgMatches) -> Result<String, String> {
    for (flag, given_it) in [
        (
            "--accountant",
            m.value_source("accountant") == Some(clap::parser::ValueSource::CommandLine),
        ),
        ("--q", given(m, p::Q)),
        ("--target-eps", given(m, p::TARGET_EPS)),
        ("--conversion", given(m, p::CONVERSION)),
        ("--grid", m.contains_id("grid")),
    ] {
        if given_it {
            return Err(format!(
                "{flag} does not apply with --batching (give --sigma, --dataset-size, --batch-size, --epochs or --steps, and --delta)"
            ));
        }
    }
    if !given(m, p::SIGMA) || !given(m, p::DELTA) {
        return Err("--batching needs --sigma and --delta".into());
    }
    if !given(m, p::DATASET) || !given(m, p::BATCH) {
        return Err("--batching needs --dataset-size and --batch-size".into());
    }
    if !given(m, p::EPOCHS) && !given(m, p::STEPS) {
        return Err("--batching needs --epochs or --steps".into());
    }
    let values = crate::cmd::train::run_values(m)?;
    let t = training::setting(&values)?;
    let sigma = batching::gaussian_sigma(&t)?;
    let kind: Batching = values.choice(p::BATCHING);
    let log_step = m
        .get_one::<f64>("log-step")
        .copied()
        .unwrap_or(batching::FINE_LOG_STEP);
    let band = batching::band_for(kind, &t, training::FINE, log_step, false)?;
    // Beside it, Poisson sampling without a cap.
    let uncapped = training::Training { max_batch: 0, ..t };
    let poisson = batching::poisson_band(&uncapped, training::FINE)?;
    let e = batching::epochs(&t);
    let capped = t.max_batch > 0 && matches!(kind, Batching::Poisson | Batching::TruncatedPoisson);
    let record = BatchingRecord {
        batching: kind.id(),
        relation: if capped {
            amp_math::Relation::AddRemove.id()
        } else {
            batching::RELATION.id()
        },
        max_batch: capped.then_some(t.max_batch),
        cap_probability: if capped {
            Some(training::cap_of(&t)?.truncated)
        } else {
            None
        },
        sensitivity: 1.0,
        epsilon: finite("epsilon", band.upper)?,
        epsilon_lower: finite("epsilon_lower", band.lower)?,
        poisson_epsilon: finite("poisson_epsilon", poisson.upper)?,
        poisson_epsilon_lower: finite("poisson_epsilon_lower", poisson.lower)?,
        poisson_grid_step: training::cached_band(&uncapped, training::FINE)?.step,
        delta: t.delta,
        sigma,
        dataset_size: t.dataset,
        batch_size: t.batch,
        steps_per_epoch: e.steps_per_epoch,
        epochs: e.upper,
        epochs_lower: e.lower,
        steps: t.steps,
        log_step: (kind == Batching::BallsInBins)
            .then(|| batching::log_step_for(sigma, e.steps_per_epoch, log_step)),
        method: batching::method(kind),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(crate::output::lines(
            &crate::output::to_value(&record)?,
            &["method"],
        ))
    }
}

#[derive(Serialize)]
struct AllocationRecord {
    batching: &'static str,
    relation: &'static str,
    sensitivity: f64,
    epsilon: f64,
    epsilon_lower: f64,
    /// Poisson sampling at rate k/T for the T steps, beside it.
    poisson_epsilon: f64,
    delta: f64,
    sigma: f64,
    steps: u64,
    participations: u64,
    method: &'static str,
}

/// `--batching allocation`: each example in exactly k of T steps (random allocation).
fn run_allocation(m: &ArgMatches) -> Result<String, String> {
    for (flag, given_it) in [
        (
            "--accountant",
            m.value_source("accountant") == Some(clap::parser::ValueSource::CommandLine),
        ),
        ("--q", given(m, p::Q)),
        ("--dataset-size", given(m, p::DATASET)),
        ("--batch-size", given(m, p::BATCH)),
        ("--epochs", given(m, p::EPOCHS)),
        ("--target-eps", given(m, p::TARGET_EPS)),
        ("--max-batch", given(m, p::MAX_BATCH)),
        ("--records-per-user", given(m, p::RECORDS)),
    ] {
        if given_it {
            return Err(format!(
                "{flag} does not apply with --batching allocation (give --sigma, --steps T, --participations k and --delta)"
            ));
        }
    }
    if !given(m, p::SIGMA) || !given(m, p::DELTA) || !given(m, p::STEPS) {
        return Err("--batching allocation needs --sigma, --steps (T) and --delta".into());
    }
    let v = args::values(m)?;
    let (sigma, steps, k, delta) = (
        v.real(p::SIGMA),
        v.count(p::STEPS),
        v.count(p::PARTICIPATIONS),
        v.real(p::DELTA),
    );
    let mechanism = Mechanism::Gaussian { sigma };
    let event = amp_math::accounting::Event::Allocation {
        mechanism,
        steps,
        participations: k,
    };
    let acc = training::accountant(training::FINE, amp_math::accounting::EpochSettings::FINE);
    let b = acc.epsilon(&event, delta).map_err(|e| e.to_string())?;
    let poisson = acc
        .epsilon(
            &amp_math::accounting::Event::poisson(mechanism, k as f64 / steps as f64)
                .repeated(steps),
            delta,
        )
        .map_err(|e| e.to_string())?;
    let record = AllocationRecord {
        batching: ALLOCATION,
        relation: amp_math::Relation::ZeroOut.id(),
        sensitivity: 1.0,
        epsilon: finite("epsilon", b.upper)?,
        epsilon_lower: finite("epsilon_lower", b.lower.unwrap_or(0.0))?,
        poisson_epsilon: finite("poisson_epsilon", poisson.upper)?,
        delta,
        sigma,
        steps,
        participations: k,
        method: batching::method(Batching::Allocation),
    };
    if on(m, "json") {
        emit(&record, true)
    } else {
        Ok(crate::output::lines(
            &crate::output::to_value(&record)?,
            &["method"],
        ))
    }
}
