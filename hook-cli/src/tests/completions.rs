//! `hook completions SHELL` offers the values of `--agent`, `--dialect` and the event flags
//! (in-process; bash itself completes a command line from the script), and `hook convert`
//! takes `--agent`/`--dialect` for its file as the other commands do.

use std::collections::BTreeSet;

use super::{hook, text};
use hook_test_support::fs::write_at;

/// The word lists a completion script offers: bash's `compgen -W "..."`, zsh's `:NAME:(...)`.
fn offered_lists(script: &str) -> Vec<BTreeSet<String>> {
    let mut lists = Vec::new();
    for (open, close) in [("compgen -W \"", "\""), (":(", ")'")] {
        for (at, _) in script.match_indices(open) {
            let rest = &script[at + open.len()..];
            if let Some(end) = rest.find(close) {
                lists.push(rest[..end].split_whitespace().map(String::from).collect());
            }
        }
    }
    lists
}

#[test]
fn completions_offer_the_agents_dialects_and_events() {
    let set = |words: &[&str]| -> BTreeSet<String> { words.iter().map(|w| (*w).into()).collect() };
    let agents = set(&["claude", "claude-code", "codex", "wuu"]);
    let relay_agents = set(&["claude", "codex", "qwen", "gemini", "copilot"]);
    let dialects = set(&["wuu", "verboo", "lime"]);
    let events = set(&["PreToolUse", "PostToolUse", "Stop", "SessionStart"]);
    for shell in ["bash", "zsh"] {
        let out = hook(&["completions", shell], "");
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        let lists = offered_lists(&out.stdout);
        // (what, the words, whether a list must be exactly them)
        let wanted = [
            ("--agent", &agents, true),
            ("--dialect", &dialects, true),
            ("relay's --agent", &relay_agents, false),
            ("--event", &events, false),
        ];
        for (what, words, exactly) in wanted {
            assert!(
                lists.iter().any(|list| if exactly {
                    list == words
                } else {
                    list.is_superset(words)
                }),
                "{shell}: no list offers {what} {words:?}; lists: {lists:?}"
            );
        }
    }
}

/// `hook guard add|test|run NAME` offers the built-in guards: zsh as the argument's list, bash
/// among the words it offers after `hook guard add`.
#[test]
fn completions_offer_the_guards_names() {
    let zsh = hook(&["completions", "zsh"], "").stdout;
    let guards: BTreeSet<String> = ["dangerous-commands", "secrets", "protected-paths"]
        .iter()
        .map(|w| (*w).into())
        .collect();
    assert!(
        offered_lists(&zsh).iter().any(|list| list == &guards),
        "zsh offers no list of the guards"
    );
    let bash = hook(&["completions", "bash"], "").stdout;
    assert!(
        bash.contains("dangerous-commands secrets protected-paths"),
        "bash offers no guard names"
    );
}

#[cfg(unix)]
#[test]
fn bash_completes_relay_status_agent_and_run_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let script = hook(&["completions", "bash"], "").stdout;
    let file = write_at(dir.path(), "hook.bash", &script);
    // `hook relay status --agent g<TAB>`, `hook run --dialect <TAB>`, `hook schema --event Sto<TAB>`.
    let cases: [(&[&str], &str); 3] = [
        (
            &["hook", "relay", "status", "--agent", "g"],
            "gemini gemini-cli",
        ),
        (&["hook", "run", "--dialect", ""], "wuu verboo lime"),
        (&["hook", "schema", "--event", "Sto"], "Stop StopFailure"),
    ];
    for (words, expected) in cases {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let program = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _hook hook '{}' '{}'; echo \"${{COMPREPLY[*]}}\"",
            file.display(),
            quoted.join(" "),
            words.len() - 1,
            words.join(" "),
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &program])
            .output()
            .unwrap();
        assert_eq!(
            text(&out.stdout).trim(),
            expected,
            "{words:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn convert_names_its_file_by_agent_or_dialect_as_the_other_commands_do() {
    let dir = tempfile::tempdir().unwrap();
    let settings = write_at(
        dir.path(),
        "settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}"#,
    );
    let file = settings.to_str().unwrap();
    let from = hook(&["convert", "--from", "verboo", "--to", "lime", file], "");
    assert_eq!(from.code, 0, "{}", from.stderr);
    assert!(
        from.stdout.contains("[[hooks.PreToolUse]]"),
        "{}",
        from.stdout
    );
    for source in [
        ["--agent", "claude"],
        ["--agent", "claude-code"],
        ["--dialect", "verboo"],
    ] {
        for to in ["lime", "codex"] {
            let args = [&source[..], &["--to", to, file]].concat();
            let out = hook(&[&["convert"][..], &args].concat(), "");
            assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
            assert_eq!(out.stdout, from.stdout, "{args:?}");
        }
    }
    // One source, named once; each flag takes its own kind of name.
    let cases: [(&[&str], &str); 4] = [
        (
            &["--agent", "claude", "--from", "verboo"],
            "cannot be used with",
        ),
        (&[], "--from <FROM>|--agent <AGENT>|--dialect <DIALECT>"),
        (
            &["--agent", "verboo"],
            "`verboo` is a dialect, not an agent: write `--dialect verboo`",
        ),
        (
            &["--dialect", "codex"],
            "`codex` is an agent, not a dialect: write `--agent codex`",
        ),
    ];
    for (source, said) in cases {
        let args = [&["convert"][..], source, &["--to", "lime", file]].concat();
        let out = hook(&args, "");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{args:?}: {}", out.stderr);
    }
}
