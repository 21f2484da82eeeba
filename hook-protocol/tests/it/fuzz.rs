//! Fuzz drivers for the two parsers of hostile bytes in this crate: a hook's output (read by
//! `interpret` and `validate_output`) and an event's input (`parse_input`, `input_from_value`).
//!
//! Structure-aware: each case starts from a valid document (every example input of every
//! dialect and event, and outputs of every shape) and mutates it — byte flips, inserted,
//! deleted and duplicated spans, splices of two documents, a value replaced by arbitrary JSON
//! (deep nesting, huge numbers, long strings, odd Unicode) — or is raw bytes.
//!
//! The normal suite runs a short pass. A long run keeps generating for N seconds per driver:
//!
//! ```text
//! HOOK_FUZZ_SECONDS=600 cargo test --release -p hook-protocol --test it fuzz:: -- --nocapture --test-threads 1
//! ```
//!
//! Each driver then prints how many cases it ran. A failure prints the minimal input found.
// A fuzz driver reports what it did; a broken environment panics, like any test.
#![allow(clippy::print_stderr, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use hook_protocol::input::example_input;
use hook_protocol::input::{input_from_value, parse_input};
use hook_protocol::{Dialect, Event, interpret, validate_output};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};

/// Cases per driver in the normal suite.
const QUICK_CASES: u32 = 128;

/// Runs `test` on values of `strategy`: [`QUICK_CASES`] of them, or for `HOOK_FUZZ_SECONDS`.
fn fuzz<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let seconds = std::env::var("HOOK_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let Some(seconds) = seconds else {
        let mut runner = TestRunner::new(config(QUICK_CASES));
        if let Err(error) = runner.run(&strategy, &test) {
            panic!("{name}: {error}");
        }
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut cases: u64 = 0;
    while Instant::now() < deadline {
        // A fresh runner per batch: a new random seed each time.
        let mut runner = TestRunner::new(config(2_000));
        if let Err(error) = runner.run(&strategy, &test) {
            panic!("{name}: after {cases} cases: {error}");
        }
        cases += 2_000;
    }
    eprintln!("fuzz {name}: {cases} cases in {seconds} s, no failure");
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn events() -> Vec<Event> {
    let mut events = Event::KNOWN.to_vec();
    events.push(Event::from_name("SomethingNew"));
    events
}

/// Every example input of every dialect and event, as bytes.
fn input_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for dialect in Dialect::ALL {
        for event in dialect.events() {
            for tool in [None, Some("Bash"), Some("apply_patch"), Some("mcp__s__t")] {
                if let Some(value) = example_input(dialect, event, "/work/project", tool) {
                    seeds.push(serde_json::to_vec(&value).unwrap());
                }
            }
        }
    }
    seeds
}

/// Outputs of every shape the three dialects read.
fn output_seeds() -> Vec<Vec<u8>> {
    let values = [
        json!({}),
        json!({"decision": "block", "reason": "no"}),
        json!({"continue": false, "stopReason": "halt", "systemMessage": "m"}),
        json!({"decision": "approve"}),
        json!({"updated_input": {"command": "ls"}, "additional_context": "c"}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "r", "updatedInput": {"command": "ls"}}}),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
            "updatedInput": {"command": "ls", "timeout": 5}}}),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedInput": {}, "message": "m", "interrupt": true}}}),
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}}),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}}),
        json!({"ok": false, "reason": "model says no"}),
    ];
    let mut seeds: Vec<Vec<u8>> = values
        .iter()
        .map(|v| serde_json::to_vec(v).unwrap())
        .collect();
    seeds.push(b"plain text context\n".to_vec());
    seeds.push(b"{\"decision\":\"block\",\"reason\":\"x\"}\ntrailing".to_vec());
    seeds
}

/// One edit of a document.
#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        byte: u8,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    Delete {
        at: usize,
        len: usize,
    },
    Duplicate {
        at: usize,
        len: usize,
    },
    Splice {
        other: usize,
        at: usize,
    },
    /// Replace the value of one top-level key (or add one) with arbitrary JSON.
    Replace {
        key: usize,
        value: Value,
    },
}

