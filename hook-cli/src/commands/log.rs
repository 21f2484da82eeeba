//! `hook log`: the journal, newest first, one line a dispatch; `--follow` prints each new one
//! as it is recorded.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::args::AnyAgentArgs;
use crate::ops::journal::{self, Filter, StatusFilter};
use crate::ui::{self, Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct LogArgs {
    #[command(flatten)]
    which: AnyAgentArgs,
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces each dialect's home (~/.wuu, ~/.claude, ~/.lime or their variables).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Only dispatches of this event (e.g. PreToolUse).
    #[arg(long, value_parser = crate::args::EVENT, hide_possible_values = true)]
    event: Option<String>,
    /// Only dispatches in which the hook with this key matched.
    #[arg(long, value_name = "KEY")]
    hook: Option<String>,
    /// Only dispatches with a run of this status (with --hook: that hook's own run; without,
    /// `blocked` also takes a blocking outcome; `error` is failed or timed out).
    #[arg(long, value_enum)]
    status: Option<StatusArg>,
    /// Only dispatches of the last 30m, 2h, 7d...
    #[arg(long, value_parser = journal::parse_since, value_name = "AGE")]
    since: Option<Duration>,
    /// Only dispatches of this session.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// At most this many dispatches (newest first); 0 for all.
    #[arg(long, short = 'n', default_value_t = 50)]
    limit: usize,
    /// JSON lines, exactly as recorded (`hook_exec::journal::Record`; JSON Schema:
    /// `hook-cli/schemas/journal-record.schema.json`).
    #[arg(long)]
    json: bool,
    /// Print the latest dispatches oldest first, then each new one as it is recorded, until
    /// interrupted.
    #[arg(long)]
    follow: bool,
}

/// The statuses `--status` takes: a run's, or `blocked`/`block` for a blocking outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StatusArg {
    /// A run that ran and was used.
    Ok,
    /// A run that blocked, or a dispatch whose decision is block.
    Blocked,
    /// A run that asked the agent to stop (`continue: false`).
    Stopped,
    /// A run that failed.
    Failed,
    /// A run that timed out.
    TimedOut,
    /// A run that was skipped.
    Skipped,
    /// A run started in the background.
    Async,
    /// A run that failed or timed out.
    Error,
}

impl From<StatusArg> for StatusFilter {
    fn from(status: StatusArg) -> StatusFilter {
        match status {
            StatusArg::Ok => StatusFilter::Ok,
            StatusArg::Blocked => StatusFilter::Blocked,
            StatusArg::Stopped => StatusFilter::Stopped,
            StatusArg::Failed => StatusFilter::Failed,
            StatusArg::TimedOut => StatusFilter::TimedOut,
            StatusArg::Skipped => StatusFilter::Skipped,
            StatusArg::Async => StatusFilter::Async,
            StatusArg::Error => StatusFilter::Error,
        }
    }
}

/// `hook log`.
pub(crate) fn exec(args: LogArgs, printer: &Printer) -> Result<Status> {
    let dialects = args.which.dialects();
    let journals =
        journal::journals_of_dialects(&dialects, args.project.as_deref(), args.home.as_deref())?;
    let filter = Filter {
        // Every dialect's records when none was asked for; each journal may hold several.
        dialects,
        event: args.event,
        hook: args.hook,
        status: args.status.map(StatusFilter::from),
        since_ms: args.since.map(journal::since_ms),
        session: args.session,
    };
    let selection = journal::select(&journals, &filter, args.limit);
    ui::log::read_problems(printer, &selection.problems);
    let hook = filter.hook.as_deref();
    if !args.follow {
        ui::log::newest_first(printer, &selection, args.json, hook)?;
        return Ok(Status::Success);
    }
    for record in &selection.records {
        ui::log::dispatch(printer, record, args.json, hook)?;
    }
    // On from where the reading ended: nothing twice, nothing missed.
    journal::follow(selection.followers, &filter, |record| {
        ui::log::dispatch(printer, record, args.json, hook)
    })?;
    Ok(Status::Success)
}
