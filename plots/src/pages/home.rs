//! `page=home`: what privacy amplification is, and the way to the pages that exist.

use amp_math::subsampling::amplified_epsilon;
use amp_math::Relation;

use super::{NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec, Section, Widget};
use crate::figures::iteration::readouts as by_position;
use crate::figures::shuffle::tightest;
use crate::figures::ChartError;
use crate::param as p;
use crate::params::ParamValues;

/// ε′ of the subsampling row.
pub const EPSILON_PRIME: ReadoutSpec = ReadoutSpec {
    id: "home-epsilon-prime",
    label: "ε′",
    digits: 4,
};
/// The central ε of the shuffling row.
pub const SHUFFLE_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "home-shuffle-epsilon",
    label: "central ε",
    digits: 4,
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
};
/// The ε without amplification of the iteration row.
pub const ITERATION_PLAIN: ReadoutSpec = ReadoutSpec {
    id: "home-iteration-plain",
    label: "ε without amplification",
    digits: 3,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "home",
    nav: "Home",
    heading: "Privacy amplification, live",
    lede: "A differentially private mechanism can become more private, at no cost in noise, when it is combined with an innocent-looking random step: \
           running it on a random sample, shuffling the users' messages before anyone sees them, or hiding it inside a long run of later noisy steps. \
           This explorer turns the results behind those three effects into figures and numbers you can move with your own parameters.",
    sections: &[
        Section::Widget(Widget::Techniques),
        Section::Prose(include_str!("../../content/home-next.html")),
    ],
    readouts,
    refines: false,
};

/// The live number of each technique, at the parameters the other pages share.
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    let mut r = Readings::default();
    r.push(
        &EPSILON_PRIME,
        amplified_epsilon(v.real(p::EPS), v.real(p::P)).map_err(ChartError::from),
        Relation::AddRemove,
    );
    let best = tightest(v).map_err(ChartError::NotApplicable);
    let eps = best.clone().and_then(|b| {
        b.epsilon
            .ok_or_else(|| ChartError::NotApplicable("no bound applies".into()))
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
