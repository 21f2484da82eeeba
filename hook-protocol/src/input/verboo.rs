//! verboo event inputs: verboo's 34 events (its full event set), following
//! Claude Code 2.1.332's hook input schemas.
//!
//! Common to every event: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, and where
//! they apply `permission_mode`, `agent_id` and `agent_type`.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event_inputs;

/// The fields every verboo event carries.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Common {
    /// The session id.
    #[serde(default)]
    pub session_id: String,
    /// The session transcript (JSONL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
    /// The working directory of the session.
    pub cwd: String,
    /// The permission mode, where it applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
    /// The subagent's id, for events of a subagent (always set on `SubagentStart`/`SubagentStop`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The subagent's type (always set on `SubagentStart`/`SubagentStop`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

/// What happened to a watched file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum FileChange {
    /// The file's content changed.
    Change,
    /// The file was created.
    Add,
    /// The file was deleted.
    Unlink,
}

/// The fields of both model-switch events (Claude Code 2.1.332).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct ModelSwitch {
    /// The resolved model id the session ran before the switch.
    pub from_model: String,
    /// The resolved model id it runs after (the match value, without a `[1m]`-style
    /// context suffix).
    pub to_model: String,
    /// What was asked for (an alias such as `opus`, a full id, or `null` for the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_model: Option<String>,
    /// `command`, `picker` or `sdk` (`PostModelSwitch`: also `auto` and `resume`).
    pub source: String,
    /// Prompt tokens the next request sends again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<f64>,
    /// Whether the current model's prompt cache is likely still warm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_cache_warm: Option<bool>,
    /// `5m` or `1h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_ttl: Option<String>,
    /// The estimated cost, in US dollars, of caching the context again on `to_model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_cache_write_usd: Option<f64>,
    /// `configured`, `catalog` or `default`: where that price came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing: Option<String>,
}

