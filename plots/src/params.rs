//! Every parameter is declared once, here. Sliders, number fields, URL parsing, validation
//! messages and the CLI's flags are all derived from these declarations.

use std::collections::BTreeMap;

use crate::format::{compact_number, escape_display};

/// How a numeric control maps positions to values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Evenly spaced values.
    Linear,
    /// Evenly spaced logarithms.
    Log,
}

/// One option of a choice parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// URL / CLI value.
    pub id: &'static str,
    /// Human label.
    pub label: &'static str,
}

/// What values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// A real number in [min, max] (or [min, max) when `max_open`).
    Real {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value (excluded when `max_open`).
        max: f64,
        /// Whether `max` itself is excluded.
        max_open: bool,
        /// Slider mapping.
        scale: Scale,
        /// The slider's range, inside [min, max]; the number field accepts the whole domain.
        slider: (f64, f64),
    },
    /// A whole number in [min, max].
    Count {
        /// Smallest accepted value.
        min: u64,
        /// Largest accepted value.
        max: u64,
        /// Slider mapping.
        scale: Scale,
        /// The slider's range.
        slider: (u64, u64),
        /// Only odd numbers (e.g. a population whose median is one record).
        odd: bool,
    },
    /// One of a fixed list.
    Choice(&'static [Choice]),
}

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A real number.
    Real(f64),
    /// A whole number.
    Count(u64),
    /// The id of a [`Choice`].
    Choice(&'static str),
}

impl Value {
    /// The value as f64 (counts converted; choices are NaN and never reach the math).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Real(x) => x,
            Value::Count(n) => n as f64,
            Value::Choice(_) => f64::NAN,
        }
    }
}

/// A parameter declaration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// URL query name and CLI flag (`--name`).
    pub name: &'static str,
    /// Other CLI flag names accepted for this parameter (e.g. `dataset-size` for `dataset`).
    pub aliases: &'static [&'static str],
    /// Mathematical symbol, e.g. "ε".
    pub symbol: &'static str,
    /// Label shown next to the control.
    pub label: &'static str,
    /// Unit, or "" for dimensionless quantities.
    pub unit: &'static str,
    /// One sentence of help, shown under the control and in `amplify --help`.
    pub help: &'static str,
    /// Accepted values.
    pub domain: Domain,
    /// Default value.
    pub default: Value,
}

/// Longest text accepted for one value (a 10 kB query value is rejected, not parsed).
pub const MAX_VALUE_LEN: usize = 64;

