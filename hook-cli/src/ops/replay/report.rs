//! The `--json` report of a replay, one object per line, each with a `type`: `event` (every
//! dispatched event, session by session, in order), `bad_line`, then one `summary`. The line
//! types derive their JSON Schema (schemars); the committed
//! `hook-cli/schemas/replay-report.schema.json` is checked against it by the test suite (`hook
//! replay --schema` prints it). It lives beside the CLI, not in `hook-protocol/schemas/`: it
//! describes this command's output, not the hook wire protocol `cargo xtask schemas` generates
//! from `hook-protocol`'s types.
//!
//! The type names are the schema's definition names: renaming one changes the schema.
//!
//! Also what a record says of its event: its one-line [`subject`], texts [`cut`] to one line.

use std::collections::BTreeMap;

use anyhow::Result;
use hook_protocol::Decision;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::lines::BadLine;

/// How long a cut tool call or reason may be in the report.
pub(crate) const CUT: usize = 120;

/// A decision, as the outcome gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Verdict {
    /// Nothing to say: the agent goes on.
    Continue,
    /// Allowed explicitly.
    Allow,
    /// The user is asked.
    Ask,
    /// Deferred to the agent's own decision.
    Defer,
    /// Blocked (a deny is a block).
    Block,
}

impl From<Decision> for Verdict {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Continue => Verdict::Continue,
            Decision::Allow => Verdict::Allow,
            Decision::Ask => Verdict::Ask,
            Decision::Defer => Verdict::Defer,
            Decision::Block => Verdict::Block,
        }
    }
}

impl Verdict {
    /// The decision's word, as `--json` writes it.
    pub(crate) fn word(self) -> &'static str {
        match self {
            Verdict::Continue => "continue",
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Defer => "defer",
            Verdict::Block => "block",
        }
    }
}

/// What one configuration made of one event.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Result1 {
    /// The combined decision.
    pub(crate) decision: Verdict,
    /// The reason given with it (a hook's), if any.
    pub(crate) reason: Option<String>,
    /// The input was rewritten (`updated_input`).
    pub(crate) rewritten: bool,
    /// Context for the model was added.
    pub(crate) context_added: bool,
    /// A hook asked the agent to stop (`continue: false`).
    pub(crate) stop: bool,
    /// How long the dispatch took, in milliseconds.
    pub(crate) duration_ms: u64,
    /// Each matching hook's run.
    pub(crate) hooks: Vec<HookRun>,
}

impl Result1 {
    /// Whether two configurations' results differ in what the agent would do.
    pub(crate) fn differs(&self, other: &Result1) -> bool {
        (self.decision, self.rewritten, self.context_added, self.stop)
            != (
                other.decision,
                other.rewritten,
                other.context_added,
                other.stop,
            )
    }
}

/// One hook's run on one event.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HookRun {
    /// The hook's key (`hook list`).
    pub(crate) key: String,
    /// `ok`, `blocked`, `failed`, `timed_out`, `skipped` or `async`.
    pub(crate) status: String,
    /// Why it was skipped (`untrusted`, `modified`, `disabled`...).
    pub(crate) skip_reason: Option<String>,
    /// How long it ran, in milliseconds.
    pub(crate) duration_ms: Option<u64>,
    /// What went wrong, for a failed or skipped run.
    pub(crate) error: Option<String>,
}

/// One dispatched event.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EventRecord {
    /// The session id.
    pub(crate) session: String,
    /// The transcript file.
    pub(crate) file: String,
    /// The line of the entry the event was rebuilt from.
    pub(crate) line: u64,
    /// The entry's timestamp, as recorded.
    pub(crate) time: Option<String>,
    /// The event name.
    pub(crate) event: String,
    /// The tool, for tool events.
    pub(crate) tool: Option<String>,
    /// The tool call's id, for tool events.
    pub(crate) tool_use_id: Option<String>,
    /// What the event is about, cut to 120 characters: the command, the file path, the prompt.
    pub(crate) subject: Option<String>,
    /// The configuration's result.
    pub(crate) result: Result1,
    /// With `--compare`: the other configuration's result.
    pub(crate) compared: Option<Result1>,
}

/// One hook's totals.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HookStats {
    /// The hook's key.
    pub(crate) key: String,
    /// Events it matched (it ran, or was skipped with a reason).
    pub(crate) matched: u64,
    /// Runs that blocked.
    pub(crate) blocked: u64,
    /// Events whose input it rewrote.
    pub(crate) rewritten: u64,
    /// Runs that added context for the model.
    pub(crate) context_added: u64,
    /// Runs that failed.
    pub(crate) failed: u64,
    /// Runs that timed out.
    pub(crate) timed_out: u64,
    /// Runs skipped (untrusted, modified, disabled, unsupported...).
    pub(crate) skipped: u64,
    /// Median duration of its runs, in milliseconds.
    pub(crate) p50_ms: Option<u64>,
    /// 95th percentile of its runs' durations, in milliseconds.
    pub(crate) p95_ms: Option<u64>,
    /// Its runs' durations (not in the report: the percentiles are).
    #[serde(skip)]
    #[schemars(skip)]
    pub(super) durations: Vec<u64>,
}

/// Why a hook of the configuration was left out of the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LeftOutWhy {
    /// An entry `hook relay install` wrote into the agent's settings: running it would start
    /// the relay as if the agent had called it, recording the replayed events in the relay's
    /// live journal and the replay's `PATH` as the agent's.
    RelayEntry,
}

