//! An [`EventKind`] from each dialect's input.

use hook_protocol::input::EventInput;
use hook_protocol::input::{lime, verboo, wuu};
use serde_json::Value;

use super::{
    Compact, EventError, EventKind, FileChanged, Prompt, SessionEnd, SessionStart, Stop, Subagent,
    ToolCall, ToolFailure, ToolResult,
};

impl EventKind {
    /// The typed event of a protocol input.
    ///
    /// # Errors
    ///
    /// As [`Tool::parse`](super::Tool::parse), for the tool input of a tool event.
    pub fn from_input(input: &EventInput) -> Result<EventKind, EventError> {
        match input {
            EventInput::Wuu(input) => from_wuu(input),
            EventInput::Verboo(input) => from_verboo(input),
            EventInput::Lime(input) => from_lime(input),
        }
    }
}

fn call(name: &str, input: &Value, id: Option<&String>) -> Result<ToolCall, EventError> {
    ToolCall::new(name, input.clone(), id.cloned())
}

fn from_wuu(input: &wuu::Input) -> Result<EventKind, EventError> {
    use wuu::Input as I;
    Ok(match input {
        I::PreToolUse(i) => EventKind::PreToolUse(call(&i.tool_name, &i.tool_input, None)?),
        I::PermissionRequest(i) => {
            EventKind::PermissionRequest(call(&i.tool_name, &i.tool_input, None)?)
        }
        I::PostToolUse(i) => EventKind::PostToolUse(ToolResult {
            call: call(&i.tool_name, &i.tool_input, None)?,
            response: Value::String(i.tool_response.clone()),
        }),
        I::PostToolUseFailure(i) => EventKind::PostToolUseFailure(ToolFailure {
            call: call(&i.tool_name, &i.tool_input, None)?,
            error: i.error.clone(),
        }),
        I::UserPromptSubmit(i) => EventKind::UserPromptSubmit(Prompt {
            prompt: i.prompt.clone(),
        }),
        I::PreCompact(i) => EventKind::PreCompact(Compact {
            trigger: i.compact_reason.clone(),
        }),
        I::PostCompact(i) => EventKind::PostCompact(Compact {
            trigger: i.compact_reason.clone(),
        }),
        I::SubagentStart(i) => EventKind::SubagentStart(Subagent {
            agent_id: Some(i.agent_id.clone()),
            agent_type: None,
        }),
        I::SubagentStop(i) => EventKind::SubagentStop(Stop {
            agent_id: Some(i.agent_id.clone()),
            ..Stop::default()
        }),
        I::SessionStart(_) => EventKind::SessionStart(SessionStart::default()),
        I::SessionEnd(_) => EventKind::SessionEnd(SessionEnd::default()),
        I::Stop(_) => EventKind::Stop(Stop::default()),
        I::FileChanged(i) => EventKind::FileChanged(FileChanged {
            file_path: i.file_path.clone(),
        }),
        // `Other`, and an event this SDK does not type yet.
        _ => EventKind::Other,
    })
}

fn from_verboo(input: &verboo::Input) -> Result<EventKind, EventError> {
    use verboo::Input as I;
    let common = input.common();
    Ok(match input {
        I::PreToolUse(i) => {
            EventKind::PreToolUse(call(&i.tool_name, &i.tool_input, Some(&i.tool_use_id))?)
        }
        I::PermissionRequest(i) => {
            EventKind::PermissionRequest(call(&i.tool_name, &i.tool_input, None)?)
        }
        I::PostToolUse(i) => EventKind::PostToolUse(ToolResult {
            call: call(&i.tool_name, &i.tool_input, Some(&i.tool_use_id))?,
            response: i.tool_response.clone(),
        }),
        I::PostToolUseFailure(i) => EventKind::PostToolUseFailure(ToolFailure {
            call: call(&i.tool_name, &i.tool_input, Some(&i.tool_use_id))?,
            error: i.error.clone(),
        }),
        I::UserPromptSubmit(i) => EventKind::UserPromptSubmit(Prompt {
            prompt: i.prompt.clone(),
        }),
        I::SessionStart(i) => EventKind::SessionStart(SessionStart {
            source: Some(i.source.clone()),
            model: i.model.clone(),
        }),
        I::SessionEnd(i) => EventKind::SessionEnd(SessionEnd {
            reason: Some(i.reason.clone()),
        }),
        I::Stop(i) => EventKind::Stop(Stop {
            stop_hook_active: i.stop_hook_active,
            last_assistant_message: i.last_assistant_message.clone(),
            agent_id: None,
        }),
        I::SubagentStart(_) => EventKind::SubagentStart(Subagent {
            agent_id: common.agent_id.clone(),
            agent_type: common.agent_type.clone(),
        }),
        I::SubagentStop(i) => EventKind::SubagentStop(Stop {
            stop_hook_active: i.stop_hook_active,
            last_assistant_message: i.last_assistant_message.clone(),
            agent_id: common.agent_id.clone(),
        }),
        I::PreCompact(i) => EventKind::PreCompact(Compact {
            trigger: Some(i.trigger.clone()),
        }),
        I::PostCompact(i) => EventKind::PostCompact(Compact {
            trigger: Some(i.trigger.clone()),
        }),
        I::FileChanged(i) => EventKind::FileChanged(FileChanged {
            file_path: i.file_path.clone(),
        }),
        _ => EventKind::Other,
    })
}

fn from_lime(input: &lime::Input) -> Result<EventKind, EventError> {
    use lime::Input as I;
    let common = input.common();
    Ok(match input {
        I::PreToolUse(i) => {
            EventKind::PreToolUse(call(&i.tool_name, &i.tool_input, Some(&i.tool_use_id))?)
        }
        I::PermissionRequest(i) => {
            EventKind::PermissionRequest(call(&i.tool_name, &i.tool_input, None)?)
        }
        I::PostToolUse(i) => EventKind::PostToolUse(ToolResult {
            call: call(&i.tool_name, &i.tool_input, Some(&i.tool_use_id))?,
            response: i.tool_response.clone(),
        }),
        I::UserPromptSubmit(i) => EventKind::UserPromptSubmit(Prompt {
            prompt: i.prompt.clone(),
        }),
        I::SessionStart(i) => EventKind::SessionStart(SessionStart {
            source: Some(i.source.clone()),
            model: common.model.clone(),
        }),
        I::SessionEnd(i) => EventKind::SessionEnd(SessionEnd {
            reason: i.reason.clone(),
        }),
        I::Stop(i) => EventKind::Stop(Stop {
            stop_hook_active: i.stop_hook_active,
            last_assistant_message: i.last_assistant_message.clone(),
            agent_id: None,
        }),
        I::SubagentStart(_) => EventKind::SubagentStart(Subagent {
            agent_id: common.agent_id.clone(),
            agent_type: common.agent_type.clone(),
        }),
        I::SubagentStop(i) => EventKind::SubagentStop(Stop {
            stop_hook_active: i.stop_hook_active,
            last_assistant_message: i.last_assistant_message.clone(),
            agent_id: common.agent_id.clone(),
        }),
        I::PreCompact(i) => EventKind::PreCompact(Compact {
            trigger: Some(i.trigger.clone()),
        }),
        I::PostCompact(i) => EventKind::PostCompact(Compact {
            trigger: Some(i.trigger.clone()),
        }),
        // `Interrupt`, `Other`, and an event this SDK does not type yet.
        _ => EventKind::Other,
    })
}
