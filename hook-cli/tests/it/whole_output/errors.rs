//! What a user meets with a bad flag or a bad file, for every command: one clear message, the
//! exit code (2 for usage, 1 for the rest).

use super::Scene;

#[test]
fn bad_flags_and_values() {
    let scene = Scene::new();
    let table: &[(&str, &[&str])] = &[
        ("no_command", &[]),
        ("unknown_command", &["lsit"]),
        ("unknown_dialect", &["list", "--dialect", "claude"]),
        ("missing_dialect", &["list"]),
        (
            "run_unknown_event",
            &["run", "--dialect", "lime", "--event", "Notification"],
        ),
        (
            "run_missing_input_file",
            &[
                "run",
                "--dialect",
                "verboo",
                "--event",
                "Stop",
                "--input",
                "nope.json",
            ],
        ),
        ("trust_no_keys", &["trust", "--dialect", "verboo"]),
        (
            "stats_bad_since",
            &["stats", "--dialect", "verboo", "--since", "7 days"],
        ),
        (
            "log_bad_status",
            &["log", "--dialect", "verboo", "--status", "broken"],
        ),
        (
            "replay_missing_file",
            &["replay", "--dialect", "verboo", "nope.jsonl"],
        ),
        (
            "convert_same_dialect",
            &["convert", "--from", "lime", "--to", "lime", "x.toml"],
        ),
        ("new_bad_name", &["new", "Bad Name!"]),
        (
            "doctor_missing_project",
            &["doctor", "--dialect", "verboo", "--project", "nope"],
        ),
        (
            "test_no_command",
            &["test", "--dialect", "verboo", "--event", "Stop"],
        ),
    ];
    for (name, args) in table {
        snap!(format!("error_{name}"), scene.run(args, ""));
    }
}

#[test]
fn bad_files() {
    let scene = Scene::new();
    scene.write("home/.claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\",\n  \"hooks\": [{\"type\": \"command\"}]}]}}\n");
    scene.write("project/.claude/settings.json", "{\"hooks\": \n");
    snap!(
        "error_bad_files_list",
        scene.run(&["list", "--dialect", "verboo"], "")
    );
    scene.write("home/.codex/config.toml", "[[hooks.PreToolUse]]\nmatcher = \"(\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n");
    snap!(
        "error_bad_files_lime_list",
        scene.run(
            &["list", "--dialect", "lime", "--home", "../home/.codex"],
            ""
        )
    );
    snap!(
        "error_bad_files_run",
        scene.run(
            &["run", "--dialect", "verboo", "--event", "Stop"],
            "{\"hook_event_name\": \"Stop\"}"
        )
    );
}
