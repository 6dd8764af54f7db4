//! `page=limits`: when subsampling stops being free (Steinke, "Limits of privacy
//! amplification by subsampling"). Poisson sampling, add/remove neighbours, Laplace mechanisms.

use amp_math::limits::{
    epsilon_p, noise_factor, noise_factor_bound, noise_ratio, ratio_floor, regime,
    steps_for_proportional, Duration,
};
use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_model::limits::regime_sentence;
use amp_model::param as p;
use amp_model::params::ParamValues;

/// Readout: ε_p the sample may spend.
pub const EPSILON_P: ReadoutSpec = ReadoutSpec {
    id: "epsilon-p",
    label: "ε_p the sample may spend",
    digits: 5,
    bound: BoundKind::Exact,
};
/// Readout: Noise ratio R = p·ε_p/ε.
pub const NOISE_RATIO: ReadoutSpec = ReadoutSpec {
    id: "noise-ratio",
    label: "Noise ratio R = p·ε_p/ε",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Noise factor 1/R.
pub const NOISE_FACTOR: ReadoutSpec = ReadoutSpec {
    id: "noise-factor",
    label: "Noise factor 1/R",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Floor log(1 + c)/c.
pub const RATIO_FLOOR: ReadoutSpec = ReadoutSpec {
    id: "ratio-floor",
    label: "Floor log(1 + c)/c",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Most extra noise c/log(1 + c).
pub const NOISE_BOUND: ReadoutSpec = ReadoutSpec {
    id: "noise-bound",
    label: "Most extra noise c/log(1 + c)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: Sampling rate p = B/|x|.
pub const REGIME_P: ReadoutSpec = ReadoutSpec {
    id: "regime-p",
    label: "Sampling rate p = B/|x|",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Steps k.
pub const REGIME_STEPS: ReadoutSpec = ReadoutSpec {
    id: "regime-steps",
    label: "Steps k",
    digits: 6,
    bound: BoundKind::Exact,
};
/// Readout: Per-step ε = ε*/√k.
pub const REGIME_EPS: ReadoutSpec = ReadoutSpec {
    id: "regime-epsilon-per-step",
    label: "Per-step ε = ε*/√k",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: c = ε/p.
pub const C_VALUE: ReadoutSpec = ReadoutSpec {
    id: "c-value",
    label: "c = ε/p",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the shortest run keeping ε ≤ c·p at this batch size.
pub const PROPORTIONAL_STEPS: ReadoutSpec = ReadoutSpec {
    id: "proportional-steps",
    label: "Steps for ε ≤ c·p at this batch size (c from above): (ε*·|x|/(c·B))²",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the epochs that run takes.
pub const PROPORTIONAL_EPOCHS: ReadoutSpec = ReadoutSpec {
    id: "proportional-epochs",
    label: "Epochs that takes: ε*²·|x|/(c²·B)",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: gradient evaluations the ε ≤ c·p regime takes.
pub const PROPORTIONAL_GRADIENTS: ReadoutSpec = ReadoutSpec {
    id: "proportional-gradients",
    label: "Gradient evaluations that takes (steps × B): about ε*²·|x|²/(c²·B)",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: gradient evaluations of the reader's run.
pub const REGIME_GRADIENTS: ReadoutSpec = ReadoutSpec {
    id: "regime-gradients",
    label: "Gradient evaluations of your run: steps × B (about epochs × |x|)",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Noise factor 1/R.
pub const REGIME_FACTOR: ReadoutSpec = ReadoutSpec {
    id: "regime-noise-factor",
    label: "Noise factor 1/R",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Bound c/log(1 + c).
pub const REGIME_BOUND: ReadoutSpec = ReadoutSpec {
    id: "regime-noise-bound",
    label: "Bound c/log(1 + c)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Sentence `regime-sentence`.
pub const REGIME_SENTENCE: NoteSpec = NoteSpec {
    id: "regime-sentence",
    kind: NoteKind::Sentence,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "limits",
    nav: "Limits",
    heading: "When subsampling stops being free",
    lede: super::Prose("limits-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "ε and p",
            controls: &[Controls::new("ε and the rate", &[p::EPS.spec, p::P.spec])],
            results_title: Some("Noise, compared"),
            groups: &[Group::numbers(&[&EPSILON_P, &NOISE_RATIO, &NOISE_FACTOR])],
        }),
        Section::Prose(super::Prose("limits-mechanisms")),
        Section::Figures {
            label: "The noise ratio",
            figures: &[FigureId::NoiseRatioVsEpsilon, FigureId::TaylorOrders],
        },
        Section::Prose(super::Prose("limits-taylor")),
        Section::Workbench(Workbench {
            label: "c",
            controls: &[Controls::new("The ratio c = ε/p", &[p::C.spec])],
            results_title: Some("Floor and bound"),
            groups: &[Group::numbers(&[&RATIO_FLOOR, &NOISE_BOUND])],
        }),
        Section::Figures {
            label: "Proportional ε",
            figures: &[FigureId::NoiseRatioFixedC, FigureId::NoiseBoundVsC],
        },
        Section::Prose(super::Prose("limits-mse")),
        Section::Workbench(Workbench {
            label: "n",
            controls: &[Controls::new("Records", &[p::N.spec])],
            results_title: None,
            groups: &[],
        }),
        Section::Figures {
            label: "Mean squared error",
            figures: &[FigureId::MseComparison],
        },
        Section::Prose(super::Prose("limits-regime")),
        Section::Workbench(Workbench {
            label: "Training",
            controls: &[Controls::new(
                "Your training run",
                &[
                    p::DATASET.spec,
                    p::BATCH.spec,
                    p::EPOCHS.spec,
                    p::TOTAL_EPS.spec,
                ],
            )],
            results_title: Some("Regime calculator"),
            groups: &[super::Group {
                notes_after: &[&REGIME_SENTENCE],
                ..Group::numbers(&[
                    &REGIME_P,
                    &REGIME_STEPS,
                    &REGIME_EPS,
                    &REGIME_GRADIENTS,
                    &C_VALUE,
                    &REGIME_FACTOR,
                    &REGIME_BOUND,
                    &PROPORTIONAL_STEPS,
                    &PROPORTIONAL_EPOCHS,
                    &PROPORTIONAL_GRADIENTS,
                ])
            }],
        }),
        Section::Figures {
            label: "Machine-learning regime",
            figures: &[FigureId::RegimeMap],
        },
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
};

/// Every number of the page: Poisson sampling of Laplace mechanisms, add/remove one.
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    const R: Relation = amp_math::limits::RELATION;
    let (eps, rate, c) = (v.real(p::EPS), v.real(p::P), v.real(p::C));
    let mut r = Readings::default();
    r.push(
        &EPSILON_P,
        epsilon_p(eps, rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &NOISE_RATIO,
        noise_ratio(eps, rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &NOISE_FACTOR,
        noise_factor(eps, rate).map_err(ModelError::from),
        R,
    );
    r.push(&RATIO_FLOOR, ratio_floor(c).map_err(ModelError::from), R);
    r.push(
        &NOISE_BOUND,
        noise_factor_bound(c).map_err(ModelError::from),
        R,
    );
    let (d, b, t) = (v.count(p::DATASET), v.count(p::BATCH), v.real(p::TOTAL_EPS));
    let reg = regime(d, b, Duration::Epochs(v.real(p::EPOCHS)), t).map_err(ModelError::from);
    let field = |f: fn(&amp_math::limits::Regime) -> f64| reg.clone().map(|x| f(&x));
    r.push(&REGIME_P, field(|x| x.p), R);
    r.push(&REGIME_STEPS, field(|x| x.steps as f64), R);
    r.push(&REGIME_EPS, field(|x| x.epsilon_per_step), R);
    // The computation: each step evaluates B per-example gradients (the conclusion of Steinke,
    // part 2: larger batches ease the limits at a computational cost).
    r.push(
        &REGIME_GRADIENTS,
        reg.clone().map(|x| x.steps as f64 * b as f64),
        R,
    );
    r.push(&C_VALUE, field(|x| x.c), R);
    r.push(&REGIME_FACTOR, field(|x| x.noise_factor), R);
    r.push(&REGIME_BOUND, field(|x| x.noise_factor_bound), R);
    let proportional = steps_for_proportional(d, b, t, c).map_err(ModelError::from);
    r.push(&PROPORTIONAL_STEPS, proportional.clone().map(|x| x.0), R);
    r.push(&PROPORTIONAL_EPOCHS, proportional.clone().map(|x| x.1), R);
    r.push(
        &PROPORTIONAL_GRADIENTS,
        proportional.map(|x| x.0 * b as f64),
        R,
    );
    let sentence = match &reg {
        Ok(x) => regime_sentence(d, b, t, x),
        Err(e) => e.to_string(),
    };
    r.note(&REGIME_SENTENCE, Some(sentence));
    r
}
