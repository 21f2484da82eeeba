//! lime event inputs, following the published command-hook input schemas of the system lime is
//! modelled on (Codex CLI's `codex-rs/hooks/schema/generated`), plus lime's own `SessionEnd` and
//! `Interrupt`.
//!
//! Common to every event: `session_id`, `transcript_path` (a string or null), `cwd`,
//! `hook_event_name`, `model`, and where they apply `permission_mode`, `agent_id`, `agent_type`.
//! Turn-scoped events carry `turn_id`.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event_inputs;

/// The fields every lime event carries.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Common {
    /// The session id.
    pub session_id: String,
    /// The session transcript, if there is one.
    pub transcript_path: Option<String>,
    /// The working directory of the session.
    pub cwd: String,
    /// The model of the session. Required on every event of the published schemas; Codex sends
    /// `SessionEnd` without it (measured), and lime's `Interrupt` may lack it too
    /// ([`model_required`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The permission mode: `default`, `acceptEdits`, `plan`, `dontAsk` or `bypassPermissions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// The subagent's id, for events inside a subagent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The subagent's type, for events inside a subagent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

/// Whether a lime input of `event` must carry `model`: every event but `SessionEnd` and
/// `Interrupt` (the two the published schemas lack).
pub fn model_required(event: &crate::Event) -> bool {
    !matches!(event, crate::Event::SessionEnd | crate::Event::Interrupt)
}

event_inputs! {
    common = Common;

    /// The session starts.
    SessionStart => SessionStartInput {
        /// `startup`, `resume`, `clear` or `compact`.
        source: String,
    }
    /// The session ends; short clean-up only (1 s default, 3 s at most).
    SessionEnd => SessionEndInput {
        /// Why the session ended, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    }
    /// The user submitted a prompt.
    UserPromptSubmit => UserPromptSubmitInput {
        /// The active turn.
        turn_id: String,
        /// The prompt text.
        prompt: String,
    }
    /// Before a tool call; can block it or adjust its allowed input.
    PreToolUse => PreToolUseInput {
        /// The active turn.
        turn_id: String,
        /// The tool's id as the agent knows it (`Bash`, an MCP tool's real id...).
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The id of this tool call.
        tool_use_id: String,
    }
    /// A tool call asks for permission: allow or deny.
    PermissionRequest => PermissionRequestInput {
        /// The active turn.
        turn_id: String,
        /// The tool's id.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
    }
    /// After a tool call; observes the result, cannot undo it.
    PostToolUse => PostToolUseInput {
        /// The active turn.
        turn_id: String,
        /// The tool's id.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The tool's result.
        tool_response: Value,
        /// The id of this tool call.
        tool_use_id: String,
    }
    /// Before compaction.
    PreCompact => PreCompactInput {
        /// The active turn.
        turn_id: String,
        /// `manual` or `auto`.
        trigger: String,
    }
    /// After compaction.
    PostCompact => PostCompactInput {
        /// The active turn.
        turn_id: String,
        /// `manual` or `auto`.
        trigger: String,
    }
    /// A subagent starts (`agent_id` and `agent_type` are set).
    SubagentStart => SubagentStartInput {
        /// The active turn.
        turn_id: String,
    }
    /// A subagent is about to stop (`agent_id` and `agent_type` are set).
    SubagentStop => SubagentStopInput {
        /// The active turn.
        turn_id: String,
        /// A Stop hook already asked the subagent to keep going in this turn.
        stop_hook_active: bool,
        /// The subagent's last message.
        last_assistant_message: Option<String>,
        /// The subagent's own transcript.
        agent_transcript_path: Option<String>,
    }
    /// The main agent is about to end its turn.
    Stop => StopInput {
        /// The active turn.
        turn_id: String,
        /// A Stop hook already asked the agent to keep going in this turn.
        stop_hook_active: bool,
        /// The agent's last message.
        last_assistant_message: Option<String>,
    }
    /// The user cancelled the active turn; record and clean up only.
    Interrupt => InterruptInput {
        /// The cancelled turn.
        turn_id: String,
        /// What interrupted the turn, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    }
}
