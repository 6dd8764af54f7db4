//! `amplify`: the explorer's numbers as JSON and its figures as SVG, from the same code as the app.
//!
//! Flags come from the parameter declarations ([`amp_model::param`]) through clap's builder API;
//! each command lives in its own module under [`cmd`]. Exit status 0 on success (and for
//! `--help`, `--version`), 2 with one line on stderr, prefixed `amplify:`, for any bad argument or
//! impossible request. Output to a closed pipe (`amplify page training | head -c 1`) ends quietly
//! with status 0, as Unix tools do.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]

mod args;
mod cmd;
mod output;

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Command;

fn main() -> ExitCode {
    match run(std::env::args_os()) {
        Ok(out) => match print(&out) {
            Ok(()) => ExitCode::SUCCESS,
            // The reader has gone (`| head`): nothing is lost that it wanted.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "amplify: cannot write the output: {e}");
                ExitCode::from(2)
            }
        },
        Err(Exit::Shown) => ExitCode::SUCCESS,
        Err(Exit::Failed(msg)) => {
            // One line, whatever the message contained (and no panic if stderr is closed too).
            let _ = writeln!(std::io::stderr(), "amplify: {}", msg.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// The command's output and a newline on stdout; the error, not a panic, when stdout is closed.
fn print(out: &str) -> std::io::Result<()> {
    if out.is_empty() {
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.write_all(b"\n")?;
    stdout.flush()
}

/// Why there is no output to print.
enum Exit {
    /// Help or version text was printed (exit 0).
    Shown,
    /// A one-line reason (exit 2).
    Failed(String),
}

/// The whole command line: every command, with its flags.
fn command() -> Command {
    Command::new("amplify")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Privacy amplification numbers (text or JSON) and figures (SVG), from the same code as Amplification Explorer")
        .after_help("Each command's flags: amplify <command> --help. A figure's parameters: amplify plot <figure-id> --help.")
        .subcommand_required(true)
        .subcommands(cmd::ALL.iter().map(|c| (c.command)()))
}

fn run<I, T>(argv: I) -> Result<String, Exit>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let argv: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    let matches = command().try_get_matches_from(&argv).map_err(|e| {
        if e.use_stderr() {
            Exit::Failed(one_line(&e, &command_path(&argv)))
        } else {
            // --help, --version: clap prints them to stdout.
            let _ = e.print();
            Exit::Shown
        }
    })?;
    let (name, sub) = matches
        .subcommand()
        .ok_or_else(|| Exit::Failed("no command given (see amplify --help)".into()))?;
    let c = cmd::ALL
        .iter()
        .find(|c| (c.command)().get_name() == name)
        .ok_or_else(|| Exit::Failed(format!("unknown command “{name}”")))?;
    (c.run)(sub).map_err(Exit::Failed)
}

/// A clap error as one line: the message, then its tips, then where to look (`path --help`).
fn one_line(e: &clap::Error, path: &str) -> String {
    if e.kind() == ErrorKind::MissingSubcommand {
        return if path == "amplify" {
            let commands: Vec<String> = command()
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            format!(
                "no command given ({}; see amplify --help)",
                commands.join(", ")
            )
        } else {
            "plot needs a figure id: amplify plot <figure-id> --out FILE (amplify figures lists them)"
                .into()
        };
    }
    let rendered = e.render().to_string();
    let mut text = String::new();
    for line in rendered.lines() {
        let t = line.trim();
        if t.starts_with("Usage:") || t.starts_with("For more information") {
            break;
        }
        if t.is_empty() {
            continue;
        }
        let t = t.strip_prefix("error: ").unwrap_or(t);
        let t = t.strip_prefix("tip: ").unwrap_or(t);
        if !text.is_empty() {
            text.push_str(if text.ends_with(':') { " " } else { "; " });
        }
        text.push_str(t);
    }
    format!("{text} (see {path} --help)")
}

/// The command the arguments name, e.g. `amplify plot sample-budget` (as far as it exists).
fn command_path(argv: &[std::ffi::OsString]) -> String {
    let mut path = vec!["amplify".to_string()];
    let mut current = command();
    for arg in argv.iter().skip(1).filter_map(|a| a.to_str()) {
        if arg.starts_with('-') {
            continue;
        }
        let Some(sub) = current.find_subcommand(arg).cloned() else {
            break;
        };
        path.push(arg.to_string());
        current = sub;
    }
    path.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use amp_model::param::PARAMS;
    use amp_model::params::Domain;

    /// The long help of a command path such as `["rdp"]` or `["plot", "sample-budget"]`.
    fn help(path: &[&str]) -> String {
        let mut c = command();
        for name in path {
            c = c.find_subcommand(name).expect("a command").clone();
        }
        c.render_long_help().to_string()
    }

    #[test]
    fn the_command_line_is_well_formed() {
        // clap's own consistency checks (unique flags, groups naming real arguments, …).
        command().debug_assert();
    }

    /// Controls of the app that no command reads as such: the training page's switch between
    /// epochs and steps (`train` takes whichever of `--epochs`, `--steps` is given).
    const PAGE_ONLY: &[&str] = &["length"];

    #[test]
    fn every_parameter_is_a_flag_of_some_command_with_its_choices() {
        let mut all = String::new();
        for c in command().get_subcommands() {
            all.push_str(&help(&[c.get_name()]));
            for f in c.get_subcommands() {
                all.push_str(&help(&[c.get_name(), f.get_name()]));
            }
        }
        for p in PARAMS {
            let flag = all.contains(&format!("--{} <", p.name));
            assert!(flag || PAGE_ONLY.contains(&p.name), "{}", p.name);
            for a in p.aliases {
                assert!(all.contains(&format!("--{a}")), "{a}");
            }
            if let Domain::Choice(options) = p.domain {
                for o in options {
                    assert!(all.contains(o.id), "{}", o.id);
                }
            }
        }
    }
}
