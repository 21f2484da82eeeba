//! `hook doctor`: static checks of every configured hook, in the environment the agent gives
//! it.
//!
//! The classic silent failure is a guard whose program is not where the agent looks: Claude
//! Code and Codex start hooks with their own `PATH` (often not the shell's: no `~/.local/bin`,
//! no Homebrew, no `nvm`), the guard's `jq` is not found, it reads an empty command and exits
//! 0, and every call is allowed. `hook doctor` checks against that `PATH`: the one `hook relay`
//! last ran with (the journal records it), else `--path`, else its own.
//!
//! Checks, each a finding with a severity, the hook's key, its `file:line:col` and a fix:
//!
//! - the configuration's own diagnostics (what `hook list` prints);
//! - every simple command of a command line, read by the shell reader trust uses
//!   (`hook_config::shell`: `cd "$CLAUDE_PROJECT_DIR" && ./hooks/guard.sh` checks
//!   `guard.sh` in the folder `cd` went to; `bash -c '...'` is read as a command line): its
//!   program resolves on that `PATH` (or, as a path, exists) and is executable; shell
//!   builtins are not looked up; `$VAR`/`${VAR}` of the project variable and `$HOME` are
//!   expanded, other variables leave the word unchecked;
//! - a script the command names (directly, or after an interpreter such as `bash` or
//!   `python3`) exists, is a regular file (a FIFO, a device or a link to `/dev/stdin` or
//!   `/dev/tty` is a finding, never opened), is executable when run directly, and its `#!`
//!   interpreter resolves;
//! - `jq`, `python3` and `node`, named by the command or its script, are on that `PATH`;
//! - a matcher on a tool event can match at least one tool the agents have (a warning: MCP
//!   tools and tools of newer agents are not known here);
//! - the timeout is within what the event allows (`SessionEnd`: the session is closing; lime
//!   cuts it at 3 s, and a long one is a warning in the other dialects);
//! - trust: a hook that will not run (untrusted, modified, disabled) is said, with the command
//!   that changes it;
//! - the expectations file (`hook test --expectations`), when the project has one, run with
//!   that `PATH` (in a process of its own, read bounded: a regular file of at most 1 MiB): each
//!   failed case is an error. The file is the project's, so its cases run only through the
//!   project's own hooks (project and local files; `--project-hooks-only` of `hook test`):
//!   a cloned project never runs the user's hooks on events and inputs it chose. `--all-hooks`
//!   runs them through every hook, when the user asks.
//!
//! Every command it suggests quotes its paths and keys with the one shell-quoting helper
//! (`trust_commands::shell_quote`), so a path with an apostrophe can be pasted as shown.
//!
//! What it cannot see: what a script does at run time (its imports, the programs it builds
//! names for), and programs named in a script other than those three. Exit 1 on an error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use hook_config::{Handler, Matcher, Severity};
use hook_protocol::{HandlerType, MatchTarget};
use hook_trust::TrustStatus;
use serde::Serialize;

use crate::engine_commands::Location;
use crate::journal_commands::Style;
use crate::ui::quote::shell_quote;
use crate::ui::terminal::{one_line, outln, print_exact, println_exact};

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// The PATH to check programs against (default: the agent's, as `hook relay` last
    /// recorded it in the journal; else this shell's).
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Run the project's expectations file through every hook, your own (user) hooks
    /// included. Without it its cases run only through the project's own hooks (project and
    /// local files): a cloned project never chooses the events and inputs your hooks get.
    #[arg(long)]
    all_hooks: bool,
}

/// One problem found.
#[derive(Debug, Serialize)]
struct Finding {
    severity: &'static str,
    /// The hook's key, or `-` for the configuration as a whole.
    key: String,
    /// `file:line:col` (or the file) where the hook is configured.
    location: String,
    message: String,
    fix: Option<String>,
}

/// Programs a hook is known to need when its command or script names them.
const NEEDED: &[&str] = &["jq", "python3", "node"];

/// Programs that run a script named after them.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "node", "deno", "bun", "ruby",
    "perl", "php", "pwsh",
];

