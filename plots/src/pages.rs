//! Pages, the URL that selects one, and checks that involve more than one parameter.

use amp_math::subsampling::{Sampling, Scheme};

use crate::param as p;
use crate::figures::{figure, FigureSpec, FIGURES};
use crate::format::escape_display;
use crate::params::{by_name, Length, Mechanism, ParamSpec, ParamValues, RandomizerKind};

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Page {
    /// What amplification is, and the way into the other pages.
    Home,
    /// Amplification by subsampling (seed 000, seed 004 §1).
    Subsampling,
    /// When subsampling stops being free (seed 001).
    Limits,
    /// When sampling first makes a release more accurate (seed 002).
    Accuracy,
    /// Rényi DP of subsampled mechanisms, composition and conversion (seed 003).
    Renyi,
    /// Tight accounting of DP-SGD (privacy loss distributions; seed 001's machine-learning regime).
    Training,
    /// Amplification by shuffling: every published bound side by side (seed 004 §1.3, §2).
    Shuffling,
    /// Amplification by iteration: one pass of noisy SGD releasing its last iterate (seed 004 §3).
    Iteration,
}

impl Page {
    /// Every page that exists, in navigation order.
    pub const ALL: [Page; 8] = [
        Page::Home,
        Page::Subsampling,
        Page::Limits,
        Page::Accuracy,
        Page::Renyi,
        Page::Training,
        Page::Shuffling,
        Page::Iteration,
    ];

    /// The `page=` value.
    pub fn id(self) -> &'static str {
        match self {
            Page::Home => "home",
            Page::Subsampling => "subsampling",
            Page::Limits => "limits",
            Page::Accuracy => "accuracy",
            Page::Renyi => "renyi",
            Page::Training => "training",
            Page::Shuffling => "shuffling",
            Page::Iteration => "iteration",
        }
    }

    /// Navigation title.
    pub fn title(self) -> &'static str {
        match self {
            Page::Home => "Home",
            Page::Subsampling => "Subsampling",
            Page::Limits => "Limits",
            Page::Accuracy => "Accuracy",
            Page::Renyi => "Rényi DP",
            Page::Training => "Training",
            Page::Shuffling => "Shuffling",
            Page::Iteration => "Iteration",
        }
    }

    /// Parse a `page=` value.
    pub fn from_id(id: &str) -> Option<Page> {
        Page::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The parameters this page's controls show, in order.
    pub fn params(self) -> &'static [&'static ParamSpec] {
        match self {
            Page::Home => &[],
            Page::Subsampling => &[p::SCHEME.spec, p::EPS.spec, p::DELTA.spec, p::P.spec, p::M.spec, p::N.spec],
            Page::Limits => &[
                p::EPS.spec,
                p::P.spec,
                p::C.spec,
                p::N.spec,
                p::DATASET.spec,
                p::BATCH.spec,
                p::EPOCHS.spec,
                p::TOTAL_EPS.spec,
            ],
            Page::Accuracy => &[
                p::EPS.spec,
                p::DELTA.spec,
                p::RATE.spec,
                p::TARGET_Q.spec,
                p::POPULATION_SIZE.spec,
                p::RANGE.spec,
                p::POP_VARIANCE.spec,
                p::NAIVE.spec,
                p::POPULATION.spec,
                p::RUNS.spec,
                p::SEED.spec,
            ],
            Page::Renyi => &[
                p::MECH.spec,
                p::SIGMA.spec,
                p::SCALE.spec,
                p::EPS.spec,
                p::K.spec,
                p::SCHEME.spec,
                p::Q.spec,
                p::N.spec,
                p::ALPHA.spec,
                p::STEPS.spec,
                p::DELTA.spec,
                p::TARGET_EPS.spec,
            ],
            Page::Training => &[
                p::DATASET.spec,
                p::BATCH.spec,
                p::MECH.spec,
                p::SIGMA.spec,
                p::SCALE.spec,
                p::LENGTH.spec,
                p::EPOCHS.spec,
                p::STEPS.spec,
                p::DELTA.spec,
                p::BATCHING.spec,
                p::TARGET_EPS.spec,
            ],
            Page::Shuffling => &[
                p::EPS0.spec,
                p::USERS.spec,
                p::DELTA.spec,
                p::RANDOMIZER.spec,
                p::K.spec,
                p::TARGET_EPS.spec,
                p::P.spec,
                p::EPS.spec,
            ],
            Page::Iteration => &[p::ITERATIONS.spec, p::SIGMA.spec, p::STEP_SIZE.spec, p::SMOOTHNESS.spec, p::DELTA.spec],
        }
    }

    /// The figures on this page, in registry order.
    pub fn figures(self) -> impl Iterator<Item = &'static FigureSpec> {
        FIGURES.iter().filter(move |f| f.page == self)
    }
}

