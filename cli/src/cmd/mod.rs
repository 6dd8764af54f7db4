//! One module per command: each declares its flags (`command`) and runs (`run`), printing a
//! record through [`crate::output`].

pub mod account;
pub mod accuracy;
pub mod audit;
pub mod calibrate;
pub mod explain;
pub mod figures;
pub mod iteration;
pub mod mechanism;
pub mod median_sim;
pub mod page;
pub mod plot;
pub mod prerender;
pub mod ratio;
pub mod rdp;
pub mod regime;
pub mod risk;
pub mod shuffle;
pub mod subsample;
pub mod subsampled_rr;
pub mod train;

use clap::{ArgMatches, Command};

/// A command: its flags and what it does.
pub struct Cmd {
    /// The flags, help and groups.
    pub command: fn() -> Command,
    /// Runs it: the text to print, or a one-line reason.
    pub run: fn(&ArgMatches) -> Result<String, String>,
}

/// Every command, in the order `amplify --help` lists them.
pub const ALL: &[Cmd] = &[
    Cmd {
        command: subsample::command,
        run: subsample::run,
    },
    Cmd {
        command: ratio::command,
        run: ratio::run,
    },
    Cmd {
        command: regime::command,
        run: regime::run,
    },
    Cmd {
        command: accuracy::command,
        run: accuracy::run,
    },
    Cmd {
        command: median_sim::command,
        run: median_sim::run,
    },
    Cmd {
        command: rdp::command,
        run: rdp::run,
    },
    Cmd {
        command: account::command,
        run: account::run,
    },
    Cmd {
        command: train::command,
        run: train::run,
    },
    Cmd {
        command: risk::command,
        run: risk::run,
    },
    Cmd {
        command: calibrate::command,
        run: calibrate::run,
    },
    Cmd {
        command: shuffle::command,
        run: shuffle::run,
    },
    Cmd {
        command: subsampled_rr::command,
        run: subsampled_rr::run,
    },
    Cmd {
        command: iteration::command,
        run: iteration::run,
    },
    Cmd {
        command: page::command,
        run: page::run,
    },
    Cmd {
        command: figures::command,
        run: figures::run,
    },
    Cmd {
        command: plot::command,
        run: plot::run,
    },
    Cmd {
        command: prerender::command,
        run: prerender::run,
    },
    Cmd {
        command: audit::command,
        run: audit::run,
    },
    Cmd {
        command: explain::command,
        run: explain::run,
    },
];