impl ParamSpec {
    /// Parse and validate user text. The error is one sentence naming the parameter and its domain.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err(format!("{} is empty: {}", self.symbol, self.domain_text()));
        }
        if t.len() > MAX_VALUE_LEN {
            return Err(format!(
                "{} is too long ({} characters): {}",
                self.symbol,
                t.len(),
                self.domain_text()
            ));
        }
        match self.domain {
            Domain::Real { .. } => {
                let x: f64 = t.parse().map_err(|_| {
                    format!(
                        "{} must be a number, not “{}”: {}",
                        self.symbol,
                        escape_display(t),
                        self.domain_text()
                    )
                })?;
                self.check(Value::Real(x)).map(|_| Value::Real(x))
            }
            Domain::Count { .. } => {
                let x: f64 = t.parse().map_err(|_| {
                    format!(
                        "{} must be a whole number, not “{}”: {}",
                        self.symbol,
                        escape_display(t),
                        self.domain_text()
                    )
                })?;
                if !x.is_finite() || x.fract() != 0.0 || x < 0.0 || x > u64::MAX as f64 {
                    return Err(format!(
                        "{} must be a whole number: {}",
                        self.symbol,
                        self.domain_text()
                    ));
                }
                let v = Value::Count(x as u64);
                self.check(v).map(|_| v)
            }
            Domain::Choice(options) => options
                .iter()
                .find(|c| c.id == t)
                .map(|c| Value::Choice(c.id))
                .ok_or_else(|| {
                    format!(
                        "{} “{}” is not one of: {}",
                        self.label,
                        escape_display(t),
                        self.domain_text()
                    )
                }),
        }
    }

    /// Check a value against the domain.
    pub fn check(&self, v: Value) -> Result<(), String> {
        let ok = match (self.domain, v) {
            (
                Domain::Real {
                    min, max, max_open, ..
                },
                Value::Real(x),
            ) => x.is_finite() && x >= min && (x < max || (!max_open && x == max)),
            (Domain::Count { min, max, odd, .. }, Value::Count(n)) => {
                (min..=max).contains(&n) && (!odd || n % 2 == 1)
            }
            (Domain::Choice(options), Value::Choice(id)) => options.iter().any(|c| c.id == id),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{} {}", self.symbol, self.domain_text()))
        }
    }

    /// The domain in words: "must be between 1e-12 and 50".
    pub fn domain_text(&self) -> String {
        match self.domain {
            Domain::Real {
                min, max, max_open, ..
            } => {
                if max_open {
                    format!(
                        "must be at least {} and below {}",
                        compact_number(min),
                        compact_number(max)
                    )
                } else {
                    format!(
                        "must be between {} and {}",
                        compact_number(min),
                        compact_number(max)
                    )
                }
            }
            Domain::Count { min, max, odd, .. } => format!(
                "must be {} from {} to {}",
                if odd {
                    "an odd whole number"
                } else {
                    "a whole number"
                },
                compact_number(min as f64),
                compact_number(max as f64)
            ),
            Domain::Choice(options) => {
                let ids: Vec<&str> = options.iter().map(|c| c.id).collect();
                format!("must be one of {}", ids.join(", "))
            }
        }
    }

    /// Text of a value as written in URLs, CLI flags and number fields (round-trips exactly).
    pub fn format(&self, v: Value) -> String {
        match v {
            Value::Real(x) => compact_number(x),
            Value::Count(n) => n.to_string(),
            Value::Choice(id) => id.to_string(),
        }
    }

    /// Number of slider steps; the slider's position is an integer in 0..=steps.
    pub const SLIDER_STEPS: u32 = 400;

    /// Slider position (0..=SLIDER_STEPS) for a value; values outside the slider's range clamp.
    pub fn to_slider(&self, v: Value) -> Option<u32> {
        let (lo, hi, scale) = self.slider_range()?;
        let x = v.as_f64();
        let t = match scale {
            Scale::Linear => (x - lo) / (hi - lo),
            Scale::Log => {
                if x <= 0.0 {
                    0.0
                } else {
                    (x / lo).ln() / (hi / lo).ln()
                }
            }
        };
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some((t * Self::SLIDER_STEPS as f64).round() as u32)
    }

    /// Value at a slider position. Real values are rounded to 4 significant digits so that URLs
    /// stay short; counts to whole numbers.
    pub fn from_slider(&self, pos: u32) -> Option<Value> {
        let (lo, hi, scale) = self.slider_range()?;
        let t = pos.min(Self::SLIDER_STEPS) as f64 / Self::SLIDER_STEPS as f64;
        let x = match scale {
            Scale::Linear => lo + t * (hi - lo),
            Scale::Log => lo * (hi / lo).powf(t),
        };
        Some(match self.domain {
            Domain::Count { min, max, odd, .. } => {
                let mut n = (x.round() as u64).clamp(min, max);
                if odd && n % 2 == 0 {
                    n = if n < max { n + 1 } else { n - 1 };
                }
                Value::Count(n)
            }
            Domain::Real { min, max, .. } => {
                let r = round_sig(x, 4).clamp(min, max);
                Value::Real(r)
            }
            Domain::Choice(_) => return None,
        })
    }

    fn slider_range(&self) -> Option<(f64, f64, Scale)> {
        match self.domain {
            Domain::Real { slider, scale, .. } => Some((slider.0, slider.1, scale)),
            Domain::Count { slider, scale, .. } => Some((slider.0 as f64, slider.1 as f64, scale)),
            Domain::Choice(_) => None,
        }
    }
}

/// Round to `digits` significant digits.
pub fn round_sig(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = x.abs().log10().floor() as i32;
    let f = 10f64.powi(digits - 1 - e);
    let r = (x * f).round() / f;
    // Reparse through text so the value is the shortest decimal (0.01 rather than 0.010000000000000002).
    format!("{:.*e}", (digits - 1) as usize, r)
        .parse()
        .unwrap_or(r)
}

/// The sampling schemes, as declared for the `scheme` parameter.
pub const SCHEMES: &[Choice] = &[
    Choice {
        id: "poisson",
        label: "Poisson, rate p",
    },
    Choice {
        id: "without-replacement",
        label: "m of n, without replacement",
    },
    Choice {
        id: "with-replacement",
        label: "m draws of n, with replacement",
    },
];

