//! The journal as an embedder opts in to it: `EngineOptions::with_journal`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use crate::common::{Setup, pre_tool_use};
use hook_exec::EngineOptions;
use hook_exec::journal::Journal;
use hook_exec::journal::Record;
use hook_protocol::{Decision, Dialect, RunStatus};

const GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo 'refused: rm' >&2; exit 2"}]}]}}"#;

#[test]
fn an_engine_given_a_journal_records_each_dispatch_and_nothing_of_the_input_beyond_its_summary() {
    let setup = Setup::new(Dialect::Verboo, GUARD);
    let journal = Arc::new(Journal::for_home(&setup.path("home")));
    let engine = setup.engine(EngineOptions::default().with_journal(Arc::clone(&journal)));
    let mut call = pre_tool_use("Bash", "rm -rf / # token=s3cr3t");
    call["tool_input"]["description"] = "a field the journal does not keep".into();
    let input = setup.input(call);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Block);
    // Written on a blocking thread, after the outcome was returned.
    assert!(journal.wait_idle(std::time::Duration::from_secs(30)));
    assert_eq!(journal.first_error(), None);

    let dir = setup.path("home/hook-journal");
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    let file = dir.join("journal.jsonl");
    assert_eq!(mode(&file), 0o600);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(!text.contains("a field the journal does not keep"));
    let record: Record = serde_json::from_str(text.trim_end()).unwrap();
    assert_eq!(record.front, "library");
    assert_eq!(record.decision, Decision::Block);
    assert_eq!(record.summary.as_deref(), Some("rm -rf / # token=s3cr3t"));
    assert_eq!(record.runs[0].status, RunStatus::Blocked);
    assert_eq!(record.runs[0].stderr.as_deref(), Some("refused: rm\n"));
}

#[test]
fn an_unwritable_journal_leaves_the_outcome_alone_and_keeps_the_first_error() {
    let setup = Setup::new(Dialect::Verboo, GUARD);
    let dir = setup.path("home/hook-journal");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let journal = Arc::new(Journal::new(&dir));
    let engine = setup.engine(EngineOptions::default().with_journal(Arc::clone(&journal)));
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Block);
    assert!(journal.wait_idle(std::time::Duration::from_secs(30)));
    let error = journal.first_error().unwrap();
    assert!(error.contains("writable by group or others"), "{error}");
    assert!(!dir.join("journal.jsonl").exists());
}

#[test]
fn a_held_journal_lock_never_delays_a_dispatch_and_rotation_is_skipped() {
    let setup = Setup::new(Dialect::Verboo, GUARD);
    let dir = setup.path("home/hook-journal");
    // Rotation past every line: each dispatch tries the lock.
    let journal = Arc::new(Journal::new(&dir).with_limits(1, 4));
    let engine = setup.engine(EngineOptions::default().with_journal(Arc::clone(&journal)));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let lock =
        hook_fs::open_lock(&dir.join("journal.lock"), hook_fs::LockPolicy::Immediate).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for _ in 0..3 {
        let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
        let outcome = runtime.block_on(engine.dispatch(&input));
        assert_eq!(outcome.decision, Decision::Block);
    }
    assert!(journal.wait_idle(std::time::Duration::from_secs(30)));
    assert_eq!(journal.first_error(), None);
    // Never rotated while held: every line is in the live file.
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 3);
    drop(lock);
}
