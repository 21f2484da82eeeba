//! Claude Code's transcripts (`~/.claude/projects/<project>/<session>.jsonl`), read into the
//! events Claude Code sends its hooks (verboo).
//!
//! Read from the files Claude Code 2.1.197 writes (`tests/fixtures/replay/claude/`), and from
//! the hook payloads it sends (`tests/fixtures/conformance/claude/`). Each line is one entry with
//! a `type`:
//! - `user` with a string `message.content` (or text blocks) and no `isMeta`: a prompt, so
//!   `UserPromptSubmit`; its `permissionMode` is the session's mode from then on. An
//!   interrupted turn's marker (`[Request interrupted by user]`) and built-in commands run
//!   locally (`<command-name>`, `<local-command-stdout>`) are no prompts. A `user` entry holding `tool_result` blocks is the result of calls: `PostToolUse` with the entry's
//!   `toolUseResult` as `tool_response` (what Claude Code gives hooks), or `PostToolUseFailure`
//!   when the block says `is_error`, with the error text (`is_interrupt` when the user stopped
//!   it).
//! - `assistant`: each `tool_use` block is a call, so `PreToolUse` (tool name, input, id), then
//!   `PermissionRequest` where Claude Code may have asked (below). Claude Code writes one entry
//!   per content block, several with the same message id: a call id seen once is never
//!   replayed twice. The last text block is the turn's `last_assistant_message`.
//! - Every event carries the fields Claude Code 2.1 sends that a transcript records:
//!   `session_id`, `transcript_path`, `cwd`, `permission_mode` and `prompt_id` (the turn's
//!   `promptId`); not `duration_ms` (PostToolUse) nor Stop's `background_tasks` and
//!   `session_crons`, which it does not record.
//! - A subagent's transcript (`isSidechain`, `agentId`) is a session of its own; its events
//!   carry `agent_id`.
//! - A turn ends (`Stop`) when the next prompt arrives or the file ends after an answer.
//! - `system`, `summary`, `attachment`, `queue-operation`, `last-prompt`, `mode`,
//!   `file-history-snapshot`, `custom-title`, `progress` and a few more are known and carry no
//!   hook event; any other type (a newer Claude Code's) is skipped and counted by type in the
//!   report (`skipped_entries`), not taken for a bad line.
//!
//! *PermissionRequest*: a transcript does not record which calls asked the user. A call is
//! replayed as a permission request when its session's mode could have asked for it: not
//! `bypassPermissions`, not a read-only tool (`Read`, `Glob`, `Grep`, `LS`, `TodoWrite`, ...), and
//! in `acceptEdits` not a file edit. That is an upper bound of what Claude Code asked.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::rebuild::{Format, Rebuilt, Sink, event_base};

/// Entry types Claude Code 2.1 writes that carry no hook event.
const QUIET_TYPES: &[&str] = &[
    "system",
    "summary",
    "attachment",
    "queue-operation",
    "last-prompt",
    "mode",
    "file-history-snapshot",
    "custom-title",
    "progress",
    "agent-name",
    "pr-link",
    "tag",
];

/// User messages that are no prompt: an interrupted turn's marker, a local command's record.
const LOCAL_MARKERS: &[&str] = &[
    "[Request interrupted by user",
    "<command-name>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
];

/// Tools Claude Code runs without asking in every mode.
const READ_ONLY: &[&str] = &[
    "Read",
    "Glob",
    "Grep",
    "LS",
    "NotebookRead",
    "TodoWrite",
    "TodoRead",
    "Task",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
];

/// Tools `acceptEdits` runs without asking.
const EDITS: &[&str] = &["Edit", "MultiEdit", "Write", "NotebookEdit"];

