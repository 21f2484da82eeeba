//! Every misbehaving hook of the exec issue's "Bad input" list, as a real process, in all three
//! dialects, with the outcome each dialect demands, and no process left behind.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_config::{Environment, LoadOptions, load};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::input::parse_input;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus};
use serde_json::{Value, json};

/// The hostile hooks: a name, the shell command, and per dialect the run status and decision.
struct Hostile {
    name: &'static str,
    command: &'static str,
    /// wuu, verboo, lime.
    want: [(RunStatus, Decision); 3],
}

fn hostile() -> Vec<Hostile> {
    use Decision::{Block, Continue};
    use RunStatus::{Blocked, Failed, TimedOut};
    vec![
        Hostile {
            name: "prints garbage",
            command: "echo 'garbage {'",
            // verboo and lime (as Codex): text not starting with `{` is not JSON and is
            // ignored on PreToolUse; wuu wants JSON only.
            want: [
                (Failed, Continue),
                (RunStatus::Ok, Continue),
                (RunStatus::Ok, Continue),
            ],
        },
        Hostile {
            name: "prints JSON plus text",
            command: r#"echo '{"decision":"block","reason":"r"}'; echo 'and a log line'"#,
            want: [(Failed, Continue), (Failed, Continue), (Failed, Continue)],
        },
        Hostile {
            name: "prints 5 MiB",
            command: "head -c 5242880 /dev/zero | tr '\\0' 'x'",
            want: [(Failed, Continue), (Failed, Continue), (Failed, Continue)],
        },
        Hostile {
            name: "never exits",
            command: "sleep 300",
            want: [
                (TimedOut, Continue),
                (TimedOut, Continue),
                (TimedOut, Continue),
            ],
        },
        Hostile {
            name: "forks a grandchild that keeps the pipe open",
            command: "echo $$ > grandchild-parent; sh -c 'sleep 300' & exit 0",
            want: [
                (RunStatus::Ok, Continue),
                (RunStatus::Ok, Continue),
                (RunStatus::Ok, Continue),
            ],
        },
        Hostile {
            name: "exits 2 with {}",
            command: "echo '{}'; echo 'no' >&2; exit 2",
            want: [(Blocked, Block), (Blocked, Block), (Blocked, Block)],
        },
        Hostile {
            name: "exits 2 with empty stderr",
            command: "exit 2",
            // lime: no reason to give is a failure, not a block.
            want: [(Blocked, Block), (Blocked, Block), (Failed, Continue)],
        },
        Hostile {
            name: "emits non-UTF-8",
            command: r#"printf '{"decision":"bl\377ock"}'"#,
            // verboo reads it as JSON (it starts with `{`) and fails; nobody takes a decision.
            want: [(Failed, Continue), (Failed, Continue), (Failed, Continue)],
        },
        Hostile {
            name: "kills itself with a signal",
            command: "kill -9 $$",
            want: [(Failed, Continue), (Failed, Continue), (Failed, Continue)],
        },
    ]
}

fn config(dialect: Dialect, command: &str) -> (String, &'static str) {
    match dialect {
        Dialect::Wuu => (
            json!({"hooks": {"PreToolUse": [{"command": command, "timeout": 1}]}}).to_string(),
            "config.json",
        ),
        Dialect::Verboo => (
            json!({"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": command, "timeout": 1}]}]}})
            .to_string(),
            "settings.json",
        ),
        Dialect::Lime => {
            let mut table = toml_string(command);
            table.insert_str(0, "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ntimeout = 1\ncommand = ");
            table.push('\n');
            (table, "config.toml")
        }
    }
}

/// A TOML basic string (JSON's escaping is valid TOML for these commands).
fn toml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn dispatch(dialect: Dialect, command: &str, dir: &std::path::Path) -> Outcome {
    let (text, name) = config(dialect, command);
    let home = dir.join(format!("{dialect}-home"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join(name), text).unwrap();
    let env = Environment::empty();
    let loaded = load(
        &LoadOptions::new(dialect, env)
            .without_managed()
            .with_home(&home)
            .with_project(dir),
    )
    .unwrap();
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    // A grandchild holding the pipe is waited for briefly: 100 ms is enough to show it.
    let engine = Engine::new(loaded.registry)
        .with_gate(hook_exec::AllowAll)
        .with_options(
            EngineOptions::default().with_pipe_grace(std::time::Duration::from_millis(100)),
        );
    let mut event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": dir,
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    if dialect != Dialect::Wuu {
        event["tool_use_id"] = json!("c1");
    }
    if dialect == Dialect::Lime {
        event["transcript_path"] = Value::Null;
        event["model"] = json!("m");
        event["turn_id"] = json!("t");
    }
    let input = parse_input(dialect, event.to_string().as_bytes()).unwrap();
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

/// Whether a process runs (a zombie counts as gone), allowing for SIGKILL's asynchronous
/// delivery with a bounded wait (not a timing assertion).
fn survives(pid: u32) -> bool {
    for _ in 0..250 {
        let alive = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| {
                stat.rsplit(')')
                    .next()
                    .and_then(|s| s.trim_start().chars().next())
                    != Some('Z')
            })
            .unwrap_or(false);
        if !alive {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// Processes whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command: state ppid pgrp ...
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid)
            && fields.first() != Some(&"Z")
        {
            members.push(pid);
        }
    }
    members
}

#[test]
fn hostile_hooks_get_the_outcome_each_dialect_demands_and_leave_nothing_behind() {
    let mut failures = Vec::new();
    for case in hostile() {
        for (dialect, (status, decision)) in Dialect::ALL.into_iter().zip(case.want) {
            let dir = tempfile::tempdir().unwrap();
            let outcome = dispatch(dialect, case.command, dir.path());
            let got = (outcome.runs[0].status, outcome.decision);
            if got != (status, decision) {
                failures.push(format!(
                    "{dialect} / {}: wanted {:?}, got {:?} ({:?})",
                    case.name,
                    (status, decision),
                    got,
                    outcome.runs[0].error
                ));
            }
            // The hook's shell leads its own process group: after the run, nothing of it is left.
            if let Ok(pid) = std::fs::read_to_string(dir.path().join("grandchild-parent")) {
                let pgid: u32 = pid.trim().parse().unwrap();
                let left: Vec<u32> = group_members(pgid)
                    .into_iter()
                    .filter(|p| survives(*p))
                    .collect();
                if !left.is_empty() {
                    failures.push(format!(
                        "{dialect} / {}: processes {left:?} survived",
                        case.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
