//! Pages, the URL that selects one, and checks that involve more than one parameter.

use amp_math::subsampling::{Sampling, Scheme};

use crate::figures::{figure, FigureSpec, FIGURES};
use crate::format::escape_display;
use crate::params::{param, ParamValues};

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
    pub fn params(self) -> &'static [&'static str] {
        match self {
            Page::Home => &[],
            Page::Subsampling => &["scheme", "eps", "delta", "p", "m", "n"],
            Page::Limits => &[
                "eps",
                "p",
                "c",
                "n",
                "dataset",
                "batch",
                "epochs",
                "total-eps",
            ],
            Page::Accuracy => &[
                "eps",
                "delta",
                "rate",
                "target-q",
                "N",
                "range",
                "pop-variance",
                "naive",
                "population",
                "runs",
                "seed",
            ],
            Page::Renyi => &[
                "mech",
                "sigma",
                "scale",
                "eps",
                "k",
                "scheme",
                "q",
                "n",
                "alpha",
                "steps",
                "delta",
                "target-eps",
            ],
            Page::Training => &[
                "dataset",
                "batch",
                "mech",
                "sigma",
                "scale",
                "length",
                "epochs",
                "steps",
                "delta",
                "batching",
                "target-eps",
            ],
            Page::Shuffling => &[
                "eps0",
                "users",
                "delta",
                "randomizer",
                "k",
                "target-eps",
                "p",
                "eps",
            ],
            Page::Iteration => &["iterations", "sigma", "step-size", "smoothness", "delta"],
        }
    }

    /// The figures on this page, in registry order.
    pub fn figures(self) -> impl Iterator<Item = &'static FigureSpec> {
        FIGURES.iter().filter(move |f| f.page == self)
    }
}

/// The sampling scheme the values select, with its sizes.
pub fn sampling(values: &ParamValues) -> Sampling {
    match Scheme::from_id(values.choice("scheme")).unwrap_or(Scheme::Poisson) {
        Scheme::Poisson => Sampling::Poisson {
            p: values.real("p"),
        },
        Scheme::WithoutReplacement => Sampling::WithoutReplacement {
            m: values.count("m"),
            n: values.count("n"),
        },
        Scheme::WithReplacement => Sampling::WithReplacement {
            m: values.count("m"),
            n: values.count("n"),
        },
    }
}

/// A check that involves several parameters (each one alone is checked by its declaration).
pub struct Constraint {
    /// The parameters it involves; a URL that breaks it falls back to their defaults.
    pub params: &'static [&'static str],
    /// The parameter to blame, and the message shown next to it, when it does not hold.
    pub check: fn(&ParamValues) -> Result<(), (&'static str, String)>,
}

/// Every constraint between parameters.
pub static CONSTRAINTS: &[Constraint] = &[
    Constraint {
        params: &["m", "n"],
        check: |v| sampling(v).validate().map_err(|e| ("m", e.to_string())),
    },
    Constraint {
        params: &["batch", "dataset"],
        check: |v| {
            let (b, d) = (v.count("batch"), v.count("dataset"));
            if b > d {
                Err((
                    "batch",
                    format!("the batch size B = {b} cannot exceed the dataset size |x| = {d}"),
                ))
            } else {
                Ok(())
            }
        },
    },
];

/// Check every constraint; the first that fails names the parameter to blame and why.
pub fn check_together(values: &ParamValues) -> Result<(), (&'static str, String)> {
    CONSTRAINTS.iter().try_for_each(|c| (c.check)(values))
}

/// Whether a parameter's control matters for the current values: the rate p only for Poisson
/// sampling, the sizes m and n only for the fixed-size schemes. Hidden controls keep their values.
///
/// Where the view shows a mechanism choice (the Rényi DP page), only the chosen mechanism's
/// parameter is relevant, the rate is q for both schemes, and n only sets m = q·n without
/// replacement.
pub fn is_relevant(view: View, values: &ParamValues, name: &str) -> bool {
    if view.params().contains(&"mech") {
        let mech = values.choice("mech");
        return match name {
            "sigma" => mech == "gaussian",
            "scale" => mech == "laplace",
            "eps" => mech == "randomized-response" || mech == "kary-randomized-response",
            "k" => mech == "kary-randomized-response",
            "n" => values.choice("scheme") == Scheme::WithoutReplacement.id(),
            "epochs" => values.choice("length") != "steps",
            "steps" => !view.params().contains(&"length") || values.choice("length") == "steps",
            _ => true,
        };
    }
    if view.params().contains(&"randomizer") && name == "k" {
        return values.choice("randomizer") == "k-rr";
    }
    if !view.params().contains(&"scheme") {
        return true;
    }
    let poisson = values.choice("scheme") == Scheme::Poisson.id();
    match name {
        "p" => poisson,
        "m" | "n" => !poisson,
        _ => true,
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
    pub fn params(self) -> &'static [&'static str] {
        match self {
            View::Page(p) => p.params(),
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
            name => match param(name) {
                Some(spec) => {
                    if let Err(msg) = values.set_text(spec.name, &val) {
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
            let names: Vec<&str> = c.params.to_vec();
            note(
                &mut notices,
                format!("{msg}. Using the defaults for {}.", names.join(" and ")),
            );
            for n in c.params {
                if let Some(spec) = param(n) {
                    let _ = values.set(spec.name, spec.default);
                }
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
    for name in view.params() {
        if let Some(spec) = param(name) {
            q.push('&');
            q.push_str(spec.name);
            q.push('=');
            q.push_str(&percent_encode(&spec.format(values.get(name))));
        }
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
