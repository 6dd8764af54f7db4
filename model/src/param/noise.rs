//! Parameter declarations. The additive noise of a mechanism and the Rényi DP settings (order,
//! bound, conversion). Each handle, with its doc comment, is in [`super`]; the bodies are here.

use super::*;

pub(super) const NOISE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "noise",
    symbol: "noise",
    label: "Noise in the pictures",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The mechanism drawn in the two pictures of why: Laplace (ε-DP) or Gaussian (ε-GDP), scale 1/ε.",
    domain: options::<Noise>(),
    default: Value::Choice(0),
};

pub(super) const MECH: ParamSpec = ParamSpec {
    aliases: &["mechanism"],
    name: "mech",
    symbol: "mechanism",
    label: "Base mechanism",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The mechanism run on the sample; every query has sensitivity 1.",
    domain: options::<Mechanism>(),
    default: Value::Choice(0),
};

pub(super) const SIGMA: ParamSpec = ParamSpec {
    aliases: &[],
    name: "sigma",
    symbol: "σ",
    label: "Noise multiplier σ",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Standard deviation of the Gaussian noise over the sensitivity (iteration page: over the gradient bound L).",
    domain: Domain::Real {
        min: 0.1,
        max: 10_000.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.3, 100.0),
    },
    default: Value::Real(5.0),
};

pub(super) const SCALE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "scale",
    symbol: "b",
    label: "Laplace scale b",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Scale of the Laplace noise over the sensitivity (pure ε = 1/b).",
    domain: Domain::Real {
        min: 0.01,
        max: 10_000.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.05, 100.0),
    },
    default: Value::Real(0.5),
};

pub(super) const K: ParamSpec = ParamSpec {
    aliases: &[],
    name: "k",
    symbol: "k",
    label: "Categories k",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Number of possible answers of k-ary randomized response.",
    domain: Domain::Count {
        min: 2,
        max: 1_000_000,
        scale: Scale::Log,
        slider: (2, 1000),
        odd: false,
    },
    default: Value::Count(4),
};

pub(super) const Q: ParamSpec = ParamSpec {
    aliases: &[],
    name: "q",
    symbol: "q",
    label: "Sampling rate q",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Poisson: each record's inclusion probability; without replacement: the fraction m/n.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1.0,
        max_open: false,
        scale: Scale::Log,
        slider: (1e-5, 1.0),
    },
    default: Value::Real(0.001),
};

pub(super) const ALPHA: ParamSpec = ParamSpec {
    aliases: &[],
    name: "alpha",
    symbol: "α",
    label: "Rényi order α",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The order at which the readouts show ε(α).",
    domain: Domain::Real {
        min: 1.001,
        max: 10_000.0,
        max_open: false,
        scale: Scale::Log,
        slider: (1.01, 1000.0),
    },
    default: Value::Real(8.0),
};

pub(super) const BOUND: ParamSpec = ParamSpec {
    aliases: &[],
    name: "bound",
    symbol: "bound",
    label: "Curve",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Exact RDP, or the upper or lower bound of the subsampled mechanism.",
    domain: options::<Bound>(),
    default: Value::Choice(0),
};

pub(super) const CONVERSION: ParamSpec = ParamSpec {
    aliases: &[],
    name: "conversion",
    symbol: "conversion",
    label: "RDP to (ε, δ) conversion",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How a Rényi DP curve becomes an (ε, δ) guarantee.",
    domain: options::<Conversion>(),
    default: Value::Choice(0),
};
