//! The writer, table-driven over dialects and answers.

use serde_json::{Map, Value, json};

use super::*;
use crate::{HandlerResult, Outcome, interpret};

/// What each answer of the table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Nothing,
    Allow,
    Ask,
    Defer,
    Block,
    Rewrite,
    RewriteAndAllow,
    Context,
    Stop,
    Message,
    Suppress,
}

const KINDS: [Kind; 11] = [
    Kind::Nothing,
    Kind::Allow,
    Kind::Ask,
    Kind::Defer,
    Kind::Block,
    Kind::Rewrite,
    Kind::RewriteAndAllow,
    Kind::Context,
    Kind::Stop,
    Kind::Message,
    Kind::Suppress,
];

fn rewritten() -> Map<String, Value> {
    let mut input = Map::new();
    input.insert("command".into(), json!("pnpm install"));
    input
}

fn answer(kind: Kind) -> Answer {
    let mut answer = Answer::default();
    match kind {
        Kind::Nothing => {}
        Kind::Allow => answer.decision = Some(Decision::Allow),
        Kind::Ask => answer.decision = Some(Decision::Ask),
        Kind::Defer => answer.decision = Some(Decision::Defer),
        Kind::Block => {
            answer.decision = Some(Decision::Block);
            answer.reason = Some("no".into());
        }
        Kind::Rewrite => answer.updated_input = Some(rewritten()),
        Kind::RewriteAndAllow => {
            answer.decision = Some(Decision::Allow);
            answer.updated_input = Some(rewritten());
        }
        Kind::Context => answer.additional_context = Some("ctx".into()),
        Kind::Stop => {
            answer.stop = true;
            answer.stop_reason = Some("enough".into());
        }
        Kind::Message => answer.system_message = Some("hi".into()),
        Kind::Suppress => answer.suppress_output = true,
    }
    answer
}

