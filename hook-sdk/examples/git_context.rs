//! Tells the model, at the start of a session, which git branch it is on and what is
//! uncommitted, so it does not have to ask.
//!
//! Wire it into `SessionStart`. wuu takes no context on `SessionStart`, so there it answers
//! nothing.

use std::process::Command;

use hook_sdk::{Event, EventKind, Response};

fn git(cwd: &str, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .output()
        .ok()?;
    output.status.success().then(|| {
        String::from_utf8_lossy(&output.stdout)
            .trim_end()
            .to_owned()
    })
}

fn handle(event: &Event) -> Response {
    if !matches!(event.kind(), EventKind::SessionStart(_)) || !event.accepts_context() {
        return Response::none();
    }
    let cwd = event.cwd();
    let Some(branch) = git(cwd, &["branch", "--show-current"]) else {
        return Response::none(); // Not a git repository (or no git): nothing to say.
    };
    // `--show-current` prints nothing on a detached HEAD.
    let branch = if branch.is_empty() {
        "(detached HEAD)".to_owned()
    } else {
        branch
    };
    let status = git(cwd, &["status", "--short"]).unwrap_or_default();
    let status = if status.is_empty() {
        "The working tree is clean.".to_owned()
    } else {
        let lines: Vec<&str> = status.lines().take(50).collect();
        format!(
            "Uncommitted changes (git status --short):\n{}",
            lines.join("\n")
        )
    };
    Response::context(format!("Git branch: {branch}\n{status}"))
}

fn main() {
    hook_sdk::run(handle)
}
