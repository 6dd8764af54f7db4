//! `page=iteration`: amplification by iteration (Brown, lecture notes "Privacy amplification", §3;
//! Feldman, Mironov, Talwar & Thakurta 2018), and the lecture's summary of the three techniques.

use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Workbench,
};
use crate::figures::FigureId;
use amp_model::iteration::{inapplicable, many_pass_readouts, readouts as by_position};
use amp_model::param as p;
use amp_model::params::ParamValues;

/// Readout: ε at δ for the first record (t = 1).
pub const FIRST: ReadoutSpec = ReadoutSpec {
    id: "iteration-epsilon-first",
    label: "ε at δ for the first record (t = 1)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: ε at δ for the record in the middle (t = ⌈T/2⌉).
pub const MIDDLE: ReadoutSpec = ReadoutSpec {
    id: "iteration-epsilon-middle",
    label: "ε at δ for the record in the middle (t = ⌈T/2⌉)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: ε at δ without amplification (every record; the last one's too).
pub const PLAIN: ReadoutSpec = ReadoutSpec {
    id: "iteration-epsilon-plain",
    label: "ε at δ without amplification (every record; the last one's too)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the last iterate's ε after T steps over many passes.
pub const MANY_LAST: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-last",
    label: "ε at δ of the last iterate after T steps (the worst record)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: ε when every iterate of the many-pass run is released.
pub const MANY_COMPOSITION: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-composition",
    label: "ε at δ if every iterate is released (composition)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the plateau.
pub const MANY_PLATEAU: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-plateau",
    label: "Plateau: ε at δ of the last iterate after any number of steps",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the burn-in.
pub const MANY_BURN_IN: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-burn-in",
    label: "Burn-in: steps from which the last iterate's bound stops growing",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the closed form, where its conditions hold.
pub const MANY_CLOSED_FORM: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-closed-form",
    label:
        "Closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)} at δ (Poisson batches, where its conditions hold)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the attacker's view of the many-pass bound.
pub const MANY_ATTACK: ReadoutSpec = ReadoutSpec {
    id: "iteration-many-attack",
    label: "Attacker's view: at most this share of members caught by a test that wrongly accuses 1% of non-members (from the last iterate's Rényi curve at T)",
    digits: 3,
    bound: BoundKind::Upper,
};
/// Sentence `iteration-warning`.
pub const WARNING: NoteSpec = NoteSpec {
    id: "iteration-warning",
    kind: NoteKind::Warning,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "iteration",
    nav: "Iteration",
    heading: "Amplification by iteration",
    lede: super::Prose("iteration-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Your noisy SGD run",
            controls: &[Controls::new("One pass of noisy SGD", &[
                p::ITERATIONS.spec,
                p::STEP_BATCH.spec,
                p::SIGMA.spec,
                p::STEP_SIZE.spec,
                p::SMOOTHNESS.spec,
                p::DELTA.spec,
            ])],
            results_title: Some("Privacy of the last iterate"),
            groups: &[Group {
                notes_before: &[&WARNING],
                remark: Some("Rényi DP converted to (ε, δ) with the improved conversion (Canonne, Kamath & Steinke 2020); σ is in units of the gradient bound L."),
                ..Group::numbers(&[&FIRST, &MIDDLE, &PLAIN])
            }],
        }),
        Section::Prose(super::Prose("iteration-intro")),
        Section::Figures {
            label: "Privacy by position",
            figures: &[FigureId::IterationPrivacyByPosition],
        },
        Section::Prose(super::Prose("iteration-bound")),
        Section::Figures {
            label: "Where the noise goes",
            figures: &[FigureId::IterationNoiseSchedule],
        },
        Section::Prose(super::Prose("iteration-many-passes")),
        Section::Workbench(Workbench {
            label: "Many passes on a bounded set",
            controls: &[Controls::new("Many passes on a bounded set", &[
                p::PASS_STEPS.spec,
                p::PASS_RECORDS.spec,
                p::PASS_BATCHES.spec,
                p::PASS_BATCH.spec,
                p::DIAMETER.spec,
            ])],
            results_title: Some("Privacy of the last iterate after many passes"),
            groups: &[Group {
                remark: Some("σ, η, β and δ are the run's above. Each number is an upper bound for replacing one record, for the worst record (under cyclic batches, one in the last batch of an epoch); it holds only for convex, β-smooth, 1-Lipschitz losses with η ≤ 2/β, iterates projected onto a convex set of diameter D, and only the last iterate released."),
                ..Group::numbers(&[
                    &MANY_LAST,
                    &MANY_COMPOSITION,
                    &MANY_PLATEAU,
                    &MANY_BURN_IN,
                    &MANY_CLOSED_FORM,
                    &MANY_ATTACK,
                ])
            }],
        }),
        Section::Figures {
            label: "Many passes",
            figures: &[FigureId::IterationManyPasses],
        },
        Section::Prose(super::Prose("iteration-many-passes-proof")),
        Section::Prose(super::Prose("iteration-summary")),
    ],
    readouts: crate::heavy::readouts(readouts),
    refines: false,
    quick_off_thread: true,
};

/// Every number of the page (replace one: the records of two neighbouring datasets differ at one
/// step).
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    const R: Relation = amp_math::iteration::RELATION;
    let n = by_position(v);
    let mut r = Readings::default();
    r.push(&FIRST, n.first, R);
    r.push(&MIDDLE, n.middle, R);
    r.push(&PLAIN, n.composition, R);
    r.note(&WARNING, inapplicable(v));
    let m = many_pass_readouts(v);
    r.push(&MANY_LAST, m.last, R);
    r.push(&MANY_COMPOSITION, m.composition, R);
    r.push(&MANY_PLATEAU, m.plateau, R);
    r.push(&MANY_BURN_IN, m.burn_in, R);
    r.push(&MANY_CLOSED_FORM, m.closed_form, R);
    r.push(&MANY_ATTACK, m.attack, R);
    r
}
