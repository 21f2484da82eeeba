//! Matcher and `if` rules of each dialect, table-driven.

use crate::common::{load_user_file, summaries};
use hook_config::{Matcher, PermissionRule, Severity};
use hook_protocol::{Dialect, Event};
use serde_json::json;

#[test]
fn matcher_rules_per_dialect() {
    use Dialect::{Lime, Verboo, Wuu};
    // (dialect, matcher, value, matches)
    let table: &[(Dialect, Option<&str>, &str, bool)] = &[
        (Wuu, Some("bash"), "Bash", true),
        (Wuu, Some("BASH"), "bash", true),
        (Wuu, Some("Bash"), "BashOutput", false),
        (Wuu, Some(""), "Read", true),
        (Wuu, Some("*"), "Read", true),
        (Wuu, None, "Read", true),
        (Wuu, Some("Write|Edit"), "Write", false),
        (Wuu, Some("Wr.*"), "Write", false),
        (Verboo, Some("Bash"), "Bash", true),
        (Verboo, Some("Bash"), "bash", false),
        (Verboo, Some("Bash"), "BashOutput", false),
        (Verboo, Some("Write|Edit"), "Edit", true),
        (Verboo, Some("Write|Edit"), "MultiEdit", false),
        (
            Verboo,
            Some("mcp__memory__create-entities"),
            "mcp__memory__create-entities",
            true,
        ),
        (Verboo, Some("mcp__.*"), "mcp__github__search", true),
        (Verboo, Some("Edit.*"), "MultiEdit", true),
        (Verboo, Some("^Edit$"), "MultiEdit", false),
        (Verboo, Some("^Edit$"), "Edit", true),
        (Verboo, Some("*"), "anything", true),
        (Verboo, Some(""), "anything", true),
        (Verboo, None, "anything", true),
        (Lime, Some("Bash"), "Bash", true),
        (Lime, Some("Bash|Edit"), "Edit", true),
        (Lime, Some("(?i)bash"), "BASH", true),
        (Lime, Some("startup|resume"), "resume", true),
        (Lime, Some("startup|resume"), "clear", false),
    ];
    for &(dialect, raw, value, expected) in table {
        let matcher = Matcher::compile(dialect, raw).expect("compiles");
        assert_eq!(
            matcher.is_match(value),
            expected,
            "{dialect} matcher {raw:?} on {value:?}"
        );
    }
}

#[test]
fn events_without_a_match_value() {
    // wuu: a non-empty matcher never matches on an event without a tool (and warns).
    let (_dir, path, loaded) = load_user_file(
        Dialect::Wuu,
        r#"{"hooks": {"Stop": [{"matcher": "bash", "command": "never"}, {"matcher": "*", "command": "always"}],
            "SessionStart": [{"command": "start"}]}}"#,
    );
    assert_eq!(
        crate::common::shown(&loaded),
        [format!(
            "{}:1:33: matcher `bash` never matches: wuu matchers are tool names and Stop has no tool",
            path.display()
        )]
    );
    let r = &loaded.registry;
    assert_eq!(
        summaries(r.select(&Event::Stop, Some("bash"), None)),
        ["always"]
    );
    assert_eq!(
        summaries(r.select(&Event::SessionStart, Some("startup"), None)),
        ["start"]
    );

    // verboo: the matcher is ignored on events without a match value, used on the others.
    let (_dir, _, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {
  "UserPromptSubmit": [{"matcher": "nothing-like-this", "hooks": [{"type": "command", "command": "prompt-hook"}]}],
  "SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "warm"}]},
                   {"matcher": "compact", "hooks": [{"type": "command", "command": "after-compact"}]}],
  "Notification": [{"matcher": "idle_.*", "hooks": [{"type": "command", "command": "notify"}]}],
  "PreCompact": [{"matcher": "manual", "hooks": [{"type": "command", "command": "manual-only"}]}]
}}"#,
    );
    // Ignored, as Claude Code ignores it, but the author is told.
    let said: Vec<(Severity, Option<usize>, &str)> = loaded
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        said,
        [(
            Severity::Warning,
            Some(2),
            "matcher `nothing-like-this` is ignored: UserPromptSubmit has no match value, so its hooks always run"
        )]
    );
    let r = &loaded.registry;
    assert_eq!(
        summaries(r.select(&Event::UserPromptSubmit, None, None)),
        ["prompt-hook"]
    );
    assert_eq!(
        summaries(r.select(&Event::SessionStart, Some("resume"), None)),
        ["warm"]
    );
    assert_eq!(
        summaries(r.select(&Event::SessionStart, Some("compact"), None)),
        ["after-compact"]
    );
    assert_eq!(
        summaries(r.select(&Event::Notification, Some("idle_prompt"), None)),
        ["notify"]
    );
    assert_eq!(r.select(&Event::PreCompact, Some("auto"), None).count(), 0);
    // A match value the caller does not have matches only the catch-all matchers.
    assert_eq!(r.select(&Event::PreCompact, None, None).count(), 0);

    // lime SessionStart matches its source.
    let (_dir, _, loaded) = load_user_file(
        Dialect::Lime,
        "[[hooks.SessionStart]]\nmatcher = \"clear\"\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"c\"\n\
         [[hooks.Stop]]\nmatcher = \"ignored\"\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"s\"\n",
    );
    let said: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        said,
        ["matcher `ignored` is ignored: Stop has no match value, so its hooks always run"]
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select(&Event::SessionStart, Some("clear"), None)
        ),
        ["c"]
    );
    assert_eq!(
        loaded
            .registry
            .select(&Event::SessionStart, Some("startup"), None)
            .count(),
        0
    );
    assert_eq!(
        summaries(loaded.registry.select(&Event::Stop, None, None)),
        ["s"]
    );
}

