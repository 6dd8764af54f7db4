//! Pages as data. Each page is declared once ([`PageSpec`]): its heading, lede and an ordered list
//! of sections (prose, a workbench of controls and readouts, figures, page-specific widgets), and
//! one pure function from parameter values to every number it shows ([`Readings`]). The app
//! renders any page from its declaration; the URL's parameter list ([`Page::params`]), the
//! relevance rules and the tests are derived from the same declaration.
//!
//! A new page is: a variant of [`Page`] with its declaration in a file of this module (sections and
//! readouts), its figures in the registry ([`crate::figures`]), and its prose in `content/`.

pub mod accuracy;
mod bind;
pub mod home;
pub mod iteration;
pub mod limits;
mod renyi;
mod shuffling;
mod subsampling;
mod training;
mod url;

use std::sync::OnceLock;

use amp_math::Relation;

use crate::figures::{ChartError, FigureId, FigureSpec, FIGURES};
use crate::params::{ParamSpec, ParamValues};

pub use bind::{check_together, is_relevant, sampling, Constraint, CONSTRAINTS};
pub use url::{parse_query, percent_decode, percent_encode, to_query, UrlState, MAX_NOTICES};

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

    /// The page's declaration.
    pub fn spec(self) -> &'static PageSpec {
        match self {
            Page::Home => &home::SPEC,
            Page::Subsampling => &subsampling::SPEC,
            Page::Limits => &limits::SPEC,
            Page::Accuracy => &accuracy::SPEC,
            Page::Renyi => &renyi::SPEC,
            Page::Training => &training::SPEC,
            Page::Shuffling => &shuffling::SPEC,
            Page::Iteration => &iteration::SPEC,
        }
    }

    /// The `page=` value.
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// Navigation title.
    pub fn title(self) -> &'static str {
        self.spec().nav
    }

    /// Parse a `page=` value (the URL boundary only).
    pub fn from_id(id: &str) -> Option<Page> {
        Page::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The parameters this page's controls show, in order of appearance (derived from the
    /// declaration, once).
    pub fn params(self) -> &'static [&'static ParamSpec] {
        static CACHE: [OnceLock<Vec<&'static ParamSpec>>; Page::ALL.len()] =
            [const { OnceLock::new() }; Page::ALL.len()];
        let i = Page::ALL.iter().position(|&p| p == self).unwrap_or(0);
        CACHE[i].get_or_init(|| self.spec().params())
    }

    /// The figures registered on this page, in registry order.
    pub fn figures(self) -> impl Iterator<Item = &'static FigureSpec> {
        FIGURES.iter().filter(move |f| f.page == self)
    }
}

/// Whether a page's numbers are wanted fast (following a slider) or refined (once the controls
/// rest). Only pages whose readouts are expensive tell the two apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Fast enough to follow every slider movement.
    Quick,
    /// Finer, computed once the controls rest.
    Fine,
}

/// A number a page shows: its `data-testid`, label and shown digits.
#[derive(Debug, PartialEq, Eq)]
pub struct ReadoutSpec {
    /// `data-testid`, named after the quantity (`epsilon-prime`); unique across pages.
    pub id: &'static str,
    /// What the number is, in words with its symbol.
    pub label: &'static str,
    /// Significant digits shown (the full value is in `data-value`).
    pub digits: usize,
}

/// A sentence a page computes (a warning, a summary in words): its `data-testid` and style.
#[derive(Debug, PartialEq, Eq)]
pub struct NoteSpec {
    /// `data-testid`; unique across pages.
    pub id: &'static str,
    /// How it is shown.
    pub kind: NoteKind,
}

/// How a computed sentence is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A warning that does not stop the numbers.
    Warning,
    /// The numbers in a sentence.
    Sentence,
    /// A small remark.
    Small,
}

/// One computed number, or why there is none, with the neighbouring relation it holds for.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Which readout.
    pub spec: &'static ReadoutSpec,
    /// The number, or why it is unavailable.
    pub value: Result<f64, ChartError>,
    /// The neighbouring relation it holds for.
    pub relation: Relation,
}

/// Everything a page computes from the parameter values: numbers and sentences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readings {
    /// Numbers.
    pub numbers: Vec<Reading>,
    /// Sentences; `None` where there is nothing to say at these values.
    pub notes: Vec<(&'static NoteSpec, Option<String>)>,
}

impl Readings {
    /// Add a number.
    pub fn push(
        &mut self,
        spec: &'static ReadoutSpec,
        value: Result<f64, ChartError>,
        relation: Relation,
    ) {
        self.numbers.push(Reading {
            spec,
            value,
            relation,
        });
    }

    /// Add a sentence.
    pub fn note(&mut self, spec: &'static NoteSpec, text: Option<String>) {
        self.notes.push((spec, text));
    }

    /// The reading of a readout (by its declaration's id).
    pub fn get(&self, spec: &ReadoutSpec) -> Option<&Reading> {
        self.numbers.iter().find(|r| r.spec.id == spec.id)
    }

    /// The value of a readout, or why there is none (also when the page has no such readout).
    pub fn number(&self, spec: &ReadoutSpec) -> Result<f64, ChartError> {
        match self.get(spec) {
            Some(r) => r.value.clone(),
            None => Err(ChartError::NotApplicable(format!(
                "no readout {} on this page",
                spec.id
            ))),
        }
    }

