//! `hook guard add NAME --agent A` (and `--dry-run`, the backtest) and `hook guard remove`.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use crate::args::{RelayAgentArg, RelayScopeArgs};
use crate::ops::guard::backtest::{BacktestOptions, backtest, check_agent};
use crate::ops::guard::relay_file::GuardChange;
use crate::ops::location::Location;
use crate::ops::replay::lines::DEFAULT_MAX_LINE;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    /// The guard (`hook guard list` names them).
    #[arg(value_name = "NAME", value_parser = crate::args::GUARD, hide_possible_values = true)]
    name: String,
    #[command(flatten)]
    scope: RelayScopeArgs,
    /// An option of the guard, over its default (repeatable; `hook guard list` shows them).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Write nothing: run the guard over the agent's recorded sessions (these transcript files
    /// or folders; default: the project's sessions where the agent keeps them) and print what
    /// it would have blocked, and the totals.
    #[arg(long, value_name = "PATH", num_args = 0..)]
    dry_run: Option<Vec<PathBuf>>,
    /// With --dry-run: JSON Lines on stdout, one per call it would block or could not read,
    /// then the totals.
    #[arg(long, requires = "dry_run")]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct RemoveArgs {
    /// The guard (`hook guard list` names them).
    #[arg(value_name = "NAME", value_parser = crate::args::GUARD, hide_possible_values = true)]
    name: String,
    #[command(flatten)]
    scope: RelayScopeArgs,
}

/// `hook guard add`: the guard switched on (or, with `--dry-run`, backtested).
pub(crate) fn exec(args: AddArgs, printer: &Printer) -> Result<Status> {
    let guard = crate::ops::guard::named(&args.name)?;
    let settings = crate::ops::guard::settings(guard, &args.sets)?;
    let scope = args.scope.scope()?;
    if let Some(paths) = args.dry_run {
        if let Some(RelayAgentArg::Translated(agent)) = args.scope.agent {
            bail!(
                "--dry-run reads Claude Code's and Codex's recorded sessions, not {}'s: backtest the guard with --agent claude (the relay runs Claude Code's guards for {} too)",
                agent.title,
                agent.title
            );
        }
        check_agent(scope.dialect)?;
        let options = BacktestOptions {
            location: Location {
                dialect: scope.dialect,
                project: scope.project.clone(),
                home: scope.home.clone(),
                relay: false,
            },
            guard,
            settings,
            paths,
            max_line: DEFAULT_MAX_LINE,
        };
        let json = args.json;
        let found = backtest(&options, &mut |flagged| {
            if json {
                crate::ui::guard::flagged_json(printer, flagged);
            }
        })?;
        let again = crate::ui::guard::AddAgain {
            name: guard.name,
            agent: crate::ops::agents::name(scope.dialect),
            sets: &args.sets,
            project: scope.project.as_deref(),
        };
        crate::ui::guard::backtest(printer, &found, json, Some(&again));
        return Ok(Status::Success);
    }
    let mut change = GuardChange::default();
    let done = crate::ops::guard::relay_file::add(&scope, guard, &settings, &mut change);
    crate::ui::guard::change(printer, &change);
    done.map(|()| Status::Success)
}

/// `hook guard remove`: the guard switched off.
pub(crate) fn exec_remove(args: &RemoveArgs, printer: &Printer) -> Result<Status> {
    let guard = crate::ops::guard::named(&args.name)?;
    let mut change = GuardChange::default();
    let done = crate::ops::guard::relay_file::remove(&args.scope.scope()?, guard, &mut change);
    crate::ui::guard::change(printer, &change);
    done.map(|()| Status::Success)
}
