//! Why an output failed validation ([`ValidateError`]). Both the schema check (`check.rs`) and
//! the unknown-field walk (`unknown.rs`) return it, and the check borrows the walk's
//! did-you-mean: with the error here, below both, the walk does not import the check back.

use super::OutputIssue;
use crate::{Dialect, Event};

/// Why an output failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidateError {
    /// The dialect has no such event, so there is no schema to check against.
    #[error("`{event}` is not a {dialect} event; {dialect} events are: {known}")]
    UnknownEvent {
        /// The dialect.
        dialect: Dialect,
        /// The event named.
        event: String,
        /// The dialect's events, comma-separated.
        known: String,
    },
    /// The bytes are not one JSON document.
    #[error("output is not valid JSON at line {line}, column {column}: {message}")]
    NotJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The document does not match the schema.
    #[error("output does not match the {dialect} {event} output schema:{}", list(.issues))]
    Invalid {
        /// The dialect.
        dialect: Dialect,
        /// The event.
        event: String,
        /// Every error found, in document order.
        issues: Vec<OutputIssue>,
    },
}

fn list(issues: &[OutputIssue]) -> String {
    issues.iter().map(|issue| format!("\n  {issue}")).collect()
}

/// The error for an event `dialect` does not know.
pub(super) fn unknown_event(dialect: Dialect, event: &Event) -> ValidateError {
    ValidateError::UnknownEvent {
        dialect,
        event: event.to_string(),
        known: dialect
            .events()
            .iter()
            .map(Event::as_str)
            .collect::<Vec<_>>()
            .join(", "),
    }
}
