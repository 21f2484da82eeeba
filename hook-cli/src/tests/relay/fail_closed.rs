//! `hook relay` fails closed (in-process): on every event of Claude Code (verboo) and Codex
//! (lime), an input the relay cannot evaluate is answered as a block where the event can block,
//! and an input the agent really sends but the typed input refuses (a lone surrogate, deep
//! nesting) is read, so the guard's deny reaches the agent (and `hook run` reads it too).

use hook_test_support::Scene;
use std::path::Path;

use hook_protocol::{Dialect, Event};
use serde_json::{Value, json};

use super::super::{located, output, text, words};
use super::{
    GUARD, agent_reads, event_bytes, guarded_home, is_block, lime, relay, verboo, verboo_home,
};

/// One way an input can be hard to read.
struct Cause {
    name: &'static str,
    /// The agent's bytes for `event`.
    bytes: fn(Dialect, &Event, &Path) -> Vec<u8>,
    /// Whether the relay can still read it (the guard then runs and its deny must arrive).
    readable: bool,
}

const CAUSES: &[Cause] = &[
    Cause {
        name: "unreadable stdin",
        bytes: |_, _, _| b"\xff\xfe{ not json".to_vec(),
        readable: false,
    },
    Cause {
        name: "truncated JSON",
        bytes: |d, e, p| {
            let mut bytes = event_bytes(d, e, p, None);
            bytes.truncate(bytes.len() / 2);
            bytes
        },
        readable: false,
    },
    Cause {
        name: "missing cwd",
        bytes: |d, e, p| {
            let mut value: Value = serde_json::from_slice(&event_bytes(d, e, p, None)).unwrap();
            value.as_object_mut().unwrap().remove("cwd");
            value.to_string().into_bytes()
        },
        readable: false,
    },
    Cause {
        name: "a lone surrogate",
        bytes: |d, e, p| event_bytes(d, e, p, Some(r#""x\ud800""#)),
        readable: true,
    },
    Cause {
        name: "200-level nesting",
        bytes: |d, e, p| {
            let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
            event_bytes(d, e, p, Some(&deep))
        },
        readable: true,
    },
];

#[test]
fn every_event_of_both_agents_answers_block_when_it_cannot_be_evaluated() {
    let scene = Scene::new();
    let project = scene.project();
    let mut checked = 0;
    let mut expected_checks = 0;
    for dialect in [verboo(), lime()] {
        let home = guarded_home(scene.root(), dialect, GUARD);
        let events = dialect.rules().agent().relay().unwrap().events;
        expected_checks += events.len() * CAUSES.len();
        for event in events {
            let can_block = event.block_effect(dialect).can_block();
            for cause in CAUSES {
                let bytes = (cause.bytes)(dialect, event, &project);
                let out = relay(dialect, &home, &project, event, &bytes);
                let what = format!(
                    "{dialect} {event}, {}: exit {:?}\nstdout {}\nstderr {}",
                    cause.name,
                    out.status.code(),
                    text(&out.stdout),
                    text(&out.stderr)
                );
                let read = agent_reads(dialect, event, &out);
                let stderr = text(&out.stderr);
                if can_block {
                    assert!(is_block(&read), "not a block: {read:?}\n{what}");
                    if cause.readable {
                        // The guard ran; its deny arrives in the event's own form.
                        let answer = format!("{}{stderr}", text(&out.stdout));
                        assert!(answer.contains("denied by guard"), "{what}");
                    } else {
                        assert_eq!(out.status.code(), Some(2), "{what}");
                        assert!(stderr.contains("could not evaluate"), "{what}");
                    }
                } else {
                    assert_eq!(out.status.code(), Some(0), "{what}");
                    assert!(!is_block(&read), "{what}");
                    if !cause.readable {
                        assert!(stderr.contains("could not evaluate"), "{what}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, expected_checks);
    assert!(checked > 100, "both agents' events, every cause: {checked}");
}

#[test]
fn the_hooks_get_the_agents_bytes_as_sent() {
    let scene = Scene::new();
    let project = scene.project();
    let seen = scene.root().join("seen.json");
    let copy = format!("cat > '{}'", seen.display());
    let home = guarded_home(scene.root(), verboo(), &copy);
    let event = Event::PreToolUse;
    let deep = format!("{}\"\\ud800\"{}", "[".repeat(300), "]".repeat(300));
    let bytes = event_bytes(verboo(), &event, &project, Some(&deep));
    let out = relay(verboo(), &home, &project, &event, &bytes);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&seen).unwrap(), bytes);
}

#[test]
fn hook_run_reads_what_the_agents_send_too() {
    let scene = Scene::new();
    let project = scene.project();
    let home = scene.root().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": GUARD}]}]}});
    std::fs::write(home.join("settings.json"), settings.to_string()).unwrap();
    let event = Event::PreToolUse;
    let bytes = event_bytes(verboo(), &event, &project, Some(r#""x\ud800""#));
    let input = scene.root().join("event.json");
    std::fs::write(&input, &bytes).unwrap();
    let mut run = located("run", "verboo", &home, &project);
    run.extend(["--event", "PreToolUse", "--input"].map(str::to_owned));
    run.push(input.display().to_string());
    let out = output(&words(&run), "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert!(text(&out.stderr).contains("lone surrogate"));
}

/// An entry whose `--event` is a typo (`pretooluse`) and the `PreToolUse` event it receives
/// disagree: the relay answers as the event that can block, a block with the reason.
#[test]
fn an_entry_whose_event_is_a_typo_blocks_a_pre_tool_use() {
    let scene = Scene::new();
    let project = scene.project();
    let home = verboo_home(
        scene.root(),
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "cat > /dev/null"}]}]}),
    );
    let bytes = event_bytes(verboo(), &Event::PreToolUse, &project, None);
    let out = relay(
        verboo(),
        &home,
        &project,
        &Event::from_name("pretooluse"),
        &bytes,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        is_block(&agent_reads(verboo(), &Event::PreToolUse, &out)),
        "{stderr}"
    );
    assert!(stderr.contains("pretooluse"), "{stderr}");
    assert!(stderr.contains("PreToolUse"), "{stderr}");
}
