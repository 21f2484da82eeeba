//! verboo's `CLAUDE_ENV_FILE` (issue 21): a 0600 file in a fresh 0700 folder inside the private
//! folder the engine is given (or the system's temporary folder), and a hook that replaces it
//! with a FIFO, a symlink, a folder or a huge file cannot hang or exhaust the engine.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{Setup, statuses};
use hook_exec::EngineOptions;
use hook_protocol::{Dialect, Outcome, RunStatus};
use serde_json::json;

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

/// A verboo user file whose SessionStart runs `commands`.
fn config(commands: &[&str]) -> String {
    let hooks: Vec<_> = commands
        .iter()
        .map(|c| json!({"type": "command", "command": c}))
        .collect();
    json!({"hooks": {"SessionStart": [{"hooks": hooks}]}}).to_string()
}

/// Dispatches SessionStart on another thread; fails the test when it takes over 60 s (a read
/// that waits on a FIFO would never return).
fn session_start(setup: Setup, options: EngineOptions) -> (Setup, Outcome) {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let engine = setup.engine(options);
        let input = setup.input(json!({"hook_event_name": "SessionStart", "source": "startup"}));
        let outcome = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(engine.dispatch(&input));
        let _ = send.send((setup, outcome));
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("the dispatch hung on what the hook left in CLAUDE_ENV_FILE")
}

/// What the hook wrote into the project folder about the file it was given.
const RECORD: &str = "printf %s \"$CLAUDE_ENV_FILE\" > given; stat -c %a \"$CLAUDE_ENV_FILE\" > file-mode; stat -c %a \"$(dirname \"$CLAUDE_ENV_FILE\")\" > dir-mode; echo 'export A=1' >> \"$CLAUDE_ENV_FILE\"";

