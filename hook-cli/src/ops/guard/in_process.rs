//! The ready-made guards answered in the relay's own process ([`GuardCommands`], given to the
//! engine by [`crate::ops::dispatch::prepare`]): a command handler whose command is a guard's
//! line ([`GuardLine::parse`]: `hook guard run NAME [--set KEY=VALUE]...`, with the program
//! `hook` or this executable) is answered by [`super::run::answer`], exactly what `hook guard
//! run` prints as a process, without starting one. Every other command, and a guard line whose
//! options do not read (the process says what is wrong), is spawned as usual.
//!
//! The answer sees what the process would: the event's bytes (its stdin), and `HOOK_DIALECT`
//! and `HOME` as the process would have them ([`CommandCall::var`]). Matching,
//! trust, the timeout, `onFailure`, combining and the journal are the engine's, as for any
//! hook; the run is marked `in_process`.

use hook_exec::{BoxFuture, CommandCall, CommandReply, InProcessCommands};

use super::GuardLine;
use super::run::{answer, dialect, home};

/// Answers guard lines in process.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GuardCommands;

impl InProcessCommands for GuardCommands {
    fn answer<'a>(&'a self, call: CommandCall<'a>) -> Option<BoxFuture<'a, CommandReply>> {
        let line = GuardLine::parse(call.command)?;
        let settings = line.settings().ok()?;
        Some(Box::pin(async move {
            let hook_dialect = call.var("HOOK_DIALECT");
            let emitted = answer(
                line.guard,
                settings,
                dialect(line.dialect, hook_dialect.as_deref()),
                home(call.var("HOME")),
                call.input,
            );
            CommandReply::new(emitted.exit_code, emitted.stdout, emitted.stderr)
        }))
    }
}
