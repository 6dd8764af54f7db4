//! Parameter declarations. Amplification by iteration: one pass of noisy SGD and many passes on a
//! bounded set. Each handle, with its doc comment, is in [`super`]; the bodies are here.

use super::*;

pub(super) const ITERATIONS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "iterations",
    symbol: "T",
    label: "Steps T",
    unit: "steps",
    #[cfg(feature = "prose")]
    help: "Length of the one pass of noisy SGD; the record used at step t is hidden by the T − t steps after it.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 10_000_000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const STEP_BATCH: ParamSpec = ParamSpec {
    aliases: &[],
    name: "step-batch",
    symbol: "b",
    label: "Records per step b",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records whose gradients one step averages (Brown's Algorithm 1: n = T·b records in all). One record then moves a step by 2L/b.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 100_000),
        odd: false,
    },
    default: Value::Count(1),
};

pub(super) const STEP_SIZE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "step-size",
    symbol: "η",
    label: "Step size η",
    unit: "",
    #[cfg(feature = "prose")]
    help:
        "Learning rate of each step; the theorem needs η ≤ 2/β so that every step is contractive.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1e6,
        max_open: false,
        scale: Scale::Log,
        slider: (0.001, 100.0),
    },
    default: Value::Real(0.1),
};

pub(super) const SMOOTHNESS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "smoothness",
    symbol: "β",
    label: "Smoothness β of the loss",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Every loss's gradient is β-Lipschitz (β-smooth); with convexity and η ≤ 2/β the updates are contractive.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1e9,
        max_open: false,
        scale: Scale::Log,
        slider: (0.001, 1000.0),
    },
    default: Value::Real(1.0),
};

pub(super) const PASS_STEPS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "pass-steps",
    symbol: "T",
    label: "Steps T, all passes",
    unit: "steps",
    #[cfg(feature = "prose")]
    help:
        "Noisy gradient steps over as many passes as it takes; only the last iterate is released.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (1, 100_000_000),
        odd: false,
    },
    default: Value::Count(100_000),
};

pub(super) const PASS_RECORDS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "pass-records",
    symbol: "n",
    label: "Records n",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records in the data set the run passes over again and again.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (10, 10_000_000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const PASS_BATCHES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "pass-batches",
    symbol: "batches",
    label: "Batches",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Full batch: every record in every step. Cyclic: batches of b in a fixed public order. Poisson: each record joins each step with probability b/n.",
    domain: options::<Batches>(),
    default: Value::Choice(0),
};

pub(super) const PASS_BATCH: ParamSpec = ParamSpec {
    aliases: &[],
    name: "pass-batch",
    symbol: "b",
    label: "Batch size b",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records per step (the expected number for Poisson batches); for cyclic batches it must divide n.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 100_000),
        odd: false,
    },
    default: Value::Count(10),
};

pub(super) const DIAMETER: ParamSpec = ParamSpec {
    aliases: &[],
    name: "diameter",
    symbol: "D",
    label: "Diameter D of the model set",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Every iterate is projected onto a convex set of this diameter (in units of the gradient bound's length scale); the bound stops growing because two runs can never be further apart than D.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1e9,
        max_open: false,
        scale: Scale::Log,
        slider: (0.001, 1000.0),
    },
    default: Value::Real(1.0),
};