/// Shell builtins and keywords: never looked up on `PATH`.
const BUILTINS: &[&str] = &[
    "echo", "printf", "exit", "true", "false", "test", "[", "[[", "cd", "read", "export", "set",
    "unset", "if", "for", "while", "until", "case", "eval", "source", ".", ":", "exec", "return",
    "shift", "trap", "wait", "umask", "command", "type", "local", "!", "{", "(",
];

/// Tool names of the agents (in the spelling each dialect normalises to).
const TOOLS: &[&str] = &[
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
    "NotebookEdit",
    "NotebookRead",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "KillBash",
    "SlashCommand",
    "Skill",
    "AskUserQuestion",
    "apply_patch",
    "shell",
    "exec_command",
    "write_stdin",
    "update_plan",
    "view_image",
    "read_file",
    "list_dir",
    "grep_files",
    "web_search",
    "local_shell",
    "unified_exec",
];

/// A `SessionEnd` hook that may take longer than this is a warning where the dialect sets no
/// maximum: the agent is closing.
const SESSION_END_SECONDS: f64 = 5.0;

/// `hook doctor`.
pub(crate) fn doctor(args: DoctorArgs) -> Result<ExitCode> {
    let location = &args.location.location();
    let dialect = location.dialect;
    let home = hook_config::discover(&location.load_options()?)
        .context("cannot find the dialect's home")?
        .home;
    let project = location.project_dir()?;
    let recorded = crate::journal_commands::recorded_path(&home);
    let (path, path_source) = match (&args.path, recorded.latest) {
        (Some(path), _) => (path.clone(), "--path".to_owned()),
        (None, Some((path, time))) => (
            path,
            format!("the agent's, recorded by hook relay at {time}"),
        ),
        (None, None) => (
            std::env::var("PATH").unwrap_or_default(),
            "this shell's (no hook relay dispatch in the journal yet)".to_owned(),
        ),
    };
    let env = Env {
        path: std::env::split_paths(&path).collect(),
        project: project.clone(),
        project_var: dialect.rules().project_dir_env(),
    };
    let mut findings = Vec::new();
    // A journal that cannot be read hides the agent's PATH: said, never waited on.
    for (file, why) in recorded.problems {
        findings.push(Finding {
            severity: "warning",
            key: "-".into(),
            location: file.display().to_string(),
            message: format!(
                "the journal file cannot be read ({why}): the agent's PATH it records is unknown"
            ),
            fix: Some(format!(
                "remove or replace {} (it is rebuilt by the next `hook relay`), or give --path",
                shell_quote(&file.display().to_string())
            )),
        });
    }
    let mut hook_count = 0;
    // The agent's own hooks and, where the dialect has one, the relay's: the agent runs both.
    for location in crate::expectations::with_relay(location) {
        // Its diagnostics are findings here, not stderr lines.
        let loaded = hook_config::load(&location.load_options()?)
            .context("cannot load the hook configuration")?;
        hook_count += loaded.registry.handlers().len();
        check_loaded(&location, &loaded, &env, &mut findings);
    }
    let expectations = crate::expectations::default_file(location, &project);
    let mut expectation_results = None;
    if let Ok(meta) = std::fs::metadata(&expectations)
        && !meta.is_file()
    {
        // A FIFO or a device (or a link to one) is never opened.
        findings.push(Finding {
            severity: "error",
            key: "-".into(),
            location: expectations.display().to_string(),
            message: format!(
                "the expectations file is {}, not a regular file: it is not read",
                hook_config::fs::kind_of(&meta)
            ),
            fix: Some(format!(
                "replace {} with a regular file",
                shell_quote(&expectations.display().to_string())
            )),
        });
    } else if expectations.is_file() {
        let scope = if args.all_hooks {
            crate::expectations::Scope::AllHooks
        } else {
            crate::expectations::Scope::ProjectHooks
        };
        match crate::expectations::run_with_path(location, &expectations, &path, scope) {
            Ok(results) => {
                for result in results.iter().filter(|r| !r.passed) {
                    findings.push(Finding {
                        severity: "error",
                        key: "-".into(),
                        location: expectations.display().to_string(),
                        message: format!(
                            "expectation `{}` failed: {}",
                            result.name,
                            result.problem.as_deref().unwrap_or("")
                        ),
                        fix: Some(
                            "fix the hook (or the expectation): `hook test --expectations`, with the agent's PATH, shows each case".into(),
                        ),
                    });
                }
                expectation_results = Some(results);
            }
            Err(error) => findings.push(Finding {
                severity: "error",
                key: "-".into(),
                location: expectations.display().to_string(),
                message: format!("{error:#}"),
                fix: Some("see `hook test --help` for the file's format".into()),
            }),
        }
    }
    let errors = findings.iter().filter(|f| f.severity == "error").count();
    let warnings = findings.iter().filter(|f| f.severity == "warning").count();
    if args.json {
        println_exact(&serde_json::to_string_pretty(&serde_json::json!({
            "ok": errors == 0,
            "path": path,
            "path_source": path_source,
            "hooks": hook_count,
            "findings": findings,
            "expectations": expectation_results,
        }))?);
    } else {
        let style = Style::detect();
        outln!(
            "hook doctor: {dialect}, {} hook(s); PATH {path} ({path_source})",
            hook_count
        );
        for finding in &findings {
            let colour = match finding.severity {
                "error" => "31",
                "warning" => "33",
                _ => "2",
            };
            print_exact(&format!(
                "{} {} {}\n    {}\n",
                style.paint(colour, &format!("{:<7}", finding.severity)),
                style.paint("1", &finding.key),
                style.paint("2", &finding.location),
                one_line(&finding.message),
            ));
            if let Some(fix) = &finding.fix {
                print_exact(&format!(
                    "    {} {}\n",
                    style.paint("32", "fix:"),
                    one_line(fix)
                ));
            }
        }
        if let Some(results) = &expectation_results {
            outln!(
                "expectations ({}): {} of {} met",
                expectations.display(),
                results.iter().filter(|r| r.passed).count(),
                results.len()
            );
        }
        outln!("{errors} error(s), {warnings} warning(s)");
    }
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Every finding of one loaded configuration (the agent's or the relay's).
fn check_loaded(
    location: &Location,
    loaded: &hook_config::Loaded,
    env: &Env,
    findings: &mut Vec<Finding>,
) {
    let dialect = location.dialect;
    for diagnostic in &loaded.diagnostics {
        let mut location_text = diagnostic.path.clone();
        if let Some(line) = diagnostic.line {
            location_text.push_str(&format!(":{line}"));
            if let Some(column) = diagnostic.column {
                location_text.push_str(&format!(":{column}"));
            }
        }
        findings.push(Finding {
            severity: match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            key: "-".into(),
            location: location_text,
            message: diagnostic.message.clone(),
            fix: Some("edit the file (`hook validate --config FILE` checks it)".into()),
        });
    }
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let flags = crate::ui::hints::location_flags(location);
    let handlers = loaded.registry.handlers();
    for handler in handlers {
        let mut add = |severity: &'static str, message: String, fix: Option<String>| {
            findings.push(Finding {
                severity,
                key: handler.key.clone(),
                location: where_configured(handler),
                message,
                fix,
            });
        };
        if handler.config.handler_type == HandlerType::Command {
            check_command(handler, env, &mut add);
        }
        check_matcher(handler, dialect, &mut add);
        check_timeout(handler, dialect, &mut add);
        let trust = view.evaluate(handler);
        match trust.status {
            TrustStatus::Untrusted | TrustStatus::Modified => add(
                "warning",
                format!("it will not run: {}", trust_word(trust.status)),
                Some(format!(
                    "review it (`hook list --dialect {dialect}{flags}`), then `hook trust --dialect {dialect}{flags} {}`",
                    shell_quote(&handler.key)
                )),
            ),
            _ => {}
        }
        if !trust.enabled {
            add(
                "info",
                "it is disabled".into(),
                Some(format!(
                    "`hook enable --dialect {dialect}{flags} {}`",
                    shell_quote(&handler.key)
                )),
            );
        }
    }
}

