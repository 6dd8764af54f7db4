//! `page=renyi`: Rényi DP of subsampled mechanisms, composition and conversion to (ε, δ) (seed
//! 003, Wang's slides; Mironov 2017; Mironov, Talwar & Zhang 2019; Canonne, Kamath & Steinke 2020).

use amp_math::rdp::{delta_for_epsilon, Conversion};
use amp_math::subsampling::Scheme;
use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_model::param as p;
use amp_model::params;
use amp_model::params::ParamValues;
use amp_model::renyi::{at_order, composition, mechanism, setting, step_curve};

const BASE: ReadoutSpec = ReadoutSpec {
    id: "rdp-base-at-order",
    label: "Base ε(α)",
    digits: 5,
    bound: BoundKind::Exact,
};
const AT_ORDER: ReadoutSpec = ReadoutSpec {
    id: "rdp-at-order",
    label: "ε(α): exact where known, else the upper bound",
    digits: 5,
    bound: BoundKind::Exact,
};
const UPPER: ReadoutSpec = ReadoutSpec {
    id: "rdp-upper-at-order",
    label: "Upper bound",
    digits: 5,
    bound: BoundKind::Upper,
};
const LOWER: ReadoutSpec = ReadoutSpec {
    id: "rdp-lower-at-order",
    label: "Lower bound (whole orders)",
    digits: 5,
    bound: BoundKind::Lower,
};
const COMPOSED: ReadoutSpec = ReadoutSpec {
    id: "composed-epsilon",
    label: "ε at δ, improved conversion",
    digits: 5,
    bound: BoundKind::Upper,
};
const ORDER: ReadoutSpec = ReadoutSpec {
    id: "optimal-order",
    label: "Optimal order α*",
    digits: 3,
    bound: BoundKind::Exact,
};
const COMPOSED_CLASSIC: ReadoutSpec = ReadoutSpec {
    id: "composed-epsilon-classic",
    label: "ε at δ, classic conversion",
    digits: 5,
    bound: BoundKind::Upper,
};
const COMPOSED_DELTA: ReadoutSpec = ReadoutSpec {
    id: "composed-delta",
    label: "δ at the target ε (improved)",
    digits: 4,
    bound: BoundKind::Upper,
};
const CURVE_KIND: NoteSpec = NoteSpec {
    id: "curve-kind",
    kind: NoteKind::Small,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "renyi",
    nav: "Rényi DP",
    heading: "Rényi DP: subsampling and composition",
    lede: super::Prose("renyi-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "The base mechanism",
            controls: &[Controls::new(
                "Base mechanism",
                params![p::group::MECHANISM.params, &[p::ALPHA.spec]],
            )],
            results_title: Some("Its curve at α"),
            groups: &[Group::numbers(&[&BASE])],
        }),
        Section::Prose(super::Prose("renyi-intro")),
        Section::Figures {
            label: "Base curves",
            figures: &[FigureId::RdpBase],
        },
        Section::Workbench(Workbench {
            label: "Subsampling",
            controls: &[Controls::new("Sampling", p::group::RDP_SAMPLING.params)],
            results_title: Some("The subsampled curve at α"),
            groups: &[Group::numbers(&[&AT_ORDER, &UPPER, &LOWER])],
        }),
        Section::Prose(super::Prose("renyi-subsampling")),
        Section::Figures {
            label: "Subsampled curves",
            figures: &[FigureId::RdpSubsampled, FigureId::RdpCdpLines],
        },
        Section::Workbench(Workbench {
            label: "Composition",
            controls: &[Controls::new(
                "Composition",
                &[p::STEPS.spec, p::DELTA.spec, p::TARGET_EPS.spec],
            )],
            results_title: Some("After k steps"),
            groups: &[Group {
                notes_after: &[&CURVE_KIND],
                ..Group::numbers(&[&COMPOSED, &ORDER, &COMPOSED_CLASSIC, &COMPOSED_DELTA])
            }],
        }),
        Section::Prose(super::Prose("renyi-composition")),
        Section::Figures {
            label: "Figures of the composition",
            figures: &[FigureId::RdpComposition, FigureId::RdpOptimalOrder],
        },
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
};

/// The neighbouring relation of the page's numbers: replace one for sampling without
/// replacement, add/remove one otherwise.
fn relation(v: &ParamValues) -> Relation {
    if v.choice(p::SCHEME) == Scheme::WithoutReplacement {
        Relation::ReplaceOne
    } else {
        Relation::AddRemove
    }
}

/// Every number of the page: the base curve at α, the subsampled curves at α, and k-fold
/// composition converted to (ε, δ).
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    let rel = relation(v);
    let mut r = Readings::default();
    r.push(
        &BASE,
        mechanism(v).rdp(v.real(p::ALPHA)).map_err(ModelError::from),
        rel,
    );
    let at = at_order(v);
    let pick = |f: fn(&amp_model::renyi::AtOrder) -> Result<f64, ModelError>| {
        at.clone().and_then(|a| f(&a))
    };
    // The guarantee at α: exact where known, otherwise the upper bound (and said so).
    let exact = at.as_ref().is_ok_and(|a| a.exact.is_ok());
    r.push_bound(
        &AT_ORDER,
        pick(|a| a.exact.clone().or_else(|_| a.upper.clone())),
        rel,
        if exact {
            BoundKind::Exact
        } else {
            BoundKind::Upper
        },
    );
    r.push(&UPPER, pick(|a| a.upper.clone()), rel);
    r.push(&LOWER, pick(|a| a.lower.clone()), rel);
    let comp = composition(v);
    r.push(&COMPOSED, comp.clone().map(|c| c.improved.epsilon), rel);
    r.push(&ORDER, comp.clone().map(|c| c.improved.order), rel);
    r.push(
        &COMPOSED_CLASSIC,
        comp.clone().map(|c| c.classic.epsilon),
        rel,
    );
    let delta_at = setting(v).and_then(|st| {
        let curve = step_curve(&st)?.times(v.real(p::STEPS));
        Ok(delta_for_epsilon(&curve, v.real(p::TARGET_EPS), Conversion::Improved)?.delta)
    });
    r.push(&COMPOSED_DELTA, delta_at, rel);
    let kind = match &comp {
        Ok(c) if !c.exact => {
            Some("The per-step curve is the upper bound: no exact curve is known under sampling without replacement.".into())
        }
        Ok(_) => Some("The per-step curve is exact.".into()),
        Err(_) => None,
    };
    r.note(&CURVE_KIND, kind);
    r
}
