//! Every command given a missing file, a directory, unreadable bytes, an unknown dialect or
//! event, or an empty stdin says so in one clear line and exits 1 (2 for usage errors); none
//! panics (in-process: a panic would fail the test itself).

use super::hook_bytes;

struct Run {
    code: u8,
    /// stderr, then stdout (`validate` reports an invalid output on stdout).
    stderr: String,
}

fn hook(args: &[&str], stdin: &[u8]) -> Run {
    let ran = hook_bytes(args, stdin);
    Run {
        code: ran.code,
        stderr: ran.stderr + &ran.stdout,
    }
}

#[test]
fn bad_files_and_stdin_are_one_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    std::fs::write(cwd.join("garbage"), [0xff, 0xfe, 0x00, 0x9f, b'{', 0x80]).unwrap();
    std::fs::create_dir(cwd.join("folder")).unwrap();
    let here = cwd.display().to_string();
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
            &here,
            "--project",
            &here,
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
            let path = cwd.join(file).display().to_string();
            let args: Vec<&str> = command
                .iter()
                .map(|a| if *a == "FILE" { path.as_str() } else { *a })
                .collect();
            let run = hook(&args, b"");
            let one_line = run.stderr.lines().count() == 1 && !run.stderr.contains("panicked");
            if run.code != 1 || !one_line {
                failures.push(format!(
                    "{args:?}: exit {:?}, stderr {:?}",
                    run.code, run.stderr
                ));
            }
        }
    }
    let run_stop = [
        "run",
        "--dialect",
        "lime",
        "--event",
        "Stop",
        "--home",
        &here,
        "--project",
        &here,
    ];
    for args in [
        &["validate", "--dialect", "lime", "--event", "Stop"][..],
        &run_stop[..],
    ] {
        for stdin in [&b""[..], b"  \n", b"\xff\xfe not json"] {
            let run = hook(args, stdin);
            // Empty stdin is an error; bytes that are not JSON are invalid output (validate) or
            // bad input (run): exit 1 either way, never a panic.
            if run.code != 1 || run.stderr.contains("panicked") {
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
    let missing = dir.path().join("x.json").display().to_string();
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
        &["convert", "--from", "vim", "--to", "lime", &missing],
        &["new", "my-hook", "--dialect", "vim"],
    ];
    let mut failures = Vec::new();
    for args in dialect_commands {
        let run = hook(args, b"{}");
        if run.code != 2 || !run.stderr.contains("unknown dialect `vim`") {
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
        let run = hook(args, b"{}");
        let line = run.stderr.trim_end();
        if run.code != 1
            || line.lines().count() != 1
            || !line.starts_with("error: unknown lime event `Notification`")
        {
            failures.push(format!("{args:?}: exit {:?}, {:?}", run.code, run.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
