//! `hook replay` on a generated history of 10,000 tool calls (100 sessions of 100 Bash calls,
//! each with a prompt, a 1.5 KB result and an answer), in both agents' formats.
//!
//! - *parse*: `hook replay --dry-run` (read, parse, rebuild every event; no hook), in MB/s;
//! - *one command hook*: `hook replay --events PreToolUse` with one `exit 0` command hook on
//!   `Bash`, in events/s, with `--jobs 1` and `--jobs 4`;
//! - *engine*: the same 10,000 PreToolUse events dispatched one after another through
//!   `hook_exec::Engine` in this process (its defaults), the baseline the replay's rate is
//!   compared with.
//!
//! Whole processes, timed as the median of three runs each (a criterion sample of 10 would
//! take minutes per figure: each command-hook run starts 10,000 shells).
//!
//! Run: `cargo bench -p hook-cli --bench replay`.

#![allow(missing_docs)]
// The figures are a bench's output.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use hook_config::{Environment, LoadOptions, load};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::Dialect;
use hook_protocol::input::input_from_value;
use serde_json::json;

const SESSIONS: usize = 100;
const CALLS: usize = 100;

fn output_text(n: usize) -> String {
    let line = format!("drwxr-xr-x  2 dev dev 4096 Dec  3 19:17 directory-number-{n:05}\n");
    line.repeat(1500 / line.len() + 1)
}

/// Claude Code transcripts; returns their total size.
fn claude_history(dir: &Path) -> u64 {
    std::fs::create_dir_all(dir).unwrap();
    let mut total = 0;
    for s in 0..SESSIONS {
        let session = format!("00000000-0000-4000-8000-{s:012}");
        let mut text = String::new();
        let entry = |value: serde_json::Value| format!("{value}\n");
        text += &entry(
            json!({"type": "user", "message": {"role": "user", "content": "Go."},
            "timestamp": "2026-12-03T10:00:00.000Z", "permissionMode": "default",
            "cwd": "/nowhere", "sessionId": session, "version": "2.1.197"}),
        );
        for c in 0..CALLS {
            let id = format!("toolu_{s:03}_{c:03}");
            text += &entry(json!({"type": "assistant", "message": {"role": "assistant",
                "content": [{"type": "tool_use", "id": id, "name": "Bash",
                "input": {"command": format!("ls -la dir{c}"), "description": "list"}}]},
                "timestamp": "2026-12-03T10:00:01.000Z", "cwd": "/nowhere", "sessionId": session}));
            let out = output_text(c);
            text += &entry(json!({"type": "user", "message": {"role": "user",
                "content": [{"tool_use_id": id, "type": "tool_result", "content": out, "is_error": false}]},
                "toolUseResult": {"stdout": out, "stderr": "", "interrupted": false, "isImage": false},
                "timestamp": "2026-12-03T10:00:02.000Z", "cwd": "/nowhere", "sessionId": session}));
        }
        text += &entry(json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "text", "text": "Done."}]},
            "timestamp": "2026-12-03T10:00:03.000Z", "cwd": "/nowhere", "sessionId": session}));
        total += text.len() as u64;
        std::fs::write(dir.join(format!("{session}.jsonl")), text).unwrap();
    }
    total
}

