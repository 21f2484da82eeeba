//! `TrustView::trust`, the one way trust is written: the hash with the files' digests, and
//! the private copies a review diffs against.

use crate::common::{Setup, write};
use hook_protocol::Dialect;
use hook_trust::{TrustStatus, TrustedCopies};

fn guard_project(setup: &Setup) -> std::path::PathBuf {
    write(
        &setup.project(),
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh hooks/guard.sh"}]}]}}"#,
    );
    write(&setup.project(), "hooks/guard.sh", "echo no >&2; exit 2\n")
}

#[test]
fn a_grant_records_the_files_and_keeps_their_copies() {
    let setup = Setup::new(Dialect::Verboo);
    let script = guard_project(&setup);
    let loaded = setup.load();
    let handler = &loaded.registry.handlers()[0];
    let view = setup.view();
    assert_eq!(view.evaluate(handler).status, TrustStatus::Untrusted);

    let trusted = view
        .trust(setup.store().as_ref(), &[view.candidate(handler)])
        .expect("trust");
    assert!(
        trusted.copy_warnings.is_empty(),
        "{:?}",
        trusted.copy_warnings
    );
    let granted = &trusted.granted[0];
    assert_eq!(
        granted.files.keys().collect::<Vec<_>>(),
        ["<project>/hooks/guard.sh"]
    );
    assert!(
        granted
            .describe()
            .ends_with("and the files it runs: <project>/hooks/guard.sh"),
        "{}",
        granted.describe()
    );
    // The record holds the file: the hook is trusted, not "not yet recorded".
    let record = setup.store().load().expect("load")[&handler.key].clone();
    assert_eq!(
        record.trusted_files.as_ref().map(|f| f.len()),
        Some(1),
        "{record:?}"
    );
    let view = setup.view();
    assert_eq!(view.evaluate(handler).status, TrustStatus::Trusted);
    // A copy of what was trusted is kept for a later review.
    let copies = TrustedCopies::in_home(&setup.home());
    let digest = &granted.files["<project>/hooks/guard.sh"];
    assert_eq!(
        copies.read(digest).as_deref(),
        Some(&b"echo no >&2; exit 2\n"[..])
    );
    assert!(copies.read(&granted.hash).is_some());

    // Changed, it is modified; a review reads it once: digest and bytes agree.
    std::fs::write(&script, "exit 0\n").expect("write");
    let candidate = view.candidate_read(handler);
    assert_eq!(candidate.trust().status, TrustStatus::Modified);
    assert_eq!(candidate.contents(&script), Some(&b"exit 0\n"[..]));
    let trusted = view
        .trust(setup.store().as_ref(), &[candidate])
        .expect("trust");
    let digest = &trusted.granted[0].files["<project>/hooks/guard.sh"];
    assert_eq!(copies.read(digest).as_deref(), Some(&b"exit 0\n"[..]));
    assert_eq!(setup.view().evaluate(handler).status, TrustStatus::Trusted);
}

#[test]
fn nothing_is_trusted_when_a_file_cannot_be_hashed() {
    let setup = Setup::new(Dialect::Verboo);
    let script = guard_project(&setup);
    std::fs::remove_file(&script).expect("remove");
    std::fs::create_dir_all(script.parent().expect("parent")).expect("dir");
    // A FIFO where the script should be: never read, never trusted.
    let status = std::process::Command::new("mkfifo")
        .arg(&script)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let loaded = setup.load();
    let handler = &loaded.registry.handlers()[0];
    let view = setup.view();
    let error = view
        .trust(setup.store().as_ref(), &[view.candidate(handler)])
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("guard.sh") && message.contains("nothing was trusted"),
        "{message}"
    );
    assert!(setup.store().load().expect("load").is_empty());
}
