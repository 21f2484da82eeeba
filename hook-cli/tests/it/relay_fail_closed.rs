//! `hook relay` fails closed: on every event of Claude Code (verboo) and Codex (lime), an input
//! the relay cannot evaluate is answered as a block where the event can block, and an input the
//! agent really sends but the typed input refuses (a lone surrogate, deep nesting) is read, so
//! the guard's deny reaches the agent.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::ffi::OsStr;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hook_protocol::input::example_input;
use hook_protocol::{Decision, Dialect, Event, HandlerResult, interpret};
use serde_json::{Value, json};

use crate::cli::{hook, hook_bytes, text};

/// The guard every test puts in front of every event: deny, with a reason.
const GUARD: &str = "cat > /dev/null; echo 'denied by guard' >&2; exit 2";

/// A relay home for `dialect` whose user file denies every event the agent sends (trusted).
fn guarded_home(dir: &Path, dialect: Dialect, command: &str) -> PathBuf {
    let home = dir.join(format!("home-{dialect}"));
    let events = dialect.rules().relay().unwrap().events;
    let relay = home.join("hook-relay");
    std::fs::create_dir_all(&relay).unwrap();
    if dialect == Dialect::Verboo {
        let mut hooks = serde_json::Map::new();
        for event in events {
            hooks.insert(
                event.as_str().into(),
                json!([{"hooks": [{"type": "command", "command": command}]}]),
            );
        }
        let settings = json!({ "hooks": hooks }).to_string();
        std::fs::write(relay.join("settings.json"), settings).unwrap();
    } else {
        let mut toml = String::new();
        for event in events {
            toml.push_str(&format!(
                "[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {}\n",
                Value::from(command)
            ));
        }
        std::fs::write(relay.join("config.toml"), toml).unwrap();
        trust_lime_relay(&home);
    }
    home
}

/// Trusts every hook of the lime relay files of `home` (lime trusts only what the user
/// trusted, even in the user's own file).
pub(crate) fn trust_lime_relay(home: &Path) {
    let home = home.display().to_string();
    let out = hook(
        &[
            "trust",
            "--dialect",
            "lime",
            "--home",
            &home,
            "--relay",
            "--all",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// Runs the relay for `event` with `stdin` as raw bytes, as the agent's entry does.
pub(crate) fn relay(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
) -> Output {
    relay_env(dialect, home, project, event, stdin, &[])
}

/// [`relay`] with `env` set.
fn relay_env(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
    env: &[(&str, &OsStr)],
) -> Output {
    let dialect = dialect.to_string();
    let args: Vec<&OsStr> = vec![
        "relay".as_ref(),
        "--dialect".as_ref(),
        dialect.as_ref(),
        "--event".as_ref(),
        event.as_str().as_ref(),
        "--home".as_ref(),
        home.as_os_str(),
        "--project".as_ref(),
        project.as_os_str(),
    ];
    hook_bytes(&args, stdin, env)
}

/// What the agent makes of the relay's answer, as the dialect's reader (checked against the
/// real agents) reads it.
fn agent_reads(dialect: Dialect, event: &Event, out: &Output) -> HandlerResult {
    interpret(dialect, event, out.status.code(), &out.stdout, &out.stderr)
}

fn is_block(result: &HandlerResult) -> bool {
    matches!(result, HandlerResult::Response(r) if r.decision == Some(Decision::Block))
}

/// An event the agent could send: the smallest valid input, with `extra` spliced in as a raw
/// top-level field (so escapes serde_json would not write survive).
fn event_bytes(dialect: Dialect, event: &Event, project: &Path, extra: Option<&str>) -> Vec<u8> {
    let cwd = project.display().to_string();
    let mut value = example_input(dialect, event, &cwd, Some("Bash")).unwrap();
    if let Some(tool_input) = value.get_mut("tool_input") {
        *tool_input = json!({"command": "rm -rf build"});
    }
    let mut text = value.to_string();
    if let Some(extra) = extra {
        text.pop();
        text.push_str(&format!(",\"x\":{extra}}}"));
    }
    text.into_bytes()
}

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
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let mut checked = 0;
    let mut expected_checks = 0;
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let home = guarded_home(dir.path(), dialect, GUARD);
        let events = dialect.rules().relay().unwrap().events;
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
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let seen = dir.path().join("seen.json");
    let copy = format!("cat > '{}'", seen.display());
    let home = guarded_home(dir.path(), Dialect::Verboo, &copy);
    let event = Event::PreToolUse;
    let deep = format!("{}\"\\ud800\"{}", "[".repeat(300), "]".repeat(300));
    let bytes = event_bytes(Dialect::Verboo, &event, &project, Some(&deep));
    let out = relay(Dialect::Verboo, &home, &project, &event, &bytes);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&seen).unwrap(), bytes);
}

