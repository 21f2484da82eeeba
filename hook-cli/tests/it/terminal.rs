//! A closed stdout (a real pipe whose reader is gone) is a quiet exit, never a panic: it needs
//! the binary's own stdout; and colour on a real terminal, as `NO_COLOR` says. Escaping, usage
//! errors and colour's every case are tested in-process (`hook-cli/src/tests/terminal.rs`,
//! `colour.rs`).
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

/// On a real terminal (a pseudo-terminal), `hook relay status` is coloured; with `NO_COLOR=1`
/// it is not; `NO_COLOR=` (empty) is unset (<https://no-color.org>).
#[cfg(unix)]
#[test]
fn colour_on_a_terminal_unless_no_color() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let cases = [(None, true), (Some("1"), false), (Some(""), true)];
    for (no_color, coloured) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
        command
            .args(["relay", "status", "--agent", "claude"])
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("NO_COLOR");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        let mut session = rexpect::session::spawn_command(command, Some(60_000)).unwrap();
        let shown = session.exp_eof().unwrap();
        assert!(
            shown.contains("Claude Code (--agent claude): "),
            "{shown:?}"
        );
        assert_eq!(
            shown.contains("\x1b[33mnot set up"),
            coloured,
            "NO_COLOR={no_color:?}: {shown:?}"
        );
        assert_eq!(
            shown.contains('\x1b'),
            coloured,
            "NO_COLOR={no_color:?}: {shown:?}"
        );
    }
}
