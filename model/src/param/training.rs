//! Parameter declarations. A DP-SGD run: dataset, batch, length, records per user, cap,
//! accumulation, bands, phases, target ε. Each handle, with its doc comment, is in [`super`]; the
//! bodies are here.

use super::*;

pub(super) const DATASET: ParamSpec = ParamSpec {
    aliases: &["dataset-size"],
    name: "dataset",
    symbol: "|x|",
    label: "Dataset size |x|",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Records (training examples) in the whole dataset; under Poisson sampling the sample's size is Bin(|x|, p).",
    domain: Domain::Count {
        min: 2,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (100, 1_000_000_000),
        odd: false,
    },
    default: Value::Count(60_000),
};

pub(super) const BATCH: ParamSpec = ParamSpec {
    aliases: &["batch-size"],
    name: "batch",
    symbol: "B",
    label: "Batch size B",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "Expected examples per step; the sampling rate is p = B/|x|.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (1, 1_000_000),
        odd: false,
    },
    default: Value::Count(256),
};

pub(super) const EPOCHS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "epochs",
    symbol: "epochs",
    label: "Epochs",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Passes over the data: k = epochs/p steps.",
    domain: Domain::Real {
        min: 1e-6,
        max: 1e6,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 1000.0),
    },
    default: Value::Real(3.0),
};

pub(super) const STEPS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "steps",
    symbol: "k",
    label: "Steps k",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Compositions: training steps (instead of epochs), or releases of the mechanism.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (1, 10_000_000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const RECORDS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "records-per-user",
    symbol: "R",
    label: "Records per user R",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How many training examples each person contributes. With R > 1 the guarantee is for adding or removing one person with all their examples (Poisson batches, Gaussian noise).",
    domain: Domain::Count {
        min: 1,
        max: 64,
        scale: Scale::Log,
        slider: (1, 64),
        odd: false,
    },
    default: Value::Count(1),
};

pub(super) const MAX_BATCH: ParamSpec = ParamSpec {
    aliases: &[],
    name: "max-batch",
    symbol: "M",
    label: "Maximum batch size M",
    unit: "records",
    #[cfg(feature = "prose")]
    help: "A cap on each Poisson batch, as a memory limit imposes: when more than M examples are drawn, a random M of them are kept. 0 (the slider's far left) means no cap.",
    domain: Domain::Count {
        min: 0,
        max: 1_000_000_000_000,
        scale: Scale::Log,
        slider: (1, 1_000_000),
        odd: false,
    },
    default: Value::Count(0),
};

pub(super) const ACCUMULATION: ParamSpec = ParamSpec {
    aliases: &[],
    name: "accumulation-steps",
    symbol: "A",
    label: "Gradient accumulation steps A",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How many micro-batches of B examples are summed before the noise is added once. With A > 1, B is the micro-batch: each noisy step uses A·B examples, so q = A·B/|x| and there are A times fewer noisy steps per epoch.",
    domain: Domain::Count {
        min: 1,
        max: 65_536,
        scale: Scale::Log,
        slider: (1, 1024),
        odd: false,
    },
    default: Value::Count(1),
};

pub(super) const BANDS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "bands",
    symbol: "b",
    label: "Bands b (correlated noise)",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Banded matrix factorisation (DP-FTRL / BandMF): the noise of each step is correlated with that of the b − 1 steps before it. The data are split into b groups used in turn, each step Poisson-sampling its group at rate b·B/|x|, so an example takes part at most once in any b steps. 1 is DP-SGD.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000,
        scale: Scale::Log,
        slider: (1, 1024),
        odd: false,
    },
    default: Value::Count(1),
};

pub(super) const PARTICIPATIONS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "participations",
    symbol: "k",
    label: "Steps each example takes part in, k",
    unit: "",
    #[cfg(feature = "prose")]
    help: "With random allocation, each example is used in exactly k of the run's steps, chosen uniformly at random (k = 1: once in the whole run).",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 10_000),
        odd: false,
    },
    default: Value::Count(1),
};

pub(super) const TARGET_EPS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "target-eps",
    symbol: "ε",
    label: "Target ε",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The ε at which to report δ(ε); on the training page, the ε the noise is calibrated for.",
    domain: Domain::Real {
        min: 0.0,
        max: 500.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 50.0),
    },
    default: Value::Real(1.0),
};

pub(super) const LENGTH: ParamSpec = ParamSpec {
    aliases: &[],
    name: "length",
    symbol: "length",
    label: "Length of training given",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Whether the run's length is counted in epochs (k = epochs·|x|/B steps) or in steps.",
    domain: options::<Length>(),
    default: Value::Choice(0),
};

pub(super) const BATCHING: ParamSpec = ParamSpec {
    aliases: &[],
    name: "batching",
    symbol: "batching",
    label: "How batches are formed",
    unit: "",
    #[cfg(feature = "prose")]
    help: "What your training loop really does. Shuffled and balls-in-bins batches are accounted for the Gaussian mechanism, compared with Poisson sampling on the zero-out relation.",
    domain: options::<Batching>(),
    default: Value::Choice(0),
};

pub(super) const PHASES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "phases",
    symbol: "phases",
    label: "Phases of the run",
    unit: "",
    #[cfg(feature = "prose")]
    help: "A run can change its noise, batch size, sampler or length part-way (a warm-up, a larger batch at the end); each phase is accounted and the whole run composed.",
    domain: options::<PhaseCount>(),
    default: Value::Choice(0),
};