/// Waits (bounded: 30 s) until `path` exists.
fn wait_for(path: &Path) -> bool {
    for _ in 0..600 {
        if path.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

/// A verboo relay home whose user file holds `hooks` (verboo's user layer runs without trust).
fn verboo_home(dir: &Path, hooks: Value) -> PathBuf {
    let home = dir.join("home");
    std::fs::create_dir_all(home.join("hook-relay")).unwrap();
    let settings = json!({ "hooks": hooks }).to_string();
    std::fs::write(home.join("hook-relay/settings.json"), settings).unwrap();
    home
}

#[test]
fn the_answer_is_not_held_by_an_async_hook_beside_the_guard() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let go = dir.path().join("go");
    let done = dir.path().join("done");
    // The async hook waits for the test's go (at most its own timeout), then leaves a mark.
    let waiter = format!(
        "cat > /dev/null; while [ ! -e '{}' ]; do sleep 0.05; done; touch '{}'",
        go.display(),
        done.display()
    );
    let home = verboo_home(
        dir.path(),
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": GUARD},
            {"type": "command", "command": waiter, "async": true, "timeout": 60}]}]}),
    );
    let event = Event::PreToolUse;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    // The relay's output ends (its process and every pipe the agent reads) while the async
    // hook still waits: were it held, this would wait for the hook's 60 s timeout, and `done`
    // would never appear.
    let out = relay(Dialect::Verboo, &home, &project, &event, &bytes);
    assert!(!done.exists(), "the relay waited for the async hook");
    assert!(
        is_block(&agent_reads(Dialect::Verboo, &event, &out)),
        "{}",
        text(&out.stdout)
    );
    std::fs::write(&go, "").unwrap();
    assert!(wait_for(&done), "the async hook did not finish its work");
}

#[test]
fn environment_written_by_relay_hooks_reaches_the_agents_env_file() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = verboo_home(
        dir.path(),
        json!({"SessionStart": [{"hooks": [{"type": "command",
            "command": "echo 'export FROM_RELAY=1' >> \"$CLAUDE_ENV_FILE\""}]}]}),
    );
    let event = Event::SessionStart;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let agent_file = dir.path().join("agent-env.sh");
    std::fs::write(&agent_file, "export EARLIER=1").unwrap();
    let run = |env_file: Option<&Path>| {
        let env: Vec<(&str, &OsStr)> = env_file
            .map(|file| ("CLAUDE_ENV_FILE", file.as_os_str()))
            .into_iter()
            .collect();
        relay_env(Dialect::Verboo, &home, &project, &event, &bytes, &env)
    };
    let out = run(Some(&agent_file));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&agent_file).unwrap(),
        "export EARLIER=1\nexport FROM_RELAY=1\n"
    );
    // Without the agent's file, or through a symlink, nothing is lost silently.
    let out = run(None);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("was not kept"), "{message}");
    let link = dir.path().join("link.sh");
    std::os::unix::fs::symlink(&agent_file, &link).unwrap();
    let out = run(Some(&link));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("could not be added"), "{message}");
    assert_eq!(
        std::fs::read_to_string(&agent_file).unwrap(),
        "export EARLIER=1\nexport FROM_RELAY=1\n"
    );
}

