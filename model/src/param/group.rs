//! The parameter groups: parameters declared together with the rules that say when each matters
//! ([`crate::params::Group`]).

use super::*;

/// The additive noise of a mechanism: Gaussian (σ) or Laplace (b); each size matters only for
/// its mechanism.
pub const NOISE: Group = Group {
    name: "noise",
    params: &[super::MECH.spec, SIGMA.spec, SCALE.spec],
    rules: NOISE_RULES,
};

const NOISE_RULES: &[Rule] = &[
    Rule {
        param: SIGMA.spec,
        when: MECH.spec,
        is: &["gaussian"],
    },
    Rule {
        param: SCALE.spec,
        when: MECH.spec,
        is: &["laplace"],
    },
];

/// A base mechanism and its parameter: the noise (σ or b) or randomized response's ε (and k for
/// the k-ary one).
pub const MECHANISM: Group = Group {
    name: "mechanism",
    params: &[super::MECH.spec, SIGMA.spec, SCALE.spec, EPS.spec, K.spec],
    rules: &[
        NOISE_RULES[0],
        NOISE_RULES[1],
        Rule {
            param: EPS.spec,
            when: MECH.spec,
            is: &["randomized-response", "kary-randomized-response"],
        },
        Rule {
            param: K.spec,
            when: MECH.spec,
            is: &["kary-randomized-response"],
        },
    ],
};

/// How a sample is drawn for amplification by subsampling: the rate p for Poisson sampling, the
/// sizes m and n for the fixed-size schemes.
pub const SUBSAMPLING: Group = Group {
    name: "subsampling",
    params: &[SCHEME.spec, P.spec, M.spec, N.spec],
    rules: &[
        Rule {
            param: P.spec,
            when: SCHEME.spec,
            is: &["poisson"],
        },
        Rule {
            param: M.spec,
            when: SCHEME.spec,
            is: &["without-replacement", "with-replacement"],
        },
        Rule {
            param: N.spec,
            when: SCHEME.spec,
            is: &["without-replacement", "with-replacement"],
        },
    ],
};

/// The size of the whole dataset under Poisson sampling, |x| (the subsampling page's sample
/// size readouts): the sample size is Bin(|x|, p). The fixed-size schemes use n instead.
pub const POISSON_SIZE: Group = Group {
    name: "poisson-size",
    params: &[SCHEME.spec, DATASET.spec],
    rules: &[Rule {
        param: DATASET.spec,
        when: SCHEME.spec,
        is: &["poisson"],
    }],
};

/// How records reach a mechanism under Rényi DP: the rate q for both schemes, and n (so that
/// m = q·n) without replacement only.
pub const RDP_SAMPLING: Group = Group {
    name: "rdp-sampling",
    params: &[SCHEME.spec, Q.spec, N.spec],
    rules: &[Rule {
        param: N.spec,
        when: SCHEME.spec,
        is: &["without-replacement"],
    }],
};

/// The attacker's view of a mechanism: the rate q samples the noise mechanisms only (randomized
/// response is accounted without sampling there).
pub const ATTACK_SAMPLING: Group = Group {
    name: "attack-sampling",
    params: &[super::MECH.spec, Q.spec, FPR.spec],
    rules: &[Rule {
        param: Q.spec,
        when: MECH.spec,
        is: &["gaussian", "laplace"],
    }],
};

/// A training run's length, in epochs or in steps.
pub const LENGTH: Group = Group {
    name: "length",
    params: &[super::LENGTH.spec, EPOCHS.spec, STEPS.spec],
    rules: &[
        Rule {
            param: EPOCHS.spec,
            when: super::LENGTH.spec,
            is: &["epochs"],
        },
        Rule {
            param: STEPS.spec,
            when: super::LENGTH.spec,
            is: &["steps"],
        },
    ],
};

/// A local randomizer of the shuffle model, and k for k-ary randomized response.
pub const RANDOMIZER: Group = Group {
    name: "randomizer",
    params: &[super::RANDOMIZER.spec, K.spec],
    rules: &[Rule {
        param: K.spec,
        when: super::RANDOMIZER.spec,
        is: &["k-rr"],
    }],
};

/// A hyperparameter search: the expected runs, their law, and the negative binomial's shape
/// (only for that law).
pub const TUNING: Group = Group {
    name: "tuning",
    params: &[TUNING_RUNS.spec, TUNING_LAW.spec, TUNING_SHAPE.spec],
    rules: &[Rule {
        param: TUNING_SHAPE.spec,
        when: TUNING_LAW.spec,
        is: &["negative-binomial"],
    }],
};

