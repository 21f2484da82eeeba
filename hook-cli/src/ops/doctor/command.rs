//! `hook doctor`'s checks of a hook's command line, in the environment the agent gives it:
//! what it runs as the one command reader (`hook_protocol::shell::read_command`, shared with
//! trust and `if` rules) reads it ([`runs`]): each simple command's program and wrapper
//! programs on the agent's `PATH` (or, as a path, a regular executable file), the script an
//! interpreter is given, its `#!` line, and `jq`, `python3` and `node`
//! named by the command or its script; and a variable naming the project that the dialect does
//! not set (`$CLAUDE_PROJECT_DIR` in a lime or wuu hook: [`check_project_var`]).

use std::path::{Path, PathBuf};

use hook_config::Handler;
use hook_protocol::Dialect;
use hook_protocol::shell::{CommandParts, is_assignment, read_command};

use super::{Fix, Severity};

/// Programs a hook is known to need when its command or script names them.
const NEEDED: &[&str] = &["jq", "python3", "node"];

/// Shell builtins and keywords: never looked up on `PATH`.
const BUILTINS: &[&str] = &[
    "echo", "printf", "exit", "true", "false", "test", "[", "[[", "cd", "read", "export", "set",
    "unset", "if", "for", "while", "until", "case", "eval", "source", ".", ":", "exec", "return",
    "shift", "trap", "wait", "umask", "command", "type", "local", "!", "{", "}", "(", ")",
];

/// How a check reports a finding of the hook being checked: severity, message, fix.
pub(super) type Add<'a> = dyn FnMut(Severity, String, Option<Fix>) + 'a;

/// What the hook's command is checked against.
#[derive(Debug)]
pub(crate) struct Env {
    /// The folders of the agent's `PATH`.
    pub(crate) path: Vec<PathBuf>,
    /// The project, where hooks start.
    pub(crate) project: PathBuf,
    /// The variable that names the project in a command line (`CLAUDE_PROJECT_DIR`).
    pub(crate) project_var: Option<&'static str>,
}

impl Env {
    /// `name` on the `PATH`, executable.
    pub(super) fn which(&self, name: &str) -> Option<PathBuf> {
        self.path
            .iter()
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    }

    /// `word` with the project variable and `$HOME` expanded; `None` when another variable
    /// is left in it.
    fn expand(&self, word: &str) -> Option<String> {
        let mut text = word.to_owned();
        if let Some(var) = self.project_var {
            let project = self.project.display().to_string();
            text = text
                .replace(&format!("${{{var}}}"), &project)
                .replace(&format!("${var}"), &project);
        }
        if let Some(home) = std::env::var_os("HOME") {
            let home = home.to_string_lossy().into_owned();
            text = text.replace("${HOME}", &home).replace("$HOME", &home);
            if let Some(rest) = text.strip_prefix("~/") {
                text = format!("{home}/{rest}");
            }
        }
        (!text.contains('$') && !text.contains('`')).then_some(text)
    }
}

pub(super) use crate::ops::program::is_executable;

/// Every finding of a command handler's command line.
pub(super) fn check_command(handler: &Handler, env: &Env, add: &mut Add<'_>) {
    let Some(command) = handler.expanded_command() else {
        return;
    };
    check_command_line(&command, env, add);
}

/// A hook the engine runs in `dialect` whose command uses another agent's project variable
/// (`$CLAUDE_PROJECT_DIR` in lime or wuu): the engine sets only the dialect's own and
/// `$HOOK_PROJECT_DIR`, so it expands to empty and a guard on `"$CLAUDE_PROJECT_DIR"/guard.sh`
/// fails and lets the event go ahead. Not for the relay's hooks, which the relay gives it in
/// every agent (the caller checks the agent's and the dialect's own files only). With
/// `by_agent`, the agent runs the hook itself (Claude Code, [`crate::ops::agents::runs_unasked`]),
/// which does not set the engine's `$HOOK_PROJECT_DIR` either.
pub(super) fn check_project_var(
    handler: &Handler,
    dialect: Dialect,
    by_agent: bool,
    add: &mut Add<'_>,
) {
    let Some(command) = handler.config.command.as_deref() else {
        return;
    };
    let engine_var = hook_exec::PROJECT_DIR_ENV;
    let own = dialect.rules().input().project_dir_env();
    if by_agent
        && let Some(own) = own
        && hook_config::uses_variable(command, engine_var)
    {
        add(
            Severity::Error,
            format!(
                "its command uses `${engine_var}`, which {} does not set for the hooks of its own settings (the engine and `hook relay` do): it expands to empty, so the command fails (a guard lets the event go ahead)",
                crate::ops::agents::title(dialect)
            ),
            Some(Fix::Say(format!("write `${own}`, which it sets"))),
        );
    }
    let relay = if dialect.rules().agent().relay().is_some() {
        ", or move the hook into the relay's files, where `hook relay` sets it too"
    } else {
        ""
    };
    let others = Dialect::ALL
        .iter()
        .filter_map(|other| other.rules().input().project_dir_env())
        .filter(|var| own != Some(*var));
    for var in others.filter(|var| hook_config::uses_variable(command, var)) {
        add(
            Severity::Error,
            format!(
                "its command uses `${var}`, which is not set in {dialect}: it expands to empty, so the command fails (a guard lets the event go ahead)"
            ),
            Some(Fix::Say(format!(
                "write `${engine_var}`, which the engine sets in every dialect{relay}"
            ))),
        );
    }
}

