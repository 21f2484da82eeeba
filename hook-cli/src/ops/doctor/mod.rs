//! `hook doctor`: static checks of every configured hook, in the environment the agent gives
//! it, returned as [`Finding`]s.
//!
//! The classic silent failure is a guard whose program is not where the agent looks: Claude
//! Code and Codex start hooks with their own `PATH` (often not the shell's: no `~/.local/bin`,
//! no Homebrew, no `nvm`), the guard's `jq` is not found, it reads an empty command and exits
//! 0, and every call is allowed. `hook doctor` checks against that `PATH`: `--path`, else the
//! one `hook relay` last ran with when an agent started it (the journal records it; a relay
//! typed by hand, `echo ... | hook relay`, records none, see
//! [`crate::ops::relay::answer::agent_path`]), else its own.
//!
//! Checks, each a finding with a severity, the hook's key, its `file:line:col` and a fix:
//!
//! - the configuration's own diagnostics (what `hook list` prints);
//! - every simple command of a command line, read by the shell reader trust uses
//!   (`hook_protocol::shell`: `cd "$CLAUDE_PROJECT_DIR" && ./hooks/guard.sh` checks
//!   `guard.sh` in the folder `cd` went to; `bash -c '...'` is read as a command line): its
//!   program resolves on that `PATH` (or, as a path, exists) and is executable; shell
//!   builtins are not looked up; `$VAR`/`${VAR}` of the project variable and `$HOME` are
//!   expanded, other variables leave the word unchecked ([`command`]);
//! - a script the command names (directly, or after an interpreter such as `bash` or
//!   `python3`) exists, is a regular file (a FIFO, a device or a link to `/dev/stdin` or
//!   `/dev/tty` is a finding, never opened), is executable when run directly, and its `#!`
//!   interpreter resolves;
//! - `jq`, `python3` and `node`, named by the command or its script, are on that `PATH`;
//! - a matcher on a tool event can match at least one tool the agents have (a warning: MCP
//!   tools and tools of newer agents are not known here) ([`hooks`]);
//! - the timeout is within what the event allows (`SessionEnd`: the session is closing; lime
//!   cuts it at 3 s, and a long one is a warning in the other dialects);
//! - trust: a hook that will not run (untrusted, modified, disabled) is said, with the command
//!   that changes it; not for a relay entry, which the agent starts without the engine's trust
//!   (the relay hooks it starts are gated by their own, and said here), nor, under `--agent
//!   claude`, for Claude Code's own hooks, which it runs without asking;
//! - a hook the engine runs in a dialect whose agent does not set `$CLAUDE_PROJECT_DIR` (lime,
//!   wuu; not a relay hook, which the relay gives it) that uses it: it expands to empty;
//! - the relay ([`relay`]), for Claude Code and Codex: a relay hook no entry of the agent's
//!   settings starts the relay for, a relay file with hooks and no relay entry anywhere (never
//!   installed, or uninstalled with the relay file left), and an entry whose program does not
//!   exist or is not executable are errors (exit 1): a guard the agent never starts guards
//!   nothing, and says nothing;
//! - each relay guard, with the checks `hook relay status` shares ([`guards`]): its command
//!   line (as above), a type the relay cannot run on an event that can block, an entry
//!   timeout that does not cover the guard's, a latest relay run whose stderr says a program
//!   is missing (degraded), and Codex's `[hooks.state]` trust of the relay's entries: errors;
//! - the expectations file (`hook test --expectations`), when the project has one, run with
//!   that `PATH` (in a process of its own, read bounded: a regular file of at most 1 MiB): each
//!   failed case is an error. The file is the project's, so its cases run only through the
//!   project's own hooks (project and local files; `--project-hooks-only` of `hook test`):
//!   a cloned project never runs the user's hooks on events and inputs it chose. `--all-hooks`
//!   runs them through every hook, when the user asks.
//!
//! A fix that names a path, a key or a command to run is a [`Fix`] the ui words: it quotes the
//! paths and keys with the one shell-quoting helper, so a path with an apostrophe can be pasted
//! as shown.
//!
//! What it cannot see: what a script does at run time (its imports, the programs it builds
//! names for), and programs named in a script other than those three.

mod command;
pub(crate) mod guards;
mod hooks;
mod relay;

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::ops::expectations::CaseResult;
use crate::ops::location::Location;

pub(crate) use command::Env;
pub(crate) use guards::{GuardScene, check_guards};

