//! verboo output: Claude Code's hook output object.
//!
//! Common fields (`continue`, `stopReason`, `suppressOutput`, `systemMessage`), a top-level
//! `decision` (`block`, or the deprecated `approve`) with `reason`, and a `hookSpecificOutput`
//! whose `hookEventName` must be the event. Fields verboo does not define are ignored (and
//! reported as warnings by the interpretation).

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    ApproveOrBlock, ElicitationAction, FieldError, OutputFields, PermissionDecision,
    PermissionRequestDecision, read_typed,
};
use crate::{Event, tag};

/// A verboo hook's output for one event; `S` is that event's `hookSpecificOutput`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase", bound(deserialize = "S: Deserialize<'de>"))]
#[non_exhaustive]
pub struct Output<S> {
    /// `false` stops the agent and overrides every decision.
    #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Shown to the user when `continue` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Hide the hook's stdout from the transcript.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// A message for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `block` where the event can block; `approve` (deprecated) allows a `PreToolUse`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<ApproveOrBlock>,
    /// Why, for a block (it goes to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A terminal escape sequence (a desktop notification or title) for the agent to emit;
    /// Claude Code 2.1.332 keeps only notification and title sequences. Carried, not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal_sequence: Option<String>,
    /// The event's own fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<S>,
}

/// `hookSpecificOutput` of `PreToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PreToolUseSpecific {
    /// Must be `PreToolUse`.
    pub hook_event_name: tag::PreToolUse,
    /// `allow`, `deny`, `ask` or `defer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// Why; for a deny it goes to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// Replaces the whole tool input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// The words of an `ask`'s permission card, for a desktop host that asked for them
    /// (Claude Code 2.1.332, internal): carried to the agent unread; a value the agent cannot
    /// read is dropped by it, not a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_display: Option<Value>,
}

/// `hookSpecificOutput` of `PreSkillShellCommand`: the decisions of `PreToolUse`, where
/// `deny`, `ask`, `defer` and any `updatedInput` all keep the skill's command from running.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PreSkillShellCommandSpecific {
    /// Must be `PreSkillShellCommand`.
    pub hook_event_name: tag::PreSkillShellCommand,
    /// `allow` adds nothing; `deny`, `ask` and `defer` keep the command from running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PermissionDecision>,
    /// Why; it goes to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// Never applied: any value keeps the command from running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
}

/// The decisions a `PreModelSwitch` hook can take (no `defer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ModelSwitchDecision {
    /// The switch goes ahead (without the agent's cache-miss confirmation).
    Allow,
    /// The switch is cancelled; the model stays.
    Deny,
    /// The user is asked to confirm (a headless session refuses instead).
    Ask,
}

/// `hookSpecificOutput` of `PreModelSwitch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PreModelSwitchSpecific {
    /// Must be `PreModelSwitch`.
    pub hook_event_name: tag::PreModelSwitch,
    /// `allow`, `deny` or `ask`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<ModelSwitchDecision>,
    /// Why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
}

/// The `hookSpecificOutput` of an event that has none (`DirectoryAdded`): Claude Code refuses
/// a whole output that carries one, its `systemMessage` included, so reading one fails.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum NoSpecific {}

impl<'de> Deserialize<'de> for NoSpecific {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(
            "this event takes no hookSpecificOutput: Claude Code refuses the whole output; use systemMessage alone",
        ))
    }
}

#[cfg(feature = "schema")]
impl JsonSchema for NoSpecific {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NoSpecific".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::from(false)
    }
}

/// `hookSpecificOutput` of `PermissionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionRequestSpecific {
    /// Must be `PermissionRequest`.
    pub hook_event_name: tag::PermissionRequest,
    /// The decision; absent leaves it to the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
}

/// `hookSpecificOutput` of `PostToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PostToolUseSpecific {
    /// Must be `PostToolUse`.
    pub hook_event_name: tag::PostToolUse,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// Replaces an MCP tool's output.
    #[serde(
        default,
        rename = "updatedMCPToolOutput",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_mcp_tool_output: Option<Value>,
    /// Context shown to the agent's automatic permission classifier beside the call's result
    /// (Claude Code 2.1.332): at most 2,000 UTF-16 code units across the call's hooks,
    /// synchronous hooks only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classifier_context: Option<String>,
    /// Replaces the tool's output as the model reads it (Claude Code 2.1.332). Carried, not
    /// applied by the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
}

/// `hookSpecificOutput` of `SessionStart`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SessionStartSpecific {
    /// Must be `SessionStart`.
    pub hook_event_name: tag::SessionStart,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// A first user message for the session. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_user_message: Option<String>,
    /// The session's title. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_title: Option<String>,
    /// Absolute paths to watch for `FileChanged` hooks. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
    /// Re-scan skills and commands after the session's start hooks. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reload_skills: Option<bool>,
}

