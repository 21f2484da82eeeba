//! The agents' names on every command (`--agent claude`, `--agent codex`), the errors that name
//! them, and `hook log` / `hook stats` with no agent (in-process).

use super::{Ran, hook};
use crate::ops::scene::Scene;

/// A scene with a relay hook for each agent (Claude Code's in `home/.claude/hook-relay/`,
/// Codex's in `home/.codex/hook-relay/`), Claude Code's own settings, and an empty transcript.
fn two_agents() -> Scene {
    let scene = Scene::new();
    scene.write(
        "home/.claude/hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    scene.write("home/.claude/settings.json", "{}\n");
    scene.write(
        "home/.codex/hook-relay/config.toml",
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"exit 0\"\n",
    );
    scene.write("home/.codex/config.toml", "model = \"gpt-5\"\n");
    scene.write("empty.jsonl", "");
    scene
}

/// `hook args` in the scene, `{HOME}` being the agent's home and `{ROOT}` the scene.
fn run(scene: &Scene, home: &str, args: &[&str], stdin: &str) -> Ran {
    let root = scene.root.display().to_string();
    let home = format!("{root}/home/{home}");
    let args: Vec<String> = args
        .iter()
        .map(|arg| arg.replace("{HOME}", &home).replace("{ROOT}", &root))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    hook(&args, stdin)
}

#[test]
fn agent_claude_and_agent_codex_work_on_every_command_that_takes_a_dialect() {
    const PRE_TOOL_USE: &str = r#"{"tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","turn_id":"t","transcript_path":null,"model":"m","permission_mode":"default","tool_use_id":"u"}"#;
    let place = ["--home", "{HOME}", "--project", "{ROOT}/project"];
    let with = |args: &[&'static str], place: &[&'static str]| -> Vec<&'static str> {
        args.iter().chain(place).copied().collect()
    };
    // (the command after `--agent A`, stdin, the exit codes it may end with)
    let table: Vec<(Vec<&str>, &str, &[u8])> = vec![
        (vec!["schema", "--event", "PreToolUse"], "", &[0]),
        (vec!["validate", "--event", "PreToolUse"], "{}", &[0]),
        (
            with(&["run", "--event", "PreToolUse"], &place),
            PRE_TOOL_USE,
            &[0],
        ),
        (with(&["list"], &place), "", &[0]),
        (with(&["trust", "--all"], &place), "", &[0]),
        (with(&["untrust", "--all"], &place), "", &[0]),
        (with(&["disable", "--all"], &place), "", &[0]),
        (with(&["enable", "--all"], &place), "", &[0]),
        (
            vec![
                "test",
                "--event",
                "PreToolUse",
                "--tool",
                "Bash",
                "--",
                "sh",
                "-c",
                "cat >/dev/null",
            ],
            "",
            &[0],
        ),
        (vec!["new", "my-hook", "--path", "{ROOT}/new"], "", &[0]),
        (with(&["log"], &place), "", &[0]),
        (with(&["stats"], &place), "", &[0]),
        // Doctor's relay check reads the agent's user settings through this machine's home
        // (where no relay is installed: exit 1 is that error).
        (
            with(&["doctor", "--path", "/usr/bin:/bin"], &place),
            "",
            &[0, 1],
        ),
        (
            with(&["replay", "--dry-run", "{ROOT}/empty.jsonl"], &place),
            "",
            &[0],
        ),
        (
            vec![
                "relay",
                "install",
                "--home",
                "{HOME}",
                "--agent-config",
                "{ROOT}/agent-config",
            ],
            "",
            &[0],
        ),
        (
            vec![
                "relay",
                "sync",
                "--home",
                "{HOME}",
                "--agent-config",
                "{ROOT}/agent-config",
            ],
            "",
            &[0],
        ),
        (
            vec![
                "relay",
                "uninstall",
                "--home",
                "{HOME}",
                "--agent-config",
                "{ROOT}/agent-config",
            ],
            "",
            &[0],
        ),
        // The user's own settings are read too (this machine's home): exit 1 is a problem found.
        (with(&["relay", "status"], &place), "", &[0, 1]),
    ];
    for (agent, home) in [("claude", ".claude"), ("codex", ".codex")] {
        let scene = two_agents();
        for (args, stdin, codes) in &table {
            // `--agent A` right after the command's name (and the relay's subcommand).
            let at = if args[0] == "relay" { 2 } else { 1 };
            let mut full = args.clone();
            full.splice(at..at, ["--agent", agent]);
            let ran = run(&scene, home, &full, stdin);
            assert!(
                codes.contains(&ran.code),
                "hook {} exited {}\nstdout: {}\nstderr: {}",
                full.join(" "),
                ran.code,
                ran.stdout,
                ran.stderr
            );
        }
        // `--agent codex` reads the hooks `hook relay` runs for Codex, not lime's `~/.lime`.
        let listed = run(
            &scene,
            home,
            &[
                "list",
                "--agent",
                agent,
                "--home",
                "{HOME}",
                "--project",
                "{ROOT}/project",
            ],
            "",
        );
        let relay_hooks = listed.stdout.contains("hook-relay/config.toml:PreToolUse");
        assert_eq!(relay_hooks, agent == "codex", "{}", listed.stdout);
    }
    // `hook convert` takes either name on each side.
    let scene = two_agents();
    let converted = run(
        &scene,
        ".claude",
        &[
            "convert",
            "--from",
            "claude",
            "--to",
            "codex",
            "{ROOT}/home/.claude/hook-relay/settings.json",
        ],
        "",
    );
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    assert!(
        converted.stdout.contains("[[hooks.PreToolUse]]"),
        "{}",
        converted.stdout
    );
}

