//! In-process tests of whole commands: the command line parsed as `hook` parses it, dispatched,
//! stdin given and what it printed kept (`ui::terminal::capture`) instead of read and written.
//! No process is spawned for the command itself (hooks still run as real processes); what needs
//! the binary (the agents calling it, signals, a terminal, environment variables, the relay's own
//! entry point) stays in `tests/it/`.
#![allow(clippy::unwrap_used)]

use clap::Parser as _;

use crate::ops::input::test_stdin;
use crate::ui::terminal::capture::capture;

mod agents;
mod author;
mod cli;
mod list;
#[cfg(unix)]
mod side_files;
mod trust;
mod trust_files;
mod validate;
mod verbosity;

/// What a command did: its exit code and what it printed.
#[derive(Debug)]
pub(crate) struct Ran {
    pub(crate) code: u8,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// [`hook`] as a finished process's output (exit status, stdout, stderr): what tests written
/// against the binary read.
#[cfg(unix)]
pub(crate) fn output(args: &[&str], stdin: &str) -> std::process::Output {
    use std::os::unix::process::ExitStatusExt as _;
    let ran = hook(args, stdin);
    std::process::Output {
        status: std::process::ExitStatus::from_raw(i32::from(ran.code) << 8),
        stdout: ran.stdout.into_bytes(),
        stderr: ran.stderr.into_bytes(),
    }
}

/// `hook args...` with `stdin`, in this process.
pub(crate) fn hook(args: &[&str], stdin: &str) -> Ran {
    let cli = match crate::Cli::try_parse_from(std::iter::once("hook").chain(args.iter().copied()))
    {
        Ok(cli) => cli,
        Err(error) => {
            // `--help` and `--version` go to stdout (exit 0), usage errors to stderr (exit 2).
            let (stdout, stderr) = if error.use_stderr() {
                (String::new(), error.to_string())
            } else {
                (error.to_string(), String::new())
            };
            return Ran {
                code: u8::try_from(error.exit_code()).unwrap_or(2),
                stdout,
                stderr,
            };
        }
    };
    test_stdin::give(stdin.as_bytes());
    let (code, printed) = capture(|| {
        let (printer, result) = crate::dispatch(cli);
        crate::ui::exit::finish_number(&printer, result)
    });
    Ran {
        code,
        stdout: printed.stdout,
        stderr: printed.stderr,
    }
}
