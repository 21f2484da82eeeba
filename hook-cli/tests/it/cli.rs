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
