//! The answer to an event the relay could not evaluate: it fails closed.

use hook_protocol::{Decision, Dialect, Event, Outcome};

/// How the relay answers an event it could not evaluate ([`fail_closed`]).
#[derive(Debug)]
pub(crate) struct FailClosed {
    /// The reason, for stderr (a block's reason where the event can block).
    pub(crate) message: String,
    /// The outcome to write in the event's JSON form too; `None` when no event is known.
    pub(crate) outcome: Option<Outcome>,
    /// Whether this is a block (exit 2).
    pub(crate) blocks: bool,
}

/// The answer when the event could not be evaluated: a block where the event can block
/// (exit 2 with the reason on stderr, which both agents read as a block there, and the event's
/// JSON block form on stdout too, which they ignore beside exit 2); elsewhere the failure said
/// in `systemMessage` and on stderr, exit 0. With no event known, exit 2 and stderr.
pub(crate) fn fail_closed(dialect: Dialect, event: Option<&Event>, why: &str) -> FailClosed {
    let Some(event) = event else {
        return FailClosed {
            message: format!("hook relay could not evaluate the event, so it is blocked: {why}"),
            outcome: None,
            blocks: true,
        };
    };
    let mut outcome = Outcome::new(dialect, event.clone());
    if event.block_effect(dialect).can_block() {
        let reason =
            format!("hook relay could not evaluate this {event} event, so it is blocked: {why}");
        outcome.decision = Decision::Block;
        outcome.reason = Some(reason.clone());
        return FailClosed {
            message: reason,
            outcome: Some(outcome),
            blocks: true,
        };
    }
    let message =
        format!("hook relay could not evaluate this {event} event (it cannot block): {why}");
    outcome.system_messages.push(message.clone());
    FailClosed {
        message,
        outcome: Some(outcome),
        blocks: false,
    }
}
