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

use super::{BoundKind, PageSpec, Reading, Readings, TableRow};
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
    /// that page's, names a readout, sentence or table the page does not compute, or is malformed
    /// in any way. Each reading comes back pointing at the page's own declaration.
    pub fn adopt(&self, text: &str) -> Option<Readings> {
        let page = self;
        let mut lines = text.split('\n');
        if lines.next()?.strip_prefix("p\t")? != page.id {
            return None;
        }
        let mut r = Readings::default();
        let (readouts, notes, tables) = (
            page.computed_readouts(),
            page.computed_notes(),
            page.table_specs(),
        );
        for line in lines {
            let mut f = fields(line).into_iter();
            let (kind, id) = (f.next()?, f.next()?);
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
                        spec: *readouts.iter().find(|d| d.id == id)?,
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
                    r.notes.push((*notes.iter().find(|d| d.id == id)?, text));
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
                    r.tables.push((*tables.iter().find(|d| d.id == id)?, rows));
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