/// Every finding of `command`: its simple commands, the scripts they run, and the programs
/// they and those scripts need.
fn check_command_line(command: &str, env: &Env, add: &mut Add<'_>) {
    let mut scanned = command.to_owned();
    for run in runs(command, env) {
        check_run(&run, env, &mut scanned, add);
    }
    check_needed(&scanned, "the hook", env, add);
}

/// A program a command line starts, as doctor checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Program {
    /// Named by a path, resolved from the folder it runs in.
    Path(PathBuf),
    /// Named by a name, looked up on the agent's `PATH`.
    Name(String),
}

/// One program doctor checks, and the script it is given when it is an interpreter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Run {
    /// The program (or a wrapper that is a program: `env`, `nohup`, `sudo`...).
    pub(super) program: Program,
    /// The script an interpreter is given (`python3 hooks/check.py`), resolved.
    pub(super) script: Option<PathBuf>,
}

/// What `command` runs, in order, as the one command reader
/// ([`hook_protocol::shell::read_command`], which trust and `if` rules use too) reads it: each
/// simple command's wrapper programs, its program (not a shell builtin) and an interpreter's
/// script, into `sh -c` strings and `eval`. Hooks start in the project; `cd` moves the folder
/// later relative paths are resolved against (unknown after `cd` alone or to an unknown
/// place, and then they are not checked). Reads no file.
pub(super) fn runs(command: &str, env: &Env) -> Vec<Run> {
    let mut out = Vec::new();
    let mut cwd = Some(env.project.clone());
    collect_runs(&read_command(command), env, &mut cwd, &mut out);
    out
}

fn collect_runs(
    commands: &[CommandParts],
    env: &Env,
    cwd: &mut Option<PathBuf>,
    out: &mut Vec<Run>,
) {
    for parts in commands {
        if parts.looks_up_only() {
            continue;
        }
        for wrapper in parts.wrapper_programs() {
            if let Some(program) = program_of(&wrapper.plain, env, cwd.as_deref()) {
                out.push(Run {
                    program,
                    script: None,
                });
            }
        }
        if parts.changes_dir {
            let target = parts.cd_target.as_ref().and_then(|t| env.expand(&t.plain));
            *cwd = match (target, cwd.as_ref()) {
                (Some(target), Some(here)) => Some(join(here, &target)),
                // `cd` alone goes home; `cd "$OTHER"` goes somewhere unknown.
                _ => None,
            };
        }
        let name = parts.program.plain.as_str();
        if !BUILTINS.contains(&name)
            && let Some(program) = program_of(name, env, cwd.as_deref())
        {
            // `bash x.sh`, `python3 scripts/check.py`: a word that looks like a file.
            let script = parts
                .script
                .as_ref()
                .and_then(|w| env.expand(&w.plain))
                .filter(|w| looks_like_a_file(w))
                .and_then(|w| located(cwd.as_deref(), &w));
            out.push(Run { program, script });
        }
        // `bash -c 'sh x.sh'`, `eval ...`: the string is a command line of its own, run here.
        let mut inner = cwd.clone();
        collect_runs(&parts.inline, env, &mut inner, out);
    }
}

/// The program `word` names, expanded (`None`: another variable is left in it, or it is a
/// relative path after a `cd` to an unknown place).
fn program_of(word: &str, env: &Env, cwd: Option<&Path>) -> Option<Program> {
    let word = env.expand(word)?;
    if word.contains('/') {
        located(cwd, &word).map(Program::Path)
    } else {
        Some(Program::Name(word))
    }
}

/// The findings of one program and its script; the text of each file read is added to
/// `scanned`.
fn check_run(run: &Run, env: &Env, scanned: &mut String, add: &mut Add<'_>) {
    match &run.program {
        Program::Path(path) => {
            if !check_file(path, "program", add) {
                return;
            }
            if !is_executable(path) {
                add(
                    Severity::Error,
                    format!(
                        "{} is not executable: the agent cannot start it",
                        path.display()
                    ),
                    Some(Fix::quoting("`chmod +x ", path, "`")),
                );
            }
            if let Some(text) = read_head(path) {
                if let Some(line) = text.lines().next().and_then(|l| l.strip_prefix("#!")) {
                    check_shebang(line, path, env, add);
                }
                scanned.push('\n');
                scanned.push_str(&text);
            }
        }
        Program::Name(name) => {
            if env.which(name).is_none() {
                add(
                    Severity::Error,
                    format!("`{name}` is not on the agent's PATH: the hook cannot start"),
                    Some(Fix::Say(format!(
                        "install `{name}`, or name it by its full path in the command (the agent's PATH is not your shell's)"
                    ))),
                );
                return;
            }
        }
    }
    if let Some(script) = &run.script
        && check_file(script, "script", add)
        && let Some(text) = read_head(script)
    {
        scanned.push('\n');
        scanned.push_str(&text);
    }
}

