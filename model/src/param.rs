//! Every parameter of the app, declared once: URL name (also the CLI flag), symbol, label, unit,
//! help, domain and default. Pages, figures and the math bindings name a parameter by its handle
//! here (`param::EPS`, a [`Real`]; `param::MECH`, a [`Pick<Mechanism>`]); a misspelt handle does
//! not compile. Sliders, number fields, the URL codec, validation messages and the CLI's flags
//! are derived from [`PARAMS`].

use amp_math::iteration::many_passes::Batches;
use amp_math::median_sim::Population;
use amp_math::rdp::{Bound, Conversion};
use amp_math::subsampling::Scheme;

use crate::params::AuditMode;
use crate::params::{
    Batching, ChoiceEnum, Count, Domain, EstimatesPopulation, Group, Length, Mechanism, NameMap,
    Noise, ParamSpec, ParamValues, PhaseCount, Pick, RandomizerKind, Real, Rule, Scale, ShowNaive,
    TradeoffView, TuningLaw, Value,
};
use std::marker::PhantomData;

mod accuracy;
mod basics;
pub mod group;
mod iteration;
mod noise;
mod risk;
mod shuffle;
mod training;

/// Declares each parameter's handle and the list of all of them, from one list of
/// `NAME: Kind = ParamSpec { … };` entries.
macro_rules! declare_params {
    ($( $(#[$doc:meta])* $konst:ident : $kind:ident $(<$opt:ty>)? = $spec:expr ; )+) => {
        /// One static per declaration, so that every handle (in any crate) points at the same one.
        mod specs {
            use super::*;
            $( pub static $konst: ParamSpec = $spec; )+
        }

        $( $(#[$doc])* pub const $konst: $kind $(<$opt>)? = declare_params!(@make $kind $(<$opt>)?, specs::$konst); )+

        /// Every parameter of the app, in declaration order.
        pub static PARAMS: &[&ParamSpec] = &[$( &specs::$konst ),+];

        /// Each declared handle's name and, for a choice, the options of its enum (for the test
        /// that every declaration resolves and agrees with its enum).
        pub fn declared() -> Vec<(&'static ParamSpec, Option<&'static [crate::params::Choice]>)> {
            use crate::params::Param;
            vec![$( ($konst.spec(), $konst.enum_choices()) ),+]
        }
    };
    (@make Real, $spec:path) => { Real { spec: &$spec } };
    (@make Count, $spec:path) => { Count { spec: &$spec } };
    (@make Pick<$opt:ty>, $spec:path) => { Pick { spec: &$spec, options: PhantomData } };
}

/// The option list of a choice parameter's domain.
const fn options<T: ChoiceEnum>() -> Domain {
    Domain::Choice(T::CHOICES)
}

declare_params! {
    /// Privacy parameter ε (`eps`).
    EPS: Real = basics::EPS;

    /// Failure probability δ (`delta`).
    DELTA: Real = basics::DELTA;

    /// Sampling rate p (`p`).
    P: Real = basics::P;

    /// Sample size m (`m`).
    M: Count = basics::M;

    /// Dataset size n (`n`).
    N: Count = basics::N;

    /// Sampling scheme (`scheme`).
    SCHEME: Pick<Scheme> = basics::SCHEME;

    /// Ratio c = ε/p (`c`).
    C: Real = basics::C;

    /// Dataset size |x| (`dataset`).
    DATASET: Count = training::DATASET;

    /// Batch size B (`batch`).
    BATCH: Count = training::BATCH;

    /// Epochs (`epochs`).
    EPOCHS: Real = training::EPOCHS;

    /// Steps k (`steps`).
    STEPS: Count = training::STEPS;

    /// Records per user R (`records-per-user`): user-level accounting.
    RECORDS: Count = training::RECORDS;

    /// Maximum batch size M (`max-batch`): Poisson batches capped for memory (0: no cap).
    MAX_BATCH: Count = training::MAX_BATCH;

    /// Gradient accumulation steps A (`accumulation-steps`): B is then a micro-batch.
    ACCUMULATION: Count = training::ACCUMULATION;

    /// Bands b (`bands`): banded matrix factorisation (correlated noise over b steps; 1 = DP-SGD).
    BANDS: Count = training::BANDS;

    /// Participations k (`participations`): random allocation uses each example in exactly k steps.
    PARTICIPATIONS: Count = training::PARTICIPATIONS;

    /// Overall budget ε* (`total-eps`).
    TOTAL_EPS: Real = basics::TOTAL_EPS;

    /// Sampling rate n/N (`rate`).
    RATE: Real = accuracy::RATE;

    /// Target variance fraction q (`target-q`).
    TARGET_Q: Real = accuracy::TARGET_Q;

    /// Population size N (`N`).
    POPULATION_SIZE: Count = accuracy::POPULATION_SIZE;

    /// Range R of the values (`range`).
    RANGE: Real = accuracy::RANGE;

    /// Population variance S²_N (`pop-variance`).
    POP_VARIANCE: Real = accuracy::POP_VARIANCE;

    /// Simulated population (`population`).
    POPULATION: Pick<Population> = accuracy::POPULATION;

    /// The population of the paper's Figures 1 and 2 (`estimates-population`): the
    /// `private-estimates` figure's own, because the paper draws those figures from Beta(2, 10) and
    /// its simulation (the page's other figures, `population`) from the log-normal.
    ESTIMATES_POPULATION: Pick<EstimatesPopulation> = accuracy::ESTIMATES_POPULATION;

    /// Simulation runs T (`runs`).
    RUNS: Count = accuracy::RUNS;

    /// Random seed (`seed`).
    SEED: Count = accuracy::SEED;

    /// Also draw the naive formula (`naive`).
    NAIVE: Pick<ShowNaive> = accuracy::NAIVE;

    /// The noise drawn in the "why" figures (`noise`).
    NOISE: Pick<Noise> = noise::NOISE;

    /// Base mechanism (`mech`).
    MECH: Pick<Mechanism> = noise::MECH;

    /// The attacker's false-positive rate α (`fpr`).
    FPR: Real = risk::FPR;

    /// Prior probability of membership π (`prior`).
    PRIOR: Real = risk::PRIOR;

    /// The attacker's target TPR (`target-tpr`).
    TARGET_TPR: Real = risk::TARGET_TPR;

    /// The attacker's target advantage (`target-advantage`).
    TARGET_ADVANTAGE: Real = risk::TARGET_ADVANTAGE;

    /// How the trade-off curve is drawn (`view`).
    TRADEOFF_VIEW: Pick<TradeoffView> = risk::TRADEOFF_VIEW;

    /// Noise multiplier σ (`sigma`).
    SIGMA: Real = noise::SIGMA;

    /// Laplace scale b (`scale`).
    SCALE: Real = noise::SCALE;

    /// Categories k (`k`).
    K: Count = noise::K;

    /// Sampling rate q (`q`).
    Q: Real = noise::Q;

    /// Rényi order α (`alpha`).
    ALPHA: Real = noise::ALPHA;

    /// Curve (`bound`).
    BOUND: Pick<Bound> = noise::BOUND;

    /// RDP to (ε, δ) conversion (`conversion`).
    CONVERSION: Pick<Conversion> = noise::CONVERSION;

    /// Target ε (`target-eps`).
    TARGET_EPS: Real = training::TARGET_EPS;

    /// Expected number of training runs of a hyperparameter search that releases its best
    /// (`tuning-runs`; 1: no tuning).
    TUNING_RUNS: Real = risk::TUNING_RUNS;

    /// The law of the number of tuning runs K (`tuning-law`).
    TUNING_LAW: Pick<TuningLaw> = risk::TUNING_LAW;

    /// The shape η of the truncated negative binomial law of K (`tuning-shape`).
    TUNING_SHAPE: Real = risk::TUNING_SHAPE;

    /// The kind of audit (`audit-mode`).
    AUDIT_MODE: Pick<AuditMode> = risk::AUDIT_MODE;

    /// Audit: canaries m (`audit-canaries`).
    AUDIT_CANARIES: Count = risk::AUDIT_CANARIES;

    /// Audit: guesses r (`audit-guesses`).
    AUDIT_GUESSES: Count = risk::AUDIT_GUESSES;

    /// Audit: right guesses v (`audit-correct`).
    AUDIT_CORRECT: Count = risk::AUDIT_CORRECT;

    /// The audit's confidence (`audit-confidence`).
    AUDIT_CONFIDENCE: Real = risk::AUDIT_CONFIDENCE;

    /// The ε an audit should certify, for the guesses it needs (`audit-target`).
    AUDIT_TARGET: Real = risk::AUDIT_TARGET;

    /// Audit: false positives (`audit-false-positives`).
    AUDIT_FALSE_POSITIVES: Count = risk::AUDIT_FALSE_POSITIVES;

    /// Audit: runs without the canary (`audit-runs-without`).
    AUDIT_RUNS_WITHOUT: Count = risk::AUDIT_RUNS_WITHOUT;

    /// Audit: false negatives (`audit-false-negatives`).
    AUDIT_FALSE_NEGATIVES: Count = risk::AUDIT_FALSE_NEGATIVES;

    /// Audit: runs with the canary (`audit-runs-with`).
    AUDIT_RUNS_WITH: Count = risk::AUDIT_RUNS_WITH;

    /// Audit: thresholds tried (`audit-thresholds`).
    AUDIT_THRESHOLDS: Count = risk::AUDIT_THRESHOLDS;

    /// Length of training given (`length`).
    LENGTH: Pick<Length> = training::LENGTH;

    /// How batches are formed (`batching`).
    BATCHING: Pick<Batching> = training::BATCHING;

    /// How many phases the training run has (`phases`): the first is described by the run's own
    /// controls, each later one by its own batch size, length, sampler and noise.
    PHASES: Pick<PhaseCount> = training::PHASES;

    /// Phase 2's batch size (`batch-2`).
    BATCH_2: Count = BATCH.for_phase("batch-2", "B₂", "Batch size B, phase 2");
    /// Phase 2's length given in (`length-2`).
    LENGTH_2: Pick<Length> = LENGTH.for_phase("length-2", "length₂", "Length of phase 2 given");
    /// Phase 2's epochs (`epochs-2`).
    EPOCHS_2: Real = EPOCHS.for_phase("epochs-2", "epochs₂", "Epochs, phase 2");
    /// Phase 2's steps (`steps-2`).
    STEPS_2: Count = STEPS.for_phase("steps-2", "k₂", "Steps k, phase 2");
    /// How phase 2 forms its batches (`batching-2`).
    BATCHING_2: Pick<Batching> = BATCHING.for_phase("batching-2", "batching₂", "How batches are formed, phase 2");
    /// Phase 2's noise multiplier (`sigma-2`).
    SIGMA_2: Real = SIGMA.for_phase("sigma-2", "σ₂", "Noise multiplier σ, phase 2");
    /// Phase 2's Laplace scale (`scale-2`).
    SCALE_2: Real = SCALE.for_phase("scale-2", "b₂", "Laplace scale b, phase 2");

    /// Phase 3's batch size (`batch-3`).
    BATCH_3: Count = BATCH.for_phase("batch-3", "B₃", "Batch size B, phase 3");
    /// Phase 3's length given in (`length-3`).
    LENGTH_3: Pick<Length> = LENGTH.for_phase("length-3", "length₃", "Length of phase 3 given");
    /// Phase 3's epochs (`epochs-3`).
    EPOCHS_3: Real = EPOCHS.for_phase("epochs-3", "epochs₃", "Epochs, phase 3");
    /// Phase 3's steps (`steps-3`).
    STEPS_3: Count = STEPS.for_phase("steps-3", "k₃", "Steps k, phase 3");
    /// How phase 3 forms its batches (`batching-3`).
    BATCHING_3: Pick<Batching> = BATCHING.for_phase("batching-3", "batching₃", "How batches are formed, phase 3");
    /// Phase 3's noise multiplier (`sigma-3`).
    SIGMA_3: Real = SIGMA.for_phase("sigma-3", "σ₃", "Noise multiplier σ, phase 3");
    /// Phase 3's Laplace scale (`scale-3`).
    SCALE_3: Real = SCALE.for_phase("scale-3", "b₃", "Laplace scale b, phase 3");

    /// Phase 4's batch size (`batch-4`).
    BATCH_4: Count = BATCH.for_phase("batch-4", "B₄", "Batch size B, phase 4");
    /// Phase 4's length given in (`length-4`).
    LENGTH_4: Pick<Length> = LENGTH.for_phase("length-4", "length₄", "Length of phase 4 given");
    /// Phase 4's epochs (`epochs-4`).
    EPOCHS_4: Real = EPOCHS.for_phase("epochs-4", "epochs₄", "Epochs, phase 4");
    /// Phase 4's steps (`steps-4`).
    STEPS_4: Count = STEPS.for_phase("steps-4", "k₄", "Steps k, phase 4");
    /// How phase 4 forms its batches (`batching-4`).
    BATCHING_4: Pick<Batching> = BATCHING.for_phase("batching-4", "batching₄", "How batches are formed, phase 4");
    /// Phase 4's noise multiplier (`sigma-4`).
    SIGMA_4: Real = SIGMA.for_phase("sigma-4", "σ₄", "Noise multiplier σ, phase 4");
    /// Phase 4's Laplace scale (`scale-4`).
    SCALE_4: Real = SCALE.for_phase("scale-4", "b₄", "Laplace scale b, phase 4");

    /// Local privacy ε₀ (`eps0`).
    EPS0: Real = shuffle::EPS0;

    /// Users n (`users`).
    USERS: Count = shuffle::USERS;

    /// Rounds R of the shuffle model (`rounds`).
    ROUNDS: Count = shuffle::ROUNDS;

    /// Local randomizer (`randomizer`).
    RANDOMIZER: Pick<RandomizerKind> = shuffle::RANDOMIZER;

    /// Steps T (`iterations`).
    ITERATIONS: Count = iteration::ITERATIONS;

    /// Records averaged in one step of the one-pass run, b (`step-batch`).
    STEP_BATCH: Count = iteration::STEP_BATCH;

    /// Step size η (`step-size`).
    STEP_SIZE: Real = iteration::STEP_SIZE;

    /// Smoothness β of the loss (`smoothness`).
    SMOOTHNESS: Real = iteration::SMOOTHNESS;

    /// Steps T of a run over many passes (`pass-steps`).
    PASS_STEPS: Count = iteration::PASS_STEPS;

    /// Records n of the many-pass run (`pass-records`).
    PASS_RECORDS: Count = iteration::PASS_RECORDS;

    /// How the many-pass run forms its batches (`pass-batches`).
    PASS_BATCHES: Pick<Batches> = iteration::PASS_BATCHES;

    /// Records per batch b of the many-pass run (`pass-batch`).
    PASS_BATCH: Count = iteration::PASS_BATCH;

    /// Diameter D of the set of models (`diameter`).
    DIAMETER: Real = iteration::DIAMETER;
}

/// Look up a parameter declaration by its URL name (the URL and CLI boundary only).
pub fn by_name(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().copied().find(|p| p.name == name)
}

/// Look up a parameter by its name or one of its CLI aliases (the CLI boundary only).
pub fn by_name_or_alias(name: &str) -> Option<&'static ParamSpec> {
    by_name(name).or_else(|| PARAMS.iter().copied().find(|p| p.aliases.contains(&name)))
}

/// Every declared parameter at its default: built once (sorted by name, a hundred and more
/// entries), then copied; every chart, readout and parsed link starts from it.
impl Default for ParamValues {
    fn default() -> Self {
        static DEFAULTS: std::sync::OnceLock<ParamValues> = std::sync::OnceLock::new();
        DEFAULTS
            .get_or_init(|| {
                let mut map = NameMap::new();
                for p in PARAMS {
                    map.insert(p.name, p.default);
                }
                ParamValues(map)
            })
            .clone()
    }
}
