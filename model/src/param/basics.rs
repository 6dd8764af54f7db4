//! Parameter declarations. The basic privacy parameters: ε, δ, the sampling rate and sizes, the
//! scheme, and the overall budget. Each handle, with its doc comment, is in [`super`]; the bodies
//! are here.

use super::*;

pub(super) const EPS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "eps",
    symbol: "ε",
    label: "Privacy parameter ε",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The base mechanism's ε; for the inverse, the target ε′ of the whole release.",
    domain: Domain::Real {
        min: 1e-12,
        max: 50.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.001, 50.0),
    },
    default: Value::Real(1.0),
};

pub(super) const DELTA: ParamSpec = ParamSpec {
    aliases: &[],
    name: "delta",
    symbol: "δ",
    label: "Failure probability δ",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The base mechanism's δ (0 for pure DP); for the inverse, the target δ′.",
    domain: Domain::Real {
        min: 0.0,
        max: 1.0,
        max_open: true,
        scale: Scale::Log,
        slider: (1e-12, 0.01),
    },
    default: Value::Real(1e-6),
};

pub(super) const P: ParamSpec = ParamSpec {
    aliases: &[],
    name: "p",
    symbol: "p",
    label: "Sampling rate p",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Probability that each record is in the sample (Poisson sampling).",
    domain: Domain::Real {
        min: 1e-9,
        max: 1.0,
        max_open: false,
        scale: Scale::Log,
        slider: (1e-5, 1.0),
    },
    default: Value::Real(0.01),
};

pub(super) const M: ParamSpec = ParamSpec {
    aliases: &[],
    name: "m",
    symbol: "m",
    label: "Sample size m",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records in the sample (fixed-size schemes); draws, with replacement.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (1, 1_000_000),
        odd: false,
    },
    default: Value::Count(600),
};

pub(super) const N: ParamSpec = ParamSpec {
    aliases: &[],
    name: "n",
    symbol: "n",
    label: "Dataset size n",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records in the whole dataset (fixed-size schemes).",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (10, 10_000_000),
        odd: false,
    },
    default: Value::Count(60_000),
};

pub(super) const SCHEME: ParamSpec = ParamSpec {
    aliases: &[],
    name: "scheme",
    symbol: "scheme",
    label: "Sampling scheme",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How the sample is drawn; it decides the neighbouring relation of the guarantee.",
    domain: options::<Scheme>(),
    default: Value::Choice(0),
};

pub(super) const C: ParamSpec = ParamSpec {
    aliases: &[],
    name: "c",
    symbol: "c",
    label: "Ratio c = ε/p",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How large ε is compared with the sampling rate: ε = c·p.",
    domain: Domain::Real {
        min: 1e-6,
        max: 1e4,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 1000.0),
    },
    default: Value::Real(2.0),
};

pub(super) const TOTAL_EPS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "total-eps",
    symbol: "ε*",
    label: "Overall budget ε*",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The whole training run is ½ε*²-zCDP, so each of k steps may use ε*/√k.",
    domain: Domain::Real {
        min: 1e-6,
        max: 100.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 100.0),
    },
    default: Value::Real(3.0),
};
