//! A closed stdout (a real pipe whose reader is gone) is a quiet exit, never a panic: it needs
//! the binary's own stdout. Escaping and usage errors are tested in-process
//! (`hook-cli/src/tests/terminal.rs`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_is_a_quiet_exit() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 4] = [
        &["schema", "--outcome"],
        &["list", "--dialect", "wuu"],
        &["completions", "bash"],
        &["--help"],
    ];
    for args in cases {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(args)
            .env("HOME", dir.path())
            .env("WUU_HOME", dir.path())
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "hook {args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "hook {args:?}: {stderr}");
    }
}
