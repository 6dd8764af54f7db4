//! `amplify figures`: the figure registry (id, page, title, parameters).

use amp_site::figures::FIGURES;
use amp_site::pages::Page;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};

pub fn command() -> Command {
    Command::new("figures")
        .about("List every figure: id, page and title (with --json, its parameters too)")
        .arg(args::json())
}

#[derive(Serialize)]
struct Entry {
    id: &'static str,
    title: &'static str,
    page: &'static str,
    params: Vec<&'static str>,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    if on(m, "json") {
        let entries: Vec<Entry> = FIGURES
            .iter()
            .map(|f| Entry {
                id: f.id.as_str(),
                title: f.title,
                page: Page::of(f.id).id(),
                params: f.params.iter().map(|p| p.name).collect(),
            })
            .collect();
        return serde_json::to_string(&entries).map_err(|e| format!("internal: {e}"));
    }
    Ok(FIGURES
        .iter()
        .map(|f| {
            format!(
                "{:<28} {:<12} {}",
                f.id.as_str(),
                Page::of(f.id).id(),
                f.title
            )
        })
        .collect::<Vec<_>>()
        .join("\n"))
}