fn trust_word(status: TrustStatus) -> &'static str {
    match status {
        TrustStatus::Untrusted => "it has never been trusted",
        TrustStatus::Modified => "it changed since it was trusted",
        _ => "",
    }
}

/// `file:line:col` of a handler, or its file, or its layer.
fn where_configured(handler: &Handler) -> String {
    let file = handler
        .source
        .path
        .clone()
        .unwrap_or_else(|| handler.source.layer.to_string());
    match &handler.position {
        Some(pos) => format!("{file}:{}:{}", pos.line, pos.column),
        None => file,
    }
}

/// What the hook's command is checked against.
struct Env {
    path: Vec<PathBuf>,
    project: PathBuf,
    project_var: Option<&'static str>,
}

impl Env {
    /// `name` on the `PATH`, executable.
    fn which(&self, name: &str) -> Option<PathBuf> {
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

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

type Add<'a> = dyn FnMut(&'static str, String, Option<String>) + 'a;

/// How deep `sh -c '...'` is followed into its command string.
const MAX_NESTING: usize = 3;

fn check_command(handler: &Handler, env: &Env, add: &mut Add<'_>) {
    let Some(command) = handler.expanded_command() else {
        return;
    };
    let mut scanned = command.clone();
    // Hooks start in the project; `cd` moves the folder later words are resolved against.
    let mut cwd = Some(env.project.clone());
    check_line(&command, env, &mut cwd, &mut scanned, add, 0);
    check_needed(&scanned, "the hook", env, add);
}

/// Checks every simple command of `command`, read by the shell reader trust uses
/// (`hook_config::shell`): each one's program, and the script an interpreter is given.
/// `cwd` is where relative paths are resolved (`None` after a `cd` whose target is unknown);
/// the scripts read are added to `scanned`.
fn check_line(
    command: &str,
    env: &Env,
    cwd: &mut Option<PathBuf>,
    scanned: &mut String,
    add: &mut Add<'_>,
    depth: usize,
) {
    for words in hook_config::shell::simple_commands(command) {
        let mut words = words.into_iter().map(|word| word.plain).skip_while(|w| {
            is_assignment(w) || matches!(w.as_str(), "env" | "exec" | "nohup" | "command" | "time")
        });
        let Some(program) = words.next() else {
            continue;
        };
        if program == "cd" {
            let target = words.find(|w| !w.starts_with('-'));
            *cwd = match (target.as_deref().and_then(|t| env.expand(t)), cwd.as_ref()) {
                (Some(target), Some(here)) => Some(join(here, &target)),
                // `cd` alone goes home; `cd "$OTHER"` goes somewhere unknown.
                _ => None,
            };
            continue;
        }
        if BUILTINS.contains(&program.as_str()) {
            continue;
        }
        let Some(program) = env.expand(&program) else {
            continue;
        };
        let mut script: Option<PathBuf> = None;
        if program.contains('/') {
            let Some(path) = located(cwd.as_deref(), &program) else {
                continue;
            };
            if !check_file(&path, "program", add) {
                continue;
            }
            if !is_executable(&path) {
                add(
                    "error",
                    format!(
                        "{} is not executable: the agent cannot start it",
                        path.display()
                    ),
                    Some(format!(
                        "`chmod +x {}`",
                        shell_quote(&path.display().to_string())
                    )),
                );
            }
            script = Some(path);
        } else if env.which(&program).is_none() {
            add(
                "error",
                format!("`{program}` is not on the agent's PATH: the hook cannot start"),
                Some(format!(
                    "install `{program}`, or name it by its full path in the command (the agent's PATH is not your shell's)"
                )),
            );
            continue;
        } else if INTERPRETERS.contains(&program.as_str()) {
            let rest: Vec<String> = words.collect();
            // `bash -c 'sh x.sh'`: the string is a command line of its own.
            if let Some(at) = rest.iter().position(|w| w == "-c") {
                if depth < MAX_NESTING
                    && let Some(inner) = rest.get(at + 1)
                {
                    let mut inner_cwd = cwd.clone();
                    check_line(inner, env, &mut inner_cwd, scanned, add, depth + 1);
                }
                continue;
            }
            // `bash x.sh`, `python3 scripts/check.py`: the first word that is not an option.
            let named = rest.iter().find(|w| !w.starts_with('-'));
            if let Some(named) = named.and_then(|w| env.expand(w))
                && looks_like_a_file(&named)
                && let Some(path) = located(cwd.as_deref(), &named)
            {
                if !check_file(&path, "script", add) {
                    continue;
                }
                script = Some(path);
            }
        }
        if let Some(script) = &script
            && let Some(text) = read_head(script)
        {
            if let Some(line) = text.lines().next().and_then(|l| l.strip_prefix("#!"))
                && program.contains('/')
            {
                check_shebang(line, script, env, add);
            }
            scanned.push('\n');
            scanned.push_str(&text);
        }
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
                "error",
                format!("its {what} {shown} does not exist"),
                Some(
                    "fix the path in the command (relative paths are from the project, where hooks run, or from the folder a `cd` before it went to)"
                        .into(),
                ),
            );
            false
        }
        Err(error) => {
            add(
                "error",
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
                "error",
                format!(
                    "its {what} {shown}{link} is {}, not a regular file: the agent would block or fail running it",
                    hook_config::fs::kind_of(&meta)
                ),
                Some(format!(
                    "replace {} with the {what} itself",
                    shell_quote(&path.display().to_string())
                )),
            );
            false
        }
        Ok(_) => true,
    }
}

