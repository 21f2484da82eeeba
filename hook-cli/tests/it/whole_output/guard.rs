//! `hook guard`: a guard's case table, the list of guards and where each is on, `add` for
//! Claude Code and Codex (and again, with an option), `remove`, the backtest over recorded
//! sessions, and the errors a user can reach.

use std::path::Path;

use super::Scene;

#[test]
fn guard_test() {
    let scene = Scene::new();
    snap!(
        "guard_test_dangerous_commands",
        scene.run(&["guard", "test", "dangerous-commands"], "")
    );
    snap!(
        "guard_test_codex_only",
        scene.run(
            &["guard", "test", "dangerous-commands", "--agent", "codex"],
            ""
        )
    );
}

#[test]
fn guard_add_list_remove() {
    let scene = Scene::new();
    let add = ["guard", "add", "dangerous-commands", "--agent"];
    snap!(
        "guard_add_claude",
        scene.run(&[&add[..], &["claude"]].concat(), "")
    );
    snap!(
        "guard_add_claude_again_with_an_option",
        scene.run(
            &[
                &add[..],
                &["claude", "--set", "protected-branches=main,release"]
            ]
            .concat(),
            ""
        )
    );
    snap!(
        "guard_add_codex",
        scene.run(&[&add[..], &["codex"]].concat(), "")
    );
    snap!("guard_list", scene.run(&["guard", "list"], ""));
    snap!(
        "guard_remove_codex",
        scene.run(
            &["guard", "remove", "dangerous-commands", "--agent", "codex"],
            ""
        )
    );
}

#[test]
fn guard_dry_run() {
    let scene = Scene::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/replay/guard");
    let canonical = fixtures.canonicalize().unwrap();
    let filter = |text: String| {
        text.replace(&*fixtures.to_string_lossy(), "[FIXTURES]")
            .replace(&*canonical.to_string_lossy(), "[FIXTURES]")
    };
    for agent in ["claude", "codex"] {
        let sessions = fixtures.join(agent).display().to_string();
        snap!(
            format!("guard_dry_run_{agent}"),
            filter(scene.run(
                &[
                    "guard",
                    "add",
                    "dangerous-commands",
                    "--agent",
                    agent,
                    "--dry-run",
                    &sessions
                ],
                ""
            ))
        );
    }
    snap!(
        "guard_dry_run_no_sessions",
        scene.run(
            &["guard", "add", "secrets", "--agent", "claude", "--dry-run"],
            ""
        )
    );
}

#[test]
fn guard_errors() {
    let scene = Scene::new();
    snap!(
        "guard_error_unknown_guard",
        scene.run(&["guard", "add", "dangerous", "--agent", "claude"], "")
    );
    snap!(
        "guard_error_unknown_option",
        scene.run(
            &[
                "guard",
                "add",
                "dangerous-commands",
                "--agent",
                "codex",
                "--set",
                "branches=main"
            ],
            ""
        )
    );
    snap!(
        "guard_error_dry_run_for_a_translated_agent",
        scene.run(
            &["guard", "add", "secrets", "--agent", "gemini", "--dry-run"],
            ""
        )
    );
}
