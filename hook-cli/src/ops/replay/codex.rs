//! Codex CLI's rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), read into the
//! events Codex sends its hooks (lime).
//!
//! Read from the files Codex CLI 0.169.1 writes (`tests/fixtures/replay/codex/`), and from the
//! hook payloads it sends (`tests/fixtures/conformance/codex/`). Each line is
//! `{"timestamp", "type", "payload"}`:
//! - `session_meta`: the session id (`payload.id`) and `cwd`.
//! - `turn_context`: the turn's `turn_id`, `cwd`, `model` and permission mode: approval
//!   `never` with no sandbox (`permission_profile.type` `disabled`, or `sandbox_policy.type`
//!   `danger-full-access`) is `bypassPermissions` (what Codex reports with
//!   `--dangerously-bypass-approvals-and-sandbox`), anything else `default`.
//! - `event_msg`: `task_started` opens a turn; a `UserMessage` item (`item_completed`, 0.169) or
//!   a `user_message` (older versions) is the prompt (`UserPromptSubmit`, once per turn and
//!   text); a `CommandExecution` item holds a command's own output (`aggregated_output`);
//!   `task_complete` ends the turn (`Stop` with `last_agent_message`).
//! - `response_item`: `function_call` / `custom_tool_call` / `local_shell_call` are calls
//!   (`PreToolUse`); `function_call_output` / `custom_tool_call_output` their results
//!   (`PostToolUse`; lime has no PostToolUseFailure, and Codex sends PostToolUse for a failed
//!   command too).
//! - `world_state`, `token_usage_record`, `compacted`, `reasoning` and the like carry no hook
//!   event; an unknown `type` (a newer Codex's) is skipped and counted by type in the report.
//! - The first rollout format (not read from a real file here: as Codex's own rollout reader and
//!   session viewers describe it) has no wrapper: a metadata line (`id`, `timestamp`), then the
//!   response items themselves and `record_type` state lines; it is read too (no turn ids,
//!   prompts or turn ends are recorded there, so only tool calls come out).
//!
//! Tool names and inputs as Codex gives them to hooks (the conformance fixtures): `exec_command`
//! (`cmd`), `shell_command` (`command`), `shell` and `local_shell_call` (an argv; `bash -lc X`
//! is `X`) are `Bash` with `{"command": ...}`; `apply_patch` (freeform, or JSON `input`/`patch`)
//! is `apply_patch` with `{"command": PATCH}` (a config's `Edit`/`Write` matchers reach it
//! through the dialect's aliases); an MCP tool (`mcp__...`) keeps its name and arguments. Other
//! tools (`update_plan`, `write_stdin`, `view_image`...) run no hooks in Codex and are not
//! replayed. A call asking to leave the sandbox (`sandbox_permissions: "require_escalated"`) is
//! also a `PermissionRequest` (tool input `command` and `description`, the justification): that
//! is when Codex asks.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::rebuild::{Format, Rebuilt, Sink, event_base};

/// Entry and payload types that carry no hook event.
const QUIET_TYPES: &[&str] = &["world_state", "token_usage_record", "compacted"];

/// Response items as the first rollout format wrote them, one a line without a wrapper.
const LEGACY_ITEMS: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
];

/// The reader of one Codex rollout.
#[derive(Default)]
pub(crate) struct Codex {
    transcript: String,
    session_id: String,
    cwd: String,
    model: Option<String>,
    permission_mode: Option<String>,
    turn_id: String,
    /// Call id → (tool name, input) until its output.
    pending: HashMap<String, (String, Value)>,
    /// Call id → the command's own output, from its `CommandExecution` item.
    outputs: HashMap<String, String>,
    last_prompt: Option<(String, String)>,
    last_text: Option<String>,
}

impl Codex {
    /// A reader for the rollout at `transcript` (its path as hooks get it).
    pub(crate) fn new(transcript: String) -> Self {
        Codex {
            transcript,
            ..Self::default()
        }
    }

    fn base(&self, event: &str) -> Map<String, Value> {
        let mut object = event_base(event, &self.session_id, &self.transcript, &self.cwd);
        object.insert(
            "model".into(),
            self.model.clone().unwrap_or_default().into(),
        );
        object.insert(
            "permission_mode".into(),
            self.permission_mode
                .clone()
                .unwrap_or_else(|| "default".to_owned())
                .into(),
        );
        object.insert("turn_id".into(), self.turn_id.clone().into());
        object
    }

    fn prompt(&mut self, line: u64, time: Option<String>, text: &str, sink: &mut Sink) {
        let key = (self.turn_id.clone(), text.to_owned());
        if self.last_prompt.as_ref() == Some(&key) {
            return;
        }
        self.last_prompt = Some(key);
        let mut value = self.base("UserPromptSubmit");
        value.insert("prompt".into(), text.into());
        sink.event(Rebuilt::new(line, time, value, None));
    }

