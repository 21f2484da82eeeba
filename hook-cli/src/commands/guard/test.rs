//! `hook guard test NAME`: a guard's own case table, in both agents' event shapes or one.

use anyhow::{Result, bail};
use clap::Args;
use hook_guards::Shape;
use hook_protocol::Dialect;

use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// The guard (`hook guard list` names them).
    #[arg(value_name = "NAME", value_parser = crate::args::GUARD, hide_possible_values = true)]
    name: String,
    /// Only this agent's event shape: claude (Claude Code) or codex (Codex CLI). Default:
    /// both.
    #[arg(long, value_parser = crate::args::AGENT, hide_possible_values = true)]
    agent: Option<Dialect>,
}

/// Runs the table and prints it; `Failed` when a case fails.
pub(crate) fn exec(args: &TestArgs, printer: &Printer) -> Result<Status> {
    let guard = crate::ops::guard::named(&args.name)?;
    let shapes: Vec<Shape> = match args.agent {
        None => Shape::ALL.to_vec(),
        Some(dialect) => match Shape::ALL.iter().find(|shape| shape.dialect() == dialect) {
            Some(shape) => vec![*shape],
            None => bail!(
                "the case tables are written in Claude Code's and Codex CLI's event shapes: give --agent claude or --agent codex"
            ),
        },
    };
    let results: Vec<Vec<hook_guards::CaseResult>> = guard
        .cases()
        .iter()
        .map(|case| shapes.iter().map(|shape| case.run(guard, *shape)).collect())
        .collect();
    let failed = results.iter().flatten().any(|result| !result.passed);
    crate::ui::guard::cases(printer, guard, &shapes, &results);
    Ok(if failed {
        Status::Failed
    } else {
        Status::Success
    })
}