/// The sampling scheme the values select, with its sizes.
pub fn sampling(values: &ParamValues) -> Sampling {
    match values.choice(p::SCHEME) {
        Scheme::Poisson => Sampling::Poisson {
            p: values.real(p::P),
        },
        Scheme::WithoutReplacement => Sampling::WithoutReplacement {
            m: values.count(p::M),
            n: values.count(p::N),
        },
        Scheme::WithReplacement => Sampling::WithReplacement {
            m: values.count(p::M),
            n: values.count(p::N),
        },
    }
}

/// A check that involves several parameters (each one alone is checked by its declaration).
pub struct Constraint {
    /// The parameters it involves; a URL that breaks it falls back to their defaults.
    pub params: &'static [&'static ParamSpec],
    /// The parameter to blame, and the message shown next to it, when it does not hold.
    pub check: fn(&ParamValues) -> Result<(), (&'static ParamSpec, String)>,
}

/// Every constraint between parameters.
pub static CONSTRAINTS: &[Constraint] = &[
    Constraint {
        params: &[p::M.spec, p::N.spec],
        check: |v| {
            sampling(v)
                .validate()
                .map_err(|e| (p::M.spec, e.to_string()))
        },
    },
    Constraint {
        params: &[p::BATCH.spec, p::DATASET.spec],
        check: |v| {
            let (b, d) = (v.count(p::BATCH), v.count(p::DATASET));
            if b > d {
                Err((
                    p::BATCH.spec,
                    format!("the batch size B = {b} cannot exceed the dataset size |x| = {d}"),
                ))
            } else {
                Ok(())
            }
        },
    },
];

/// Check every constraint; the first that fails names the parameter to blame and why.
pub fn check_together(values: &ParamValues) -> Result<(), (&'static ParamSpec, String)> {
    CONSTRAINTS.iter().try_for_each(|c| (c.check)(values))
}

/// Whether a parameter's control matters for the current values: the rate p only for Poisson
/// sampling, the sizes m and n only for the fixed-size schemes. Hidden controls keep their values.
///
/// Where the view shows a mechanism choice (the Rényi DP page), only the chosen mechanism's
/// parameter is relevant, the rate is q for both schemes, and n only sets m = q·n without
/// replacement.
pub fn is_relevant(view: View, values: &ParamValues, spec: &ParamSpec) -> bool {
    let shows = |q: &ParamSpec| view.params().iter().any(|s| s.name == q.name);
    let is = |q: &ParamSpec| spec.name == q.name;
    if shows(p::MECH.spec) {
        let mech = values.choice(p::MECH);
        let scheme = values.choice(p::SCHEME);
        return if is(p::SIGMA.spec) {
            mech == Mechanism::Gaussian
        } else if is(p::SCALE.spec) {
            mech == Mechanism::Laplace
        } else if is(p::EPS.spec) {
            matches!(
                mech,
                Mechanism::RandomizedResponse | Mechanism::KaryRandomizedResponse
            )
        } else if is(p::K.spec) {
            mech == Mechanism::KaryRandomizedResponse
        } else if is(p::N.spec) {
            scheme == Scheme::WithoutReplacement
        } else if is(p::EPOCHS.spec) {
            values.choice(p::LENGTH) == Length::Epochs
        } else if is(p::STEPS.spec) {
            !shows(p::LENGTH.spec) || values.choice(p::LENGTH) == Length::Steps
        } else {
            true
        };
    }
    if shows(p::RANDOMIZER.spec) && is(p::K.spec) {
        return values.choice(p::RANDOMIZER) == RandomizerKind::KRr;
    }
    if !shows(p::SCHEME.spec) {
        return true;
    }
    let poisson = values.choice(p::SCHEME) == Scheme::Poisson;
    if is(p::P.spec) {
        poisson
    } else if is(p::M.spec) || is(p::N.spec) {
        !poisson
    } else {
        true
    }
}

