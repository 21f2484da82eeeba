//! The `hook` binary, run as a user runs it.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::process::{Command, Output, Stdio};

use hook_test_support::Runner;

/// `hook args` with `stdin`, as a user (or an agent) runs it; shared by the suite's files.
pub(crate) fn hook(args: &[&str], stdin: &str) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    hook_bytes(&args, stdin.as_bytes(), &[])
}

/// `hook args` with `stdin` as raw bytes and `env` set, as an agent runs it: the agents'
/// variables of the environment running the tests (`CLAUDE_PROJECT_DIR`, `CLAUDE_ENV_FILE`)
/// are removed first, so only `env` chooses them.
pub(crate) fn hook_bytes(args: &[&OsStr], stdin: &[u8], env: &[(&str, &OsStr)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_ENV_FILE")
        // Set when these tests run inside Copilot CLI: the relay would answer as it reads it.
        .env_remove("COPILOT_CLI")
        // It would colour the text a test compares (`NO_COLOR` is the test's to set).
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hook binary cargo built for this test runs");
    // The command may exit before reading stdin (a usage error): a broken pipe is fine.
    let mut pipe = child.stdin.take().expect("stdin was piped");
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child
        .wait_with_output()
        .expect("the hook binary can be waited for")
}

pub(crate) use hook_test_support::fs::text;

/// The kit's [`Runner`] for this suite: the `hook` binary cargo built, run by [`hook_bytes`].
pub(crate) struct Binary;

impl Runner for Binary {
    fn run(&self, args: &[&str], stdin: &[u8]) -> hook_test_support::Output {
        let words: Vec<OsString> = std::iter::once(env!("CARGO_BIN_EXE_hook"))
            .chain(args.iter().copied())
            .map(Into::into)
            .collect();
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        hook_test_support::Output::new(&words, hook_bytes(&args, stdin, &[]), String::new())
    }
}

/// A user's home with Claude Code's settings (one setting of the user's own) and a relay hook.
fn claude_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("a temporary folder");
    let write = |relative: &str, text: &str| {
        let path = home.path().join(relative);
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("a folder");
        std::fs::write(path, text).expect("a file");
    };
    write(".claude/settings.json", r#"{"model": "opus"}"#);
    write(
        ".claude/hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    home
}

/// `hook args` with `home` as `HOME` (the agents' own variables unset), as a user runs it: its
/// exit code, stdout and stderr.
fn in_home(home: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(home)
        .env("HOME", home)
        .env("CODEX_HOME", home.join(".codex"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("COPILOT_CLI")
        .stdin(Stdio::null())
        .output()
        .expect("the hook binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `-q`, `-v` and `--color` go anywhere on the command line, after the subcommand too, and do
/// what they say there: `hook relay` and its subcommands included (the binary parses them on a
/// path of their own).
#[test]
fn quiet_verbose_and_color_are_taken_after_any_subcommand() {
    // --quiet: the backup note goes, the result stays.
    for (quiet, note) in [
        (&[][..], true),
        (&["-q"][..], false),
        (&["--quiet"][..], false),
    ] {
        let home = claude_home();
        let args = [&["relay", "install", "--agent", "claude"][..], quiet].concat();
        let (code, stdout, stderr) = in_home(home.path(), &args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            stdout.contains("PreToolUse [Bash] (added 2"),
            "{args:?}: {stdout}"
        );
        assert_eq!(
            stdout.contains("the file as it was: "),
            note,
            "{args:?}: {stdout}"
        );
    }
    // --verbose: the error's cause on a line of its own.
    let home = claude_home();
    let blocked = home.path().join("a-file");
    std::fs::write(&blocked, "").expect("a file");
    let config = blocked.join("settings.json");
    let config = config.to_str().expect("a UTF-8 path");
    let install = [
        "relay",
        "install",
        "--agent",
        "claude",
        "--agent-config",
        config,
    ];
    for (verbose, cause_line) in [
        (&[][..], false),
        (&["-v"][..], true),
        (&["--verbose"][..], true),
    ] {
        let args = [&install[..], verbose].concat();
        let (code, _, stderr) = in_home(home.path(), &args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr.contains("\n  caused by: "),
            cause_line,
            "{args:?}: {stderr}"
        );
    }
    // Accepted after every subcommand, the relay's answer included.
    let accepted: [&[&str]; 7] = [
        &["relay", "status", "-q"],
        &[
            "relay", "status", "--agent", "claude", "-v", "--color", "always",
        ],
        &["relay", "sync", "--agent", "claude", "-q"],
        &["relay", "uninstall", "--agent", "claude", "--verbose"],
        &["doctor", "--agent", "claude", "-v", "--color=never"],
        &["list", "--agent", "claude", "-q"],
        &["stats", "-q", "--color", "auto"],
    ];
    for args in accepted {
        let (code, _, stderr) = in_home(home.path(), args);
        assert_ne!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("unexpected argument"),
            "{args:?}: {stderr}"
        );
    }
    let (code, stdout, stderr) = in_home(home.path(), &["relay", "--dialect", "verboo", "-q"]);
    // Empty stdin: the relay fails closed (exit 2, its own answer), not a usage error.
    assert!(stderr.contains("stdin is empty"), "{code:?}: {stderr}");
    assert!(stdout.is_empty() || stdout.starts_with('{'), "{stdout}");
    // Together they still conflict, wherever they are.
    let (code, _, stderr) = in_home(home.path(), &["relay", "status", "-q", "-v"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

/// The binary agents start per event loads no `libgcc_s.so.1` on glibc Linux (its unwinder is
/// linked in from `libgcc_eh.a`, `hook-cli/build.rs`), and a panic still unwinds and is caught
/// in a binary linked that way (this test's own, built with the same build script).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_unwinder_is_linked_in_and_still_unwinds() {
    let readelf = Command::new("readelf")
        .args(["--dynamic", env!("CARGO_BIN_EXE_hook")])
        .output();
    let Some(out) = readelf.ok().filter(|out| out.status.success()) else {
        let _ = writeln!(
            std::io::stderr(),
            "skipped: readelf (binutils) is not installed"
        );
        return;
    };
    let dynamic = String::from_utf8_lossy(&out.stdout);
    let needed: Vec<&str> = dynamic.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(
        needed.iter().any(|l| l.contains("libc.so")),
        "readelf read no libraries: {dynamic}"
    );
    assert!(
        !needed.iter().any(|l| l.contains("libgcc_s")),
        "hook loads libgcc_s: {needed:?}"
    );
    let caught = std::panic::catch_unwind(|| panic!("unwound through libgcc_eh"));
    let message = caught.expect_err("the panic was caught");
    assert_eq!(
        message.downcast_ref::<&str>(),
        Some(&"unwound through libgcc_eh")
    );
}
