//! The typed, dialect-neutral event a hook receives, built from the protocol's per-dialect inputs.
//!
//! `mod.rs` holds the event and its payloads; `tool.rs` the typed tool inputs; `dialects.rs`
//! builds an [`EventKind`] from each dialect's input.

mod dialects;
mod tool;

pub use tool::{TextEdit, Tool, patch_files};

use std::fmt;

use hook_protocol::Dialect;
use hook_protocol::input::{EventInput, InputError};

use serde_json::{Map, Value};

/// One event, as a hook sees it: what happened ([`EventKind`]), in which dialect, with the
/// protocol's typed input and the raw JSON always at hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    kind: EventKind,
    input: EventInput,
    raw: Value,
}

impl Event {
    /// Reads an event of `dialect` from a JSON value (an object with `hook_event_name`).
    ///
    /// Errors name the field that is missing or wrong, including the fields of a common tool's
    /// input (`tool_input.command` of a `Bash` call...).
    ///
    /// # Errors
    ///
    /// [`EventError`] naming the field that is missing or of the wrong type.
    pub fn from_value(dialect: Dialect, value: Value) -> Result<Event, EventError> {
        let input = hook_protocol::input::input_from_value(dialect, value.clone())?;
        let kind = EventKind::from_input(&input)?;
        Ok(Event {
            kind,
            input,
            raw: value,
        })
    }

    /// Reads an event of `dialect` from JSON bytes; see [`Event::from_value`].
    ///
    /// # Errors
    ///
    /// [`EventError`] when the bytes are not JSON, or as [`Event::from_value`].
    pub fn parse(dialect: Dialect, bytes: &[u8]) -> Result<Event, EventError> {
        let value: Value = serde_json::from_slice(bytes).map_err(|error| {
            EventError::Input(InputError::NotJson {
                line: error.line(),
                column: error.column(),
                message: without_position(&error),
            })
        })?;
        Event::from_value(dialect, value)
    }

    /// Builds the event of a protocol input.
    ///
    /// # Errors
    ///
    /// [`EventError`] when a common tool's input has a field of the wrong type.
    pub fn from_input(input: EventInput) -> Result<Event, EventError> {
        let kind = EventKind::from_input(&input)?;
        let raw = input.to_value();
        Ok(Event { kind, input, raw })
    }

    /// What happened, with its typed fields.
    pub fn kind(&self) -> &EventKind {
        &self.kind
    }

    /// The dialect of the agent that sent the event.
    pub fn dialect(&self) -> Dialect {
        self.input.dialect()
    }

    /// The event's name (`PreToolUse`, `Stop`...), including names this SDK does not type.
    pub fn name(&self) -> hook_protocol::Event {
        self.input.event()
    }

    /// The session's working directory: read it, never assume the hook's own.
    pub fn cwd(&self) -> &str {
        self.input.cwd()
    }

    /// The session id (wuu may send an empty one).
    pub fn session_id(&self) -> &str {
        self.input.session_id()
    }

    /// The protocol's typed input, per dialect, for fields [`EventKind`] does not carry.
    pub fn input(&self) -> &EventInput {
        &self.input
    }

    /// The input JSON exactly as the agent sent it.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// The tool call of a tool event (`PreToolUse`, `PermissionRequest`, `PostToolUse`,
    /// `PostToolUseFailure`), if this is one.
    pub fn tool_call(&self) -> Option<&ToolCall> {
        match &self.kind {
            EventKind::PreToolUse(call) | EventKind::PermissionRequest(call) => Some(call),
            EventKind::PostToolUse(result) => Some(&result.call),
            EventKind::PostToolUseFailure(failure) => Some(&failure.call),
            _ => None,
        }
    }

    /// Whether the dialect takes additional context for the model on this event (wuu: only
    /// `PostToolUse`; lime: `SessionStart`, `SubagentStart`, `UserPromptSubmit`, `PreToolUse`,
    /// `PostToolUse`; verboo: every event but `PermissionRequest` and the elicitation events).
    pub fn accepts_context(&self) -> bool {
        self.dialect()
            .rules()
            .output()
            .accepts_context(&self.name())
    }

    /// Whether a block (deny) has an effect on this event in its dialect.
    pub fn can_block(&self) -> bool {
        self.name().block_effect(self.dialect()).can_block()
    }
}

/// serde_json's message without its trailing " at line L column C" (reported apart).
pub(crate) fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// Why an event could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventError {
    /// The input is not JSON, not an object, has no event name, or a field of the event is
    /// missing or wrong (the message names it).
    Input(InputError),
    /// A common tool's input lacks a field its type needs, or has one of the wrong type.
    ToolInput {
        /// The tool's name, as sent.
        tool: String,
        /// What is wrong, naming the field (e.g. "missing field `command`").
        message: String,
    },
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::Input(error) => error.fmt(f),
            EventError::ToolInput { tool, message } => {
                write!(f, "`tool_input` of the {tool} call: {message}")
            }
        }
    }
}