/// What `hook doctor` is asked.
#[derive(Debug)]
pub(crate) struct DoctorOptions {
    /// The PATH to check programs against, instead of the agent's recorded one.
    pub(crate) path: Option<String>,
    /// Run the project's expectations through every hook, the user's own included.
    pub(crate) all_hooks: bool,
    /// An agent was named (`--agent`, or the one found with neither flag), not a dialect: the
    /// hooks an agent runs without asking ([`crate::ops::agents::runs_unasked`]) are not asked
    /// to be trusted.
    pub(crate) by_agent: bool,
}

/// How much a finding matters: only errors fail `hook doctor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    /// The hook cannot do its job where the agent runs it.
    Error,
    /// The hook may not do its job.
    Warning,
    /// Worth knowing (a disabled hook).
    Info,
}

impl Severity {
    /// `error`, `warning`, `info`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem found.
#[derive(Debug)]
pub(crate) struct Finding {
    pub(crate) severity: Severity,
    /// The hook's key, or `-` for the configuration as a whole.
    pub(crate) key: String,
    /// `file:line:col` (or the file) where the hook is configured.
    pub(crate) location: String,
    /// What is wrong.
    pub(crate) message: String,
    /// How to put it right.
    pub(crate) fix: Option<Fix>,
}

impl Finding {
    /// A finding of the configuration as a whole (key `-`) at `location`.
    fn general(severity: Severity, location: String, message: String, fix: Fix) -> Finding {
        Finding {
            severity,
            key: "-".into(),
            location,
            message,
            fix: Some(fix),
        }
    }
}

/// How to put a finding right, for the ui to word (it quotes paths and keys for the shell and
/// adds the command-line flags of a location).
#[derive(Debug, Clone)]
pub(crate) enum Fix {
    /// Said as it is.
    Say(String),
    /// `before`, then `word` quoted for the shell, then `after`.
    Quoting {
        before: &'static str,
        word: String,
        after: String,
    },
    /// Review the hook with `key` (`hook list`), then trust it, both at `location`.
    Trust { location: Location, key: String },
    /// Enable the hook with `key` at `location` (`hook enable`).
    Enable { location: Location, key: String },
}

impl Fix {
    /// The fix in words: paths and keys quoted for the shell, the location's flags in the
    /// commands suggested.
    pub(crate) fn words(&self) -> String {
        use crate::shell::quote;
        match self {
            Fix::Say(text) => text.clone(),
            Fix::Quoting {
                before,
                word,
                after,
            } => format!("{before}{}{after}", quote(word)),
            Fix::Trust { location, key } => {
                let (dialect, flags) = (location.dialect, location.flags());
                format!(
                    "review it (`hook list --dialect {dialect}{flags}`), then `hook trust --dialect {dialect}{flags} {}`",
                    quote(key)
                )
            }
            Fix::Enable { location, key } => format!(
                "`hook enable --dialect {}{} {}`",
                location.dialect,
                location.flags(),
                quote(key)
            ),
        }
    }

    /// `before`, `word` quoted, `after`.
    pub(crate) fn quoting(before: &'static str, word: &std::path::Path, after: &str) -> Fix {
        Fix::Quoting {
            before,
            word: word.display().to_string(),
            after: after.to_owned(),
        }
    }
}

/// What `hook doctor` found.
#[derive(Debug)]
pub(crate) struct DoctorReport {
    /// The PATH programs were checked against.
    pub(crate) path: String,
    /// Where that PATH came from.
    pub(crate) path_source: String,
    /// How many hooks are configured (the agent's and the relay's).
    pub(crate) hooks: usize,
    /// Every problem found, in the order checked.
    pub(crate) findings: Vec<Finding>,
    /// The project's expectations file, whether it exists or not.
    pub(crate) expectations_file: PathBuf,
    /// Its cases' results, when it was run.
    pub(crate) expectations: Option<Vec<CaseResult>>,
}

impl DoctorReport {
    /// How many findings have `severity`.
    pub(crate) fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }
}

