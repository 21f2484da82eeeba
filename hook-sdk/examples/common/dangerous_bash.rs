//! The rules of the `block_dangerous_bash` hook, shared by its executable and native builds.

use hook_sdk::{Event, EventKind, Response, Tool};

/// Denies Bash calls that delete the root or home directory, push to `main`/`master`, or pipe
/// a download into a shell.
pub(crate) fn handle(event: &Event) -> Response {
    let EventKind::PreToolUse(call) = event.kind() else {
        return Response::none();
    };
    let Tool::Bash { command, .. } = &call.tool else {
        return Response::none();
    };
    match danger(command) {
        Some(reason) => Response::deny(reason),
        None => Response::none(),
    }
}

/// Why `command` is dangerous, if it is.
pub(crate) fn danger(command: &str) -> Option<String> {
    // Each `;`, `&&`, `||` separated part is checked on its own; pipes are checked whole.
    for part in command
        .split([';', '\n'])
        .flat_map(|p| p.split("&&"))
        .flat_map(|p| p.split("||"))
    {
        let words: Vec<&str> = part.split_whitespace().collect();
        if let Some(reason) = recursive_delete_of_root(&words) {
            return Some(reason);
        }
        if let Some(reason) = push_to_main(&words) {
            return Some(reason);
        }
        if let Some(reason) = download_into_shell(part) {
            return Some(reason);
        }
    }
    None
}

fn recursive_delete_of_root(words: &[&str]) -> Option<String> {
    let rm = words
        .iter()
        .position(|w| *w == "rm" || w.ends_with("/rm"))?;
    let args = &words[rm + 1..];
    let recursive = args.iter().any(|a| {
        *a == "--recursive"
            || (a.starts_with('-') && !a.starts_with("--") && (a.contains('r') || a.contains('R')))
    });
    let target = args.iter().find(|a| {
        matches!(
            **a,
            "/" | "/*" | "~" | "~/" | "~/*" | "$HOME" | "\"$HOME\"" | "--no-preserve-root"
        )
    })?;
    recursive.then(|| format!("`rm` of `{target}` would delete the system or home directory"))
}

fn push_to_main(words: &[&str]) -> Option<String> {
    let git = words.iter().position(|w| *w == "git")?;
    if words.get(git + 1) != Some(&"push") {
        return None;
    }
    let protected = words[git + 2..].iter().any(|w| {
        let target = w.rsplit(':').next().unwrap_or(w).trim_start_matches('+');
        matches!(
            target,
            "main" | "master" | "refs/heads/main" | "refs/heads/master"
        )
    });
    protected.then(|| {
        "pushing to main is not allowed from the agent: push a branch and open a pull request"
            .to_owned()
    })
}

fn download_into_shell(part: &str) -> Option<String> {
    let mut stages = part.split('|').map(str::trim);
    let first = stages.next()?;
    let downloads = first
        .split_whitespace()
        .next()
        .is_some_and(|w| matches!(w, "curl" | "wget"));
    let shell = stages.any(|stage| {
        let program = stage
            .split_whitespace()
            .find(|w| *w != "sudo")
            .unwrap_or("");
        matches!(
            program.rsplit('/').next().unwrap_or(program),
            "sh" | "bash" | "zsh" | "dash" | "fish"
        )
    });
    (downloads && shell).then(|| {
        "piping a download into a shell runs unreviewed code: download the script, read it, then run it".to_owned()
    })
}
