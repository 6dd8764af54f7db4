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
mod carried;
pub mod home;
pub mod iteration;
pub mod limits;
pub mod renyi;
pub mod risk;
pub mod shuffling;
pub mod subsampling;
pub mod training;
mod url;

use std::sync::OnceLock;

use crate::figures::{FigureId, FigureSpec};
use amp_model::params::{ParamSpec, ParamValues};

pub use amp_model::readings::{
    BoundKind, NoteKind, NoteSpec, Precision, Reading, Readings, ReadoutSpec, TableRow, TableSpec,
};
pub use bind::{check_together, is_relevant, Constraint, CONSTRAINTS};
pub use url::{
    page_links, params_query, parse_location, parse_query, percent_decode, percent_encode,
    to_query, view_from_path, view_path, UrlState, MAX_NOTICES,
};

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Page {
    /// What amplification is, and the way into the other pages.
    Home,
    /// Amplification by subsampling (Steinke, "Privacy amplification by subsampling"; Brown,
    /// lecture notes "Privacy amplification", §1).
    Subsampling,
    /// When subsampling stops being free (Steinke, "Limits of privacy amplification by
    /// subsampling").
    Limits,
    /// When sampling first makes a release more accurate (Hu, Drechsler & Kim, "Accuracy gains from
    /// privacy amplification through sampling for differential privacy").
    Accuracy,
    /// Rényi DP of subsampled mechanisms, composition and conversion (Wang's slides, "Privacy
    /// amplification by subsampling and Rényi DP").
    Renyi,
    /// Tight accounting of DP-SGD (privacy loss distributions; the machine-learning regime of
    /// Steinke, part 2).
    Training,
    /// What ε means for a membership attacker: trade-off curves, attack risk, noise calibrated to it.
    Risk,
    /// Amplification by shuffling: every published bound side by side (Brown's notes, §1.3, §2).
    Shuffling,
    /// Amplification by iteration: one pass of noisy SGD releasing its last iterate (Brown, §3).
    Iteration,
}

impl Page {
    /// Every page that exists, in navigation order.
    pub const ALL: [Page; 9] = [
        Page::Home,
        Page::Subsampling,
        Page::Limits,
        Page::Accuracy,
        Page::Renyi,
        Page::Training,
        Page::Risk,
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
            Page::Risk => &risk::SPEC,
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

    /// The figures this page shows, in the order it shows them (its declaration's figure
    /// sections).
    pub fn figures(self) -> impl Iterator<Item = &'static FigureSpec> {
        self.spec().figure_ids().into_iter().map(FigureId::spec)
    }

    /// The page that shows a figure (every registered figure is on exactly one page; a test
    /// checks). An embed links to it.
    pub fn of(figure: FigureId) -> Page {
        Page::ALL
            .into_iter()
            .find(|p| p.spec().figure_ids().contains(&figure))
            .unwrap_or(Page::Home)
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
    /// The opening paragraph: a prose fragment of plain text (`content/<page>-lede.html`), so that,
    /// like the prose, the web app takes it from the pre-rendered document or `content.json`.
    pub lede: Prose,
    /// What the page shows, in order.
    pub sections: &'static [Section],
    /// Every number and sentence the page shows, from the parameter values.
    pub readouts: fn(&ParamValues, Precision) -> Readings,
    /// Whether the readouts are worth refining once the controls rest ([`Precision::Fine`]).
    pub refines: bool,
    /// Whether the page's quick numbers, though exact and not refined, take longer than a frame
    /// in the browser (the shuffling page's every published bound and its inverses): the app then
    /// computes them in the compute worker too, as it does for a page that refines.
    pub quick_off_thread: bool,
}

/// A page's prose: the name of its fragment in `content/` (without `.html`). The text is in
/// [`crate::prose`] (feature `prose`: the CLI, the pre-rendered pages, the tests). The web app does
/// not carry it: it takes the prose of the page it opens on from the pre-rendered document, and
/// every page's from the build's `content-<hash>.json`, fetched once the page has started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prose(pub &'static str);

/// One section of a page.
pub enum Section {
    /// Explanatory prose: a static HTML fragment (MathML formulas), ours only.
    Prose(Prose),
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
    /// Blocks of controls, each under its heading, in order.
    pub controls: &'static [Controls],
    /// Heading over the results.
    pub results_title: Option<&'static str>,
    /// The results, in groups (no results panel when there are none).
    pub groups: &'static [Group],
}

/// A block of controls under a heading, with what is said under them.
pub struct Controls {
    /// Heading over the controls.
    pub title: &'static str,
    /// The controls, in order.
    pub params: &'static [&'static ParamSpec],
    /// Computed sentences under the controls (e.g. what the run amounts to).
    pub notes: &'static [&'static NoteSpec],
    /// A remark under the controls.
    pub remark: Option<&'static str>,
    /// A widget under the controls.
    pub widget: Option<Widget>,
}

