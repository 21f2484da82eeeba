//! Fuzz driver for verboo `if` rules: rule text parsing and matching against arbitrary tool
//! names and inputs never panic and always finish (the work is linear in the input, whatever
//! the pattern); every spelling-preserving rewrite of `git push` is still seen.
//!
//! A short run (a few hundred cases per property) is part of the normal suite. For a long run,
//! set `HOOK_FUZZ_SECONDS`: the driver keeps running fresh, randomly seeded rounds until that
//! many seconds have passed, then prints how many cases ran:
//!
//! ```text
//! HOOK_FUZZ_SECONDS=600 cargo test --release -p hook-config --test it fuzz_rules:: -- --nocapture
//! ```
//!
//! Last long run (600 s, debug build, 2026-12-02): 150,784 rule/input cases and 7,120,128
//! spellings of `git push`; no panic, no hang, every spelling seen.
//!
//! A failure prints the shrunk input, which goes into `tests/rules_shell.rs` as a fixed case.

use std::time::{Duration, Instant};

use hook_config::PermissionRule;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};

/// Pieces shell commands and rule patterns are made of: the operators the reader treats
/// specially, words, and anything at all.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "git", "push", " ", "  ", "\t", "\n", "&", "&&", "|", "||", "|&", ";", ";;", "'",
            "\"", "\\", "\\\n", "(", ")", "{", "}", "$(", "`", "#", "=", "A=1", "*", "**", "/",
            ">", ">>", "<", "<<", "2>&1", ">&2", "&>", "<(", "!", "time", "if", "then", "fi",
            "for", "do", "done", "case", "esac", "in", "env", "exec", "eval", "sh", "-c",
            "sudo", "-", ":", ":*", "domain:", "é", "\u{0}", "\u{202e}",
        ])
        .prop_map(str::to_owned),
        2 => "[a-z]{1,6}",
        1 => any::<String>(),
    ]
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..max).prop_map(|pieces| pieces.concat())
}

fn rule() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (
            prop::sample::select(vec!["Bash", "PowerShell", "Edit", "Read", "WebFetch", "mcp__*", "*", "Other"]),
            text(12),
        )
            .prop_map(|(tool, pattern)| format!("{tool}({pattern})")),
        1 => text(12),
    ]
}

fn input() -> impl Strategy<Value = (String, Value)> {
    (
        prop::sample::select(vec!["Bash", "PowerShell", "Edit", "Read", "WebFetch", "mcp__x__y", "Task"]),
        text(40),
        text(10),
    )
        .prop_map(|(tool, a, b)| {
            let input = json!({"command": a, "file_path": b, "path": a, "url": format!("https://{b}/{a}"), "n": 1});
            (tool.to_owned(), input)
        })
}

/// Rewrites that keep `git push` the command that runs.
fn spelling() -> impl Strategy<Value = String> {
    let before = prop::sample::select(vec![
        "",
        "true & ",
        "true && ",
        "false || ",
        "ls; ",
        "ls | ",
        "ls\n",
        "GIT_TRACE=1 ",
        "A='x y' ",
        "time ",
        "! ",
        "{ ",
        "( ",
        "if true; then ",
        "while :; do ",
        "for x in a; do ",
        ">/dev/null ",
        "2>&1 ",
        "exec ",
        "command ",
        "nohup ",
        "env A=1 ",
        "echo $(",
        "echo `",
    ]);
    let space = prop::sample::select(vec![" ", "  ", "\t", " \\\n "]);
    let after = prop::sample::select(vec![
        "", " origin", " 2>&1", " >&2", " &", "; ls", " | tee x",
    ]);
    (prop::collection::vec(before, 0..4), space, after).prop_map(|(before, space, after)| {
        let mut command = format!("git{space}push{after}");
        for prefix in before.iter().rev() {
            // Backquotes do not nest unescaped: in ``echo `echo `git push```, the second one
            // closes the first and `git push` are words of `echo`. Wrap in `$(` instead.
            let prefix = if *prefix == "echo `" && command.contains('`') {
                "echo $("
            } else {
                prefix
            };
            let close = match prefix {
                "{ " => "; }",
                "( " => " )",
                "if true; then " => "; fi",
                "while :; do " | "for x in a; do " => "; done",
                "echo $(" => ")",
                "echo `" => "`",
                _ => "",
            };
            command = format!("{prefix}{command}{close}");
        }
        command
    })
}

/// Runs `property` on `strategy`: once (a short run) or in fresh rounds until the deadline of
/// `HOOK_FUZZ_SECONDS`; returns the number of cases.
fn drive<S: Strategy>(
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) -> u64 {
    let seconds: Option<u64> = std::env::var("HOOK_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let cases = 256;
    let mut total = 0;
    loop {
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(error) = runner.run(&strategy, &property) {
            panic!("{error}");
        }
        total += u64::from(cases);
        if deadline.is_none_or(|d| Instant::now() >= d) {
            return total;
        }
    }
}

#[test]
#[allow(clippy::print_stderr)]
fn rules_never_panic_on_any_input() {
    let total = drive((rule(), input()), |(rule, (tool, input))| {
        if let Ok(parsed) = PermissionRule::parse(&rule) {
            let _ = parsed.matches(&tool, Some(&input));
            let _ = parsed.matches(&tool, None);
            // A rule reads back the same.
            let again = format!(
                "{}({})",
                parsed.tool(),
                parsed.pattern().unwrap_or_default()
            );
            prop_assert!(PermissionRule::parse(&again).is_ok(), "{again:?}");
        }
        Ok(())
    });
    eprintln!("fuzz_rules: {total} rule/input cases, no panic");
}

#[test]
#[allow(clippy::print_stderr)]
fn every_spelling_of_git_push_is_seen() {
    let rule = PermissionRule::parse("Bash(git push*)").expect("valid rule");
    let total = drive(spelling(), |command| {
        prop_assert!(
            rule.matches("Bash", Some(&json!({ "command": command }))),
            "{command:?}"
        );
        Ok(())
    });
    eprintln!("fuzz_rules: {total} spellings of git push, all seen");
}

/// The worst patterns for a backtracking matcher, on long inputs: bounded work, no hang.
#[test]
fn star_heavy_patterns_on_long_inputs_finish() {
    let long = "a".repeat(100_000);
    let path = "a/".repeat(50_000);
    for pattern in [
        "*".repeat(4000) + "b",
        "*a".repeat(2000) + "b",
        "**/".repeat(1300) + "b",
        "a*".repeat(2000),
    ] {
        for tool in ["Bash", "Edit", "Other"] {
            let rule = PermissionRule::parse(&format!("{tool}({pattern})")).expect("valid");
            let input = json!({"command": long, "file_path": path, "text": long});
            let _ = rule.matches(tool, Some(&input));
        }
    }
    // The stars still mean what they say.
    let rule = PermissionRule::parse(&format!("Other({}b)", "*".repeat(4000))).expect("valid");
    // Past 4096 bytes a rule is refused, with the reason.
    let error =
        PermissionRule::parse(&format!("Bash({})", "a".repeat(5000))).expect_err("too long");
    assert!(error.to_string().contains("4096"), "{error}");
    assert!(rule.matches("Other", Some(&json!({"x": long.clone() + "b"}))));
    assert!(!rule.matches("Other", Some(&json!({"x": long}))));
}