    /// The text of a sentence (by its declaration's id).
    pub fn text(&self, spec: &NoteSpec) -> Option<&str> {
        self.notes
            .iter()
            .find(|(s, _)| s.id == spec.id)
            .and_then(|(_, t)| t.as_deref())
    }
}

/// A page of the app, declared once.
pub struct PageSpec {
    /// The `page=` value.
    pub id: &'static str,
    /// Title in the navigation.
    pub nav: &'static str,
    /// The page's level-1 heading (also the document title).
    pub heading: &'static str,
    /// The opening paragraph.
    pub lede: &'static str,
    /// What the page shows, in order.
    pub body: Body,
    /// Every number and sentence the page shows, from the parameter values.
    pub readouts: fn(&ParamValues, Precision) -> Readings,
    /// Whether the readouts are worth refining once the controls rest ([`Precision::Fine`]).
    pub refines: bool,
}

/// A page's content.
pub enum Body {
    /// Sections rendered in order from their declaration.
    Sections(&'static [Section]),
    /// A page the app still renders with its own component, with the parameters it shows.
    Custom(&'static [&'static ParamSpec]),
}

/// One section of a page.
pub enum Section {
    /// Explanatory prose: a static HTML fragment (MathML formulas), ours only.
    Prose(&'static str),
    /// Controls beside the numbers they move.
    Workbench(Workbench),
    /// Registered figures, in order.
    Figures {
        /// Accessible name of the group.
        label: &'static str,
        /// Which figures.
        figures: &'static [FigureId],
    },
    /// A page-specific part the app renders (a simulation panel, a live table).
    Widget(Widget),
}

/// Controls (left) and what they move (right).
pub struct Workbench {
    /// Accessible name of the section.
    pub label: &'static str,
    /// Heading over the controls.
    pub controls_title: &'static str,
    /// The controls, in order.
    pub params: &'static [&'static ParamSpec],
    /// A widget under the controls.
    pub under_controls: Option<Widget>,
    /// Heading over the results (no results panel when `None`).
    pub results_title: Option<&'static str>,
    /// The results, in groups.
    pub groups: &'static [Group],
}

/// A group of results: an optional heading and remark, notes and numbers.
pub struct Group {
    /// Subheading.
    pub heading: Option<&'static str>,
    /// A remark before the numbers.
    pub intro: Option<&'static str>,
    /// Computed sentences shown before the numbers (warnings).
    pub notes_before: &'static [&'static NoteSpec],
    /// The numbers.
    pub readouts: &'static [&'static ReadoutSpec],
    /// A remark after the numbers.
    pub remark: Option<&'static str>,
    /// Computed sentences shown after the numbers.
    pub notes_after: &'static [&'static NoteSpec],
    /// A widget after everything else.
    pub widget: Option<Widget>,
}

impl Group {
    /// A group of numbers alone.
    pub const fn numbers(readouts: &'static [&'static ReadoutSpec]) -> Group {
        Group {
            heading: None,
            intro: None,
            notes_before: &[],
            readouts,
            remark: None,
            notes_after: &[],
            widget: None,
        }
    }
}

/// Parts of pages that are more than controls, numbers and figures; the app has a component for
/// each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// The three techniques with a live number each (home).
    Techniques,
    /// Progress, cancel and run again for the median simulation (accuracy).
    SimPanel,
    /// The paper's sensitivity ratios beside this run's (accuracy).
    Reproduction,
    /// The paper's Table 1, filled from the simulations run so far (accuracy).
    TableOne,
}

impl PageSpec {
    /// The parameters the page's controls show, in order of appearance.
    pub fn params(&self) -> Vec<&'static ParamSpec> {
        match self.body {
            Body::Custom(params) => params.to_vec(),
            Body::Sections(sections) => {
                let mut out: Vec<&'static ParamSpec> = Vec::new();
                for s in sections {
                    if let Section::Workbench(w) = s {
                        for &p in w.params {
                            if !out.iter().any(|q| q.name == p.name) {
                                out.push(p);
                            }
                        }
                    }
                }
                out
            }
        }
    }

    /// Every readout the page declares, in order.
    pub fn readout_specs(&self) -> Vec<&'static ReadoutSpec> {
        self.groups()
            .flat_map(|g| g.readouts.iter().copied())
            .collect()
    }

    /// Every sentence the page declares, in order.
    pub fn note_specs(&self) -> Vec<&'static NoteSpec> {
        self.groups()
            .flat_map(|g| g.notes_before.iter().chain(g.notes_after).copied())
            .collect()
    }

    /// The figures the page shows, in order.
    pub fn figure_ids(&self) -> Vec<FigureId> {
        match self.body {
            Body::Custom(_) => vec![],
            Body::Sections(sections) => sections
                .iter()
                .flat_map(|s| match s {
                    Section::Figures { figures, .. } => figures.to_vec(),
                    _ => vec![],
                })
                .collect(),
        }
    }

    fn groups(&self) -> impl Iterator<Item = &'static Group> {
        let sections: &'static [Section] = match self.body {
            Body::Sections(s) => s,
            Body::Custom(_) => &[],
        };
        sections.iter().flat_map(|s| match s {
            Section::Workbench(w) => w.groups.iter(),
            _ => [].iter(),
        })
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
