//! Event names, which dialect knows which, which can block, and what a matcher is tested against.
//!
//! The tables here are each dialect's events, verboo's full set included.

use std::borrow::Cow;
use std::fmt;

#[cfg(feature = "schema")]
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::Dialect;

macro_rules! events {
    ($( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        /// A lifecycle event name.
        ///
        /// The union of the events of all three dialects. A name none of them knows (a newer
        /// agent's) is kept as [`Event::Other`], never rejected: it loads with a warning, and a
        /// block on it is read in any known shape and answered as exit 2, which the agent
        /// applies where it can ([`BlockEffect::Unknown`]).
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Event {
            $( $(#[$doc])* $name, )*
            /// An event name this engine does not know.
            Other(String),
        }

        impl Event {
            /// Every event some dialect knows, in declaration order.
            pub const KNOWN: &'static [Event] = &[$(Event::$name),*];

            /// The event's wire name, e.g. `"PreToolUse"`.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Event::$name => stringify!($name),)*
                    Event::Other(name) => name,
                }
            }

            /// The event with this wire name; names are case-sensitive, as on the wire.
            pub fn from_name(name: &str) -> Event {
                match name {
                    $(stringify!($name) => Event::$name,)*
                    other => Event::Other(other.to_owned()),
                }
            }
        }
    };
}

events! {
    /// Session opened, resumed, cleared, compacted or forked.
    SessionStart,
    /// verboo: repository set-up or maintenance (`init`, `maintenance`).
    Setup,
    /// verboo: an instructions (memory) file was loaded.
    InstructionsLoaded,
    /// The user submitted a prompt, before the turn starts.
    UserPromptSubmit,
    /// verboo: a slash command or similar is being expanded into a prompt.
    UserPromptExpansion,
    /// verboo: an assistant message is being displayed.
    MessageDisplay,
    /// Before a tool call runs.
    PreToolUse,
    /// verboo: before a skill's (or command's) inline shell command runs.
    PreSkillShellCommand,
    /// A tool call asks for permission.
    PermissionRequest,
    /// verboo: a permission request was denied.
    PermissionDenied,
    /// After a tool call succeeded.
    PostToolUse,
    /// After a tool call failed.
    PostToolUseFailure,
    /// verboo: after a batch of parallel tool calls.
    PostToolBatch,
    /// verboo: the agent notifies the user.
    Notification,
    /// A subagent starts.
    SubagentStart,
    /// A subagent is about to stop.
    SubagentStop,
    /// verboo: a task was created.
    TaskCreated,
    /// verboo: a task was completed.
    TaskCompleted,
    /// The main agent is about to end its turn.
    Stop,
    /// verboo: the turn ended on an error.
    StopFailure,
    /// verboo: a teammate went idle.
    TeammateIdle,
    /// verboo: a settings file changed.
    ConfigChange,
    /// verboo: the working directory changed.
    CwdChanged,
    /// verboo: a directory was added to the workspace.
    DirectoryAdded,
    /// A file changed (wuu: written by its own file tools; verboo: watched files).
    FileChanged,
    /// verboo: a worktree is being created.
    WorktreeCreate,
    /// verboo: a worktree was removed.
    WorktreeRemove,
    /// Before the conversation is compacted.
    PreCompact,
    /// After the conversation was compacted.
    PostCompact,
    /// verboo: before the session's model is switched (`/model`, the picker, the SDK).
    PreModelSwitch,
    /// verboo: after the session's model was switched.
    PostModelSwitch,
    /// verboo: an MCP server asks the user for input.
    Elicitation,
    /// verboo: the user answered an MCP elicitation.
    ElicitationResult,
    /// The session ends.
    SessionEnd,
    /// lime: the user cancelled the active turn.
    Interrupt,
}

use Event as E;

/// What exit code 2 (or a block decision) does on an event, in one dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BlockEffect {
    /// The event cannot block: a block is reported as an error of the hook, never obeyed.
    Cannot,
    /// A block stops the action (the tool call is cancelled, the prompt dropped, the agent keeps
    /// working instead of stopping, a permission is denied...).
    Blocks,
    /// The action already happened: a block sends its reason to the model as feedback
    /// (verboo and lime `PostToolUse`, verboo `PostToolUseFailure`).
    Feedback,
    /// Any non-zero exit fails the action, not just exit 2 (verboo `WorktreeCreate`).
    AnyNonZeroExit,
    /// The dialect does not know the event (a newer agent's): what a block does there cannot
    /// be known, so a block is kept rather than dropped. Exit 2, a top-level
    /// `decision: "block"`, a `permissionDecision: "deny"` or a `decision.behavior: "deny"` is
    /// read as a block, and the answer to the agent is exit 2 with the reason on stderr, which
    /// every event of Claude Code and Codex reads as "block where you can". A guard in front
    /// of the next agent release therefore never fails open on an event it has not heard of.
    Unknown,
}