#[test]
fn agent_and_dialect_are_one_or_the_other_and_a_wrong_name_is_named() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["list", "--agent", "claud"],
            "unknown agent `claud`: did you mean `claude`? (Claude Code, dialect verboo)",
        ),
        (
            &["schema", "--dialect", "claude", "--event", "Stop"],
            "`claude` is an agent, not a dialect: write `--agent claude` (Claude Code, dialect verboo), or `--dialect verboo`",
        ),
        (
            &["run", "--dialect", "claude-code", "--event", "Stop"],
            "write `--agent claude` (Claude Code, dialect verboo), or `--dialect verboo`",
        ),
        (
            &["relay", "install", "--agent", "lime"],
            "`lime` is a dialect, not an agent: write `--dialect lime`, or `--agent codex`",
        ),
        (
            &["list", "--agent", "claude", "--dialect", "verboo"],
            "cannot be used with",
        ),
        (
            &["run", "--event", "Stop"],
            "--agent <AGENT>|--dialect <DIALECT>",
        ),
    ];
    for (args, expected) in cases {
        let ran = hook(args, "");
        assert_eq!(ran.code, 2, "hook {}: {}", args.join(" "), ran.stderr);
        assert!(
            ran.stderr.contains(expected),
            "hook {}: {}",
            args.join(" "),
            ran.stderr
        );
    }
    let ran = hook(&["relay", "status", "--agent", "wuu"], "");
    assert_eq!(ran.code, 1);
    assert!(
        ran.stderr.contains(
            "hook relay speaks for Claude Code (--agent claude) and Codex (--agent codex), not wuu"
        ),
        "{}",
        ran.stderr
    );
}

#[test]
fn log_and_stats_with_no_agent_read_every_agents_journal_with_an_agent_column() {
    let scene = Scene::new();
    let home = scene.path("home").display().to_string();
    scene.write(
        "home/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    scene.write(
        "home/config.json",
        r#"{"hooks": {"Stop": [{"type": "command", "command": "exit 0"}]}}"#,
    );
    let project = scene.project().display().to_string();
    let place = ["--home", home.as_str(), "--project", project.as_str()];
    for agent in ["claude", "wuu"] {
        let args: Vec<&str> = ["run", "--agent", agent, "--event", "Stop"]
            .into_iter()
            .chain(place)
            .collect();
        let ran = hook(&args, r#"{"session_id": "s", "stop_hook_active": false}"#);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
    }
    let log = hook(&[&["log"][..], &place].concat(), "");
    assert_eq!(log.code, 0, "{}", log.stderr);
    let agents: Vec<&str> = log
        .stdout
        .lines()
        .filter(|line| line.contains(" Stop "))
        .filter_map(|line| line.split_whitespace().nth(3))
        .collect();
    assert_eq!(agents, ["wuu", "claude"], "newest first:\n{}", log.stdout);
    let only = hook(&[&["log", "--agent", "claude"][..], &place].concat(), "");
    assert!(only.stdout.contains(" Stop claude "), "{}", only.stdout);
    assert!(!only.stdout.contains(" wuu "), "{}", only.stdout);

    let stats = hook(&[&["stats"][..], &place].concat(), "");
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    let header = stats.stdout.lines().next().unwrap_or_default();
    assert!(
        header.contains("agent") && header.contains("hook"),
        "{}",
        stats.stdout
    );
    assert!(
        stats.stdout.contains("claude") && stats.stdout.contains("wuu"),
        "{}",
        stats.stdout
    );
    let json = hook(
        &[&["stats", "--json", "--dialect", "wuu"][..], &place].concat(),
        "",
    );
    let all: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let agents: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|hook| hook["agent"].as_str())
        .collect();
    assert_eq!(agents, ["wuu"], "{}", json.stdout);
}

#[test]
fn completions_still_generate_and_offer_agent_and_relay_status() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let ran = hook(&["completions", shell], "");
        assert_eq!(ran.code, 0, "{shell}: {}", ran.stderr);
        assert!(ran.stdout.contains("--agent"), "{shell}");
        assert!(ran.stdout.contains("status"), "{shell}");
    }
}