#[test]
fn the_system_message_escapes_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let output = r#"{"systemMessage": "clean\u001b[2J\u001b[Hfake prompt\u202e"}"#;
    let home = verboo_home(
        dir.path(),
        json!({"SessionStart": [{"hooks": [{"type": "command",
            "command": format!("echo '{output}'")}]}]}),
    );
    let event = Event::SessionStart;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let out = relay(Dialect::Verboo, &home, &project, &event, &bytes);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    // (After the relay's own notes: no agent entry starts this test's relay.)
    let message = reply["systemMessage"].as_str().unwrap();
    assert_eq!(
        message.lines().last().unwrap(),
        "clean\\x1b[2J\\x1b[Hfake prompt\\u{202e}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_while_the_guard_runs_answers_block() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let started = dir.path().join("started");
    let slow = format!("touch '{}'; exec sleep 300", started.display());
    let home = verboo_home(
        dir.path(),
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": slow}]}]}),
    );
    let event = Event::PreToolUse;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args([
            "relay",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--home",
        ])
        .arg(&home)
        .arg("--project")
        .arg(&project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    assert!(wait_for(&started), "the guard never started");
    let status = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(is_block(&agent_reads(Dialect::Verboo, &event, &out)));
    assert!(
        text(&out.stderr).contains("SIGTERM"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn hook_run_reads_what_the_agents_send_too() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": GUARD}]}]}});
    std::fs::write(home.join("settings.json"), settings.to_string()).unwrap();
    let event = Event::PreToolUse;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, Some(r#""x\ud800""#));
    let input = dir.path().join("event.json");
    std::fs::write(&input, &bytes).unwrap();
    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    let input_arg = input.display().to_string();
    let out = hook(
        &[
            "run",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--home",
            &home_arg,
            "--project",
            &project_arg,
            "--input",
            &input_arg,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert!(text(&out.stderr).contains("lone surrogate"));
}

#[test]
fn session_start_announces_relay_hooks_that_will_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    // A project relay guard nobody trusted yet, on an event no agent entry starts the relay for.
    let relay_file = project.join(".claude/hook-relay/settings.json");
    std::fs::create_dir_all(relay_file.parent().unwrap()).unwrap();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": GUARD}]}]}});
    std::fs::write(&relay_file, guard.to_string()).unwrap();
    let home = verboo_home(dir.path(), json!({}));
    // Claude Code's own settings: the relay entry on SessionStart only.
    let claude = dir.path().join("claude");
    std::fs::create_dir_all(&claude).unwrap();
    let entry = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
        "command": "hook relay --dialect verboo --event SessionStart # hook-relay-install"}]}]}});
    std::fs::write(claude.join("settings.json"), entry.to_string()).unwrap();
    let event = Event::SessionStart;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let out = relay_env(
        Dialect::Verboo,
        &home,
        &project,
        &event,
        &bytes,
        &[("CLAUDE_CONFIG_DIR", claude.as_os_str())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    let first = message.lines().next().unwrap();
    assert!(
        first.contains("will not run until you trust them") && first.contains("PreToolUse"),
        "{message}"
    );
    assert!(
        message.contains("no PreToolUse entry starts the relay"),
        "{message}"
    );
    assert!(
        message.contains("hook relay sync --dialect verboo"),
        "{message}"
    );
}

/// An event a newer agent sends and this engine does not know: its relay hooks still run, and
/// a hook that blocks it (exit 2, or a block in any known JSON shape) makes the relay answer
/// exit 2 with the reason, never "nothing"; a hook that does not block lets it go, saying the
/// event is unknown.
#[test]
fn a_made_up_event_is_blocked_when_a_relay_hook_blocks_it() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let event = Event::from_name("PreTeleport");
    let cwd = project.display().to_string();
    let input = json!({"hook_event_name": "PreTeleport", "session_id": "s", "cwd": cwd,
        "transcript_path": "/dev/null", "destination": "mars"});
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "exit 2",
            "cat > /dev/null; echo 'not to mars' >&2; exit 2",
            Some("not to mars"),
        ),
        (
            "decision block",
            r#"cat > /dev/null; echo '{"decision":"block","reason":"not to mars"}'"#,
            Some("not to mars"),
        ),
        (
            "permissionDecision deny",
            r#"cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreTeleport","permissionDecision":"deny","permissionDecisionReason":"not to mars"}}'"#,
            Some("not to mars"),
        ),
        (
            "decision.behavior deny",
            r#"cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreTeleport","decision":{"behavior":"deny","message":"not to mars"}}}'"#,
            Some("not to mars"),
        ),
        ("exit 0", "cat > /dev/null; exit 0", None),
        ("exit 1", "cat > /dev/null; echo oops >&2; exit 1", None),
    ];
    for (name, command, blocks) in cases {
        let home = dir.path().join(format!("home-{}", name.replace(' ', "-")));
        std::fs::create_dir_all(home.join("hook-relay")).unwrap();
        let settings = json!({"hooks": {"PreTeleport": [{"hooks": [
            {"type": "command", "command": command}]}]}});
        std::fs::write(home.join("hook-relay/settings.json"), settings.to_string()).unwrap();
        let out = relay(
            Dialect::Verboo,
            &home,
            &project,
            &event,
            input.to_string().as_bytes(),
        );
        let what = format!(
            "{name}: exit {:?}\nstdout {}\nstderr {}",
            out.status.code(),
            text(&out.stdout),
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains("PreTeleport is an event hook"), "{what}");
        match blocks {
            Some(reason) => {
                assert_eq!(out.status.code(), Some(2), "{what}");
                let at = stderr.find(&format!("hook relay: {reason}")).expect(&what);
                assert!(
                    at < stderr.find("PreTeleport is an event").unwrap(),
                    "{what}"
                );
                assert!(out.stdout.is_empty(), "{what}");
            }
            None => {
                assert_eq!(out.status.code(), Some(0), "{what}");
                let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
                let message = stdout["systemMessage"].as_str().unwrap_or_default();
                assert!(message.contains("does not know"), "{what}");
            }
        }
    }
}

