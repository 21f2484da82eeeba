//! Typed hook outputs: what a hook writes to stdout, per dialect.
//!
//! - [`wuu`]: one flat snake_case object for every event.
//! - [`verboo`]: Claude Code's object: common fields, a top-level `decision`, and a
//!   `hookSpecificOutput` whose `hookEventName` must name the event.
//! - [`lime`]: Codex CLI's strict camelCase objects: every event has its own set of fields and an
//!   unknown field, a `null`, or a wrong `hookEventName` is an error.
//!
//! Each dialect's `read_output` turns a JSON object into the dialect-neutral [`OutputFields`] for
//! one event, with every field error located by its JSON pointer.

pub mod lime;
pub mod verboo;
pub mod wuu;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The bound every typed output carries: `schemars::JsonSchema` with the `schema` feature (the
/// schemas are generated from these types), nothing without it. Implemented for every type that
/// qualifies; there is nothing to implement by hand.
#[cfg(feature = "schema")]
pub trait SchemaType: JsonSchema {}
#[cfg(feature = "schema")]
impl<T: JsonSchema + ?Sized> SchemaType for T {}

/// The bound every typed output carries: `schemars::JsonSchema` with the `schema` feature (the
/// schemas are generated from these types), nothing without it. Implemented for every type that
/// qualifies; there is nothing to implement by hand.
#[cfg(not(feature = "schema"))]
pub trait SchemaType {}
#[cfg(not(feature = "schema"))]
impl<T: ?Sized> SchemaType for T {}

/// A permission decision a hook can give in `hookSpecificOutput` (verboo and lime `PreToolUse`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PermissionDecision {
    /// Let the call through (it still goes through the agent's own permission check).
    Allow,
    /// Cancel the call; the reason goes to the model.
    Deny,
    /// Ask the user.
    Ask,
    /// Leave it to the agent's normal flow (verboo only).
    Defer,
}

/// The behaviour a `PermissionRequest` hook chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PermissionBehavior {
    /// Grant the permission.
    Allow,
    /// Deny it.
    Deny,
}

/// A top-level `decision` as verboo and lime's `PreToolUse` accept it: `approve` is the
/// deprecated spelling of allow, `block` of deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ApproveOrBlock {
    /// Deprecated: allow.
    Approve,
    /// Block (deny).
    Block,
}

/// The only top-level `decision` most events accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum BlockOnly {
    /// Block.
    Block,
}

/// The answer an elicitation hook gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitationAction {
    /// Answer with `content`.
    Accept,
    /// Decline.
    Decline,
    /// Cancel.
    Cancel,
}

/// The fields of one hook output, read from any dialect, before they are judged for the event.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct OutputFields {
    /// `continue` (false asks the agent to stop; in wuu it blocks).
    pub continue_: Option<bool>,
    /// `stopReason`.
    pub stop_reason: Option<String>,
    /// `suppressOutput`.
    pub suppress_output: Option<bool>,
    /// `systemMessage`.
    pub system_message: Option<String>,
    /// Top-level `decision`.
    pub decision: Option<ApproveOrBlock>,
    /// Top-level `reason`.
    pub reason: Option<String>,
    /// `permissionDecision`.
    pub permission_decision: Option<PermissionDecision>,
    /// `permissionDecisionReason`.
    pub permission_decision_reason: Option<String>,
    /// `updatedInput` / `updated_input`.
    pub updated_input: Option<Value>,
    /// `additionalContext` / `additional_context`.
    pub additional_context: Option<String>,
    /// `updatedMCPToolOutput`.
    pub updated_mcp_tool_output: Option<Value>,
    /// `hookSpecificOutput.decision` of a `PermissionRequest`.
    pub permission_request: Option<PermissionRequestDecision>,
    /// `hookSpecificOutput.action` of an elicitation.
    pub elicitation_action: Option<ElicitationAction>,
    /// `hookSpecificOutput.content` of an elicitation.
    pub elicitation_content: Option<Value>,
    /// `hookSpecificOutput.classifierContext` of a verboo `PostToolUse`.
    pub classifier_context: Option<String>,
    /// `hookSpecificOutput.suppressOriginalPrompt` of a verboo prompt event.
    pub suppress_original_prompt: Option<bool>,
    /// Fields the engine carries to the agent without acting on them (verboo:
    /// `terminalSequence`, `sessionTitle`, `watchPaths`, `updatedToolOutput`...), by their
    /// name in the output, each already checked against its type.
    pub carried: BTreeMap<String, Value>,
}

