//! The entries' timeouts: the longest wait of their relay hooks plus the margin, carried in
//! each entry's command (`--entry-timeout`), and followed by `sync` when a guard's changes.

use super::*;
use std::time::Duration;

#[test]
fn the_timeout_is_the_longest_wait_plus_the_margin() {
    let scene = Scene::new(Dialect::Verboo);
    scene.relay_file(
        r#"{"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh", "timeout": 20}]},
                {"matcher": "Read", "hooks": [{"type": "command", "command": "./log.sh", "async": true}]}],
            "PostToolUse": [{"hooks": [{"type": "command", "command": "./b.sh"}]}],
            "Stop": [{"hooks": [{"type": "prompt", "prompt": "done? $ARGUMENTS"}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./c.sh", "async": true}]}]}}"#,
    );
    let report = scene.install(false);
    let Some(Entries::Written { wanted, .. }) = &report.sync.entries else {
        panic!("{report:?}");
    };
    let timeouts: Vec<(&str, u64)> = wanted
        .iter()
        .map(|w| (w.event.as_str(), w.timeout))
        .collect();
    let margin = TIMEOUT_MARGIN;
    assert_eq!(
        timeouts,
        [
            // Nothing to wait for: the margin alone.
            ("SessionStart", margin),
            // An async hook's relay does not wait for it; only an async hook there: the margin.
            ("UserPromptSubmit", margin),
            ("PreToolUse", 20 + margin),
            // No timeout written: Claude Code's default for a command hook.
            ("PostToolUse", 600 + margin),
            // ... and for a prompt hook.
            ("Stop", 30 + margin),
        ]
    );
}

/// The relay entries of the scene's agent file: event, `timeout` and the `--entry-timeout`
/// its command carries.
fn entry_timeouts(scene: &Scene) -> Vec<(String, Option<String>, Option<u64>)> {
    let agent = agent_of(scene.dialect).expect("a relay agent");
    let text = scene.agent_text().expect("the agent's file");
    agent
        .open(&text, &scene.agent_file)
        .expect("a document")
        .found(scene.dialect)
        .expect("entries")
        .into_iter()
        .map(|found| {
            let words = shlex::split(&found.command).expect("words");
            let said = words
                .iter()
                .position(|w| w == "--entry-timeout")
                .and_then(|i| words.get(i + 1))
                .map(|secs| secs.parse().expect("seconds"));
            (found.event, found.timeout, said)
        })
        .collect()
}

#[test]
fn a_guards_timeout_raised_after_install_is_covered_by_sync() {
    for (dialect, relay, _) in agents() {
        let scene = Scene::new(dialect);
        let relay_file = scene.relay_file(relay);
        scene.install(false);
        // Each entry says its own timeout in its command, for the relay.
        let guarded = |secs: u64| {
            vec![
                (
                    "SessionStart".to_owned(),
                    Some(TIMEOUT_MARGIN.to_string()),
                    Some(TIMEOUT_MARGIN),
                ),
                ("PreToolUse".to_owned(), Some(secs.to_string()), Some(secs)),
            ]
        };
        assert_eq!(
            entry_timeouts(&scene),
            guarded(20 + TIMEOUT_MARGIN),
            "{dialect}"
        );

        // The guard's timeout raised, 20 -> 300 s: the entry, written at install, no longer
        // covers it (the agent would kill the relay at 25 s).
        let raised = std::fs::read_to_string(&relay_file)
            .expect("the relay file")
            .replace("20", "300");
        std::fs::write(&relay_file, raised).expect("written");
        assert_eq!(
            entry_timeouts(&scene),
            guarded(20 + TIMEOUT_MARGIN),
            "{dialect}"
        );
        let report = scene.sync();
        let Some(Entries::Written { added, removed, .. }) = &report.entries else {
            panic!("{dialect}: sync rewrote nothing: {report:?}");
        };
        assert_eq!(
            (*added, *removed),
            (1, 1),
            "{dialect}: only the guard's entry"
        );
        assert_eq!(
            entry_timeouts(&scene),
            guarded(300 + TIMEOUT_MARGIN),
            "{dialect}"
        );
        assert_eq!(
            entry_timeout(dialect, &Event::PreToolUse, &[Duration::from_secs(300)]),
            300 + TIMEOUT_MARGIN,
            "{dialect}: what status and doctor compare an entry with"
        );
        // Nothing more to do.
        assert!(
            matches!(scene.sync().entries, Some(Entries::UpToDate)),
            "{dialect}"
        );
    }
}
