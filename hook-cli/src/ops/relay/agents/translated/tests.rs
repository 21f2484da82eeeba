//! The translation tables both ways, the events of the real agents (as Qwen Code 0.24.4 and
//! Gemini CLI 0.61.0 sent them, trimmed) read as Claude Code's, and the answers as they block.

use super::*;
use crate::ops::relay::agents::{TRANSLATED, translated};
use crate::ops::relay::agents::{gemini::GEMINI, qwen::QWEN};
use hook_protocol::Dialect;
use hook_protocol::write::agent_reply;

/// Gemini CLI 0.61.0's `BeforeTool` for a shell call.
const GEMINI_BEFORE_TOOL: &str = r#"{"session_id":"062d58c7","transcript_path":"/h/.gemini/tmp/proj/chats/s.jsonl","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-12-06T20:57:08.808Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}"#;

/// Qwen Code 0.24.4's `PreToolUse` for a shell call.
const QWEN_PRE_TOOL_USE: &str = r#"{"session_id":"e110d5d3","transcript_path":"/h/.qwen/projects/p/chats/e.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","timestamp":"2026-12-06T20:53:58.102Z","permission_mode":"yolo","prompt_id":"e110d5d3########0","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_1796590438102_8vtb564u3","tool_call_id":"toolu_01"}"#;

#[test]
fn every_table_maps_both_ways_one_to_one() {
    for agent in TRANSLATED {
        assert_eq!(translated(agent.name()).map(|t| t.title), Some(agent.title));
        for (its, claude) in agent.events {
            assert_eq!(agent.claude_event(its), Some(*claude), "{}", agent.title);
            assert_eq!(agent.agent_event(claude), Some(*its), "{}", agent.title);
            assert!(
                !matches!(Event::from_name(claude), Event::Other(_)),
                "{}: {claude} is not a Claude Code event",
                agent.title
            );
        }
        for (its, claude) in agent.tools {
            assert_eq!(agent.claude_tool(its), Some(*claude), "{}", agent.title);
            let claude_names = agent.tools.iter().filter(|(_, c)| c == claude).count();
            assert_eq!(claude_names, 1, "{}: {claude} twice", agent.title);
        }
    }
    assert_eq!(GEMINI.claude_event("BeforeTool"), Some("PreToolUse"));
    assert_eq!(GEMINI.claude_tool("run_shell_command"), Some("Bash"));
    assert_eq!(QWEN.claude_tool("edit"), Some("Edit"));
    assert_eq!(GEMINI.claude_tool("replace"), Some("Edit"));
    assert!(translated("QWEN-CODE").is_some());
    assert!(translated("claude").is_none());
}

#[test]
fn the_real_agents_events_read_as_claude_codes() {
    for (agent, sent, installed) in [
        (&GEMINI, GEMINI_BEFORE_TOOL, "BeforeTool"),
        (&QWEN, QWEN_PRE_TOOL_USE, "PreToolUse"),
    ] {
        let translated =
            translate_event(agent, Caller::Named, sent.as_bytes(), Some(installed)).expect("read");
        assert_eq!(translated.event, Event::PreToolUse, "{}", agent.title);
        let read = hook_protocol::input::read_agent_event(
            Dialect::Verboo,
            &translated.bytes,
            Some(&Event::PreToolUse),
        )
        .expect("Claude Code's event");
        assert!(
            read.tolerated.is_empty(),
            "{}: {:?}",
            agent.title,
            read.tolerated
        );
        let value: Value = serde_json::from_slice(&translated.bytes).expect("JSON");
        assert_eq!(value["tool_name"], "Bash");
        assert_eq!(value["agent_tool_name"], "run_shell_command");
        assert_eq!(value["tool_input"]["command"], "rm -rf /");
        assert_eq!(
            value["session_id"],
            serde_json::from_str::<Value>(sent).expect("JSON")["session_id"]
        );
    }
    // What Qwen Code sent is kept; only what Gemini CLI never sends is given empty.
    let qwen =
        translate_event(&QWEN, Caller::Named, QWEN_PRE_TOOL_USE.as_bytes(), None).expect("read");
    let qwen: Value = serde_json::from_slice(&qwen.bytes).expect("JSON");
    assert_eq!(qwen["tool_use_id"], "toolu_1796590438102_8vtb564u3");
    let gemini =
        translate_event(&GEMINI, Caller::Named, GEMINI_BEFORE_TOOL.as_bytes(), None).expect("read");
    let gemini: Value = serde_json::from_slice(&gemini.bytes).expect("JSON");
    assert_eq!(gemini["tool_use_id"], "");
}