impl OutputFields {
    /// Carries `value` under `name` (see [`OutputFields::carried`]).
    pub(crate) fn carry(&mut self, name: &str, value: impl Into<Value>) {
        self.carried.insert(name.to_owned(), value.into());
    }
}

/// The `decision` object of a `PermissionRequest` output (verboo and lime).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PermissionRequestDecision {
    /// Allow or deny.
    pub behavior: PermissionBehavior,
    /// verboo: the input to run with instead (lime: not accepted, fails the hook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// verboo: permission rules to add (lime: not accepted, fails the hook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
    /// Why, for a deny.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// verboo: stop the agent as well (lime: `true` fails the hook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<bool>,
}

/// The event an output names in `hookSpecificOutput.hookEventName` (verboo and lime), if it
/// names one: what a checker takes as the event when it is not told.
///
/// ```
/// let output = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse"}});
/// assert_eq!(hook_protocol::output::named_event(&output), Some("PreToolUse"));
/// assert_eq!(hook_protocol::output::named_event(&serde_json::json!({})), None);
/// ```
pub fn named_event(value: &Value) -> Option<&str> {
    value
        .get("hookSpecificOutput")?
        .get("hookEventName")?
        .as_str()
}

/// Why an output object could not be read for an event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldError {
    /// JSON pointer of the field (empty for the whole object).
    pub pointer: String,
    /// What was wrong and what was expected.
    pub message: String,
}

/// Deserializes `value` as `T`, naming the failing field by JSON pointer.
pub(crate) fn read_typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(value).map_err(|error| FieldError {
        pointer: crate::json_path::pointer_of(error.path()),
        message: error.inner().to_string(),
    })
}

/// Reads the output of a hook on an event its dialect does not know (a newer agent's), where
/// no schema says which fields there are: every field any known event defines is taken where it
/// has the expected type (camelCase, as verboo and lime spell it; `decision` and `reason` are
/// spelled alike in wuu), and anything else is left out. A block in any known shape is kept:
/// `decision: "block"`, `hookSpecificOutput.permissionDecision: "deny"` and
/// `hookSpecificOutput.decision.behavior: "deny"` (see [`crate::BlockEffect::Unknown`]).
pub fn read_unknown(value: &Value) -> OutputFields {
    fn text(object: Option<&Value>, key: &str) -> Option<String> {
        object?.get(key)?.as_str().map(str::to_owned)
    }
    fn typed<T: serde::de::DeserializeOwned>(object: Option<&Value>, key: &str) -> Option<T> {
        serde_json::from_value(object?.get(key)?.clone()).ok()
    }
    let top = Some(value);
    let specific = value
        .get("hookSpecificOutput")
        .filter(|s| s.is_object())
        .or_else(|| value.get("hook_specific_output").filter(|s| s.is_object()));
    OutputFields {
        continue_: typed(top, "continue"),
        stop_reason: text(top, "stopReason"),
        suppress_output: typed(top, "suppressOutput"),
        system_message: text(top, "systemMessage"),
        decision: typed(top, "decision"),
        reason: text(top, "reason"),
        permission_decision: typed(specific, "permissionDecision"),
        permission_decision_reason: text(specific, "permissionDecisionReason"),
        updated_input: None,
        additional_context: text(specific, "additionalContext"),
        updated_mcp_tool_output: None,
        permission_request: typed(specific, "decision"),
        elicitation_action: None,
        elicitation_content: None,
        classifier_context: None,
        suppress_original_prompt: None,
        carried: BTreeMap::new(),
    }
}
