//! `page=home`: what privacy amplification is, and the way to the pages that exist.

use amp_math::subsampling::amplified_epsilon;
use amp_math::Relation;

use super::{
    BoundKind, Controls, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec, Section,
    Widget, Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_model::iteration::readouts as by_position;
use amp_model::param as p;
use amp_model::params::ParamValues;
use amp_model::shuffle::tightest;

/// ε′ of the subsampling row.
pub const EPSILON_PRIME: ReadoutSpec = ReadoutSpec {
    id: "home-epsilon-prime",
    label: "ε′",
    digits: 4,
    bound: BoundKind::Upper,
};
/// The central ε of the shuffling row.
pub const SHUFFLE_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "home-shuffle-epsilon",
    label: "central ε",
    digits: 4,
    bound: BoundKind::Upper,
};
/// The name of the bound that gave it.
pub const SHUFFLE_BOUND: NoteSpec = NoteSpec {
    id: "home-shuffle-bound",
    kind: NoteKind::Small,
};
/// The first record's ε of the iteration row.
pub const ITERATION_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "home-iteration-epsilon",
    label: "ε of the first record",
    digits: 3,
    bound: BoundKind::Upper,
};
/// The ε without amplification of the iteration row.
pub const ITERATION_PLAIN: ReadoutSpec = ReadoutSpec {
    id: "home-iteration-plain",
    label: "ε without amplification",
    digits: 3,
    bound: BoundKind::Upper,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "home",
    nav: "Home",
    heading: "Privacy amplification, live",
    lede: super::Prose("home-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Try it",
            controls: &[Controls::new("Move these", &[p::EPS.spec, p::P.spec])],
            results_title: None,
            groups: &[],
        }),
        Section::Figures {
            label: "Amplification by subsampling",
            figures: &[FigureId::HomeAmplification],
        },
        Section::Prose(super::Prose("home-path")),
        Section::Widget(Widget::Techniques),
        Section::Prose(super::Prose("home-next")),
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
};

/// The live number of each technique, at the parameters the other pages share.
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    let mut r = Readings::default();
    r.push(
        &EPSILON_PRIME,
        amplified_epsilon(v.real(p::EPS), v.real(p::P)).map_err(ModelError::from),
        Relation::AddRemove,
    );
    let best = tightest(v);
    let eps = best.clone().and_then(|b| {
        b.epsilon
            .ok_or_else(|| ModelError::NotApplicable("no bound applies".into()))
    });
    r.push(&SHUFFLE_EPSILON, eps, amp_math::shuffle::RELATION);
    r.note(
        &SHUFFLE_BOUND,
        best.ok().map(|b| b.bound.name().to_string()),
    );
    let it = by_position(v);
    r.push(&ITERATION_EPSILON, it.first, amp_math::iteration::RELATION);
    r.push(
        &ITERATION_PLAIN,
        it.composition,
        amp_math::iteration::RELATION,
    );
    r
}

/// One row of the home page's table of techniques (the [`Widget::Techniques`] widget).
pub struct Technique {
    /// The page that explains it.
    pub page: super::Page,
    /// Its name.
    pub name: &'static str,
    /// What happens, in one sentence.
    pub what: &'static str,
}

/// The three techniques, in the table's order.
pub const TECHNIQUES: [Technique; 3] = [
    Technique {
        page: super::Page::Subsampling,
        name: "Subsampling",
        what: "The mechanism sees a random sample; your record is usually not in it, and nobody knows whether it is.",
    },
    Technique {
        page: super::Page::Shuffling,
        name: "Shuffling",
        what: "Each user randomizes their own data; a shuffler hides who sent which message.",
    },
    Technique {
        page: super::Page::Iteration,
        name: "Iteration",
        what: "In noisy iterative training, the steps after a record is used wash out its influence.",
    },
];

/// The live sentence of a technique's row, around its number: the text before it, the readout
/// and its value, the text after it. `None` when the number is not available at these values.
pub fn technique_sentence(
    row: usize,
    v: &ParamValues,
    r: &Readings,
) -> Option<(String, &'static ReadoutSpec, f64, String)> {
    use amp_format::display_number;
    let num = |spec: &ReadoutSpec| {
        r.get(spec)
            .and_then(|x| x.value.clone().ok())
            .filter(|x| x.is_finite())
    };
    let show = |x: f64, d: usize| display_number(x, d);
    match row {
        0 => num(&EPSILON_PRIME).map(|e| {
            (
                format!(
                    "ε = {} on a sample at rate p = {} gives ε′ = ",
                    show(v.real(p::EPS), 4),
                    show(v.real(p::P), 4)
                ),
                &EPSILON_PRIME,
                e,
                " (add/remove one)".to_string(),
            )
        }),
        1 => num(&SHUFFLE_EPSILON).map(|e| {
            (
                format!(
                    "{} users at local ε₀ = {} are, shuffled, ",
                    v.count(p::USERS),
                    show(v.real(p::EPS0), 4)
                ),
                &SHUFFLE_EPSILON,
                e,
                format!(
                    "-DP together ({}, δ = {}, replace one)",
                    r.text(&SHUFFLE_BOUND).unwrap_or_default(),
                    show(v.real(p::DELTA), 2)
                ),
            )
        }),
        2 => match (num(&ITERATION_EPSILON), num(&ITERATION_PLAIN)) {
            (Some(e), Some(plain)) => Some((
                format!(
                    "In {} noisy steps with σ = {}, the first record's ε is ",
                    v.count(p::ITERATIONS),
                    show(v.real(p::SIGMA), 4)
                ),
                &ITERATION_EPSILON,
                e,
                format!(
                    " instead of {} (δ = {}, replace one)",
                    show(plain, 3),
                    show(v.real(p::DELTA), 2)
                ),
            )),
            _ => None,
        },
        _ => None,
    }
}