/// The simulated populations of seed 002.
pub const POPULATIONS: &[Choice] = &[
    Choice {
        id: "lognormal",
        label: "Log-normal(5, 0.5) (Section 4.3)",
    },
    Choice {
        id: "bimodal",
        label: "Bimodal Beta mixture (Appendix B)",
    },
    Choice {
        id: "beta",
        label: "Beta(2, 10) (Section 2.4)",
    },
];

/// Whether to draw the naive double-precision eq. 8 beside the stable one.
pub const NAIVE: &[Choice] = &[
    Choice {
        id: "hide",
        label: "No",
    },
    Choice {
        id: "show",
        label: "Yes: show the rounding artifact",
    },
];

/// The base mechanisms of the Rényi DP page (seed 003).
pub const MECHANISMS: &[Choice] = &[
    Choice {
        id: "gaussian",
        label: "Gaussian (noise multiplier σ)",
    },
    Choice {
        id: "laplace",
        label: "Laplace (scale b)",
    },
    Choice {
        id: "randomized-response",
        label: "Randomized response (ε)",
    },
    Choice {
        id: "kary-randomized-response",
        label: "k-ary randomized response (ε, k)",
    },
];

/// Which curve of a subsampled mechanism (the CLI's `--bound`).
pub const BOUNDS: &[Choice] = &[
    Choice {
        id: "exact",
        label: "Exact (where known)",
    },
    Choice {
        id: "upper",
        label: "Upper bound",
    },
    Choice {
        id: "lower",
        label: "Lower bound (whole orders)",
    },
];

/// RDP → (ε, δ) conversions.
pub const CONVERSIONS: &[Choice] = &[
    Choice {
        id: "improved",
        label: "Improved (Canonne, Kamath & Steinke 2020)",
    },
    Choice {
        id: "classic",
        label: "Classic (Mironov 2017)",
    },
];

/// How the length of a training run is given.
pub const LENGTHS: &[Choice] = &[
    Choice {
        id: "epochs",
        label: "In epochs",
    },
    Choice {
        id: "steps",
        label: "In steps",
    },
];

/// How a training loop forms its batches.
pub const BATCHINGS: &[Choice] = &[
    Choice {
        id: "poisson",
        label: "Poisson sampling (each example joins a batch with probability q)",
    },
    Choice {
        id: "shuffle",
        label: "Shuffle, then fixed-size batches in order",
    },
];

/// The local randomizer assumed by a shuffle bound.
pub const RANDOMIZERS: &[Choice] = &[
    Choice {
        id: "generic",
        label: "Any ε₀-LDP randomizer",
    },
    Choice {
        id: "k-rr",
        label: "k-ary randomized response",
    },
];

