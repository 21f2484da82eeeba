//! `hook stats`: per hook over a window of the journal, with the flags that say a hook needs a
//! look.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::args::AnyAgentArgs;
use crate::ops::journal::{parse_since, since_ms};
use crate::ops::stats::{StatsOptions, stats};
use crate::ui::{self, Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    which: AnyAgentArgs,
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces each dialect's home (~/.wuu, ~/.claude, ~/.lime or their variables).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// The window: the last 30m, 2h, 7d... (default: the whole journal).
    #[arg(long, value_parser = parse_since, value_name = "AGE")]
    since: Option<Duration>,
    /// A hook whose p95 duration is over this many milliseconds is flagged slow.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    slow_ms: u64,
    /// The fewest runs before "always fails" or "always exit 0 with no output" is said.
    #[arg(long, value_name = "N", default_value_t = 3)]
    min_runs: usize,
    /// JSON: an array of per-hook statistics.
    #[arg(long)]
    json: bool,
}

/// `hook stats`.
pub(crate) fn exec(args: StatsArgs, printer: &Printer) -> Result<Status> {
    let options = StatsOptions {
        since_ms: args.since.map(since_ms),
        slow_ms: args.slow_ms,
        min_runs: args.min_runs,
    };
    let dialects = args.which.dialects();
    let report = stats(
        &dialects,
        args.project.as_deref(),
        args.home.as_deref(),
        &options,
    )?;
    // The agent column when the figures are of every agent.
    let every_agent = dialects.len() > 1;
    ui::stats::report(printer, &report, args.json, every_agent)?;
    Ok(Status::Success)
}
