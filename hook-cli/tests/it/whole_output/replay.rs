//! `hook replay` on the recorded sessions of both agents (text and `--json`).

use std::path::{Path, PathBuf};

use super::{Scene, loose};

/// The p50 and p95 columns of the hooks table as `[MS]`.
fn ms(text: &str) -> String {
    let columns = regex::Regex::new(r"(?m)^(  \S+:\S+(?:  \d+){7})  \d+  \d+$").unwrap();
    columns.replace_all(text, "${1}  [MS]  [MS]").into_owned()
}

fn fixture(agent: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay")
        .join(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.remove(0)
}

#[test]
fn replay_both_agents() {
    let scene = Scene::new();
    let guard = "grep -q 'rm ' && { echo 'no rm here' >&2; exit 2; } || exit 0";
    scene.write(
        "guard.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": guard}]}]}})
        .to_string(),
    );
    scene.write(
        "guard.toml",
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
            serde_json::Value::from(guard)
        ),
    );
    let claude = fixture("claude");
    let codex = fixture("codex");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/replay");
    let canonical = fixtures.canonicalize().unwrap();
    let filter = |text: String| {
        text.replace(&*fixtures.to_string_lossy(), "[FIXTURES]")
            .replace(&*canonical.to_string_lossy(), "[FIXTURES]")
    };
    let root = scene.root.display().to_string();
    for (name, dialect, file, config) in [
        ("claude", "verboo", &claude, format!("{root}/guard.json")),
        ("codex", "lime", &codex, format!("{root}/guard.toml")),
    ] {
        let file = file.display().to_string();
        snap!(
            format!("replay_{name}"),
            ms(&loose(&filter(scene.run(
                &["replay", "--dialect", dialect, &file, "--config", &config],
                ""
            ))))
        );
        snap!(
            format!("replay_{name}_json"),
            filter(scene.run(
                &[
                    "replay",
                    "--dialect",
                    dialect,
                    &file,
                    "--config",
                    &config,
                    "--json"
                ],
                ""
            ))
        );
    }
    snap!(
        "replay_claude_garbled_transcript",
        scene.run(
            &[
                "replay",
                "--dialect",
                "verboo",
                &scene
                    .write("bad.jsonl", "{\"type\": \n")
                    .display()
                    .to_string()
            ],
            ""
        )
    );
}

#[test]
fn replay_leaves_the_relays_entries_out() {
    let scene = Scene::new();
    // Claude Code's settings as `hook relay install` leaves them: the entries are named once,
    // never run.
    let entry = |event: &str, tail: &str| {
        format!(
            "hook relay --dialect verboo --event {event} --scope user{tail} # hook-relay-install"
        )
    };
    let settings = scene.write(
        "settings.json",
        &serde_json::json!({"hooks": {
            "SessionStart": [{"hooks": [{"type": "command",
                "command": entry("SessionStart", ""), "timeout": 5}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": entry("PreToolUse", " || exit 2"), "timeout": 605,
                "onFailure": "block"}]}]}})
        .to_string(),
    );
    let claude = fixture("claude");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/replay");
    let canonical = fixtures.canonicalize().unwrap();
    let filter = |text: String| {
        text.replace(&*fixtures.to_string_lossy(), "[FIXTURES]")
            .replace(&*canonical.to_string_lossy(), "[FIXTURES]")
    };
    snap!(
        "replay_claude_relay_entries",
        loose(&filter(scene.run(
            &[
                "replay",
                "--dialect",
                "verboo",
                &claude.display().to_string(),
                "--config",
                &settings.display().to_string(),
            ],
            ""
        )))
    );
}
