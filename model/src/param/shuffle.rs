//! Parameter declarations. Shuffling: users, rounds and the local randomizer. Each handle, with its
//! doc comment, is in [`super`]; the bodies are here.

use super::*;

pub(super) const EPS0: ParamSpec = ParamSpec {
    aliases: &[],
    name: "eps0",
    symbol: "ε₀",
    label: "Local privacy ε₀",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Each user's local randomizer is ε₀-differentially private on its own.",
    domain: Domain::Real {
        min: 1e-6,
        max: 30.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.01, 15.0),
    },
    default: Value::Real(4.0),
};

pub(super) const USERS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "users",
    symbol: "n",
    label: "Users n",
    unit: "users",
    #[cfg(feature = "prose")]
    help: "Users who each send one randomized message to the shuffler.",
    domain: Domain::Count {
        min: 2,
        // The shuffle bounds' domain.
        max: amp_math::shuffle::MAX_USERS,
        scale: Scale::Log,
        slider: (100, 100_000_000),
        odd: false,
    },
    default: Value::Count(100_000),
};

pub(super) const ROUNDS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "rounds",
    symbol: "R",
    label: "Rounds R",
    unit: "rounds",
    #[cfg(feature = "prose")]
    help: "How many times the same users send a report through the shuffler (daily telemetry, federated rounds): the central ε after all of them.",
    domain: Domain::Count {
        min: 1,
        max: 100_000,
        scale: Scale::Log,
        slider: (1, 10_000),
        odd: false,
    },
    default: Value::Count(100),
};

pub(super) const RANDOMIZER: ParamSpec = ParamSpec {
    aliases: &[],
    name: "randomizer",
    symbol: "randomizer",
    label: "Local randomizer",
    unit: "",
    #[cfg(feature = "prose")]
    help: "What the bounds may assume about the users' randomizer: the privacy blanket is tighter for k-ary randomized response, and the stronger clones (FMT23) hold only for it.",
    domain: options::<RandomizerKind>(),
    default: Value::Choice(0),
};