fn read(setup: &Setup, name: &str) -> String {
    std::fs::read_to_string(setup.path("project").join(name))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn the_file_is_0600_in_a_fresh_0700_folder_inside_env_file_dir_and_removed_after() {
    let setup = Setup::new(Dialect::Verboo, &config(&[RECORD]));
    let env_dir = setup.path("home/hook-env");
    let options = EngineOptions::default().with_env_file_dir(env_dir.clone());
    let (setup, outcome) = session_start(setup, options);
    assert_eq!(outcome.session_env.as_deref(), Some("export A=1\n"));
    assert!(outcome.system_messages.is_empty(), "{outcome:?}");
    let given = PathBuf::from(read(&setup, "given"));
    assert_eq!(given.parent().unwrap().parent().unwrap(), env_dir);
    let folder = given.parent().unwrap().file_name().unwrap();
    assert!(
        folder.to_string_lossy().starts_with("hook-env-"),
        "{given:?}"
    );
    assert_eq!(read(&setup, "file-mode"), "600");
    assert_eq!(read(&setup, "dir-mode"), "700");
    // The configured folder is created private, and emptied after the dispatch.
    assert_eq!(mode(&env_dir), 0o700);
    assert_eq!(std::fs::read_dir(&env_dir).unwrap().count(), 0);
}

#[test]
fn without_a_folder_the_fresh_private_folder_is_in_the_temporary_folder() {
    let setup = Setup::new(Dialect::Verboo, &config(&[RECORD]));
    let (setup, outcome) = session_start(setup, EngineOptions::default());
    assert_eq!(outcome.session_env.as_deref(), Some("export A=1\n"));
    let given = PathBuf::from(read(&setup, "given"));
    assert!(given.starts_with(std::env::temp_dir()), "{given:?}");
    assert_eq!(read(&setup, "file-mode"), "600");
    assert_eq!(read(&setup, "dir-mode"), "700");
    assert!(!given.exists());
}

/// Puts something unsafe at a path.
type MakeFolder = fn(&Path);

#[test]
fn an_unsafe_folder_is_refused_and_the_hooks_still_run_without_the_variable() {
    let cases: [(&str, MakeFolder, &str); 3] = [
        (
            "symlink",
            |dir| std::os::unix::fs::symlink("/tmp", dir).unwrap(),
            "is a symbolic link",
        ),
        (
            "0777",
            |dir| {
                std::fs::create_dir(dir).unwrap();
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            },
            "is writable by group or others (mode 777)",
        ),
        (
            "file",
            |dir| std::fs::write(dir, "").unwrap(),
            "is not a directory",
        ),
    ];
    for (name, make, says) in cases {
        let setup = Setup::new(
            Dialect::Verboo,
            &config(&["printf %s \"${CLAUDE_ENV_FILE:-unset}\" > given"]),
        );
        let env_dir = setup.path("home/hook-env");
        make(&env_dir);
        let options = EngineOptions::default().with_env_file_dir(env_dir.clone());
        let (setup, outcome) = session_start(setup, options);
        assert_eq!(statuses(&outcome), [RunStatus::Ok], "{name}");
        // Not set by the engine: what the test's own environment has, if anything.
        let inherited = std::env::var("CLAUDE_ENV_FILE").unwrap_or_else(|_| "unset".to_owned());
        assert_eq!(read(&setup, "given"), inherited, "{name}");
        assert_eq!(outcome.session_env, None, "{name}");
        let message = outcome.system_messages.join("\n");
        assert!(
            message.starts_with(&format!(
                "CLAUDE_ENV_FILE: the private folder {}",
                env_dir.display()
            )),
            "{name}: {message}"
        );
        assert!(message.contains(says), "{name}: {message}");
        assert!(message.ends_with("; no environment is kept"), "{message}");
    }
}

#[test]
fn a_fifo_symlink_folder_or_huge_file_in_its_place_is_refused_without_waiting() {
    let secret = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(secret.path(), "export SECRET=1\n").unwrap();
    let link_to_secret = format!(
        "rm \"$CLAUDE_ENV_FILE\"; ln -s {} \"$CLAUDE_ENV_FILE\"",
        secret.path().display()
    );
    let cases = [
        (
            "rm \"$CLAUDE_ENV_FILE\"; mkfifo \"$CLAUDE_ENV_FILE\"",
            "is a FIFO, not a regular file",
        ),
        (
            "rm \"$CLAUDE_ENV_FILE\"; ln -s /dev/zero \"$CLAUDE_ENV_FILE\"",
            "is a symbolic link, not a regular file",
        ),
        (
            link_to_secret.as_str(),
            "is a symbolic link, not a regular file",
        ),
        (
            "rm \"$CLAUDE_ENV_FILE\"; mkdir \"$CLAUDE_ENV_FILE\"",
            "is a directory, not a regular file",
        ),
        (
            "truncate -s 4G \"$CLAUDE_ENV_FILE\"",
            "is 4294967296 bytes, over the 1048576-byte (1 MiB) limit of CLAUDE_ENV_FILE",
        ),
        (
            "head -c 1048577 /dev/zero | tr '\\0' x >> \"$CLAUDE_ENV_FILE\"",
            "is 1048577 bytes, over the 1048576-byte (1 MiB) limit of CLAUDE_ENV_FILE",
        ),
    ];
    for (command, says) in cases {
        let setup = Setup::new(
            Dialect::Verboo,
            // Alone: verboo runs hooks concurrently, and another writer would race the swap.
            &config(&[command]),
        );
        let env_dir = setup.path("home/hook-env");
        let options = EngineOptions::default().with_env_file_dir(env_dir.clone());
        let (_setup, outcome) = session_start(setup, options);
        assert_eq!(
            statuses(&outcome),
            [RunStatus::Ok],
            "{command}: {outcome:?}"
        );
        assert_eq!(outcome.session_env, None, "{command}");
        let message = outcome.system_messages.join("\n");
        assert!(message.starts_with("CLAUDE_ENV_FILE: "), "{message}");
        assert!(message.contains(says), "{command}: {message}");
        // Whatever the hook left is gone with the dispatch's folder.
        assert_eq!(std::fs::read_dir(&env_dir).unwrap().count(), 0, "{command}");
    }
    assert_eq!(
        std::fs::read_to_string(secret.path()).unwrap(),
        "export SECRET=1\n"
    );
}

#[test]
fn folders_a_killed_engine_left_are_removed_once_old() {
    let setup = Setup::new(Dialect::Verboo, &config(&["true"]));
    let env_dir = setup.path("home/hook-env");
    std::fs::create_dir(&env_dir).unwrap();
    std::fs::set_permissions(&env_dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    for name in ["hook-env-old", "hook-env-new", "other-old"] {
        std::fs::create_dir(env_dir.join(name)).unwrap();
        std::fs::write(env_dir.join(name).join("env.sh"), "x").unwrap();
    }
    let eight_days_ago = std::time::SystemTime::now() - Duration::from_secs(8 * 24 * 3600);
    for name in ["hook-env-old", "other-old"] {
        std::fs::File::open(env_dir.join(name))
            .unwrap()
            .set_modified(eight_days_ago)
            .unwrap();
    }
    let options = EngineOptions::default().with_env_file_dir(env_dir.clone());
    let (_setup, _) = session_start(setup, options);
    let mut left: Vec<String> = std::fs::read_dir(&env_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["hook-env-new", "other-old"]);
}