impl BlockEffect {
    /// Whether a block decision has an effect at all on this event.
    pub fn can_block(self) -> bool {
        !matches!(self, BlockEffect::Cannot)
    }
}

impl Event {
    /// Whether `dialect` knows this event.
    pub fn is_known_in(&self, dialect: Dialect) -> bool {
        dialect.rules().knows(self)
    }

    /// The dialects that know this event.
    pub fn dialects(&self) -> Vec<Dialect> {
        Dialect::ALL
            .into_iter()
            .filter(|d| self.is_known_in(*d))
            .collect()
    }

    /// What a block does on this event in `dialect`; [`BlockEffect::Unknown`] on an event the
    /// dialect does not know.
    pub fn block_effect(&self, dialect: Dialect) -> BlockEffect {
        dialect.rules().output().block_effect(self)
    }

    /// What a matcher is tested against on this event in `dialect`.
    pub fn match_target(&self, dialect: Dialect) -> MatchTarget {
        use MatchTarget as T;
        if !self.is_known_in(dialect) {
            return T::Nothing;
        }
        let tool_event = matches!(
            self,
            E::PreToolUse
                | E::PreSkillShellCommand
                | E::PermissionRequest
                | E::PermissionDenied
                | E::PostToolUse
                | E::PostToolUseFailure
        );
        if tool_event {
            return T::ToolName;
        }
        (dialect.rules().match_target)(self)
    }
}

/// The value of an event's input that a handler's `matcher` is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MatchTarget {
    /// `tool_name`.
    ToolName,
    /// `source` (session start source, config change source, directory source).
    Source,
    /// `trigger` (setup trigger, compaction trigger).
    Trigger,
    /// `load_reason` of an instructions file.
    LoadReason,
    /// `command_name` of a prompt expansion.
    CommandName,
    /// `notification_type`.
    NotificationType,
    /// `agent_type` of a subagent.
    AgentType,
    /// `error`, the kind of error that ended the turn.
    ErrorKind,
    /// The file name (last path component) of `file_path`.
    FileName,
    /// `mcp_server_name`.
    McpServerName,
    /// `reason` the session ended.
    EndReason,
    /// `to_model`, the model switched to, as [`canonical_model`] makes it (verboo model-switch
    /// events: Claude Code matches the canonical model id; the matcher loses its `[1m]`/`[2m]`
    /// too).
    ToModel,
    /// The event has no match value. wuu: a non-empty matcher never matches; verboo and lime:
    /// the matcher is ignored and every handler of the event runs.
    Nothing,
}