/// The exact output of each answer where the dialects differ, `Err` holding a piece of the
/// error's message.
#[test]
fn each_dialect_writes_each_answer_its_way() {
    use Dialect::{Lime, Verboo, Wuu};
    let pre = |specific: Value| {
        let mut tagged = json!({"hookEventName": "PreToolUse"});
        if let (Some(tagged), Value::Object(specific)) = (tagged.as_object_mut(), specific) {
            tagged.extend(specific);
        }
        json!({ "hookSpecificOutput": tagged })
    };
    let rewrite = json!({"command": "pnpm install"});
    let cases: Vec<(Dialect, Event, Kind, Result<Value, &str>)> = vec![
        (Wuu, Event::PreToolUse, Kind::Nothing, Ok(json!({}))),
        (Verboo, Event::PreToolUse, Kind::Nothing, Ok(json!({}))),
        (Lime, Event::PreToolUse, Kind::Nothing, Ok(json!({}))),
        (
            Wuu,
            Event::PreToolUse,
            Kind::Block,
            Ok(json!({"decision": "block", "reason": "no"})),
        ),
        (
            Verboo,
            Event::PreToolUse,
            Kind::Block,
            Ok(pre(
                json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
            )),
        ),
        (
            Lime,
            Event::PreToolUse,
            Kind::Block,
            Ok(pre(
                json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}),
            )),
        ),
        (Wuu, Event::PreToolUse, Kind::Allow, Ok(json!({}))),
        (
            Verboo,
            Event::PreToolUse,
            Kind::Allow,
            Ok(pre(json!({"permissionDecision": "allow"}))),
        ),
        // lime: an allow only carries a rewrite.
        (Lime, Event::PreToolUse, Kind::Allow, Ok(json!({}))),
        (
            Wuu,
            Event::PreToolUse,
            Kind::Ask,
            Err("wuu has no ask or defer"),
        ),
        (
            Verboo,
            Event::PreToolUse,
            Kind::Ask,
            Ok(pre(json!({"permissionDecision": "ask"}))),
        ),
        (Lime, Event::PreToolUse, Kind::Ask, Err("lime has no `ask`")),
        (
            Verboo,
            Event::PreToolUse,
            Kind::Defer,
            Ok(pre(json!({"permissionDecision": "defer"}))),
        ),
        (
            Lime,
            Event::PreToolUse,
            Kind::Defer,
            Err("lime has no `defer`"),
        ),
        (
            Wuu,
            Event::PreToolUse,
            Kind::Rewrite,
            Ok(json!({"updated_input": rewrite})),
        ),
        (
            Verboo,
            Event::PreToolUse,
            Kind::Rewrite,
            Ok(pre(json!({"updatedInput": rewrite}))),
        ),
        // lime: a rewrite is an allow.
        (
            Lime,
            Event::PreToolUse,
            Kind::Rewrite,
            Ok(pre(
                json!({"permissionDecision": "allow", "updatedInput": rewrite}),
            )),
        ),
        (
            Verboo,
            Event::PermissionRequest,
            Kind::Block,
            Ok(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "no"}}}),
            ),
        ),
        (
            Verboo,
            Event::PermissionRequest,
            Kind::RewriteAndAllow,
            Ok(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow", "updatedInput": rewrite}}}),
            ),
        ),
        (
            Lime,
            Event::PermissionRequest,
            Kind::RewriteAndAllow,
            Err("lime accepts no rewritten input on PermissionRequest"),
        ),
        (
            Verboo,
            Event::PermissionRequest,
            Kind::Rewrite,
            Err("goes with an allow"),
        ),
        (
            Wuu,
            Event::Stop,
            Kind::Block,
            Ok(json!({"decision": "block", "reason": "no"})),
        ),
        (
            Lime,
            Event::Stop,
            Kind::Block,
            Ok(json!({"decision": "block", "reason": "no"})),
        ),
        (
            Wuu,
            Event::PostToolUse,
            Kind::Context,
            Ok(json!({"additional_context": "ctx"})),
        ),
        (
            Lime,
            Event::PostToolUse,
            Kind::Context,
            Ok(
                json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                "additionalContext": "ctx"}}),
            ),
        ),
        (
            Wuu,
            Event::Stop,
            Kind::Context,
            Err("wuu takes no additional context on Stop (wuu: PostToolUse only)"),
        ),
        (
            Wuu,
            Event::Stop,
            Kind::Stop,
            Err("wuu has no \"stop the agent\""),
        ),
        (
            Verboo,
            Event::Stop,
            Kind::Stop,
            Ok(json!({"continue": false, "stopReason": "enough"})),
        ),
        (
            Lime,
            Event::PreToolUse,
            Kind::Stop,
            Err("lime takes no `continue: false` on tool calls"),
        ),
        (
            Wuu,
            Event::Stop,
            Kind::Message,
            Err("wuu has no system message"),
        ),
        (
            Lime,
            Event::Stop,
            Kind::Message,
            Ok(json!({"systemMessage": "hi"})),
        ),
        (
            Lime,
            Event::PostToolUse,
            Kind::Suppress,
            Err("lime takes no `suppressOutput`"),
        ),
        (
            Verboo,
            Event::PostToolUse,
            Kind::Suppress,
            Ok(json!({"suppressOutput": true})),
        ),
        (
            Verboo,
            Event::SessionStart,
            Kind::Rewrite,
            Err("rewritten on PreToolUse only"),
        ),
        (
            Verboo,
            Event::PostToolUse,
            Kind::Block,
            Ok(json!({"decision": "block", "reason": "no"})),
        ),
        (
            Wuu,
            Event::PostToolUse,
            Kind::Block,
            Err("PostToolUse cannot block in wuu"),
        ),
    ];
    for (dialect, event, kind, expected) in cases {
        let written = hook_output(dialect, &event, &answer(kind)).map(Value::Object);
        let what = format!("{dialect} {event} {kind:?}: {written:?}");
        match (&written, expected) {
            (Ok(out), Ok(expected)) => assert_eq!(*out, expected, "{what}"),
            (Err(error), Err(part)) => {
                assert_eq!(error.dialect, dialect);
                assert_eq!(error.event, event.as_str());
                assert!(error.message.contains(part), "{what}");
                assert!(
                    error.to_string().starts_with(&format!(
                        "the response cannot be written for {dialect} {event}: "
                    )),
                    "{what}"
                );
            }
            _ => panic!("{what}"),
        }
    }
}

