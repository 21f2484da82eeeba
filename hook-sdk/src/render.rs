//! Writing a [`Response`] the way one dialect requires, for one event, by the protocol's writer
//! (`hook_protocol::write::hook_output`), where each dialect's rules are.

use std::fmt;

use hook_protocol::write::{self, Answer};
use hook_protocol::{Dialect, Event};
use serde_json::{Map, Value};

use crate::Response;

/// A response the dialect cannot express on this event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderError {
    /// The dialect.
    pub dialect: Dialect,
    /// The event.
    pub event: String,
    /// What cannot be expressed and what to use instead.
    pub message: String,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the response cannot be written for {} {}: {}",
            self.dialect, self.event, self.message
        )
    }
}

impl std::error::Error for RenderError {}

/// The output object of `response` for `event` in `dialect`.
///
/// # Errors
///
/// [`RenderError`] when the dialect cannot express the response on this event; its message
/// says what to use instead.
///
/// Everything is written as one JSON object with exit code 0 (a block too): every dialect reads
/// a block from JSON where a block is expressible. What a dialect cannot express is a
/// [`RenderError`] naming the dialect, the event and what to use instead.
pub fn render(
    dialect: Dialect,
    event: &Event,
    response: &Response,
) -> Result<Map<String, Value>, RenderError> {
    let mut answer = Answer::default();
    answer.decision = response.decision;
    answer.reason.clone_from(&response.reason);
    answer.updated_input.clone_from(&response.updated_input);
    answer
        .additional_context
        .clone_from(&response.additional_context);
    answer.stop = response.stop.is_some();
    answer.stop_reason = response.stop.as_ref().and_then(|stop| stop.reason.clone());
    answer.system_message.clone_from(&response.system_message);
    answer.suppress_output = response.suppress_output;
    write::hook_output(dialect, event, &answer).map_err(|error| RenderError {
        dialect: error.dialect,
        event: error.event,
        message: error.message,
    })
}
