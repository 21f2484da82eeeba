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
    // Each simple command on its own (split at `;`, `&&`, `||`, `|` and newlines, quotes
    // respected: `echo "a; rm -rf /"` is one harmless command), unquoted.
    let commands: Vec<Vec<String>> = hook_sdk::shell::simple_commands(command)
        .into_iter()
        .map(|words| words.into_iter().map(|w| w.plain).collect())
        .collect();
    for words in &commands {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Some(reason) = recursive_delete_of_root(&words) {
            return Some(reason);
        }
        if let Some(reason) = push_to_main(&words) {
            return Some(reason);
        }
    }
    download_into_shell(&commands)
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

/// A download (`curl`, `wget`) followed, in the same command line, by a shell reading a
/// script: `curl -s x | sh`, `wget -O- x | sudo bash`.
fn download_into_shell(commands: &[Vec<String>]) -> Option<String> {
    let program = |words: &[String]| -> String {
        let word = words
            .iter()
            .find(|w| *w != "sudo")
            .map_or("", String::as_str);
        word.rsplit('/').next().unwrap_or(word).to_owned()
    };
    let download = commands
        .iter()
        .position(|words| matches!(program(words).as_str(), "curl" | "wget"))?;
    let shell = commands[download + 1..].iter().any(|words| {
        matches!(
            program(words).as_str(),
            "sh" | "bash" | "zsh" | "dash" | "fish"
        )
    });
    shell.then(|| {
        "piping a download into a shell runs unreviewed code: download the script, read it, then run it".to_owned()
    })
}
