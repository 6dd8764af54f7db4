//! Parameter declarations. The attack-risk page: the attacker's operating point, tuning and audits.
//! Each handle, with its doc comment, is in [`super`]; the bodies are here.

use super::*;

pub(super) const FPR: ParamSpec = ParamSpec {
    aliases: &[],
    name: "fpr",
    symbol: "α",
    label: "False-positive rate α",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The share of non-members the attacker wrongly calls members; the attacker's TPR is read there.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1.0,
        max_open: false,
        scale: Scale::Log,
        slider: (1e-5, 0.5),
    },
    default: Value::Real(0.01),
};

pub(super) const PRIOR: ParamSpec = ParamSpec {
    aliases: &[],
    name: "prior",
    symbol: "π",
    label: "Prior of membership π",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How likely the attacker thinks it is, before seeing the output, that the record is in the data.",
    domain: Domain::Real {
        min: 1e-6,
        max: 1.0,
        max_open: true,
        scale: Scale::Linear,
        slider: (0.01, 0.99),
    },
    default: Value::Real(0.5),
};

pub(super) const TARGET_TPR: ParamSpec = ParamSpec {
    aliases: &[],
    name: "target-tpr",
    symbol: "TPR",
    label: "Target: attacker's TPR at most",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The largest share of members an attacker may catch at the false-positive rate α; the noise is calibrated to it.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1.0,
        max_open: true,
        scale: Scale::Log,
        slider: (1e-4, 0.99),
    },
    default: Value::Real(0.05),
};

pub(super) const TARGET_ADVANTAGE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "target-advantage",
    symbol: "TPR − FPR",
    label: "Target: attacker's advantage at most",
    unit: "",
    #[cfg(feature = "prose")]
    help:
        "The largest advantage max(TPR − FPR) any attacker may have; the noise is calibrated to it.",
    domain: Domain::Real {
        min: 1e-9,
        max: 1.0,
        max_open: true,
        scale: Scale::Log,
        slider: (1e-4, 0.99),
    },
    default: Value::Real(0.1),
};

pub(super) const TRADEOFF_VIEW: ParamSpec = ParamSpec {
    aliases: &[],
    name: "view",
    symbol: "view",
    label: "Trade-off curve drawn as",
    unit: "",
    #[cfg(feature = "prose")]
    help: "β against α on linear axes, or TPR against FPR on log axes (the view of membership-inference papers).",
    domain: options::<TradeoffView>(),
    default: Value::Choice(0),
};

pub(super) const TUNING_RUNS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "tuning-runs",
    symbol: "E[K]",
    label: "Tuning: expected runs E[K] (1: one run)",
    unit: "",
    #[cfg(feature = "prose")]
    help: "A hyperparameter search trains K times, K drawn at random with this mean, and releases only the best run. 1 means a single run, no search.",
    domain: Domain::Real {
        min: 1.0,
        max: 1e6,
        max_open: false,
        scale: Scale::Log,
        slider: (1.0, 1000.0),
    },
    default: Value::Real(1.0),
};

pub(super) const TUNING_LAW: ParamSpec = ParamSpec {
    aliases: &[],
    name: "tuning-law",
    symbol: "K",
    label: "Tuning: law of the number of runs K",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How the number of runs is drawn. The bound needs it random: for a fixed number of runs, only composing them is known to bound the best one released. Geometric: after each run, stop with a fixed chance.",
    domain: options::<TuningLaw>(),
    default: Value::Choice(0),
};

pub(super) const TUNING_SHAPE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "tuning-shape",
    symbol: "η",
    label: "Tuning: shape η of the negative binomial",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Above −1; 0 is the logarithmic law and 1 the geometric. Smaller η costs less privacy but gives K a heavier tail.",
    domain: Domain::Real {
        min: -0.99,
        max: 100.0,
        max_open: false,
        scale: Scale::Linear,
        slider: (-0.9, 5.0),
    },
    default: Value::Real(0.5),
};