/// `hookSpecificOutput` of `UserPromptSubmit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UserPromptSubmitSpecific {
    /// Must be `UserPromptSubmit`.
    pub hook_event_name: tag::UserPromptSubmit,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// The session's title. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_title: Option<String>,
    /// With a block, the original prompt is left out of the block message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_original_prompt: Option<bool>,
}

/// `hookSpecificOutput` of `CwdChanged` and `FileChanged`: more paths to watch (no context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WatchSpecific<T> {
    /// Must be the event.
    pub hook_event_name: T,
    /// Absolute paths to watch for `FileChanged` hooks. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
}

/// `hookSpecificOutput` of `MessageDisplay` (no context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MessageDisplaySpecific {
    /// Must be `MessageDisplay`.
    pub hook_event_name: tag::MessageDisplay,
    /// Text shown in place of the delta (the stored message is unchanged). Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_content: Option<String>,
}

/// `hookSpecificOutput` of `PermissionDenied` (no context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionDeniedSpecific {
    /// Must be `PermissionDenied`.
    pub hook_event_name: tag::PermissionDenied,
    /// Let the model try the call again. Carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
}

/// `hookSpecificOutput` of `WorktreeCreate` (no context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WorktreeCreateSpecific {
    /// Must be `WorktreeCreate`.
    pub hook_event_name: tag::WorktreeCreate,
    /// The absolute path of the created worktree (command hooks may print it on stdout
    /// instead). Carried.
    pub worktree_path: String,
}

/// `hookSpecificOutput` of `UserPromptExpansion`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptSpecific<T> {
    /// Must be the event.
    pub hook_event_name: T,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
    /// With a block, the original prompt is left out of the block message (Claude Code
    /// 2.1.332).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_original_prompt: Option<bool>,
}

/// `hookSpecificOutput` of `Elicitation` and `ElicitationResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationSpecific<T> {
    /// Must be the event.
    pub hook_event_name: T,
    /// The answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<ElicitationAction>,
    /// The answer's content, for `accept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

/// `hookSpecificOutput` of every other event: context for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContextSpecific<T> {
    /// Must be the event.
    pub hook_event_name: T,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

/// `hookSpecificOutput` of an event this engine does not know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OtherSpecific {
    /// The event named.
    pub hook_event_name: String,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

/// A `hookSpecificOutput` type: how its fields land in [`OutputFields`].
pub trait Specific: DeserializeOwned + super::SchemaType {
    /// Moves this object's fields into `fields`.
    fn merge_into(self, fields: &mut OutputFields);
}

impl Specific for PreToolUseSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.permission_decision = self.permission_decision;
        fields.permission_decision_reason = self.permission_decision_reason;
        fields.updated_input = self.updated_input;
        fields.additional_context = self.additional_context;
        if let Some(display) = self.permission_display {
            fields.carry("permissionDisplay", display);
        }
    }
}

impl Specific for PreSkillShellCommandSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.permission_decision = self.permission_decision;
        fields.permission_decision_reason = self.permission_decision_reason;
        fields.updated_input = self.updated_input;
    }
}

impl Specific for PreModelSwitchSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        use super::PermissionDecision as P;
        fields.permission_decision = self.permission_decision.map(|d| match d {
            ModelSwitchDecision::Allow => P::Allow,
            ModelSwitchDecision::Deny => P::Deny,
            ModelSwitchDecision::Ask => P::Ask,
        });
        fields.permission_decision_reason = self.permission_decision_reason;
    }
}

impl Specific for NoSpecific {
    fn merge_into(self, _: &mut OutputFields) {
        match self {}
    }
}

impl<T: DeserializeOwned + super::SchemaType> Specific for PromptSpecific<T> {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
        fields.suppress_original_prompt = self.suppress_original_prompt;
    }
}

impl Specific for PermissionRequestSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.permission_request = self.decision;
    }
}

impl Specific for PostToolUseSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
        fields.updated_mcp_tool_output = self.updated_mcp_tool_output;
        fields.classifier_context = self.classifier_context;
        if let Some(output) = self.updated_tool_output {
            fields.carry("updatedToolOutput", output);
        }
    }
}

impl Specific for SessionStartSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
        if let Some(message) = self.initial_user_message {
            fields.carry("initialUserMessage", message);
        }
        if let Some(title) = self.session_title {
            fields.carry("sessionTitle", title);
        }
        if let Some(paths) = self.watch_paths {
            fields.carry("watchPaths", paths);
        }
        if let Some(reload) = self.reload_skills {
            fields.carry("reloadSkills", reload);
        }
    }
}

impl Specific for UserPromptSubmitSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
        fields.suppress_original_prompt = self.suppress_original_prompt;
        if let Some(title) = self.session_title {
            fields.carry("sessionTitle", title);
        }
    }
}

impl<T: DeserializeOwned + super::SchemaType> Specific for WatchSpecific<T> {
    fn merge_into(self, fields: &mut OutputFields) {
        if let Some(paths) = self.watch_paths {
            fields.carry("watchPaths", paths);
        }
    }
}

