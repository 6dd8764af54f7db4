//! The machinery behind the parameter declarations of [`crate::param`]: domains, values,
//! parsing and validation, slider mapping, typed handles ([`Real`], [`Count`], [`Pick`]) and the
//! choice enums. Sliders, number fields, URL parsing, validation messages and the CLI's flags are
//! all derived from the declarations.
//!
//! Strings exist only at the URL and CLI boundary: [`by_name`] resolves a parameter's name once,
//! [`ParamSpec::parse`] turns text into a [`Value`], and choices become enums
//! ([`ParamValues::choice`]) without any string comparison after that.

use std::marker::PhantomData;

use amp_format::{compact_number, escape_display};

mod choices;
pub mod groups;
pub use choices::{
    AuditMode, Batching, ChoiceEnum, EstimatesPopulation, Length, Mechanism, Noise, PhaseCount,
    RandomizerKind, ShowNaive, TradeoffView, TuningLaw,
};
pub use groups::{Group, Rule};

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
    /// The position of an option in its parameter's [`Domain::Choice`] list (parsed once from
    /// its id at the URL or CLI boundary).
    Choice(usize),
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
    /// One sentence of help, shown under the control and in `amplify --help`. Like the prose,
    /// behind the feature `prose`: the web app reads it from the pre-rendered document or
    /// `content.json`, as the fragment [`ParamSpec::help_name`].
    #[cfg(feature = "prose")]
    pub help: &'static str,
    /// Accepted values.
    pub domain: Domain,
    /// Default value. A choice parameter's default is its first option (`Value::Choice(0)`).
    pub default: Value,
}

impl ParamSpec {
    /// The same parameter for a later phase of a run: another name (URL and flag), symbol and
    /// label, the same domain, default and help (a const fn, for the declarations).
    pub const fn for_phase(
        &self,
        name: &'static str,
        symbol: &'static str,
        label: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            aliases: &[],
            symbol,
            label,
            ..*self
        }
    }
}

/// Longest text accepted for one value (a 10 kB query value is rejected, not parsed).
pub const MAX_VALUE_LEN: usize = 64;

impl ParamSpec {
    /// The name under which the help sentence is a prose fragment (`help-<name>`).
    pub fn help_name(&self) -> String {
        format!("help-{}", self.name)
    }

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
                let x = amp_format::parse_f64(t).ok_or_else(|| {
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
                let x = amp_format::parse_f64(t).ok_or_else(|| {
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
                .position(|c| c.id == t)
                .map(Value::Choice)
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
            (Domain::Choice(options), Value::Choice(i)) => i < options.len(),
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
            Value::Choice(i) => match self.domain {
                Domain::Choice(options) => options.get(i).map(|c| c.id).unwrap_or("").to_string(),
                _ => String::new(),
            },
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
                    amp_math::special::ln(x / lo) / amp_math::special::ln(hi / lo)
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
            Scale::Log => lo * amp_math::special::pow(hi / lo, t),
        };
        Some(match self.domain {
            // A count whose 0 means "off" (a cap of 0: none) on a log slider: the leftmost
            // position is 0, which a log scale cannot reach otherwise.
            Domain::Count { min: 0, .. } if scale == Scale::Log && pos == 0 => Value::Count(0),
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
    let e = amp_math::special::log10(x.abs()).floor() as i32;
    let f = amp_math::special::powi(10.0, digits - 1 - e);
    let r = (x * f).round() / f;
    // Reparse through text so the value is the shortest decimal (0.01 rather than 0.010000000000000002).
    amp_format::parse_f64(&format!("{:.*e}", (digits - 1) as usize, r)).unwrap_or(r)
}

/// A handle to a declared parameter: what pages, figures and the math bindings name a parameter
/// by. The three kinds ([`Real`], [`Count`], [`Pick`]) say which accessor of [`ParamValues`]
/// applies, so reading a choice as a number, or a number as a choice, does not compile.
pub trait Param: Copy {
    /// The declaration.
    fn spec(self) -> &'static ParamSpec;
    /// The options of a choice parameter's enum (`None` for numbers); the declaration test checks
    /// they are the options its domain declares.
    fn enum_choices(self) -> Option<&'static [Choice]> {
        None
    }
}

/// A real-valued parameter (read with [`ParamValues::real`]).
#[derive(Clone, Copy, Debug)]
pub struct Real {
    /// The declaration.
    pub spec: &'static ParamSpec,
}

/// A whole-number parameter (read with [`ParamValues::count`] or, as f64, [`ParamValues::real`]).
#[derive(Clone, Copy, Debug)]
pub struct Count {
    /// The declaration.
    pub spec: &'static ParamSpec,
}

/// A choice parameter whose options are the enum `T` (read with [`ParamValues::choice`]).
#[derive(Debug)]
pub struct Pick<T: 'static> {
    /// The declaration.
    pub spec: &'static ParamSpec,
    /// The enum its values parse into.
    pub options: PhantomData<fn() -> T>,
}

impl<T> Clone for Pick<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Pick<T> {}

/// A declaration is its own handle (for code that walks a list of declarations, e.g. the CLI's
/// flags of a figure).
impl Param for &'static ParamSpec {
    fn spec(self) -> &'static ParamSpec {
        self
    }
}

impl Param for Real {
    fn spec(self) -> &'static ParamSpec {
        self.spec
    }
}
impl Param for Count {
    fn spec(self) -> &'static ParamSpec {
        self.spec
    }
}
impl<T: ChoiceEnum> Param for Pick<T> {
    fn spec(self) -> &'static ParamSpec {
        self.spec
    }
    fn enum_choices(self) -> Option<&'static [Choice]> {
        Some(T::CHOICES)
    }
}