/// What the URL asks to show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// A whole page.
    Page(Page),
    /// One figure and its controls, for an iframe.
    Embed(&'static FigureSpec),
}

impl View {
    /// The parameters whose controls this view shows.
    pub fn params(self) -> &'static [&'static ParamSpec] {
        match self {
            View::Page(page) => page.params(),
            View::Embed(f) => f.params,
        }
    }
}

/// The state a URL describes, with a notice for everything in it that was ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    /// What to show.
    pub view: View,
    /// Every parameter's value (defaults where the URL said nothing usable).
    pub values: ParamValues,
    /// Short messages about ignored or invalid parts of the URL.
    pub notices: Vec<String>,
}

/// At most this many notices are kept; a hostile URL could otherwise produce thousands.
pub const MAX_NOTICES: usize = 8;

/// Parse a query string (`?page=subsampling&eps=1…`, with or without the leading `?`).
///
/// Never fails: bad values fall back to their defaults with a notice, unknown keys are ignored with
/// a notice, a repeated key keeps its first value.
pub fn parse_query(query: &str) -> UrlState {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut values = ParamValues::default();
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut page = None;
    let mut embed = None;
    let note = |notices: &mut Vec<String>, msg: String| {
        if notices.len() < MAX_NOTICES {
            notices.push(msg);
        } else if notices.len() == MAX_NOTICES {
            notices.push("…and more problems in the link, not listed.".into());
        }
    };
    for pair in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(k);
        let val = percent_decode(v);
        if seen.contains(&key) {
            note(
                &mut notices,
                format!(
                    "“{}” appears more than once in the link; the first value is used.",
                    escape_display(&key)
                ),
            );
            continue;
        }
        if seen.len() < 64 {
            seen.push(key.clone());
        }
        match key.as_str() {
            "page" => match Page::from_id(&val) {
                Some(p) => page = Some(p),
                None => note(
                    &mut notices,
                    format!(
                        "There is no page “{}”; showing the home page.",
                        escape_display(&val)
                    ),
                ),
            },
            "embed" => match figure(&val) {
                Some(f) => embed = Some(f),
                None => note(
                    &mut notices,
                    format!("There is no figure “{}” to embed.", escape_display(&val)),
                ),
            },
            name => match by_name(name) {
                Some(spec) => {
                    if let Err(msg) = values.set_text(spec, &val) {
                        note(
                            &mut notices,
                            format!("{msg}. Using the default {}.", spec.format(spec.default)),
                        );
                    }
                }
                None => note(
                    &mut notices,
                    format!("Unknown setting “{}” ignored.", escape_display(name)),
                ),
            },
        }
    }
    // Values that are fine alone but not together: restore that constraint's defaults.
    for c in CONSTRAINTS {
        if let Err((_, msg)) = (c.check)(&values) {
            let names: Vec<&str> = c.params.iter().map(|s| s.name).collect();
            note(
                &mut notices,
                format!("{msg}. Using the defaults for {}.", names.join(" and ")),
            );
            for spec in c.params {
                let _ = values.set(spec, spec.default);
            }
        }
    }
    let view = match (embed, page) {
        (Some(f), _) => View::Embed(f),
        (None, Some(p)) => View::Page(p),
        (None, None) => View::Page(Page::Home),
    };
    UrlState {
        view,
        values,
        notices,
    }
}

/// The query string for a view: `?page=…` or `?embed=…`, then the view's parameters.
pub fn to_query(view: View, values: &ParamValues) -> String {
    let mut q = match view {
        View::Page(p) => format!("?page={}", p.id()),
        View::Embed(f) => format!("?embed={}", f.id),
    };
    for spec in view.params() {
        q.push('&');
        q.push_str(spec.name);
        q.push('=');
        q.push_str(&percent_encode(&spec.format(values.get(spec))));
    }
    q
}

/// Decode `%XX` escapes and `+` (as space). Invalid escapes are kept literally; invalid UTF-8 is
/// replaced, never a panic.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encode everything except unreserved characters.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
