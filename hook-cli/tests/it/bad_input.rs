//! Every command given a missing file, a directory, unreadable bytes, an unknown dialect or
//! event, or an empty stdin says so in one clear line and exits 1 (2 for usage errors); none
//! panics.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

struct Run {
    code: Option<i32>,
    /// stderr, then stdout (`validate` reports an invalid output on stdout).
    stderr: String,
}

fn hook(args: &[&str], stdin: &[u8], cwd: &Path) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(stdin);
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    Run {
        code: out.status.code(),
        stderr: text,
    }
}

#[test]
fn bad_files_and_stdin_are_one_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    std::fs::write(cwd.join("garbage"), [0xff, 0xfe, 0x00, 0x9f, b'{', 0x80]).unwrap();
    std::fs::create_dir(cwd.join("folder")).unwrap();
    // Each command that reads a file, with `FILE` standing for the bad file.
    let commands: &[&[&str]] = &[
        &["validate", "--dialect", "lime", "--event", "Stop", "FILE"],
        &["validate", "--dialect", "verboo", "--config", "FILE"],
        &[
            "run",
            "--dialect",
            "wuu",
            "--event",
            "Stop",
            "--input",
            "FILE",
            "--home",
            ".",
        ],
        &["convert", "--from", "verboo", "--to", "lime", "FILE"],
        &[
            "test",
            "--dialect",
            "lime",
            "--event",
            "Stop",
            "--input",
            "FILE",
            "--",
            "true",
        ],
    ];
    let mut failures = Vec::new();
    for command in commands {
        for file in ["missing", "folder", "garbage"] {
            let args: Vec<&str> = command
                .iter()
                .map(|a| if *a == "FILE" { file } else { *a })
                .collect();
            let run = hook(&args, b"", cwd);
            let one_line = run.stderr.lines().count() == 1 && !run.stderr.contains("panicked");
            if run.code != Some(1) || !one_line {
                failures.push(format!(
                    "{args:?}: exit {:?}, stderr {:?}",
                    run.code, run.stderr
                ));
            }
        }
    }
    for args in [
        &["validate", "--dialect", "lime", "--event", "Stop"][..],
        &["run", "--dialect", "lime", "--event", "Stop", "--home", "."][..],
    ] {
        for stdin in [&b""[..], b"  \n", b"\xff\xfe not json"] {
            let run = hook(args, stdin, cwd);
            // Empty stdin is an error; bytes that are not JSON are invalid output (validate) or
            // bad input (run): exit 1 either way, never a panic.
            if run.code != Some(1) || run.stderr.contains("panicked") {
                failures.push(format!(
                    "{args:?} <{stdin:?}: exit {:?}, {:?}",
                    run.code, run.stderr
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unknown_dialects_are_usage_errors_and_unknown_events_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let dialect_commands: &[&[&str]] = &[
        &["schema", "--dialect", "vim", "--event", "Stop"],
        &["validate", "--dialect", "vim", "--event", "Stop"],
        &["run", "--dialect", "vim", "--event", "Stop"],
        &["list", "--dialect", "vim"],
        &["trust", "--dialect", "vim", "--all"],
        &["untrust", "--dialect", "vim", "--all"],
        &["enable", "--dialect", "vim", "--all"],
        &["disable", "--dialect", "vim", "--all"],
        &["test", "--dialect", "vim", "--event", "Stop", "--", "true"],
        &["convert", "--from", "vim", "--to", "lime", "x.json"],
        &["new", "my-hook", "--dialect", "vim"],
    ];
    let mut failures = Vec::new();
    for args in dialect_commands {
        let run = hook(args, b"{}", cwd);
        if run.code != Some(2) || !run.stderr.contains("unknown dialect `vim`") {
            failures.push(format!("{args:?}: exit {:?}, {:?}", run.code, run.stderr));
        }
    }
    let event_commands: &[&[&str]] = &[
        &["schema", "--dialect", "lime", "--event", "Notification"],
        &["validate", "--dialect", "lime", "--event", "Notification"],
        &["run", "--dialect", "lime", "--event", "Notification"],
        &[
            "test",
            "--dialect",
            "lime",
            "--event",
            "Notification",
            "--",
            "true",
        ],
    ];
    for args in event_commands {
        let run = hook(args, b"{}", cwd);
        let line = run.stderr.trim_end();
        if run.code != Some(1)
            || line.lines().count() != 1
            || !line.starts_with("error: unknown lime event `Notification`")
        {
            failures.push(format!("{args:?}: exit {:?}, {:?}", run.code, run.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
