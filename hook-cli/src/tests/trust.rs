//! `hook trust`, `untrust`, `enable`, `disable`, and trust in `hook list` and `hook run`
//! (in-process).

use hook_test_support::Output;
use std::path::{Path, PathBuf};

use hook_test_support::{Runner as _, Scene};

use super::{InProcess, words};

/// A kit [`Scene`] (home and project), and `hook` run on it in this process (shared
/// with `trust_files`).
pub(crate) struct Env {
    pub(crate) scene: Scene,
}

impl Env {
    pub(crate) fn new() -> Self {
        Env {
            scene: Scene::new(),
        }
    }

    pub(crate) fn home(&self) -> PathBuf {
        self.scene.home()
    }

    pub(crate) fn project(&self) -> PathBuf {
        self.scene.project()
    }

    pub(crate) fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.scene.write(rel, text)
    }

    /// `hook <command> --dialect D --home H --project P <args>`.
    pub(crate) fn hook(&self, command: &str, dialect: &str, args: &[&str]) -> Output {
        InProcess.run(&words(&self.scene.located(command, dialect, args)), b"")
    }

    /// [`Env::hook`]'s stdout, which must have succeeded.
    pub(crate) fn ok(&self, command: &str, dialect: &str, args: &[&str]) -> String {
        self.hook(command, dialect, args).success().stdout_text()
    }

    fn run_event(&self, dialect: &str) -> (serde_json::Value, String) {
        let event = self.write(
            "event.json",
            r#"{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":null,
                "model":"m","permission_mode":"default","turn_id":"t","tool_name":"Bash",
                "tool_input":{"command":"ls"},"tool_use_id":"u"}"#,
        );
        let out = self.hook(
            "run",
            dialect,
            &["--event", "PreToolUse", "--input", event.to_str().unwrap()],
        );
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        (serde_json::from_slice(&out.stdout).unwrap(), stderr)
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const LIME: &str = "# mine\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"cat >/dev/null # v1\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"cat >/dev/null\"\n";
const KEY: &str = "user:config.toml:PreToolUse:Bash:0";

#[test]
fn trust_run_modify_disable_through_the_cli() {
    let env = Env::new();
    let config = env.write("home/config.toml", LIME);

    // Untrusted: skipped, with a warning naming the fix.
    let (outcome, warnings) = env.run_event("lime");
    assert_eq!(outcome["runs"][0]["skip_reason"], "untrusted");
    // The key once in the sentence, once in the command that trusts it.
    let expected = format!("warning: skipped: hook {KEY} is not trusted");
    assert!(warnings.contains(&expected), "{warnings}");
    assert!(
        warnings.contains("then run `hook trust --dialect lime --home "),
        "{warnings}"
    );
    let skipped: Vec<&str> = warnings
        .lines()
        .filter(|l| l.starts_with("warning: skipped"))
        .collect();
    assert_eq!(skipped.len(), 1, "{warnings}");
    assert_eq!(skipped[0].matches(KEY).count(), 2, "{warnings}");

    let out = env.hook("trust", "lime", &[KEY]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!("trusted {KEY} (sha256:")),
        "{}",
        stdout(&out)
    );
    let (outcome, warnings) = env.run_event("lime");
    assert_eq!(outcome["runs"][0]["status"], "ok", "{outcome:#}");
    assert!(!warnings.contains("warning: skipped"), "{warnings}");

    // Edited: modified; `hook list` shows the old and new hash.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("# v1", "# v2")).unwrap();
    let (outcome, warnings) = env.run_event("lime");
    assert_eq!(outcome["runs"][0]["skip_reason"], "modified");
    assert!(
        warnings.contains("changed since it was trusted"),
        "{warnings}"
    );
    let list = stdout(&env.hook("list", "lime", &[]));
    assert!(
        list.contains(&format!("key {KEY}; modified, enabled)")),
        "{list}"
    );
    assert!(list.contains("      modified: trusted sha256:"), "{list}");
    assert!(
        list.contains("key user:config.toml:Stop::0; untrusted, enabled)"),
        "{list}"
    );

    // Re-trusted, then disabled: skipped, still trusted.
    assert_eq!(env.hook("trust", "lime", &["--all"]).status.code(), Some(0));
    assert_eq!(env.hook("disable", "lime", &[KEY]).status.code(), Some(0));
    let (outcome, warnings) = env.run_event("lime");
    assert_eq!(outcome["runs"][0]["skip_reason"], "disabled");
    assert!(
        warnings.contains("hook enable --dialect lime"),
        "{warnings}"
    );
    let out = env.hook("list", "lime", &["--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == KEY)
        .unwrap();
    assert_eq!(row["trust"]["status"], "trusted");
    assert_eq!(row["trust"]["enabled"], false);

    assert_eq!(env.hook("enable", "lime", &[KEY]).status.code(), Some(0));
    assert_eq!(env.run_event("lime").0["runs"][0]["status"], "ok");

    // Untrusting everything leaves the file as it was, byte for byte.
    assert_eq!(
        env.hook("untrust", "lime", &["--all"]).status.code(),
        Some(0)
    );
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        LIME.replace("# v1", "# v2")
    );
}

