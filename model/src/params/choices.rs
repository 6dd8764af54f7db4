//! The options of every choice parameter, as enums. Each list is declared once, by
//! [`choices!`]: its ids (URL and CLI values), labels and order come from here, and an option is
//! stored as its position ([`Value::Choice`](super::Value::Choice)), so nothing string-matches a
//! choice after the boundary has parsed it.
//!
//! Where the math crate already has the enum (sampling schemes, populations, RDP bounds and
//! conversions), the option list is implemented for that enum; the match in `index` is
//! exhaustive, so a variant added to the math enum without an option here does not compile.

use super::Choice;

/// An enum whose variants are the options of a choice parameter.
pub trait ChoiceEnum: Copy + PartialEq + std::fmt::Debug + 'static {
    /// Every option, in display order (the first is the parameter's default).
    const ALL: &'static [Self];
    /// Ids and labels, in the same order.
    const CHOICES: &'static [Choice];
    /// Position in [`ChoiceEnum::ALL`].
    fn index(self) -> usize;
    /// The URL / CLI value.
    fn id(self) -> &'static str {
        Self::CHOICES[self.index()].id
    }
    /// The label shown in the select.
    fn label(self) -> &'static str {
        Self::CHOICES[self.index()].label
    }
    /// Parse a URL / CLI value (the boundary only).
    fn from_id(id: &str) -> Option<Self> {
        Self::CHOICES
            .iter()
            .position(|c| c.id == id)
            .map(|i| Self::ALL[i])
    }
}

