//! `hook convert`: a hooks configuration translated to another dialect.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hook_protocol::Dialect;

use crate::args::{AGENT, DIALECT, DIALECT_OR_AGENT};
use crate::ops::validate::read_config;
use crate::ui::{Printer, Status, diagnostics, say_err};

/// FILE's format is named once: `--from` (a dialect or an agent), `--agent` or `--dialect`, as
/// every other command names them.
#[derive(Debug, Args)]
#[group(id = "source", required = true, multiple = false)]
struct SourceArgs {
    /// The dialect of FILE: wuu, verboo (or claude) or lime (or codex).
    #[arg(long, value_parser = DIALECT_OR_AGENT, hide_possible_values = true)]
    from: Option<Dialect>,
    /// The agent FILE is for, instead of --from: claude (or claude-code: Claude Code, dialect
    /// verboo), codex (Codex CLI, dialect lime) or wuu.
    #[arg(long, value_parser = AGENT, hide_possible_values = true)]
    agent: Option<Dialect>,
    /// The dialect of FILE, instead of --from: wuu, verboo or lime.
    #[arg(long, value_parser = DIALECT, hide_possible_values = true)]
    dialect: Option<Dialect>,
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// The dialect to write: wuu, verboo (or claude) or lime (or codex).
    #[arg(long, value_parser = DIALECT_OR_AGENT, hide_possible_values = true)]
    to: Dialect,
    /// A hooks configuration (JSON for wuu and verboo, TOML or JSON for lime).
    file: PathBuf,
}

/// `hook convert`: the target file on stdout, one warning per thing without an equivalent on
/// stderr.
pub(crate) fn exec(args: ConvertArgs, printer: &Printer) -> Result<Status> {
    let source = &args.source;
    let Some(from) = source.from.or(source.agent).or(source.dialect) else {
        // clap requires one of them.
        anyhow::bail!("give --from (a dialect or an agent), --agent or --dialect");
    };
    let hooks = read_config(from, &args.file)?;
    diagnostics::print(printer, &hooks.diagnostics);
    if hooks.has_errors() {
        // The diagnostics above say what and where; nothing is converted.
        return Ok(Status::Failed);
    }
    let converted = hook_config::convert(from, args.to, &hooks.hooks);
    printer.exact(&converted.text);
    for warning in &converted.warnings {
        say_err!(printer, "warning: {warning}");
    }
    Ok(Status::Success)
}
