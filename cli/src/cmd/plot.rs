//! `amplify plot <figure-id>`: one figure of the registry as SVG (the app's drawing code), or its
//! data as CSV or JSON. Each figure is a subcommand whose flags are its own parameters.

use amp_chart::svg::SIZE;
use amp_site::export::{chart_csv, chart_json};
use amp_site::figures::{FigureSpec, FIGURES};
use amp_site::prerender::figure_svg;
use amp_site::svg::render_svg;
use clap::{Arg, ArgMatches, Command};

use crate::args;

pub fn command() -> Command {
    Command::new("plot")
        .about("Draw one figure to a file: amplify plot <figure-id> [its parameters] --out FILE")
        .subcommand_required(true)
        .subcommand_value_name("FIGURE")
        .subcommand_help_heading("Figures")
        .subcommands(FIGURES.iter().map(figure_command))
}

fn figure_command(fig: &'static FigureSpec) -> Command {
    Command::new(fig.id.as_str())
        .about(fig.title)
        .args(fig.params.iter().map(|spec| args::param(*spec)))
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .help("Where to write the figure")
                .required(true),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .help("svg: the figure; csv or json: its data with the parameters")
                .value_parser(["svg", "csv", "json"])
                .default_value("svg"),
        )
        .arg(
            Arg::new("no-title")
                .long("no-title")
                .help("Draw the SVG without its title, as the app's pages show it under a heading")
                .action(clap::ArgAction::SetTrue),
        )
        .arg(dimension("width", SIZE.0))
        .arg(dimension("height", SIZE.1))
}

fn dimension(name: &'static str, default: u32) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("PIXELS")
        .help(format!(
            "The SVG's {name} in pixels, 200 to 4000 (default {default})"
        ))
        .value_parser(move |text: &str| {
            text.parse::<u32>()
                .ok()
                .filter(|v| (200..=4000).contains(v))
                .ok_or_else(|| {
                    format!("the {name} must be a whole number of pixels from 200 to 4000")
                })
        })
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let (id, sub) = m
        .subcommand()
        .ok_or("plot needs a figure id (see amplify figures)")?;
    let fig = FIGURES
        .iter()
        .find(|f| f.id.as_str() == id)
        .ok_or_else(|| format!("no figure “{id}” (see amplify figures)"))?;
    let out = sub
        .get_one::<String>("out")
        .ok_or("plot needs --out FILE")?;
    let size = (
        sub.get_one::<u32>("width").copied().unwrap_or(SIZE.0),
        sub.get_one::<u32>("height").copied().unwrap_or(SIZE.1),
    );
    let values = args::values(sub)?;
    let chart = || fig.chart(&values).map_err(|e| e.to_string());
    let text = match sub.get_one::<String>("format").map(String::as_str) {
        Some("csv") => chart_csv(fig, &values, &chart()?),
        Some("json") => chart_json(fig, &values, &chart()?),
        _ if sub.get_flag("no-title") => figure_svg(&chart()?, size)?,
        _ => render_svg(fig, &values, size)?,
    };
    std::fs::write(out, text).map_err(|e| format!("cannot write {out}: {e}"))?;
    Ok(String::new())
}
