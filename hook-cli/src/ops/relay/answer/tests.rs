//! The relay's answer, in-process: failing closed, the dialects it speaks for, the flags its
//! messages suggest.

use super::complete::unknown_event_note;
use super::*;
use hook_protocol::Decision;

#[test]
fn an_event_that_cannot_be_evaluated_is_blocked_where_it_can_be() {
    // (dialect, event, blocks, stdout has an outcome)
    let table: &[(Dialect, Option<Event>, bool, bool)] = &[
        (Dialect::Verboo, None, true, false),
        (Dialect::Lime, None, true, false),
        (Dialect::Verboo, Some(Event::PreToolUse), true, true),
        (Dialect::Lime, Some(Event::PreToolUse), true, true),
        (Dialect::Verboo, Some(Event::Stop), true, true),
        (Dialect::Lime, Some(Event::Stop), true, true),
        (Dialect::Verboo, Some(Event::SessionStart), false, true),
        (Dialect::Lime, Some(Event::SessionStart), false, true),
    ];
    for (dialect, event, blocks, has_outcome) in table {
        let failed = fail_closed(*dialect, event.as_ref(), "broken");
        let what = format!("{dialect} {event:?}: {failed:?}");
        assert_eq!(failed.blocks, *blocks, "{what}");
        assert_eq!(failed.outcome.is_some(), *has_outcome, "{what}");
        assert!(failed.message.ends_with(": broken"), "{what}");
        if let Some(outcome) = &failed.outcome {
            if *blocks {
                assert_eq!(outcome.decision, Decision::Block, "{what}");
                assert_eq!(outcome.reason.as_deref(), Some(failed.message.as_str()));
            } else {
                assert_eq!(outcome.decision, Decision::Continue, "{what}");
                assert_eq!(outcome.system_messages, vec![failed.message.clone()]);
            }
        }
    }
}

#[test]
fn the_relay_speaks_for_claude_code_and_codex_only() {
    assert!(check_dialect(Dialect::Verboo).is_ok());
    assert!(check_dialect(Dialect::Lime).is_ok());
    let error = check_dialect(Dialect::Wuu).expect_err("wuu embeds the engine");
    assert!(
        error.to_string().contains("wuu agents embed the engine"),
        "{error}"
    );
}

#[test]
fn the_suggested_flags_are_quoted() {
    let location = Location {
        dialect: Dialect::Verboo,
        project: Some(PathBuf::from("/my project")),
        home: Some(PathBuf::from("/h")),
        relay: true,
    };
    assert_eq!(
        location.flags(),
        " --home /h --project '/my project' --relay"
    );
}

#[test]
fn a_newer_agents_event_is_said_with_this_version() {
    let note = unknown_event_note(&Event::from_name("FutureEvent"));
    assert!(
        note.starts_with("hook relay: FutureEvent is an event hook "),
        "{note}"
    );
    assert!(note.contains(env!("CARGO_PKG_VERSION")), "{note}");
}

fn options(dialect: Dialect, event: Option<Event>) -> AnswerOptions {
    AnswerOptions {
        dialect,
        translated: None,
        agent_event: None,
        event,
        project: None,
        home: None,
        scope: None,
        async_waiter: false,
        entry_timeout: None,
        claude_home: None,
    }
}

/// What the relay knows of the event when it cannot read it decides how it fails closed: the
/// entry's `--event`, else the event the input names when that one can block, else the name
/// read from JSON it cannot evaluate.
#[test]
fn an_unreadable_event_is_answered_as_the_event_that_can_block() {
    let cwd = std::env::temp_dir().display().to_string();
    let stop = serde_json::json!({"hook_event_name": "Stop", "session_id": "s", "cwd": cwd,
        "transcript_path": "/t", "stop_hook_active": false})
    .to_string();
    // (--event, stdin, what is known after, read)
    let table: Vec<(Option<Event>, String, Option<Event>, bool)> = vec![
        (None, "garbage".into(), None, false),
        (
            Some(Event::PreToolUse),
            "garbage".into(),
            Some(Event::PreToolUse),
            false,
        ),
        (
            None,
            r#"{"hook_event_name": "PreToolUse"}"#.into(),
            Some(Event::PreToolUse),
            false,
        ),
        // An entry installed for one event, an input naming another that can block: the
        // stricter one answers.
        (
            Some(Event::SessionStart),
            stop.clone(),
            Some(Event::Stop),
            false,
        ),
        (None, stop.clone(), Some(Event::Stop), true),
    ];
    for (expected, stdin, known_after, read) in table {
        let known = RefCell::new(expected.clone());
        let received = receive(
            &options(Dialect::Verboo, expected.clone()),
            stdin.clone().into_bytes(),
            &known,
        );
        assert_eq!(received.is_ok(), read, "{expected:?} {stdin}");
        assert_eq!(known.into_inner(), known_after, "{expected:?} {stdin}");
    }
}
