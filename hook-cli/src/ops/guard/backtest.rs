//! The backtest: a guard run over the agent's recorded sessions before it is switched on
//! (`hook guard add NAME --agent A --dry-run [PATH...]`, `hook replay --guard NAME`), so its
//! false positives are seen first.
//!
//! The transcripts are read exactly as `hook replay` reads them ([`SessionEvents`]: Claude
//! Code's transcripts, Codex's rollouts, lines capped, bad lines counted with `file:line`), by
//! default where the agent keeps the current project's sessions; each tool call
//! (`PreToolUse`) is read as the agent's event ([`hook_sdk::Event`]) and checked by the guard
//! ([`Guard::check_event`]), as the relay would check it. Nothing runs (no hook, no tool) and
//! nothing is written. The result lists each call the guard would block, with its time,
//! session, the command (or tool and path) and the reason, the calls it cannot read
//! ([`Verdict::Unreadable`]: allowed unless `block-unreadable=true`), and the totals.

use std::path::PathBuf;

use anyhow::{Context, Result};
use hook_guards::{Builtin, Guard, Settings, Verdict};
use hook_protocol::{Dialect, Event};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::ops::location::Location;
use crate::ops::replay::events::SessionEvents;
use crate::ops::replay::lines::{self, BadLine};

/// What to backtest, and over what.
#[derive(Debug, Clone)]
pub(crate) struct BacktestOptions {
    /// The agent (its dialect), the project and home whose sessions are read by default.
    pub(crate) location: Location,
    /// The guard and its settings.
    pub(crate) guard: &'static Builtin,
    pub(crate) settings: Settings,
    /// Transcript files or folders; empty: the project's sessions where the agent keeps them.
    pub(crate) paths: Vec<PathBuf>,
    /// Lines longer than this are skipped and counted as bad.
    pub(crate) max_line: usize,
}

/// One call the guard would block, or could not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Flagged {
    /// `block` or `unreadable`.
    pub(crate) kind: &'static str,
    /// When the call was made, as the transcript says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) time: Option<String>,
    /// The session's id.
    pub(crate) session: String,
    /// The transcript and the line of the call.
    pub(crate) file: String,
    pub(crate) line: u64,
    /// The tool.
    pub(crate) tool: String,
    /// The command, or the path (a patch: the files it touches).
    pub(crate) call: String,
    /// The guard's reason (a block), or what it could not read.
    pub(crate) reason: String,
}

/// What a backtest found.
#[derive(Debug, Default)]
pub(crate) struct Backtest {
    /// The guard's name.
    pub(crate) guard: &'static str,
    /// Where sessions were looked for, when none was found.
    pub(crate) none_in: Option<String>,
    /// The transcripts read.
    pub(crate) sessions: usize,
    /// The tool calls read (`PreToolUse` events).
    pub(crate) calls: u64,
    /// The calls it would block, in transcript order.
    pub(crate) blocked: Vec<Flagged>,
    /// The calls it could not read, in transcript order.
    pub(crate) unreadable: Vec<Flagged>,
    /// Lines that could not be read or used, and calls the agent's event reader refused.
    pub(crate) bad_lines: Vec<BadLine>,
}

