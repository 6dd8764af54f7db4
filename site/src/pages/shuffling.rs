//! `page=shuffling`: amplification by shuffling (Brown, lecture notes "Privacy amplification", §2):
//! every published bound side by side with its validity, the exact clone reduction against the
//! published method's range, the inverse, shuffling against subsampling, the error of a mean in
//! three models, and the lecture's subsampled randomized response (§1.3).

use amp_math::shuffle::{tightest, Bound, ShuffleEpsilon, RELATION};
use amp_math::subsampling::{base_epsilon, subsampled_rr, SUBSAMPLED_RR_RELATION};
use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, TableRow, TableSpec, Workbench,
};
use crate::figures::{FigureId, ModelError};
use crate::probe;
use amp_format::display_number;
use amp_model::param as p;
use amp_model::params;
use amp_model::params::ParamValues;
use amp_model::shuffle::{
    local_for_target, rounds, rounds_attack, rounds_local_for_target, stronger_allowed, table,
};

/// Readout: the central ε of the tightest valid bound.
pub const CENTRAL: ReadoutSpec = ReadoutSpec {
    id: "shuffle-epsilon",
    label: "Central ε, tightest valid bound",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the lower end of the exact clone evaluation.
pub const CLONE_LOWER: ReadoutSpec = ReadoutSpec {
    id: "shuffle-epsilon-lower",
    label: "Lower end of the tightest exact clone evaluation (it meets the upper end)",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Readout: the published numerical method's optimistic run.
pub const PUBLISHED_LOWER: ReadoutSpec = ReadoutSpec {
    id: "shuffle-published-lower",
    label: "Published numerical method (10 halvings), optimistic run (not a lower bound)",
    digits: 5,
    bound: BoundKind::Estimate,
};
/// Readout: the published numerical method's pessimistic run.
pub const PUBLISHED_UPPER: ReadoutSpec = ReadoutSpec {
    id: "shuffle-published-upper",
    label: "Published numerical method, pessimistic run (an upper bound)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Sentence: which bound is the tightest.
pub const BEST_NAME: NoteSpec = NoteSpec {
    id: "shuffle-bound-name",
    kind: NoteKind::Small,
};
/// Table: every bound at the reader's setting.
pub const BOUNDS: TableSpec = TableSpec {
    id: "shuffle-table",
    caption: "Every bound at your setting",
    columns: &["Bound", "Central ε", "Note"],
};
/// Readout: the certified central ε after R rounds.
pub const ROUNDS_UPPER: ReadoutSpec = ReadoutSpec {
    id: "rounds-epsilon",
    label: "Central ε after R rounds, loss distribution composed (certified)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the lower end of the R-round band.
pub const ROUNDS_LOWER: ReadoutSpec = ReadoutSpec {
    id: "rounds-epsilon-lower",
    label: "Lower end of the band (the composed pair is no more private than this)",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Readout: the one-round guarantee composed R times.
pub const ROUNDS_NAIVE: ReadoutSpec = ReadoutSpec {
    id: "rounds-naive-epsilon",
    label: "Composing the one-round (ε, δ) instead: basic or advanced theorem",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the attacker's TPR at the reader's FPR after R rounds, certified.
pub const ROUNDS_TPR: ReadoutSpec = ReadoutSpec {
    id: "rounds-tpr",
    label: "An attacker's true-positive rate at FPR α after R rounds (certified)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: what the best attack reaches.
pub const ROUNDS_TPR_LOWER: ReadoutSpec = ReadoutSpec {
    id: "rounds-tpr-lower",
    label: "…reached by the best attack (lower end of the band)",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Sentence: which clones and which classic theorem.
pub const ROUNDS_NOTE: NoteSpec = NoteSpec {
    id: "rounds-note",
    kind: NoteKind::Small,
};
/// Readout: the largest local ε₀ per round for the target after R rounds.
pub const LOCAL_FOR_TARGET_ROUNDS: ReadoutSpec = ReadoutSpec {
    id: "local-epsilon-for-target-rounds",
    label: "Largest local ε₀ per round, for the target after R rounds",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Readout: the largest local ε₀ for the central target.
pub const LOCAL_FOR_TARGET: ReadoutSpec = ReadoutSpec {
    id: "local-epsilon-for-target",
    label: "Largest local ε₀ each user may use",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Readout: the largest ε on a Poisson sample for the same target.
pub const SUBSAMPLE_FOR_TARGET: ReadoutSpec = ReadoutSpec {
    id: "subsample-epsilon-for-target",
    label: "Largest ε on a Poisson sample at rate p",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Sentence: which bound gives the local ε₀.
pub const LOCAL_NAME: NoteSpec = NoteSpec {
    id: "local-bound-name",
    kind: NoteKind::Small,
};
/// Readout: the exact ε of subsampled randomized response.
pub const SRR_EXACT: ReadoutSpec = ReadoutSpec {
    id: "srr-exact",
    label: "Exact ε of the subsampled mechanism",
    digits: 5,
    bound: BoundKind::Exact,
};
/// Readout: the heuristic εp.
pub const SRR_LINEAR: ReadoutSpec = ReadoutSpec {
    id: "srr-linear",
    label: "The heuristic εp",
    digits: 5,
    bound: BoundKind::Estimate,
};
/// Readout: the subsampling theorem's bound.
pub const SRR_THEOREM: ReadoutSpec = ReadoutSpec {
    id: "srr-theorem",
    label: "The subsampling theorem log(1 + p(e^ε − 1))",
    digits: 5,
    bound: BoundKind::Upper,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "shuffling",
    nav: "Shuffling",
    heading: "Amplification by shuffling",
    lede: super::Prose("shuffling-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Your shuffle setting",
            controls: &[Controls::new(
                "Users and their randomizer",
                params![
                    &[p::EPS0.spec, p::USERS.spec, p::DELTA.spec],
                    p::group::RANDOMIZER.params
                ],
            )],
            results_title: Some("Central privacy after shuffling"),
            groups: &[Group {
                notes_after: &[&BEST_NAME],
                table: Some(&BOUNDS),
                ..Group::numbers(&[&CENTRAL, &CLONE_LOWER, &PUBLISHED_LOWER, &PUBLISHED_UPPER])
            }],
        }),
        Section::Prose(super::Prose("shuffling-intro")),
        Section::Figures {
            label: "Every bound",
            figures: &[
                FigureId::ShuffleEpsilonVsUsers,
                FigureId::ShuffleEpsilonVsLocal,
            ],
        },
        Section::Prose(super::Prose("shuffling-bounds")),
        Section::Prose(super::Prose("shuffling-rounds")),
        Section::Workbench(Workbench {
            label: "Many rounds",
            controls: &[Controls::new(
                "The same users, round after round",
                &[p::ROUNDS.spec, p::FPR.spec, p::TRADEOFF_VIEW.spec],
            )],
            results_title: Some("After R rounds"),
            groups: &[
                Group {
                    notes_after: &[&ROUNDS_NOTE],
                    ..Group::numbers(&[&ROUNDS_UPPER, &ROUNDS_LOWER, &ROUNDS_NAIVE])
                },
                Group::numbers(&[&ROUNDS_TPR, &ROUNDS_TPR_LOWER]),
            ],
        }),
        Section::Figures {
            label: "Many rounds",
            figures: &[FigureId::ShuffleEpsilonVsRounds, FigureId::ShuffleTradeoff],
        },
        Section::Workbench(Workbench {
            label: "A central target",
            controls: &[Controls::new(
                "A central target",
                &[p::TARGET_EPS.spec, p::P.spec],
            )],
            results_title: Some("What it allows"),
            groups: &[Group {
                notes_after: &[&LOCAL_NAME],
                ..Group::numbers(&[
                    &LOCAL_FOR_TARGET,
                    &LOCAL_FOR_TARGET_ROUNDS,
                    &SUBSAMPLE_FOR_TARGET,
                ])
            }],
        }),
        Section::Figures {
            label: "Shuffling against subsampling",
            figures: &[FigureId::ShuffleVsSubsample],
        },
        Section::Prose(super::Prose("shuffling-error")),
        Section::Figures {
            label: "Error of a mean",
            figures: &[FigureId::ErrorCentralLocalShuffle],
        },
        Section::Prose(super::Prose("shuffling-subsampled-rr")),
        Section::Workbench(Workbench {
            label: "Subsampled randomized response",
            controls: &[Controls {
                remark: Some("At the sampling rate p set above."),
                ..Controls::new("Randomized response on a sample", &[p::EPS.spec])
            }],
            results_title: None,
            groups: &[Group::numbers(&[&SRR_EXACT, &SRR_LINEAR, &SRR_THEOREM])],
        }),
        Section::Figures {
            label: "Subsampled randomized response against the rate",
            figures: &[FigureId::SubsampledRr],
        },
    ],
    readouts: crate::heavy::readouts(readouts),
    // The R-round numbers (composed loss distributions, their inverse, the attacker) refine.
    refines: true,
    quick_off_thread: true,
};

/// One row of the bound table: the value, or why the bound does not hold here.
fn row(r: &ShuffleEpsilon) -> TableRow {
    let value = match (r.valid, r.epsilon) {
        (true, Some(e)) if e.is_finite() => Some(e),
        _ => None,
    };
    let shown = match value {
        Some(e) if r.no_amplification => format!("{} (no amplification: ε₀)", display_number(e, 5)),
        Some(e) => display_number(e, 5),
        None => format!(
            "not valid here: {}",
            r.reason_invalid.unwrap_or("outside its domain")
        ),
    };
    let note = match (r.lower, r.upper) {
        (Some(lo), Some(hi)) => format!(
            "published method, its two runs: {} and {}",
            display_number(lo, 5),
            display_number(hi, 5)
        ),
        _ => String::new(),
    };
    TableRow {
        testid: format!("bound-{}", r.bound.id()),
        name: r.bound.name().to_string(),
        tag: r.bound.id().to_string(),
        value,
        valid: r.valid,
        shown,
        notes: vec![note],
    }
}

/// Every number of the page. Shuffling bounds: replace one; the Poisson-sample comparison: add or
/// remove one; subsampled randomized response: replace one (the record's bit).
pub fn readouts(v: &ParamValues, precision: Precision) -> Readings {
    let mut r = Readings::default();
    one_round(v, &mut r);
    many_rounds(v, precision, &mut r);
    inverses(v, &mut r);
    r
}

/// One round: every bound once (the exact clone bound and the published method's range
/// included), the tightest, the clone bound's two ends, the bounds table.
fn one_round(v: &ParamValues, r: &mut Readings) {
    const R: Relation = RELATION;
    // Every bound once (the exact clone bound and the published method's range included); the
    // tightest and the clone bound's two ends are read from these rows.
    let rows = probe::span("shuffle:table", || table(v));
    let best = rows.as_ref().map_err(Clone::clone).and_then(|rs| {
        tightest(rs)
            .cloned()
            .ok_or_else(|| ModelError::NotApplicable("no bound applies here".to_string()))
    });
    r.push(
        &CENTRAL,
        best.clone().and_then(|b| {
            b.epsilon
                .ok_or_else(|| ModelError::NotApplicable("no valid bound".to_string()))
        }),
        R,
    );
    let find = |f: &dyn Fn(&ShuffleEpsilon) -> Option<f64>, why: &str| {
        rows.as_ref()
            .map_err(|e| e.clone())
            .and_then(|rs| rs.iter().find_map(f).ok_or_else(|| ModelError::from(why)))
    };
    // The lower end of the exact clone evaluation that gives the tightest value (the stronger
    // clones' for k-ary randomized response, the 2021 clones' otherwise).
    let exact_winner = best
        .as_ref()
        .ok()
        .filter(|b| b.exact_lower.is_some())
        .map(|b| b.bound)
        .unwrap_or(Bound::Fmt21Numerical);
    r.push(
        &CLONE_LOWER,
        find(
            &|x| (x.bound == exact_winner).then_some(x.exact_lower).flatten(),
            "no exact clone evaluation here",
        ),
        R,
    );
    r.push(
        &PUBLISHED_LOWER,
        find(
            &|x| x.lower.and(x.upper).and(x.lower),
            "no published range here",
        ),
        R,
    );
    r.push(
        &PUBLISHED_UPPER,
        find(&|x| x.lower.and(x.upper), "no published range here"),
        R,
    );
    r.note(
        &BEST_NAME,
        Some(format!(
            "Tightest: {}",
            best.map(|b| format!("by {} ({})", b.bound.name(), b.bound.id()))
                .unwrap_or_default()
        )),
    );
    r.table(&BOUNDS, rows.map(|rs| rs.iter().map(row).collect()));
}

/// R rounds: the clone pair's composed loss distribution, the one-round ε composed, the attacker
/// after R rounds and the local ε₀ for the target over R rounds.
fn many_rounds(v: &ParamValues, precision: Precision, r: &mut Readings) {
    const R: Relation = RELATION;
    // R rounds: the clone pair's composed loss distribution, and the one-round ε composed.
    // Quick while a control moves (a smaller bucket budget, the inverse to 1e-3), refined once the
    // controls rest (the CLI's numbers).
    let (buckets, rel) = match precision {
        Precision::Quick => (amp_model::training::QUICK, 1e-3),
        Precision::Fine => (amp_model::training::FINE, 1e-7),
    };
    let stronger = stronger_allowed(v);
    let tag = match precision {
        Precision::Quick => "shuffle:rounds-quick",
        Precision::Fine => "shuffle:rounds",
    };
    let many = probe::span(tag, || rounds(v, stronger, buckets));
    r.push(&ROUNDS_UPPER, many.clone().map(|x| x.upper), R);
    r.push(&ROUNDS_LOWER, many.clone().map(|x| x.lower), R);
    r.push(&ROUNDS_NAIVE, many.clone().map(|x| x.naive), R);
    r.note(
        &ROUNDS_NOTE,
        Some(match &many {
            Ok(x) => format!(
                "Through the {}; the classic composition is the {} theorem's{}",
                if stronger {
                    "stronger clones (FMT23, for k-ary randomized response)"
                } else {
                    "clones of FMT21 (any ε₀-DP randomizer)"
                },
                x.naive_method,
                if x.upper < x.naive {
                    format!(
                        ", {} times the composed loss distribution's.",
                        display_number(x.naive / x.upper, 3)
                    )
                } else {
                    ".".to_string()
                }
            ),
            Err(_) => String::new(),
        }),
    );
    let tpr = probe::span("shuffle:attack", || {
        rounds_attack(v, stronger, buckets)
            .and_then(|a| a.tradeoff.tpr(v.real(p::FPR)).map_err(ModelError::from))
    });
    r.push(&ROUNDS_TPR, tpr.clone().map(|t| t.0), R);
    r.push(&ROUNDS_TPR_LOWER, tpr.map(|t| t.1), R);
    let local_rounds = probe::span("shuffle:inverse-rounds", || {
        rounds_local_for_target(v, stronger, buckets, rel)
    });
    r.push(&LOCAL_FOR_TARGET_ROUNDS, local_rounds, R);
}

/// The inverses (the local ε₀ for a target central ε, the base ε a subsample may spend) and
/// subsampled randomized response.
fn inverses(v: &ParamValues, r: &mut Readings) {
    const R: Relation = RELATION;
    let local = probe::span("shuffle:inverse", || local_for_target(v));
    r.push(&LOCAL_FOR_TARGET, local.clone().map(|l| l.0), R);
    let sub = base_epsilon(v.real(p::TARGET_EPS), v.real(p::P))
        .map_err(ModelError::from)
        .and_then(|e| {
            if e.is_finite() {
                Ok(e)
            } else {
                Err(ModelError::from("any ε works"))
            }
        });
    r.push(&SUBSAMPLE_FOR_TARGET, sub, Relation::AddRemove);
    let local_name = match local {
        Ok((_, b, limit)) => format!(
            "Local ε₀ by {} ({}){}",
            b.name(),
            b.id(),
            limit
                .map(|w| format!("; stopped by its validity: {w}"))
                .unwrap_or_default()
        ),
        Err(_) => "Local ε₀ ".to_string(),
    };
    r.note(&LOCAL_NAME, Some(local_name));

    let srr = subsampled_rr(v.real(p::EPS), v.real(p::P)).map_err(ModelError::from);
    r.push(
        &SRR_EXACT,
        srr.clone().map(|s| s.exact),
        SUBSAMPLED_RR_RELATION,
    );
    r.push(
        &SRR_LINEAR,
        srr.clone().map(|s| s.linear),
        SUBSAMPLED_RR_RELATION,
    );
    r.push(&SRR_THEOREM, srr.map(|s| s.theorem), SUBSAMPLED_RR_RELATION);
}
