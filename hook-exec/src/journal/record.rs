//! What a journal line holds ([`Record`], [`RunRecord`]) and its bounds: every text field cut,
//! the line kept under [`MAX_LINE_BYTES`] (see the module docs of [`crate::journal`]).

use std::time::SystemTime;

use hook_protocol::input::EventInput;
use hook_protocol::{
    Decision, Dialect, Event, HandlerType, Layer, Outcome, Run, RunStatus, SkipReason,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::time::format_time;

/// The format version every record is written with (`v`); a line without `v` is version 1.
pub const FORMAT_VERSION: u32 = 1;

/// How many characters of the input's summary, a reason or an error a line keeps.
pub const SUMMARY_CHARS: usize = 200;

/// How many characters of `cwd`, a run's key or its file a line keeps.
pub const FIELD_CHARS: usize = 1024;

/// How many characters of the recorded `PATH` a line keeps.
pub const PATH_CHARS: usize = 4096;

/// The longest line written: 64 KiB (see the module docs).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One dispatch, as a journal line (see the module docs for what is and is not kept).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Record {
    /// The format version ([`FORMAT_VERSION`]; 1 for a line written before the field existed).
    #[serde(default = "first_version")]
    pub v: u32,
    /// When the dispatch ended: UTC, RFC 3339 with milliseconds (`2026-12-03T19:16:17.123Z`).
    pub time: String,
    /// Who dispatched: `run` (`hook run`), `relay` (`hook relay`) or `library` (an embedder).
    pub front: String,
    /// The dialect.
    pub dialect: Dialect,
    /// The event.
    pub event: Event,
    /// The session id the agent gave (may be empty).
    pub session_id: String,
    /// The event's working directory.
    pub cwd: String,
    /// The tool, for tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// A short summary of the input: the command, else the path, else the prompt, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The outcome's decision.
    pub decision: Decision,
    /// The outcome's reason, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A hook rewrote the tool input.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewritten: bool,
    /// A hook asked the agent to stop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
    /// The `PATH` the front end ran with (`hook relay`: the agent's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The exit code the front end answered with (`hook relay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The agent that called the front end, when it is not the dialect's own (`hook relay`
    /// answering Qwen Code, Gemini CLI or Copilot CLI with Claude Code's hooks: `qwen`,
    /// `gemini`, `copilot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The line was cut to [`MAX_LINE_BYTES`]: stderr excerpts (then errors) were dropped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// One entry per matching handler, in configuration order (empty in a stub line).
    pub runs: Vec<RunRecord>,
    /// A stub line: the record did not fit in [`MAX_LINE_BYTES`] even cut, and its runs (this
    /// many) were left out, with its summary, reason and `PATH`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_dropped: Option<usize>,
}

fn first_version() -> u32 {
    1
}

/// One handler's part of a [`Record`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The handler's key.
    pub key: String,
    /// The layer it came from.
    pub layer: Layer,
    /// The file it was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The handler type.
    #[serde(rename = "type")]
    pub handler_type: HandlerType,
    /// What happened.
    pub status: RunStatus,
    /// Why it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<SkipReason>,
    /// Its exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The first and last bytes of its stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// What went wrong (or why it was skipped), cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// It ran and exited 0, and nothing reached the agent: no block (its status), no other
    /// decision, rewrite or stop in the dispatch, no context, no warning (its stderr does not count: the agents drop it on exit 0). On an
    /// event that can block, a guard that may have stopped guarding.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quiet: bool,
    /// It was answered in the front end's own process, not a spawned one
    /// ([`Run::in_process`]: `hook guard run NAME` in `hook relay` and `hook run`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_process: bool,
}

impl Record {
    /// The record of `outcome`, the result of dispatching `input`, by front end `front`
    /// (`run`, `relay`, `library`), timed now.
    pub fn new(front: &str, input: &EventInput, outcome: &Outcome) -> Self {
        let value = input.to_value();
        let tool = value
            .get("tool_name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        // What a run whose own status is `ok` may have given: a block is always its run's
        // `blocked`, so another hook's block does not make this one less quiet.
        let decided = !matches!(outcome.decision, Decision::Continue | Decision::Block)
            || outcome.updated_input.is_some()
            || outcome.stop;
        let runs = outcome
            .runs
            .iter()
            .map(|run| RunRecord::new(run, outcome, decided))
            .collect();
        Record {
            v: FORMAT_VERSION,
            time: format_time(SystemTime::now()),
            front: cut_to(front, SUMMARY_CHARS),
            dialect: outcome.dialect,
            event: bounded_event(&outcome.event),
            session_id: cut_to(input.session_id(), SUMMARY_CHARS),
            cwd: cut_to(input.cwd(), FIELD_CHARS),
            tool: tool.as_deref().map(cut),
            summary: summary(&value),
            decision: outcome.decision,
            reason: outcome.reason.as_deref().map(cut),
            rewritten: outcome.updated_input.is_some(),
            stop: outcome.stop,
            path: None,
            exit_code: None,
            agent: None,
            truncated: false,
            runs,
            runs_dropped: None,
        }
    }

    /// This record with the `PATH` the front end ran with.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(cut_to(&path.into(), PATH_CHARS));
        self
    }

    /// This record with the agent that called the front end, when it is not the dialect's own
    /// (cut as a field).
    pub fn with_agent(mut self, agent: impl Into<String>) -> Self {
        self.agent = Some(cut_to(&agent.into(), FIELD_CHARS));
        self
    }

    /// This record with the exit code the front end answered with.
    pub fn with_exit_code(mut self, code: i32) -> Self {
        self.exit_code = Some(code);
        self
    }