/// Every parameter of the app.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        aliases: &[],
        name: "eps",
        symbol: "ε",
        label: "Privacy parameter ε",
        unit: "",
        help: "The base mechanism's ε; for the inverse, the target ε′ of the whole release.",
        domain: Domain::Real {
            min: 1e-12,
            max: 50.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.001, 50.0),
        },
        default: Value::Real(1.0),
    },
    ParamSpec {
        aliases: &[],
        name: "delta",
        symbol: "δ",
        label: "Failure probability δ",
        unit: "",
        help: "The base mechanism's δ (0 for pure DP); for the inverse, the target δ′.",
        domain: Domain::Real {
            min: 0.0,
            max: 1.0,
            max_open: true,
            scale: Scale::Log,
            slider: (1e-12, 0.01),
        },
        default: Value::Real(1e-6),
    },
    ParamSpec {
        aliases: &[],
        name: "p",
        symbol: "p",
        label: "Sampling rate p",
        unit: "",
        help: "Probability that each record is in the sample (Poisson sampling).",
        domain: Domain::Real {
            min: 1e-9,
            max: 1.0,
            max_open: false,
            scale: Scale::Log,
            slider: (1e-5, 1.0),
        },
        default: Value::Real(0.01),
    },
    ParamSpec {
        aliases: &[],
        name: "m",
        symbol: "m",
        label: "Sample size m",
        unit: "records",
        help: "Records in the sample (fixed-size schemes); draws, with replacement.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (1, 1_000_000),
            odd: false,
        },
        default: Value::Count(600),
    },
    ParamSpec {
        aliases: &[],
        name: "n",
        symbol: "n",
        label: "Dataset size n",
        unit: "records",
        help: "Records in the whole dataset (fixed-size schemes).",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (10, 10_000_000),
            odd: false,
        },
        default: Value::Count(60_000),
    },
    ParamSpec {
        aliases: &[],
        name: "scheme",
        symbol: "scheme",
        label: "Sampling scheme",
        unit: "",
        help: "How the sample is drawn; it decides the neighbouring relation of the guarantee.",
        domain: Domain::Choice(SCHEMES),
        default: Value::Choice("poisson"),
    },
    ParamSpec {
        aliases: &[],
        name: "c",
        symbol: "c",
        label: "Ratio c = ε/p",
        unit: "",
        help: "How large ε is compared with the sampling rate: ε = c·p.",
        domain: Domain::Real {
            min: 1e-6,
            max: 1e4,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 1000.0),
        },
        default: Value::Real(2.0),
    },
    ParamSpec {
        aliases: &["dataset-size"],
        name: "dataset",
        symbol: "|x|",
        label: "Dataset size |x|",
        unit: "records",
        help: "Training examples in the whole dataset.",
        domain: Domain::Count {
            min: 2,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (100, 1_000_000_000),
            odd: false,
        },
        default: Value::Count(60_000),
    },
    ParamSpec {
        aliases: &["batch-size"],
        name: "batch",
        symbol: "B",
        label: "Batch size B",
        unit: "records",
        help: "Expected examples per step; the sampling rate is p = B/|x|.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (1, 1_000_000),
            odd: false,
        },
        default: Value::Count(256),
    },
    ParamSpec {
        aliases: &[],
        name: "epochs",
        symbol: "epochs",
        label: "Epochs",
        unit: "",
        help: "Passes over the data: k = epochs/p steps.",
        domain: Domain::Real {
            min: 1e-6,
            max: 1e6,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 1000.0),
        },
        default: Value::Real(3.0),
    },
    ParamSpec {
        aliases: &[],
        name: "steps",
        symbol: "k",
        label: "Steps k",
        unit: "",
        help: "Compositions: training steps (instead of epochs), or releases of the mechanism.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000_000,
            scale: Scale::Log,
            slider: (1, 10_000_000),
            odd: false,
        },
        default: Value::Count(1000),
    },
    ParamSpec {
        aliases: &[],
        name: "total-eps",
        symbol: "ε*",
        label: "Overall budget ε*",
        unit: "",
        help: "The whole training run is ½ε*²-zCDP, so each of k steps may use ε*/√k.",
        domain: Domain::Real {
            min: 1e-6,
            max: 100.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 100.0),
        },
        default: Value::Real(3.0),
    },
    ParamSpec {
        aliases: &[],
        name: "rate",
        symbol: "n/N",
        label: "Sampling rate n/N",
        unit: "",
        help: "The fraction of the population drawn (simple random sampling without replacement).",
        domain: Domain::Real {
            min: 1e-6,
            max: 1.0,
            max_open: false,
            scale: Scale::Log,
            slider: (1e-4, 1.0),
        },
        default: Value::Real(0.01),
    },
    ParamSpec {
        aliases: &[],
        name: "target-q",
        symbol: "q",
        label: "Target variance fraction q",
        unit: "",
        help: "Find the sampling rate at which q = 1 − ε²/ε_n² reaches this value.",
        domain: Domain::Real {
            min: 0.001,
            max: 0.999,
            max_open: false,
            scale: Scale::Linear,
            slider: (0.01, 0.99),
        },
        default: Value::Real(0.6),
    },
    ParamSpec {
        aliases: &[],
        name: "N",
        symbol: "N",
        label: "Population size N",
        unit: "records",
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
    },
    ParamSpec {
        aliases: &[],
        name: "range",
        symbol: "R",
        label: "Range R of the values",
        unit: "",
        help: "A public bound on the spread of the values; the mean's sensitivity is R/N.",
        domain: Domain::Real {
            min: 1e-6,
            max: 1e9,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 10_000.0),
        },
        default: Value::Real(1.0),
    },
    ParamSpec {
        aliases: &[],
        name: "pop-variance",
        symbol: "S²",
        label: "Population variance S²_N",
        unit: "",
        help: "The variance of the values in the population (sets the sampling variance).",
        domain: Domain::Real {
            min: 0.0,
            max: 1e18,
            max_open: false,
            scale: Scale::Log,
            slider: (1e-6, 10_000.0),
        },
        default: Value::Real(0.01),
    },
    ParamSpec {
        aliases: &[],
        name: "population",
        symbol: "population",
        label: "Simulated population",
        unit: "",
        help: "The distribution the population is drawn from (seed 002, Sections 2.4, 4.3, 4.4).",
        domain: Domain::Choice(POPULATIONS),
        default: Value::Choice("lognormal"),
    },
    ParamSpec {
        aliases: &[],
        name: "runs",
        symbol: "T",
        label: "Simulation runs T",
        unit: "",
        help: "Samples drawn per ε and sampling rate (the paper uses 1,000).",
        domain: Domain::Count {
            min: 10,
            max: 100_000,
            scale: Scale::Log,
            slider: (10, 10_000),
            odd: false,
        },
        default: Value::Count(1000),
    },
    ParamSpec {
        aliases: &[],
        name: "seed",
        symbol: "seed",
        label: "Random seed",
        unit: "",
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
    },
    ParamSpec {
        aliases: &[],
        name: "naive",
        symbol: "naive",
        label: "Also draw the naive formula",
        unit: "",
        help: "Eq. 8 typed directly in double precision, without expm1/log1p.",
        domain: Domain::Choice(NAIVE),
        default: Value::Choice("hide"),
    },
    ParamSpec {
        aliases: &["mechanism"],
        name: "mech",
        symbol: "mechanism",
        label: "Base mechanism",
        unit: "",
        help: "The mechanism run on the sample; every query has sensitivity 1.",
        domain: Domain::Choice(MECHANISMS),
        default: Value::Choice("gaussian"),
    },
    ParamSpec {
        aliases: &[],
        name: "sigma",
        symbol: "σ",
        label: "Noise multiplier σ",
        unit: "",
        help: "Standard deviation of the Gaussian noise over the sensitivity (iteration page: over the gradient bound L).",
        domain: Domain::Real {
            min: 0.1,
            max: 10_000.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.3, 100.0),
        },
        default: Value::Real(5.0),
    },
    ParamSpec {
        aliases: &[],
        name: "scale",
        symbol: "b",
        label: "Laplace scale b",
        unit: "",
        help: "Scale of the Laplace noise over the sensitivity (pure ε = 1/b).",
        domain: Domain::Real {
            min: 0.01,
            max: 10_000.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.05, 100.0),
        },
        default: Value::Real(0.5),
    },
    ParamSpec {
        aliases: &[],
        name: "k",
        symbol: "k",
        label: "Categories k",
        unit: "",
        help: "Number of possible answers of k-ary randomized response.",
        domain: Domain::Count {
            min: 2,
            max: 1_000_000,
            scale: Scale::Log,
            slider: (2, 1000),
            odd: false,
        },
        default: Value::Count(4),
    },
    ParamSpec {
        aliases: &[],
        name: "q",
        symbol: "q",
        label: "Sampling rate q",
        unit: "",
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
    },
    ParamSpec {
        aliases: &[],
        name: "alpha",
        symbol: "α",
        label: "Rényi order α",
        unit: "",
        help: "The order at which the readouts show ε(α).",
        domain: Domain::Real {
            min: 1.001,
            max: 10_000.0,
            max_open: false,
            scale: Scale::Log,
            slider: (1.01, 1000.0),
        },
        default: Value::Real(8.0),
    },
    ParamSpec {
        aliases: &[],
        name: "bound",
        symbol: "bound",
        label: "Curve",
        unit: "",
        help: "Exact RDP, or the upper or lower bound of the subsampled mechanism.",
        domain: Domain::Choice(BOUNDS),
        default: Value::Choice("exact"),
    },
    ParamSpec {
        aliases: &[],
        name: "conversion",
        symbol: "conversion",
        label: "RDP to (ε, δ) conversion",
        unit: "",
        help: "How a Rényi DP curve becomes an (ε, δ) guarantee.",
        domain: Domain::Choice(CONVERSIONS),
        default: Value::Choice("improved"),
    },
    ParamSpec {
        aliases: &[],
        name: "target-eps",
        symbol: "ε",
        label: "Target ε",
        unit: "",
        help: "The ε at which to report δ(ε); on the training page, the ε the noise is calibrated for.",
        domain: Domain::Real {
            min: 0.0,
            max: 500.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 50.0),
        },
        default: Value::Real(1.0),
    },
    ParamSpec {
        aliases: &[],
        name: "length",
        symbol: "length",
        label: "Length of training given",
        unit: "",
        help: "Whether the run's length is counted in epochs (k = epochs·|x|/B steps) or in steps.",
        domain: Domain::Choice(LENGTHS),
        default: Value::Choice("epochs"),
    },
    ParamSpec {
        aliases: &[],
        name: "batching",
        symbol: "batching",
        label: "How batches are formed",
        unit: "",
        help: "What your training loop really does; the tight analysis exists for Poisson sampling only.",
        domain: Domain::Choice(BATCHINGS),
        default: Value::Choice("poisson"),
    },
    ParamSpec {
        aliases: &[],
        name: "eps0",
        symbol: "ε₀",
        label: "Local privacy ε₀",
        unit: "",
        help: "Each user's local randomizer is ε₀-differentially private on its own.",
        domain: Domain::Real {
            min: 1e-6,
            max: 30.0,
            max_open: false,
            scale: Scale::Log,
            slider: (0.01, 15.0),
        },
        default: Value::Real(4.0),
    },
    ParamSpec {
        aliases: &[],
        name: "users",
        symbol: "n",
        label: "Users n",
        unit: "users",
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
    },
    ParamSpec {
        aliases: &[],
        name: "randomizer",
        symbol: "randomizer",
        label: "Local randomizer",
        unit: "",
        help: "What the privacy-blanket bounds may assume about the users' randomizer.",
        domain: Domain::Choice(RANDOMIZERS),
        default: Value::Choice("generic"),
    },
    ParamSpec {
        aliases: &[],
        name: "iterations",
        symbol: "T",
        label: "Steps T (one record each)",
        unit: "steps",
        help: "Length of the one pass of noisy SGD; the record used at step t is hidden by the T − t steps after it.",
        domain: Domain::Count {
            min: 1,
            max: 1_000_000_000,
            scale: Scale::Log,
            slider: (1, 10_000_000),
            odd: false,
        },
        default: Value::Count(1000),
    },
    ParamSpec {
        aliases: &[],
        name: "step-size",
        symbol: "η",
        label: "Step size η",
        unit: "",
        help: "Learning rate of each step; the theorem needs η ≤ 2/β so that every step is contractive.",
        domain: Domain::Real {
            min: 1e-9,
            max: 1e6,
            max_open: false,
            scale: Scale::Log,
            slider: (0.001, 100.0),
        },
        default: Value::Real(0.1),
    },
    ParamSpec {
        aliases: &[],
        name: "smoothness",
        symbol: "β",
        label: "Smoothness β of the loss",
        unit: "",
        help: "Every loss's gradient is β-Lipschitz (β-smooth); with convexity and η ≤ 2/β the updates are contractive.",
        domain: Domain::Real {
            min: 1e-9,
            max: 1e9,
            max_open: false,
            scale: Scale::Log,
            slider: (0.001, 1000.0),
        },
        default: Value::Real(1.0),
    },
];

