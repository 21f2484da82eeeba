//! lime output: the strict camelCase objects of the system lime is modelled on.
//!
//! Every event has its own object (as in Codex CLI's published hook schemas); each rejects
//! unknown fields, `null` where a value is expected, and a `hookEventName` that is not the event.
//! `SessionEnd` and `Interrupt`, which the reference lacks, take the common fields only.
//! The generated schemas of these types accept what the reference schemas accept, less the
//! outputs the engine refuses (the rules of `dialect/lime.rs`, added to the schemas as an
//! `allOf`); a test holds them to it, and to the engine's verdict.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ApproveOrBlock, BlockOnly, FieldError, OutputFields, PermissionBehavior, read_typed};
use crate::output::PermissionDecision;
use crate::{Event, tag};

/// Defines a lime output object: the four common fields plus the event's own, strict.
macro_rules! lime_output {
    (
        $(#[$doc:meta])*
        $Name:ident $(<$T:ident>)? {
            $( $(#[$fattr:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(JsonSchema))]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        $(#[$doc])*
        pub struct $Name $(<$T>)? {
            /// `false` asks the agent to stop; it takes priority over a block.
            #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
            pub continue_: Option<bool>,
            /// Why the agent should stop.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub stop_reason: Option<String>,
            /// Hide the hook's output.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub suppress_output: Option<bool>,
            /// A message for the user.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub system_message: Option<String>,
            $(
                $(#[$fattr])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: $ty,
            )*
        }
    };
}

lime_output! {
    /// Output of `PreCompact`, `PostCompact`, `SessionEnd` and `Interrupt`: common fields only.
    CommonOutput {}
}

lime_output! {
    /// Output of `SessionStart` and `SubagentStart`: context for the model.
    #[serde(bound(deserialize = "T: Deserialize<'de>"))]
    ContextOutput<T> {
        /// The event's own fields.
        hook_specific_output: Option<ContextSpecific<T>>,
    }
}

lime_output! {
    /// Output of `Stop` and `SubagentStop`: `block` with a reason asks the agent to keep going.
    BlockOutput {
        /// `block`; needs a non-empty `reason`.
        decision: Option<BlockOnly>,
        /// What is left to do.
        reason: Option<String>,
    }
}

lime_output! {
    /// Output of `UserPromptSubmit`.
    UserPromptSubmitOutput {
        /// `block` drops the prompt.
        decision: Option<BlockOnly>,
        /// Why.
        reason: Option<String>,
        /// The event's own fields.
        hook_specific_output: Option<ContextSpecific<tag::UserPromptSubmit>>,
    }
}

lime_output! {
    /// Output of `PostToolUse`.
    PostToolUseOutput {
        /// `block` sends the reason to the model; the tool already ran.
        decision: Option<BlockOnly>,
        /// Why.
        reason: Option<String>,
        /// The event's own fields.
        hook_specific_output: Option<PostToolUseSpecific>,
    }
}

lime_output! {
    /// Output of `PreToolUse`.
    PreToolUseOutput {
        /// `block` cancels the call; `approve` (deprecated) allows it.
        decision: Option<ApproveOrBlock>,
        /// Why.
        reason: Option<String>,
        /// The event's own fields.
        hook_specific_output: Option<PreToolUseSpecific>,
    }
}

lime_output! {
    /// Output of `PermissionRequest`.
    PermissionRequestOutput {
        /// The event's own fields.
        hook_specific_output: Option<PermissionRequestSpecific>,
    }
}

/// `hookSpecificOutput` carrying context for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContextSpecific<T> {
    /// Must be the event.
    pub hook_event_name: T,
    /// Context for the model (subject to the handler's `additionalContextLimit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

/// `hookSpecificOutput` of `PostToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
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
}

/// The permission decisions lime's `PreToolUse` accepts (no `defer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PreToolUsePermission {
    /// Allow; may carry `updatedInput`.
    Allow,
    /// Deny.
    Deny,
    /// Ask the user.
    Ask,
}

/// `hookSpecificOutput` of `PreToolUse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct PreToolUseSpecific {
    /// Must be `PreToolUse`.
    pub hook_event_name: tag::PreToolUse,
    /// `allow`, `deny` or `ask`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision: Option<PreToolUsePermission>,
    /// Why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_decision_reason: Option<String>,
    /// With an allow: the input to run with instead (it must still fit the tool's schema and
    /// permissions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

/// `hookSpecificOutput` of `PermissionRequest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionRequestSpecific {
    /// Must be `PermissionRequest`.
    pub hook_event_name: tag::PermissionRequest,
    /// The decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<PermissionRequestDecision>,
}

/// The decision of a lime `PermissionRequest` hook.
///
/// `updatedInput` and `updatedPermissions` are reserved: present (and not null), they fail the
/// hook, as does `interrupt: true`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionRequestDecision {
    /// `allow` or `deny`; deny wins among handlers.
    pub behavior: PermissionBehavior,
    /// Reserved; `true` fails the hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
    /// Why, for a deny.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Reserved; present, it fails the hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Reserved; present, it fails the hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
}

/// A lime output type: how its fields land in [`OutputFields`].
pub trait LimeOutput: DeserializeOwned + super::SchemaType {
    /// This object's fields.
    fn into_fields(self) -> OutputFields;
}

macro_rules! common_fields {
    ($output:ident) => {
        OutputFields {
            continue_: $output.continue_,
            stop_reason: $output.stop_reason,
            suppress_output: $output.suppress_output,
            system_message: $output.system_message,
            ..OutputFields::default()
        }
    };
}

impl LimeOutput for CommonOutput {
    fn into_fields(self) -> OutputFields {
        common_fields!(self)
    }
}

impl<T: DeserializeOwned + super::SchemaType> LimeOutput for ContextOutput<T> {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.additional_context = self.hook_specific_output.and_then(|s| s.additional_context);
        fields
    }
}

