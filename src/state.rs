//! The app's state: what the URL describes, plus what the reader is typing.
//!
//! `values` always holds a valid set of parameters (each in its domain, and valid together). Text
//! the reader types that is not (yet) valid lives in `drafts`, with its message in `errors`, and
//! never reaches the math: the last valid state stays on screen.

use amp_model::param::by_name;

use amp_model::params::{NameMap, ParamSpec, ParamValues, Value};
use amp_site::pages::{check_together, params_query, parse_location, View};
use leptos::prelude::*;

use crate::browser;

/// Shared by every component through context.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The page or embedded figure on screen.
    pub view: RwSignal<View>,
    /// The parameter values in use (always valid).
    pub values: RwSignal<ParamValues>,
    /// Messages about parts of the URL that were ignored.
    pub notices: RwSignal<Vec<String>>,
    /// Text typed into number fields that differs from the value's canonical text.
    pub drafts: RwSignal<NameMap<String>>,
    /// Why a control's typed text is not in use.
    pub errors: RwSignal<NameMap<String>>,
    /// Bumped when the window resizes, so figures redraw at the new size.
    pub resize: RwSignal<u32>,
    /// The reader's colour theme choice.
    pub theme: RwSignal<ThemeChoice>,
    /// Whether the system asks for dark colours (`prefers-color-scheme: dark`).
    pub system_dark: RwSignal<bool>,
}

/// The colour theme: follow the system, or the reader's explicit choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Whatever `prefers-color-scheme` says.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    /// The stored name.
    pub fn id(self) -> &'static str {
        match self {
            ThemeChoice::System => "system",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// Parse a stored name (anything else is `System`).
    pub fn from_id(id: &str) -> ThemeChoice {
        match id {
            "light" => ThemeChoice::Light,
            "dark" => ThemeChoice::Dark,
            _ => ThemeChoice::System,
        }
    }

    /// The next choice of the toggle: system → light → dark → system.
    pub fn next(self) -> ThemeChoice {
        match self {
            ThemeChoice::System => ThemeChoice::Light,
            ThemeChoice::Light => ThemeChoice::Dark,
            ThemeChoice::Dark => ThemeChoice::System,
        }
    }
}

impl AppState {
    /// State from an address: its path relative to the app's root and its query string
    /// (`location.search`).
    pub fn from_location(path: &str, query: &str) -> AppState {
        let s = parse_location(path, query);
        AppState {
            view: RwSignal::new(s.view),
            values: RwSignal::new(s.values),
            notices: RwSignal::new(s.notices),
            drafts: RwSignal::new(NameMap::new()),
            errors: RwSignal::new(NameMap::new()),
            resize: RwSignal::new(0),
            theme: RwSignal::new(ThemeChoice::System),
            system_dark: RwSignal::new(false),
        }
    }

    /// Whether dark colours are in use (the reader's choice, else the system's).
    pub fn dark(&self) -> bool {
        match self.theme.get() {
            ThemeChoice::System => self.system_dark.get(),
            ThemeChoice::Light => false,
            ThemeChoice::Dark => true,
        }
    }

    /// Replace everything with what an address describes (back/forward navigation).
    pub fn load_location(&self, path: &str, query: &str) {
        let s = parse_location(path, query);
        // Only what changed: an unchanged view is not rebuilt (and its canvases not repainted).
        if self.view.get_untracked() != s.view {
            self.view.set(s.view);
        }
        if self.values.with_untracked(|v| *v != s.values) {
            self.values.set(s.values);
        }
        self.notices.set(s.notices);
        self.drafts.set(NameMap::new());
        self.errors.set(NameMap::new());
    }

    /// Set a value from a slider or a select: always canonical, so any draft is dropped.
    pub fn set_value(&self, spec: &'static ParamSpec, v: Value) {
        self.drafts.update(|d| {
            d.remove(spec.name);
        });
        self.apply(spec, v);
    }

    /// Text typed into a number field. Valid text is applied; invalid text stays as a draft with
    /// its message, and the value in use does not change.
    pub fn set_text(&self, spec: &'static ParamSpec, text: &str) {
        self.drafts.update(|d| {
            d.insert(spec.name, text.to_string());
        });
        match spec.parse(text) {
            Ok(v) => self.apply(spec, v),
            Err(msg) => self.errors.update(|e| {
                e.insert(spec.name, msg);
            }),
        }
    }

    /// When a number field loses focus, show the canonical text of the value in use if the draft
    /// denotes it (e.g. "0.50" becomes "0.5").
    pub fn settle(&self, spec: &'static ParamSpec) {
        let current = self.values.with_untracked(|v| v.get(spec));
        let same = self
            .drafts
            .with_untracked(|d| d.get(spec.name).map(|t| spec.parse(t) == Ok(current)));
        if same == Some(true) {
            self.drafts.update(|d| {
                d.remove(spec.name);
            });
        }
    }

    /// The text a number field shows: the draft, or the canonical text of the value in use.
    pub fn field_text(&self, spec: &'static ParamSpec) -> String {
        if let Some(t) = self.drafts.with(|d| d.get(spec.name).cloned()) {
            return t;
        }
        spec.format(self.values.with(|v| v.get(spec)))
    }

    fn apply(&self, spec: &'static ParamSpec, v: Value) {
        let name = spec.name;
        let mut next = self.values.get_untracked();
        if let Err(msg) = next.set(spec, v) {
            self.errors.update(|e| {
                e.insert(name, msg);
            });
            return;
        }
        if let Err((_, msg)) = check_together(&next) {
            self.errors.update(|e| {
                e.insert(name, msg);
            });
            return;
        }
        self.errors.update(|e| {
            e.remove(name);
        });
        // Drafts that were refused only in combination (m > n, say) may be fine now.
        let pending: Vec<(&'static str, String)> = self.drafts.with_untracked(|d| {
            d.iter()
                .filter(|(k, _)| *k != name)
                .map(|(k, t)| (k, t.clone()))
                .collect()
        });
        for (k, text) in pending {
            // Drafts are keyed by the declared name they were typed for.
            let Some(spec) = by_name(k) else { continue };
            if let Ok(pv) = spec.parse(&text) {
                let mut trial = next.clone();
                if trial.set(spec, pv).is_ok() && check_together(&trial).is_ok() {
                    next = trial;
                    self.errors.update(|e| {
                        e.remove(k);
                    });
                }
            }
        }
        self.values.set(next);
    }

    /// Go to another page or embed, adding a history entry.
    pub fn navigate(&self, view: View) {
        let q = self.values.with_untracked(|v| params_query(view, v));
        browser::push_url(&format!("{}{q}", browser::view_href(view)));
        self.notices.set(Vec::new());
        self.errors.set(NameMap::new());
        self.drafts.set(NameMap::new());
        self.view.set(view);
        browser::scroll_to_top();
    }

    /// The address of what is on screen (absolute: the view's path under the app's root, then
    /// its parameters).
    pub fn address(&self) -> String {
        let view = self.view.get();
        let q = self.values.with(|v| params_query(view, v));
        format!("{}{q}", browser::view_href(view))
    }

    /// [`Self::address`], or None once the state is disposed (the app unmounted), for callbacks
    /// that may run after that (timers).
    pub fn try_address(&self) -> Option<String> {
        let view = self.view.try_get()?;
        let q = self.values.try_with(|v| params_query(view, v))?;
        Some(format!("{}{q}", browser::view_href(view)))
    }
}
