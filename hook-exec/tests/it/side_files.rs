//! lime side files (over-limit `additionalContext`): a private folder (0700, files 0600),
//! created without following links, refused when it is not private, with a retention bound.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::common::Setup;
use hook_exec::EngineOptions;
use hook_exec::context::{
    SIDE_FILE_MAX_AGE, SIDE_FILE_MAX_COUNT, SideFileError, limit_context, write_side_file,
};
use hook_protocol::{Dialect, Outcome, RunStatus};
use serde_json::json;

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

const LONG_CONTEXT: &str = r#"
[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "head -c 300 /dev/zero | tr '\\0' 'x'"
additionalContextLimit = 100
"#;

/// Dispatches a lime SessionStart.
fn session_start(setup: &Setup, options: EngineOptions) -> Outcome {
    let engine = setup.engine(options);
    let input = setup.input(json!({"hook_event_name": "SessionStart", "source": "startup"}));
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

#[test]
fn the_folder_is_created_0700_and_the_file_0600() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let side = setup.path("home/hook-context");
    let options = EngineOptions::default().with_side_file_dir(side.clone());
    let outcome = session_start(&setup, options);
    assert_eq!(outcome.runs[0].warnings, Vec::<String>::new());
    assert_eq!(mode(&side), 0o700);
    let files = names(&side);
    assert_eq!(files.len(), 1);
    let file = side.join(&files[0]);
    assert_eq!(mode(&file), 0o600);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x".repeat(300));
    assert!(
        outcome
            .additional_context
            .unwrap()
            .contains(&file.display().to_string())
    );
}

#[test]
fn with_no_folder_no_side_file_is_written_and_the_preview_says_so() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let outcome = session_start(&setup, EngineOptions::default());
    assert_eq!(outcome.runs[0].status, RunStatus::Ok);
    assert_eq!(
        outcome.additional_context.unwrap(),
        format!(
            "{}\n[... 200 of 300 characters omitted and not kept ...]\n{}",
            "x".repeat(50),
            "x".repeat(50)
        )
    );
}

#[test]
fn a_folder_that_is_a_symlink_is_refused_and_nothing_lands_at_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o700)).unwrap();
    let side = dir.path().join("hook-context");
    std::os::unix::fs::symlink(&elsewhere, &side).unwrap();

    let error = limit_context(&"x".repeat(50), 10, Some(&side), "k").unwrap_err();
    assert!(matches!(error, SideFileError::Symlink { .. }), "{error}");
    assert!(error.to_string().contains("is a symbolic link"), "{error}");
    assert!(names(&elsewhere).is_empty());
}

#[test]
fn a_side_file_name_planted_as_a_symlink_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let side = dir.path().join("hook-context");
    let target = dir.path().join("victim");
    std::fs::write(&target, "precious").unwrap();
    write_side_file(&side, "first.txt", "one").unwrap();
    std::os::unix::fs::symlink(&target, side.join("planted.txt")).unwrap();

    let error = write_side_file(&side, "planted.txt", "attack").unwrap_err();
    let SideFileError::Write { path, source } = &error else {
        panic!("{error}");
    };
    assert_eq!(path, &side.join("planted.txt"));
    assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
}

#[test]
fn a_folder_writable_by_others_or_not_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let side = dir.path().join("hook-context");
    std::fs::create_dir(&side).unwrap();
    for writable in [0o770, 0o777, 0o722] {
        std::fs::set_permissions(&side, std::fs::Permissions::from_mode(writable)).unwrap();
        let error = write_side_file(&side, "a.txt", "text").unwrap_err();
        assert!(
            matches!(error, SideFileError::Writable { mode, .. } if mode == writable),
            "{writable:o}: {error}"
        );
        assert!(error.to_string().contains("chmod 700"), "{error}");
    }
    // Readable by others is not a risk: the files themselves are 0600.
    std::fs::set_permissions(&side, std::fs::Permissions::from_mode(0o755)).unwrap();
    write_side_file(&side, "a.txt", "text").unwrap();
    assert_eq!(mode(&side.join("a.txt")), 0o600);

    let file = dir.path().join("plain");
    std::fs::write(&file, "").unwrap();
    let error = write_side_file(&file, "a.txt", "text").unwrap_err();
    assert!(
        matches!(error, SideFileError::NotADirectory { .. }),
        "{error}"
    );
}

#[test]
fn a_refused_folder_keeps_the_whole_text_with_a_warning() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let side = setup.path("home/hook-context");
    std::os::unix::fs::symlink("/tmp", &side).unwrap();
    let options = EngineOptions::default().with_side_file_dir(side);
    let outcome = session_start(&setup, options);
    assert_eq!(outcome.additional_context.unwrap(), "x".repeat(300));
    let warning = &outcome.runs[0].warnings[0];
    assert!(
        warning.starts_with(
            "additionalContext is over its limit of 100 characters but the private folder"
        ),
        "{warning}"
    );
    assert!(warning.contains("is a symbolic link"), "{warning}");
}

/// A side file `name` whose modification time is `age` ago.
fn old_file(dir: &Path, name: &str, age: Duration) {
    let path = dir.join(name);
    std::fs::write(&path, name).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn files_past_the_age_or_count_bound_are_removed_when_a_new_one_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let side = dir.path().join("hook-context");
    write_side_file(&side, "first.txt", "first").unwrap();

    // Too old: removed.
    old_file(
        &side,
        "stale.txt",
        SIDE_FILE_MAX_AGE + Duration::from_secs(3600),
    );
    // Not a side file: left alone, old or not.
    old_file(&side, "notes.md", SIDE_FILE_MAX_AGE * 2);
    // The count bound: the oldest go first.
    for i in 0..SIDE_FILE_MAX_COUNT + 5 {
        let age = Duration::from_secs(3600 * (1 + i as u64));
        old_file(&side, &format!("n{i:03}.txt"), age);
    }
    write_side_file(&side, "new.txt", "new").unwrap();

    let kept = names(&side);
    assert!(!kept.contains(&"stale.txt".to_owned()));
    assert!(kept.contains(&"notes.md".to_owned()));
    assert!(kept.contains(&"new.txt".to_owned()));
    assert!(kept.contains(&"first.txt".to_owned()), "the newest stay");
    let side_files = kept.iter().filter(|n| n.ends_with(".txt")).count();
    assert_eq!(side_files, SIDE_FILE_MAX_COUNT);
    // n000 (1 h old) to n097 stay with first.txt and new.txt; n098 to n104 (the oldest) go.
    assert!(kept.contains(&"n097.txt".to_owned()));
    assert!(!kept.contains(&"n098.txt".to_owned()));
}

#[test]
fn a_folder_of_another_user_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let side = dir.path().join("hook-context");
    std::fs::create_dir(&side).unwrap();
    std::fs::set_permissions(&side, std::fs::Permissions::from_mode(0o700)).unwrap();
    // Only root can give a folder away: elsewhere this case cannot be set up.
    let nobody = 65534;
    if std::os::unix::fs::chown(&side, Some(nobody), Some(nobody)).is_err() {
        return;
    }
    let error = write_side_file(&side, "a.txt", "text").unwrap_err();
    assert!(
        matches!(error, SideFileError::ForeignOwner { owner, .. } if owner == nobody),
        "{error}"
    );
    assert!(names(&side).is_empty());
}