/// Declare an enum of options (`pub enum Name { Variant = "id", "label"; … }`), or give an
/// existing fieldless enum its options (`impl Path { Variant = "id", "label"; … }`).
macro_rules! choices {
    ($(#[$m:meta])* pub enum $name:ident { $( $(#[$vm:meta])* $v:ident = $id:literal, $label:literal; )+ }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $( $(#[$vm])* $v ),+ }
        choices!(impl $name { $( $v = $id, $label; )+ });
    };
    (impl $name:ident { $( $v:ident = $id:literal, $label:literal; )+ }) => {
        impl ChoiceEnum for $name {
            const ALL: &'static [Self] = &[$( $name::$v ),+];
            const CHOICES: &'static [Choice] = &[$( Choice { id: $id, label: $label } ),+];
            fn index(self) -> usize {
                #[allow(dead_code)]
                enum Position { $( $v ),+ }
                match self { $( $name::$v => Position::$v as usize ),+ }
            }
        }
    };
}

use amp_math::iteration::many_passes::Batches;
use amp_math::median_sim::Population;
use amp_math::rdp::{Bound, Conversion};
use amp_math::subsampling::Scheme;

choices!(impl Scheme {
    Poisson = "poisson", "Poisson, rate p";
    WithoutReplacement = "without-replacement", "m of n, without replacement";
    WithReplacement = "with-replacement", "m draws of n, with replacement";
});

choices!(impl Batches {
    Poisson = "poisson", "Poisson, rate b/n";
    Full = "full", "Full batch";
    Cyclic = "cyclic", "Cyclic, fixed order";
});

choices!(impl Population {
    LogNormal = "lognormal", "Log-normal(5, 0.5) (Section 4.3)";
    Bimodal = "bimodal", "Bimodal Beta mixture (Appendix B)";
    Beta = "beta", "Beta(2, 10) (Section 2.4)";
});

choices!(impl Bound {
    Exact = "exact", "Exact (where known)";
    Upper = "upper", "Upper bound";
    Lower = "lower", "Lower bound (whole orders)";
});

choices!(impl Conversion {
    Improved = "improved", "Improved (Canonne, Kamath & Steinke 2020)";
    Classic = "classic", "Classic (Mironov 2017)";
});

choices! {
    /// The population whose mean and median the paper's Figures 1 (right) and 2 release: the same
    /// three as the simulation's, but the paper's Beta(2, 10) first (the default).
    pub enum EstimatesPopulation {
        /// Beta(2, 10), as in the paper's Section 2.4.
        Beta = "beta", "Beta(2, 10) (Section 2.4)";
        /// The simulation's log-normal.
        LogNormal = "lognormal", "Log-normal(5, 0.5) (Section 4.3)";
        /// The bimodal mixture.
        Bimodal = "bimodal", "Bimodal Beta mixture (Appendix B)";
    }
}

impl EstimatesPopulation {
    /// The math crate's population.
    pub fn population(self) -> Population {
        match self {
            EstimatesPopulation::Beta => Population::Beta,
            EstimatesPopulation::LogNormal => Population::LogNormal,
            EstimatesPopulation::Bimodal => Population::Bimodal,
        }
    }
}

choices! {
    /// Whether to draw the naive double-precision eq. 8 beside the stable one.
    pub enum ShowNaive {
        /// Only the stable formula.
        Hide = "hide", "No";
        /// Also the naive one, with its rounding artifact.
        Show = "show", "Yes: show the rounding artifact";
    }
}

choices! {
    /// The base mechanism (every query has sensitivity 1); its own parameter is σ, b, or ε and k.
    pub enum Mechanism {
        /// Gaussian noise, noise multiplier σ.
        Gaussian = "gaussian", "Gaussian (noise multiplier σ)";
        /// Laplace noise, scale b.
        Laplace = "laplace", "Laplace (scale b)";
        /// Binary randomized response at ε.
        RandomizedResponse = "randomized-response", "Randomized response (ε)";
        /// k-ary randomized response at ε.
        KaryRandomizedResponse = "kary-randomized-response", "k-ary randomized response (ε, k)";
    }
}

choices! {
    /// How the length of a training run is given.
    pub enum Length {
        /// Passes over the data.
        Epochs = "epochs", "In epochs";
        /// Steps.
        Steps = "steps", "In steps";
    }
}

choices! {
    /// The noise of the mechanism drawn in the "why" figures (scale 1/ε, sensitivity 1).
    pub enum Noise {
        /// Laplace noise of scale b = 1/ε.
        Laplace = "laplace", "Laplace (b = 1/ε)";
        /// Gaussian noise of σ = 1/ε.
        Gaussian = "gaussian", "Gaussian (σ = 1/ε)";
    }
}

choices! {
    /// How a training loop forms its batches.
    pub enum Batching {
        /// Each example joins a batch independently.
        Poisson = "poisson", "Poisson sampling (each example joins a batch with probability q)";
        /// A shuffle every epoch, then fixed-size batches in order.
        Shuffle = "shuffle", "Shuffle every epoch, then fixed-size batches in order";
        /// Each example placed in one uniformly random step of every epoch.
        BallsInBins = "balls-in-bins", "Balls in bins (each example in one random step of every epoch)";
        /// Poisson sampling with the batch cut to the maximum batch size M (the model reads it as
        /// Poisson sampling with the cap `max-batch`, which must be set).
        TruncatedPoisson = "truncated-poisson", "Poisson sampling, batches capped at M examples (set M)";
        /// Each example in exactly k of the run's T steps, chosen uniformly at random, k = the
        /// epochs T·B/|x| rounded (random allocation, without epochs).
        Allocation = "allocation", "Random allocation (each example in exactly k random steps of the whole run)";
    }
}

choices! {
    /// How the trade-off curve is drawn.
    pub enum TradeoffView {
        /// β (missed members) against α on linear axes, as in the hypothesis-testing papers.
        Beta = "beta", "β against α (linear axes)";
        /// TPR against FPR on log axes, as in membership-inference papers.
        Roc = "roc", "TPR against FPR (log axes)";
    }
}

choices! {
    /// What a shuffle bound may assume about the users' local randomizer (the math's
    /// [`amp_math::shuffle::Randomizer`] carries k; this is the choice alone).
    pub enum RandomizerKind {
        /// Any ε₀-LDP randomizer.
        Generic = "generic", "Any ε₀-LDP randomizer";
        /// k-ary randomized response.
        KRr = "k-rr", "k-ary randomized response";
    }
}

choices! {
    /// How many phases a training run has (the training page's "Add a phase").
    pub enum PhaseCount {
        /// One phase: the run as the controls above describe it.
        One = "1", "One phase";
        /// Two phases.
        Two = "2", "Two phases";
        /// Three phases.
        Three = "3", "Three phases";
        /// Four phases.
        Four = "4", "Four phases";
    }
}

impl PhaseCount {
    /// The number of phases.
    pub fn count(self) -> usize {
        self.index() + 1
    }

    /// The choice for a number of phases (clamped to 1–4).
    pub fn of(n: usize) -> PhaseCount {
        PhaseCount::ALL[n.clamp(1, PhaseCount::ALL.len()) - 1]
    }
}

choices! {
    /// The law of the number of training runs K of a hyperparameter search that releases only its
    /// best run (Papernot & Steinke 2022).
    pub enum TuningLaw {
        /// Truncated negative binomial with shape η = 1: each further run with a fixed chance.
        Geometric = "geometric", "Geometric (η = 1)";
        /// The truncated negative binomial's limit η → 0.
        Logarithmic = "logarithmic", "Logarithmic (η = 0)";
        /// Truncated negative binomial with the shape η set below.
        NegativeBinomial = "negative-binomial", "Negative binomial, shape η";
        /// Poisson (K = 0 possible).
        Poisson = "poisson", "Poisson";
    }
}

choices! {
    /// What kind of privacy audit the planner reads.
    pub enum AuditMode {
        /// One training run with m canaries (Steinke, Nasr & Jagielski 2023).
        OneRun = "one-run", "One run with m canaries";
        /// Many runs with and without one canary, counted errors (Clopper–Pearson).
        ManyRuns = "many-runs", "Many runs, counted errors";
    }
}
