//! `hook list` with a broken configuration: diagnostics with file:line:col on stderr, the other
//! files still listed, and `--strict` to make any diagnostic fail (in-process).

use hook_test_support::Scene;

#[test]
fn diagnostics_are_printed_and_strict_makes_them_fail() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(
        home.join("settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./ok.sh"}]}]}}"#,
    )
    .unwrap();
    // A broken project file: its hooks are not loaded, the user's still are.
    let broken = project.join(".claude/settings.json");
    std::fs::write(
        &broken,
        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"bogus\"}]}]}}",
    )
    .unwrap();
    // An unknown event in the local file: a warning, and it loads.
    let local = project.join(".claude/settings.local.json");
    std::fs::write(
        &local,
        r#"{"hooks": {"FutureEvent": [{"hooks": [{"type": "command", "command": "./f.sh"}]}]}}"#,
    )
    .unwrap();

    let run = |extra: &[&str]| {
        let mut args = vec![
            "list",
            "--dialect",
            "verboo",
            "--json",
            "--home",
            home.to_str().unwrap(),
            "--project",
            project.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        super::output(&args, "")
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let broken_line = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_default();
    assert!(
        broken_line.starts_with(&format!("error: {}:1:", broken.display())),
        "{stderr}"
    );
    assert!(broken_line.contains("bogus"), "{stderr}");
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: "))
        .unwrap_or_default();
    assert!(
        warning.starts_with(&format!("warning: {}:1:", local.display())),
        "{stderr}"
    );
    assert!(warning.contains("FutureEvent"), "{stderr}");
    // An error in one file is reported; the other files are listed.
    assert_eq!(out.status.code(), Some(0));
    let handlers: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events: Vec<&str> = handlers
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["FutureEvent", "Stop"]);

    // --strict fails on any diagnostic, even a warning alone.
    assert_eq!(run(&["--strict"]).status.code(), Some(1));
    std::fs::remove_file(&broken).unwrap();
    assert_eq!(run(&["--strict"]).status.code(), Some(1));
    std::fs::remove_file(&local).unwrap();
    assert_eq!(run(&["--strict"]).status.code(), Some(0));
}

/// A never-trusted project guard in Claude Code's settings and one relay hook beside it.
fn claude_scene(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let home = dir.join("home");
    let project = dir.join("project");
    std::fs::create_dir_all(&home).unwrap();
    super::write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    super::write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
    );
    (home, project)
}

/// Claude Code runs the hooks of its settings files without asking: `--agent claude` (and no
/// flag, which finds Claude Code) lists them as running, never untrusted, says so in `--json`
/// (`trust_gated: false`, `trust` unchanged) and ends with the relay's hooks, which the relay
/// does trust-check, and the command that lists them. `--dialect verboo`, the engine's reading,
/// keeps the trust status.
#[test]
fn agent_claude_lists_claude_codes_own_hooks_as_it_runs_them_and_points_to_the_relay() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = claude_scene(dir.path());
    let (home_arg, project_arg) = (home.display().to_string(), project.display().to_string());
    let place = [
        "--home",
        home_arg.as_str(),
        "--project",
        project_arg.as_str(),
    ];
    let pointer = format!(
        "and 1 relay hook (run by `hook relay`, with the engine's trust, 1 not trusted yet): \
         `hook list --agent claude --home {home_arg} --project {project_arg} --relay`"
    );
    // (flags, Claude Code runs them unasked)
    let table: [(&[&str], bool); 3] = [
        (&["--agent", "claude"], true),
        (&[], true),
        (&["--dialect", "verboo"], false),
    ];
    for (flags, unasked) in table {
        let run = |json: bool| {
            let mut args = vec!["list"];
            args.extend_from_slice(flags);
            args.extend_from_slice(&place);
            if json {
                args.push("--json");
            }
            super::output(&args, "")
        };
        let out = run(false);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{flags:?}: {}",
            super::text(&out.stderr)
        );
        let listing = super::text(&out.stdout);
        let lines: Vec<&str> = listing.lines().collect();
        assert_eq!(lines[0], "PreToolUse", "{flags:?}: {listing}");
        if unasked {
            assert!(
                lines[1].ends_with("runs (Claude Code does not ask for trust))"),
                "{flags:?}: {listing}"
            );
            assert!(!listing.contains("untrusted"), "{flags:?}: {listing}");
            assert_eq!(
                lines.last(),
                Some(&pointer.as_str()),
                "{flags:?}: {listing}"
            );
        } else {
            assert!(
                lines[1].ends_with("untrusted, enabled)"),
                "{flags:?}: {listing}"
            );
            assert!(!listing.contains("relay hook"), "{flags:?}: {listing}");
        }
        let out = run(true);
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(rows[0]["trust_gated"], !unasked, "{flags:?}: {rows:#}");
        // `trust` keeps its meaning: the engine's record, which has none of it.
        assert_eq!(
            rows[0]["trust"]["status"], "untrusted",
            "{flags:?}: {rows:#}"
        );
    }
    // The command pointed to lists the relay hook, with the engine's trust that gates it.
    let pointed: Vec<String> = shlex::split(pointer.rsplit('`').nth(1).unwrap()).unwrap();
    let pointed: Vec<&str> = pointed[1..].iter().map(String::as_str).collect();
    let out = super::output(&pointed, "");
    let listing = super::text(&out.stdout);
    assert!(listing.contains("command exit 2"), "{listing}");
    assert!(listing.contains("untrusted, enabled)"), "{listing}");
    assert!(!listing.contains("relay hook"), "{listing}");
}
