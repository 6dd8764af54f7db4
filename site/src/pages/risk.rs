//! `page=risk`: what a run's privacy means for a membership attacker. The optimal attacker's TPR
//! at a false-positive rate, the advantage and the Bayes-optimal success as certified bands from
//! the privacy loss distribution; Gaussian DP's μ and the run's (ε, δ) beside them; and the noise
//! that holds the attack below a target, against the noise a target ε needs (issue 17).
//!
//! Its numbers are worth refining: quick ones follow the controls ([`Precision::Quick`]), refined
//! ones arrive once they rest ([`Precision::Fine`]).

use amp_math::accounting::Target;
use amp_math::risk::{eps_delta_tpr, gdp_fit, gdp_tpr, GdpFit, RiskTarget};

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Shown, TableRow, TableSpec, Widget, Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_format::short_number;
use amp_model::audit;
use amp_model::param as p;
use amp_model::params;
use amp_model::params::ParamValues;
use amp_model::risk::{
    attack, epsilon_at_delta, gdp, membership_sentence, noise_for, percent, setting,
    steps_for_risk, Attack, Numbers, Run, Source, FINE, MAX_STEPS, QUICK,
};
use amp_model::tuning;

/// Readout: the certified upper bound on the attacker's TPR at the FPR.
pub const TPR_AT_FPR: ReadoutSpec = ReadoutSpec {
    id: "tpr-at-fpr",
    label: "Attacker's TPR at FPR α: no attack does better (certified)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on the best attacker's TPR at the FPR.
pub const TPR_AT_FPR_LOWER: ReadoutSpec = ReadoutSpec {
    id: "tpr-at-fpr-lower",
    label: "Attacker's TPR at FPR α: the best attack reaches at least",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the certified upper bound on the advantage.
pub const ADVANTAGE: ReadoutSpec = ReadoutSpec {
    id: "advantage",
    label: "Advantage max(TPR − FPR) = δ(0): upper bound",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on the advantage.
pub const ADVANTAGE_LOWER: ReadoutSpec = ReadoutSpec {
    id: "advantage-lower",
    label: "Advantage: lower bound",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the certified upper bound on the Bayes-optimal success.
pub const BAYES: ReadoutSpec = ReadoutSpec {
    id: "bayes-success",
    label: "Best chance of guessing membership right, prior π: upper bound",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on the Bayes-optimal success.
pub const BAYES_LOWER: ReadoutSpec = ReadoutSpec {
    id: "bayes-success-lower",
    label: "Best chance of guessing right: lower bound",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the numeric Gaussian-DP μ of the certified trade-off curve (Gomez et al. 2025).
pub const GDP_MU: ReadoutSpec = ReadoutSpec {
    id: "gdp-mu",
    label: "Gaussian DP μ of the certified curve (for error rates down to α_min)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the worst-case regret of reporting that μ instead of the curve.
pub const GDP_REGRET: ReadoutSpec = ReadoutSpec {
    id: "gdp-regret",
    label: "Regret of reporting μ instead of the curve (worst case)",
    digits: 3,
    bound: BoundKind::Exact,
};
/// Readout: the smallest error rate down to which the numeric μ holds.
pub const GDP_ALPHA_MIN: ReadoutSpec = ReadoutSpec {
    id: "gdp-alpha-min",
    label: "α_min: μ holds for tests whose error rates are both at least this (0: all tests)",
    digits: 3,
    bound: BoundKind::Exact,
};
/// Readout: Gaussian DP's μ in closed form (exact without sampling, the central-limit value with
/// it).
pub const GDP_MU_CLT: ReadoutSpec = ReadoutSpec {
    id: "gdp-mu-clt",
    label: "Gaussian DP μ in closed form: √k/σ, or the central-limit approximation with sampling",
    digits: 4,
    bound: BoundKind::Estimate,
};
/// Readout: the certified ε at δ.
pub const EPSILON: ReadoutSpec = ReadoutSpec {
    id: "risk-epsilon",
    label: "ε at δ (certified): the run as an (ε, δ) summary",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the TPR at the FPR that the (ε, δ) summary alone allows.
pub const EPS_DELTA_TPR: ReadoutSpec = ReadoutSpec {
    id: "eps-delta-tpr",
    label: "TPR at α that this (ε, δ) alone allows",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the noise for the target TPR at the FPR.
pub const SIGMA_FOR_RISK: ReadoutSpec = ReadoutSpec {
    id: "sigma-for-risk",
    label: "Noise for the target TPR at α (σ, or b for Laplace)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the most steps that keep the TPR at the FPR within the target.
pub const STEPS_FOR_RISK: ReadoutSpec = ReadoutSpec {
    id: "steps-for-risk",
    label: "Most steps with the TPR at α within the target, at this noise",
    digits: 3,
    bound: BoundKind::Lower,
};
/// Readout: the noise for the target ε at δ.
pub const SIGMA_FOR_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "sigma-for-epsilon",
    label: "Noise for the target ε at δ",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the noise for the target advantage.
pub const SIGMA_FOR_ADVANTAGE: ReadoutSpec = ReadoutSpec {
    id: "sigma-for-advantage",
    label: "Noise for the target advantage",
    digits: 4,
    bound: BoundKind::Upper,
};
/// The attacker's TPR at the usual false-positive rates and the reader's.
pub const TPR_TABLE: TableSpec = TableSpec {
    id: "tpr-table",
    caption: "The attacker's TPR at the usual false-positive rates",
    columns: &[
        "FPR α",
        "TPR, certified upper bound",
        "best attack reaches",
        "(ε, δ) alone allows",
        "Gaussian DP, numeric μ",
    ],
};
/// The PLD grid step the numbers were computed on (shown by the status line).
pub const GRID_STEP: ReadoutSpec = ReadoutSpec {
    id: "risk-grid-step",
    label: "PLD grid step h",
    digits: 3,
    bound: BoundKind::Exact,
};
/// The plain-language sentence a practitioner can paste.
pub const SENTENCE: NoteSpec = NoteSpec {
    id: "risk-sentence",
    kind: NoteKind::Sentence,
};
/// What μ is (exact or an approximation) and where the approximation is optimistic.
pub const GDP_NOTE: NoteSpec = NoteSpec {
    id: "gdp-note",
    kind: NoteKind::Small,
};
/// The calibration in words.
pub const CALIBRATION_NOTE: NoteSpec = NoteSpec {
    id: "risk-calibration",
    kind: NoteKind::Small,
};

/// Readout: ε at δ of a hyperparameter search over this run that releases its best.
pub const RISK_TUNED_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "risk-tuned-epsilon",
    label: "ε at δ of the whole search, best of K runs released (Rényi DP)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the attacker's TPR at the FPR against the whole search.
pub const RISK_TUNED_TPR: ReadoutSpec = ReadoutSpec {
    id: "risk-tuned-tpr-at-fpr",
    label: "Attacker's TPR at FPR α against the whole search (upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// The warning against reporting one run's numbers for a search.
pub const RISK_TUNING_WARNING: NoteSpec = NoteSpec {
    id: "risk-tuning-warning",
    kind: NoteKind::Warning,
};

mod planners;
use planners::*;

/// Readout: the ε the audit's counts certify.
pub const AUDIT_CERTIFIED: ReadoutSpec = ReadoutSpec {
    id: "audit-epsilon",
    label: "ε the audit's counts prove (lower bound, at confidence c)",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the ε all r guesses right would certify.
pub const AUDIT_PERFECT: ReadoutSpec = ReadoutSpec {
    id: "audit-perfect-epsilon",
    label: "ε proved if all r guesses were right (lower bound)",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the guesses, all right, needed for the target ε.
pub const AUDIT_NEEDED: ReadoutSpec = ReadoutSpec {
    id: "audit-guesses-needed",
    label: "Guesses, all right, needed to prove the target ε̂",
    digits: 6,
    bound: BoundKind::Exact,
};
/// Readout: what an ideal attacker's one-run audit of this run typically certifies.
pub const AUDIT_TYPICAL: ReadoutSpec = ReadoutSpec {
    id: "audit-typical-epsilon",
    label: "ε an ideal attacker's one-run audit with m canaries typically proves (estimate)",
    digits: 3,
    bound: BoundKind::Estimate,
};
/// The audit against the accountant, in words.
pub const AUDIT_SENTENCE: NoteSpec = NoteSpec {
    id: "audit-sentence",
    kind: NoteKind::Sentence,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "risk",
    nav: "Attack risk",
    heading: "What ε means for an attacker",
    lede: super::Prose("risk-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Your run and the attacker",
            controls: &[
                Controls::new(
                    "Mechanism and run",
                    params![
                        p::group::MECHANISM.params,
                        &[p::Q.spec, p::STEPS.spec, p::RECORDS.spec]
                    ],
                ),
                Controls::new(
                    "The attacker",
                    &[
                        p::FPR.spec,
                        p::PRIOR.spec,
                        p::DELTA.spec,
                        p::TRADEOFF_VIEW.spec,
                    ],
                ),
                Controls::new("Hyperparameter tuning", p::group::TUNING.params),
                Controls::new("Audit plan", p::group::AUDIT.params),
                Controls::new(
                    "Targets",
                    &[
                        p::TARGET_TPR.spec,
                        p::TARGET_ADVANTAGE.spec,
                        p::TARGET_EPS.spec,
                    ],
                ),
            ],
            results_title: Some("What an attacker can do"),
            groups: &[
                Group {
                    notes_after: &[&SENTENCE],
                    widget: Some(Widget::AccountingStatus),
                    ..Group::numbers(&[
                        &TPR_AT_FPR,
                        &TPR_AT_FPR_LOWER,
                        &ADVANTAGE,
                        &ADVANTAGE_LOWER,
                        &BAYES,
                        &BAYES_LOWER,
                    ])
                },
                Group {
                    table: Some(&TPR_TABLE),
                    ..Group::numbers(&[])
                },
                Group {
                    heading: Some("The same run, summarised"),
                    notes_after: &[&GDP_NOTE],
                    ..Group::numbers(&[
                        &GDP_MU,
                        &GDP_REGRET,
                        &GDP_ALPHA_MIN,
                        &GDP_MU_CLT,
                        &EPSILON,
                        &EPS_DELTA_TPR,
                    ])
                },
                Group {
                    heading: Some("Hyperparameter tuning"),
                    shown_when: &[
                        Shown {
                            readout: &RISK_TUNED_EPSILON,
                            when: searched,
                        },
                        Shown {
                            readout: &RISK_TUNED_TPR,
                            when: searched,
                        },
                    ],
                    notes_after: &[&RISK_TUNING_WARNING],
                    ..Group::numbers(&[&RISK_TUNED_EPSILON, &RISK_TUNED_TPR])
                },
                Group {
                    heading: Some("What an audit can prove"),
                    notes_after: &[&AUDIT_SENTENCE],
                    ..Group::numbers(&[
                        &AUDIT_CERTIFIED,
                        &AUDIT_PERFECT,
                        &AUDIT_NEEDED,
                        &AUDIT_TYPICAL,
                    ])
                },
                Group {
                    heading: Some("Noise for a target"),
                    notes_after: &[&CALIBRATION_NOTE],
                    ..Group::numbers(&[
                        &SIGMA_FOR_RISK,
                        &STEPS_FOR_RISK,
                        &SIGMA_FOR_ADVANTAGE,
                        &SIGMA_FOR_EPSILON,
                    ])
                },
            ],
        }),
        Section::Prose(super::Prose("risk-intro")),
        Section::Figures {
            label: "The attacker",
            figures: &[FigureId::TradeoffCurve, FigureId::TprVsSteps],
        },
        Section::Prose(super::Prose("risk-summaries")),
        Section::Figures {
            label: "Noise",
            figures: &[FigureId::NoiseForRisk],
        },
        Section::Prose(super::Prose("risk-calibration")),
        Section::Prose(super::Prose("risk-audit")),
        Section::Figures {
            label: "Audits",
            figures: &[FigureId::AuditCanaries],
        },
    ],
    readouts: crate::heavy::readouts(readouts),
    refines: true,
    quick_off_thread: false,
};

/// The sentence a practitioner can paste, from the TPR band at the FPR.
pub fn sentence(run: &Run, tpr: (f64, f64)) -> String {
    match run.source {
        Source::Noise(_) => membership_sentence(run.fpr, tpr),
        Source::Rr { .. } => format!(
            "An attacker guessing one person's value, who wrongly names it for at most {} of the \
             people with the other value, is right about at most {} of those who have it \
             (certified upper bound; the best possible attack reaches at least {}). Guessing at \
             random would reach {}.",
            percent(run.fpr),
            percent(tpr.0),
            percent(tpr.1),
            percent(run.fpr)
        ),
    }
}

/// The table's rows: the TPR band at 0.1%, 1%, 10% and the reader's FPR (when it is none of
/// them), beside what the run's (ε, δ) and its numeric Gaussian DP μ allow there.
fn tpr_rows(run: &Run, a: &Attack, eps: Option<f64>, mu: Option<f64>) -> Vec<TableRow> {
    let mut fprs = vec![0.001, 0.01, 0.1];
    if !fprs.contains(&run.fpr) {
        fprs.push(run.fpr);
        amp_math::sort_floats(&mut fprs);
    }
    let cell = |x: Option<f64>| x.map(percent).unwrap_or_else(|| "—".into());
    fprs.into_iter()
        .map(|fpr| {
            let band = a.tradeoff.tpr(fpr).ok();
            TableRow {
                testid: format!("tpr-row-{}", amp_format::compact_number(fpr)),
                name: percent(fpr),
                tag: if fpr == run.fpr {
                    "yours".into()
                } else {
                    String::new()
                },
                value: band.map(|b| b.0),
                valid: band.is_some(),
                shown: cell(band.map(|b| b.0)),
                notes: vec![
                    cell(band.map(|b| b.1)),
                    cell(eps.and_then(|e| eps_delta_tpr(e, run.delta, fpr).ok())),
                    cell(mu.and_then(|m| gdp_tpr(m, fpr).ok())),
                ],
            }
        })
        .collect()
}

/// Every number of the page, measured for the benchmark (`risk:quick`, `risk:fine`).
pub fn readouts(v: &ParamValues, precision: Precision) -> Readings {
    let tag = match precision {
        Precision::Quick => "risk:quick",
        Precision::Fine => "risk:fine",
    };
    crate::probe::span(tag, || compute(v, precision))
}

/// The Gaussian-DP numbers in words: what the numeric μ promises, and whether the closed-form μ
/// agrees with it or understates it.
fn gdp_sentence(
    fit: &Result<GdpFit, ModelError>,
    closed: &Result<(f64, bool), ModelError>,
    nums: &Result<(Run, std::rc::Rc<Attack>, Numbers), ModelError>,
) -> Option<String> {
    let fit = match fit {
        Ok(f) => f,
        Err(e) => {
            let closed = match closed {
                Ok((m, true)) => {
                    format!(" Without sampling √k/σ = {} is exact.", short_number(*m, 4))
                }
                _ => String::new(),
            };
            return Some(format!("No numeric μ: {e}.{closed}"));
        }
    };
    let tests = if fit.alpha_min > 0.0 {
        format!(
            "for every test whose false-positive and false-negative rates are both at least {}",
            short_number(fit.alpha_min, 2)
        )
    } else {
        "for every test".to_string()
    };
    let first = format!(
        "The run is μ-GDP with μ = {} {tests} (Gomez et al. 2025: the least μ whose Gaussian \
         curve Φ(Φ⁻¹(α) + μ) stays above the certified curve there); reporting μ alone loses at \
         most {} against the whole curve (the regret).",
        short_number(fit.mu, 4),
        short_number(fit.regret, 2)
    );
    let second = match closed {
        Ok((m, true)) => format!(
            " Without sampling √k/σ = {} is exact, and the numeric μ finds it.",
            short_number(*m, 4)
        ),
        Ok((m, false)) => {
            let under = 1.0 - m / fit.mu;
            let at = nums
                .as_ref()
                .ok()
                .map(|(run, _, n)| {
                    let t = gdp_tpr(*m, run.fpr).unwrap_or(f64::NAN);
                    if t < n.tpr.1 {
                        // Enough digits to tell the two apart.
                        let digits = (4..=8)
                            .find(|&d| {
                                short_number(100.0 * t, d) != short_number(100.0 * n.tpr.1, d)
                            })
                            .unwrap_or(8);
                        format!(
                            "; at your α it allows a TPR of {}%, below what an attack \
                             certainly reaches ({}%)",
                            short_number(100.0 * t, digits),
                            short_number(100.0 * n.tpr.1, digits)
                        )
                    } else {
                        String::new()
                    }
                })
                .unwrap_or_default();
            if under > 1e-3 {
                format!(
                    " The central-limit μ = q·√(k(exp(1/σ²) − 1)) = {} (Bu et al. 2020) is an \
                     approximation, not a bound, and here it understates μ by {}{at}.",
                    short_number(*m, 4),
                    percent(under)
                )
            } else {
                format!(
                    " The central-limit μ = {} (Bu et al. 2020, an approximation) is within 0.1% \
                     of it here.",
                    short_number(*m, 4)
                )
            }
        }
        Err(_) => String::new(),
    };
    Some(first + &second)
}

fn compute(v: &ParamValues, precision: Precision) -> Readings {
    let run = setting(v);
    let relation = run
        .as_ref()
        .map(Run::relation)
        .unwrap_or(amp_math::Relation::AddRemove);
    let (budget, cal_budget, cal_rel) = match precision {
        // While a slider moves the four inverses run on a coarse grid; the refined ones follow.
        Precision::Quick => (QUICK, 1_840, 3e-3),
        Precision::Fine => (FINE, QUICK, 1e-4),
    };
    let acc = run.clone().and_then(|r| attack(&r, budget).map(|a| (r, a)));
    let nums = acc
        .clone()
        .and_then(|(r, a)| a.numbers(r.fpr, r.prior).map(|n| (r, a, n)));
    let get = |f: fn(&Numbers) -> f64| nums.as_ref().map(|(_, _, n)| f(n)).map_err(|e| e.clone());
    let mut r = Readings::default();
    r.push(&TPR_AT_FPR, get(|n| n.tpr.0), relation);
    r.push(&TPR_AT_FPR_LOWER, get(|n| n.tpr.1), relation);
    r.push(&ADVANTAGE, get(|n| n.advantage.0), relation);
    r.push(&ADVANTAGE_LOWER, get(|n| n.advantage.1), relation);
    r.push(&BAYES, get(|n| n.bayes.0), relation);
    r.push(&BAYES_LOWER, get(|n| n.bayes.1), relation);
    r.push(
        &GRID_STEP,
        acc.as_ref().map(|(_, a)| a.step).map_err(|e| e.clone()),
        relation,
    );
    r.note(
        &SENTENCE,
        nums.as_ref().ok().map(|(run, _, n)| sentence(run, n.tpr)),
    );
    // Gaussian DP: numeric, from the certified curve (any mechanism) ...
    let fit = acc
        .clone()
        .and_then(|(_, a)| gdp_fit(&a.upper).map_err(ModelError::from));
    r.push(&GDP_MU, fit.clone().map(|f| f.mu), relation);
    r.push(&GDP_REGRET, fit.clone().map(|f| f.regret), relation);
    r.push(&GDP_ALPHA_MIN, fit.clone().map(|f| f.alpha_min), relation);
    // ... and in closed form: exact without sampling, the central-limit value with it.
    let mu =
        run.as_ref().map_err(Clone::clone).and_then(|r| {
            gdp(r).unwrap_or_else(|| {
                Err("the closed-form μ is given for Gaussian noise only; the numeric μ above holds \
                 for any mechanism"
                .into())
            })
        });
    let exact = matches!(mu, Ok((_, true)));
    r.push_bound(
        &GDP_MU_CLT,
        mu.clone().map(|m| m.0),
        relation,
        if exact {
            BoundKind::Exact
        } else {
            BoundKind::Estimate
        },
    );
    let gdp_text = gdp_sentence(&fit, &mu, &nums);
    r.note(&GDP_NOTE, gdp_text);
    // The (ε, δ) summary.
    let eps = acc
        .clone()
        .and_then(|(run, a)| epsilon_at_delta(&a, run.delta).map(|e| (run, e)));
    r.push(&EPSILON, eps.clone().map(|x| x.1), relation);
    r.push(
        &EPS_DELTA_TPR,
        eps.and_then(|(run, e)| eps_delta_tpr(e, run.delta, run.fpr).map_err(ModelError::from)),
        relation,
    );
    // The TPR at the usual FPRs and the reader's.
    let rows = acc.clone().map(|(run, a)| {
        let eps = epsilon_at_delta(&a, run.delta).ok();
        tpr_rows(&run, &a, eps, fit.as_ref().ok().map(|f| f.mu))
    });
    r.table(&TPR_TABLE, rows);
    calibrations(v, &run, relation, (cal_budget, cal_rel), &mut r);
    push_tuning(v, &acc, relation, &mut r);
    push_audit(v, &acc, relation, precision, &mut r);
    r
}