/// The reader of one Claude Code transcript.
#[derive(Default)]
pub(crate) struct Claude {
    transcript: String,
    session_id: String,
    cwd: String,
    permission_mode: Option<String>,
    /// The current prompt's id (`promptId` of user entries): Claude Code 2.1 sends it as
    /// `prompt_id` with every event of the turn.
    prompt_id: Option<String>,
    /// A subagent's id (`agentId` of sidechain entries): its events carry `agent_id`.
    agent_id: Option<String>,
    /// Calls seen (ids), each replayed once; with their name and input until their result.
    seen: HashSet<String>,
    pending: std::collections::HashMap<String, (String, Value)>,
    last_text: Option<String>,
    in_turn: bool,
    last_time: Option<String>,
    last_line: u64,
}

impl Claude {
    /// A reader for the transcript at `transcript` (its path as hooks get it).
    pub(crate) fn new(transcript: String) -> Self {
        Claude {
            transcript,
            ..Self::default()
        }
    }

    fn base(&self, event: &str) -> Map<String, Value> {
        let mut object = event_base(event, &self.session_id, &self.transcript, &self.cwd);
        if let Some(mode) = &self.permission_mode {
            object.insert("permission_mode".into(), mode.clone().into());
        }
        if let Some(prompt) = &self.prompt_id {
            object.insert("prompt_id".into(), prompt.clone().into());
        }
        if let Some(agent) = &self.agent_id {
            object.insert("agent_id".into(), agent.clone().into());
        }
        object
    }

    fn stop(&mut self, sink: &mut Sink) {
        if !self.in_turn {
            return;
        }
        self.in_turn = false;
        let mut value = self.base("Stop");
        value.insert("stop_hook_active".into(), false.into());
        if let Some(text) = self.last_text.take() {
            value.insert("last_assistant_message".into(), text.into());
        }
        sink.event(Rebuilt::new(
            self.last_line,
            self.last_time.clone(),
            value,
            None,
        ));
    }

    fn asks(&self, tool: &str) -> bool {
        match self.permission_mode.as_deref() {
            Some("bypassPermissions") => false,
            Some("acceptEdits") if EDITS.contains(&tool) => false,
            _ => !READ_ONLY.contains(&tool),
        }
    }

    fn user(&mut self, line: u64, time: Option<String>, entry: &Value, sink: &mut Sink) {
        let content = &entry["message"]["content"];
        let results: Vec<&Value> = content
            .as_array()
            .map(|blocks| {
                blocks
                    .iter()
                    .filter(|b| b["type"] == "tool_result")
                    .collect()
            })
            .unwrap_or_default();
        let prompt_id = entry["promptId"].as_str().map(str::to_owned);
        if !results.is_empty() {
            if prompt_id.is_some() {
                self.prompt_id = prompt_id;
            }
            for block in results {
                self.result(line, time.clone(), entry, block, sink);
            }
            return;
        }
        if entry["isMeta"] == true || entry["isCompactSummary"] == true {
            return;
        }
        let prompt = match content {
            Value::String(text) => text.clone(),
            Value::Array(blocks) => blocks
                .iter()
                .filter_map(|b| (b["type"] == "text").then(|| b["text"].as_str()).flatten())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => {
                sink.invalid(line, "a user entry without message.content");
                return;
            }
        };
        // What Claude Code writes as a user message but never sent hooks as a prompt: the
        // marker of an interrupted turn, and built-in slash commands run locally.
        if LOCAL_MARKERS
            .iter()
            .any(|m| prompt.trim_start().starts_with(m))
        {
            return;
        }
        // The previous turn's Stop keeps its prompt's id; this prompt's events get its own.
        self.stop(sink);
        self.prompt_id = prompt_id;
        self.in_turn = true;
        let mut value = self.base("UserPromptSubmit");
        value.insert("prompt".into(), prompt.into());
        sink.event(Rebuilt::new(line, time, value, None));
    }

