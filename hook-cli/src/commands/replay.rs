//! `hook replay`: the configured hooks run against recorded sessions (Claude Code transcripts,
//! Codex rollouts); see [`crate::ops::replay`] for what a replay does, [`crate::ui::replay`]
//! for what it prints.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::args::FoundLocationArgs;
use crate::ops::guard::backtest::{BacktestOptions, backtest};
use crate::ops::replay::lines::DEFAULT_MAX_LINE;
use crate::ops::replay::{self, ReplayOptions};
use crate::ui::{self, Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    location: FoundLocationArgs,
    /// Transcript files or folders (searched for `*.jsonl`). Default: the current project's
    /// sessions, where the agent keeps them (`~/.claude/projects/<project>/`, or the rollouts
    /// under `$CODEX_HOME/sessions/` whose `cwd` is the project).
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Replay through the hooks of this one file (the dialect's user-file format) instead of
    /// the discovered configuration.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Replay both configurations (the one above and this file) and show only the events whose
    /// outcome differs.
    #[arg(long, value_name = "OTHER_CONFIG")]
    compare: Option<PathBuf>,
    /// Run only the hook with this key (repeatable; keys as `hook list` shows them).
    #[arg(long, value_name = "KEY")]
    only: Vec<String>,
    /// Run hooks that need trust and lack it (project, plugin, every lime hook) as if trusted.
    #[arg(long)]
    trust_all_for_replay: bool,
    /// The events to dispatch, comma-separated (default: the events whose hooks decide).
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = crate::args::EVENT,
        hide_possible_values = true,
        default_value = "PreToolUse,PermissionRequest,UserPromptSubmit"
    )]
    events: Vec<String>,
    /// How many sessions are replayed at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// JSON Lines on stdout: one object per event, per bad line, then the summary (schema:
    /// `hook replay --schema`).
    #[arg(long)]
    json: bool,
    /// Lines longer than this are skipped and counted as bad.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE)]
    max_line_bytes: usize,
    /// How many events whose outcome is not `continue` the text report lists (most recent
    /// first; every one is counted).
    #[arg(long, default_value_t = 50)]
    limit: usize,
    /// Print the JSON Schema of one `--json` line and exit.
    #[arg(long)]
    schema: bool,
    /// Read the transcripts and rebuild their events, but run no hook: what the history holds
    /// and which lines are bad (and the parse rate).
    #[arg(long)]
    dry_run: bool,
    /// Backtest a ready-made guard (`hook guard list`) instead of the configured hooks: each
    /// tool call it would block (time, session, call, reason), the calls it cannot read, and
    /// the totals; what `hook guard add NAME --dry-run` prints.
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with_all = ["config", "compare", "only", "trust_all_for_replay", "dry_run", "schema"]
    )]
    guard: Option<String>,
    /// With --guard: an option of the guard, over its default (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "guard")]
    sets: Vec<String>,
}

/// Replays the sessions and prints the report (`--schema`: the schema of a `--json` line).
pub(crate) fn exec(args: ReplayArgs, printer: &Printer) -> Result<Status> {
    if args.schema {
        ui::replay::schema(printer, &replay::schema_text()?);
        return Ok(Status::Success);
    }
    let location = args.location.location(printer)?;
    if let Some(name) = &args.guard {
        let guard = crate::ops::guard::named(name)?;
        crate::ops::guard::backtest::check_agent(location.dialect)?;
        let options = BacktestOptions {
            location,
            guard,
            settings: crate::ops::guard::settings(guard, &args.sets)?,
            paths: args.paths,
            max_line: args.max_line_bytes,
        };
        let json = args.json;
        let found = backtest(&options, &mut |flagged| {
            if json {
                ui::guard::flagged_json(printer, flagged);
            }
        })?;
        ui::guard::backtest(printer, &found, json, None);
        return Ok(Status::Success);
    }
    let prepared = replay::prepare(ReplayOptions {
        location,
        paths: args.paths,
        config: args.config,
        compare: args.compare,
        only: args.only,
        trust_all_for_replay: args.trust_all_for_replay,
        events: args.events,
        jobs: args.jobs,
        stream: args.json,
        max_line_bytes: args.max_line_bytes,
        limit: args.limit,
        dry_run: args.dry_run,
    })?;
    ui::replay::warnings(printer, &prepared.warnings);
    let live = ui::replay::Live::new(printer, prepared.total_bytes);
    let report = replay::run(prepared, &live);
    live.finish();
    let report = report?;
    if args.json {
        ui::replay::json_summary(printer, report);
    } else {
        ui::replay::text_report(printer, &report);
    }
    Ok(Status::Success)
}
