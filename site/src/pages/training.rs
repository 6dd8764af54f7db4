//! `page=training`: tight (ε, δ) accounting of a DP-SGD run with privacy loss distributions, the
//! band the true value lies in, Rényi DP beside it, the noise for a target ε, and a copyable
//! statement (the machine-learning regime of Steinke, "Limits of privacy amplification by
//! subsampling"). Poisson sampling, add/remove one.
//!
//! Its numbers are worth refining: quick ones follow the controls ([`Precision::Quick`], a coarse
//! grid), refined ones arrive once they rest ([`Precision::Fine`]).

use amp_math::Relation;

use super::{
    BoundKind, Controls, Group, NoteKind, NoteSpec, PageSpec, Precision, Readings, ReadoutSpec,
    Section, Shown, Widget, Workbench,
};
use crate::figures::{FigureId, ModelError};
use crate::probe;
use amp_format::{group_digits, short_number};
use amp_model::batching;
use amp_model::param as p;
use amp_model::params;
use amp_model::params::{Batching, ChoiceEnum, ParamValues};
use amp_model::risk::{membership_sentence, Attack, Numbers};
use amp_model::training::{
    account, cached_band, phased_statement, setting, statement, warnings, Account, Training, FINE,
    QUICK,
};

mod libraries;
mod tuning;
pub use libraries::*;
pub use tuning::*;

