//! In-process tests of whole commands: the command line parsed as `hook` parses it and
//! dispatched with the test's bytes as its stdin (`ops::input::Stdin`) and buffers as its
//! stdout and stderr (`ui::terminal::Terminal`), read afterwards.
//! No process is spawned for the command itself (hooks still run as real processes). A test
//! here never sets an environment variable (tests run on many threads): the flags name the
//! home, the project and the agent's files instead. What needs the binary stays in
//! `tests/it/` (its `main.rs` says what, and why).
#![allow(clippy::unwrap_used)]

use clap::Parser as _;
pub(crate) use hook_test_support::Output;
use hook_test_support::Runner;
// The kit's file helpers, under the names every test here imports from `super`.
pub(crate) use hook_test_support::args::{located, words};
pub(crate) use hook_test_support::fs::{text, write};

use std::cell::RefCell;
use std::rc::Rc;

use crate::ops::input::Stdin;
use crate::ui::terminal::Terminal;

mod agents;
mod as_the_agents_do;
mod author;
mod bad_input;
mod cli;
mod colour;
mod completions;
#[cfg(unix)]
mod doctor;
mod doctor_agent_env;
mod guard;
#[cfg(target_os = "linux")]
mod hostile_input;
#[cfg(unix)]
mod journal;
mod list;
mod readme;
#[cfg(unix)]
mod relay;
mod replay;
mod scaffold;
#[cfg(unix)]
mod side_files;
mod terminal;
mod trust;
mod trust_files;
#[cfg(unix)]
mod trust_native;
mod validate;
mod validate_conformance;
mod verbosity;

/// What a command did: its exit code and what it printed.
#[derive(Debug)]
pub(crate) struct Ran {
    pub(crate) code: u8,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// [`hook`] as a finished process's output (exit status, stdout, stderr, and the command line
/// for failure messages): what tests written against the binary read.
pub(crate) fn output(args: &[&str], stdin: &str) -> Output {
    output_bytes(args, stdin.as_bytes())
}

/// [`output`] with `stdin` as raw bytes (what an agent may send the relay).
pub(crate) fn output_bytes(args: &[&str], stdin: &[u8]) -> Output {
    InProcess.run(args, stdin)
}

/// The kit's [`Runner`] for this suite: the command line parsed and dispatched in this
/// process ([`hook_bytes`]), its exit code given the shape of a process's status.
pub(crate) struct InProcess;

impl Runner for InProcess {
    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let ran = hook_bytes(args, stdin);
        #[cfg(unix)]
        let status = {
            use std::os::unix::process::ExitStatusExt as _;
            std::process::ExitStatus::from_raw(i32::from(ran.code) << 8)
        };
        #[cfg(windows)]
        let status = {
            use std::os::windows::process::ExitStatusExt as _;
            std::process::ExitStatus::from_raw(u32::from(ran.code))
        };
        let out = std::process::Output {
            status,
            stdout: ran.stdout.into_bytes(),
            stderr: ran.stderr.into_bytes(),
        };
        let words: Vec<std::ffi::OsString> = std::iter::once("hook")
            .chain(args.iter().copied())
            .map(Into::into)
            .collect();
        Output::new(&words, out, String::new())
    }
}

/// `hook args...` with `stdin`, in this process.
pub(crate) fn hook(args: &[&str], stdin: &str) -> Ran {
    hook_bytes(args, stdin.as_bytes())
}

/// [`hook`] with `stdin` as raw bytes.
pub(crate) fn hook_bytes(args: &[&str], stdin: &[u8]) -> Ran {
    hook_on(args, stdin, |terminal| terminal)
}

/// [`hook`] with its stdout claiming to be a terminal, in the colour environment `env` (the
/// suite sets no variable: `env` stands for `NO_COLOR` and `CLICOLOR_FORCE`).
pub(crate) fn hook_on_a_terminal(args: &[&str], env: crate::ui::terminal::ColourEnv) -> Ran {
    hook_on(args, b"", |terminal| terminal.claiming_a_terminal(env))
}

/// [`hook`] with `stdin`, on the test's buffers as `terminal` makes them.
fn hook_on(args: &[&str], stdin: &[u8], terminal: impl FnOnce(Terminal) -> Terminal) -> Ran {
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
    let (stdout, stderr) = (Kept::default(), Kept::default());
    let terminal = terminal(Terminal::new(stdout.clone(), stderr.clone()));
    let stdin = Stdin::new(std::io::Cursor::new(stdin.to_vec()), false);
    let (printer, result) = crate::dispatch(cli, terminal, stdin);
    let code = crate::ui::exit::finish_number(&printer, result);
    Ran {
        code,
        stdout: stdout.text(),
        stderr: stderr.text(),
    }
}

/// A stream a command writes and the test reads afterwards.
#[derive(Clone, Default)]
struct Kept(Rc<RefCell<Vec<u8>>>);

impl Kept {
    /// What was written (the `Printer` writes only `str`s).
    fn text(&self) -> String {
        String::from_utf8(self.0.take()).unwrap()
    }
}

impl std::io::Write for Kept {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