    /// The record as one JSON line (with its newline), at most [`MAX_LINE_BYTES`]: every
    /// field cut to its bound, then stderr excerpts, errors and files dropped, then a stub
    /// (see the module docs).
    ///
    /// # Errors
    ///
    /// When serde_json cannot serialize it (never expected).
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        let fits = |line: &String| line.len() < MAX_LINE_BYTES;
        let mut record = self.clone();
        record.bound();
        let mut line = serde_json::to_string(&record)?;
        if !fits(&line) {
            record.truncated = true;
            for run in &mut record.runs {
                run.stderr = None;
            }
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            for run in &mut record.runs {
                run.error = None;
                run.file = None;
            }
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            record.runs_dropped = Some(record.runs.len());
            record.runs.clear();
            record.summary = None;
            record.reason = None;
            record.path = None;
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            // Every field left is cut to a few KiB at most: never expected.
            record.session_id = cut_to(&record.session_id, 16);
            record.cwd = cut_to(&record.cwd, 16);
            record.tool = None;
            line = serde_json::to_string(&record)?;
        }
        line.push('\n');
        Ok(line)
    }

    /// Cuts every text field to its bound (a record read back or built by hand may hold more).
    fn bound(&mut self) {
        self.front = cut_to(&self.front, SUMMARY_CHARS);
        self.event = bounded_event(&self.event);
        self.session_id = cut_to(&self.session_id, SUMMARY_CHARS);
        self.cwd = cut_to(&self.cwd, FIELD_CHARS);
        self.time = cut_to(&self.time, 40);
        let short = |field: &mut Option<String>, chars: usize| {
            if let Some(text) = field {
                *text = cut_to(text, chars);
            }
        };
        short(&mut self.tool, SUMMARY_CHARS);
        short(&mut self.summary, SUMMARY_CHARS);
        short(&mut self.reason, SUMMARY_CHARS);
        short(&mut self.path, PATH_CHARS);
        for run in &mut self.runs {
            run.key = cut_to(&run.key, FIELD_CHARS);
            short(&mut run.file, FIELD_CHARS);
            short(&mut run.error, SUMMARY_CHARS);
            // An excerpt is a head and a tail of `Run::STDERR_EXCERPT_BYTES` each, plus a note.
            short(&mut run.stderr, 2 * Run::STDERR_EXCERPT_BYTES + 64);
        }
    }
}

/// An event name past [`SUMMARY_CHARS`] (an unknown one an agent sent) cut to it.
fn bounded_event(event: &Event) -> Event {
    match event {
        Event::Other(name) if name.chars().nth(SUMMARY_CHARS).is_some() => {
            Event::Other(cut_to(name, SUMMARY_CHARS))
        }
        other => other.clone(),
    }
}

impl RunRecord {
    fn new(run: &Run, outcome: &Outcome, decided: bool) -> Self {
        let added_context = outcome
            .additional_contexts
            .iter()
            .any(|context| context.key == run.key);
        // stderr does not count: the agents drop an exit-0 hook's stderr (a guard whose `jq`
        // is missing says so there, exits 0, and allows).
        let quiet = run.status == RunStatus::Ok
            && run.exit_code == Some(0)
            && run.warnings.is_empty()
            && !added_context
            && !decided;
        RunRecord {
            key: cut_to(&run.key, FIELD_CHARS),
            layer: run.source.layer,
            file: run.source.path.as_deref().map(|f| cut_to(f, FIELD_CHARS)),
            handler_type: run.handler_type,
            status: run.status,
            skip_reason: run.skip_reason,
            exit_code: run.exit_code,
            duration_ms: run.duration_ms,
            stderr: run.stderr.clone(),
            error: run.error.as_deref().map(cut),
            quiet,
            in_process: run.in_process,
        }
    }
}

/// `text` cut to [`SUMMARY_CHARS`] characters (an ellipsis marks the cut).
fn cut(text: &str) -> String {
    cut_to(text, SUMMARY_CHARS)
}

/// `text` cut to `chars` characters (an ellipsis marks the cut).
fn cut_to(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The command, else the path, else the prompt of an event, cut.
pub(super) fn summary(value: &Value) -> Option<String> {
    let input = value.get("tool_input");
    let from_input = |name: &str| input.and_then(|i| i.get(name)).and_then(Value::as_str);
    let text = from_input("command")
        .or_else(|| from_input("file_path"))
        .or_else(|| from_input("path"))
        .or_else(|| from_input("url"))
        .or_else(|| from_input("pattern"))
        .or_else(|| value.get("file_path").and_then(Value::as_str))
        .or_else(|| value.get("prompt").and_then(Value::as_str))
        .or_else(|| value.get("source").and_then(Value::as_str))
        .or_else(|| value.get("reason").and_then(Value::as_str))?;
    if let Some(files) = patch_summary(text) {
        return Some(cut(&files));
    }
    Some(cut(text))
}

/// A patch in the `*** Begin Patch` format (Codex's `apply_patch`, whose input is its `command`)
/// as the files it touches, never its text: `patch: add a.rs, update b.rs`.
fn patch_summary(text: &str) -> Option<String> {
    if !text.trim_start().starts_with("*** Begin Patch") {
        return None;
    }
    let mut files = Vec::new();
    for line in text.lines() {
        for (marker, verb) in [
            ("*** Add File: ", "add"),
            ("*** Update File: ", "update"),
            ("*** Delete File: ", "delete"),
            ("*** Move to: ", "move to"),
        ] {
            if let Some(path) = line.strip_prefix(marker) {
                files.push(format!("{verb} {}", path.trim()));
            }
        }
        if files.len() > 20 {
            files.push("…".to_owned());
            break;
        }
    }
    Some(format!("patch: {}", files.join(", ")))
}