impl Specific for MessageDisplaySpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        if let Some(content) = self.display_content {
            fields.carry("displayContent", content);
        }
    }
}

impl Specific for PermissionDeniedSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        if let Some(retry) = self.retry {
            fields.carry("retry", retry);
        }
    }
}

impl Specific for WorktreeCreateSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.carry("worktreePath", self.worktree_path);
    }
}

impl<T: DeserializeOwned + super::SchemaType> Specific for ElicitationSpecific<T> {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.elicitation_action = self.action;
        fields.elicitation_content = self.content;
    }
}

impl<T: DeserializeOwned + super::SchemaType> Specific for ContextSpecific<T> {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
    }
}

impl Specific for OtherSpecific {
    fn merge_into(self, fields: &mut OutputFields) {
        fields.additional_context = self.additional_context;
    }
}

/// Something done with the `hookSpecificOutput` type of one event.
pub(crate) trait SpecificVisitor {
    type Out;
    fn visit<S: Specific>(self) -> Self::Out;
}

/// Calls `visitor` with the `hookSpecificOutput` type of `event` (the one list of which event
/// has which type).
pub(crate) fn with_specific<V: SpecificVisitor>(event: &Event, visitor: V) -> V::Out {
    use Event as E;
    macro_rules! context {
        ($($name:ident),*) => {
            match event {
                E::PreToolUse => visitor.visit::<PreToolUseSpecific>(),
                E::PreSkillShellCommand => visitor.visit::<PreSkillShellCommandSpecific>(),
                E::PreModelSwitch => visitor.visit::<PreModelSwitchSpecific>(),
                // Claude Code 2.1.332 has no `hookSpecificOutput` for these: it refuses a whole
                // output that carries one.
                E::ConfigChange
                | E::DirectoryAdded
                | E::InstructionsLoaded
                | E::PreCompact
                | E::PostCompact
                | E::SessionEnd
                | E::StopFailure
                | E::TaskCreated
                | E::TaskCompleted
                | E::TeammateIdle
                | E::WorktreeRemove => visitor.visit::<NoSpecific>(),
                E::SessionStart => visitor.visit::<SessionStartSpecific>(),
                E::UserPromptSubmit => visitor.visit::<UserPromptSubmitSpecific>(),
                E::CwdChanged => visitor.visit::<WatchSpecific<tag::CwdChanged>>(),
                E::FileChanged => visitor.visit::<WatchSpecific<tag::FileChanged>>(),
                E::MessageDisplay => visitor.visit::<MessageDisplaySpecific>(),
                E::PermissionDenied => visitor.visit::<PermissionDeniedSpecific>(),
                E::WorktreeCreate => visitor.visit::<WorktreeCreateSpecific>(),
                E::UserPromptExpansion => {
                    visitor.visit::<PromptSpecific<tag::UserPromptExpansion>>()
                }
                E::PermissionRequest => visitor.visit::<PermissionRequestSpecific>(),
                E::PostToolUse => visitor.visit::<PostToolUseSpecific>(),
                E::Elicitation => visitor.visit::<ElicitationSpecific<tag::Elicitation>>(),
                E::ElicitationResult => {
                    visitor.visit::<ElicitationSpecific<tag::ElicitationResult>>()
                }
                $(E::$name => visitor.visit::<ContextSpecific<tag::$name>>(),)*
                _ => visitor.visit::<OtherSpecific>(),
            }
        };
    }
    context!(
        Setup,
        PostToolUseFailure,
        PostToolBatch,
        Notification,
        SubagentStart,
        SubagentStop,
        Stop,
        PostModelSwitch
    )
}

/// The field names verboo defines at the top level of an output.
pub const FIELDS: &[&str] = &[
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "terminalSequence",
    "hookSpecificOutput",
];

/// Reads a verboo output object for `event`.
///
/// # Errors
///
/// [`FieldError`] for a known field of the wrong type, named by its JSON pointer (unknown
/// fields are kept out of the result, not an error).
pub fn read_output(event: &Event, value: Value) -> Result<OutputFields, FieldError> {
    struct Read(Value);
    impl SpecificVisitor for Read {
        type Out = Result<OutputFields, FieldError>;
        fn visit<S: Specific>(self) -> Self::Out {
            let output: Output<S> = read_typed(self.0)?;
            let mut fields = OutputFields {
                continue_: output.continue_,
                stop_reason: output.stop_reason,
                suppress_output: output.suppress_output,
                system_message: output.system_message,
                decision: output.decision,
                reason: output.reason,
                ..OutputFields::default()
            };
            if let Some(sequence) = output.terminal_sequence {
                fields.carry("terminalSequence", sequence);
            }
            if let Some(specific) = output.hook_specific_output {
                specific.merge_into(&mut fields);
            }
            Ok(fields)
        }
    }
    with_specific(event, Read(value))
}
