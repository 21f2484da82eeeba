//! A fuzz run over `hook relay`'s stdin: arbitrary bytes and mutated real events, each fed to
//! the real binary in front of a deny-all guard, on events that can block in both agents.
//! Whatever the bytes, the agent must read a block: the guard ran and denied, or the relay
//! could not evaluate the event and blocked. Never "go ahead".
//!
//! Bounded by time, not by a count: `HOOK_RELAY_FUZZ_SECONDS` (default 3; `.ci/run` gives it 10,
//! beside the other tests; longer runs by hand). A failure prints the input, as bytes, to replay.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_test_support::Scene;
use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use hook_protocol::input::example_input;
use hook_protocol::{Dialect, Event};
use hook_test_support::events::GUARD;
use hook_test_support::read::{agent_reads, is_block};
use hook_test_support::relay::{answer, guard};
use proptest::prelude::*;
use proptest::strategy::ValueTree as _;
use proptest::test_runner::{Config, TestRunner};
use serde_json::json;

use crate::cli::Binary;

/// Pieces that break readers: escapes, nesting, quotes, control characters.
const SNIPPETS: &[&str] = &[
    "\\ud800",
    "\\udc00",
    "\\ud83d\\ude00",
    "\\u0000",
    "\"",
    "\\",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "}",
    "]",
    ",",
    ":",
    "null",
    "1e999999",
    "\u{0}",
    "\u{7f}",
    "\u{202e}",
    "\"hook_event_name\":\"Stop\",",
];

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Flip(usize, u8),
    Insert(usize, usize),
    Delete(usize, usize),
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for mutation in mutations {
        let len = bytes.len().max(1);
        match *mutation {
            Mutation::Truncate(at) => bytes.truncate(at % len),
            Mutation::Flip(at, bits) => {
                if let Some(byte) = bytes.get_mut(at % len) {
                    *byte ^= bits;
                }
            }
            Mutation::Insert(at, which) => {
                let at = (at % len).min(bytes.len());
                let snippet = SNIPPETS[which % SNIPPETS.len()].as_bytes();
                bytes.splice(at..at, snippet.iter().copied());
            }
            Mutation::Delete(at, count) => {
                let at = (at % len).min(bytes.len());
                let end = (at + count % 16).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
    bytes
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1u8..).prop_map(|(at, bits)| Mutation::Flip(at, bits)),
        (any::<usize>(), any::<usize>()).prop_map(|(at, which)| Mutation::Insert(at, which)),
        (any::<usize>(), any::<usize>()).prop_map(|(at, count)| Mutation::Delete(at, count)),
    ]
}

/// One input: arbitrary bytes, or a real event of the case with a few mutations.
fn input(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..256),
        4 => proptest::collection::vec(mutation(), 0..4)
            .prop_map(move |mutations| mutate(base.clone(), &mutations)),
    ]
}

struct Case {
    dialect: Dialect,
    event: Event,
    home: std::path::PathBuf,
    base: Vec<u8>,
}

fn case(dir: &Path, project: &Path, dialect: Dialect, event: Event) -> Case {
    let home = dir.join(format!("home-{dialect}-{event}"));
    guard(&Binary, &home, dialect, std::slice::from_ref(&event), GUARD);
    let cwd = project.display().to_string();
    let mut value = example_input(dialect, &event, &cwd, Some("Bash")).unwrap();
    if let Some(tool_input) = value.get_mut("tool_input") {
        *tool_input = json!({"command": "rm -rf build", "description": "x\u{e9}"});
    }
    Case {
        dialect,
        event,
        home,
        base: value.to_string().into_bytes(),
    }
}

#[test]
fn no_input_turns_a_guards_deny_into_go_ahead() {
    let seconds: u64 = std::env::var("HOOK_RELAY_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let scene = Scene::new();
    let project = scene.project();
    let cases = [
        case(scene.root(), &project, Dialect::Verboo, Event::PreToolUse),
        case(
            scene.root(),
            &project,
            Dialect::Verboo,
            Event::UserPromptSubmit,
        ),
        case(
            scene.root(),
            &project,
            Dialect::Verboo,
            Event::PermissionRequest,
        ),
        case(scene.root(), &project, Dialect::Lime, Event::PreToolUse),
        case(
            scene.root(),
            &project,
            Dialect::Lime,
            Event::UserPromptSubmit,
        ),
    ];
    let strategies: Vec<_> = cases.iter().map(|c| input(c.base.clone())).collect();
    let mut runner = TestRunner::new(Config::default());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut runs = 0usize;
    let mut by_code = std::collections::BTreeMap::<i32, usize>::new();
    while Instant::now() < deadline {
        let which = runs % cases.len();
        let (case, strategy) = (&cases[which], &strategies[which]);
        let bytes = strategy.new_tree(&mut runner).unwrap().current();
        let out = answer(
            &Binary,
            case.dialect,
            &case.home,
            &project,
            &case.event,
            &bytes,
        );
        let blocked = is_block(&agent_reads(case.dialect, &case.event, &out));
        assert!(
            blocked,
            "{} {}: the agent would go ahead on input {:?}\n(as text: {})\nexit {:?}\nstdout {}\nstderr {}",
            case.dialect,
            case.event,
            bytes,
            String::from_utf8_lossy(&bytes),
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        *by_code.entry(out.status.code().unwrap_or(-1)).or_default() += 1;
        runs += 1;
    }
    // Shown with --nocapture, and in the note of a long run.
    let _ = writeln!(
        std::io::stderr(),
        "relay fuzz: {runs} inputs in {seconds} s, every one answered as a block (exit codes: {by_code:?})"
    );
    assert!(runs > 0);
}
