//! `amplify page <page-id>`: every number a page shows, from its declaration, at the settings
//! given as the page's own flags (each page is a subcommand whose flags are its controls): each
//! readout's id, label, value (or why there is none), the neighbouring relation it holds for and
//! what it is (an upper or lower bound, exact, or an estimate), then the page's sentences. The
//! numbers are the page's refined ones (`--quick`: the ones it shows while a control moves), the
//! same bits as the page's `data-value`s (the end-to-end tests compare every page).

use amp_model::param as p;
use amp_model::param::PARAMS;
use amp_model::params::{Count, Length, ParamValues, Pick, Value};
use amp_site::pages::{check_together, Page, Precision};
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::emit;

pub fn command() -> Command {
    Command::new("page")
        .about("Every number a page shows, at your settings: amplify page <page-id> [its controls] [--json]")
        .subcommand_required(true)
        .subcommand_value_name("PAGE")
        .subcommand_help_heading("Pages")
        .subcommands(Page::ALL.iter().map(|&page| page_command(page)))
}

fn page_command(page: Page) -> Command {
    let spec = page.spec();
    Command::new(spec.id)
        .about(spec.heading)
        .args(page.params().iter().map(|s| args::param(*s)))
        .arg(args::switch(
            "quick",
            "The quick numbers the page shows while a control moves, instead of the refined ones",
        ))
        .arg(args::json())
}

#[derive(Serialize)]
struct ReadoutRecord {
    id: &'static str,
    label: &'static str,
    value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    relation: &'static str,
    bound: &'static str,
}

#[derive(Serialize)]
struct NoteRecord {
    id: &'static str,
    text: String,
}

#[derive(Serialize)]
struct Record {
    page: &'static str,
    readouts: Vec<ReadoutRecord>,
    notes: Vec<NoteRecord>,
}

/// A length given in steps (`--steps`, `--steps-2`, …) without its unit (`--length`, …) is in steps.
const LENGTHS: [(Count, Pick<Length>); 4] = [
    (p::STEPS, p::LENGTH),
    (p::STEPS_2, p::LENGTH_2),
    (p::STEPS_3, p::LENGTH_3),
    (p::STEPS_4, p::LENGTH_4),
];

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let (id, sub) = m
        .subcommand()
        .ok_or("give a page: amplify page <page-id>")?;
    let page = Page::from_id(id).ok_or_else(|| format!("no page {id}"))?;
    let mut values = ParamValues::default();
    for spec in PARAMS {
        if let Ok(Some(v)) = sub.try_get_one::<Value>(spec.name) {
            values.set(spec, *v)?;
        }
    }
    for (steps, length) in LENGTHS {
        let given = |name: &str| sub.try_contains_id(name).unwrap_or(false);
        if given(steps.spec.name) && !given(length.spec.name) {
            values.set_choice(length, Length::Steps);
        }
    }
    check_together(&values).map_err(|(_, msg)| msg)?;
    let precision = if on(sub, "quick") {
        Precision::Quick
    } else {
        Precision::Fine
    };
    let spec = page.spec();
    let r = (spec.readouts)(&values, precision);
    let readouts = spec
        .computed_readouts()
        .into_iter()
        .filter_map(|d| r.get(d))
        .map(|x| {
            let (value, reason) = match &x.value {
                Ok(v) if v.is_finite() => (Some(*v), None),
                Ok(_) => (
                    None,
                    Some("not a finite number at these settings".to_string()),
                ),
                Err(e) => (None, Some(e.to_string())),
            };
            ReadoutRecord {
                id: x.spec.id,
                label: x.spec.label,
                value,
                reason,
                relation: x.relation.id(),
                bound: x.bound().id(),
            }
        })
        .collect();
    let notes = spec
        .computed_notes()
        .into_iter()
        .filter_map(|n| r.text(n).map(|t| (n.id, t.to_string())))
        .map(|(id, text)| NoteRecord { id, text })
        .collect();
    let record = Record {
        page: spec.id,
        readouts,
        notes,
    };
    if on(sub, "json") {
        return emit(&record, true);
    }
    let mut out = Vec::new();
    for x in &record.readouts {
        out.push(match (x.value, &x.reason) {
            (Some(v), _) => format!(
                "{} = {} ({}, {})",
                x.id,
                amp_format::compact_number(v),
                x.bound,
                x.relation
            ),
            (None, Some(why)) => format!("{} = — ({why})", x.id),
            (None, None) => format!("{} = —", x.id),
        });
    }
    for n in &record.notes {
        out.push(format!("{}: {}", n.id, n.text));
    }
    Ok(out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_is_a_subcommand() {
        let c = command();
        for page in Page::ALL {
            assert!(c.find_subcommand(page.id()).is_some(), "{}", page.id());
        }
        // The lengths in steps are the declared ones.
        for (steps, length) in LENGTHS {
            assert!(steps.spec.name.starts_with("steps"));
            assert!(length.spec.name.starts_with("length"));
        }
    }
}
