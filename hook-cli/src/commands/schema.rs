//! `hook schema`: the JSON Schema of an event's input or output, of the outcome, or all of them
//! written under a folder.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use hook_protocol::schema::SchemaKind;
use hook_protocol::{Dialect, schema};

use crate::args::{AGENT, DIALECT, EVENT};
use crate::ops::input::known_event;
use crate::ui::{Printer, Status, say};

#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// The dialect: wuu, verboo or lime.
    #[arg(
        long,
        value_parser = DIALECT,
        hide_possible_values = true,
        required_unless_present_any = ["outcome", "all", "agent"]
    )]
    dialect: Option<Dialect>,
    /// The agent, instead of its dialect: claude (or claude-code: Claude Code, dialect verboo), codex (Codex CLI, dialect lime) or wuu.
    #[arg(
        long,
        value_parser = AGENT,
        hide_possible_values = true,
        conflicts_with_all = ["dialect", "outcome", "all"]
    )]
    agent: Option<Dialect>,
    /// The event, e.g. PreToolUse.
    #[arg(
        long,
        value_parser = EVENT,
        hide_possible_values = true,
        required_unless_present_any = ["outcome", "all"]
    )]
    event: Option<String>,
    /// Which side of the hook.
    #[arg(long, value_enum, default_value = "output")]
    kind: Kind,
    /// Print the schema of `hook run`'s outcome instead.
    #[arg(long, conflicts_with_all = ["dialect", "event"])]
    outcome: bool,
    /// Write every schema (each dialect's events, and the outcome) under --out instead.
    #[arg(long, requires = "out", conflicts_with_all = ["dialect", "event", "outcome"])]
    all: bool,
    /// The folder --all writes to (`<dialect>/<Event>.<kind>.schema.json`).
    #[arg(long, value_name = "DIR", requires = "all")]
    out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    /// What the hook reads on stdin.
    Input,
    /// What the hook prints on stdout.
    Output,
}

/// `hook schema`.
pub(crate) fn exec(args: SchemaArgs, printer: &Printer) -> Result<Status> {
    if let (true, Some(out)) = (args.all, &args.out) {
        let written = crate::ops::schema::write_all(out)?;
        say!(printer, "wrote {written} schemas under {}", out.display());
        return Ok(Status::Success);
    }
    let value = if args.outcome {
        schema::outcome_schema()
    } else {
        let (Some(dialect), Some(name)) = (args.agent.or(args.dialect), args.event.as_deref())
        else {
            bail!("give --agent (or --dialect) and --event, or --outcome");
        };
        let event = known_event(dialect, name)?;
        let kind = match args.kind {
            Kind::Input => SchemaKind::Input,
            Kind::Output => SchemaKind::Output,
        };
        schema::schema(dialect, &event, kind).context("every known event has a schema")?
    };
    printer.exact_line(&serde_json::to_string_pretty(&value)?);
    Ok(Status::Success)
}