/// Look up a parameter declaration by its URL name.
pub fn param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name == name)
}

/// Look up a parameter by its name or one of its CLI aliases.
pub fn param_or_alias(name: &str) -> Option<&'static ParamSpec> {
    param(name).or_else(|| PARAMS.iter().find(|p| p.aliases.contains(&name)))
}

/// A full set of parameter values (every declared parameter has one).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues(BTreeMap<&'static str, Value>);

impl Default for ParamValues {
    fn default() -> Self {
        ParamValues(PARAMS.iter().map(|p| (p.name, p.default)).collect())
    }
}

impl ParamValues {
    /// The value of a parameter (its default if never set).
    pub fn get(&self, name: &str) -> Value {
        self.0
            .get(name)
            .copied()
            .or_else(|| param(name).map(|p| p.default))
            .unwrap_or(Value::Real(f64::NAN))
    }

    /// A real (or count) parameter as f64.
    pub fn real(&self, name: &str) -> f64 {
        self.get(name).as_f64()
    }

    /// A count parameter.
    pub fn count(&self, name: &str) -> u64 {
        match self.get(name) {
            Value::Count(n) => n,
            Value::Real(x) => x as u64,
            Value::Choice(_) => 0,
        }
    }

    /// A choice parameter's id.
    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            Value::Choice(id) => id,
            _ => "",
        }
    }

    /// Set a value after checking it against its declaration.
    pub fn set(&mut self, name: &str, v: Value) -> Result<(), String> {
        let spec = param(name).ok_or_else(|| format!("unknown parameter “{name}”"))?;
        spec.check(v)?;
        self.0.insert(spec.name, v);
        Ok(())
    }

    /// Parse user text for a parameter and set it.
    pub fn set_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        let spec = param(name).ok_or_else(|| format!("unknown parameter “{name}”"))?;
        let v = spec.parse(text)?;
        self.0.insert(spec.name, v);
        Ok(())
    }
}
