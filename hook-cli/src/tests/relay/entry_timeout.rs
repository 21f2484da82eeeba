//! The relay knows the timeout its agent entry gives it (`--entry-timeout`, which `hook relay
//! install` writes): a guard allowed to run longer is named once per session with the command
//! that fixes the entry, and a guard still running when the agent would stop the relay is cut
//! off by the relay itself, which answers a block where the event can block (the agent reads a
//! relay it stops as "go ahead"). Both agents, in-process.

use hook_test_support::Output;
use hook_test_support::Scene;
use std::path::Path;

use hook_protocol::{Dialect, Event};
use serde_json::Value;

use super::super::{output_bytes, text};
use super::{agent_reads, event_bytes, is_block, lime, system_message, trust_lime_relay, verboo};

/// A relay home whose user relay file has one PreToolUse guard on Bash: `command`, `timeout`.
fn home_with_guard(
    dir: &Path,
    dialect: Dialect,
    command: &str,
    timeout: u64,
) -> std::path::PathBuf {
    let home = dir.join(format!("home-{dialect}-{timeout}"));
    std::fs::create_dir_all(home.join("hook-relay")).unwrap();
    if dialect == verboo() {
        let file = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command, "timeout": timeout}]}]}});
        std::fs::write(home.join("hook-relay/settings.json"), file.to_string()).unwrap();
    } else {
        let file = format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\ntimeout = {timeout}\n",
            Value::from(command)
        );
        std::fs::write(home.join("hook-relay/config.toml"), file).unwrap();
        trust_lime_relay(&home);
    }
    home
}

/// The relay as an entry with `--entry-timeout` runs it.
fn relay_with_entry_timeout(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    entry_timeout: u64,
    session: &str,
) -> Output {
    let mut event: Value =
        serde_json::from_slice(&event_bytes(dialect, &Event::PreToolUse, project, None)).unwrap();
    event["session_id"] = session.into();
    let (d, h, p) = (
        dialect.to_string(),
        home.display().to_string(),
        project.display().to_string(),
    );
    let timeout = entry_timeout.to_string();
    let args = [
        "relay",
        "--dialect",
        &d,
        "--event",
        "PreToolUse",
        "--home",
        &h,
        "--project",
        &p,
        "--entry-timeout",
        &timeout,
    ];
    output_bytes(&args, event.to_string().as_bytes())
}

#[test]
fn a_guard_longer_than_its_entry_is_named_once_and_cut_off_before_the_agent_stops_the_relay() {
    let scene = Scene::new();
    let project = scene.project();
    for dialect in [verboo(), lime()] {
        // A quick guard whose timeout (300 s) the entry (15 s) does not cover.
        let home = home_with_guard(scene.root(), dialect, "exit 0", 300);
        let out = relay_with_entry_timeout(dialect, &home, &project, 15, "s1");
        let message = system_message(&out);
        assert!(
            message.contains("may run for 300 s")
                && message.contains("gives the relay 15 s")
                && message.contains("hook relay sync --dialect"),
            "{dialect}: {message:?} {}",
            text(&out.stderr)
        );
        assert!(!is_block(&agent_reads(dialect, &Event::PreToolUse, &out)));
        let again = relay_with_entry_timeout(dialect, &home, &project, 15, "s1");
        assert!(!system_message(&again).contains("may run for"), "{dialect}");
        // An entry that covers it: nothing said.
        let covered = relay_with_entry_timeout(dialect, &home, &project, 305, "s2");
        assert!(
            !system_message(&covered).contains("may run for"),
            "{dialect}"
        );

        // A guard still running when the entry's time is nearly out: the relay answers first,
        // with a block (the guard's own 60 s would have outlasted the agent's 2 s).
        let slow = home_with_guard(scene.root(), dialect, "sleep 60", 60);
        let out = relay_with_entry_timeout(dialect, &slow, &project, 2, "s3");
        let read = agent_reads(dialect, &Event::PreToolUse, &out);
        assert!(is_block(&read), "{dialect}: {read:?} {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("still running"),
            "{dialect}: {}",
            text(&out.stderr)
        );
    }
}