    fn result(
        &mut self,
        line: u64,
        time: Option<String>,
        entry: &Value,
        block: &Value,
        sink: &mut Sink,
    ) {
        let Some(id) = block["tool_use_id"].as_str() else {
            sink.invalid(line, "a tool_result without tool_use_id");
            return;
        };
        let Some((name, input)) = self.pending.remove(id) else {
            // The result of a call this file does not hold (a resumed or compacted session).
            return;
        };
        let text = result_text(&block["content"]);
        let error = block["is_error"] == true;
        let mut value = self.base(if error {
            "PostToolUseFailure"
        } else {
            "PostToolUse"
        });
        value.insert("tool_name".into(), name.into());
        value.insert("tool_input".into(), input);
        value.insert("tool_use_id".into(), id.into());
        if error {
            let error = match &entry["toolUseResult"] {
                Value::String(text) => text.clone(),
                _ => text.clone(),
            };
            let interrupted = text.contains("[Request interrupted by user")
                || entry["toolUseResult"]["interrupted"] == true;
            value.insert("error".into(), error.into());
            value.insert("is_interrupt".into(), interrupted.into());
        } else {
            let response = match &entry["toolUseResult"] {
                Value::Null => Value::String(text),
                other => other.clone(),
            };
            value.insert("tool_response".into(), response);
        }
        sink.event(Rebuilt::new(line, time, value, Some(id.to_owned())));
    }

    fn assistant(&mut self, line: u64, time: Option<String>, entry: &Value, sink: &mut Sink) {
        let Some(blocks) = entry["message"]["content"].as_array() else {
            sink.invalid(line, "an assistant entry without message.content");
            return;
        };
        self.in_turn = true;
        for block in blocks {
            match block["type"].as_str() {
                Some("text") => {
                    if let Some(text) = block["text"].as_str() {
                        self.last_text = Some(text.to_owned());
                    }
                }
                Some("tool_use") => {
                    let (Some(id), Some(name)) = (block["id"].as_str(), block["name"].as_str())
                    else {
                        sink.invalid(line, "a tool_use without id or name");
                        continue;
                    };
                    if !self.seen.insert(id.to_owned()) {
                        continue;
                    }
                    let input = block.get("input").cloned().unwrap_or_else(|| json!({}));
                    let mut value = self.base("PreToolUse");
                    value.insert("tool_name".into(), name.into());
                    value.insert("tool_input".into(), input.clone());
                    value.insert("tool_use_id".into(), id.into());
                    sink.event(Rebuilt::new(line, time.clone(), value, Some(id.to_owned())));
                    if self.asks(name) {
                        let mut value = self.base("PermissionRequest");
                        value.insert("tool_name".into(), name.into());
                        value.insert("tool_input".into(), input.clone());
                        sink.event(Rebuilt::new(line, time.clone(), value, Some(id.to_owned())));
                    }
                    self.pending.insert(id.to_owned(), (name.to_owned(), input));
                }
                _ => {}
            }
        }
    }
}

/// A tool result's content as text: a string, or its text blocks joined.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

impl Format for Claude {
    fn entry(&mut self, line: u64, entry: &Value, sink: &mut Sink) {
        let kind = entry["type"].as_str().unwrap_or_default();
        let time = entry["timestamp"].as_str().map(str::to_owned);
        if let Some(session) = entry["sessionId"].as_str() {
            self.session_id = session.to_owned();
        }
        if let Some(cwd) = entry["cwd"].as_str() {
            self.cwd = cwd.to_owned();
        }
        if entry["isSidechain"] == true
            && let Some(agent) = entry["agentId"].as_str()
        {
            self.agent_id = Some(agent.to_owned());
        }
        match kind {
            "user" => {
                if let Some(mode) = entry["permissionMode"].as_str() {
                    self.permission_mode = Some(mode.to_owned());
                }
                self.user(line, time.clone(), entry, sink);
            }
            "assistant" => self.assistant(line, time.clone(), entry, sink),
            kind if QUIET_TYPES.contains(&kind) => return,
            other => {
                sink.unknown(other);
                return;
            }
        }
        self.last_line = line;
        if time.is_some() {
            self.last_time = time;
        }
    }

    fn finish(&mut self, sink: &mut Sink) {
        self.stop(sink);
    }

    fn session_id(&self) -> &str {
        &self.session_id
    }
}