/// Whatever a dialect writes, on every event it knows, its own reader reads back as the same
/// answer: the decision (an allow where the dialect writes nothing for it reads as none), the
/// rewrite, the context, the stop, and no warning.
#[test]
fn every_written_answer_reads_back_as_itself() {
    let mut written = 0;
    for dialect in Dialect::ALL {
        for event in dialect.events() {
            for kind in KINDS {
                let answer = answer(kind);
                let Ok(out) = hook_output(dialect, event, &answer) else {
                    continue;
                };
                written += 1;
                let stdout = Value::Object(out).to_string();
                let what = format!("{dialect} {event} {kind:?}: {stdout}");
                #[cfg(feature = "validate")]
                crate::validate_output(dialect, event, stdout.as_bytes())
                    .unwrap_or_else(|e| panic!("invalid: {e} ({what})"));
                let read = interpret(dialect, event, Some(0), stdout.as_bytes(), b"");
                let HandlerResult::Response(response) = read else {
                    panic!("not read back: {read:?} ({what})");
                };
                assert!(
                    response.warnings.is_empty(),
                    "{:?} ({what})",
                    response.warnings
                );
                match kind {
                    Kind::Block => assert_eq!(response.decision, Some(Decision::Block), "{what}"),
                    // Asking is what a `PermissionRequest` with no decision does.
                    Kind::Ask | Kind::Defer if *event == Event::PreToolUse => {
                        assert_eq!(response.decision, answer.decision, "{what}");
                    }
                    Kind::Nothing | Kind::Context | Kind::Message | Kind::Suppress => {
                        assert_eq!(response.decision, None, "{what}");
                    }
                    _ => {}
                }
                if kind == Kind::Block {
                    assert_eq!(response.reason.as_deref(), Some("no"), "{what}");
                }
                if matches!(kind, Kind::Rewrite | Kind::RewriteAndAllow) {
                    assert_eq!(
                        response.updated_input,
                        Some(Value::Object(rewritten())),
                        "{what}"
                    );
                }
                if kind == Kind::Context {
                    assert_eq!(
                        response.additional_context.as_deref(),
                        Some("ctx"),
                        "{what}"
                    );
                }
                if kind == Kind::Stop {
                    let stop = response.stop.as_ref().map(|s| s.reason.as_deref());
                    assert_eq!(stop, Some(Some("enough")), "{what}");
                }
            }
        }
    }
    assert!(written > 100, "{written}");
}

/// A blank reason is not written: a block says why anyway.
#[test]
fn a_block_without_a_reason_gets_one() {
    for dialect in Dialect::ALL {
        let mut answer = answer(Kind::Block);
        answer.reason = Some("  ".into());
        let out = hook_output(dialect, &Event::Stop, &answer).map(Value::Object);
        assert_eq!(
            out,
            Ok(json!({"decision": "block", "reason": "blocked by hook"})),
            "{dialect}"
        );
    }
}

#[test]
fn wuu_inputs_carry_a_tool_response_as_text() {
    for dialect in Dialect::ALL {
        let text = tool_response(dialect, json!("done"));
        assert_eq!(text, json!("done"), "{dialect}");
        let object = tool_response(dialect, json!({"ok": true}));
        let expected = if dialect.rules().write.tool_response_text {
            json!("{\"ok\":true}")
        } else {
            json!({"ok": true})
        };
        assert_eq!(object, expected, "{dialect}");
    }
    assert!(Dialect::Wuu.rules().write.tool_response_text);
}

/// The relay's reply, for each agent and a few outcomes: where the decision goes, and the exit
/// code that carries a block the agent does not read from JSON.
#[cfg(feature = "validate")]
#[test]
fn agent_replies_put_each_decision_where_the_agent_reads_it() {
    use crate::Outcome;
    let reply = |dialect: Dialect, event: Event, decision: Decision| {
        let mut outcome = Outcome::new(dialect, event);
        outcome.decision = decision;
        outcome.reason = Some("because".into());
        agent_reply(&outcome, str::to_owned)
    };
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let pre = reply(dialect, Event::PreToolUse, Decision::Block);
        assert_eq!(pre.exit_code, 0, "{dialect}");
        assert_eq!(
            pre.stdout,
            Some(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "because"}})),
            "{dialect}"
        );
        let stop = reply(dialect, Event::Stop, Decision::Block);
        assert_eq!(
            stop.stdout,
            Some(json!({"decision": "block", "reason": "because"})),
            "{dialect}"
        );
        let nothing = reply(dialect, Event::Stop, Decision::Continue);
        assert_eq!(nothing.stdout, None, "{dialect}");
        assert_eq!(nothing.exit_code, 0, "{dialect}");
    }
    // A message for the user goes through the caller's escaping.
    let mut outcome = Outcome::new(Dialect::Verboo, Event::Stop);
    outcome.system_messages.push("a\u{1b}b".into());
    let shown = agent_reply(&outcome, |line| line.replace('\u{1b}', "\\x1b"));
    assert_eq!(shown.stdout, Some(json!({"systemMessage": "a\\x1bb"})));
}