/// JSON that stresses parsers: nesting, big and odd numbers, long and odd strings.
fn wild_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        Just(json!(u64::MAX)),
        ".{0,40}".prop_map(Value::String),
        "[\u{0}-\u{1f}\u{202e}\u{fffd}\u{10ffff}]{0,8}".prop_map(Value::String),
        (0usize..200_000).prop_map(|n| Value::String("x".repeat(n))),
    ];
    let nested = leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map("[a-zA-Z_]{0,12}", inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    prop_oneof![
        4 => nested,
        1 => (1usize..400).prop_map(|depth| {
            // Deeper than serde_json's own limit (128) on some cases.
            let mut value = json!("deep");
            for _ in 0..depth {
                value = json!([value]);
            }
            value
        }),
    ]
}

fn mutation(seeds: usize) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (
            any::<usize>(),
            proptest::collection::vec(any::<u8>(), 1..16)
        )
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<usize>(), 1usize..32).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        (0..seeds, any::<usize>()).prop_map(|(other, at)| Mutation::Splice { other, at }),
        (any::<usize>(), wild_json()).prop_map(|(key, value)| Mutation::Replace { key, value }),
    ]
}

/// A document: a mutated seed, or raw bytes.
fn document(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let count = seeds.len();
    let mutated = (0..count, proptest::collection::vec(mutation(count), 0..6)).prop_map(
        move |(seed, mutations)| {
            let mut bytes = seeds[seed].clone();
            for m in mutations {
                apply(&mut bytes, m, &seeds);
            }
            bytes
        },
    );
    prop_oneof![
        8 => mutated,
        1 => proptest::collection::vec(any::<u8>(), 0..256),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: Mutation, seeds: &[Vec<u8>]) {
    let at = |n: usize, len: usize| if len == 0 { 0 } else { n % (len + 1) };
    match mutation {
        Mutation::Flip { at: n, byte } => {
            if !bytes.is_empty() {
                let i = n % bytes.len();
                bytes[i] = byte;
            }
        }
        Mutation::Insert { at: n, bytes: new } => {
            let i = at(n, bytes.len());
            bytes.splice(i..i, new);
        }
        Mutation::Delete { at: n, len } => {
            let i = at(n, bytes.len());
            let end = (i + len).min(bytes.len());
            bytes.drain(i..end);
        }
        Mutation::Duplicate { at: n, len } => {
            let i = at(n, bytes.len());
            let end = (i + len).min(bytes.len());
            let span = bytes[i..end].to_vec();
            bytes.splice(i..i, span);
        }
        Mutation::Splice { other, at: n } => {
            let i = at(n, bytes.len());
            let tail = &seeds[other];
            let j = at(n, tail.len());
            bytes.truncate(i);
            bytes.extend_from_slice(&tail[j..]);
        }
        Mutation::Replace { key, value } => {
            let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(bytes) else {
                return;
            };
            let name = object
                .keys()
                .nth(key % (object.len() + 1))
                .cloned()
                .unwrap_or_else(|| "hookSpecificOutput".to_owned());
            object.insert(name, value);
            // serde_json refuses to write nothing here: the value came from JSON.
            if let Ok(text) = serde_json::to_vec(&Value::Object(object)) {
                *bytes = text;
            }
        }
    }
}

#[test]
fn fuzz_hook_output() {
    let events = events();
    fuzz(
        "hook output",
        (
            document(output_seeds()),
            proptest::collection::vec(any::<u8>(), 0..32),
            proptest::option::of(prop_oneof![Just(0), Just(1), Just(2), Just(3), -3i32..260]),
        ),
        |(stdout, stderr, exit)| {
            for dialect in Dialect::ALL {
                for event in &events {
                    let result = interpret(dialect, event, exit, &stdout, &stderr);
                    if let Some(response) = result.response()
                        && response.decision == Some(hook_protocol::Decision::Block)
                    {
                        prop_assert!(response.reason.as_deref().is_some_and(|r| !r.is_empty()));
                    }
                    let _ = validate_output(dialect, event, &stdout);
                }
            }
            Ok(())
        },
    );
}

#[test]
fn fuzz_event_input() {
    fuzz("event input", document(input_seeds()), |bytes| {
        for dialect in Dialect::ALL {
            let Ok(input) = parse_input(dialect, &bytes) else {
                continue;
            };
            // What was accepted reads back the same way from its own value.
            let value = input.to_value();
            prop_assert!(
                input_from_value(dialect, value.clone()).is_ok(),
                "{dialect}: accepted, but its value does not read back: {value}"
            );
        }
        Ok(())
    });
}
