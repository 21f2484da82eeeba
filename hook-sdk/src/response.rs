//! The typed response a hook gives, built with small helpers.

use std::fmt;

use hook_protocol::Decision;
use serde_json::{Map, Value};

/// What a hook answers. Build it with the helpers ([`Response::deny`], [`Response::context`]...)
/// and chain the `with_*` methods; the SDK writes it the way the event's dialect requires.
///
/// The default is "no decision": the agent carries on as it would have.
#[derive(Debug, Clone, PartialEq, Default)]
#[must_use]
#[non_exhaustive]
pub struct Response {
    /// `Allow`, `Ask`, `Defer` or `Block` (a deny); `None` is no decision.
    pub decision: Option<Decision>,
    /// Why, for the decision (for a block it goes to the model).
    pub reason: Option<String>,
    /// `PreToolUse` (and verboo `PermissionRequest` with an allow): the whole new tool input.
    /// A JSON object by construction; it is a proposal the agent checks again, never an
    /// authorization.
    pub updated_input: Option<Map<String, Value>>,
    /// Context for the model.
    pub additional_context: Option<String>,
    /// Ask the agent to stop (verboo and lime `continue: false`), with a reason for the user.
    pub stop: Option<StopAgent>,
    /// A message for the user (verboo and lime).
    pub system_message: Option<String>,
    /// Hide the hook's output from the transcript (verboo and lime).
    pub suppress_output: bool,
}

/// A request to stop the agent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct StopAgent {
    /// Why, for the user.
    pub reason: Option<String>,
}

impl Response {
    /// No decision: the agent carries on (also the answer to events a hook does not handle).
    pub fn none() -> Response {
        Response::default()
    }

    /// Allow the action (`PreToolUse`, `PermissionRequest`; elsewhere it means no objection).
    /// It never widens what the agent's own permission rules allow.
    pub fn allow() -> Response {
        Response {
            decision: Some(Decision::Allow),
            ..Response::default()
        }
    }

    /// Deny the action with a reason for the model: the same as [`Response::block`].
    pub fn deny(reason: impl Into<String>) -> Response {
        Response::block(reason)
    }

    /// Block the action with a reason: a tool call is cancelled, a prompt dropped, a stopping
    /// agent keeps going; after a tool ran (verboo and lime `PostToolUse`) the reason is
    /// feedback for the model.
    pub fn block(reason: impl Into<String>) -> Response {
        Response {
            decision: Some(Decision::Block),
            reason: Some(reason.into()),
            ..Response::default()
        }
    }

    /// Ask the user to confirm a tool call (verboo and lime `PreToolUse`).
    pub fn ask(reason: impl Into<String>) -> Response {
        Response {
            decision: Some(Decision::Ask),
            reason: Some(reason.into()),
            ..Response::default()
        }
    }

    /// Leave the decision to the agent's normal flow (verboo `PreToolUse` only).
    pub fn defer() -> Response {
        Response {
            decision: Some(Decision::Defer),
            ..Response::default()
        }
    }

    /// Rewrite a tool call's input (`PreToolUse`) with **no decision**: the call runs with
    /// `input` and the agent's own permission rules decide as they would have (a prompt the
    /// user would have seen is still shown). Pass a [`Tool`](crate::Tool), a JSON object, or
    /// [`ToolCall::rewritten`](crate::ToolCall::rewritten) to keep the fields the SDK does not
    /// type.
    ///
    /// Written as `updated_input` (wuu), `updatedInput` alone (verboo) and
    /// `permissionDecision: "allow"` + `updatedInput` in lime, whose allow only rewrites (the
    /// agent still asks where it would have). Use [`Response::rewrite_and_allow`] to also skip
    /// the permission prompt, [`Response::rewrite_and_ask`] to show the user the new input.
    ///
    /// (It used to be an allow, which in verboo skips the permission prompt: that is
    /// [`Response::rewrite_and_allow`] now.)
    pub fn rewrite(input: impl Into<Map<String, Value>>) -> Response {
        Response {
            updated_input: Some(input.into()),
            ..Response::default()
        }
    }