#[test]
fn selection_keeps_config_order_across_index_kinds() {
    let (_dir, _, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {"PreToolUse": [
  {"matcher": "B.*", "hooks": [{"type": "command", "command": "1-regex"}]},
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "2-exact"}]},
  {"hooks": [{"type": "command", "command": "3-all"}]},
  {"matcher": "Read|Bash", "hooks": [{"type": "command", "command": "4-list"}]},
  {"matcher": "B.*", "hooks": [{"type": "command", "command": "5-same-regex"}]},
  {"matcher": "Read", "hooks": [{"type": "command", "command": "6-other"}]}
]}}"#,
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select(&Event::PreToolUse, Some("Bash"), None)
        ),
        ["1-regex", "2-exact", "3-all", "4-list", "5-same-regex"]
    );
}

#[test]
fn verboo_identical_handlers_run_once() {
    let (_dir, _, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {"PostToolUse": [
  {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]},
  {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "fmt"}, {"type": "command", "command": "lint"}]}
]}}"#,
    );
    assert_eq!(
        loaded.registry.handlers().len(),
        3,
        "different matchers: both listed"
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select(&Event::PostToolUse, Some("Edit"), None)
        ),
        ["fmt", "lint"]
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select(&Event::PostToolUse, Some("Write"), None)
        ),
        ["fmt", "lint"]
    );
}

