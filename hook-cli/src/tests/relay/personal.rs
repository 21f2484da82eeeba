//! A project's personal relay hooks (`.claude/hook-relay/settings.local.json`): installing
//! their entries into the shared `.claude/settings.json` warns and names the personal
//! `settings.local.json` instead; entries there reach them for `relay status` and `doctor`,
//! the fixes they name keep the entries there, and an uninstall of the other file says so.

use serde_json::Value;

use crate::tests::{hook, write};

/// A relay hook on `event` (tools `matcher`) that denies.
fn personal_relay_file(hooks: &[(&str, &str)]) -> String {
    let mut by_event = serde_json::Map::new();
    for (event, matcher) in hooks {
        by_event.insert(
            (*event).to_owned(),
            serde_json::json!([{"matcher": matcher, "hooks": [
                {"type": "command", "command": "echo 'mine alone' >&2; exit 2"}]}]),
        );
    }
    serde_json::json!({ "hooks": by_event }).to_string()
}

#[test]
fn personal_relay_hooks_warn_in_shared_settings_and_are_reached_from_personal_ones() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("app");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let relay_file = project.join(".claude/hook-relay/settings.local.json");
    write(&relay_file, &personal_relay_file(&[("PreToolUse", "Bash")]));
    let shared = project.join(".claude/settings.json");
    let personal = project.join(".claude/settings.local.json");
    let (project_arg, home_arg) = (project.display().to_string(), home.display().to_string());
    let personal_arg = personal.display().to_string();
    let at = |verb: &str, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["relay", verb, "--dialect", "verboo", "--project"]
            .iter()
            .map(ToString::to_string)
            .collect();
        args.extend([project_arg.clone(), "--home".into(), home_arg.clone()]);
        args.extend(extra.iter().map(ToString::to_string));
        args
    };
    let run = |args: &[String]| hook(&crate::tests::words(args), "");

    // Into the shared file, as before, with a warning that names the personal one.
    let ran = run(&at("install", &[]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(shared.exists() && !personal.exists());
    assert!(
        ran.stderr
            .contains("the project's relay hooks are all personal")
            && ran
                .stderr
                .contains(&format!("--agent-config {personal_arg}")),
        "{}",
        ran.stderr
    );
    // Taken out again: the personal hooks no longer run, and would run as Claude Code's own
    // from its personal file, not from the shared one the entries were in.
    let ran = run(&at("uninstall", &[]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(!shared.exists());
    assert!(
        ran.stderr.contains(&format!(
            "which no longer runs (the relay's entries are gone): move it into {personal_arg}, or"
        )),
        "{}",
        ran.stderr
    );

    // Into the personal file: no warning, and the hook is reached from there.
    let ran = run(&at("install", &["--agent-config", &personal_arg]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(personal.exists() && !shared.exists());
    assert!(!ran.stderr.contains("all personal"), "{}", ran.stderr);
    let status = || -> Value {
        let ran = hook(
            &[
                "relay",
                "status",
                "--agent",
                "claude",
                "--project",
                &project_arg,
                "--home",
                &home_arg,
                "--json",
            ],
            "",
        );
        serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.stdout))
    };
    let shown = status();
    let text = shown.to_string();
    let files = shown["agents"][0]["settings"].as_array().unwrap();
    let mine = files.iter().find(|f| f["scope"] == "personal").unwrap();
    assert_eq!(mine["path"], personal_arg.as_str(), "{text}");
    assert_eq!(mine["entries"].as_array().unwrap().len(), 2, "{text}");
    assert!(!text.contains("never runs"), "{text}");
    assert!(!text.contains("the relay is not installed"), "{text}");
    let doctor = hook(
        &[
            "doctor",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
            "--home",
            &home_arg,
        ],
        "",
    );
    let said = format!("{}{}", doctor.stdout, doctor.stderr);
    assert!(!said.contains("the relay is not installed"), "{said}");
    assert!(!said.contains("never runs"), "{said}");

    // A new personal hook: the fix named syncs the personal file, and running it reaches it.
    write(
        &relay_file,
        &personal_relay_file(&[("PreToolUse", "Bash"), ("PostToolUse", "Edit")]),
    );
    let text = status().to_string();
    let fix = format!(
        "hook relay sync --dialect verboo --project {project_arg} --agent-config {personal_arg}"
    );
    assert!(
        text.contains("no PostToolUse entry starts the relay"),
        "{text}"
    );
    assert!(text.contains(&fix), "{text}");
    let ran = run(&at("sync", &["--agent-config", &personal_arg]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(!shared.exists());
    assert!(!status().to_string().contains("never runs"));

    // Uninstall without `--agent-config` finds nothing in the shared file and says the
    // personal entries still run (not that the hooks no longer do); with it, they go.
    let ran = run(&at("uninstall", &[]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(personal.exists());
    assert!(
        ran.stderr.contains("still holds relay entries")
            && ran
                .stderr
                .contains(&format!("--agent-config {personal_arg}"))
            && !ran.stderr.contains("no longer run"),
        "{}",
        ran.stderr
    );
    let ran = run(&at("uninstall", &["--agent-config", &personal_arg]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(!personal.exists() && !shared.exists());
    assert!(
        ran.stderr.contains(&format!(
            "no longer run (the relay's entries are gone): move them into {personal_arg}, or"
        )),
        "{}",
        ran.stderr
    );

    // A shared relay hook beside them, uninstalled from the personal file: each relay file's
    // hooks are sent to the agent's file of their own reach.
    let shared_relay = project.join(".claude/hook-relay/settings.json");
    write(&shared_relay, &personal_relay_file(&[("Stop", "")]));
    let ran = run(&at("install", &["--agent-config", &personal_arg]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let ran = run(&at("uninstall", &["--agent-config", &personal_arg]));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let shared_arg = shared.display().to_string();
    for (relay, said) in [
        (
            &relay_file,
            format!(
                "2 relay hooks, which no longer run (the relay's entries are gone): move them into {personal_arg}, or"
            ),
        ),
        (
            &shared_relay,
            format!(
                "1 relay hook, which no longer runs (the relay's entries are gone): move it into {shared_arg}, or"
            ),
        ),
    ] {
        assert!(
            ran.stderr
                .contains(&format!("warning: {} still holds {said}", relay.display())),
            "{}",
            ran.stderr
        );
    }
}