#[test]
fn list_shows_the_old_and_new_command_from_the_json_store() {
    let env = Env::new();
    let project = env.write(
        "project/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}"#,
    );
    env.write(
        "home/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}"#,
    );
    let list = stdout(&env.hook("list", "verboo", &[]));
    assert!(
        list.contains("./check.sh  (project; key project:"),
        "{list}"
    );
    assert!(list.contains("; untrusted, enabled)"), "{list}");
    assert!(
        list.contains("./mine.sh  (user; key user:settings.json:Stop::0; trusted, enabled)"),
        "{list}"
    );

    let out = env.hook("trust", "verboo", &["--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(
        &project,
        std::fs::read_to_string(&project)
            .unwrap()
            .replace("check", "changed"),
    )
    .unwrap();
    let list = stdout(&env.hook("list", "verboo", &[]));
    assert!(
        list.contains("      was: ./check.sh\n      now: ./changed.sh\n"),
        "{list}"
    );

    // The user's own hooks need no trust in verboo.
    let out = env.hook("trust", "verboo", &["user:settings.json:Stop::0"]);
    assert!(
        stdout(&out).contains("user hooks need no trust"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_unknown_key_lists_the_nearest_known_keys() {
    let env = Env::new();
    let config = env.write("home/config.toml", LIME);
    let out = env.hook("trust", "lime", &["user:config.toml:PreToolUse:bash:0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error: no hook has the key `user:config.toml:PreToolUse:bash:0`; the nearest known keys are: user:config.toml:PreToolUse:Bash:0"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&config).unwrap(), LIME);
    // Neither keys nor --all is a usage error.
    assert_eq!(env.hook("trust", "lime", &[]).status.code(), Some(2));
}

#[test]
fn a_corrupt_store_is_named_and_left_alone() {
    let env = Env::new();
    let text = format!("{LIME}\n[hooks.state.\"{KEY}\"]\nenabled = \"yes\"\n");
    let config = env.write("home/config.toml", &text);
    let out = env.hook("trust", "lime", &["--all"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let at = format!("{}:14:11: corrupt trust store", config.display());
    assert!(err.contains(&at), "{err}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);

    let (outcome, warnings) = env.run_event("lime");
    assert_eq!(outcome["runs"][0]["skip_reason"], "untrusted");
    assert!(
        warnings.contains("every hook that needs trust is treated as untrusted"),
        "{warnings}"
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_store_is_refused() {
    let env = Env::new();
    let real = env.write("elsewhere.json", "{}");
    env.write(
        "project/.wuu/config.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "true"}]}}"#,
    );
    std::os::unix::fs::symlink(&real, env.home().join("hook-trust.json")).unwrap();
    let out = env.hook("trust", "wuu", &["--all"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(Path::new(&real)).unwrap(), "{}");
}

#[test]
fn the_lime_demo_carries_its_trust_records() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let (home, project) = (
        repo.join("examples/demo/lime-home"),
        repo.join("examples/demo"),
    );
    let out = super::output(
        &[
            "list",
            "--dialect",
            "lime",
            "--home",
            home.to_str().unwrap(),
            "--project",
            project.to_str().unwrap(),
        ],
        "",
    );
    let list = stdout(&out);
    assert_eq!(list.matches("; trusted, enabled)").count(), 3, "{list}");
}

#[cfg(unix)]
#[test]
fn trust_written_through_a_linked_config_says_so() {
    let env = Env::new();
    // A dotfile manager's link: ~/.lime/config.toml -> dotfiles/config.toml.
    let real = env.write("dotfiles/config.toml", LIME);
    std::os::unix::fs::symlink(&real, env.home().join("config.toml")).unwrap();
    let out = env.hook("trust", "lime", &[KEY]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stdout(&out);
    assert!(
        said.contains(&format!(
            "is a symbolic link: written through it to {}",
            real.canonicalize().unwrap().display()
        )),
        "{said}"
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("trusted_hash")
    );
}