#[test]
fn verboo_handlers_that_differ_in_if_timeout_or_async_are_not_folded() {
    // Anthropic's security-guidance plugin: one command, two `if`s.
    let (_dir, _, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "review.sh", "if": "Bash(git commit:*)"},
  {"type": "command", "command": "review.sh", "if": "Bash(git push:*)"},
  {"type": "command", "command": "audit.sh"},
  {"type": "command", "command": "audit.sh", "timeout": 5},
  {"type": "command", "command": "audit.sh", "async": true},
  {"type": "command", "command": "audit.sh"}
]}]}}"#,
    );
    let registry = &loaded.registry;
    assert_eq!(
        registry.handlers().len(),
        5,
        "only the exact copy is folded"
    );
    let run = |command: &str| {
        let input = json!({"command": command});
        registry
            .select(&Event::PostToolUse, Some("Bash"), Some(&input))
            .map(|h| {
                format!(
                    "{} {:?} {:?} {}",
                    h.config.summary(),
                    h.config.condition,
                    h.config.timeout,
                    h.config.is_async
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        run("git push origin main"),
        [
            "review.sh Some(\"Bash(git push:*)\") None false",
            "audit.sh None None false",
            "audit.sh None Some(5.0) false",
            "audit.sh None None true",
        ]
    );
    assert_eq!(
        run("git commit -m x")[0],
        "review.sh Some(\"Bash(git commit:*)\") None false"
    );
}

#[test]
fn if_rules() {
    let bash = |command: &str| json!({"command": command});
    let file = |path: &str| json!({"file_path": path});
    // (rule, tool, input, matches)
    let table: Vec<(&str, &str, serde_json::Value, bool)> = vec![
        ("Bash", "Bash", bash("anything"), true),
        ("Bash(*)", "Bash", bash("anything"), true),
        ("Bash(git *)", "Bash", bash("git push origin main"), true),
        ("Bash(git *)", "Bash", bash("git"), true),
        ("Bash(git *)", "Bash", bash("gitk"), false),
        ("Bash(git *)", "Bash", bash("cd repo && git push"), true),
        ("Bash(git *)", "Bash", bash("make || git stash"), true),
        ("Bash(git *)", "Bash", bash("ls; git status"), true),
        ("Bash(git *)", "Bash", bash("cat x | git apply"), true),
        ("Bash(git *)", "Bash", bash("echo 'a && git push'"), false),
        (
            "Bash(rm -rf *)",
            "Bash",
            bash("npm test && rm -rf build"),
            true,
        ),
        (
            "Bash(rm -rf *)",
            "Bash",
            bash("npm test && echo rm -rf build"),
            false,
        ),
        ("Bash(npm run test:*)", "Bash", bash("npm run test"), true),
        (
            "Bash(npm run test:*)",
            "Bash",
            bash("npm run test --watch"),
            true,
        ),
        (
            "Bash(npm run test:*)",
            "Bash",
            bash("npm run testing"),
            false,
        ),
        ("Bash(git *)", "Read", file("git x"), false),
        ("Edit(*.ts)", "Edit", file("/repo/src/app.ts"), true),
        ("Edit(*.ts)", "Edit", file("/repo/src/app.tsx"), false),
        (
            "Edit(src/**/*.ts)",
            "Edit",
            file("/repo/src/a/b/app.ts"),
            true,
        ),
        ("Edit(src/*.ts)", "Edit", file("/repo/src/a/app.ts"), false),
        ("Write(//etc/*)", "Write", file("/etc/passwd"), true),
        ("Read(.env)", "Read", file("/repo/.env"), true),
        ("Read(.env)", "Read", file("/repo/.env.example"), false),
        ("MultiEdit(*.rs)", "MultiEdit", file("/r/lib.rs"), true),
        (
            "WebFetch(domain:*.example.com)",
            "WebFetch",
            json!({"url": "https://api.example.com/x"}),
            true,
        ),
        (
            "WebFetch(domain:example.com)",
            "WebFetch",
            json!({"url": "https://evil.com/example.com"}),
            false,
        ),
        (
            "mcp__github__*",
            "mcp__github__create_issue",
            json!({}),
            true,
        ),
        (
            "mcp__db__query(*DROP*)",
            "mcp__db__query",
            json!({"sql": "DROP TABLE x"}),
            true,
        ),
    ];
    for (rule, tool, input, expected) in table {
        let parsed = PermissionRule::parse(rule).expect("rule parses");
        assert_eq!(
            parsed.matches(tool, Some(&input)),
            expected,
            "{rule} on {tool} {input}"
        );
    }
    assert!(PermissionRule::parse("Bash(git *").is_err());
    assert!(PermissionRule::parse("(x)").is_err());
}

#[test]
fn if_rules_filter_selection() {
    let (_dir, path, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": "git-guard", "if": "Bash(git push *)"},
      {"type": "command", "command": "every-bash"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "never", "if": "Bash(*)"}]}]
}}"#,
    );
    assert_eq!(
        crate::common::shown(&loaded),
        [format!(
            "{}:5:69: hooks.Stop[0].hooks[0].if: Stop has no tool call, so this handler never runs",
            path.display()
        )]
    );
    let r = &loaded.registry;
    let input = json!({"command": "cargo test && git push origin"});
    assert_eq!(
        summaries(r.select(&Event::PreToolUse, Some("Bash"), Some(&input))),
        ["git-guard", "every-bash"]
    );
    let input = json!({"command": "cargo test"});
    assert_eq!(
        summaries(r.select(&Event::PreToolUse, Some("Bash"), Some(&input))),
        ["every-bash"]
    );
    assert_eq!(
        summaries(r.select(&Event::PreToolUse, Some("Bash"), None)),
        ["every-bash"]
    );
    assert_eq!(r.select(&Event::Stop, None, None).count(), 0);
}
