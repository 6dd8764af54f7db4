//! `audit-canaries`: what a one-run audit of the reader's run can prove, against the number of
//! canaries, beside the accountant's certified ε (Steinke, Nasr & Jagielski 2023; the planner's
//! numbers are on the risk page, [`amp_model::audit`]).

use super::{log_grid, Axis, Chart, ChartResult, LegendCorner, Marker, ModelError, Role, Series};
use amp_format::{group_digits, short_number};
use amp_math::audit::one_run_epsilon;
use amp_model::audit::{typical, Plan, FPRS};
use amp_model::params::ParamValues;
use amp_model::risk::{attack, epsilon_at_delta, setting, Attack, QUICK};

/// The canaries drawn (one per decade, 10 to 10⁶, and the reader's m).
const POINTS: usize = 6;

/// `audit-canaries`: against the canaries m, the ε an ideal attacker's one-run audit of this run
/// typically proves (an estimate from the run's certified trade-off curve), the most any one-run
/// audit with m canaries proves (every canary guessed right), and the accountant's certified ε;
/// the gap at the reader's m marked. Log axes; points where the audit proves nothing (ε̂ = 0) are
/// left out.
pub fn canaries(values: &ParamValues) -> ChartResult {
    let run = setting(values)?;
    if run.delta < 1e-11 {
        return Err(ModelError::NotApplicable(
            "the accountant's ε beside the audit needs a δ of at least 1e-11 (below, the PLD's \
             rounding is more than 1% of δ)"
                .into(),
        ));
    }
    let a = attack(&run, QUICK)?;
    let accountant = epsilon_at_delta(&a, run.delta)?;
    let plan = Plan::of(values);
    let mut ms: Vec<u64> = log_grid(10.0, 1e6, POINTS)
        .into_iter()
        .map(|m| m.round() as u64)
        .collect();
    ms.push(plan.canaries);
    ms.sort_unstable();
    ms.dedup();
    let (ideal, perfect, here) = lines(&a, &ms, &plan)?;
    let ys = ideal
        .iter()
        .chain(&perfect)
        .map(|p| p.1)
        .chain([accountant]);
    let (lo, hi) = ys.fold((f64::INFINITY, 0.0f64), |(l, h), y| (l.min(y), h.max(y)));
    if !(lo > 0.0 && lo.is_finite()) {
        return Err(ModelError::NotApplicable(
            "the accountant's ε is 0 here: there is nothing for an audit to prove".into(),
        ));
    }
    let (x_lo, x_hi) = (ms[0] as f64, *ms.last().unwrap_or(&10) as f64);
    let mut c = Chart::new(
        Axis::numeric("canaries m", true, x_lo, x_hi),
        Axis::numeric("ε at δ", true, lo / 1.5, hi * 1.5),
        LegendCorner::UpperLeft,
        String::new(),
    );
    c.series.push(Series {
        label: format!(
            "accountant: ε ≤ {} (certified upper bound)",
            short_number(accountant, 3)
        ),
        points: vec![(x_lo, accountant), (x_hi, accountant)],
        role: Role::Reference,
    });
    c.series.push(Series {
        label: "all m canaries guessed right: the most a one-run audit proves".into(),
        points: perfect,
        role: Role::Bound(1),
    });
    if ideal.len() >= 2 {
        c.series.push(Series {
            label: "an ideal attacker's one-run audit, typically (estimate)".into(),
            points: ideal,
            role: Role::Highlight,
        });
    } else {
        c.notes.push(format!(
            "An ideal attacker's one-run audit of this run typically proves nothing (ε̂ = 0) with \
             up to {} canaries.",
            group_digits(*ms.last().unwrap_or(&10))
        ));
    }
    // Short, so that it fits beside the marker on a phone.
    let label = if here > 0.0 {
        format!(
            "ε̂ ≥ {} (gap {})",
            short_number(here, 3),
            short_number(accountant - here, 3)
        )
    } else {
        "ε̂ = 0".to_string()
    };
    c.markers.push(Marker {
        x: plan.canaries as f64,
        y: if here > 0.0 { here } else { accountant },
        label,
    });
    c.summary = format!(
        "A one-run audit of this run with m canaries (each in the training set with probability \
         ½, confidence {}, δ = {}) typically proves ε ≥ {} at m = {}, against the accountant's \
         certified ε ≤ {}: the gap is what one run's guesses cannot see. Even every canary guessed \
         right proves little with few canaries.",
        short_number(plan.confidence, 4),
        short_number(run.delta, 3),
        short_number(here, 3),
        group_digits(plan.canaries),
        short_number(accountant, 4)
    );
    Ok(c)
}

/// The ideal attacker's typical line and the all-right line over the canaries `ms` (points of
/// ε̂ = 0 left out), and the typical ε̂ at the reader's m.
fn lines(a: &Attack, ms: &[u64], plan: &Plan) -> Result<(Points, Points, f64), ModelError> {
    let mut ideal = Vec::new();
    let mut perfect = Vec::new();
    let mut here = 0.0;
    for &m in ms {
        let (t, _) = typical(a, m, plan, FPRS)?;
        if m == plan.canaries {
            here = t;
        }
        if t > 0.0 {
            ideal.push((m as f64, t));
        }
        let all = one_run_epsilon(m, m, m, plan.delta, plan.confidence)?;
        if all > 0.0 {
            perfect.push((m as f64, all));
        }
    }
    Ok((ideal, perfect, here))
}

/// (x, y) points of a line.
type Points = Vec<(f64, f64)>;