/// An audit plan: one run (canaries, guesses, right guesses) or many runs (counted errors),
/// with its confidence and target.
pub const AUDIT: Group = Group {
    name: "audit",
    params: &[
        AUDIT_MODE.spec,
        AUDIT_CANARIES.spec,
        AUDIT_GUESSES.spec,
        AUDIT_CORRECT.spec,
        AUDIT_TARGET.spec,
        AUDIT_FALSE_POSITIVES.spec,
        AUDIT_RUNS_WITHOUT.spec,
        AUDIT_FALSE_NEGATIVES.spec,
        AUDIT_RUNS_WITH.spec,
        AUDIT_THRESHOLDS.spec,
        AUDIT_CONFIDENCE.spec,
    ],
    rules: &[
        one_run(AUDIT_CANARIES.spec),
        one_run(AUDIT_GUESSES.spec),
        one_run(AUDIT_CORRECT.spec),
        one_run(AUDIT_TARGET.spec),
        many_runs(AUDIT_FALSE_POSITIVES.spec),
        many_runs(AUDIT_RUNS_WITHOUT.spec),
        many_runs(AUDIT_FALSE_NEGATIVES.spec),
        many_runs(AUDIT_RUNS_WITH.spec),
        many_runs(AUDIT_THRESHOLDS.spec),
    ],
};

const fn one_run(param: &'static ParamSpec) -> Rule {
    Rule {
        param,
        when: AUDIT_MODE.spec,
        is: &["one-run"],
    }
}

const fn many_runs(param: &'static ParamSpec) -> Rule {
    Rule {
        param,
        when: AUDIT_MODE.spec,
        is: &["many-runs"],
    }
}

/// The controls of phase `n` of a training run: shown while the run has at least n phases,
/// each size for its mechanism and the length in the unit chosen.
macro_rules! phase_group {
    ($name:literal, $from:expr, $batch:ident, $length:ident, $epochs:ident, $steps:ident,
     $batching:ident, $sigma:ident, $scale:ident) => {
        Group {
            name: $name,
            params: &[
                super::$batch.spec,
                super::$length.spec,
                super::$epochs.spec,
                super::$steps.spec,
                super::$batching.spec,
                super::$sigma.spec,
                super::$scale.spec,
            ],
            rules: &[
                Rule {
                    param: super::$batch.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$length.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$epochs.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$epochs.spec,
                    when: super::$length.spec,
                    is: &["epochs"],
                },
                Rule {
                    param: super::$steps.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$steps.spec,
                    when: super::$length.spec,
                    is: &["steps"],
                },
                Rule {
                    param: super::$batching.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$sigma.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$sigma.spec,
                    when: MECH.spec,
                    is: &["gaussian"],
                },
                Rule {
                    param: super::$scale.spec,
                    when: PHASES.spec,
                    is: $from,
                },
                Rule {
                    param: super::$scale.spec,
                    when: MECH.spec,
                    is: &["laplace"],
                },
            ],
        }
    };
}

/// Phase 2 of a training run.
pub const PHASE_2: Group = phase_group!(
    "phase-2",
    &["2", "3", "4"],
    BATCH_2,
    LENGTH_2,
    EPOCHS_2,
    STEPS_2,
    BATCHING_2,
    SIGMA_2,
    SCALE_2
);
/// Phase 3 of a training run.
pub const PHASE_3: Group = phase_group!(
    "phase-3",
    &["3", "4"],
    BATCH_3,
    LENGTH_3,
    EPOCHS_3,
    STEPS_3,
    BATCHING_3,
    SIGMA_3,
    SCALE_3
);
/// Phase 4 of a training run.
pub const PHASE_4: Group = phase_group!(
    "phase-4",
    &["4"],
    BATCH_4,
    LENGTH_4,
    EPOCHS_4,
    STEPS_4,
    BATCHING_4,
    SIGMA_4,
    SCALE_4
);

/// The batches of a run over many passes: the batch size matters unless every step uses
/// every record.
pub const PASS_BATCHES: Group = Group {
    name: "pass-batches",
    params: &[super::PASS_BATCHES.spec, PASS_BATCH.spec],
    rules: &[Rule {
        param: PASS_BATCH.spec,
        when: super::PASS_BATCHES.spec,
        is: &["cyclic", "poisson"],
    }],
};

/// Every group, for the relevance rules and the tests.
pub static GROUPS: &[&Group] = &[
    &PASS_BATCHES,
    &NOISE,
    &MECHANISM,
    &SUBSAMPLING,
    &POISSON_SIZE,
    &RDP_SAMPLING,
    &ATTACK_SAMPLING,
    &LENGTH,
    &RANDOMIZER,
    &TUNING,
    &AUDIT,
    &PHASE_2,
    &PHASE_3,
    &PHASE_4,
];