/// A hook of a configuration that replay does not run, named once (not on every event).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NotReplayed {
    /// The hook's key (`hook list`).
    pub(crate) key: String,
    /// Its command, as written.
    pub(crate) command: String,
    /// Why it is left out.
    pub(crate) reason: LeftOutWhy,
    /// The flag that replays what it would have run (`--relay`: the relay's own hooks),
    /// when this replay is not already that.
    pub(crate) instead: Option<String>,
    /// It is a hook of the `--compare` configuration.
    pub(crate) compared: bool,
}

/// The totals of a replay.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Summary {
    /// `verboo` or `lime`.
    pub(crate) dialect: String,
    /// Transcript files read.
    pub(crate) files: u64,
    /// Sessions replayed (one per file).
    pub(crate) sessions: u64,
    /// Lines read.
    pub(crate) lines: u64,
    /// Bytes read.
    pub(crate) bytes: u64,
    /// Events rebuilt, by name (dispatched or not).
    pub(crate) rebuilt: BTreeMap<String, u64>,
    /// Events dispatched.
    pub(crate) events: u64,
    /// Dispatched events by decision.
    pub(crate) decisions: BTreeMap<String, u64>,
    /// Events whose input was rewritten.
    pub(crate) rewritten: u64,
    /// Events that got context for the model.
    pub(crate) context_added: u64,
    /// Events of a call a replayed PreToolUse blocked, not dispatched.
    pub(crate) skipped_after_block: u64,
    /// Events whose recorded `cwd` no longer exists, dispatched with the project's.
    pub(crate) cwd_replaced: u64,
    /// Lines not replayed.
    pub(crate) bad_lines: u64,
    /// Lines not replayed, by why.
    pub(crate) bad_by_kind: BTreeMap<String, u64>,
    /// Well-formed entries of types the readers do not model (a newer agent's), skipped, by
    /// type (at most 64 types; more are counted under `(other types)`). Not bad lines.
    pub(crate) skipped_entries: BTreeMap<String, u64>,
    /// Per hook, in key order.
    pub(crate) hooks: Vec<HookStats>,
    /// With `--compare`: the other configuration's hooks.
    pub(crate) compared_hooks: Option<Vec<HookStats>>,
    /// With `--compare`: events whose outcome differs.
    pub(crate) differing: Option<u64>,
    /// The hooks left out of the replay (the relay's entries in the agent's settings), each
    /// once, in configuration order.
    pub(crate) not_replayed: Vec<NotReplayed>,
    /// Wall time of the replay, in seconds.
    pub(crate) seconds: f64,
    /// Dispatched events per second.
    pub(crate) events_per_second: f64,
}

/// One line of `hook replay --json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ReportLine {
    /// A dispatched event and its outcome.
    Event(EventRecord),
    /// A line that was not replayed.
    BadLine(BadLine),
    /// The totals, last.
    Summary(Summary),
}

/// The schema of one `--json` line, as committed.
///
/// # Errors
///
/// Never in practice (a schema always serializes).
pub(crate) fn schema_text() -> Result<String> {
    let mut schema = serde_json::to_value(schemars::schema_for!(ReportLine))?;
    if let Some(object) = schema.as_object_mut() {
        object.insert(
            "title".into(),
            "One line of `hook replay --json` (JSON Lines)".into(),
        );
    }
    Ok(serde_json::to_string_pretty(&schema)?)
}

/// The one-line subject of an event: a command, a path, a prompt, a patch's first file.
pub(crate) fn subject(input: &Value) -> Option<String> {
    let tool_input = &input["tool_input"];
    let text = if let Some(prompt) = input["prompt"].as_str() {
        prompt.to_owned()
    } else if let Some(command) = tool_input["command"].as_str() {
        command.to_owned()
    } else if let Some(path) = tool_input["file_path"]
        .as_str()
        .or_else(|| tool_input["path"].as_str())
        .or_else(|| tool_input["url"].as_str())
        .or_else(|| tool_input["pattern"].as_str())
    {
        path.to_owned()
    } else if let Some(message) = input["last_assistant_message"].as_str() {
        message.to_owned()
    } else if tool_input.is_null() {
        return None;
    } else {
        tool_input.to_string()
    };
    Some(cut(&text))
}

/// `text` on one line, at most [`CUT`] characters (an ellipsis marks a cut).
pub(crate) fn cut(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    if flat.chars().count() <= CUT {
        return flat.to_owned();
    }
    let mut out: String = flat.chars().take(CUT - 1).collect();
    out.push('…');
    out
}

/// A serde enum's word (`timed_out`, `untrusted`).
pub(crate) fn json_word(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_events_subject_is_what_it_is_about() {
        let table = [
            (
                json!({"prompt": "Fix it.", "tool_input": {"command": "ls"}}),
                Some("Fix it."),
            ),
            (
                json!({"tool_input": {"command": "rm -rf build"}}),
                Some("rm -rf build"),
            ),
            (
                json!({"tool_input": {"file_path": "/a", "path": "/b"}}),
                Some("/a"),
            ),
            (json!({"tool_input": {"path": "/b"}}), Some("/b")),
            (
                json!({"tool_input": {"url": "https://x"}}),
                Some("https://x"),
            ),
            (json!({"tool_input": {"pattern": "*.rs"}}), Some("*.rs")),
            (json!({"last_assistant_message": "Done."}), Some("Done.")),
            (
                json!({"tool_input": {"todos": []}}),
                Some(r#"{"todos":[]}"#),
            ),
            (json!({"hook_event_name": "Stop"}), None),
        ];
        for (input, expected) in table {
            assert_eq!(subject(&input).as_deref(), expected, "{input}");
        }
    }

    #[test]
    fn subjects_are_cut_on_one_line() {
        let long = "x".repeat(300);
        let cut = cut(&format!("a\nb {long}"));
        assert!(cut.starts_with("a b x"));
        assert_eq!(cut.chars().count(), CUT);
    }
}
