//! Parameter declarations. The accuracy page: the sampling rate n/N, the population and the
//! simulated releases. Each handle, with its doc comment, is in [`super`]; the bodies are here.

use super::*;

pub(super) const RATE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "rate",
    symbol: "n/N",
    label: "Sampling rate n/N",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The fraction of the population drawn (simple random sampling without replacement).",
    domain: Domain::Real {
        min: 1e-6,
        max: 1.0,
        max_open: false,
        scale: Scale::Log,
        slider: (1e-4, 1.0),
    },
    default: Value::Real(0.01),
};

pub(super) const TARGET_Q: ParamSpec = ParamSpec {
    aliases: &[],
    name: "target-q",
    symbol: "q",
    label: "Target variance fraction q",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Find the sampling rate at which q = 1 − ε²/ε_n² reaches this value.",
    domain: Domain::Real {
        min: 0.001,
        max: 0.999,
        max_open: false,
        scale: Scale::Linear,
        slider: (0.01, 0.99),
    },
    default: Value::Real(0.6),
};

pub(super) const POPULATION_SIZE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "N",
    symbol: "N",
    label: "Population size N",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records the agency holds (odd, so the median is one record).",
    domain: Domain::Count {
        min: 3,
        // Generating and sorting a larger population would block the browser for too long.
        max: 100_001,
        scale: Scale::Log,
        slider: (101, 100_001),
        odd: true,
    },
    default: Value::Count(10_001),
};

pub(super) const RANGE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "range",
    symbol: "R",
    label: "Range R of the values",
    unit: "",
    #[cfg(feature = "prose")]
    help: "A public bound on the spread of the values; the mean's sensitivity is R/N.",
    domain: Domain::Real {
        min: 1e-6,
        max: 1e9,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 10_000.0),
    },
    default: Value::Real(1.0),
};

pub(super) const POP_VARIANCE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "pop-variance",
    symbol: "S²",
    label: "Population variance S²_N",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The variance of the values in the population (sets the sampling variance).",
    domain: Domain::Real {
        min: 0.0,
        max: 1e18,
        max_open: false,
        scale: Scale::Log,
        slider: (1e-6, 10_000.0),
    },
    default: Value::Real(0.01),
};

pub(super) const POPULATION: ParamSpec = ParamSpec {
    aliases: &[],
    name: "population",
    symbol: "population",
    label: "Simulated population",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The distribution the simulation's population is drawn from (Hu, Drechsler & Kim, Sections 4.3 and 4.4); the released estimates of Figures 1 (right) and 2 have their own control.",
    domain: options::<Population>(),
    default: Value::Choice(0),
};

pub(super) const ESTIMATES_POPULATION: ParamSpec = ParamSpec {
    aliases: &[],
    name: "estimates-population",
    symbol: "Figs. 1–2 population",
    label: "Population released in Figures 1 (right) and 2",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The population whose mean and median are released many times (the paper uses Beta(2, 10), Section 2.4).",
    domain: options::<EstimatesPopulation>(),
    default: Value::Choice(0),
};

pub(super) const RUNS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "runs",
    symbol: "T",
    label: "Simulation runs T",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Samples drawn per ε and sampling rate (the paper uses 1,000).",
    domain: Domain::Count {
        min: 10,
        max: 100_000,
        scale: Scale::Log,
        slider: (10, 10_000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const SEED: ParamSpec = ParamSpec {
    aliases: &[],
    name: "seed",
    symbol: "seed",
    label: "Random seed",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The same seed gives the same population and samples, in the app and in the CLI.",
    domain: Domain::Count {
        min: 0,
        max: 9_007_199_254_740_992,
        scale: Scale::Linear,
        slider: (0, 1000),
        odd: false,
    },
    // The seed of the paper's Appendix B code (our generator is not R's, so the draws differ).
    default: Value::Count(123),
};

pub(super) const NAIVE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "naive",
    symbol: "naive",
    label: "Also draw the naive formula",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Eq. 8 typed directly in double precision, without expm1/log1p.",
    domain: options::<ShowNaive>(),
    default: Value::Choice(0),
};
