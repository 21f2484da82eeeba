//! `hook guard run NAME`: a guard as a hook process (what its entry runs, when the relay does
//! not answer it in its own process).

use anyhow::Result;
use clap::Args;
use hook_protocol::Dialect;

use crate::ops::guard::run::{answer, dialect, home, read_input, unreadable_input};
use crate::ops::input::Stdin;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The guard (`hook guard list` names them).
    #[arg(value_name = "NAME", value_parser = crate::args::GUARD, hide_possible_values = true)]
    name: String,
    /// An option of the guard, over its default (repeatable; `hook guard list` shows them).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// The dialect the event is in: verboo (Claude Code) or lime (Codex). Default:
    /// `HOOK_DIALECT`, which the engine sets, else read from the event.
    #[arg(long, value_parser = crate::args::DIALECT, hide_possible_values = true)]
    dialect: Option<Dialect>,
}

/// Reads the event on stdin and prints the guard's answer; exits with its code. A guard it
/// cannot set up (no such guard, an option it does not have) fails closed too: exit 2, the
/// error on stderr (the agent's block reason).
pub(crate) fn exec(args: &RunArgs, printer: &Printer, mut stdin: Stdin) -> Result<Status> {
    let guard = crate::ops::guard::named(&args.name)
        .and_then(|guard| Ok((guard, crate::ops::guard::settings(guard, &args.sets)?)));
    let (guard, settings) = match guard {
        Ok(set_up) => set_up,
        Err(error) => {
            crate::ui::guard::cannot_run(printer, &error);
            return Ok(Status::Block);
        }
    };
    let emitted = match read_input(&mut stdin) {
        Ok(input) => answer(
            guard,
            settings,
            dialect(args.dialect, std::env::var("HOOK_DIALECT").ok().as_deref()),
            home(std::env::var("HOME").ok()),
            &input,
        ),
        Err(error) => unreadable_input(&error),
    };
    crate::ui::guard::emitted(printer, &emitted);
    Ok(Status::Code(u8::try_from(emitted.exit_code).unwrap_or(1)))
}