/// An entry whose `--event` is a typo (`pretooluse`) and the `PreToolUse` event it receives
/// disagree: the relay answers as the event that can block, a block with the reason.
#[test]
fn an_entry_whose_event_is_a_typo_blocks_a_pre_tool_use() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = verboo_home(
        dir.path(),
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "cat > /dev/null"}]}]}),
    );
    let bytes = event_bytes(Dialect::Verboo, &Event::PreToolUse, &project, None);
    let out = relay(
        Dialect::Verboo,
        &home,
        &project,
        &Event::from_name("pretooluse"),
        &bytes,
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        is_block(&agent_reads(Dialect::Verboo, &Event::PreToolUse, &out)),
        "{stderr}"
    );
    assert!(stderr.contains("pretooluse"), "{stderr}");
    assert!(stderr.contains("PreToolUse"), "{stderr}");
}

/// `onFailure: "block"` on a relay hook (Claude Code's field; read in Codex relay files too):
/// a guard that is not trusted, or whose script is missing, blocks the event through the relay
/// of both agents, saying why; without it the event goes ahead.
#[test]
fn a_relay_guard_with_on_failure_block_blocks_when_it_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    // What the reason says to do: trust it (a skip), or make it run again (a failure).
    let trust = "review it, then run `hook trust --dialect";
    let run_again = "Make it run again";
    let cases = [
        // (dialect, onFailure, trusted, command, blocks, why, what to do)
        (
            Dialect::Lime,
            Some("block"),
            false,
            "true",
            true,
            "not trusted",
            trust,
        ),
        (
            Dialect::Lime,
            None,
            false,
            "true",
            false,
            "not trusted",
            trust,
        ),
        (
            Dialect::Verboo,
            Some("block"),
            false,
            "true",
            true,
            "not trusted",
            trust,
        ),
        (
            Dialect::Lime,
            Some("block"),
            true,
            "./missing-guard.sh",
            true,
            "missing-guard.sh",
            run_again,
        ),
        (
            Dialect::Verboo,
            Some("block"),
            true,
            "./missing-guard.sh",
            true,
            "missing-guard.sh",
            run_again,
        ),
        (
            Dialect::Verboo,
            None,
            true,
            "./missing-guard.sh",
            false,
            "missing-guard.sh",
            "",
        ),
    ];
    for (index, (dialect, on_failure, trusted, command, blocks, why, to_do)) in
        cases.into_iter().enumerate()
    {
        let home = dir.path().join(format!("home-{index}"));
        let project = dir.path().join(format!("project-{index}"));
        std::fs::create_dir_all(&project).unwrap();
        let files = home.join("hook-relay");
        std::fs::create_dir_all(&files).unwrap();
        let line = on_failure
            .map(|v| format!("onFailure = \"{v}\"\n"))
            .unwrap_or_default();
        if dialect == Dialect::Lime {
            std::fs::write(
                files.join("config.toml"),
                format!(
                    "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n{line}",
                    Value::from(command)
                ),
            )
            .unwrap();
            if trusted {
                trust_lime_relay(&home);
            }
        } else {
            let mut handler = json!({"type": "command", "command": command});
            if let Some(value) = on_failure {
                handler["onFailure"] = value.into();
            }
            let settings =
                json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
            // Claude Code's user relay file is trusted as written; a project's needs trust.
            let files = if trusted {
                files
            } else {
                project.join(".claude/hook-relay")
            };
            std::fs::create_dir_all(&files).unwrap();
            std::fs::write(files.join("settings.json"), settings.to_string()).unwrap();
        }
        let event = Event::PreToolUse;
        let bytes = event_bytes(dialect, &event, &project, None);
        let out = relay(dialect, &home, &project, &event, &bytes);
        let answer = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let what = format!(
            "{index}: {dialect} {on_failure:?} trusted {trusted}: exit {:?}\n{answer}",
            out.status.code()
        );
        let read = agent_reads(dialect, &event, &out);
        assert_eq!(is_block(&read), blocks, "{what}");
        assert!(answer.contains(why), "{what}");
        if blocks {
            // The reason the agent reads (and gives the model) says why and what to do.
            let HandlerResult::Response(response) = read else {
                panic!("{what}")
            };
            let reason = response.reason.unwrap_or_default();
            assert!(reason.contains("onFailure"), "{what}\nreason: {reason}");
            assert!(reason.contains(why), "{what}\nreason: {reason}");
            assert!(reason.contains(to_do), "{what}\nreason: {reason}");
        }
    }
}
