//! `npm install -g hook-engine --ignore-scripts` (or an npm that runs no install scripts):
//! `hook` stays the Node launcher the package ships as `bin/hook`. It answers as the binary
//! does, passes signals on and ends as the binary ended; `hook relay install` through it
//! writes the native binary's path into the user's entries, and says, for a project's entries
//! (which start `hook` through `PATH`), that each event would start Node first and how to fix
//! it; `npm rebuild -g hook-engine` runs the postinstall, which puts the binary in place.

use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::{Command, Stdio};

use hook_test_support::fs::write;
use serde_json::json;

use super::registry::{Npm, Registry};
use super::{
    answers_as_the_binary, is_native, listing, packages, project_entry_denies, project_install,
    relay_install_through, run, the_entry_runs,
};
use crate::cli::text;
use crate::signals::{SLEEPER, alive, dies, exits, signal};

/// One install with scripts off (each install unpacks the 70 MB debug binary: the checks
/// share it), then the checks in order; `npm rebuild` comes last, as it replaces the launcher.
#[test]
fn with_install_scripts_off_the_launcher_answers_passes_signals_on_and_says_its_cost_until_npm_rebuild()
 {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let release = packages(dir, env!("CARGO_PKG_VERSION"));
    let registry = Registry::serve(&[&release]);
    let Some(npm) = Npm::new(dir, &registry) else {
        return;
    };
    npm.ok(&["install", "hook-engine", "--ignore-scripts"]);
    // `hook` is the launcher as the package ships it: a Node script.
    let launcher = npm.hook();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    assert_eq!(
        std::fs::read(&launcher).unwrap(),
        std::fs::read(root.join("packaging/npm/hook.js")).unwrap()
    );
    answers_as_the_binary(&launcher, dir);
    let binary = npm.platform_binary().canonicalize().unwrap();
    passes_sigterm_on_and_ends_as_the_binary_ended(&launcher, &binary, dir);

    // The user's entries name the native binary, the program the launcher started.
    let home = dir.join("user");
    std::fs::create_dir_all(&home).unwrap();
    let program = relay_install_through(&launcher, &home);
    assert_eq!(program, binary);
    the_entry_runs(&program, &home);

    // A project's entries start `hook` through PATH, here the launcher: one note says what
    // each event pays and the fix. The entry works, through Node.
    let said = project_install(&launcher, &npm.agent_path(), dir);
    let notes: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("agent's PATH"))
        .collect();
    assert_eq!(notes.len(), 1, "{said}");
    for part in [
        &format!("here that is {}, the Node launcher", launcher.display()),
        "starts Node first, about 70 ms, against a few ms for the binary",
        "`npm rebuild -g hook-engine --foreground-scripts`",
        "not --ignore-scripts",
    ] {
        assert!(notes[0].contains(part), "{part}: {said}");
    }
    project_entry_denies(&launcher, &npm.agent_path(), dir);

    // The postinstall under yarn (which may start `bin/hook` with Node) keeps the launcher,
    // and says so in one line.
    let out = Command::new("node")
        .arg("install.js")
        .current_dir(npm.package())
        .env(
            "npm_config_user_agent",
            "yarn/1.22.22 npm/? node/v20.0.0 linux x64",
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let said = text(&out.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.starts_with("hook-engine: yarn may start"), "{said}");
    assert!(!is_native(&launcher));

    // `npm rebuild` runs the postinstall: `hook` is the binary, put in place without a word.
    let said = npm.ok(&["rebuild", "hook-engine", "--foreground-scripts"]);
    assert!(said.contains("postinstall"), "{said}");
    assert!(!said.contains("hook-engine: "), "{said}");
    assert!(is_native(&launcher));
    let out = run(&launcher, &["--version"], "", None);
    assert_eq!(
        text(&out.stdout),
        format!("hook {}\n", env!("CARGO_PKG_VERSION"))
    );
    let said = project_install(&launcher, &npm.agent_path(), dir);
    assert!(!said.contains("agent's PATH"), "{said}");
    project_entry_denies(&launcher, &npm.agent_path(), dir);
    // Again, with the binary already in place: nothing is left beside it.
    npm.ok(&["rebuild", "hook-engine"]);
    assert!(is_native(&launcher));
    assert_eq!(listing(&npm.package().join("bin")), ["hook"]);
}

