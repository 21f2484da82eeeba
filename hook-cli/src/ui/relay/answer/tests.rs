//! The relay's replies, in-process: every outcome on every event of both agents is an output
//! the event's schema accepts and that the agent reads back as the same decision.

use super::*;
use hook_protocol::{
    Decision, Dialect, Event, HandlerResult, HandlerType, Layer, Run, RunStatus, SkipReason,
    Source, interpret,
};
use serde_json::{Value, json};

fn outcome(dialect: Dialect, event: &Event) -> Outcome {
    Outcome::new(dialect, event.clone())
}

/// Every relayed outcome, on every event of both agents, is an output the event's schema
/// accepts and that the dialect's reader (the engine's, checked against the real agents)
/// reads back as the same decision, rewrite, context and stop.
#[test]
fn every_reply_validates_and_reads_back_as_the_outcome() {
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        for event in dialect.events() {
            for decision in [
                Decision::Continue,
                Decision::Allow,
                Decision::Ask,
                Decision::Defer,
                Decision::Block,
            ] {
                for (rewrite, context, stop) in [
                    (false, false, false),
                    (true, false, false),
                    (false, true, false),
                    (false, false, true),
                    (true, true, true),
                ] {
                    let mut o = outcome(dialect, event);
                    o.decision = decision;
                    if decision != Decision::Continue {
                        o.reason = Some("because".into());
                    }
                    if rewrite {
                        o.updated_input = Some(json!({"command": "pnpm install"}));
                    }
                    if context {
                        o.additional_context = Some("ctx".into());
                    }
                    if stop {
                        o.stop = true;
                        o.stop_reason = Some("enough".into());
                    }
                    o.system_messages.push("note".into());
                    let mut skipped = Run::new(
                        "project:x:PreToolUse::0",
                        Source::new(Layer::Project),
                        HandlerType::Command,
                    );
                    skipped.status = RunStatus::Skipped;
                    skipped.skip_reason = Some(SkipReason::Untrusted);
                    skipped.error = Some("not trusted: run `hook trust`".into());
                    o.runs.push(skipped);
                    check(&o);
                }
            }
        }
    }
}

/// A blocked lime prompt's context goes to Codex beside the block (Codex keeps it for the
/// next turn); verboo's outcome has none to give.
#[test]
fn a_blocked_lime_prompt_hands_its_context_to_codex() {
    let mut o = outcome(Dialect::Lime, &Event::UserPromptSubmit);
    o.decision = Decision::Block;
    o.reason = Some("not now".into());
    o.additional_context = Some("ctx".into());
    let reply = agent_reply(&o);
    let stdout = reply.stdout.expect("a JSON reply");
    assert_eq!(stdout["decision"], "block", "{stdout}");
    assert_eq!(stdout["reason"], "not now");
    assert_eq!(stdout["hookSpecificOutput"]["additionalContext"], "ctx");
    let read = interpret(
        Dialect::Lime,
        &Event::UserPromptSubmit,
        Some(0),
        stdout.to_string().as_bytes(),
        b"",
    );
    let HandlerResult::Response(response) = read else {
        panic!("Codex would not read it: {read:?}")
    };
    assert_eq!(response.additional_context.as_deref(), Some("ctx"));
}

fn check(o: &Outcome) {
    let reply = agent_reply(o);
    let what = format!("{} {} {:?}: {reply:?}", o.dialect, o.event, o.decision);
    let message = reply
        .stdout
        .as_ref()
        .and_then(|out| out.get("systemMessage"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    assert!(
        reply.exit_code == 2 || message.contains("not trusted: run `hook trust`"),
        "skip not in systemMessage: {what}"
    );
    let stdout = reply
        .stdout
        .as_ref()
        .map(Value::to_string)
        .unwrap_or_default();
    if let Some(out) = &reply.stdout {
        hook_protocol::validate_output(o.dialect, &o.event, stdout.as_bytes())
            .unwrap_or_else(|e| panic!("invalid output {out}: {e} ({what})"));
    }
    let stderr = reply.stderr.join("\n");
    let read = interpret(
        o.dialect,
        &o.event,
        Some(i32::from(reply.exit_code)),
        stdout.as_bytes(),
        stderr.as_bytes(),
    );
    let HandlerResult::Response(response) = read else {
        if reply.exit_code == 2 {
            return; // an event where a block has no effect: the agent goes on
        }
        panic!("the agent would not read it: {read:?} ({what})");
    };
    let read_decision = response.decision.unwrap_or(Decision::Continue);
    // A skill's command cannot wait for approval: Claude Code reads `ask` and `defer` there
    // as a block.
    let waits = matches!(o.decision, Decision::Ask | Decision::Defer);
    if o.decision == Decision::Block || (o.event == Event::PreSkillShellCommand && waits) {
        assert_eq!(read_decision, Decision::Block, "{what}");
    } else if read_decision != Decision::Continue && !(o.stop && read_decision == Decision::Block) {
        // (Where `continue: false` is itself read as a block, the stop is what it says.)
        assert_eq!(read_decision, o.decision, "{what}");
    }
    if o.decision != Decision::Block && response.updated_input.is_some() {
        assert_eq!(response.updated_input, o.updated_input, "{what}");
    }
    if reply.exit_code == 0 && o.stop && response.stop.is_none() && read_decision != Decision::Block
    {
        assert!(
            stderr.contains("cannot stop")
                || stderr.contains("the stop was dropped")
                || stderr.contains("does not stop"),
            "stop dropped silently: {what}"
        );
    }
    if o.additional_context.is_some()
        && o.decision != Decision::Block
        && response.additional_context.is_none()
    {
        assert!(
            stderr.contains("context was dropped"),
            "context dropped silently: {what}"
        );
    }
}