impl std::error::Error for EventError {}

impl From<InputError> for EventError {
    fn from(error: InputError) -> Self {
        EventError::Input(error)
    }
}

/// What happened. The common events are typed; every other event is [`EventKind::Other`],
/// whose fields are in [`Event::input`] and [`Event::raw`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EventKind {
    /// Before a tool call runs: allow, deny, ask, or rewrite its input.
    PreToolUse(ToolCall),
    /// A tool call asks for permission: allow or deny.
    PermissionRequest(ToolCall),
    /// After a tool call succeeded: add context (verboo and lime: a block is feedback).
    PostToolUse(ToolResult),
    /// After a tool call failed (wuu, verboo).
    PostToolUseFailure(ToolFailure),
    /// The user submitted a prompt: block it or add context (wuu: block only).
    UserPromptSubmit(Prompt),
    /// The session starts.
    SessionStart(SessionStart),
    /// The session ends.
    SessionEnd(SessionEnd),
    /// The agent is about to end its turn: a block asks it to keep going.
    Stop(Stop),
    /// A subagent starts.
    SubagentStart(Subagent),
    /// A subagent is about to stop: a block asks it to keep going.
    SubagentStop(Stop),
    /// Before the conversation is compacted.
    PreCompact(Compact),
    /// After the conversation was compacted.
    PostCompact(Compact),
    /// A file changed (wuu: written by its own tools; verboo: a watched file).
    FileChanged(FileChanged),
    /// Any other event: read [`Event::input`] or [`Event::raw`].
    Other,
}

/// A tool call: its name, its typed input, and the input as sent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The tool's name as the agent sent it (`Bash`, `bash`, `mcp__server__tool`...).
    pub name: String,
    /// The input, typed for the common tools.
    pub tool: Tool,
    /// The input exactly as sent.
    pub input: Value,
    /// The id of this call, when the dialect sends one.
    pub tool_use_id: Option<String>,
}

impl ToolCall {
    /// Reads a tool call; the input is typed by the tool's name as [`Tool::parse`] does
    /// (`Bash`/`bash`/`shell`, `Write`, `Edit`, `MultiEdit`, `apply_patch`, `mcp__s__t`...).
    ///
    /// # Errors
    ///
    /// As [`Tool::parse`].
    pub fn new(
        name: impl Into<String>,
        input: Value,
        tool_use_id: Option<String>,
    ) -> Result<ToolCall, EventError> {
        let name = name.into();
        let tool = Tool::parse(&name, &input)?;
        Ok(ToolCall {
            name,
            tool,
            input,
            tool_use_id,
        })
    }

    /// The input as sent with the typed fields of `tool` written over it: what to give
    /// [`Response::rewrite`](crate::Response::rewrite) so that fields this SDK does not type
    /// (a `description`, a `timeout`...) survive the rewrite.
    pub fn rewritten(&self, tool: Tool) -> Map<String, Value> {
        let mut object = self.input.as_object().cloned().unwrap_or_default();
        object.extend(Map::from(tool));
        object
    }
}

/// A finished tool call and its result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolResult {
    /// The call.
    pub call: ToolCall,
    /// What the tool returned (wuu: text, as a JSON string).
    pub response: Value,
}

/// A failed tool call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolFailure {
    /// The call.
    pub call: ToolCall,
    /// The error.
    pub error: String,
}

/// A submitted prompt.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Prompt {
    /// The prompt text.
    pub prompt: String,
}

/// A session start.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct SessionStart {
    /// `startup`, `resume`, `clear`, `compact`... (wuu sends none).
    pub source: Option<String>,
    /// The session's model, when the dialect says.
    pub model: Option<String>,
}

/// A session end.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct SessionEnd {
    /// Why the session ended, when the dialect says.
    pub reason: Option<String>,
}

/// The end of a turn of the agent or of a subagent.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Stop {
    /// A stop hook already asked to keep going in this turn: avoid blocking forever.
    pub stop_hook_active: bool,
    /// The last message, when the dialect sends it.
    pub last_assistant_message: Option<String>,
    /// The subagent's id, for `SubagentStop`.
    pub agent_id: Option<String>,
}

/// A subagent start.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Subagent {
    /// The subagent's id.
    pub agent_id: Option<String>,
    /// The subagent's type.
    pub agent_type: Option<String>,
}

/// A compaction.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Compact {
    /// `manual` or `auto` (wuu: the compaction reason).
    pub trigger: Option<String>,
}

/// A changed file.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FileChanged {
    /// The file.
    pub file_path: String,
}