impl MatchTarget {
    /// The input field this target reads, if any.
    pub fn field(self) -> Option<&'static str> {
        Some(match self {
            MatchTarget::ToolName => "tool_name",
            MatchTarget::Source => "source",
            MatchTarget::Trigger => "trigger",
            MatchTarget::LoadReason => "load_reason",
            MatchTarget::CommandName => "command_name",
            MatchTarget::NotificationType => "notification_type",
            MatchTarget::AgentType => "agent_type",
            MatchTarget::ErrorKind => "error",
            MatchTarget::FileName => "file_path",
            MatchTarget::McpServerName => "mcp_server_name",
            MatchTarget::EndReason => "reason",
            MatchTarget::ToModel => "to_model",
            MatchTarget::Nothing => return None,
        })
    }

    /// The match value in an event's input JSON, if the input has it as a string.
    pub fn value_in(self, input: &Value) -> Option<Cow<'_, str>> {
        let raw = input.get(self.field()?)?.as_str()?;
        Some(match self {
            MatchTarget::FileName => {
                let name = raw.rsplit(['/', '\\']).next().unwrap_or(raw);
                Cow::Borrowed(name)
            }
            MatchTarget::ToModel => Cow::Owned(canonical_model(raw)),
            _ => Cow::Borrowed(raw),
        })
    }
}

/// `model` as Claude Code 2.1.332 compares it with a model-switch matcher: lowercase, without
/// a context-window suffix (`[1m]`, `[2m]`) and without a date (`-20250929`).
pub fn canonical_model(model: &str) -> String {
    let model = strip_context_suffix(model).to_lowercase();
    let dated = model.len() > 9
        && model.as_bytes()[model.len() - 9] == b'-'
        && model[model.len() - 8..].bytes().all(|b| b.is_ascii_digit());
    if dated {
        model[..model.len() - 9].to_owned()
    } else {
        model
    }
}

/// `model` without a trailing context-window suffix such as `[1m]` or `[2m]` (digits and a
/// unit letter in brackets).
fn strip_context_suffix(model: &str) -> &str {
    let Some(open) = model.rfind('[') else {
        return model;
    };
    let inner = &model[open + 1..];
    let Some(body) = inner.strip_suffix(']') else {
        return model;
    };
    let unit_ok = body.len() >= 2
        && body[..body.len() - 1].bytes().all(|b| b.is_ascii_digit())
        && body.as_bytes()[body.len() - 1].is_ascii_alphabetic();
    if unit_ok { &model[..open] } else { model }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(deserializer)?;
        Ok(Event::from_name(&name))
    }
}

#[cfg(feature = "schema")]
impl JsonSchema for Event {
    fn schema_name() -> Cow<'static, str> {
        "Event".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "A lifecycle event name, e.g. \"PreToolUse\"; names a newer agent adds are kept as they are."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_counts_per_dialect() {
        assert_eq!(Dialect::Wuu.events().len(), 13);
        assert_eq!(Dialect::Lime.events().len(), 12);
        assert_eq!(Dialect::Verboo.events().len(), 34);
        assert_eq!(Event::KNOWN.len(), 35);
    }

    #[test]
    fn every_dialect_event_is_known_and_round_trips() {
        for dialect in Dialect::ALL {
            for event in dialect.events() {
                assert!(Event::KNOWN.contains(event));
                assert_eq!(&Event::from_name(event.as_str()), event);
            }
        }
        for event in Event::KNOWN {
            assert!(!event.dialects().is_empty(), "{event} is in no dialect");
        }
    }

    #[test]
    fn unknown_names_are_kept() {
        let event = Event::from_name("PreModelRequest");
        assert_eq!(event, Event::Other("PreModelRequest".into()));
        assert_eq!(event.as_str(), "PreModelRequest");
        assert_eq!(event.block_effect(Dialect::Verboo), BlockEffect::Unknown);
        assert!(event.block_effect(Dialect::Verboo).can_block());
        assert!(!Event::from_name("pretooluse").is_known_in(Dialect::Wuu));
    }

    #[test]
    fn file_name_target_takes_the_last_component() {
        let input = serde_json::json!({"file_path": "/a/b/.env"});
        assert_eq!(
            MatchTarget::FileName.value_in(&input).as_deref(),
            Some(".env")
        );
    }
}
