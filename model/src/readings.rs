//! What a page computes from the parameter values, as plain data: numbers ([`Reading`]: a value
//! or why there is none, the neighbouring relation it holds for, what kind of bound it is),
//! sentences and tables, each pointing at its declaration ([`ReadoutSpec`], [`NoteSpec`],
//! [`TableSpec`]). The site's pages declare which readouts go where; the model's topics compute
//! them.

use amp_math::Relation;

use crate::ModelError;

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
    /// What the number is with respect to the quantity its label names ([`BoundKind`]); a reading
    /// may say otherwise at some values ([`Reading::bound`]).
    pub bound: BoundKind,
}

/// What a number is with respect to the quantity it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// Certified: the quantity is at most this (ε, δ, an attacker's success, the noise that is
    /// enough).
    Upper,
    /// The quantity is at least this (a lower bound on ε, the most steps or the largest ε₀ that
    /// still meet a target).
    Lower,
    /// The quantity itself, to the function's stated accuracy (a formula, an input, a grid step).
    Exact,
    /// An approximation that is neither bound (a central-limit value, a heuristic, a ratio of
    /// bounds).
    Estimate,
}

impl BoundKind {
    /// Machine name: `upper`, `lower`, `exact`, `estimate`.
    pub fn id(self) -> &'static str {
        match self {
            BoundKind::Upper => "upper",
            BoundKind::Lower => "lower",
            BoundKind::Exact => "exact",
            BoundKind::Estimate => "estimate",
        }
    }
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

/// A table a page computes: its `data-testid`, caption and column headings.
#[derive(Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// `data-testid`; unique across pages.
    pub id: &'static str,
    /// The caption.
    pub caption: &'static str,
    /// Column headings: the row heading's, the value's, then one per note.
    pub columns: &'static [&'static str],
}

/// One row of a computed table: a heading (a name over a small tag), a value cell, note cells.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    /// `data-testid` of the row.
    pub testid: String,
    /// The row's name.
    pub name: String,
    /// A short tag under the name (an id).
    pub tag: String,
    /// The value at full precision (`data-value`), when there is one.
    pub value: Option<f64>,
    /// Whether the value holds here (the value cell is muted when not).
    pub valid: bool,
    /// The value cell's text (rounded, or why there is no value).
    pub shown: String,
    /// The remaining cells.
    pub notes: Vec<String>,
}

/// One computed number, or why there is none, with the neighbouring relation it holds for.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// Which readout.
    pub spec: &'static ReadoutSpec,
    /// The number, or why it is unavailable.
    pub value: Result<f64, ModelError>,
    /// The neighbouring relation it holds for.
    pub relation: Relation,
    /// What the number is, when it differs from its declaration's [`ReadoutSpec::bound`] at
    /// these values (an exact curve where the declaration allows an upper bound, say).
    pub bound: Option<BoundKind>,
}

impl Reading {
    /// What the number is: the reading's own word, else its declaration's.
    pub fn bound(&self) -> BoundKind {
        self.bound.unwrap_or(self.spec.bound)
    }
}

/// Everything a page computes from the parameter values: numbers and sentences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readings {
    /// Numbers.
    pub numbers: Vec<Reading>,
    /// Sentences; `None` where there is nothing to say at these values.
    pub notes: Vec<(&'static NoteSpec, Option<String>)>,
    /// Tables: their rows, or why there are none.
    pub tables: Vec<(&'static TableSpec, Result<Vec<TableRow>, ModelError>)>,
}

impl Readings {
    /// Add a number.
    pub fn push(
        &mut self,
        spec: &'static ReadoutSpec,
        value: Result<f64, ModelError>,
        relation: Relation,
    ) {
        self.numbers.push(Reading {
            spec,
            value,
            relation,
            bound: None,
        });
    }

    /// Add a number that is, at these values, something other than its declaration says.
    pub fn push_bound(
        &mut self,
        spec: &'static ReadoutSpec,
        value: Result<f64, ModelError>,
        relation: Relation,
        bound: BoundKind,
    ) {
        self.numbers.push(Reading {
            spec,
            value,
            relation,
            bound: Some(bound),
        });
    }

    /// Add a sentence.
    pub fn note(&mut self, spec: &'static NoteSpec, text: Option<String>) {
        self.notes.push((spec, text));
    }

    /// Add a table.
    pub fn table(&mut self, spec: &'static TableSpec, rows: Result<Vec<TableRow>, ModelError>) {
        self.tables.push((spec, rows));
    }

    /// The rows of a table (by its declaration's id).
    pub fn rows(&self, spec: &TableSpec) -> Option<&Result<Vec<TableRow>, ModelError>> {
        self.tables
            .iter()
            .find(|(s, _)| s.id == spec.id)
            .map(|(_, rows)| rows)
    }

    /// The reading of a readout (by its declaration's id).
    pub fn get(&self, spec: &ReadoutSpec) -> Option<&Reading> {
        self.numbers.iter().find(|r| r.spec.id == spec.id)
    }

    /// The value of a readout, or why there is none (also when the page has no such readout).
    pub fn number(&self, spec: &ReadoutSpec) -> Result<f64, ModelError> {
        match self.get(spec) {
            Some(r) => r.value.clone(),
            None => Err(ModelError::NotApplicable(format!(
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