pub(super) const AUDIT_MODE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-mode",
    symbol: "audit",
    label: "Audit: kind",
    unit: "",
    #[cfg(feature = "prose")]
    help: "One run: m canaries in one training run, each included with probability ½, the auditor guessing which. Many runs: the classic audit, training many times with and without one canary and counting the test's errors.",
    domain: options::<AuditMode>(),
    default: Value::Choice(0),
};

pub(super) const AUDIT_CANARIES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-canaries",
    symbol: "m",
    label: "Audit: canaries m",
    unit: "",
    #[cfg(feature = "prose")]
    help:
        "Examples planted in the one training run, each included independently with probability ½.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (10, 10000000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const AUDIT_GUESSES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-guesses",
    symbol: "r",
    label: "Audit: guesses r",
    unit: "",
    #[cfg(feature = "prose")]
    help:
        "How many canaries the auditor guesses in or out for (abstaining on the rest); at most m.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 10000000),
        odd: false,
    },
    default: Value::Count(100),
};

pub(super) const AUDIT_CORRECT: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-correct",
    symbol: "v",
    label: "Audit: right guesses v",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How many of the r guesses were right; at most r.",
    domain: Domain::Count {
        min: 0,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 10000000),
        odd: false,
    },
    default: Value::Count(55),
};

pub(super) const AUDIT_CONFIDENCE: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-confidence",
    symbol: "c",
    label: "Audit: confidence c",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The chance that the certified lower bound is not above the true ε (0.95: wrong at most one time in twenty).",
    domain: Domain::Real {
        min: 0.5,
        max: 0.999999,
        max_open: false,
        scale: Scale::Linear,
        slider: (0.5, 0.999),
    },
    default: Value::Real(0.95),
};

pub(super) const AUDIT_TARGET: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-target",
    symbol: "ε̂",
    label: "Audit: ε to certify",
    unit: "",
    #[cfg(feature = "prose")]
    help: "The lower bound the audit should prove; the planner gives the guesses, all right, that prove it.",
    domain: Domain::Real {
        min: 0.01,
        max: 50.0,
        max_open: false,
        scale: Scale::Log,
        slider: (0.05, 20.0),
    },
    default: Value::Real(1.0),
};

pub(super) const AUDIT_FALSE_POSITIVES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-false-positives",
    symbol: "FP",
    label: "Audit: false positives",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Runs without the canary in which the test said it was in.",
    domain: Domain::Count {
        min: 0,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 100000),
        odd: false,
    },
    default: Value::Count(10),
};

pub(super) const AUDIT_RUNS_WITHOUT: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-runs-without",
    symbol: "n₀",
    label: "Audit: runs without the canary",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Training runs without the canary.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (10, 1000000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const AUDIT_FALSE_NEGATIVES: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-false-negatives",
    symbol: "FN",
    label: "Audit: false negatives",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Runs with the canary in which the test said it was out.",
    domain: Domain::Count {
        min: 0,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (1, 100000),
        odd: false,
    },
    default: Value::Count(100),
};

pub(super) const AUDIT_RUNS_WITH: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-runs-with",
    symbol: "n₁",
    label: "Audit: runs with the canary",
    unit: "",
    #[cfg(feature = "prose")]
    help: "Training runs with the canary.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000_000,
        scale: Scale::Log,
        slider: (10, 1000000),
        odd: false,
    },
    default: Value::Count(1000),
};

pub(super) const AUDIT_THRESHOLDS: ParamSpec = ParamSpec {
    aliases: &[],
    name: "audit-thresholds",
    symbol: "t",
    label: "Audit: thresholds tried",
    unit: "",
    #[cfg(feature = "prose")]
    help: "How many thresholds of the test were tried before keeping the best; the confidence is split over them.",
    domain: Domain::Count {
        min: 1,
        max: 1_000_000,
        scale: Scale::Log,
        slider: (1, 1000),
        odd: false,
    },
    default: Value::Count(1),
};
