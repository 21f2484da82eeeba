//! wuu event inputs: the fields of the wuu seed ("命令输入与输出").
//!
//! Common to every event: `hook_event_name`, `session_id` (may be empty), `cwd`. Tool events add
//! `tool_name` and `tool_input`; the others add `tool_response`, `error`, `prompt`, `file_path`,
//! `compact_reason` or `agent_id`. Rich tool results reach hooks as text.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event_inputs;

/// The fields every wuu event carries.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Common {
    /// The session id; not every path provides a non-empty one.
    #[serde(default)]
    pub session_id: String,
    /// The working directory of the session: hooks must read it, not assume their own.
    pub cwd: String,
}

event_inputs! {
    common = Common;

    /// Before a tool call runs; can block it or replace its parameters.
    PreToolUse => PreToolUseInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
    }
    /// A tool call asks for authorization; can block, never grant more.
    PermissionRequest => PermissionRequestInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
    }
    /// After a tool call succeeded; can add context for the model.
    PostToolUse => PostToolUseInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The tool's result, as text.
        tool_response: String,
    }
    /// After a tool call failed (an execution error, or a rich result flagged `is_error`).
    PostToolUseFailure => PostToolUseFailureInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The failure's details.
        error: String,
        /// The result text, when the failure is a result flagged `is_error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_response: Option<String>,
    }
    /// Before the prompt starts a turn; can block.
    UserPromptSubmit => UserPromptSubmitInput {
        /// The prompt text.
        prompt: String,
    }
    /// Before compaction; can block it.
    PreCompact => PreCompactInput {
        /// Why the conversation is being compacted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compact_reason: Option<String>,
    }
    /// After compaction returned; can reject the result.
    PostCompact => PostCompactInput {
        /// Why the conversation was compacted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compact_reason: Option<String>,
    }
    /// Before a subagent turn; an error fails it.
    SubagentStart => SubagentStartInput {
        /// The subagent's id.
        agent_id: String,
    }
    /// After a subagent turn; an error fails it.
    SubagentStop => SubagentStopInput {
        /// The subagent's id.
        agent_id: String,
    }
    /// The session is bound; an error is returned to that operation.
    SessionStart => SessionStartInput {}
    /// The session is cleaned up; an error is returned to that operation.
    SessionEnd => SessionEndInput {}
    /// End of a turn; can mark the turn failed.
    Stop => StopInput {}
    /// After wuu's own file tools wrote or edited a file; output changes nothing.
    FileChanged => FileChangedInput {
        /// The file written.
        file_path: String,
        /// The file tool that wrote it, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_name: Option<String>,
    }
}
