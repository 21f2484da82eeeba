//! The writer: the one place a decision becomes a dialect's output.
//!
//! The readers ([`input`](crate::input), [`output`](crate::output),
//! [`interpret()`](crate::interpret())) turn what an agent or a hook wrote into typed values;
//! this module goes the other way, driven by the same [`DialectRules`](crate::DialectRules):
//!
//! - [`hook_output`]: a hook's [`Answer`] (a block with its reason, an allow, a rewritten tool
//!   input, context, a stop, a system message) as the one JSON object the hook prints with exit
//!   code 0, or a [`WriteError`] naming what the dialect cannot express and what to use instead
//!   (what the SDK's `render` writes);
//! - `agent_reply` (feature `validate`): a dispatched event's [`Outcome`](crate::Outcome) as an
//!   agent's own hook output, stdout, stderr and exit code ([`AgentReply`], what `hook relay`
//!   answers Claude Code and Codex);
//! - [`tool_response`]: a tool's result as the dialect's inputs carry it (wuu: text).
//!
//! What differs between dialects is rule data in each dialect's file (`dialect/wuu.rs`,
//! `dialect/verboo.rs`, `dialect/lime.rs`): the output's form, the answers the dialect refuses
//! to write, how it writes a rewrite. Nothing here names a dialect.

mod hook;
#[cfg(feature = "validate")]
mod reply;

use serde_json::{Map, Value};

use crate::{Decision, Dialect, Event};

pub use hook::hook_output;
#[cfg(feature = "validate")]
pub use reply::{AgentReply, agent_reply};

/// A hook's answer to one event, in no dialect's spelling: what [`hook_output`] writes.
///
/// `#[non_exhaustive]`: a field may be added in a minor release. Build it from
/// [`Answer::default`] and set the fields.
///
/// ```
/// use hook_protocol::write::{Answer, hook_output};
/// use hook_protocol::{Decision, Dialect, Event};
///
/// let mut answer = Answer::default();
/// answer.decision = Some(Decision::Block);
/// answer.reason = Some("no rm -rf".into());
/// let out = hook_output(Dialect::Wuu, &Event::PreToolUse, &answer).unwrap();
/// assert_eq!(out["decision"], "block");
/// assert_eq!(out["reason"], "no rm -rf");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Answer {
    /// `Allow`, `Ask`, `Defer` or `Block` (a deny); `None` (or `Continue`) is no decision.
    pub decision: Option<Decision>,
    /// Why, for the decision (for a block it goes to the model; a blank one becomes
    /// "blocked by hook").
    pub reason: Option<String>,
    /// The whole new tool input (`PreToolUse`, and verboo `PermissionRequest` with an allow).
    pub updated_input: Option<Map<String, Value>>,
    /// Context for the model.
    pub additional_context: Option<String>,
    /// Whether the agent is asked to stop (`continue: false`).
    pub stop: bool,
    /// Why it is asked to stop, for the user (`stopReason`); read only with [`stop`](Self::stop).
    pub stop_reason: Option<String>,
    /// A message for the user.
    pub system_message: Option<String>,
    /// Whether the hook's output is hidden from the transcript.
    pub suppress_output: bool,
}

/// An answer the dialect cannot express on this event.
///
/// `#[non_exhaustive]`: a field may be added in a minor release.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("the response cannot be written for {dialect} {event}: {message}")]
pub struct WriteError {
    /// The dialect.
    pub dialect: Dialect,
    /// The event's name.
    pub event: String,
    /// What cannot be expressed and what to use instead.
    pub message: String,
}

/// A tool's result as `dialect`'s inputs carry it (`tool_response` of `PostToolUse`): as it
/// is, or, where the dialect sends text (wuu), a string as it is and anything else as its
/// JSON text.
///
/// ```
/// use hook_protocol::Dialect;
/// use hook_protocol::write::tool_response;
/// use serde_json::json;
///
/// assert_eq!(tool_response(Dialect::Wuu, json!({"ok": true})), json!("{\"ok\":true}"));
/// assert_eq!(tool_response(Dialect::Verboo, json!({"ok": true})), json!({"ok": true}));
/// ```
pub fn tool_response(dialect: Dialect, response: Value) -> Value {
    match response {
        Value::String(text) => Value::String(text),
        other if dialect.rules().write.tool_response_text => Value::String(other.to_string()),
        other => other,
    }
}

/// How a dialect writes a hook's answer: one value in each dialect's file.
#[derive(Debug)]
pub(crate) struct WriteRules {
    /// The shape of the output object.
    pub(crate) form: OutputForm,
    /// The answers the dialect cannot write on an event beyond what no dialect can (a block
    /// where nothing can block, a rewrite with a block, context where it is not taken): the
    /// message says what to use instead. Called with the decision, `Continue` read as none.
    pub(crate) refuse: fn(&Event, &Answer, Option<Decision>) -> Option<&'static str>,
    /// Whether a `PreToolUse` rewrite is written as `permissionDecision: "allow"` with its
    /// `updatedInput`, and an allow without a rewrite as no decision (lime, as Codex: it
    /// refuses a bare allow and an `updatedInput` without one; it still asks where it would
    /// have).
    pub(crate) rewrite_is_allow: bool,
    /// Whether the dialect's inputs carry a tool's result as text ([`tool_response`], wuu).
    pub(crate) tool_response_text: bool,
}

/// The shape of a dialect's hook output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputForm {
    /// Flat snake_case fields (`decision`, `reason`, `updated_input`, `additional_context`),
    /// no `hookSpecificOutput`, no stop (wuu).
    Flat,
    /// camelCase fields, the event's own under `hookSpecificOutput` (verboo, lime).
    Tagged,
}

/// No refusal beyond what no dialect can write (verboo).
pub(crate) fn refuses_nothing(_: &Event, _: &Answer, _: Option<Decision>) -> Option<&'static str> {
    None
}

#[cfg(test)]
mod tests;
