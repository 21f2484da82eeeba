//! Running one agent headless as `/work/scratch45/e2e/run.sh` did: `env -i` with the variables
//! each needs and nothing else, its own process group, killed whole after [`DEADLINE`] (and
//! after it exits: nothing it left behind outlives the case).

use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::entries::{COPILOT_MODEL, Guest, Place, QWEN_MODEL};

/// How long one agent run may take before its process group is killed.
pub(super) const DEADLINE: Duration = Duration::from_secs(180);

/// The prompt; the fake model's call does the rest.
pub(super) const PROMPT: &str = "Please run the shell command.";

/// Where a run takes place and what it reaches.
pub(super) struct Run<'a> {
    /// The npm `.bin` folder of the agents.
    pub(super) bin: &'a Path,
    pub(super) home: &'a Path,
    pub(super) project: &'a Path,
    /// The fake model server's port on 127.0.0.1.
    pub(super) port: u16,
    /// Copilot CLI's `XDG_CACHE_HOME`, shared so that its binary unpacks once.
    pub(super) cache: &'a Path,
    /// A folder put first on the agent's `PATH` (where a project's entry finds `hook`).
    pub(super) path_first: Option<&'a Path>,
}

/// The agent's command for one headless turn: `env -i` with `PATH`, `HOME`, `LANG` and its
/// own variables, in the project.
pub(super) fn command(guest: Guest, place: Place, run: &Run<'_>) -> Command {
    let mut command = Command::new(run.bin.join(guest.name()));
    let base = format!("http://127.0.0.1:{}", run.port);
    bare(&mut command, run.home, run.path_first).current_dir(run.project);
    match guest {
        Guest::Qwen => {
            command
                .env("ANTHROPIC_BASE_URL", &base)
                .env("ANTHROPIC_API_KEY", "sk-ant-fake")
                .env("ANTHROPIC_MODEL", QWEN_MODEL)
                .args(["--auth-type", "anthropic", "--approval-mode", "yolo"])
                .args(["-o", "json", PROMPT]);
        }
        Guest::Gemini => {
            command
                .env("GOOGLE_GEMINI_BASE_URL", &base)
                .env("GEMINI_API_KEY", "fake-key")
                .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
                .args(["--approval-mode", "yolo", "-o", "json", "-p", PROMPT]);
        }
        Guest::Copilot => {
            copilot_env(&mut command, run.cache)
                .env("COPILOT_PROVIDER_TYPE", "anthropic")
                .env("COPILOT_PROVIDER_BASE_URL", &base)
                .env("COPILOT_PROVIDER_API_KEY", "sk-ant-fake")
                .env("COPILOT_MODEL", COPILOT_MODEL)
                .args(["-p", PROMPT, "--allow-all-tools"]);
            if place != Place::User {
                command.arg("--trust-folder");
            }
        }
    }
    command
}

/// `command` as under `env -i`, with `PATH` (where Node is; `first` before it), `HOME` and
/// `LANG` only.
fn bare<'a>(command: &'a mut Command, home: &Path, first: Option<&Path>) -> &'a mut Command {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = match first {
        Some(first) => {
            let mut joined = first.as_os_str().to_owned();
            joined.push(":");
            joined.push(path);
            joined
        }
        None => path,
    };
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("LANG", "C.UTF-8")
}

/// `hook args` as a user runs it to set the relay up, under `env -i` with the case's `home`, in
/// `project`.
pub(super) fn hook_command(hook: &Path, args: &[String], home: &Path, project: &Path) -> Command {
    let mut command = Command::new(hook);
    bare(&mut command, home, None)
        .current_dir(project)
        .args(args);
    command
}

/// Copilot CLI offline (no GitHub sign-in, telemetry or update), with its unpacked binary in
/// `cache`.
fn copilot_env<'a>(command: &'a mut Command, cache: &Path) -> &'a mut Command {
    command
        .env("XDG_CACHE_HOME", cache)
        .env("COPILOT_OFFLINE", "true")
}

/// Copilot CLI unpacks its binary (about 235 MB) into `cache` on its first start: done once,
/// with `copilot --version`, before the cases run side by side.
pub(super) fn unpack_copilot(bin: &Path, cache: &Path, scratch: &Path) -> Result<String> {
    fs::create_dir_all(scratch)?;
    let mut command = Command::new(bin.join("copilot"));
    bare(&mut command, scratch, None)
        .current_dir(scratch)
        .arg("--version");
    copilot_env(&mut command, cache);
    let status = run(command, &scratch.join("version"), Duration::from_secs(600))?;
    let version = fs::read_to_string(scratch.join("version.stdout")).unwrap_or_default();
    let first = version.lines().next().unwrap_or_default().trim().to_owned();
    Ok(format!("{status}: {first}"))
}

/// Runs `command` with stdin empty, its stdout and stderr in `<out>.stdout` and `<out>.stderr`,
/// in a process group of its own that is killed after `deadline`, and when it has exited;
/// returns how it ended.
pub(super) fn run(mut command: Command, out: &Path, deadline: Duration) -> Result<String> {
    let with = |extension: &str| out.with_extension(extension);
    command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(fs::File::create(with("stdout"))?)
        .stderr(fs::File::create(with("stderr"))?);
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {:?}", command.get_program()))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status.to_string();
        }
        if started.elapsed() > deadline {
            kill_group(child.id());
            let _ignored = child.wait();
            break format!("killed after {} s", deadline.as_secs());
        }
        thread::sleep(Duration::from_millis(100));
    };
    // What it started and left running (a side agent, a hook) goes with it.
    kill_group(child.id());
    Ok(status)
}

/// SIGKILL to the process group `group` (`kill -KILL -- -GROUP`); a group already gone is fine.
fn kill_group(group: u32) {
    let _ignored = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