    fn event_msg(&mut self, line: u64, time: Option<String>, payload: &Value, sink: &mut Sink) {
        match payload["type"].as_str().unwrap_or_default() {
            "task_started" => {
                if let Some(turn) = payload["turn_id"].as_str() {
                    self.turn_id = turn.to_owned();
                }
                self.last_text = None;
            }
            "user_message" => {
                if let Some(text) = payload["message"].as_str() {
                    self.prompt(line, time, text, sink);
                }
            }
            "item_completed" => {
                let item = &payload["item"];
                match item["type"].as_str().unwrap_or_default() {
                    "UserMessage" => {
                        let text = item["content"]
                            .as_array()
                            .map(|parts| {
                                parts
                                    .iter()
                                    .filter_map(|p| p["text"].as_str())
                                    .collect::<Vec<_>>()
                                    .join("\n")
                            })
                            .unwrap_or_default();
                        self.prompt(line, time, &text, sink);
                    }
                    "CommandExecution" => {
                        if let (Some(id), Some(output)) =
                            (item["id"].as_str(), item["aggregated_output"].as_str())
                        {
                            self.outputs.insert(id.to_owned(), output.to_owned());
                        }
                    }
                    _ => {}
                }
            }
            "agent_message" => {
                if let Some(text) = payload["message"].as_str() {
                    self.last_text = Some(text.to_owned());
                }
            }
            "task_complete" => {
                let mut value = self.base("Stop");
                value.insert("stop_hook_active".into(), false.into());
                let last = payload["last_agent_message"]
                    .as_str()
                    .map(str::to_owned)
                    .or_else(|| self.last_text.take());
                value.insert("last_assistant_message".into(), last.into());
                sink.event(Rebuilt::new(line, time, value, None));
            }
            _ => {}
        }
    }

    fn call(&mut self, line: u64, time: Option<String>, payload: &Value, sink: &mut Sink) {
        let kind = payload["type"].as_str().unwrap_or_default();
        let Some(id) = payload["call_id"]
            .as_str()
            .or_else(|| payload["id"].as_str())
        else {
            sink.invalid(line, "a tool call without call_id");
            return;
        };
        let name = payload["name"].as_str().unwrap_or_default();
        let arguments: Value = match kind {
            "function_call" => match payload["arguments"].as_str() {
                Some(text) => serde_json::from_str(text).unwrap_or(Value::String(text.into())),
                None => payload["arguments"].clone(),
            },
            "custom_tool_call" => payload["input"].clone(),
            // `local_shell_call`: `action.command` is an argv.
            _ => json!({"command": payload["action"]["command"]}),
        };
        let (tool, input) = match (kind, name) {
            ("local_shell_call", _) | (_, "shell") => (
                "Bash",
                json!({"command": argv_command(&arguments["command"])}),
            ),
            (_, "exec_command") => ("Bash", json!({"command": arguments["cmd"]})),
            (_, "shell_command") => ("Bash", json!({"command": arguments["command"]})),
            (_, "apply_patch") => {
                let patch = match &arguments {
                    Value::String(patch) => Value::String(patch.clone()),
                    other => other
                        .get("input")
                        .or_else(|| other.get("patch"))
                        .cloned()
                        .unwrap_or(Value::Null),
                };
                ("apply_patch", json!({"command": patch}))
            }
            (_, name) if name.starts_with("mcp__") => (name, arguments.clone()),
            _ => return,
        };
        let mut value = self.base("PreToolUse");
        value.insert("tool_name".into(), tool.into());
        value.insert("tool_input".into(), input.clone());
        value.insert("tool_use_id".into(), id.into());
        sink.event(Rebuilt::new(line, time.clone(), value, Some(id.to_owned())));
        if arguments["sandbox_permissions"] == "require_escalated" {
            let mut value = self.base("PermissionRequest");
            value.insert("tool_name".into(), tool.into());
            let mut asked = input.clone();
            if let (Some(object), Some(why)) =
                (asked.as_object_mut(), arguments["justification"].as_str())
            {
                object.insert("description".into(), why.into());
            }
            value.insert("tool_input".into(), asked);
            sink.event(Rebuilt::new(line, time, value, Some(id.to_owned())));
        }
        self.pending.insert(id.to_owned(), (tool.to_owned(), input));
    }

