//! `page=iteration`: amplification by iteration (Brown, lecture notes "Privacy amplification", §3;
//! Feldman, Mironov, Talwar & Thakurta 2018), and the lecture's summary of the three techniques.

use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Workbench,
};
use crate::figures::FigureId;
use amp_model::iteration::{inapplicable, readouts as by_position};
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
        Section::Prose(super::Prose("iteration-summary")),
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
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
    r
}
