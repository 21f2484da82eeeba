//! Writes to disk devices (`dd of=/dev/sda`, `mkfs`, `> /dev/sda`), fork bombs, and
//! downloads run unread (`curl … | sh`, `bash <(curl …)`, `bash -c "$(curl …)"`).

use std::path::{Path, PathBuf};

use hook_sdk::shell::Redirection;

use crate::command::{self, Invocation};
use crate::paths;

use super::{Finding, Scene};

/// What under `/dev` is no disk: writing there destroys nothing.
const NOT_DISKS: &[&str] = &[
    "null", "zero", "full", "random", "urandom", "stdin", "stdout", "stderr", "tty", "ptmx",
    "console", "fd", "pts", "shm", "mqueue",
];

/// Programs that format or wipe the device they are given.
const WIPERS: &[&str] = &["mke2fs", "mkswap", "wipefs", "blkdiscard", "shred"];

/// Programs that download what a URL serves.
const DOWNLOADERS: &[&str] = &["curl", "wget", "fetch", "http", "https", "xh"];

pub(super) fn check(scene: &Scene<'_>, out: &mut Vec<Finding>) {
    let invocations = &scene.reading.invocations;
    for invocation in invocations {
        devices(scene, invocation, out);
    }
    // The redirections of commands that run no program (`> /dev/sda`) too.
    for redirection in &scene.reading.redirections {
        redirection_to_device(scene, redirection, &[], out);
    }
    fork_bombs(scene, out);
    for (index, invocation) in invocations.iter().enumerate() {
        if let Some(downloader) = runs_download(scene, index, invocation) {
            let runner = if invocation.written.starts_with(['$', '`']) {
                "a command".to_owned()
            } else {
                format!("`{}`", invocation.program)
            };
            out.push(Finding::Block(format!(
                "what `{downloader}` downloads would run as {runner} without being read: save it to a file (`curl -fsSLo install.sh URL`), read it, then run it, or ask the user"
            )));
        }
    }
}

/// `path` is a disk (or another device that is not [`NOT_DISKS`]).
fn disk(path: &Path) -> bool {
    let Ok(rest) = path.strip_prefix("/dev") else {
        return false;
    };
    rest.components()
        .next()
        .is_some_and(|first| !NOT_DISKS.contains(&first.as_os_str().to_string_lossy().as_ref()))
}

/// The disk `word` names, read where `invocation` runs.
fn disk_named(scene: &Scene<'_>, word: &str, cd: &[Option<String>]) -> Option<PathBuf> {
    paths::absolute_after(word, cd, scene.call).filter(|path| disk(path))
}

fn devices(scene: &Scene<'_>, invocation: &Invocation, out: &mut Vec<Finding>) {
    let program = invocation.program.as_str();
    let cd = &invocation.cd;
    let written: Vec<PathBuf> = match program {
        "dd" => invocation
            .args
            .iter()
            .filter_map(|arg| arg.strip_prefix("of="))
            .filter_map(|word| disk_named(scene, word, cd))
            .collect(),
        "tee" => invocation
            .operands()
            .into_iter()
            .filter_map(|word| disk_named(scene, word, cd))
            .collect(),
        "cp" => invocation
            .operands()
            .last()
            .and_then(|word| disk_named(scene, word, cd))
            .into_iter()
            .collect(),
        _ if program.starts_with("mkfs") || WIPERS.contains(&program) => invocation
            .operands()
            .into_iter()
            .filter_map(|word| disk_named(scene, word, cd))
            .collect(),
        _ => Vec::new(),
    };
    if let Some(device) = written.first() {
        out.push(Finding::Block(format!(
            "`{program}` would write to the device `{}`, destroying what it holds: write to a file instead, or ask the user to do it",
            device.display()
        )));
    }
    for redirection in &invocation.redirections {
        redirection_to_device(scene, redirection, cd, out);
    }
}