/// Codex rollouts; returns their total size.
fn codex_history(dir: &Path) -> u64 {
    std::fs::create_dir_all(dir).unwrap();
    let mut total = 0;
    for s in 0..SESSIONS {
        let session = format!("01a23d57-0000-7000-8000-{s:012}");
        let turn = format!("01a23d57-1111-7000-8000-{s:012}");
        let time = "2026-12-03T10:00:00.000Z";
        let entry = |kind: &str, payload: serde_json::Value| {
            format!(
                "{}\n",
                json!({"timestamp": time, "type": kind, "payload": payload})
            )
        };
        let mut text = entry(
            "session_meta",
            json!({"id": session, "cwd": "/nowhere", "cli_version": "0.169.1"}),
        );
        text += &entry(
            "turn_context",
            json!({"turn_id": turn, "cwd": "/nowhere", "approval_policy": "on-request",
            "model": "gpt-5.1-codex"}),
        );
        text += &entry(
            "event_msg",
            json!({"type": "item_completed", "turn_id": turn,
            "item": {"type": "UserMessage", "content": [{"type": "text", "text": "Go."}]}}),
        );
        for c in 0..CALLS {
            let id = format!("call-{c}");
            let out = output_text(c);
            text += &entry(
                "response_item",
                json!({"type": "function_call", "name": "exec_command",
                "arguments": json!({"cmd": format!("ls -la dir{c}")}).to_string(), "call_id": id}),
            );
            text += &entry(
                "event_msg",
                json!({"type": "item_completed", "item": {"type": "CommandExecution",
                "id": id, "aggregated_output": out, "exit_code": 0}}),
            );
            text += &entry(
                "response_item",
                json!({"type": "function_call_output", "call_id": id,
                "output": format!("Process exited with code 0\nOutput:\n{out}")}),
            );
        }
        text += &entry(
            "event_msg",
            json!({"type": "task_complete", "turn_id": turn, "last_agent_message": "Done."}),
        );
        total += text.len() as u64;
        std::fs::write(dir.join(format!("rollout-{s:03}.jsonl")), text).unwrap();
    }
    total
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time_replay(project: &Path, args: &[&str]) -> Duration {
    let samples = (0..3)
        .map(|_| {
            let started = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_hook"))
                .arg("replay")
                .args(args)
                .arg("--project")
                .arg(project)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            started.elapsed()
        })
        .collect();
    median(samples)
}

fn engine_rate(home: &Path, project: &Path) -> f64 {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let loaded = load(
        &LoadOptions::new(Dialect::Verboo, Environment::empty())
            .without_managed()
            .with_home(home)
            .with_project(project),
    )
    .unwrap();
    // The engine's defaults: hooks spawned with `posix_spawn`. (`hook run` and `hook replay`
    // also kill hooks with their parent, Linux `PR_SET_PDEATHSIG`, which makes each spawn a
    // fork and exec, slower in a large process such as this bench: the bare engine is the
    // harder baseline.)
    let engine = Engine::new(loaded.registry)
        .with_options(EngineOptions::default())
        .with_gate(hook_config::AllowAll);
    let inputs: Vec<_> = (0..SESSIONS * CALLS)
        .map(|n| {
            input_from_value(
                Dialect::Verboo,
                json!({"hook_event_name": "PreToolUse", "session_id": "s",
                    "transcript_path": "/t.jsonl", "cwd": project, "permission_mode": "default",
                    "tool_name": "Bash", "tool_input": {"command": format!("ls -la dir{n}")},
                    "tool_use_id": format!("toolu_{n}")}),
            )
            .unwrap()
        })
        .collect();
    let started = Instant::now();
    runtime.block_on(async {
        for input in &inputs {
            let outcome = engine.dispatch(input).await;
            assert_eq!(outcome.runs.len(), 1);
        }
    });
    inputs.len() as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    // `cargo bench` passes `--bench`; this bench takes no other argument.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let project = root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let claude_bytes = claude_history(&root.join("claude"));
    let codex_bytes = codex_history(&root.join("codex"));
    let calls = SESSIONS * CALLS;
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let config = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "exit 0"}]}]}})
    .to_string();
    std::fs::write(home.join("settings.json"), &config).unwrap();
    let config_file = root.join("guard.json");
    std::fs::write(&config_file, &config).unwrap();
    let claude = root.join("claude");
    let codex = root.join("codex");
    let mb = |bytes: u64, took: Duration| bytes as f64 / 1e6 / took.as_secs_f64();

    println!(
        "history: {calls} tool calls in {SESSIONS} sessions; Claude Code {:.1} MB, Codex {:.1} MB",
        claude_bytes as f64 / 1e6,
        codex_bytes as f64 / 1e6
    );
    let took = time_replay(
        &project,
        &["--dialect", "verboo", "--dry-run", claude.to_str().unwrap()],
    );
    println!(
        "parse (dry run), Claude Code: {:.0} ms, {:.0} MB/s",
        took.as_secs_f64() * 1e3,
        mb(claude_bytes, took)
    );
    let took = time_replay(
        &project,
        &["--dialect", "lime", "--dry-run", codex.to_str().unwrap()],
    );
    println!(
        "parse (dry run), Codex:       {:.0} ms, {:.0} MB/s",
        took.as_secs_f64() * 1e3,
        mb(codex_bytes, took)
    );
    let engine = engine_rate(&home, &project);
    println!("engine, one command hook, one event after another: {engine:.0} events/s");
    for jobs in ["1", "2", "4"] {
        let took = time_replay(
            &project,
            &[
                "--dialect",
                "verboo",
                "--config",
                config_file.to_str().unwrap(),
                "--events",
                "PreToolUse",
                "--jobs",
                jobs,
                claude.to_str().unwrap(),
            ],
        );
        let rate = calls as f64 / took.as_secs_f64();
        println!(
            "replay, one command hook, --jobs {jobs}: {:.2} s, {rate:.0} events/s ({:.2} x the engine)",
            took.as_secs_f64(),
            rate / engine
        );
    }
}
