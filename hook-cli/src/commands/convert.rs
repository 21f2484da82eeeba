//! `hook convert`: a hooks configuration translated to another dialect.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hook_protocol::Dialect;

use crate::args::parse_dialect_or_agent;
use crate::ops::validate::read_config;
use crate::ui::{Printer, Status, diagnostics, say_err};

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The dialect of FILE: wuu, verboo (or claude) or lime (or codex).
    #[arg(long, value_parser = parse_dialect_or_agent)]
    from: Dialect,
    /// The dialect to write: wuu, verboo (or claude) or lime (or codex).
    #[arg(long, value_parser = parse_dialect_or_agent)]
    to: Dialect,
    /// A hooks configuration (JSON for wuu and verboo, TOML or JSON for lime).
    file: PathBuf,
}

/// `hook convert`: the target file on stdout, one warning per thing without an equivalent on
/// stderr.
pub(crate) fn exec(args: ConvertArgs, printer: &Printer) -> Result<Status> {
    let hooks = read_config(args.from, &args.file)?;
    diagnostics::print(printer, &hooks.diagnostics);
    if hooks.has_errors() {
        // The diagnostics above say what and where; nothing is converted.
        return Ok(Status::Failed);
    }
    let converted = hook_config::convert(args.from, args.to, &hooks.hooks);
    printer.exact(&converted.text);
    for warning in &converted.warnings {
        say_err!(printer, "warning: {warning}");
    }
    Ok(Status::Success)
}