fn redirection_to_device(
    scene: &Scene<'_>,
    redirection: &Redirection,
    cd: &[Option<String>],
    out: &mut Vec<Finding>,
) {
    if !redirection.writes_file() {
        return;
    }
    if let Some(device) = disk_named(scene, &redirection.target.plain, cd) {
        out.push(Finding::Block(format!(
            "a `{}` redirection would write to the device `{}`, destroying what it holds: write to a file instead, or ask the user to do it",
            redirection.operator,
            device.display()
        )));
    }
}

/// A function whose body pipes it into itself: `:(){ :|:& };:`, `bomb() { bomb | bomb & }`.
fn fork_bombs(scene: &Scene<'_>, out: &mut Vec<Finding>) {
    let invocations = &scene.reading.invocations;
    let in_body = |at: usize, header: usize, name: &str| {
        let call = &invocations[at];
        call.parent == Some(header) && !call.defines_function && call.program == name
    };
    let bomb = invocations.iter().enumerate().find(|(header, function)| {
        function.defines_function
            && invocations.iter().enumerate().any(|(at, call)| {
                in_body(at, *header, &function.program)
                    && call
                        .stdin_from
                        .is_some_and(|source| in_body(source, *header, &function.program))
            })
    });
    if let Some((_, bomb)) = bomb {
        out.push(Finding::Block(format!(
            "the function `{}` pipes into itself, a fork bomb that starts processes until the machine stops responding: do not run it",
            bomb.program
        )));
    }
}

/// The downloader whose output `invocation` runs unread, if any.
fn runs_download(scene: &Scene<'_>, index: usize, invocation: &Invocation) -> Option<String> {
    let invocations = &scene.reading.invocations;
    let program = invocation.program.as_str();
    let sources = matches!(program, "source" | ".");
    let first_operand = invocation.operands().first().copied();
    // `curl … | sh`, `curl … | tee x | sudo bash -s`, `curl … | source /dev/stdin`.
    let reads_stdin = (invocation.interpreter.is_some() && invocation.script_from_stdin)
        || matches!(invocation.script.as_deref(), Some("/dev/stdin"))
        || (sources && first_operand == Some("/dev/stdin"));
    if reads_stdin {
        let mut source = invocations[index].stdin_from;
        while let Some(at) = source {
            let upstream = &invocations[at];
            if DOWNLOADERS.contains(&upstream.program.as_str()) {
                return Some(upstream.program.clone());
            }
            // `echo "$(curl …)" | bash`.
            if let Some(found) = upstream.args.iter().find_map(|arg| downloads_in(arg)) {
                return Some(found);
            }
            source = upstream.stdin_from;
        }
        // `bash < <(curl …)`.
        let redirected = invocation
            .redirections
            .iter()
            .filter(|r| r.operator == "<")
            .find_map(|r| downloads_in(&r.target.plain));
        if redirected.is_some() {
            return redirected;
        }
    }
    // `$(curl …)` run as the program (`bash -c "$(curl …)"`, `eval "$(curl …)"`).
    if let Some(found) = downloads_in(&invocation.written) {
        return Some(found);
    }
    // `sh <(curl …)`, `source <(curl …)`.
    let script = if sources {
        first_operand
    } else {
        invocation.script.as_deref()
    };
    script.and_then(downloads_in)
}

/// The downloader run by the substitution `word` is (`$(…)`, backquotes, `<(…)`), if any.
fn downloads_in(word: &str) -> Option<String> {
    let inner = word
        .strip_prefix("$(")
        .or_else(|| word.strip_prefix("<("))
        .and_then(|rest| rest.strip_suffix(')'))
        .or_else(|| {
            word.strip_prefix('`')
                .and_then(|rest| rest.strip_suffix('`'))
        })?;
    command::read(inner)
        .invocations
        .into_iter()
        .find(|i| DOWNLOADERS.contains(&i.program.as_str()))
        .map(|i| i.program)
}