/// `path` joined to `base` (an absolute `path` stays), `.` and `..` applied as `cd` does.
fn join(base: &Path, path: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for component in base.join(path).components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path word resolved against `cwd`; `None` for a relative word when the folder is unknown.
fn located(cwd: Option<&Path>, word: &str) -> Option<PathBuf> {
    if Path::new(word).is_absolute() {
        return Some(join(Path::new("/"), word));
    }
    cwd.map(|cwd| join(cwd, word))
}

/// Whether the file a command runs (its `what`: program or script) is a regular file; a
/// missing one, a folder, a FIFO, a device or a link to one (`/dev/stdin`, `/dev/tty`) is a
/// finding. Only its metadata is read: nothing here can block.
fn check_file(path: &Path, what: &str, add: &mut Add<'_>) -> bool {
    let shown = path.display();
    match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            add(
                Severity::Error,
                format!("its {what} {shown} does not exist"),
                Some(Fix::Say(
                    "fix the path in the command (relative paths are from the project, where hooks run, or from the folder a `cd` before it went to)"
                        .into(),
                )),
            );
            false
        }
        Err(error) => {
            add(
                Severity::Error,
                format!("its {what} {shown} cannot be read: {error}"),
                None,
            );
            false
        }
        Ok(meta) if !meta.is_file() => {
            let link = std::fs::read_link(path)
                .map(|target| format!(" (a link to {})", target.display()))
                .unwrap_or_default();
            add(
                Severity::Error,
                format!(
                    "its {what} {shown}{link} is {}, not a regular file: the agent would block or fail running it",
                    hook_fs::kind_of(&meta)
                ),
                Some(Fix::quoting(
                    "replace ",
                    path,
                    &format!(" with the {what} itself"),
                )),
            );
            false
        }
        Ok(_) => true,
    }
}

fn looks_like_a_file(word: &str) -> bool {
    word.contains('/') || word.contains('.')
}

/// The first 256 KiB of a script, as text: a regular file only, opened without blocking
/// (`hook_fs::open_regular`).
fn read_head(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let (file, _) = hook_fs::open_regular(path, hook_fs::Links::Follow).ok()?;
    let mut bytes = Vec::new();
    file.take(256 * 1024).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn check_shebang(line: &str, script: &Path, env: &Env, add: &mut Add<'_>) {
    let mut words = line.split_whitespace();
    let Some(interpreter) = words.next() else {
        return;
    };
    if interpreter.ends_with("/env") {
        let name = words.find(|w| !w.starts_with('-') && !is_assignment(w));
        if let Some(name) = name
            && env.which(name).is_none()
        {
            add(
                Severity::Error,
                format!(
                    "{}'s interpreter `{name}` (#!{line}) is not on the agent's PATH",
                    script.display()
                ),
                Some(Fix::Say(format!(
                    "install `{name}`, or write its full path in the #! line"
                ))),
            );
        }
    } else if !is_executable(Path::new(interpreter)) {
        add(
            Severity::Error,
            format!(
                "{}'s interpreter {interpreter} (#!{line}) does not exist or is not executable",
                script.display()
            ),
            Some(Fix::Say(
                "fix the #! line (`#!/usr/bin/env NAME` finds it on PATH)".into(),
            )),
        );
    }
}

/// `jq`, `python3`, `node` named as commands in `text`, and missing from the PATH.
fn check_needed(text: &str, what: &str, env: &Env, add: &mut Add<'_>) {
    for name in NEEDED {
        if names_command(text, name) && env.which(name).is_none() {
            add(
                Severity::Error,
                format!(
                    "{what} calls `{name}`, which is not on the agent's PATH: it fails there (a guard may then read nothing and allow)"
                ),
                Some(Fix::Say(format!(
                    "install `{name}` where the agent finds it, or call it by its full path"
                ))),
            );
        }
    }
}

/// Whether `name` appears in `text` as a word in command position-ish (not inside another
/// word or a path).
fn names_command(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        let bounded_before = before.is_none_or(|c| c.is_whitespace() || "|;&($`'\"".contains(c));
        let bounded_after = after.is_none_or(|c| c.is_whitespace() || ";|&)'\"`".contains(c));
        bounded_before && bounded_after
    })
}

#[cfg(test)]
#[path = "command/tests.rs"]
mod tests;

#[cfg(test)]
#[path = "command/one_reader.rs"]
mod one_reader;