/// `NAME=value` before a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn looks_like_a_file(word: &str) -> bool {
    word.contains('/') || word.contains('.')
}

/// The first 256 KiB of a script, as text: a regular file only, opened without blocking
/// (`hook_config::fs::open_regular`).
fn read_head(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let (file, _) = hook_config::fs::open_regular(path, hook_config::fs::Links::Follow).ok()?;
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
        let name = words.find(|w| !w.starts_with('-'));
        if let Some(name) = name
            && env.which(name).is_none()
        {
            add(
                "error",
                format!(
                    "{}'s interpreter `{name}` (#!{line}) is not on the agent's PATH",
                    script.display()
                ),
                Some(format!(
                    "install `{name}`, or write its full path in the #! line"
                )),
            );
        }
    } else if !is_executable(Path::new(interpreter)) {
        add(
            "error",
            format!(
                "{}'s interpreter {interpreter} (#!{line}) does not exist or is not executable",
                script.display()
            ),
            Some("fix the #! line (`#!/usr/bin/env NAME` finds it on PATH)".into()),
        );
    }
}

/// `jq`, `python3`, `node` named as commands in `text`, and missing from the PATH.
fn check_needed(text: &str, what: &str, env: &Env, add: &mut Add<'_>) {
    for name in NEEDED {
        if names_command(text, name) && env.which(name).is_none() {
            add(
                "error",
                format!(
                    "{what} calls `{name}`, which is not on the agent's PATH: it fails there (a guard may then read nothing and allow)"
                ),
                Some(format!(
                    "install `{name}` where the agent finds it, or call it by its full path"
                )),
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

fn check_matcher(handler: &Handler, dialect: hook_protocol::Dialect, add: &mut Add<'_>) {
    if handler.event.match_target(dialect) != MatchTarget::ToolName {
        return;
    }
    let Ok(matcher) = Matcher::compile(dialect, handler.matcher.as_deref()) else {
        // An invalid matcher is a diagnostic already.
        return;
    };
    let raw = handler.matcher.as_deref().unwrap_or("");
    if raw.contains("mcp") {
        return;
    }
    let rules = dialect.rules();
    let matches_one = TOOLS
        .iter()
        .any(|tool| matcher.is_match(&rules.tool_name(tool)));
    if !matches_one {
        add(
            "warning",
            format!("its matcher `{raw}` matches none of the agents' tools: it may never run"),
            Some(format!(
                "check the tool's spelling (case matters): {}",
                TOOLS[..8].join(", ")
            )),
        );
    }
}

fn check_timeout(handler: &Handler, dialect: hook_protocol::Dialect, add: &mut Add<'_>) {
    let (_, max) =
        hook_config::timeout_limits(dialect, &handler.event, handler.config.handler_type);
    let written = handler.config.timeout;
    let effective = handler.timeout.as_secs_f64();
    if let (Some(max), Some(written)) = (max, written)
        && written > max
    {
        add(
            "error",
            format!(
                "its timeout of {written} s is longer than {} allows ({max} s): it is cut at {max} s",
                handler.event
            ),
            Some(format!("set `timeout` to at most {max}")),
        );
    } else if handler.event == hook_protocol::Event::SessionEnd && effective > SESSION_END_SECONDS {
        add(
            "warning",
            format!(
                "SessionEnd hook may take {effective} s: the agent is closing and may not wait that long"
            ),
            Some(format!(
                "set `timeout` to a few seconds (at most {SESSION_END_SECONDS})"
            )),
        );
    }
}