#[test]
fn an_event_the_table_cannot_translate_is_an_error() {
    let table = [
        (
            &GEMINI,
            r#"{"hook_event_name":"BeforeModel","cwd":"/"}"#,
            None,
            "no Claude Code event",
        ),
        (
            &GEMINI,
            GEMINI_BEFORE_TOOL,
            Some("AfterTool"),
            "installed for AfterTool",
        ),
        (&GEMINI, r#"{"cwd":"/"}"#, None, "names no event"),
        (&QWEN, "[1]", None, "not a JSON object"),
        (&QWEN, "{", None, "not JSON"),
    ];
    for (agent, sent, installed, expected) in table {
        let error =
            translate_event(agent, Caller::Named, sent.as_bytes(), installed).expect_err(sent);
        assert!(format!("{error:#}").contains(expected), "{sent}: {error:#}");
    }
    // Without a name, the installed event.
    let named = translate_event(
        &GEMINI,
        Caller::Named,
        br#"{"cwd":"/","prompt":"p"}"#,
        Some("BeforeAgent"),
    )
    .expect("read");
    assert_eq!(named.event, Event::UserPromptSubmit);
}

/// An entry of Claude Code's that Gemini CLI runs after `gemini hooks migrate --from-claude`
/// (`--event PreToolUse`, Gemini's `BeforeTool` on stdin) is read as Claude Code's event; so
/// is Claude Code's own event, should its variable have been inherited.
#[test]
fn a_detected_caller_is_read_against_claude_codes_names() {
    let translated = translate_event(
        &GEMINI,
        Caller::Detected,
        GEMINI_BEFORE_TOOL.as_bytes(),
        Some("PreToolUse"),
    )
    .expect("read");
    assert_eq!(translated.event, Event::PreToolUse);
    let claude = QWEN_PRE_TOOL_USE.replace("run_shell_command", "Bash");
    let translated = translate_event(
        &GEMINI,
        Caller::Detected,
        claude.as_bytes(),
        Some("PreToolUse"),
    )
    .expect("read");
    assert_eq!(translated.event, Event::PreToolUse);
    let value: Value = serde_json::from_slice(&translated.bytes).expect("JSON");
    assert_eq!(value["tool_name"], "Bash");
    // Named, Claude Code's names are not Gemini CLI's.
    assert!(translate_event(&GEMINI, Caller::Named, claude.as_bytes(), None).is_err());
    // Detected, another event than the entry's is still refused.
    let error = translate_event(
        &GEMINI,
        Caller::Detected,
        GEMINI_BEFORE_TOOL.as_bytes(),
        Some("Stop"),
    )
    .expect_err("another event");
    assert!(
        format!("{error:#}").contains("installed for Stop"),
        "{error:#}"
    );
}

#[test]
fn a_block_is_written_so_that_it_blocks_in_the_agent() {
    for agent in TRANSLATED {
        for event in [Event::PreToolUse, Event::UserPromptSubmit] {
            let mut outcome = Outcome::new(Dialect::Verboo, event.clone());
            outcome.decision = Decision::Block;
            outcome.reason = Some("no rm -rf".to_owned());
            let reply = adapt_reply(agent, &outcome, agent_reply(&outcome, str::to_owned));
            assert_eq!(reply.exit_code, 0, "{}: {event}", agent.title);
            let stdout = reply.stdout.expect("stdout");
            match agent.answer {
                AnswerForm::Decision => {
                    assert_eq!(stdout["decision"], "block", "{}: {stdout}", agent.title);
                    assert_eq!(stdout["reason"], "no rm -rf");
                }
                AnswerForm::ClaudeDenial if event == Event::PreToolUse => {
                    let specific = &stdout["hookSpecificOutput"];
                    assert_eq!(specific["permissionDecision"], "deny", "{stdout}");
                    assert_eq!(specific["permissionDecisionReason"], "no rm -rf");
                }
                AnswerForm::ClaudeDenial => {
                    assert_eq!(stdout["decision"], "block", "{}: {stdout}", agent.title);
                }
            }
            if let Some(name) = stdout["hookSpecificOutput"]["hookEventName"].as_str() {
                assert_eq!(Some(name), agent.agent_event(event.as_str()));
            }
        }
    }
}

#[test]
fn an_allow_stays_an_allow() {
    for agent in TRANSLATED {
        let outcome = Outcome::new(Dialect::Verboo, Event::PreToolUse);
        let claude = agent_reply(&outcome, str::to_owned);
        let reply = adapt_reply(agent, &outcome, claude.clone());
        assert_eq!(reply.exit_code, 0);
        assert!(
            reply
                .stdout
                .as_ref()
                .is_none_or(|s| s.get("decision").is_none()),
            "{}: {:?}",
            agent.title,
            reply.stdout
        );
    }
}