/// Runs `options.guard` over the sessions; `each` hears each flagged call as it is found (the
/// `--json` lines).
///
/// # Errors
///
/// When the default place of the sessions cannot be named (no `HOME`), or a path given does
/// not exist or cannot be listed.
pub(crate) fn backtest(
    options: &BacktestOptions,
    each: &mut dyn FnMut(&Flagged),
) -> Result<Backtest> {
    let dialect = options.location.dialect;
    let project = match &options.location.project {
        Some(dir) => dir
            .canonicalize()
            .with_context(|| format!("project directory {} does not exist", dir.display()))?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let (paths, searched) = if options.paths.is_empty() {
        let found = crate::ops::replay::default_paths(dialect, &options.location, &project)?;
        let existing = found.iter().filter(|p| p.exists()).cloned().collect();
        let searched = format!(
            "where {} keeps the sessions of {} (give transcript files or folders instead)",
            crate::ops::agents::title(dialect),
            project.display()
        );
        (existing, searched)
    } else {
        let shown: Vec<String> = options
            .paths
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        (options.paths.clone(), format!("in {}", shown.join(", ")))
    };
    let files = lines::transcript_files(&paths).context("cannot list the transcripts")?;
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let guard = Guard::new(
        options.guard,
        options.settings.clone(),
        home.map(PathBuf::from),
    );
    let mut found = Backtest {
        guard: options.guard.name,
        sessions: files.len(),
        none_in: files.is_empty().then_some(searched),
        ..Backtest::default()
    };
    for file in &files {
        let shown = file.display().to_string();
        let mut session = SessionEvents::open(dialect, file, shown.clone(), options.max_line);
        while let Some(batch) = session.next_batch() {
            found.bad_lines.extend(batch.bad);
            for event in batch.events {
                let value = event.value();
                let is_call = value.get("hook_event_name").and_then(Value::as_str)
                    == Some(Event::PreToolUse.as_str());
                if !is_call {
                    continue;
                }
                found.calls += 1;
                let read = hook_sdk::Event::from_value(dialect, Value::Object(value.clone()));
                let event_read = match read {
                    Ok(event_read) => event_read,
                    Err(error) => {
                        found.bad_lines.push(BadLine {
                            file: shown.clone(),
                            line: event.line(),
                            kind: lines::BadKind::Invalid,
                            detail: format!("PreToolUse: {error}"),
                        });
                        continue;
                    }
                };
                let (kind, reason) = match guard.check_event(&event_read) {
                    Verdict::Block { reason } => ("block", reason),
                    Verdict::Unreadable { why } => ("unreadable", why),
                    _ => continue,
                };
                let flagged = Flagged {
                    kind,
                    time: event.time().map(str::to_owned),
                    session: session.session_id().to_owned(),
                    file: shown.clone(),
                    line: event.line(),
                    tool: text(value, &["tool_name"]).unwrap_or_default(),
                    call: describe(value),
                    reason,
                };
                each(&flagged);
                if kind == "block" {
                    found.blocked.push(flagged);
                } else {
                    found.unreadable.push(flagged);
                }
            }
        }
    }
    Ok(found)
}

/// The dialect a backtest reads: the agent's (Claude Code's transcripts for verboo, Codex's
/// rollouts for lime).
///
/// # Errors
///
/// For an agent whose sessions `hook replay` cannot read (wuu keeps none).
pub(crate) fn check_agent(dialect: Dialect) -> Result<()> {
    crate::ops::replay::check_dialect(dialect)
}

/// A tool call for people: the command, else the tool and its path (a patch: the files it
/// touches, never its text).
fn describe(value: &Map<String, Value>) -> String {
    let tool = text(value, &["tool_name"]).unwrap_or_default();
    let input = |name: &str| text(value, &["tool_input", name]);
    if let Some(command) = input("command") {
        if command.trim_start().starts_with("*** Begin Patch") {
            let files: Vec<&str> = command
                .lines()
                .filter_map(|line| {
                    ["*** Add File: ", "*** Update File: ", "*** Delete File: "]
                        .iter()
                        .find_map(|marker| line.strip_prefix(marker))
                })
                .collect();
            return format!("{tool} {}", files.join(", "));
        }
        return command;
    }
    match ["file_path", "path", "notebook_path", "pattern", "url"]
        .iter()
        .find_map(|name| input(name))
    {
        Some(path) => format!("{tool} {path}"),
        None => tool,
    }
}

/// The string at `path` in `value`.
fn text(value: &Map<String, Value>, path: &[&str]) -> Option<String> {
    let (first, rest) = path.split_first()?;
    let mut at = value.get(*first)?;
    for key in rest {
        at = at.get(key)?;
    }
    at.as_str().map(str::to_owned)
}
