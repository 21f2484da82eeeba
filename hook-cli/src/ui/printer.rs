//! [`Printer`]: how much a command says, and whether in colour.

use super::terminal::{self, Terminal};
use std::fmt::Display;

/// How much a command says besides its result: `--quiet` keeps errors, warnings, results and
/// machine output; `--verbose` shows an error's causes each on a line of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) enum Verbosity {
    /// `--quiet`: no notes (where a file was backed up, what to run next).
    Quiet,
    /// The default.
    #[default]
    Normal,
    /// `--verbose`: an error's causes each on a line of its own.
    Verbose,
}

/// What every command prints through: human text has its control characters escaped (see
/// [`terminal`]), machine output is printed exactly, notes follow the verbosity, colour is on
/// only when stdout is a terminal and `NO_COLOR` is unset or empty (or as `--color` and
/// `CLICOLOR_FORCE` say: [`terminal::ColourEnv`]). It writes to the [`Terminal`] it is given.
#[derive(Debug)]
pub(crate) struct Printer {
    verbosity: Verbosity,
    colour: bool,
    terminal: Terminal,
}

impl Printer {
    /// A printer of `verbosity` to `terminal`, with colour as `--color` (`choice`) and the
    /// terminal's environment say ([`terminal::ColourEnv::colour`]).
    pub(crate) fn new(
        verbosity: Verbosity,
        terminal: Terminal,
        choice: clap::ColorChoice,
    ) -> Printer {
        Printer {
            verbosity,
            colour: terminal
                .colour_env()
                .colour(choice, terminal.stdout_is_terminal()),
            terminal,
        }
    }

    /// The verbosity chosen on the command line.
    pub(crate) fn verbosity(&self) -> Verbosity {
        self.verbosity
    }

    /// Whether stdout is a terminal.
    pub(crate) fn stdout_is_terminal(&self) -> bool {
        self.terminal.stdout_is_terminal()
    }

    /// Whether stderr is a terminal.
    pub(crate) fn stderr_is_terminal(&self) -> bool {
        self.terminal.stderr_is_terminal()
    }

    /// One line of human text on stdout, escaped.
    pub(crate) fn line(&self, text: impl Display) {
        self.terminal.print_text(&text.to_string());
    }

    /// A line that helps but is not the result (a backup's path, a hint): not with `--quiet`.
    pub(crate) fn note(&self, text: impl Display) {
        if self.verbosity > Verbosity::Quiet {
            self.line(text);
        }
    }

    /// One line of human text on stderr, escaped.
    pub(crate) fn err_line(&self, text: impl Display) {
        self.terminal.eprint_text(&text.to_string());
    }

    /// Machine output (JSON, a schema, a converted configuration) on stdout, exactly.
    pub(crate) fn exact(&self, text: &str) {
        self.terminal.print_exact(text);
    }

    /// Machine output on stderr, exactly (what a hook prints there).
    pub(crate) fn exact_err(&self, text: &str) {
        self.terminal.eprint_exact(text);
    }

    /// Machine output and a newline on stdout, exactly.
    pub(crate) fn exact_line(&self, text: &str) {
        self.terminal.println_exact(text);
    }

    /// Ends stdout: what was printed is flushed and a reader sees its end now, while the
    /// command goes on (async hooks); later output to stdout goes nowhere.
    pub(crate) fn close_stdout(&self) {
        self.terminal.close_stdout();
    }

    /// One line of human text on stdout, each span escaped and in its colour (an SGR code,
    /// `""` for none) when colour is on: `[("", "  "), (GREEN, "guarding"), ("", ": 2 hooks")]`.
    pub(crate) fn spans(&self, spans: &[(&str, &str)]) {
        let line: String = spans
            .iter()
            .map(|(code, text)| self.paint(code, text))
            .collect();
        self.exact_line(&line);
    }

    /// `text` escaped, in colour `code` (an SGR parameter such as `31`) when colour is on.
    pub(crate) fn paint(&self, code: &str, text: &str) -> String {
        let text = terminal::one_line(text);
        if self.colour && !code.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.into_owned()
        }
    }
}

/// SGR colour codes for [`Printer::paint`].
pub(crate) mod colour {
    /// Failures.
    pub(crate) const RED: &str = "31";
    /// Success.
    pub(crate) const GREEN: &str = "32";
    /// Skips and warnings.
    pub(crate) const YELLOW: &str = "33";
    /// Secondary text.
    pub(crate) const DIM: &str = "2";
    /// Decisions.
    pub(crate) const BOLD: &str = "1";
}

/// `say!(printer, "...", args)`: one line of human text on stdout through `printer`
/// ([`Printer::line`]).
macro_rules! say {
    ($printer:expr) => {
        $printer.line("")
    };
    ($printer:expr, $($arg:tt)*) => {
        $printer.line(format_args!($($arg)*))
    };
}

/// `say_err!(printer, "...", args)`: one line of human text on stderr ([`Printer::err_line`]).
macro_rules! say_err {
    ($printer:expr, $($arg:tt)*) => {
        $printer.err_line(format_args!($($arg)*))
    };
}

pub(crate) use {say, say_err};
