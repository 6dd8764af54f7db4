//! `page=accuracy`: when sampling first makes a release more accurate (Hu, Drechsler & Kim,
//! "Accuracy gains from privacy amplification through sampling for differential privacy"). Sampling
//! without replacement, replace-one neighbours.

use amp_math::accuracy::{
    delta_n, epsilon_n, mean_variances, no_gain_threshold, rate_for_variance_fraction,
    variance_fraction, variance_fraction_limit,
};
use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, PageSpec, Precision, Readings, ReadoutSpec, Section, Widget,
    Workbench,
};
use crate::figures::{FigureId, ModelError};
use amp_model::param as p;
use amp_model::params::ParamValues;

/// Readout: ε_n on the sample.
pub const EPSILON_N: ReadoutSpec = ReadoutSpec {
    id: "epsilon-n",
    label: "ε_n on the sample",
    digits: 5,
    bound: BoundKind::Exact,
};
/// Readout: δ_n on the sample.
pub const DELTA_N: ReadoutSpec = ReadoutSpec {
    id: "delta-n",
    label: "δ_n on the sample",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: q = 1 − ε²/ε_n².
pub const Q_VALUE: ReadoutSpec = ReadoutSpec {
    id: "q-value",
    label: "q = 1 − ε²/ε_n²",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: Rate at which q reaches the target.
pub const RATE_FOR_Q: ReadoutSpec = ReadoutSpec {
    id: "rate-for-q",
    label: "Rate at which q reaches the target",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the limit of q as ε → 0, 1 − (n/N)².
pub const Q_LIMIT: ReadoutSpec = ReadoutSpec {
    id: "q-limit",
    label: "q as ε → 0: 1 − (n/N)² (its upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the sample mean's sampling variance.
pub const SAMPLING_VARIANCE: ReadoutSpec = ReadoutSpec {
    id: "sampling-variance",
    label: "Sampling variance (1 − n/N)·S²_N/n",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the no-gain threshold q·V_N.
pub const NO_GAIN: ReadoutSpec = ReadoutSpec {
    id: "no-gain-threshold",
    label: "No-gain threshold 2(R/N)²(ε⁻² − ε_n⁻²) = q·V_N: a gain needs the sampling variance below it",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: V_N = 2(R/(εN))², the privatized population mean's variance.
pub const POPULATION_NOISE: ReadoutSpec = ReadoutSpec {
    id: "population-noise-variance",
    label: "V_N = 2(R/(εN))², the private population mean's variance (noise only)",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: V_n / V_N at your rate.
pub const MEAN_RATIO: ReadoutSpec = ReadoutSpec {
    id: "mean-variance-ratio",
    label: "V_n / V_N at your rate",
    digits: 4,
    bound: BoundKind::Exact,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "accuracy",
    nav: "Accuracy",
    heading: "When sampling first makes a release more accurate",
    lede: super::Prose("accuracy-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Budget and sampling rate",
            controls: &[Controls::new(
                "Budget and sampling rate",
                &[p::EPS.spec, p::DELTA.spec, p::RATE.spec, p::TARGET_Q.spec],
            )],
            results_title: Some("What the sample may spend"),
            groups: &[Group::numbers(&[
                &EPSILON_N,
                &DELTA_N,
                &Q_VALUE,
                &Q_LIMIT,
                &RATE_FOR_Q,
            ])],
        }),
        Section::Prose(super::Prose("accuracy-budget")),
        Section::Figures {
            label: "Amplified budget",
            figures: &[FigureId::VarianceFractionQ],
        },
        Section::Prose(super::Prose("accuracy-mean")),
        Section::Workbench(Workbench {
            label: "The mean",
            controls: &[Controls::new(
                "The population and its values",
                &[
                    p::POPULATION_SIZE.spec,
                    p::RANGE.spec,
                    p::POP_VARIANCE.spec,
                    p::NAIVE.spec,
                ],
            )],
            results_title: Some("Private mean"),
            groups: &[Group::numbers(&[
                &POPULATION_NOISE,
                &SAMPLING_VARIANCE,
                &NO_GAIN,
                &MEAN_RATIO,
            ])],
        }),
        Section::Figures {
            label: "Figures of the mean",
            figures: &[FigureId::MeanVarianceVsRate, FigureId::MeanNoiseRatio],
        },
        Section::Prose(super::Prose("accuracy-median")),
        Section::Workbench(Workbench {
            label: "Simulation",
            controls: &[
                Controls {
                    widget: Some(Widget::SimPanel),
                    ..Controls::new(
                        "Simulation",
                        &[p::POPULATION.spec, p::RUNS.spec, p::SEED.spec],
                    )
                },
                Controls::new(
                    "The paper's Figures 1 (right) and 2",
                    &[p::ESTIMATES_POPULATION.spec],
                ),
            ],
            results_title: Some("Against the paper"),
            groups: &[Group {
                widget: Some(Widget::Reproduction),
                ..Group::numbers(&[])
            }],
        }),
        Section::Figures {
            label: "The median simulation",
            figures: &[
                FigureId::PopulationDensity,
                FigureId::PrivateEstimates,
                FigureId::SensitivityRatio,
                FigureId::NoiseMagnitude,
                FigureId::SampleMedians,
                FigureId::MedianMseVsRate,
            ],
        },
        Section::Widget(Widget::TableOne),
    ],
    readouts,
    refines: false,
    quick_off_thread: false,
};

/// Every number of the page (sampling without replacement from the population, replace one).
pub fn readouts(v: &ParamValues, _: Precision) -> Readings {
    const R: Relation = amp_math::accuracy::RELATION;
    let (eps, rate) = (v.real(p::EPS), v.real(p::RATE));
    let mut r = Readings::default();
    r.push(
        &EPSILON_N,
        epsilon_n(eps, rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &DELTA_N,
        delta_n(v.real(p::DELTA), rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &Q_VALUE,
        variance_fraction(eps, rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &Q_LIMIT,
        variance_fraction_limit(rate).map_err(ModelError::from),
        R,
    );
    r.push(
        &RATE_FOR_Q,
        rate_for_variance_fraction(eps, v.real(p::TARGET_Q)).map_err(ModelError::from),
        R,
    );
    let population = v.count(p::POPULATION_SIZE) as f64;
    let mean = mean_variances(
        eps,
        rate,
        population,
        v.real(p::RANGE),
        v.real(p::POP_VARIANCE),
    );
    r.push(
        &POPULATION_NOISE,
        mean.clone().map(|m| m.population).map_err(ModelError::from),
        R,
    );
    r.push(
        &SAMPLING_VARIANCE,
        mean.clone().map(|m| m.sampling).map_err(ModelError::from),
        R,
    );
    // The mean's global sensitivity in the population is R/N (Hu, Drechsler & Kim, eq. 6).
    r.push(
        &NO_GAIN,
        no_gain_threshold(eps, rate, v.real(p::RANGE) / population).map_err(ModelError::from),
        R,
    );
    r.push(
        &MEAN_RATIO,
        mean.map(|m| m.sample_total() / m.population)
            .map_err(ModelError::from),
        R,
    );
    r
}