/// Whether a block of controls is shown: some control of it matters at these values (a block
/// without controls always is).
pub fn block_is_shown(view: View, values: &ParamValues, c: &Controls) -> bool {
    c.params.is_empty() || c.params.iter().any(|s| is_relevant(view, values, s))
}

impl Controls {
    /// Controls alone.
    pub const fn new(title: &'static str, params: &'static [&'static ParamSpec]) -> Controls {
        Controls {
            title,
            params,
            notes: &[],
            remark: None,
            widget: None,
        }
    }
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
    /// A computed table after the notes.
    pub table: Option<&'static TableSpec>,
    /// A widget after everything else.
    pub widget: Option<Widget>,
    /// Readouts of a run shape, shown only while it is in use (a group-privacy number for one
    /// record per person would only repeat ε); every other readout is always shown.
    pub shown_when: &'static [Shown],
}

/// A readout shown only at the values where `when` holds (it is still computed, and in the
/// CLI's output, everywhere).
#[derive(Debug)]
pub struct Shown {
    /// The readout.
    pub readout: &'static ReadoutSpec,
    /// Whether it applies at these values.
    pub when: fn(&ParamValues) -> bool,
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
            table: None,
            widget: None,
            shown_when: &[],
        }
    }

    /// Whether the group's heading is shown at these values: unless every readout it has is
    /// hidden ([`Group::shows`]) and it has nothing else to show.
    pub fn heading_shown(&self, values: &ParamValues) -> bool {
        self.readouts.is_empty()
            || self.readouts.iter().any(|s| self.shows(s, values))
            || !self.notes_before.is_empty()
            || self.table.is_some()
            || self.widget.is_some()
    }

    /// Whether the readout `spec` of this group is shown at these values ([`Group::shown_when`]).
    pub fn shows(&self, spec: &ReadoutSpec, values: &ParamValues) -> bool {
        self.shown_when
            .iter()
            .find(|s| s.readout.id == spec.id)
            .is_none_or(|s| (s.when)(values))
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
    /// Whether the numbers on screen are the quick or the refined ones, and their grid (training).
    AccountingStatus,
    /// The plain-language statement of the run with a copy button (training).
    Statement,
    /// "Add a phase", "Remove the last phase", and the run file: download and open (training).
    Phases,
}

impl Widget {
    /// The numbers of the page's [`Readings`] this widget shows (beyond the page's readouts).
    pub fn readouts(self) -> &'static [&'static ReadoutSpec] {
        match self {
            Widget::Techniques => &[
                &home::EPSILON_PRIME,
                &home::SHUFFLE_EPSILON,
                &home::ITERATION_EPSILON,
                &home::ITERATION_PLAIN,
            ],
            Widget::AccountingStatus => &[&training::GRID_STEP, &risk::GRID_STEP],
            _ => &[],
        }
    }

    /// The sentences of the page's [`Readings`] this widget shows.
    pub fn notes(self) -> &'static [&'static NoteSpec] {
        match self {
            Widget::Techniques => &[&home::SHUFFLE_BOUND],
            Widget::Statement => &[&training::STATEMENT],
            _ => &[],
        }
    }
}

impl PageSpec {
    /// Whether the app computes the page's quick numbers in the compute worker.
    pub fn quick_in_worker(&self) -> bool {
        self.refines || self.quick_off_thread
    }