event_inputs! {
    common = Common;

    /// A session opened, resumed, cleared, compacted or forked.
    SessionStart => SessionStartInput {
        /// `startup`, `resume`, `clear`, `compact` or `fork`.
        source: String,
        /// The session's model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// `resume`/`fork`: seconds since the resumed transcript's last assistant response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seconds_since_last_response: Option<f64>,
        /// `resume`/`fork`: the tokens the first request sends again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_tokens: Option<f64>,
        /// `resume`/`fork`: the prompt cache has likely expired.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt_cache_likely_expired: Option<bool>,
        /// `resume`/`fork`: the estimated cost, in US dollars, of caching the context again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimated_cache_write_usd: Option<f64>,
    }
    /// Repository set-up or maintenance.
    Setup => SetupInput {
        /// `init` or `maintenance`.
        trigger: String,
    }
    /// An instructions (memory) file was loaded.
    InstructionsLoaded => InstructionsLoadedInput {
        /// The file loaded.
        file_path: String,
        /// Which kind of memory it is.
        memory_type: String,
        /// Why it was loaded.
        load_reason: String,
    }
    /// The user submitted a prompt; a block drops it.
    UserPromptSubmit => UserPromptSubmitInput {
        /// The prompt text.
        prompt: String,
        /// Who sent it: `user`, `sdk`, `system`, `loop_wakeup`, `schedule_wakeup` or
        /// `poll_event` (Claude Code 2.1.332; absent from earlier versions).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    }
    /// A command is being expanded into a prompt; a block stops it.
    UserPromptExpansion => UserPromptExpansionInput {
        /// What is being expanded.
        expansion_type: String,
        /// The command's name.
        command_name: String,
        /// The command's arguments.
        #[serde(default)]
        command_args: String,
        /// Where the command comes from (a plugin, the project...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command_source: Option<String>,
        /// The prompt the expansion produces.
        prompt: String,
    }
    /// An assistant message is displayed.
    MessageDisplay => MessageDisplayInput {
        /// The turn.
        turn_id: String,
        /// The message.
        message_id: String,
        /// The text added since the last event.
        delta: String,
        /// Whether this is the message's last part.
        r#final: bool,
    }
    /// Before a tool call; a block cancels it.
    PreToolUse => PreToolUseInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The id of this tool call.
        tool_use_id: String,
        /// The MCP server of an MCP tool: `{name, source}` (Claude Code 2.1.332).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<Value>,
    }
    /// Before a skill's (or command's) inline shell command runs; a block keeps it from
    /// running (`deny`, and `ask`, `defer` or any `updatedInput`, which a skill cannot wait
    /// for or apply).
    PreSkillShellCommand => PreSkillShellCommandInput {
        /// The shell tool that runs it: `Bash` or `PowerShell` (the match value).
        tool_name: String,
        /// `{"command": ...}`: the command as it would run, arguments filled in.
        tool_input: Value,
        /// Identifies this command (it names no tool call in the transcript).
        tool_use_id: String,
        /// The skill or command whose text holds the shell command.
        command_name: String,
        /// Where that skill or command comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command_source: Option<String>,
        /// Who started the load: `user`, `claude` or `other`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invoked_by: Option<String>,
    }
    /// A tool call asks for permission; decided through the output.
    PermissionRequest => PermissionRequestInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The permission rules the agent would offer the user.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        permission_suggestions: Option<Vec<Value>>,
        /// The MCP server of an MCP tool: `{name, source}` (Claude Code 2.1.332).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<Value>,
    }
    /// A permission request was denied.
    PermissionDenied => PermissionDeniedInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The id of this tool call.
        tool_use_id: String,
        /// Why it was denied.
        reason: String,
        /// The MCP server of an MCP tool: `{name, source}` (Claude Code 2.1.332).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<Value>,
    }
    /// After a tool call succeeded; a block sends the reason to the model.
    PostToolUse => PostToolUseInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The tool's result.
        tool_response: Value,
        /// The id of this tool call.
        tool_use_id: String,
        /// The MCP server of an MCP tool: `{name, source}` (Claude Code 2.1.332).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<Value>,
    }
    /// After a tool call failed; a block sends the reason to the model.
    PostToolUseFailure => PostToolUseFailureInput {
        /// The tool's name.
        tool_name: String,
        /// The tool's parameters.
        tool_input: Value,
        /// The id of this tool call.
        tool_use_id: String,
        /// The error.
        error: String,
        /// Whether the user interrupted the call.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_interrupt: Option<bool>,
        /// The MCP server of an MCP tool: `{name, source}` (Claude Code 2.1.332).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mcp_server: Option<Value>,
    }
    /// After a batch of tool calls; a block stops the loop.
    PostToolBatch => PostToolBatchInput {
        /// The calls of the batch.
        tool_calls: Vec<Value>,
    }
    /// The agent notifies the user.
    Notification => NotificationInput {
        /// The notification text.
        message: String,
        /// Its title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// Its kind (the match value).
        notification_type: String,
    }
    /// A subagent starts.
    SubagentStart => SubagentStartInput {}
    /// A subagent is about to stop; a block keeps it going.
    SubagentStop => SubagentStopInput {
        /// A Stop hook already asked it to keep going.
        stop_hook_active: bool,
        /// The subagent's last message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
    }
    /// A task was created; a block rejects it.
    TaskCreated => TaskCreatedInput {
        /// The task's id.
        task_id: String,
        /// The task's subject.
        task_subject: String,
        /// The task's description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
    }
    /// A task was completed; a block reopens it.
    TaskCompleted => TaskCompletedInput {
        /// The task's id.
        task_id: String,
        /// The task's subject.
        task_subject: String,
        /// The task's description.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_description: Option<String>,
    }
    /// The agent is about to end its turn; a block keeps it going.
    Stop => StopInput {
        /// A Stop hook already asked the agent to keep going.
        stop_hook_active: bool,
        /// The agent's last message.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_assistant_message: Option<String>,
    }
    /// The turn ended on an error.
    StopFailure => StopFailureInput {
        /// The error kind (the match value).
        error: String,
        /// Details of the error.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_details: Option<Value>,
    }
    /// A teammate went idle; a block keeps it working.
    TeammateIdle => TeammateIdleInput {
        /// The teammate.
        teammate_name: String,
        /// Its team.
        team_name: String,
    }
    /// A settings file changed; a block rejects the change (not for policy settings).
    ConfigChange => ConfigChangeInput {
        /// Which settings changed (the match value).
        source: String,
        /// The file that changed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file_path: Option<String>,
    }
    /// The working directory changed.
    CwdChanged => CwdChangedInput {
        /// The previous directory.
        old_cwd: String,
        /// The new directory.
        new_cwd: String,
    }
    /// A directory was added to the workspace.
    DirectoryAdded => DirectoryAddedInput {
        /// The directory.
        directory: String,
        /// How it was added (the match value).
        source: String,
    }
    /// A watched file changed.
    FileChanged => FileChangedInput {
        /// The file.
        file_path: String,
        /// What happened to it.
        event: FileChange,
    }
    /// A worktree is being created; any non-zero exit fails the creation.
    WorktreeCreate => WorktreeCreateInput {
        /// The worktree's name.
        name: String,
    }
    /// A worktree was removed.
    WorktreeRemove => WorktreeRemoveInput {
        /// Where it was.
        worktree_path: String,
    }
    /// Before compaction; a block stops it.
    PreCompact => PreCompactInput {
        /// `manual` or `auto`.
        trigger: String,
        /// The user's instructions for a manual compaction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        custom_instructions: Option<String>,
    }
    /// After compaction.
    PostCompact => PostCompactInput {
        /// `manual` or `auto`.
        trigger: String,
        /// The summary produced.
        compact_summary: String,
    }
    /// Before the session's model is switched; a block keeps the model (`deny`), `ask` asks
    /// the user.
    PreModelSwitch => PreModelSwitchInput {
        /// The switch (its `source` is `command`, `picker` or `sdk`).
        #[serde(flatten)]
        switch: ModelSwitch,
    }
    /// After the session's model was switched; its `additionalContext` reaches the next
    /// request.
    PostModelSwitch => PostModelSwitchInput {
        /// The switch (its `source` also `auto` or `resume`).
        #[serde(flatten)]
        switch: ModelSwitch,
    }
    /// An MCP server asks the user for input; a block denies it.
    Elicitation => ElicitationInput {
        /// The server (the match value).
        mcp_server_name: String,
        /// What the server asks.
        message: String,
        /// The requested input's schema, when the server sent one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        requested_schema: Option<Value>,
    }
    /// The user answered an MCP elicitation; a block declines it.
    ElicitationResult => ElicitationResultInput {
        /// The server (the match value).
        mcp_server_name: String,
        /// `accept`, `decline` or `cancel`.
        action: String,
        /// The answer's content.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Value>,
    }
    /// The session ends.
    SessionEnd => SessionEndInput {
        /// `clear`, `resume`, `logout`, `prompt_input_exit` or `other`.
        reason: String,
    }
}
