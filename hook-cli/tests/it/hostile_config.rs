//! Hostile configuration files through the `hook` binary (issue 10, items 4, 9 and 13):
//! `hook validate --config` reads a file exactly as the loader (`hook list`, `hook run`) does,
//! so both give the same verdict and the same positioned diagnostic; nothing aborts or hangs.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Runs `hook ARGS`; fails the test instead of hanging forever (the bound only detects a hang).
fn hook(args: &[&str], cwd: &Path) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(child.wait_with_output());
    });
    match receive.recv_timeout(Duration::from_secs(120)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("hook {args:?} hung");
        }
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The first `error: ` line of stderr.
fn first_error(out: &Output) -> String {
    stderr(out)
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_default()
        .to_owned()
}

/// How to make the file, and what its diagnostic starts with (after `error: <path>`).
struct Case {
    name: &'static str,
    dialect: &'static str,
    make: Box<dyn Fn(&Path)>,
    says: &'static str,
}

fn cases() -> Vec<Case> {
    let deep = 40_000;
    vec![
        Case {
            name: "invalid UTF-8",
            dialect: "verboo",
            make: Box::new(|p| std::fs::write(p, b"{\"hooks\": {}, \"x\": \"\xff\"}").unwrap()),
            says: ":1:21: the file is not UTF-8 text",
        },
        Case {
            name: "a TOML integer that does not fit",
            dialect: "lime",
            make: Box::new(|p| {
                std::fs::write(
                    p,
                    "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = 99999999999999999999\n",
                )
                .unwrap();
            }),
            says: ":5:11: invalid TOML: integer `99999999999999999999` does not fit in 64 bits",
        },
        Case {
            name: "40,000-deep JSON",
            dialect: "verboo",
            make: Box::new(move |p| {
                let text = format!(r#"{{"x": {}{}}}"#, "[".repeat(deep), "]".repeat(deep));
                std::fs::write(p, text).unwrap();
            }),
            says: ":1:134: invalid JSON: nesting deeper than 128 levels",
        },
        Case {
            name: "40,000-deep TOML",
            dialect: "lime",
            make: Box::new(move |p| {
                let text = format!("x = {}{}\n", "[".repeat(deep), "]".repeat(deep));
                std::fs::write(p, text).unwrap();
            }),
            says: ":1:",
        },
        Case {
            name: "a FIFO",
            dialect: "verboo",
            make: Box::new(|p| {
                assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
            }),
            says: ": the file is a FIFO, not a regular file",
        },
        Case {
            name: "a symlink to /dev/zero",
            dialect: "lime",
            make: Box::new(|p| std::os::unix::fs::symlink("/dev/zero", p).unwrap()),
            says: ": the file is a character device, not a regular file",
        },
        Case {
            name: "a 9 MiB file",
            dialect: "verboo",
            make: Box::new(|p| {
                let text = format!(r#"{{"pad": "{}"}}"#, "x".repeat(9 << 20));
                std::fs::write(p, text).unwrap();
            }),
            says: ": the file is 9437195 bytes, over the 8388608-byte (8 MiB) limit",
        },
    ]
}

#[test]
fn validate_config_and_the_loader_give_the_same_verdict() {
    for case in cases() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let name = if case.dialect == "lime" {
            "config.toml"
        } else {
            "settings.json"
        };
        let file = home.join(name);
        (case.make)(&file);
        let path = file.to_str().unwrap();

        let validate = hook(
            &["validate", "--dialect", case.dialect, "--config", path],
            dir.path(),
        );
        assert_eq!(
            validate.status.code(),
            Some(1),
            "{}: {}",
            case.name,
            stderr(&validate)
        );
        let verdict = first_error(&validate);
        assert!(
            verdict.starts_with(&format!("error: {path}{}", case.says)),
            "{}: {verdict}",
            case.name
        );

        // The same file as the user layer: `hook list` reports the same line and loads nothing.
        let list = hook(
            &[
                "list",
                "--dialect",
                case.dialect,
                "--json",
                "--home",
                home.to_str().unwrap(),
                "--project",
                dir.path().to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(
            list.status.code(),
            Some(0),
            "{}: {}",
            case.name,
            stderr(&list)
        );
        assert_eq!(first_error(&list), verdict, "{}", case.name);
        assert_eq!(
            String::from_utf8_lossy(&list.stdout).trim(),
            "[]",
            "{}",
            case.name
        );

        let to = if case.dialect == "lime" {
            "verboo"
        } else {
            "lime"
        };
        let convert = hook(
            &["convert", "--from", case.dialect, "--to", to, path],
            dir.path(),
        );
        assert_eq!(
            convert.status.code(),
            Some(1),
            "{}: {}",
            case.name,
            stderr(&convert)
        );
        assert_eq!(first_error(&convert), verdict, "{}", case.name);
    }
}
