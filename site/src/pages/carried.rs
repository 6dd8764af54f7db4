//! A page's numbers carried in its pre-rendered document, so that the app can show them at start
//! without computing them again.
//!
//! [`crate::prerender`] writes every page at the defaults, with its refined numbers; it also puts
//! those [`Readings`] on the page's `<article>` (`data-readings`, in [`PageSpec::carry`]'s text
//! form). While the reader's settings are the defaults, the app adopts them
//! ([`PageSpec::adopt`]) instead of computing the page's numbers during its start-up, which on the
//! training page is most of the time before its first live figure; the first change of a setting
//! computes them as always.
//!
//! The text form: one record a line, fields separated by tabs (a `\`, tab or line feed inside a
//! field is escaped as `\\`, `\t`, `\n`):
//! - `p <page id>`, first;
//! - `n <readout id> <relation id> v <number>`, or `… e <why there is none>`, either followed by
//!   the reading's own kind of bound (`upper`, `lower`, `exact`, `estimate`) when it has one
//!   ([`super::Reading::bound`]);
//! - `s <sentence id> -` (nothing to say), or `s <sentence id> + <text>`;
//! - `t <table id> e <why there are no rows>`, or `t <table id> r` followed by its rows,
//!   `r <testid> <name> <tag> <value, or empty> <valid: 1 or 0> <shown> <note>…`.
//!
//! Numbers are written with Rust's shortest round-trip form, so they come back bit for bit; a
//! reason comes back as [`ModelError::NotApplicable`] with the same text.

use amp_math::Relation;

use super::{
    BoundKind, NoteKind, NoteSpec, PageSpec, Reading, Readings, ReadoutSpec, TableRow, TableSpec,
};
use amp_model::ModelError;

const RELATIONS: [Relation; 4] = [
    Relation::AddRemove,
    Relation::ReplaceOne,
    Relation::ZeroOut,
    Relation::AddRemoveUser,
];
const BOUNDS: [BoundKind; 4] = [
    BoundKind::Upper,
    BoundKind::Lower,
    BoundKind::Exact,
    BoundKind::Estimate,
];

impl PageSpec {
    /// The text form of this page's numbers (see the module's description).
    pub fn carry(&self, readings: &Readings) -> String {
        let page = self;
        let mut out = format!("p\t{}", esc(page.id));
        for r in &readings.numbers {
            let value = match &r.value {
                Ok(v) => format!("v\t{v}"),
                Err(e) => format!("e\t{}", esc(&e.to_string())),
            };
            out += &format!("\nn\t{}\t{}\t{value}", esc(r.spec.id), r.relation.id());
            if let Some(b) = r.bound {
                out += &format!("\t{}", b.id());
            }
        }
        for (s, text) in &readings.notes {
            out += &match text {
                Some(t) => format!("\ns\t{}\t+\t{}", esc(s.id), esc(t)),
                None => format!("\ns\t{}\t-", esc(s.id)),
            };
        }
        for (t, rows) in &readings.tables {
            match rows {
                Err(e) => out += &format!("\nt\t{}\te\t{}", esc(t.id), esc(&e.to_string())),
                Ok(rows) => {
                    out += &format!("\nt\t{}\tr", esc(t.id));
                    for row in rows {
                        out += &format!(
                            "\nr\t{}\t{}\t{}\t{}\t{}\t{}",
                            esc(&row.testid),
                            esc(&row.name),
                            esc(&row.tag),
                            row.value.map(|v| v.to_string()).unwrap_or_default(),
                            if row.valid { 1 } else { 0 },
                            esc(&row.shown)
                        );
                        for n in &row.notes {
                            out += &format!("\t{}", esc(n));
                        }
                    }
                }
            }
        }
        out
    }

