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

/// A verboo project hook running `command`, loaded; the project holds `files`.
fn project_hook(setup: &Setup, command: &str, files: &[(&str, &str)]) -> hook_config::Loaded {
    for (rel, text) in files {
        write(&setup.project(), rel, text);
    }
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command}]}]}});
    write(
        &setup.project(),
        ".claude/settings.json",
        &settings.to_string(),
    );
    setup.load()
}

/// A form of command: (what, command, files in the project, names covered, the file whose
/// change must show).
type Form = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    &'static str,
);

#[test]
fn what_a_command_really_runs_is_covered() {
    let table: &[Form] = &[
        (
            "a script inside sh -c",
            "bash -c 'sh hooks/x.sh'",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        // The rows below were not covered before trust read commands with the one command
        // reader (`hook_protocol::shell::read_command`) doctor and `if` rules use.
        (
            "a script inside sh -c behind `time`",
            "time bash -c 'sh hooks/x.sh'",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        (
            "a script inside sh -c after `-o pipefail`",
            "bash -o pipefail -c 'sh hooks/x.sh | cat'",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        (
            "a script inside eval",
            "eval 'bash -c \"sh hooks/x.sh\"'",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        (
            "a module python runs behind sudo",
            "sudo -E python3 -m pkg.check",
            &[
                ("pkg/__init__.py", ""),
                ("pkg/check.py", "raise SystemExit(2)\n"),
            ],
            &["<project>/pkg/__init__.py", "<project>/pkg/check.py"],
            "pkg/check.py",
        ),
        (
            "a script after a cd inside if",
            "if cd hooks; then ./x.sh; fi",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        (
            "a script after cd",
            "cd hooks && ./x.sh",
            &[("hooks/x.sh", "exit 2\n")],
            &["<project>/hooks/x.sh"],
            "hooks/x.sh",
        ),
        (
            "a folder python runs",
            "python3 tool",
            &[("tool/__main__.py", "raise SystemExit(2)\n")],
            &["<project>/tool/__main__.py"],
            "tool/__main__.py",
        ),
        (
            "a module python runs from the project",
            "python3 -m pkg.check",
            &[
                ("pkg/__init__.py", ""),
                ("pkg/check.py", "raise SystemExit(2)\n"),
            ],
            &["<project>/pkg/__init__.py", "<project>/pkg/check.py"],
            "pkg/check.py",
        ),
        (
            "a folder node runs",
            "node app",
            &[
                ("app/package.json", "{\"main\": \"lib/start.js\"}"),
                ("app/lib/start.js", "process.exit(2)\n"),
            ],
            &["<project>/app/lib/start.js", "<project>/app/package.json"],
            "app/lib/start.js",
        ),
        (
            "an interpreter a script's #! names inside the project",
            "./hooks/run",
            &[
                ("hooks/run", "#!/usr/bin/env ./tools/interp\nexit 2\n"),
                ("tools/interp", "#!/bin/sh\nexit 2\n"),
            ],
            &["<project>/hooks/run", "<project>/tools/interp"],
            "tools/interp",
        ),
    ];
    for (what, command, files, covered, edit) in table {
        let setup = Setup::new(Dialect::Verboo);
        let loaded = project_hook(&setup, command, files);
        let handler = &loaded.registry.handlers()[0];
        let view = setup.view();
        let trust = view.evaluate(handler);
        let names: Vec<&str> = trust.files.iter().map(|f| f.name.as_str()).collect();
        for name in *covered {
            assert!(names.contains(name), "{what}: {name} not in {names:?}");
        }
        assert!(trust.uncovered.is_empty(), "{what}: {trust:#?}");
        view.trust(setup.store().as_ref(), &[view.candidate(handler)])
            .expect("trust");
        assert_eq!(
            setup.view().evaluate(handler).status,
            TrustStatus::Trusted,
            "{what}"
        );
        let path = setup.project().join(edit);
        let mut text = std::fs::read_to_string(&path).expect("read");
        text.push_str("# changed\n");
        std::fs::write(&path, text).expect("write");
        let trust = setup.view().evaluate(handler);
        assert_eq!(trust.status, TrustStatus::Modified, "{what}: {trust:#?}");
        let phrase = trust.files_phrase().unwrap_or_default();
        let file_name = std::path::Path::new(edit)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(
            phrase.contains(&format!("{file_name} changed")),
            "{what}: {phrase}"
        );
    }
}

#[test]
fn a_trusted_dotdot_path_is_modified_when_its_folder_becomes_a_link() {
    let setup = Setup::new(Dialect::Verboo);
    let loaded = project_hook(
        &setup,
        "sh hooks/lib/../guard.sh",
        &[("hooks/guard.sh", "exit 2\n"), ("hooks/lib/util.sh", "")],
    );
    let handler = &loaded.registry.handlers()[0];
    let view = setup.view();
    view.trust(setup.store().as_ref(), &[view.candidate(handler)])
        .expect("trust");
    assert_eq!(setup.view().evaluate(handler).status, TrustStatus::Trusted);

    // `hooks/lib` becomes a link to a folder elsewhere: `hooks/lib/../guard.sh` now opens
    // the `guard.sh` beside that folder, outside the project.
    let elsewhere = setup.scene.root().join("elsewhere");
    write(&elsewhere, "sub/keep", "");
    write(&elsewhere, "guard.sh", "exit 0\n");
    std::fs::remove_dir_all(setup.project().join("hooks/lib")).expect("remove");
    std::os::unix::fs::symlink(elsewhere.join("sub"), setup.project().join("hooks/lib"))
        .expect("link");
    let trust = setup.view().evaluate(handler);
    assert_eq!(trust.status, TrustStatus::Modified, "{trust:#?}");
    assert_eq!(trust.uncovered.len(), 1, "{trust:#?}");
    let phrase = trust.files_phrase().unwrap_or_default();
    assert!(
        phrase.contains("hooks/lib/../guard.sh not covered")
            && phrase.contains("symbolic link")
            && phrase.contains("elsewhere/guard.sh"),
        "{phrase}"
    );
    // And it cannot be trusted as it is.
    let view = setup.view();
    let error = view
        .trust(setup.store().as_ref(), &[view.candidate(handler)])
        .unwrap_err();
    assert!(
        matches!(error, hook_trust::GrantError::Uncovered { .. }),
        "{error}"
    );
}

/// A hook trusted before trust read commands with the shared command reader, whose record
/// lacks a file the reader now covers (`time` was not looked through): it reads `modified`,
/// naming the file `added`, until trusted again. Its hash is unchanged; the file's contents
/// were never recorded, and nothing never reviewed runs.
#[test]
fn a_file_the_reader_now_covers_makes_an_older_record_modified_naming_it() {
    let setup = Setup::new(Dialect::Verboo);
    let command = "./hooks/a.sh; time bash -c 'sh hooks/x.sh'";
    let files = [("hooks/a.sh", "exit 0\n"), ("hooks/x.sh", "exit 2\n")];
    let loaded = project_hook(&setup, command, &files);
    let handler = &loaded.registry.handlers()[0];
    let now = setup.view().evaluate(handler);
    // What the old reader recorded: `a.sh`, not `x.sh`.
    let mut recorded = now.current_files();
    assert!(
        recorded.remove("<project>/hooks/x.sh").is_some(),
        "{now:#?}"
    );
    assert!(recorded.contains_key("<project>/hooks/a.sh"), "{now:#?}");
    let older = hook_trust::Grant::new(handler.key.clone(), now.hash.clone())
        .with_command(command)
        .with_files(recorded);
    setup.store().set_trusted(&[older]).expect("recorded");
    let trust = setup.view().evaluate(handler);
    assert_eq!(trust.hash, now.hash);
    assert_eq!(trust.status, TrustStatus::Modified, "{trust:#?}");
    assert_eq!(
        trust.files_phrase().as_deref(),
        Some("x.sh added"),
        "{trust:#?}"
    );
}
