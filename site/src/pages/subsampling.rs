//! `page=subsampling`: amplification by subsampling (Steinke, "Privacy amplification by
//! subsampling"; Brown, lecture notes "Privacy amplification", §1; Hu, Drechsler & Kim, "Accuracy
//! gains from privacy amplification through sampling for differential privacy", §3).

use amp_math::subsampling::{
    amplified_epsilon, amplify, base_delta, base_epsilon, poisson_sample_size, Sampling,
};
use amp_math::EpsDelta;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params;
use amp_model::params::ParamValues;
use amp_model::sampling::sampling;

const EPSILON_PRIME: ReadoutSpec = ReadoutSpec {
    id: "epsilon-prime",
    label: "Amplified ε′",
    digits: 4,
    bound: BoundKind::Upper,
};
const DELTA_PRIME: ReadoutSpec = ReadoutSpec {
    id: "delta-prime",
    label: "Amplified δ′",
    digits: 4,
    bound: BoundKind::Upper,
};
const FACTOR: ReadoutSpec = ReadoutSpec {
    id: "amplification-factor",
    label: "ε′ / ε",
    digits: 4,
    bound: BoundKind::Upper,
};
const INCLUSION: ReadoutSpec = ReadoutSpec {
    id: "inclusion-probability",
    label: "Chance a record is sampled",
    digits: 4,
    bound: BoundKind::Exact,
};
const BASE_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "base-epsilon",
    label: "Base ε the sample may spend",
    digits: 5,
    bound: BoundKind::Lower,
};
const BASE_DELTA: ReadoutSpec = ReadoutSpec {
    id: "base-delta",
    label: "Base δ the sample may spend",
    digits: 4,
    bound: BoundKind::Lower,
};

/// Readout: the sample's expected size.
pub const SAMPLE_SIZE: ReadoutSpec = ReadoutSpec {
    id: "sample-size",
    label: "Sample size |S|, on average",
    digits: 6,
    bound: BoundKind::Exact,
};
/// Readout: the sample size's standard deviation.
pub const SAMPLE_SIZE_SD: ReadoutSpec = ReadoutSpec {
    id: "sample-size-sd",
    label: "Its standard deviation (Poisson: |S| ~ Bin(|x|, p))",
    digits: 4,
    bound: BoundKind::Exact,
};

/// Note: the live example of unequal inclusion chances (Poisson sampling only).
pub const UNEQUAL: NoteSpec = NoteSpec {
    id: "unequal-chances",
    kind: NoteKind::Sentence,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "subsampling",
    nav: "Subsampling",
    heading: "Amplification by subsampling",
    lede: super::Prose("subsampling-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Parameters and results",
            controls: &[Controls::new("Your parameters", params![&[p::EPS.spec, p::DELTA.spec], p::group::SUBSAMPLING.params, &[p::DATASET.spec]]), Controls::new("In the pictures of why", &[p::NOISE.spec])],
            results_title: Some("Results"),
            groups: &[
                Group {
                    notes_after: &[&UNEQUAL],
                    ..Group::numbers(&[
                    &EPSILON_PRIME,
                    &DELTA_PRIME,
                    &FACTOR,
                    &INCLUSION,
                    &SAMPLE_SIZE,
                    &SAMPLE_SIZE_SD,
                ])
                },
                Group {
                    heading: Some("The other way round"),
                    intro: Some("Read ε and δ as the target for the whole release: how much may the mechanism on the sample spend?"),
                    ..Group::numbers(&[&BASE_EPSILON, &BASE_DELTA])
                },
            ],
        }),
        Section::Figures {
            label: "Figures",
            figures: &[
                FigureId::AmplificationVsRate,
                FigureId::AmplificationVsEpsilon,
                FigureId::SampleBudget,
            ],
        },
        Section::Prose(super::Prose("subsampling-theorem")),
        Section::Figures {
            label: "Why it works, in pictures",
            figures: &[FigureId::NeighbourDensities, FigureId::KnownInclusion],
        },
        Section::Prose(super::Prose("subsampling-proofs")),
        Section::Prose(super::Prose("subsampling-why")),
        Section::Prose(super::Prose("subsampling-schemes")),
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
};

/// Every number of the page: the amplified guarantee and, reading ε and δ as the target of the
/// whole release, what the mechanism on the sample may spend.
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    let s = sampling(v);
    let relation = s.relation();
    let forward = EpsDelta::new(v.real(p::EPS), v.real(p::DELTA))
        .and_then(|base| amplify(&s, base))
        .map_err(ModelError::from);
    let base_eps = s
        .inclusion_probability()
        .and_then(|q| base_epsilon(v.real(p::EPS), q))
        .map_err(ModelError::from);
    let base_del = base_eps
        .clone()
        .and_then(|e| base_delta(&s, e, v.real(p::DELTA)).map_err(ModelError::from));
    let mut r = Readings::default();
    let eps = v.real(p::EPS);
    let pick = |f: fn(&amp_math::subsampling::Amplified) -> f64| forward.clone().map(|a| f(&a));
    r.push(&EPSILON_PRIME, pick(|a| a.guarantee.epsilon), relation);
    r.push(&DELTA_PRIME, pick(|a| a.guarantee.delta), relation);
    r.push(
        &FACTOR,
        forward.clone().map(|a| a.guarantee.epsilon / eps),
        relation,
    );
    r.push(&INCLUSION, pick(|a| a.inclusion_probability), relation);
    r.push(&BASE_EPSILON, base_eps, relation);
    r.push(&BASE_DELTA, base_del, relation);
    // How many records the mechanism sees: random under Poisson sampling, m otherwise (with
    // replacement: m draws, repeats counted).
    let size = match s {
        Sampling::Poisson { p } => {
            poisson_sample_size(v.count(p::DATASET), p).map_err(ModelError::from)
        }
        Sampling::WithoutReplacement { m, .. } | Sampling::WithReplacement { m, .. } => {
            Ok((m as f64, 0.0))
        }
    };
    r.push(&SAMPLE_SIZE, size.clone().map(|x| x.0), relation);
    r.push(&SAMPLE_SIZE_SD, size.map(|x| x.1), relation);
    r.note(&UNEQUAL, unequal_chances(eps, s));
    r
}

/// A live example of unequal inclusion chances (Steinke, part 1, footnote on non-uniform
/// probabilities): one group kept at twice the rate. Theorem 1 then holds with the largest chance,
/// p = maxᵢ P[xᵢ ∈ S], for every record. Poisson sampling only (`None` otherwise, or when 2p > 1).
fn unequal_chances(eps: f64, s: Sampling) -> Option<String> {
    let Sampling::Poisson { p } = s else {
        return None;
    };
    let heavy = 2.0 * p;
    if heavy > 1.0 {
        return None;
    }
    let (light, heavy_eps) = (
        amplified_epsilon(eps, p).ok()?,
        amplified_epsilon(eps, heavy).ok()?,
    );
    Some(format!(
        "Unequal chances: if one group of records were kept with probability {} (sampled twice as \
         heavily) and the rest with {}, the guarantee for every record would be the one of the \
         most likely, ε′ = {} instead of {}: the bound needs p = maxᵢ P[xᵢ ∈ S].",
        short_number(heavy, 4),
        short_number(p, 4),
        short_number(heavy_eps, 4),
        short_number(light, 4),
    ))
}