/// A parameter that reads as a number (real, or a count converted to f64).
pub trait Numeric: Param {}
impl Numeric for Real {}
impl Numeric for Count {}

/// A full set of parameter values: every declared parameter has one, each inside its domain
/// (the defaults of every declaration: [`crate::param`]'s `Default`).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues(pub(crate) NameMap<Value>);

impl ParamValues {
    /// The value of a parameter (its default if never set).
    pub fn get(&self, spec: &'static ParamSpec) -> Value {
        self.0.get(spec.name).copied().unwrap_or(spec.default)
    }

    /// A real (or count) parameter as f64.
    pub fn real(&self, p: impl Numeric) -> f64 {
        self.get(p.spec()).as_f64()
    }

    /// A count parameter.
    pub fn count(&self, p: Count) -> u64 {
        match self.get(p.spec) {
            Value::Count(n) => n,
            // Unreachable for a declared count (values are checked against the domain on entry).
            _ => match p.spec.default {
                Value::Count(n) => n,
                _ => 0,
            },
        }
    }

    /// A choice parameter, as its enum.
    pub fn choice<T: ChoiceEnum>(&self, p: Pick<T>) -> T {
        match self.get(p.spec) {
            Value::Choice(i) => T::ALL.get(i).copied().unwrap_or(T::ALL[0]),
            _ => T::ALL[0],
        }
    }

    /// Set a value after checking it against its declaration.
    pub fn set(&mut self, spec: &'static ParamSpec, v: Value) -> Result<(), String> {
        spec.check(v)?;
        self.0.insert(spec.name, v);
        Ok(())
    }

    /// Set a choice parameter to an option of its enum.
    pub fn set_choice<T: ChoiceEnum>(&mut self, p: Pick<T>, option: T) {
        self.0.insert(p.spec.name, Value::Choice(option.index()));
    }

    /// Parse user text for a parameter and set it.
    pub fn set_text(&mut self, spec: &'static ParamSpec, text: &str) -> Result<(), String> {
        let v = spec.parse(text)?;
        self.0.insert(spec.name, v);
        Ok(())
    }
}

/// A small map from parameter names to values, kept sorted by name: what a `BTreeMap` did here,
/// for the few dozen entries a page has, with a few hundred bytes of wasm instead of a B-tree's
/// several kilobytes per value type. Equal contents compare equal whatever the insertion order.
#[derive(Clone, Debug, PartialEq)]
pub struct NameMap<V>(Vec<(&'static str, V)>);

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap(Vec::new())
    }
}

impl<V> NameMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| (*k).cmp(name))
    }

    /// The value under `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.find(name).ok().map(|i| &self.0[i].1)
    }

    /// Put `v` under `name`, returning what was there.
    pub fn insert(&mut self, name: &'static str, v: V) -> Option<V> {
        match self.find(name) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, v)),
            Err(i) => {
                self.0.insert(i, (name, v));
                None
            }
        }
    }

    /// Take out the value under `name`.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        self.find(name).ok().map(|i| self.0.remove(i).1)
    }

    /// The entries, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &V)> {
        self.0.iter().map(|(k, v)| (*k, v))
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
