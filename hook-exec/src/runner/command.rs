//! `command` handlers: the shell command with the event JSON on stdin (see
//! [`crate::command`] for the process itself), its exit code and output read by
//! `hook_protocol::interpret`.

use std::path::Path;
use std::sync::Arc;

use hook_config::Handler;
use hook_protocol::{Dialect, Event, SkipReason, interpret};
use serde_json::Value;

use super::{base_run, failed, millis, read_result, skipped, timed_out_with};
use crate::combine::Finished;
use crate::command::{CommandError, CommandSpec, run_command};
use crate::engine::EngineOptions;
use crate::in_process::{CommandCall, CommandReply, InProcessCommands};
use crate::payload::Payload;

/// The command text given to the shell. On Unix it is the command as written: the plugin
/// folder and the project directory reach it only through the environment (`PLUGIN_ROOT`,
/// `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PROJECT_DIR`), which `/bin/sh` expands itself, so the text of
/// a path (`$(...)`, backquotes, quotes, `;`) is never read as shell syntax (see the crate
/// docs, "Variables in commands"). `cmd` has no such expansion of `${...}`: on Windows the
/// plugin folder is substituted into the text, as Claude Code does.
fn command_for_platform(handler: &Handler) -> Option<String> {
    if cfg!(windows) {
        if let Some(command) = &handler.config.command_windows {
            return Some(command.clone());
        }
        return handler.expanded_command();
    }
    handler.config.command.clone()
}

/// Runs one command handler to its end (a free function so background tasks can own its
/// inputs): answered by `in_process` when it recognises the command, else spawned.
pub(crate) async fn run_command_handler(
    dialect: Dialect,
    options: &EngineOptions,
    event: &Event,
    handler: &Handler,
    value: &Payload,
    env_file: Option<&Path>,
    in_process: Option<&dyn InProcessCommands>,
) -> Finished {
    let Some(command) = command_for_platform(handler) else {
        let why = "no command for this platform".to_owned();
        return skipped(handler, SkipReason::Unsupported, why);
    };
    let cwd = value.get("cwd").and_then(Value::as_str).unwrap_or(".");
    let mut spec = CommandSpec::new(command, cwd, handler.timeout);
    spec.stdin = Arc::clone(value.bytes());
    spec.env = environment(dialect, options, event, handler, Path::new(cwd));
    if let Some(path) = env_file {
        spec.env
            .push(("CLAUDE_ENV_FILE".to_owned(), path.display().to_string()));
    }
    spec.pipe_grace = options.pipe_grace;
    spec.kill_on_parent_death = options.kill_on_parent_death;

    if let Some(commands) = in_process {
        let call = CommandCall {
            dialect,
            event,
            command: &spec.command,
            input: &spec.stdin,
            cwd: &spec.cwd,
            env: &spec.env,
            timeout: handler.timeout,
        };
        if let Some(answer) = commands.answer(call) {
            return answered_in_process(dialect, options, event, handler, answer).await;
        }
    }

    let run = run_command(&spec).await;
    let mut entry = base_run(handler);
    entry.duration_ms = Some(millis(run.duration));
    entry.exit_code = run.exit_code;
    entry.set_stderr(&run.stderr);
    if let Err(error) = run.end {
        // The error's text is the run's: "timed out after ..." included.
        return match error {
            CommandError::TimedOut { .. } => timed_out_with(entry, error.to_string()),
            error => failed(entry, error.to_string()),
        };
    }
    let result = interpret(dialect, event, run.exit_code, &run.stdout, &run.stderr);
    read_result(dialect, options, handler, entry, result)
}

/// A command handler answered in this process: bounded by the handler's timeout, its reply
/// capped and read as a process's exit code, stdout and stderr.
async fn answered_in_process(
    dialect: Dialect,
    options: &EngineOptions,
    event: &Event,
    handler: &Handler,
    answer: crate::client::BoxFuture<'_, CommandReply>,
) -> Finished {
    let started = std::time::Instant::now();
    let reply = tokio::time::timeout(handler.timeout, answer).await;
    let mut entry = base_run(handler);
    entry.in_process = true;
    entry.duration_ms = Some(millis(started.elapsed()));
    let Ok(reply) = reply else {
        let error = format!(
            "timed out after {} s; it was answered in process, and the answer was dropped",
            handler.timeout.as_secs_f64()
        );
        return timed_out_with(entry, error);
    };
    entry.exit_code = Some(reply.exit_code);
    entry.set_stderr(&reply.stderr);
    let cap = crate::command::OUTPUT_CAP;
    for (stream, bytes) in [("stdout", &reply.stdout), ("stderr", &reply.stderr)] {
        if bytes.len() > cap {
            let error = format!("{stream} went over {cap} bytes; nothing it printed is used");
            return failed(entry, error);
        }
    }
    let result = interpret(
        dialect,
        event,
        Some(reply.exit_code),
        &reply.stdout,
        &reply.stderr,
    );
    read_result(dialect, options, handler, entry, result)
}

/// The variables a command hook gets on top of the inherited environment.
fn environment(
    dialect: Dialect,
    options: &EngineOptions,
    event: &Event,
    handler: &Handler,
    cwd: &Path,
) -> Vec<(String, String)> {
    let mut env = vec![
        ("HOOK_DIALECT".to_owned(), dialect.to_string()),
        ("HOOK_EVENT".to_owned(), event.to_string()),
    ];
    let project = options.project_dir.as_deref().unwrap_or(cwd);
    // Every dialect: a name no agent owns, so one hook script finds its project in any of them.
    env.push((
        crate::PROJECT_DIR_ENV.to_owned(),
        project.display().to_string(),
    ));
    if let Some(var) = dialect.rules().input().project_dir_env() {
        env.push((var.to_owned(), project.display().to_string()));
    }
    if let Some(root) = &handler.plugin_root {
        // Every dialect: lime as Codex does, for plugins written for Claude Code.
        env.push(("PLUGIN_ROOT".to_owned(), root.display().to_string()));
        env.push(("CLAUDE_PLUGIN_ROOT".to_owned(), root.display().to_string()));
    }
    env.extend(options.env.iter().cloned());
    env
}
