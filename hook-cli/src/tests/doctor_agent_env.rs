//! `hook doctor` of what each agent gives a hook it runs (in-process): the trust it asks for
//! (Claude Code asks none for the hooks of its own settings; the relay does for its own) and
//! the variable that names the project (Claude Code's `$CLAUDE_PROJECT_DIR`, the engine's
//! `$HOOK_PROJECT_DIR`).

use hook_test_support::Scene;
use serde_json::Value;

use super::doctor::report;
use super::write;

/// Claude Code runs the hooks of its own settings without asking: `hook doctor --agent claude`
/// never says one "will not run" for want of trust nor suggests `hook trust` for it, while the
/// relay's hook, which the relay trust-checks, still is; `--dialect verboo` (the engine's
/// reading) asks trust of both.
#[test]
fn doctor_agent_claude_asks_no_trust_of_claude_codes_own_hooks() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    let settings = project.join(".claude/settings.json");
    write(
        &settings,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let relay_file = project.join(".claude/hook-relay/settings.json");
    write(
        &relay_file,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
    );
    let own = format!("project:{}:PreToolUse:Bash:0", settings.display());
    let relayed = format!("project:{}:PreToolUse:Bash:0", relay_file.display());
    let (home_arg, project_arg) = (home.display().to_string(), project.display().to_string());
    // (which agent, trust asked of Claude Code's own hook)
    let table: [(&[&str], bool); 3] = [
        (&["--agent", "claude"], false),
        (&[], false),
        (&["--dialect", "verboo"], true),
    ];
    for (flags, asked) in table {
        let mut args = vec!["doctor"];
        args.extend_from_slice(flags);
        args.extend([
            "--home",
            &home_arg,
            "--project",
            &project_arg,
            "--json",
            "--path",
            "/usr/bin:/bin",
        ]);
        let found = report(&args);
        let trust_of = |key: &str| -> Vec<String> {
            found["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["key"] == key)
                .filter(|f| {
                    f["message"].as_str().unwrap().contains("trusted")
                        || f["fix"].as_str().unwrap_or("").contains("hook trust")
                })
                .map(|f| f["message"].as_str().unwrap().to_owned())
                .collect()
        };
        let expected: &[&str] = if asked {
            &["it will not run: it has never been trusted"]
        } else {
            &[]
        };
        assert_eq!(trust_of(&own), expected, "{flags:?}: {found:#}");
        assert_eq!(
            trust_of(&relayed),
            ["it will not run: it has never been trusted"],
            "{flags:?}: {found:#}"
        );
    }
}

/// A hook the engine runs in lime or wuu gets `$HOOK_PROJECT_DIR`, not Claude Code's
/// `$CLAUDE_PROJECT_DIR`: a guard on `"$CLAUDE_PROJECT_DIR"/hooks/guard.sh` would run
/// `/hooks/guard.sh` and let the event go ahead, so doctor says so. A relay hook gets both (the
/// relay sets them in every agent), and Claude Code's own hook gets Claude Code's, which does
/// not set the engine's name for the hooks it runs itself (`--agent claude`).
#[test]
fn doctor_flags_a_project_variable_the_dialect_does_not_set() {
    const CLAUDE_GUARD: &str = r#""$CLAUDE_PROJECT_DIR"/hooks/guard.sh"#;
    const ENGINE_GUARD: &str = "${HOOK_PROJECT_DIR}/hooks/guard.sh";
    let lime = |command: &str| {
        format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
            serde_json::to_string(command).unwrap()
        )
    };
    let verboo = |command: &str| {
        format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": {}}}]}}]}}}}"#,
            serde_json::to_string(command).unwrap()
        )
    };
    let wuu = |command: &str| {
        format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "bash", "type": "command", "command": {}}}]}}}}"#,
            serde_json::to_string(command).unwrap()
        )
    };
    // (flags, file under the scene, its text, the variable flagged)
    let table: Vec<(&[&str], &str, String, Option<&str>)> = vec![
        (
            &["--dialect", "lime"],
            "home/config.toml",
            lime(CLAUDE_GUARD),
            Some("CLAUDE_PROJECT_DIR"),
        ),
        (
            &["--dialect", "lime"],
            "home/config.toml",
            lime(ENGINE_GUARD),
            None,
        ),
        (
            &["--dialect", "wuu"],
            "home/config.json",
            wuu(CLAUDE_GUARD),
            Some("CLAUDE_PROJECT_DIR"),
        ),
        (
            &["--agent", "codex"],
            "home/hook-relay/config.toml",
            lime(CLAUDE_GUARD),
            None,
        ),
        (
            &["--dialect", "verboo"],
            "home/settings.json",
            verboo(CLAUDE_GUARD),
            None,
        ),
        (
            &["--dialect", "verboo"],
            "home/settings.json",
            verboo(ENGINE_GUARD),
            None,
        ),
        (
            &["--agent", "claude"],
            "home/settings.json",
            verboo(ENGINE_GUARD),
            Some("HOOK_PROJECT_DIR"),
        ),
    ];
    for (flags, file, text, flagged) in table {
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("project"));
        std::fs::create_dir_all(&project).unwrap();
        write(&dir.path().join(file), &text);
        let (home_arg, project_arg) = (home.display().to_string(), project.display().to_string());
        let mut args = vec!["doctor"];
        args.extend_from_slice(flags);
        args.extend(["--home", &home_arg, "--project", &project_arg, "--json"]);
        let found = report(&args);
        let said: Vec<&Value> = found["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["message"].as_str().unwrap().contains("expands to empty"))
            .collect();
        match flagged {
            Some(var) => {
                assert_eq!(said.len(), 1, "{flags:?} {file}: {found:#}");
                let message = said[0]["message"].as_str().unwrap();
                assert!(
                    message.starts_with(&format!("its command uses `${var}`")),
                    "{message}"
                );
                assert_eq!(said[0]["severity"], "error");
                let location = said[0]["location"].as_str().unwrap();
                assert!(
                    location.starts_with(&dir.path().join(file).display().to_string()),
                    "{location}"
                );
            }
            None => assert!(said.is_empty(), "{flags:?} {file}: {found:#}"),
        }
    }
}