/// `hook doctor`: every check of every hook of `location` (the agent's and the relay's).
pub(crate) fn doctor(location: &Location, options: &DoctorOptions) -> Result<DoctorReport> {
    let dialect = location.dialect;
    let project = location.project_dir()?;
    // The agent's PATH as `hook relay` recorded it, in the relay's journal (or the dialect's,
    // where earlier versions recorded it).
    let recorded = crate::ops::journal::recorded_path(&crate::ops::journal::journals_of(location)?);
    let (path, path_source) = match (&options.path, recorded.latest) {
        (Some(path), _) => (path.clone(), "--path".to_owned()),
        (None, Some((path, time))) => (
            path,
            format!("the agent's, recorded by hook relay at {time}"),
        ),
        (None, None) => (
            std::env::var("PATH").unwrap_or_default(),
            "this shell's (no hook relay dispatch an agent started in the journal yet)".to_owned(),
        ),
    };
    let env = Env {
        path: std::env::split_paths(&path).collect(),
        project: project.clone(),
        project_var: dialect.rules().input().project_dir_env(),
    };
    let mut findings = Vec::new();
    // A journal that cannot be read hides the agent's PATH: said, never waited on.
    for (file, why) in recorded.problems {
        findings.push(Finding::general(
            Severity::Warning,
            file.display().to_string(),
            format!(
                "the journal file cannot be read ({why}): the agent's PATH it records is unknown"
            ),
            Fix::quoting(
                "remove or replace ",
                &file,
                " (it is rebuilt by the next `hook relay`), or give --path",
            ),
        ));
    }
    let mut hook_count = 0;
    // The agent's own hooks and, where the dialect has one, the relay's: the agent runs both.
    for location in crate::ops::expectations::with_relay(location) {
        // Its diagnostics are findings here, not stderr lines.
        // Through `Location::load`, so the relay's state is settled (moved once) first.
        let loaded = location.load()?;
        hook_count += loaded.registry.handlers().len();
        // The relay's guards get the checks `hook relay status` makes too, their command
        // lines among them ([`guards`]).
        let unasked = crate::ops::agents::untrusted_by_agent(options.by_agent, &location);
        hooks::check_loaded(
            &location,
            &loaded,
            &env,
            !location.relay,
            unasked,
            &mut findings,
        );
        if location.relay
            && let Some(agent) = dialect.rules().agent().relay()
        {
            let runs =
                crate::ops::relay::status::relay_runs(dialect, &project, location.home.as_deref())?;
            let scene = GuardScene {
                dialect,
                agent,
                project: &project,
                home: location.home.as_deref(),
                env: &env,
                runs: &runs.by_key,
            };
            findings.extend(check_guards(&scene, &loaded));
        }
    }
    // Whether the agent starts the relay for each relay hook, and can start it at all.
    relay::check_relay(location, &env, &mut findings);
    let found = crate::ops::expectations::default_file(location, &project);
    if let Some(warning) = found.warning {
        findings.push(Finding::general(
            Severity::Warning,
            warning.path,
            warning.message,
            Fix::Say("move the file; nothing else changes".into()),
        ));
    }
    let expectations_file = found.file;
    let expectations =
        run_expectations(location, &expectations_file, &path, options, &mut findings);
    Ok(DoctorReport {
        path,
        path_source,
        hooks: hook_count,
        findings,
        expectations_file,
        expectations,
    })
}

/// The project's expectations file run with `path`, when it exists: its failed cases (or why
/// it could not run) are findings.
fn run_expectations(
    location: &Location,
    file: &std::path::Path,
    path: &str,
    options: &DoctorOptions,
    findings: &mut Vec<Finding>,
) -> Option<Vec<CaseResult>> {
    let shown = file.display().to_string();
    if let Ok(meta) = std::fs::metadata(file)
        && !meta.is_file()
    {
        // A FIFO or a device (or a link to one) is never opened.
        findings.push(Finding::general(
            Severity::Error,
            shown.clone(),
            format!(
                "the expectations file is {}, not a regular file: it is not read",
                hook_fs::kind_of(&meta)
            ),
            Fix::quoting("replace ", file, " with a regular file"),
        ));
        return None;
    }
    if !file.is_file() {
        return None;
    }
    let scope = if options.all_hooks {
        crate::ops::expectations::Scope::AllHooks
    } else {
        crate::ops::expectations::Scope::ProjectHooks
    };
    match crate::ops::expectations::run_with_path(location, file, path, scope) {
        Ok(results) => {
            for result in results.iter().filter(|r| !r.passed) {
                findings.push(Finding::general(
                    Severity::Error,
                    shown.clone(),
                    format!(
                        "expectation `{}` failed: {}",
                        result.name,
                        result.problem.as_deref().unwrap_or("")
                    ),
                    Fix::Say("fix the hook (or the expectation): `hook test --expectations`, with the agent's PATH, shows each case".into()),
                ));
            }
            Some(results)
        }
        Err(error) => {
            findings.push(Finding::general(
                Severity::Error,
                shown,
                format!("{error:#}"),
                Fix::Say("see `hook test --help` for the file's format".into()),
            ));
            None
        }
    }
}