/// Readout: the certified upper bound on ε at δ (pessimistic PLD).
pub const TIGHT: ReadoutSpec = ReadoutSpec {
    id: "tight-epsilon",
    label: "ε at δ, tight (certified upper bound)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on ε at δ (optimistic PLD).
pub const TIGHT_LOWER: ReadoutSpec = ReadoutSpec {
    id: "tight-epsilon-lower",
    label: "ε at δ, lower bound: the true ε is at least this",
    digits: 5,
    bound: BoundKind::Lower,
};
/// Readout: ε at δ from Rényi DP.
pub const RDP_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "rdp-epsilon",
    label: "ε at δ from Rényi DP",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the optimal Rényi order.
pub const RDP_ORDER: ReadoutSpec = ReadoutSpec {
    id: "rdp-order",
    label: "Optimal Rényi order α*",
    digits: 3,
    bound: BoundKind::Exact,
};
/// Readout: how loose Rényi DP is here.
pub const RDP_GAP: ReadoutSpec = ReadoutSpec {
    id: "rdp-gap",
    label: "RDP ε over the tight ε",
    digits: 4,
    bound: BoundKind::Estimate,
};
/// Readout: what the group-privacy lemma gives for one user from a record's ε.
pub const GROUP_LEMMA: ReadoutSpec = ReadoutSpec {
    id: "group-lemma-epsilon",
    label: "ε for one user by the group-privacy lemma (from one record's ε)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the ε an accountant reports if the micro-batch is taken for the batch.
pub const MICRO_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "micro-batch-epsilon",
    label:
        "ε if the micro-batch B were taken for the batch (what a misconfigured accountant reports)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// Readout: the chance that a step's Poisson batch is cut to the cap M.
pub const CAP_CUT: ReadoutSpec = ReadoutSpec {
    id: "cap-cut-probability",
    label: "Chance a step's batch is cut to the cap M",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the chance that an example is in a step's batch after the cap.
pub const CAP_RATE: ReadoutSpec = ReadoutSpec {
    id: "capped-rate",
    label: "Chance an example is in a step's batch, after the cap",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: the noise that meets the target ε.
pub const CALIBRATED: ReadoutSpec = ReadoutSpec {
    id: "calibrated-sigma",
    label: "Noise for the target ε (σ, or b for Laplace)",
    digits: 5,
    bound: BoundKind::Upper,
};
/// The PLD grid step the numbers were computed on (shown by the status line).
pub const GRID_STEP: ReadoutSpec = ReadoutSpec {
    id: "grid-step",
    label: "PLD grid step h",
    digits: 3,
    bound: BoundKind::Exact,
};
/// Readout: the certified upper bound on a membership attacker's TPR at the FPR.
pub const RUN_TPR: ReadoutSpec = ReadoutSpec {
    id: "run-tpr-at-fpr",
    label: "Attacker's TPR at FPR α (certified upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the certified upper bound on the attacker's advantage.
pub const RUN_ADVANTAGE: ReadoutSpec = ReadoutSpec {
    id: "run-advantage",
    label: "Attacker's advantage max(TPR − FPR) (upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the numeric Gaussian-DP μ of the run's certified trade-off curve (Gomez et al. 2025;
/// the risk page gives its regret and α_min beside it).
pub const RUN_GDP_MU: ReadoutSpec = ReadoutSpec {
    id: "run-gdp-mu",
    label: "Gaussian DP μ of the certified curve (error rates ≥ 1e-10)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the certified upper bound on the Bayes-optimal success.
pub const RUN_BAYES: ReadoutSpec = ReadoutSpec {
    id: "run-bayes-success",
    label: "Best chance of guessing membership right, prior π (upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: ε at δ of the run with Poisson sampling, on the zero-out relation (the same pair as
/// add/remove for this mechanism): what a Poisson accountant reports.
pub const EPS_POISSON: ReadoutSpec = ReadoutSpec {
    id: "epsilon-poisson",
    label: "Poisson sampling: ε at δ (what a Poisson accountant reports)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the certified upper bound on ε for shuffled fixed-size batches.
pub const EPS_SHUFFLE: ReadoutSpec = ReadoutSpec {
    id: "epsilon-shuffle",
    label: "Shuffled fixed-size batches: ε at δ, certified upper bound",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on ε for shuffled batches (reshuffled every epoch).
pub const EPS_SHUFFLE_LOWER: ReadoutSpec = ReadoutSpec {
    id: "epsilon-shuffle-lower",
    label: "Shuffled fixed-size batches: ε is at least",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the certified upper bound on ε for balls-in-bins batches.
pub const EPS_BNB: ReadoutSpec = ReadoutSpec {
    id: "epsilon-balls-in-bins",
    label: "Balls in bins: ε at δ, certified upper bound",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the lower bound on ε for balls-in-bins batches.
pub const EPS_BNB_LOWER: ReadoutSpec = ReadoutSpec {
    id: "epsilon-balls-in-bins-lower",
    label: "Balls in bins: ε is at least",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Readout: the certified ε with random allocation (each example in k of the run's T steps).
pub const EPS_ALLOC: ReadoutSpec = ReadoutSpec {
    id: "epsilon-allocation",
    label: "Random allocation, k of all T steps: ε at δ",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: a lower bound on the ε of random allocation.
pub const EPS_ALLOC_LOWER: ReadoutSpec = ReadoutSpec {
    id: "epsilon-allocation-lower",
    label: "Random allocation: ε is at least",
    digits: 4,
    bound: BoundKind::Lower,
};
/// Sentence: how the samplers see the run (steps per epoch, epochs, the relation).
pub const SAMPLERS: NoteSpec = NoteSpec {
    id: "batching-shape",
    kind: NoteKind::Small,
};

/// Sentence: what the run means for a membership attacker.
pub const RUN_ATTACK: NoteSpec = NoteSpec {
    id: "run-attack",
    kind: NoteKind::Small,
};

mod samplers;
pub use samplers::*;
/// Sentence: the run's rate, steps and epochs.
pub const RUN_SHAPE: NoteSpec = NoteSpec {
    id: "run-shape",
    kind: NoteKind::Small,
};
/// Sentences: what the numbers do not cover (one per line).
pub const WARNINGS: NoteSpec = NoteSpec {
    id: "training-warning",
    kind: NoteKind::Warning,
};
/// The plain-language statement of the run (shown by [`Widget::Statement`]).
pub const STATEMENT: NoteSpec = NoteSpec {
    id: "privacy-statement",
    kind: NoteKind::Small,
};

/// The declaration.
pub static SPEC: PageSpec = PageSpec {
    id: "training",
    nav: "Training",
    heading: "Training with DP-SGD: the tight number",
    lede: super::Prose("training-lede"),
    sections: &[
        Section::Workbench(Workbench {
            label: "Your training run",
            controls: &[
                Controls {
                    notes: &[&RUN_SHAPE],
                    widget: Some(Widget::Phases),
                    ..Controls::new(
                        "Your run",
                        params![
                            &[p::DATASET.spec, p::BATCH.spec, p::ACCUMULATION.spec],
                            p::group::LENGTH.params,
                            &[
                                p::BATCHING.spec,
                                p::PHASES.spec,
                                p::RECORDS.spec,
                                p::MAX_BATCH.spec,
                                p::BANDS.spec
                            ]
                        ],
                    )
                },
                Controls::new(
                    "Noise and target",
                    params![p::group::NOISE.params, &[p::DELTA.spec, p::TARGET_EPS.spec]],
                ),
                Controls::new("Phase 2", p::group::PHASE_2.params),
                Controls::new("Phase 3", p::group::PHASE_3.params),
                Controls::new("Phase 4", p::group::PHASE_4.params),
                Controls {
                    remark: Some(
                        "A search that trains several times and keeps the best model: its \
                         number of runs must be random for the bound below.",
                    ),
                    ..Controls::new("Hyperparameter tuning", p::group::TUNING.params)
                },
                Controls {
                    remark: Some(
                        "What the run means for someone testing whether one example was in it; \
                         the attack-risk page draws the whole trade-off.",
                    ),
                    ..Controls::new("The attacker", &[p::FPR.spec, p::PRIOR.spec])
                },
            ],
            results_title: Some("Privacy of the run"),
            groups: &[
                Group {
                    notes_before: &[&WARNINGS],
                    widget: Some(Widget::AccountingStatus),
                    shown_when: &[
                        Shown {
                            readout: &GROUP_LEMMA,
                            when: |v| v.count(p::RECORDS) > 1,
                        },
                        Shown {
                            readout: &MICRO_EPSILON,
                            when: |v| v.count(p::ACCUMULATION) > 1,
                        },
                        Shown {
                            readout: &CAP_CUT,
                            when: capped,
                        },
                        Shown {
                            readout: &CAP_RATE,
                            when: capped,
                        },
                    ],
                    ..Group::numbers(&[
                        &TIGHT,
                        &TIGHT_LOWER,
                        &RDP_EPSILON,
                        &RDP_ORDER,
                        &RDP_GAP,
                        &CALIBRATED,
                        &GROUP_LEMMA,
                        &MICRO_EPSILON,
                        &CAP_CUT,
                        &CAP_RATE,
                    ])
                },
                Group {
                    heading: Some("How batches are formed"),
                    notes_after: &[&SAMPLERS],
                    ..Group::numbers(&[
                        &EPS_POISSON,
                        &EPS_SHUFFLE,
                        &EPS_SHUFFLE_LOWER,
                        &EPS_BNB,
                        &EPS_BNB_LOWER,
                        &EPS_ALLOC,
                        &EPS_ALLOC_LOWER,
                    ])
                },
                Group {
                    heading: Some("Hyperparameter tuning"),
                    shown_when: &[
                        Shown {
                            readout: &TUNED_EPSILON,
                            when: searched,
                        },
                        Shown {
                            readout: &TUNED_COMPOSED,
                            when: searched,
                        },
                        Shown {
                            readout: &TUNED_TPR,
                            when: searched,
                        },
                    ],
                    notes_after: &[&TUNING_WARNING],
                    ..Group::numbers(&[&TUNED_EPSILON, &TUNED_COMPOSED, &TUNED_TPR])
                },
                Group {
                    heading: Some("What each library reports"),
                    notes_after: &[&LIBRARY_CAUSES],
                    ..Group::numbers(&[
                        &LIB_OPACUS_PRV,
                        &LIB_OPACUS_RDP,
                        &LIB_OPACUS_GDP,
                        &LIB_DPACC_RDP,
                        &LIB_DPACC_PLD,
                        &LIB_TF_PRIVACY,
                    ])
                },
                Group {
                    heading: Some("What an attacker can do"),
                    notes_after: &[&RUN_ATTACK],
                    ..Group::numbers(&[&RUN_TPR, &RUN_ADVANTAGE, &RUN_BAYES, &RUN_GDP_MU])
                },
                Group {
                    widget: Some(Widget::Statement),
                    ..Group::numbers(&[])
                },
            ],
        }),
        Section::Prose(super::Prose("training-intro")),
        Section::Figures {
            label: "Your run",
            figures: &[
                FigureId::EpsilonVsEpochs,
                FigureId::PrivacyProfile,
                FigureId::PrivacyLossDistribution,
            ],
        },
        Section::Prose(super::Prose("training-noise")),
        Section::Figures {
            label: "Noise",
            figures: &[FigureId::NoiseForTarget, FigureId::GaussianNoiseRatio],
        },
        Section::Prose(super::Prose("training-sampling")),
        Section::Figures {
            label: "How batches are formed",
            figures: &[FigureId::BatchingComparison, FigureId::BatchingNoise],
        },
        Section::Prose(super::Prose("training-accumulation")),
        Section::Prose(super::Prose("training-capped")),
        Section::Figures {
            label: "Capped batches",
            figures: &[FigureId::CappedBatches],
        },
        Section::Prose(super::Prose("training-banded")),
        Section::Figures {
            label: "Correlated noise",
            figures: &[FigureId::BandedNoise],
        },
        Section::Prose(super::Prose("training-users")),
        Section::Prose(super::Prose("training-libraries")),
        Section::Prose(super::Prose("training-tuning")),
        Section::Figures {
            label: "Hyperparameter tuning",
            figures: &[FigureId::TuningCost],
        },
    ],
    readouts: crate::heavy::readouts(readouts),
    refines: true,
    quick_off_thread: false,
};

/// Whether the run's batches are capped (the cap's readouts apply).
fn capped(v: &ParamValues) -> bool {
    v.count(p::MAX_BATCH) > 0 || v.choice(p::BATCHING) == Batching::TruncatedPoisson
}

/// Whether the run is one of a hyperparameter search (the tuning readouts apply).
fn searched(v: &ParamValues) -> bool {
    v.real(p::TUNING_RUNS) > 1.0
}

/// [`account`] at the precision, measured for the benchmark: `pld:quick` / `pld:fine` (the two
/// composed PLDs alone) and `account:quick` / `account:fine` (every number, calibration included).
fn measured(v: &ParamValues, precision: Precision) -> Result<Account, ModelError> {
    let (fine, tag) = match precision {
        Precision::Quick => (false, "quick"),
        Precision::Fine => (true, "fine"),
    };
    probe::span(&format!("account:{tag}"), || {
        if let Ok(t) = setting(v) {
            // The band alone, cached for `account` (which reads it back).
            let _ = probe::span(&format!("pld:{tag}"), || {
                cached_band(&t, if fine { FINE } else { QUICK })
            });
        }
        account(v, fine)
    })
}

/// What the run amounts to: its rate, steps and epochs (each phase's, when it has several).
fn run_shape(t: &Training) -> String {
    if t.bands > 1 {
        let (n, steps) = t.reader;
        return format!(
            "b = {} bands: {0} groups of about {} examples used in turn, each step sampling its \
             group at rate q = b·B/|x| = {}; an example takes part in at most ⌈T/b⌉ = {} of the \
             T = {} steps ({} epochs).",
            group_digits(t.bands),
            group_digits(n / t.bands),
            short_number(t.q, 4),
            group_digits(t.steps),
            group_digits(steps),
            short_number(t.epochs(), 4)
        );
    }
    if t.accumulation > 1 && !t.is_phased() {
        return format!(
            "effective batch A·B = {}; q = A·B/|x| = {}; k = {} noisy steps ({} epochs).",
            group_digits(t.batch),
            short_number(t.q, 4),
            t.steps,
            short_number(t.epochs(), 4)
        );
    }
    if !t.is_phased() {
        return format!(
            "q = B/|x| = {}; k = {} steps ({} epochs).",
            short_number(t.q, 4),
            t.steps,
            short_number(t.epochs(), 4)
        );
    }
    let phases: Vec<String> = t
        .phases()
        .iter()
        .enumerate()
        .map(|(i, ph)| {
            format!(
                "phase {}: q = {}, k = {} ({} epochs)",
                i + 1,
                short_number(ph.q, 4),
                ph.steps,
                short_number(ph.epochs(), 4)
            )
        })
        .collect();
    format!("{}; {} steps in all.", phases.join("; "), t.total_steps())
}

/// Every number of the page: DP-SGD with Poisson-sampled batches, add/remove one; the other
/// samplers on the zero-out relation; a run of phases composed.
pub fn readouts(v: &ParamValues, precision: Precision) -> Readings {
    let run = setting(v);
    let rel: Relation = run.as_ref().map_or(Relation::AddRemove, Training::relation);
    let acc = measured(v, precision);
    let mut r = Readings::default();
    push_account(&mut r, &acc, rel);
    let shape = match &run {
        Ok(t) => run_shape(t),
        Err(e) => e.to_string(),
    };
    r.note(&RUN_SHAPE, Some(shape));
    let warned = run.as_ref().map(warnings).unwrap_or_default();
    r.note(&WARNINGS, (!warned.is_empty()).then(|| warned.join("\n")));
    // The three samplers on the zero-out relation (every phase formed the same way).
    let quick = precision == Precision::Quick;
    let log_step = if quick {
        batching::QUICK_LOG_STEP
    } else {
        batching::FINE_LOG_STEP
    };
    let buckets = if quick { QUICK } else { FINE };
    let sampler = |b: Batching| {
        run.as_ref().map_err(Clone::clone).and_then(|t| {
            probe::span(&format!("batching:{}", b.id()), || {
                batching::band_for(b, t, buckets, log_step, quick)
            })
        })
    };
    let bands = Samplers {
        poisson: sampler(Batching::Poisson),
        shuffle: sampler(Batching::Shuffle),
        balls: sampler(Batching::BallsInBins),
        allocation: sampler(Batching::Allocation),
    };
    push_samplers(&mut r, &run, rel, &bands);
    r.note(&SAMPLERS, run.as_ref().ok().map(samplers_sentence));
    // Capped Poisson batches are Poisson batches with the cap the run carries.
    let chosen = match v.choice(p::BATCHING) {
        Batching::TruncatedPoisson => Batching::Poisson,
        b => b,
    };
    let phased = run.as_ref().is_ok_and(Training::is_phased);
    let text = match (&run, &acc, chosen) {
        (Ok(t), _, _) if phased => batching::own_band(t, buckets, log_step, quick)
            .ok()
            .map(|(b, rel, step)| phased_statement(t, b.upper, b.lower, step, rel)),
        (Ok(t), Ok(a), Batching::Poisson) => Some(statement(t, a)),
        (Ok(t), _, b) => {
            let band = match b {
                Batching::Shuffle => &bands.shuffle,
                Batching::Allocation => &bands.allocation,
                _ => &bands.balls,
            };
            band.as_ref()
                .ok()
                .and_then(|band| batching::statement(t, b, band, log_step).ok())
        }
        _ => None,
    };
    // The membership attacker against the loop as its phases form batches, from the same
    // composed PLDs as its ε.
    let attack = run.as_ref().map_err(Clone::clone).and_then(|t| {
        let sampler = (!phased).then_some(chosen);
        let (step, upper, lower) = probe::span("batching:attack", || {
            batching::attack_pairs(sampler, t, buckets, log_step, quick)
        })?;
        let a = Attack::new(step, upper, lower)?;
        let mu = amp_math::risk::gdp_fit(&a.upper).map(|f| f.mu);
        Ok((a.numbers(v.real(p::FPR), v.real(p::PRIOR))?, mu))
    });
    let gdp_mu = attack
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|(_, mu)| mu.clone().map_err(ModelError::from));
    let attack = attack.map(|(n, _)| n);
    let part = |f: fn(&Numbers) -> f64| attack.as_ref().map(f).map_err(|e| e.clone());
    const Z: Relation = batching::RELATION;
    let attacked = match &run {
        Ok(t) if phased => t.event(None).relation().unwrap_or(Z),
        _ if chosen == Batching::Poisson => rel,
        _ => Z,
    };
    r.push(&RUN_TPR, part(|n| n.tpr.0), attacked);
    r.push(&RUN_ADVANTAGE, part(|n| n.advantage.0), attacked);
    r.push(&RUN_BAYES, part(|n| n.bayes.0), attacked);
    r.push(&RUN_GDP_MU, gdp_mu, attacked);
    r.note(
        &RUN_ATTACK,
        attack
            .as_ref()
            .ok()
            .map(|n| membership_sentence(v.real(p::FPR), n.tpr)),
    );
    let text = text.map(|s| match &attack {
        Ok(n) => format!("{s} {}", membership_sentence(v.real(p::FPR), n.tpr)),
        Err(_) => s,
    });
    push_libraries(&mut r, v, &run, buckets, &bands);
    let search = push_tuning(&mut r, v, &run, buckets, rel);
    let text = text.map(|s| match search {
        Some(words) => format!("{s} {words}"),
        None => s,
    });
    r.note(&STATEMENT, text);
    r
}