impl LimeOutput for BlockOutput {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.decision = self.decision.map(|_| ApproveOrBlock::Block);
        fields.reason = self.reason;
        fields
    }
}

impl LimeOutput for UserPromptSubmitOutput {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.decision = self.decision.map(|_| ApproveOrBlock::Block);
        fields.reason = self.reason;
        fields.additional_context = self.hook_specific_output.and_then(|s| s.additional_context);
        fields
    }
}

impl LimeOutput for PostToolUseOutput {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.decision = self.decision.map(|_| ApproveOrBlock::Block);
        fields.reason = self.reason;
        if let Some(specific) = self.hook_specific_output {
            fields.additional_context = specific.additional_context;
            fields.updated_mcp_tool_output = specific.updated_mcp_tool_output;
        }
        fields
    }
}

impl LimeOutput for PreToolUseOutput {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.decision = self.decision;
        fields.reason = self.reason;
        if let Some(specific) = self.hook_specific_output {
            fields.permission_decision = specific.permission_decision.map(|d| match d {
                PreToolUsePermission::Allow => PermissionDecision::Allow,
                PreToolUsePermission::Deny => PermissionDecision::Deny,
                PreToolUsePermission::Ask => PermissionDecision::Ask,
            });
            fields.permission_decision_reason = specific.permission_decision_reason;
            fields.updated_input = specific.updated_input;
            fields.additional_context = specific.additional_context;
        }
        fields
    }
}

impl LimeOutput for PermissionRequestOutput {
    fn into_fields(self) -> OutputFields {
        let mut fields = common_fields!(self);
        fields.permission_request = self.hook_specific_output.and_then(|s| s.decision).map(|d| {
            super::PermissionRequestDecision {
                behavior: d.behavior,
                updated_input: d.updated_input,
                updated_permissions: d.updated_permissions,
                message: d.message,
                interrupt: d.interrupt,
            }
        });
        fields
    }
}

/// Something done with the output type of one lime event.
pub(crate) trait OutputVisitor {
    type Out;
    fn visit<O: LimeOutput>(self) -> Self::Out;
}

/// Calls `visitor` with the output type of `event`, or gives it back for an event lime does not
/// know (the one list of which event has which type).
pub(crate) fn with_output<V: OutputVisitor>(event: &Event, visitor: V) -> Result<V::Out, V> {
    use Event as E;
    Ok(match event {
        E::PreCompact | E::PostCompact | E::SessionEnd | E::Interrupt => {
            visitor.visit::<CommonOutput>()
        }
        E::SessionStart => visitor.visit::<ContextOutput<tag::SessionStart>>(),
        E::SubagentStart => visitor.visit::<ContextOutput<tag::SubagentStart>>(),
        E::Stop | E::SubagentStop => visitor.visit::<BlockOutput>(),
        E::UserPromptSubmit => visitor.visit::<UserPromptSubmitOutput>(),
        E::PostToolUse => visitor.visit::<PostToolUseOutput>(),
        E::PreToolUse => visitor.visit::<PreToolUseOutput>(),
        E::PermissionRequest => visitor.visit::<PermissionRequestOutput>(),
        _ => return Err(visitor),
    })
}

/// Reads a lime output object for `event`. An event lime does not know takes the common
/// fields only.
///
/// # Errors
///
/// [`FieldError`] for an unknown field, `null` where a value is expected, a wrong
/// `hookEventName` or a field of the wrong type, named by its JSON pointer.
pub fn read_output(event: &Event, value: Value) -> Result<OutputFields, FieldError> {
    struct Read(Value);
    impl OutputVisitor for Read {
        type Out = Result<OutputFields, FieldError>;
        fn visit<O: LimeOutput>(self) -> Self::Out {
            read_typed::<O>(self.0).map(LimeOutput::into_fields)
        }
    }
    with_output(event, Read(value))
        .unwrap_or_else(|Read(value)| read_typed::<CommonOutput>(value).map(|o| o.into_fields()))
}