/// The wait status of `child` once it exits by itself (60 s at most, then a failure).
fn ended(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    exits(child).unwrap_or_else(|| panic!("{what}: the launcher never exited"))
}

/// The processes `pid` started (every thread's children: Node forks from more than one).
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let path = task.unwrap().path().join("children");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        found.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    found
}

/// SIGTERM to the launcher reaches `hook run` (`binary`, which the launcher starts), which
/// kills its hooks; a binary killed by a signal makes the launcher die of it.
fn passes_sigterm_on_and_ends_as_the_binary_ended(launcher: &Path, binary: &Path, dir: &Path) {
    // A wuu home (its user layer runs without trust) whose hook sleeps, and its event.
    let (home, project) = (dir.join("wuu-home"), dir.join("wuu-project"));
    std::fs::create_dir_all(&project).unwrap();
    let config = json!({"hooks": {"PreToolUse": [
        {"matcher": "*", "type": "command", "command": SLEEPER, "timeout": 600}]}});
    write(&home.join("config.json"), &config.to_string());
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "tool_name": "bash", "tool_input": {"command": "ls"}, "cwd": project});
    write(&dir.join("event.json"), &event.to_string());
    let start = || {
        std::fs::remove_file(project.join("pids")).ok();
        Command::new(launcher)
            .args(["run", "--dialect", "wuu", "--event", "PreToolUse", "--home"])
            .arg(&home)
            .arg("--project")
            .arg(&project)
            .arg("--input")
            .arg(dir.join("event.json"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // The hook's pids, once it wrote both (a bounded wait).
    let pids = || -> Vec<u32> {
        for _ in 0..3000 {
            if let Ok(text) = std::fs::read_to_string(project.join("pids")) {
                let pids: Vec<u32> = text.lines().filter_map(|l| l.parse().ok()).collect();
                if pids.len() >= 2 && text.ends_with('\n') {
                    return pids;
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!("the hook never wrote its pids");
    };
    let native_child = |launcher: u32| -> u32 {
        let found: Vec<u32> = children(launcher)
            .into_iter()
            .filter(|pid| {
                std::fs::read_link(format!("/proc/{pid}/exe"))
                    .ok()
                    .as_deref()
                    == Some(binary)
            })
            .collect();
        assert_eq!(found.len(), 1, "the launcher's hook children: {found:?}");
        found[0]
    };

    // SIGTERM to the launcher reaches `hook run`, which kills its hooks and exits 128 + 15:
    // the launcher exits with that code.
    let mut child = start();
    let hooks = pids();
    let native = native_child(child.id());
    signal(child.id(), "TERM");
    let status = ended(&mut child, "SIGTERM");
    let survivors: Vec<u32> = hooks.iter().copied().filter(|p| !dies(*p)).collect();
    for pid in &survivors {
        signal(*pid, "KILL");
    }
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status:?}: {stderr}");
    assert!(stderr.contains("SIGTERM received"), "{stderr}");
    assert!(survivors.is_empty(), "hooks {survivors:?} survived");
    assert!(dies(native), "hook run {native} survived");

    // A binary killed by a signal: the launcher dies of the same signal.
    let mut child = start();
    let hooks = pids();
    signal(native_child(child.id()), "KILL");
    let status = ended(&mut child, "SIGKILL of the binary");
    for pid in hooks {
        if alive(pid) {
            signal(pid, "KILL");
        }
    }
    assert_eq!(status.signal(), Some(9), "{status:?}");
}
