//! Flags from the parameter declarations: one clap argument per declared parameter, with its
//! name, aliases, help, domain and default taken from [`amp_model::param`]. Values are parsed and
//! validated by the declaration itself ([`ParamSpec::parse`]), so the CLI accepts exactly what the
//! app's controls accept, with the same messages.

use amp_model::param::PARAMS;

use amp_model::params::{Domain, Group, Param, ParamSpec, ParamValues, Value};
use amp_site::pages::check_together;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Arg, ArgAction, ArgMatches};

/// The flag of a declared parameter (optional; its default is the declaration's).
pub fn param(p: impl Param) -> Arg {
    let spec = p.spec();
    let help = format!(
        "{} ({}; default {})",
        spec.help,
        spec.domain_text(),
        spec.format(spec.default)
    );
    flag_of(spec).help(help)
}

/// The flag of a declared parameter that the command cannot do without.
pub fn required(p: impl Param) -> Arg {
    let spec = p.spec();
    flag_of(spec)
        .help(format!("{} ({})", spec.help, spec.domain_text()))
        .required(true)
}

fn flag_of(spec: &'static ParamSpec) -> Arg {
    let arg = Arg::new(spec.name)
        .long(spec.name)
        .visible_aliases(spec.aliases.iter().copied())
        .value_name(value_name(spec.name))
        .action(ArgAction::Set)
        // `--eps -1` is a bad ε (the declaration says why), not an unknown flag `-1`.
        .allow_negative_numbers(true);
    match spec.domain {
        Domain::Choice(options) => arg.value_parser(
            PossibleValuesParser::new(
                options
                    .iter()
                    .map(|o| PossibleValue::new(o.id).help(o.label)),
            )
            .try_map(move |text: String| spec.parse(&text)),
        ),
        _ => arg.value_parser(move |text: &str| spec.parse(text)),
    }
}

/// `total-eps` → `TOTAL_EPS`.
pub fn value_name(name: &str) -> String {
    name.to_uppercase().replace('-', "_")
}

/// A switch such as `--json`.
pub fn switch(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .help(help)
        .action(ArgAction::SetTrue)
}

/// `--json`, on every command that prints numbers.
pub fn json() -> Arg {
    switch(
        "json",
        "Print one JSON object instead of `name = value` lines",
    )
}

/// Whether a switch was given.
pub fn on(m: &ArgMatches, name: &str) -> bool {
    m.get_flag(name)
}

/// Whether the parameter's flag (under its name or an alias) was given.
pub fn given(m: &ArgMatches, p: impl Param) -> bool {
    m.try_contains_id(p.spec().name).unwrap_or(false)
}

/// The values of the parameters given on the command line, the declaration's default for the
/// rest, then the cross-parameter constraints the app checks too (e.g. m ≤ n).
pub fn values(m: &ArgMatches) -> Result<ParamValues, String> {
    let mut v = ParamValues::default();
    for spec in PARAMS {
        if let Ok(Some(value)) = m.try_get_one::<Value>(spec.name) {
            v.set(spec, *value)?;
        }
    }
    check_together(&v).map_err(|(_, msg)| msg)?;
    Ok(v)
}

/// Refuse a parameter that the chosen variant of a command does not read (`why` says which).
pub fn refuse(m: &ArgMatches, p: impl Param, why: &str) -> Result<(), String> {
    if given(m, p) {
        Err(format!("--{} is not used {why}", p.spec().name))
    } else {
        Ok(())
    }
}

/// The flags of a parameter group, each required whenever the group's rules say it matters
/// (`--sigma` with `--mechanism gaussian`), except those in `optional` (which have a default
/// worth keeping) and those without rules (plain flags).
pub fn group(g: &'static Group, optional: &[&ParamSpec]) -> Vec<Arg> {
    g.params
        .iter()
        .map(|&spec| {
            let pairs: Vec<(&'static str, &'static str)> = g
                .rules_for(spec)
                .flat_map(|r| r.is.iter().map(move |&v| (r.when.name, v)))
                .collect();
            let arg = param(spec);
            if pairs.is_empty() || optional.iter().any(|o| o.name == spec.name) {
                arg
            } else {
                arg.required_if_eq_any(pairs)
            }
        })
        .collect()
}

/// Refuse a group member given on the command line that the group's rules say does not matter at
/// these values: "--scale is not used with --mechanism gaussian".
pub fn refuse_irrelevant(m: &ArgMatches, g: &Group, values: &ParamValues) -> Result<(), String> {
    for spec in g.params {
        if !m.try_contains_id(spec.name).unwrap_or(false) {
            continue;
        }
        if let Some(r) = g.rules_for(spec).find(|r| !r.holds(values)) {
            // The choice under its longest flag name (`--mechanism` rather than `--mech`).
            let when = r
                .when
                .aliases
                .iter()
                .copied()
                .chain([r.when.name])
                .max_by_key(|n| n.len())
                .unwrap_or(r.when.name);
            return Err(format!(
                "--{} is not used with --{when} {}",
                spec.name,
                r.when.format(values.get(r.when))
            ));
        }
    }
    Ok(())
}
