//! `hook new`: scaffold a typed Rust hook crate on `hook-sdk` (see [`crate::ops::scaffold`]).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hook_protocol::Dialect;

use crate::ops::scaffold::{Scaffold, create};
use crate::ui::{Printer, Status, say};

/// Arguments of `hook new`.
#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The crate's name (letters, digits, `-` and `_`), also the hook binary's name.
    name: String,
    /// Write the README and tests for this dialect only (default: all three).
    #[arg(long, value_parser = crate::args::DIALECT, hide_possible_values = true)]
    dialect: Option<Dialect>,
    /// The agent, instead of its dialect: claude (or claude-code: Claude Code, dialect verboo), codex (Codex CLI, dialect lime) or wuu.
    #[arg(long, value_parser = crate::args::AGENT, hide_possible_values = true, conflicts_with = "dialect")]
    agent: Option<Dialect>,
    /// Where to create the crate (default: ./NAME). Must not exist or be empty.
    #[arg(long)]
    path: Option<PathBuf>,
    /// Depend on this `hook-sdk` folder by path, to work on the SDK itself (default: the
    /// published `hook-sdk` at exactly this `hook`'s version, `hook --version`).
    #[arg(long)]
    sdk: Option<PathBuf>,
    /// A native plugin (a `cdylib` the engine loads in-process) instead of an executable.
    #[arg(long)]
    native: bool,
}

/// Creates the crate and says where, and what to do next.
pub(crate) fn exec(args: NewArgs, printer: &Printer) -> Result<Status> {
    let created = create(&Scaffold {
        name: args.name.clone(),
        dialect: args.agent.or(args.dialect),
        path: args.path.clone(),
        sdk: args.sdk.clone(),
        native: args.native,
    })?;
    let (name, dir) = (&args.name, created.dir.display());
    if args.native {
        say!(printer, "created the native hook crate `{name}` in {dir}");
        say!(printer, "  cd {dir} && cargo test");
        say!(
            printer,
            "then wire target/release/{} as a `native` handler in the relay's file or an embedding agent's config, never in Claude Code's or Codex's own settings (see README.md)",
            created.artifact
        );
    } else {
        say!(printer, "created the hook crate `{name}` in {dir}");
        say!(printer, "  cd {dir} && cargo test");
        say!(
            printer,
            "then wire target/release/{} into your agent's config (see README.md)",
            created.artifact
        );
    }
    Ok(Status::Success)
}
