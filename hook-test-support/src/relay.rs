//! Relay homes per agent: the `hook-relay/` files of a home (`--home`), written as a user
//! writes them, and lime's trust of them.

use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, Event};
use serde_json::{Value, json};

use crate::Runner;

/// A verboo relay home (`DIR/home`) whose user file (`hook-relay/settings.json`) holds `hooks`
/// (verboo's user layer runs without trust).
pub fn verboo_home(dir: &Path, hooks: Value) -> PathBuf {
    let home = dir.join("home");
    crate::fs::write(
        &home.join("hook-relay/settings.json"),
        &json!({ "hooks": hooks }).to_string(),
    );
    home
}

/// A relay home for `dialect` (`DIR/home-DIALECT`) whose user file runs `command` on every
/// event the relay takes from the agent; lime's hooks are trusted through `runner`.
///
/// # Panics
/// When `dialect` has no relay, or trusting fails.
pub fn guarded_home(runner: &impl Runner, dir: &Path, dialect: Dialect, command: &str) -> PathBuf {
    let home = dir.join(format!("home-{dialect}"));
    let events = dialect
        .rules()
        .agent()
        .relay()
        .unwrap_or_else(|| panic!("{dialect} has no relay"))
        .events;
    guard(runner, &home, dialect, events, command);
    home
}

/// Writes the user file of the relay home `home` for `dialect` so it runs `command` on each of
/// `events`; lime's hooks are trusted through `runner`.
///
/// # Panics
/// When a file cannot be written or trusting fails.
pub fn guard(runner: &impl Runner, home: &Path, dialect: Dialect, events: &[Event], command: &str) {
    if dialect == crate::events::verboo() {
        let mut hooks = serde_json::Map::new();
        for event in events {
            hooks.insert(
                event.as_str().into(),
                json!([{"hooks": [{"type": "command", "command": command}]}]),
            );
        }
        crate::fs::write(
            &home.join("hook-relay/settings.json"),
            &json!({ "hooks": hooks }).to_string(),
        );
    } else {
        let mut toml = String::new();
        for event in events {
            toml.push_str(&format!(
                "[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {}\n",
                Value::from(command)
            ));
        }
        crate::fs::write(&home.join("hook-relay/config.toml"), &toml);
        trust_lime_relay(runner, home);
    }
}

/// Trusts every hook of the lime relay files of `home` through `runner` (lime trusts only what
/// the user trusted, even in the user's own file).
///
/// # Panics
/// When `hook trust` fails (the message is its report).
pub fn trust_lime_relay(runner: &impl Runner, home: &Path) {
    let home = home.display().to_string();
    let args = [
        "trust",
        "--dialect",
        "lime",
        "--home",
        &home,
        "--relay",
        "--all",
    ];
    runner.run(&args, b"").success();
}

/// Runs the relay for `event` through `runner` with `stdin` as raw bytes, as an agent's
/// installed entry does (with `--home` and `--project`).
pub fn answer(
    runner: &impl Runner,
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
) -> crate::Output {
    let args = crate::args::relay(dialect, event, home, project);
    runner.run(&crate::args::words(&args), stdin)
}

/// Runs a hook entry as an agent runs it: `sh -c entry` in `dir`, `HOME` and `PATH` as given
/// (and `extra` variables), the agents' own home variables and `HOOK_JOURNAL` taken out of
/// this process's environment, `stdin` piped in.
///
/// # Panics
/// When `/bin/sh` cannot be started.
pub fn run_entry(
    entry: &str,
    dir: &Path,
    home: &Path,
    path: &std::ffi::OsStr,
    extra: &[(&str, &std::ffi::OsStr)],
    stdin: &[u8],
) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(entry)
        .current_dir(dir)
        .env("HOME", home)
        .env("PATH", path)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOK_JOURNAL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in extra {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("/bin/sh starts");
    if let Some(mut pipe) = child.stdin.take() {
        // A hook that exits without reading its stdin closes the pipe: not an error here.
        let _ = pipe.write_all(stdin);
    }
    child.wait_with_output().expect("waiting for /bin/sh")
}

/// A verboo relay home (`DIR/home`) whose `PreToolUse` hooks on `Bash` are `guard` and, beside
/// it, an async hook that waits for the file `go` (at most its own 60 s), then makes the file
/// `done`: the scene of "the answer is not held by an async hook beside the guard". Returns
/// (the home, go, done).
pub fn guard_beside_async(dir: &Path, guard: &str) -> (PathBuf, PathBuf, PathBuf) {
    let go = dir.join("go");
    let done = dir.join("done");
    let waiter = format!(
        "cat > /dev/null; while [ ! -e '{}' ]; do sleep 0.05; done; touch '{}'",
        go.display(),
        done.display()
    );
    let home = verboo_home(
        dir,
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": guard},
            {"type": "command", "command": waiter, "async": true, "timeout": 60}]}]}),
    );
    (home, go, done)
}