    /// Rewrite a tool call's input and allow it (`PreToolUse`; verboo `PermissionRequest`):
    /// in verboo `permissionDecision: "allow"` + `updatedInput`, which skips the permission
    /// prompt. wuu has no allow and lime's allow never approves, so there it is written as
    /// [`Response::rewrite`] is: the agent's permission check still runs.
    pub fn rewrite_and_allow(input: impl Into<Map<String, Value>>) -> Response {
        Response {
            decision: Some(Decision::Allow),
            updated_input: Some(input.into()),
            ..Response::default()
        }
    }

    /// Rewrite a tool call's input and ask the user to confirm the new one, with a reason
    /// (verboo `PreToolUse`: `permissionDecision: "ask"` + `updatedInput`). wuu and lime have
    /// no ask: writing it there is a [`RenderError`](crate::RenderError) (use
    /// [`Response::rewrite`], which leaves the decision to the agent).
    pub fn rewrite_and_ask(
        input: impl Into<Map<String, Value>>,
        reason: impl Into<String>,
    ) -> Response {
        Response {
            decision: Some(Decision::Ask),
            reason: Some(reason.into()),
            updated_input: Some(input.into()),
            ..Response::default()
        }
    }

    /// No decision, with context for the model.
    pub fn context(text: impl Into<String>) -> Response {
        Response {
            additional_context: Some(text.into()),
            ..Response::default()
        }
    }

    /// Stop the agent (verboo and lime `continue: false`); wins over every decision.
    pub fn stop(reason: impl Into<String>) -> Response {
        Response {
            stop: Some(StopAgent {
                reason: Some(reason.into()),
            }),
            ..Response::default()
        }
    }

    /// No decision, with a message for the user (verboo and lime).
    pub fn system_message(message: impl Into<String>) -> Response {
        Response {
            system_message: Some(message.into()),
            ..Response::default()
        }
    }

    /// Sets the reason of the decision.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Response {
        self.reason = Some(reason.into());
        self
    }

    /// Adds context for the model (appended after a blank line if some is already set).
    pub fn with_context(mut self, text: impl Into<String>) -> Response {
        let text = text.into();
        self.additional_context = Some(match self.additional_context.take() {
            Some(before) => format!("{before}\n\n{text}"),
            None => text,
        });
        self
    }

    /// Sets a message for the user.
    pub fn with_system_message(mut self, message: impl Into<String>) -> Response {
        self.system_message = Some(message.into());
        self
    }

    /// Hides the hook's output from the transcript.
    pub fn with_suppressed_output(mut self) -> Response {
        self.suppress_output = true;
        self
    }

    /// Whether this is [`Response::none`]: no decision, no rewrite, no context, no stop, no
    /// message (what a [`Router`](crate::Router) handler returns to let the next one answer).
    pub fn is_none(&self) -> bool {
        *self == Response::none()
    }

    /// The decision, `Continue` when there is none.
    pub fn decision(&self) -> Decision {
        self.decision.unwrap_or(Decision::Continue)
    }
}

/// An error a hook returns instead of a response: it becomes a failure the dialect understands
/// (or a block, with [`Options::fail_closed`](crate::Options::fail_closed)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookError {
    message: String,
}

impl HookError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> HookError {
        HookError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for HookError {}

/// What a handler function may return: a [`Response`], or a `Result` of one whose error can be
/// displayed (so `?` works with `std::io::Error`, `anyhow::Error`...).
pub trait IntoResponse {
    /// The response, or the error to report.
    ///
    /// # Errors
    ///
    /// The handler's own error, to be reported as a failed run.
    fn into_response(self) -> Result<Response, HookError>;
}

impl IntoResponse for Response {
    fn into_response(self) -> Result<Response, HookError> {
        Ok(self)
    }
}

impl<E: fmt::Display> IntoResponse for Result<Response, E> {
    fn into_response(self) -> Result<Response, HookError> {
        self.map_err(|error| HookError::new(error.to_string()))
    }
}

/// A hook: a function from an event to a response.
///
/// Implemented for every `Fn(&Event) -> R` where `R` is a [`Response`] or a
/// `Result<Response, E: Display>`.
pub trait Handler {
    /// Answers one event.
    ///
    /// # Errors
    ///
    /// Whatever went wrong in the handler; the SDK reports it as a failed run (exit 1).
    fn handle(&self, event: &crate::Event) -> Result<Response, HookError>;
}

impl<F, R> Handler for F
where
    F: Fn(&crate::Event) -> R,
    R: IntoResponse,
{
    fn handle(&self, event: &crate::Event) -> Result<Response, HookError> {
        self(event).into_response()
    }
}