    fn output(&mut self, line: u64, time: Option<String>, payload: &Value, sink: &mut Sink) {
        let Some(id) = payload["call_id"].as_str() else {
            sink.invalid(line, "a tool output without call_id");
            return;
        };
        let Some((tool, input)) = self.pending.remove(id) else {
            return;
        };
        let recorded = self.outputs.remove(id);
        let response = recorded.unwrap_or_else(|| {
            let text = match &payload["output"] {
                Value::String(text) => text.clone(),
                other => other["content"].as_str().unwrap_or_default().to_owned(),
            };
            // The model sees a header (`Exit code`, `Wall time`) before `Output:`; hooks get
            // the command's output alone.
            match text.split_once("Output:\n") {
                Some((_, output)) => output.to_owned(),
                None => text,
            }
        });
        let mut value = self.base("PostToolUse");
        value.insert("tool_name".into(), tool.into());
        value.insert("tool_input".into(), input);
        value.insert("tool_response".into(), response.into());
        value.insert("tool_use_id".into(), id.into());
        sink.event(Rebuilt::new(line, time, value, Some(id.to_owned())));
    }

    fn response_item(&mut self, line: u64, time: Option<String>, item: &Value, sink: &mut Sink) {
        match item["type"].as_str().unwrap_or_default() {
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                self.call(line, time, item, sink);
            }
            "function_call_output" | "custom_tool_call_output" => {
                self.output(line, time, item, sink);
            }
            "message" if item["role"] == "assistant" => {
                if let Some(text) = item["content"]
                    .as_array()
                    .and_then(|parts| parts.iter().rev().find_map(|p| p["text"].as_str()))
                {
                    self.last_text = Some(text.to_owned());
                }
            }
            _ => {}
        }
    }

    fn turn_context(&mut self, payload: &Value) {
        if let Some(turn) = payload["turn_id"].as_str() {
            self.turn_id = turn.to_owned();
        }
        if let Some(cwd) = payload["cwd"].as_str() {
            self.cwd = cwd.to_owned();
        }
        if let Some(model) = payload["model"].as_str() {
            self.model = Some(model.to_owned());
        }
        let unsandboxed = payload["permission_profile"]["type"] == "disabled"
            || payload["sandbox_policy"]["type"] == "danger-full-access"
            || payload["sandbox_policy"]["mode"] == "danger-full-access";
        let mode = if payload["approval_policy"] == "never" && unsandboxed {
            "bypassPermissions"
        } else {
            "default"
        };
        self.permission_mode = Some(mode.to_owned());
    }
}

/// A shell argv as the one command string Codex gives hooks: `bash -lc X` is `X`, anything else
/// its words joined with POSIX quoting.
fn argv_command(argv: &Value) -> Value {
    let Some(words) = argv.as_array() else {
        return argv.clone();
    };
    let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
    if let [shell, flag, script] = words.as_slice()
        && shell
            .rsplit('/')
            .next()
            .is_some_and(|s| s == "bash" || s == "sh" || s == "zsh")
        && (*flag == "-lc" || *flag == "-c")
    {
        return Value::String((*script).to_owned());
    }
    Value::String(shlex::try_join(words.iter().copied()).unwrap_or_else(|_| words.join(" ")))
}

impl Format for Codex {
    fn entry(&mut self, line: u64, entry: &Value, sink: &mut Sink) {
        let time = entry["timestamp"].as_str().map(str::to_owned);
        let payload = &entry["payload"];
        match entry["type"].as_str().unwrap_or_default() {
            "session_meta" => {
                if let Some(id) = payload["id"].as_str() {
                    self.session_id = id.to_owned();
                }
                if let Some(cwd) = payload["cwd"].as_str() {
                    self.cwd = cwd.to_owned();
                }
            }
            "turn_context" => self.turn_context(payload),
            "event_msg" => self.event_msg(line, time, payload, sink),
            "response_item" => self.response_item(line, time, payload, sink),
            kind if QUIET_TYPES.contains(&kind) => {}
            // The first rollout format (Codex before the `{timestamp, type, payload}` lines):
            // the session's metadata, then the response items themselves, and `record_type`
            // state lines.
            kind if LEGACY_ITEMS.contains(&kind) && entry.get("payload").is_none() => {
                self.response_item(line, time, entry, sink);
            }
            "" if entry.get("record_type").is_some() => {}
            "" if entry["id"].is_string() && line == 1 => {
                if let Some(id) = entry["id"].as_str() {
                    self.session_id = id.to_owned();
                }
            }
            other => sink.unknown(other),
        }
    }

    fn finish(&mut self, _sink: &mut Sink) {}

    fn session_id(&self) -> &str {
        &self.session_id
    }
}

/// The `cwd` of a rollout's `session_meta` line (its first), for finding the current project's
/// sessions.
pub(crate) fn session_cwd(first_line: &[u8]) -> Option<String> {
    let entry: Value = serde_json::from_slice(first_line).ok()?;
    (entry["type"] == "session_meta")
        .then(|| entry["payload"]["cwd"].as_str().map(str::to_owned))
        .flatten()
}
