//! A page's numbers carried in its pre-rendered document, so that the app can show them at start
//! without computing them again.
//!
//! [`crate::prerender`] writes every page at the defaults, with its refined numbers; it also puts
//! those [`Readings`] on the page's `<article>` (`data-readings`, in [`Readings::carry`]'s text
//! form). While the reader's settings are the defaults, the app adopts them
//! ([`Readings::adopt`]) instead of computing the page's numbers during its start-up, which on the
//! training page is most of the time before its first live figure; the first change of a setting
//! computes them as always.
//!
//! The text form: one record a line, fields separated by tabs (a `\`, tab or line feed inside a
//! field is escaped as `\\`, `\t`, `\n`):
//! - `p <page id>`, first;
//! - `n <readout id> <relation id> v <number>`, or `… e <why there is none>`;
//! - `s <sentence id> -` (nothing to say), or `s <sentence id> + <text>`;
//! - `t <table id> e <why there are no rows>`, or `t <table id> r` followed by its rows,
//!   `r <testid> <name> <tag> <value, or empty> <valid: 1 or 0> <shown> <note>…`.
//!
//! Numbers are written with Rust's shortest round-trip form, so they come back bit for bit; a
//! reason comes back as [`ChartError::NotApplicable`] with the same text.

use amp_math::Relation;

use super::{NoteSpec, PageSpec, Reading, Readings, ReadoutSpec, TableRow, TableSpec};
use crate::figures::ChartError;

const RELATIONS: [Relation; 3] = [Relation::AddRemove, Relation::ReplaceOne, Relation::ZeroOut];

impl Readings {
    /// The text form of these numbers for `page` (see the module's description).
    pub fn carry(&self, page: &PageSpec) -> String {
        let mut out = format!("p\t{}", esc(page.id));
        for r in &self.numbers {
            let value = match &r.value {
                Ok(v) => format!("v\t{v}"),
                Err(e) => format!("e\t{}", esc(&e.to_string())),
            };
            out += &format!("\nn\t{}\t{}\t{value}", esc(r.spec.id), r.relation.id());
        }
        for (s, text) in &self.notes {
            out += &match text {
                Some(t) => format!("\ns\t{}\t+\t{}", esc(s.id), esc(t)),
                None => format!("\ns\t{}\t-", esc(s.id)),
            };
        }
        for (t, rows) in &self.tables {
            match rows {
                Err(e) => out += &format!("\nt\t{}\te\t{}", esc(t.id), esc(e)),
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

    /// The numbers of `page` read back from [`Readings::carry`]'s text; `None` if the text is not
    /// that page's, names something the page does not declare, or is malformed in any way.
    pub fn adopt(page: &PageSpec, text: &str) -> Option<Readings> {
        let readouts = page.computed_readouts();
        let notes = page.computed_notes();
        let tables = page.table_specs();
        let mut lines = text.split('\n');
        let head: Vec<String> = fields(lines.next()?);
        if head.len() != 2 || head[0] != "p" || head[1] != page.id {
            return None;
        }
        let mut r = Readings::default();
        for line in lines {
            let f = fields(line);
            match (f.first()?.as_str(), f.len()) {
                ("n", 5) => {
                    let spec: &'static ReadoutSpec = *readouts.iter().find(|s| s.id == f[1])?;
                    let relation = *RELATIONS.iter().find(|x| x.id() == f[2])?;
                    let value = match f[3].as_str() {
                        "v" => Ok(f[4].parse::<f64>().ok()?),
                        "e" => Err(ChartError::NotApplicable(f[4].clone())),
                        _ => return None,
                    };
                    r.numbers.push(Reading {
                        spec,
                        value,
                        relation,
                    });
                }
                ("s", 3 | 4) => {
                    let spec: &'static NoteSpec = *notes.iter().find(|s| s.id == f[1])?;
                    let text = match (f[2].as_str(), f.get(3)) {
                        ("-", None) => None,
                        ("+", Some(t)) => Some(t.clone()),
                        _ => return None,
                    };
                    r.notes.push((spec, text));
                }
                ("t", 3 | 4) => {
                    let spec: &'static TableSpec = *tables.iter().find(|s| s.id == f[1])?;
                    let rows = match (f[2].as_str(), f.get(3)) {
                        ("r", None) => Ok(Vec::new()),
                        ("e", Some(e)) => Err(e.clone()),
                        _ => return None,
                    };
                    r.tables.push((spec, rows));
                }
                ("r", n) if n >= 7 => {
                    let Some((_, Ok(rows))) = r.tables.last_mut() else {
                        return None;
                    };
                    let mut f = f.into_iter().skip(1);
                    let mut next = || f.next();
                    let (testid, name, tag, value, valid, shown) =
                        (next()?, next()?, next()?, next()?, next()?, next()?);
                    rows.push(TableRow {
                        testid,
                        name,
                        tag,
                        value: match value.as_str() {
                            "" => None,
                            v => Some(v.parse::<f64>().ok()?),
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