/// The fields the engine carries for Claude Code 2.1.332 reach its answer where the event's
/// output has them, and the reader takes them back; elsewhere they are said dropped.
#[test]
fn carried_fields_reach_the_agents_answer_where_the_event_has_them() {
    type Set = Box<dyn Fn(&mut Outcome)>;
    let cases: Vec<(Event, Set, &str, Value)> = vec![
        (
            Event::PostToolUse,
            Box::new(|o: &mut Outcome| o.classifier_context = Some("user said yes".into())),
            "/hookSpecificOutput/classifierContext",
            json!("user said yes"),
        ),
        (
            Event::UserPromptExpansion,
            Box::new(|o: &mut Outcome| o.suppress_original_prompt = true),
            "/hookSpecificOutput/suppressOriginalPrompt",
            json!(true),
        ),
        (
            Event::PreToolUse,
            Box::new(|o: &mut Outcome| {
                o.carried
                    .insert("permissionDisplay".into(), json!({"title": "t"}));
            }),
            "/hookSpecificOutput/permissionDisplay",
            json!({"title": "t"}),
        ),
        (
            Event::SessionStart,
            Box::new(|o: &mut Outcome| {
                o.carried
                    .insert("sessionTitle".into(), json!("fixing the build"));
            }),
            "/hookSpecificOutput/sessionTitle",
            json!("fixing the build"),
        ),
        (
            Event::Notification,
            Box::new(|o: &mut Outcome| {
                o.carried
                    .insert("terminalSequence".into(), json!("\u{1b}]9;done\u{7}"));
            }),
            "/terminalSequence",
            json!("\u{1b}]9;done\u{7}"),
        ),
    ];
    for (event, set, pointer, value) in cases {
        let mut outcome = Outcome::new(Dialect::Verboo, event.clone());
        set(&mut outcome);
        let reply = agent_reply(&outcome, str::to_owned);
        let stdout = reply.stdout.clone().unwrap_or_default();
        assert_eq!(stdout.pointer(pointer), Some(&value), "{event}: {stdout}");
        crate::validate_output(Dialect::Verboo, &event, stdout.to_string().as_bytes())
            .unwrap_or_else(|e| panic!("{event}: {e}"));
        let read = interpret(
            Dialect::Verboo,
            &event,
            Some(0),
            stdout.to_string().as_bytes(),
            b"",
        );
        assert!(
            matches!(read, HandlerResult::Response(_)),
            "{event}: {read:?}"
        );
    }
    // An event whose output has no such field: dropped, and said.
    let mut outcome = Outcome::new(Dialect::Verboo, Event::Stop);
    outcome.classifier_context = Some("x".into());
    let reply = agent_reply(&outcome, str::to_owned);
    assert!(
        reply.stderr.iter().any(|l| l.contains("classifierContext")),
        "{reply:?}"
    );
}

/// On an event the dialect does not know (a newer agent's), the relay still passes a hook's
/// `continue: false` and its message on, in both agents: every event of both agents takes the
/// common fields (`continue`, `stopReason`, `systemMessage`; Codex's published output schemas
/// have them on every event).
#[cfg(feature = "validate")]
#[test]
fn a_stop_on_an_event_the_dialect_does_not_know_reaches_the_agent() {
    use crate::Outcome;
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let mut outcome = Outcome::new(dialect, Event::from_name("PreModelRequest"));
        outcome.stop = true;
        outcome.stop_reason = Some("budget spent".into());
        outcome.system_messages.push("said".into());
        let reply = agent_reply(&outcome, str::to_owned);
        assert_eq!(reply.exit_code, 0, "{dialect}: {reply:?}");
        assert_eq!(
            reply.stdout,
            Some(json!({"continue": false, "stopReason": "budget spent", "systemMessage": "said"})),
            "{dialect}: {reply:?}"
        );
    }
}