    /// The parameters the page's controls show, in order of appearance.
    pub fn params(&self) -> Vec<&'static ParamSpec> {
        let mut out: Vec<&'static ParamSpec> = Vec::new();
        for w in self.workbenches() {
            for &p in w.controls.iter().flat_map(|c| c.params) {
                if !out.iter().any(|q| q.name == p.name) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Every readout the page declares, in order.
    pub fn readout_specs(&self) -> Vec<&'static ReadoutSpec> {
        self.groups()
            .flat_map(|g| g.readouts.iter().copied())
            .collect()
    }

    /// Every sentence the page declares, in order.
    pub fn note_specs(&self) -> Vec<&'static NoteSpec> {
        let under_controls = self
            .workbenches()
            .flat_map(|w| w.controls.iter().flat_map(|c| c.notes.iter().copied()));
        under_controls
            .chain(
                self.groups()
                    .flat_map(|g| g.notes_before.iter().chain(g.notes_after).copied()),
            )
            .collect()
    }

    /// Every widget on the page, wherever it sits, in order.
    pub fn widgets(&self) -> impl Iterator<Item = Widget> + '_ {
        self.sections.iter().flat_map(move |s| -> Vec<Widget> {
            match s {
                Section::Widget(w) => vec![*w],
                Section::Workbench(w) => w
                    .controls
                    .iter()
                    .filter_map(|c| c.widget)
                    .chain(w.groups.iter().filter_map(|g| g.widget))
                    .collect(),
                _ => vec![],
            }
        })
    }

    /// Every number the page computes: its readouts, then those its widgets read.
    pub fn computed_readouts(&self) -> Vec<&'static ReadoutSpec> {
        let mut out = self.readout_specs();
        out.extend(self.widgets().flat_map(|w| w.readouts().iter().copied()));
        out
    }

    /// Every sentence the page computes: its declared ones, then those its widgets show.
    pub fn computed_notes(&self) -> Vec<&'static NoteSpec> {
        let mut out = self.note_specs();
        out.extend(self.widgets().flat_map(|w| w.notes().iter().copied()));
        out
    }

    /// Every table the page declares, in order.
    pub fn table_specs(&self) -> Vec<&'static TableSpec> {
        self.groups().filter_map(|g| g.table).collect()
    }

    /// The figures the page shows, in order.
    pub fn figure_ids(&self) -> Vec<FigureId> {
        self.sections
            .iter()
            .flat_map(|s| match s {
                Section::Figures { figures, .. } => figures.to_vec(),
                _ => vec![],
            })
            .collect()
    }

    fn workbenches(&self) -> impl Iterator<Item = &'static Workbench> {
        self.sections.iter().filter_map(|s| match s {
            Section::Workbench(w) => Some(w),
            _ => None,
        })
    }

    fn groups(&self) -> impl Iterator<Item = &'static Group> {
        self.workbenches().flat_map(|w| w.groups.iter())
    }

    /// The ids of the readouts the page shows at these values ([`Group::shows`]), in order.
    pub fn shown_readouts(&self, values: &ParamValues) -> Vec<&'static str> {
        self.groups()
            .flat_map(|g| {
                g.readouts
                    .iter()
                    .filter(|s| g.shows(s, values))
                    .map(|s| s.id)
            })
            .collect()
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
    /// Whether the view hands work to the app's compute worker (a page that refines or shows a
    /// figure computed there, or the embed of such a figure): its document says so (`<html
    /// data-compute="worker">`), and the app starts the worker as soon as it is live, so that the
    /// compute module is there for the first change of a setting.
    pub fn uses_worker(self) -> bool {
        match self {
            View::Page(p) => p.spec().quick_in_worker() || p.figures().any(|f| f.is_deferred()),
            View::Embed(f) => f.is_deferred(),
        }
    }

    /// The parameters whose controls this view shows.
    pub fn params(self) -> &'static [&'static ParamSpec] {
        match self {
            View::Page(page) => page.params(),
            View::Embed(f) => f.params,
        }
    }
}