    /// The numbers of `page` read back from [`PageSpec::carry`]'s text; `None` if the text is not
    /// that page's or is malformed in any way. The declarations of what comes back carry only
    /// their ids, which is all that [`Readings`] looks them up by: a readout is shown with its own
    /// page's declaration. (Made once per start of the app, and kept: a few hundred bytes.)
    pub fn adopt(&self, text: &str) -> Option<Readings> {
        let page = self;
        let mut lines = text.split('\n');
        if lines.next()?.strip_prefix("p\t")? != page.id {
            return None;
        }
        let mut r = Readings::default();
        let mut declared = page.readout_specs();
        declared.extend(page.widgets().flat_map(|w| w.readouts().iter().copied()));
        for line in lines {
            let mut f = fields(line).into_iter();
            let (kind, id) = (f.next()?, leak(f.next()?));
            let (tag, rest) = (f.next(), f.next());
            match (kind.as_str(), tag.as_deref(), rest) {
                ("n", Some(relation), Some(how)) => {
                    let relation = *RELATIONS.iter().find(|x| x.id() == relation)?;
                    let body = f.next()?;
                    let bound = match f.next() {
                        None => None,
                        Some(b) => Some(*BOUNDS.iter().find(|x| x.id() == b)?),
                    };
                    if f.next().is_some() {
                        return None;
                    }
                    let value = match how.as_str() {
                        "v" => Ok(amp_format::parse_f64(&body)?),
                        "e" => Err(ModelError::NotApplicable(body)),
                        _ => return None,
                    };
                    r.numbers.push(Reading {
                        // The page's own declaration where it has one (its kind of bound).
                        spec: declared
                            .iter()
                            .copied()
                            .find(|d| d.id == id)
                            .unwrap_or_else(|| readout(id)),
                        value,
                        relation,
                        bound,
                    });
                }
                ("s", Some(said), text) => {
                    if f.next().is_some() {
                        return None;
                    }
                    let text = match (said, text) {
                        ("-", None) => None,
                        ("+", Some(t)) => Some(t),
                        _ => return None,
                    };
                    r.notes.push((note(id), text));
                }
                ("t", Some(how), why) => {
                    if f.next().is_some() {
                        return None;
                    }
                    let rows = match (how, why) {
                        ("r", None) => Ok(Vec::new()),
                        ("e", Some(e)) => Err(ModelError::NotApplicable(e)),
                        _ => return None,
                    };
                    r.tables.push((table(id), rows));
                }
                ("r", Some(name), Some(tag)) => {
                    let Some((_, Ok(rows))) = r.tables.last_mut() else {
                        return None;
                    };
                    let (value, valid, shown) = (f.next()?, f.next()?, f.next()?);
                    rows.push(TableRow {
                        testid: id.to_string(),
                        name: name.to_string(),
                        tag,
                        value: match value.as_str() {
                            "" => None,
                            v => Some(amp_format::parse_f64(v)?),
                        },
                        valid: match valid.as_str() {
                            "1" => true,
                            "0" => false,
                            _ => return None,
                        },
                        shown,
                        notes: f.collect(),
                    });
                }
                _ => return None,
            }
        }
        Some(r)
    }
}

/// A string kept for the rest of the run (the id of an adopted declaration): made once per id,
/// however many times numbers are adopted (the compute worker's answers are adopted on every
/// change of a setting), so what is kept is bounded by the declared ids.
fn leak(s: String) -> &'static str {
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    KEPT.with_borrow_mut(|kept| match kept.iter().find(|k| **k == s) {
        Some(k) => *k,
        None => {
            let k: &'static str = Box::leak(s.into_boxed_str());
            kept.push(k);
            k
        }
    })
}

/// Declarations standing in for an adopted page's, carrying only their ids, each made once.
macro_rules! kept_declaration {
    ($fn:ident, $ty:ty, $make:expr) => {
        fn $fn(id: &'static str) -> &'static $ty {
            thread_local! {
                static KEPT: std::cell::RefCell<Vec<&'static $ty>> = const { std::cell::RefCell::new(Vec::new()) };
            }
            KEPT.with_borrow_mut(|kept| match kept.iter().find(|k| std::ptr::eq(k.id, id)) {
                Some(k) => *k,
                None => {
                    let k: &'static $ty = Box::leak(Box::new($make(id)));
                    kept.push(k);
                    k
                }
            })
        }
    };
}

kept_declaration!(readout, ReadoutSpec, |id| ReadoutSpec {
    id,
    label: "",
    digits: 0,
    bound: BoundKind::Exact,
});
kept_declaration!(note, NoteSpec, |id| NoteSpec {
    id,
    kind: NoteKind::Small,
});
kept_declaration!(table, TableSpec, |id| TableSpec {
    id,
    caption: "",
    columns: &[],
});

/// A field with its `\`, tab and line feed escaped.
fn esc(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
}

/// The fields of one record, unescaped.
fn fields(line: &str) -> Vec<String> {
    line.split('\t')
        .map(|f| {
            let mut out = String::with_capacity(f.len());
            let mut chars = f.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    match chars.next() {
                        Some('t') => out.push('\t'),
                        Some('n') => out.push('\n'),
                        Some(other) => out.push(other),
                        None => out.push('\\'),
                    }
                } else {
                    out.push(c);
                }
            }
            out
        })
        .collect()
}
