//! An agent loop embedding the engine, lime dialect (modelled on Codex CLI): what a vendor
//! writes. Run it with `cargo run -p hook-exec --example embed_lime`; hook-exec's test suite
//! runs it too (`tests/it/embed_example.rs`).
//!
//! 1. Load configuration, trust and engine in one call ([`Hooks::load`]): a project's hooks
//!    are untrusted until the user reviews them, and are reported as skipped, never run.
//! 2. Trust them (as `hook trust` does) and [`Hooks::reload`].
//! 3. Preview what an event will run (status messages), then dispatch `PreToolUse` and
//!    `PostToolUse`, watching each hook finish, and honour what they say: a block, a rewritten
//!    command, context for the model.
//! 4. Cancel a dispatch (the user pressed Esc): the hook's process is killed with it.

// An example program talks to its user.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::time::Duration;

use hook_exec::hook_protocol::input::{EventInput, input_from_value};
use hook_exec::hook_protocol::{Decision, Dialect, RunStatus};
use hook_exec::{Environment, Hooks, LoadOptions, store_for};
use serde_json::{Value, json};

/// The project's hooks: a guard, a rewrite, a context note and a slow hook.
const PROJECT_CONFIG: &str = r#"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
statusMessage = "checking the command"
command = '''input=$(cat); case "$input" in *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2;; esac'''

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
statusMessage = "preferring pnpm"
command = '''input=$(cat); case "$input" in *'"npm install"'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"pnpm install"}}}';; esac'''

[[hooks.PostToolUse]]
matcher = "Bash"
[[hooks.PostToolUse.hooks]]
type = "command"
command = '''printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"the build cache lives in .cache/"}}' '''

[[hooks.PreToolUse]]
matcher = "Deploy"
[[hooks.PreToolUse.hooks]]
type = "command"
statusMessage = "asking the release manager"
command = '''echo $$ > "$PWD/slow-hook.pid"; exec sleep 60'''
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(run())?;
    for line in report {
        println!("{line}");
    }
    Ok(())
}

/// The whole loop; returns what it printed, line by line (the test reads it).
pub(crate) async fn run() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut said = Vec::new();
    let home = tempfile::tempdir()?;
    let project = tempfile::tempdir()?;
    std::fs::create_dir_all(project.path().join(".lime"))?;
    std::fs::write(project.path().join(".lime/config.toml"), PROJECT_CONFIG)?;

    // 1. One call: configuration, trust, engine.
    let options = LoadOptions::new(Dialect::Lime, Environment::empty())
        .without_managed()
        .with_home(home.path())
        .with_project(project.path());
    let mut hooks = Hooks::load(options)?;
    for diagnostic in hooks.diagnostics() {
        said.push(format!("config: {diagnostic}"));
    }
    let outcome = hooks
        .engine()
        .dispatch(&tool_call(
            project.path(),
            "PreToolUse",
            "Bash",
            "rm -rf /",
        )?)
        .await;
    for run in &outcome.runs {
        said.push(format!(
            "before review: {} {:?} ({})",
            run.key,
            run.skip_reason,
            run.error.as_deref().unwrap_or("")
        ));
    }
    assert!(
        outcome
            .runs
            .iter()
            .all(|run| run.status == RunStatus::Skipped)
    );

    // 2. The user reviews the project's hooks and trusts them (what `hook trust` writes).
    let store = store_for(Dialect::Lime, home.path());
    // `TrustView::trust` records each hook's hash with the files it runs (and keeps copies).
    let view = hooks.trust();
    let candidates: Vec<_> = hooks
        .engine()
        .registry()
        .handlers()
        .iter()
        .map(|handler| view.candidate(handler))
        .collect();
    view.trust(store.as_ref(), &candidates)?;
    hooks.reload()?;

    // 3. Preview, dispatch, honour.
    let call = tool_call(project.path(), "PreToolUse", "Bash", "npm install")?;
    for handler in hooks.engine().preview(&call) {
        if let Some(message) = &handler.config.status_message {
            said.push(format!("status: {message}"));
        }
    }
    let outcome = hooks
        .engine()
        .dispatch_observed(&call, |run| {
            eprintln!("finished: {} {:?}", run.key, run.status);
        })
        .await;
    let command = outcome
        .updated_input
        .as_ref()
        .and_then(|input| input.get("command"))
        .and_then(Value::as_str)
        .unwrap_or("npm install");
    said.push(format!("{:?}: running `{command}`", outcome.decision));

    let blocked = hooks
        .engine()
        .dispatch(&tool_call(
            project.path(),
            "PreToolUse",
            "Bash",
            "rm -rf /",
        )?)
        .await;
    if blocked.decision == Decision::Block {
        said.push(format!(
            "blocked: {}",
            blocked.reason.as_deref().unwrap_or("")
        ));
    }

    let after = hooks
        .engine()
        .dispatch(&tool_call(
            project.path(),
            "PostToolUse",
            "Bash",
            "pnpm install",
        )?)
        .await;
    for context in &after.additional_contexts {
        said.push(format!("context from {}: {}", context.key, context.text));
    }

    // 4. Cancel: dropping the dispatch future kills the hook's process group.
    let slow = tool_call(project.path(), "PreToolUse", "Deploy", "ship it")?;
    let pid_file = project.path().join("slow-hook.pid");
    let pid = {
        let dispatch = hooks.engine().dispatch(&slow);
        tokio::pin!(dispatch);
        // Run the dispatch until the hook has written its pid, then give up on it. The shell
        // creates the file before it writes to it: wait for the whole line, or a loaded
        // machine reads an empty pid.
        let started = async {
            loop {
                let written = std::fs::read_to_string(&pid_file).unwrap_or_default();
                if let Some(pid) = written.strip_suffix('\n') {
                    break pid.parse::<u32>();
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::select! {
            _ = &mut dispatch => return Err("the slow hook finished on its own".into()),
            pid = started => pid?,
        }
    };
    // Let the runtime reap the killed hook (a bounded wait, not a timing assumption).
    let mut gone = false;
    for _ in 0..500 {
        if !alive(pid) {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    said.push(format!(
        "cancelled: hook process {}",
        if gone { "gone" } else { "STILL RUNNING" }
    ));
    Ok(said)
}

/// A lime tool call event for `tool` with `command` as its input.
fn tool_call(
    project: &Path,
    event: &str,
    tool: &str,
    command: &str,
) -> Result<EventInput, Box<dyn std::error::Error>> {
    let mut value = json!({
        "hook_event_name": event, "session_id": "session-1", "turn_id": "turn-1",
        "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": tool, "tool_use_id": "call-1",
        "tool_input": {"command": command},
    });
    if event == "PostToolUse" {
        value["tool_response"] = json!({"exit_code": 0, "output": "done"});
    }
    Ok(input_from_value(Dialect::Lime, value)?)
}

/// Whether process `pid` still runs (a zombie counts as gone). Linux reads `/proc`; elsewhere
/// `kill -0` answers.
fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.trim_start().chars().next())
                .is_some_and(|state| state != 'Z'),
            Err(_) => false,
        }
    } else {
        std::process::Command::new("kill")
            .args(["-0", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }
}
