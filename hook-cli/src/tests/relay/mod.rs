//! `hook relay` answering an agent's event (in-process): the event on stdin, the agent's own
//! output on stdout. What needs the relay's own process (its async hooks' waiter, a signal,
//! `CLAUDE_ENV_FILE` and `CLAUDE_CONFIG_DIR` from the environment, `main.rs`'s fast path, the
//! installed entry run through a shell) is in `tests/it/`.

use std::path::{Path, PathBuf};
use std::process::Output;

use hook_protocol::input::example_input;
use hook_protocol::{Decision, Dialect, Event, HandlerResult, interpret};
use serde_json::{Value, json};

use super::{output, output_bytes, text};

mod answer;
mod cannot_run;
mod entry_timeout;
mod fail_closed;
mod personal;

/// Claude Code's dialect.
pub(super) fn verboo() -> Dialect {
    "verboo".parse().unwrap()
}

/// Codex's dialect.
pub(super) fn lime() -> Dialect {
    "lime".parse().unwrap()
}

/// The guard every test puts in front of every event: deny, with a reason.
pub(super) const GUARD: &str = "cat > /dev/null; echo 'denied by guard' >&2; exit 2";

/// A relay home for `dialect` whose user file denies every event the agent sends (trusted).
pub(super) fn guarded_home(dir: &Path, dialect: Dialect, command: &str) -> PathBuf {
    let home = dir.join(format!("home-{dialect}"));
    let events = dialect.rules().relay().unwrap().events;
    let relay = home.join("hook-relay");
    std::fs::create_dir_all(&relay).unwrap();
    if dialect == verboo() {
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
pub(super) fn trust_lime_relay(home: &Path) {
    let home = home.display().to_string();
    let out = output(
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

/// Runs the relay for `event` with `stdin` as raw bytes, as the agent's entry does (with
/// `--home` and `--project`).
pub(super) fn relay(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
) -> Output {
    let dialect = dialect.to_string();
    let (home, project) = (home.display().to_string(), project.display().to_string());
    let args = [
        "relay",
        "--dialect",
        &dialect,
        "--event",
        event.as_str(),
        "--home",
        &home,
        "--project",
        &project,
    ];
    output_bytes(&args, stdin)
}

/// What the agent makes of the relay's answer, as the dialect's reader (checked against the
/// real agents) reads it.
pub(super) fn agent_reads(dialect: Dialect, event: &Event, out: &Output) -> HandlerResult {
    interpret(dialect, event, out.status.code(), &out.stdout, &out.stderr)
}

pub(super) fn is_block(result: &HandlerResult) -> bool {
    matches!(result, HandlerResult::Response(r) if r.decision == Some(Decision::Block))
}

/// An event the agent could send: the smallest valid input, with `extra` spliced in as a raw
/// top-level field (so escapes serde_json would not write survive).
pub(super) fn event_bytes(
    dialect: Dialect,
    event: &Event,
    project: &Path,
    extra: Option<&str>,
) -> Vec<u8> {
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

/// A verboo relay home whose user file holds `hooks` (verboo's user layer runs without trust).
pub(super) fn verboo_home(dir: &Path, hooks: Value) -> PathBuf {
    let home = dir.join("home");
    std::fs::create_dir_all(home.join("hook-relay")).unwrap();
    let settings = json!({ "hooks": hooks }).to_string();
    std::fs::write(home.join("hook-relay/settings.json"), settings).unwrap();
    home
}

/// The `systemMessage` of the relay's answer on stdout, or "".
pub(super) fn system_message(out: &Output) -> String {
    serde_json::from_slice::<Value>(&out.stdout)
        .ok()
        .and_then(|v| v.get("systemMessage")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}
