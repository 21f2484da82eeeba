//! What `hook relay` writes for the agent: its answer in the agent's own hook-output format
//! ([`agent_reply`]) on stdout, and on stderr the lines the agent shows or gives the model
//! (skips, a block's reason, what the event could not carry).

use anyhow::Result;
use hook_protocol::Outcome;
use hook_protocol::write::{self, AgentReply};
use hook_trust::TrustView;

use crate::ops::relay::agents::translated::{Translation, adapt_reply};
use crate::ops::relay::answer::{Answer, FailClosed};

use crate::ui::{Printer, Status, say_err};

/// The outcome of a relayed event as the agent's own hook output, by the protocol's writer
/// (`systemMessage` escaped as everything `hook` prints for a person).
pub(crate) fn agent_reply(outcome: &Outcome) -> AgentReply {
    write::agent_reply(outcome, |line| {
        crate::ui::terminal::one_line(line).into_owned()
    })
}

/// Lines for stderr, each as it is.
pub(crate) fn notes(printer: &Printer, lines: &[String]) {
    for line in lines {
        say_err!(printer, "{line}");
    }
}

/// The answer: the skips (hooks `view` did not let run, each with the command that lets it) and
/// the reply's own lines on stderr, the reply on stdout, then stdout closed (a reader waiting
/// for its end has the answer before the journal is written). Returns the reply's exit code.
///
/// # Errors
///
/// When the reply cannot be serialised.
pub(crate) fn answer(
    printer: &Printer,
    answer: &Answer,
    view: &TrustView,
    translated: Option<&Translation>,
) -> Result<u8> {
    notes(
        printer,
        &crate::ui::trust::skip_warnings(view, &answer.outcome),
    );
    let reply = agent_reply(&answer.outcome);
    let reply = match translated {
        Some(agent) => adapt_reply(agent, &answer.outcome, reply),
        None => reply,
    };
    // With exit 2 stderr is the block's reason, which the agent gives the model.
    if reply.exit_code != 2 {
        for line in &answer.moved_to_stderr {
            say_err!(printer, "hook relay: {line}");
        }
    }
    for line in &reply.stderr {
        say_err!(printer, "hook relay: {line}");
    }
    if let Some(note) = &answer.unknown_event {
        say_err!(printer, "{note}");
    }
    if let Some(stdout) = &reply.stdout {
        printer.exact_line(&serde_json::to_string(stdout)?);
    }
    printer.close_stdout();
    Ok(reply.exit_code)
}

/// The answer to an event that could not be evaluated: the reason on stderr, the event's JSON
/// form on stdout where there is one; a block (exit 2) where the event can block. For a
/// translated agent, the block in its own form: exit 0 with the decision on stdout where the
/// event is known (exit 2 alone lets a call run in Gemini CLI when stdout holds other JSON),
/// else exit 2 with the reason on stderr, which both read as a block.
pub(crate) fn fail_closed(
    printer: &Printer,
    failed: &FailClosed,
    translated: Option<&Translation>,
) -> Status {
    say_err!(printer, "{}", failed.message);
    if let Some(outcome) = &failed.outcome {
        let reply = agent_reply(outcome);
        let reply = match translated {
            Some(agent) => adapt_reply(agent, outcome, reply),
            None => reply,
        };
        if let Some(stdout) = &reply.stdout {
            printer.exact_line(&stdout.to_string());
        }
        if translated.is_some() && reply.exit_code == 0 {
            return Status::Success;
        }
    }
    if failed.blocks {
        Status::Block
    } else {
        Status::Success
    }
}

/// The status of a reply's exit code.
pub(crate) fn status(exit_code: u8) -> Status {
    match exit_code {
        0 => Status::Success,
        2 => Status::Block,
        code => Status::Code(code),
    }
}

#[cfg(test)]
mod tests;
