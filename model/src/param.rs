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
    EPS: Real = ParamSpec {
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

    /// Failure probability δ (`delta`).
    DELTA: Real = ParamSpec {
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

    /// Sampling rate p (`p`).
    P: Real = ParamSpec {
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

    /// Sample size m (`m`).
    M: Count = ParamSpec {
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

    /// Dataset size n (`n`).
    N: Count = ParamSpec {
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

    /// Sampling scheme (`scheme`).
    SCHEME: Pick<Scheme> = ParamSpec {
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

    /// Ratio c = ε/p (`c`).
    C: Real = ParamSpec {
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

    /// Dataset size |x| (`dataset`).
    DATASET: Count = ParamSpec {
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

    /// Batch size B (`batch`).
    BATCH: Count = ParamSpec {
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

    /// Epochs (`epochs`).
    EPOCHS: Real = ParamSpec {
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

    /// Steps k (`steps`).
    STEPS: Count = ParamSpec {
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

    /// Records per user R (`records-per-user`): user-level accounting.
    RECORDS: Count = ParamSpec {
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

    /// Maximum batch size M (`max-batch`): Poisson batches capped for memory (0: no cap).
    MAX_BATCH: Count = ParamSpec {
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

    /// Gradient accumulation steps A (`accumulation-steps`): B is then a micro-batch.
    ACCUMULATION: Count = ParamSpec {
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

    /// Bands b (`bands`): banded matrix factorisation (correlated noise over b steps; 1 = DP-SGD).
    BANDS: Count = ParamSpec {
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

    /// Participations k (`participations`): random allocation uses each example in exactly k steps.
    PARTICIPATIONS: Count = ParamSpec {
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

    /// Overall budget ε* (`total-eps`).
    TOTAL_EPS: Real = ParamSpec {
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

    /// Sampling rate n/N (`rate`).
    RATE: Real = ParamSpec {
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

    /// Target variance fraction q (`target-q`).
    TARGET_Q: Real = ParamSpec {
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

    /// Population size N (`N`).
    POPULATION_SIZE: Count = ParamSpec {
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

    /// Range R of the values (`range`).
    RANGE: Real = ParamSpec {
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

    /// Population variance S²_N (`pop-variance`).
    POP_VARIANCE: Real = ParamSpec {
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

    /// Simulated population (`population`).
    POPULATION: Pick<Population> = ParamSpec {
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

    /// The population of the paper's Figures 1 and 2 (`estimates-population`): the
    /// `private-estimates` figure's own, because the paper draws those figures from Beta(2, 10) and
    /// its simulation (the page's other figures, `population`) from the log-normal.
    ESTIMATES_POPULATION: Pick<EstimatesPopulation> = ParamSpec {
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

    /// Simulation runs T (`runs`).
    RUNS: Count = ParamSpec {
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

    /// Random seed (`seed`).
    SEED: Count = ParamSpec {
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

    /// Also draw the naive formula (`naive`).
    NAIVE: Pick<ShowNaive> = ParamSpec {
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

    /// The noise drawn in the "why" figures (`noise`).
    NOISE: Pick<Noise> = ParamSpec {
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

    /// Base mechanism (`mech`).
    MECH: Pick<Mechanism> = ParamSpec {
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

    /// The attacker's false-positive rate α (`fpr`).
    FPR: Real = ParamSpec {
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

    /// Prior probability of membership π (`prior`).
    PRIOR: Real = ParamSpec {
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

    /// The attacker's target TPR (`target-tpr`).
    TARGET_TPR: Real = ParamSpec {
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

    /// The attacker's target advantage (`target-advantage`).
    TARGET_ADVANTAGE: Real = ParamSpec {
        aliases: &[],
        name: "target-advantage",
        symbol: "TPR − FPR",
        label: "Target: attacker's advantage at most",
        unit: "",
        #[cfg(feature = "prose")]
        help: "The largest advantage max(TPR − FPR) any attacker may have; the noise is calibrated to it.",
        domain: Domain::Real {
            min: 1e-9,
            max: 1.0,
            max_open: true,
            scale: Scale::Log,
            slider: (1e-4, 0.99),
        },
        default: Value::Real(0.1),
    };

    /// How the trade-off curve is drawn (`view`).
    TRADEOFF_VIEW: Pick<TradeoffView> = ParamSpec {
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

    /// Noise multiplier σ (`sigma`).
    SIGMA: Real = ParamSpec {
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

    /// Laplace scale b (`scale`).
    SCALE: Real = ParamSpec {
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

    /// Categories k (`k`).
    K: Count = ParamSpec {
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

    /// Sampling rate q (`q`).
    Q: Real = ParamSpec {
        aliases: &[],
        name: "q",
        symbol: "q",
        label: "Sampling rate q",
        unit: "",
        #[cfg(feature = "prose")]
        help:
            "Poisson: each record's inclusion probability; without replacement: the fraction m/n.",
        domain: Domain::Real {
            min: 1e-9,
            max: 1.0,
            max_open: false,
            scale: Scale::Log,
            slider: (1e-5, 1.0),
        },
        default: Value::Real(0.001),
    };

    /// Rényi order α (`alpha`).
    ALPHA: Real = ParamSpec {
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

    /// Curve (`bound`).
    BOUND: Pick<Bound> = ParamSpec {
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

    /// RDP to (ε, δ) conversion (`conversion`).
    CONVERSION: Pick<Conversion> = ParamSpec {
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

    /// Target ε (`target-eps`).
    TARGET_EPS: Real = ParamSpec {
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

    /// Expected number of training runs of a hyperparameter search that releases its best
    /// (`tuning-runs`; 1: no tuning).
    TUNING_RUNS: Real = ParamSpec {
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

    /// The law of the number of tuning runs K (`tuning-law`).
    TUNING_LAW: Pick<TuningLaw> = ParamSpec {
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

    /// The shape η of the truncated negative binomial law of K (`tuning-shape`).
    TUNING_SHAPE: Real = ParamSpec {
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

    /// The kind of audit (`audit-mode`).
    AUDIT_MODE: Pick<AuditMode> = ParamSpec {
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

    /// Audit: canaries m (`audit-canaries`).
    AUDIT_CANARIES: Count = ParamSpec {
        aliases: &[],
        name: "audit-canaries",
        symbol: "m",
        label: "Audit: canaries m",
        unit: "",
        #[cfg(feature = "prose")]
        help: "Examples planted in the one training run, each included independently with probability ½.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000,
            scale: Scale::Log,
            slider: (10, 10000000),
            odd: false,
        },
        default: Value::Count(1000),
    };

    /// Audit: guesses r (`audit-guesses`).
    AUDIT_GUESSES: Count = ParamSpec {
        aliases: &[],
        name: "audit-guesses",
        symbol: "r",
        label: "Audit: guesses r",
        unit: "",
        #[cfg(feature = "prose")]
        help: "How many canaries the auditor guesses in or out for (abstaining on the rest); at most m.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000,
            scale: Scale::Log,
            slider: (1, 10000000),
            odd: false,
        },
        default: Value::Count(100),
    };

    /// Audit: right guesses v (`audit-correct`).
    AUDIT_CORRECT: Count = ParamSpec {
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

    /// The audit's confidence (`audit-confidence`).
    AUDIT_CONFIDENCE: Real = ParamSpec {
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

    /// The ε an audit should certify, for the guesses it needs (`audit-target`).
    AUDIT_TARGET: Real = ParamSpec {
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

    /// Audit: false positives (`audit-false-positives`).
    AUDIT_FALSE_POSITIVES: Count = ParamSpec {
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

    /// Audit: runs without the canary (`audit-runs-without`).
    AUDIT_RUNS_WITHOUT: Count = ParamSpec {
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

    /// Audit: false negatives (`audit-false-negatives`).
    AUDIT_FALSE_NEGATIVES: Count = ParamSpec {
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

    /// Audit: runs with the canary (`audit-runs-with`).
    AUDIT_RUNS_WITH: Count = ParamSpec {
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

    /// Audit: thresholds tried (`audit-thresholds`).
    AUDIT_THRESHOLDS: Count = ParamSpec {
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

    /// Length of training given (`length`).
    LENGTH: Pick<Length> = ParamSpec {
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

    /// How batches are formed (`batching`).
    BATCHING: Pick<Batching> = ParamSpec {
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

    /// How many phases the training run has (`phases`): the first is described by the run's own
    /// controls, each later one by its own batch size, length, sampler and noise.
    PHASES: Pick<PhaseCount> = ParamSpec {
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
    EPS0: Real = ParamSpec {
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

    /// Users n (`users`).
    USERS: Count = ParamSpec {
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

    /// Rounds R of the shuffle model (`rounds`).
    ROUNDS: Count = ParamSpec {
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

    /// Local randomizer (`randomizer`).
    RANDOMIZER: Pick<RandomizerKind> = ParamSpec {
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

    /// Steps T (`iterations`).
    ITERATIONS: Count = ParamSpec {
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

    /// Records averaged in one step of the one-pass run, b (`step-batch`).
    STEP_BATCH: Count = ParamSpec {
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

    /// Step size η (`step-size`).
    STEP_SIZE: Real = ParamSpec {
        aliases: &[],
        name: "step-size",
        symbol: "η",
        label: "Step size η",
        unit: "",
        #[cfg(feature = "prose")]
        help: "Learning rate of each step; the theorem needs η ≤ 2/β so that every step is contractive.",
        domain: Domain::Real {
            min: 1e-9,
            max: 1e6,
            max_open: false,
            scale: Scale::Log,
            slider: (0.001, 100.0),
        },
        default: Value::Real(0.1),
    };

    /// Smoothness β of the loss (`smoothness`).
    SMOOTHNESS: Real = ParamSpec {
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

    /// Steps T of a run over many passes (`pass-steps`).
    PASS_STEPS: Count = ParamSpec {
        aliases: &[],
        name: "pass-steps",
        symbol: "T",
        label: "Steps T, all passes",
        unit: "steps",
        #[cfg(feature = "prose")]
        help: "Noisy gradient steps over as many passes as it takes; only the last iterate is released.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (1, 100_000_000),
            odd: false,
        },
        default: Value::Count(100_000),
    };

    /// Records n of the many-pass run (`pass-records`).
    PASS_RECORDS: Count = ParamSpec {
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

    /// How the many-pass run forms its batches (`pass-batches`).
    PASS_BATCHES: Pick<Batches> = ParamSpec {
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

    /// Records per batch b of the many-pass run (`pass-batch`).
    PASS_BATCH: Count = ParamSpec {
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

    /// Diameter D of the set of models (`diameter`).
    DIAMETER: Real = ParamSpec {
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
}

/// The parameter groups: parameters declared together with the rules that say when each matters
/// ([`crate::params::Group`]).
pub mod group {
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
