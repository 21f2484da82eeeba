//! Ready-made guards for AI coding agents' hooks: each reads a tool call (a shell command, a
//! file read, write or edit, a patch) and says whether it must be blocked, with a reason that
//! tells the model what to do instead.
//!
//! **Owns**: the built-in guards ([`BUILTINS`]: `dangerous-commands`, `secrets`,
//! `protected-paths`), their options ([`Settings`]), the reading of what a command line runs
//! ([`command`]) and each guard's case table ([`Case`]), rendered in Claude Code's and Codex's
//! event shapes ([`Shape`]).
//!
//! **Never**: spawns processes, reads the filesystem or the environment: a guard decides from
//! the call, the session's working directory and the home folder it is given ([`Guard::new`]).
//! `hook guard run NAME` (hook-cli) is the hook process; the relay runs the same [`Guard`] in
//! its own process, through [`hook_sdk::process`], so both answer byte for byte alike.
//!
//! # Example
//!
//! ```
//! use hook_guards::{Guard, Settings, Verdict, builtin};
//! use hook_sdk::{Dialect, Event};
//!
//! let dangerous = builtin("dangerous-commands").expect("a built-in guard");
//! let guard = Guard::new(dangerous, Settings::defaults(dangerous), Some("/home/dev".into()));
//! let event = Event::from_value(
//!     Dialect::Verboo,
//!     serde_json::json!({
//!         "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/home/dev/project",
//!         "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "t1",
//!         "tool_input": {"command": "sudo /bin/rm -r -f ~"},
//!     }),
//! )
//! .expect("a Claude Code PreToolUse event");
//! assert!(matches!(guard.check_event(&event), Verdict::Block { .. }));
//! ```
//!
//! # Limitations
//!
//! - Commands are read, never run: a program named by a variable (`$RM -rf /`), built by
//!   `eval` from expansions or fetched at run time cannot be known; such a command is
//!   [`Verdict::Unreadable`], which `dangerous-commands` blocks only when asked
//!   (`block-unreadable=true`).
//! - Paths are compared as written, made absolute against the session's `cwd` and the given
//!   home (`~`, `$HOME`); symlinks are not followed (the filesystem is not read).
//! - Aliases and the scripts a command runs are not read; a shell function's body is read
//!   where the command line defines it, not where it is called.

mod args;
pub mod command;
mod dangerous_commands;
mod glob;
mod options;
mod paths;
mod protected_paths;
mod secrets;
mod table;
#[cfg(test)]
mod testing;

use std::path::{Path, PathBuf};

use hook_sdk::{Event, EventKind, HookError, Response, Tool};

pub use options::{OptionKind, OptionSpec, Settings, SettingsError};
pub use table::{Case, CaseCall, CaseResult, Expect, Shape};

/// A built-in guard: its name, what it blocks, its options, its check and its case table.
#[derive(Debug)]
#[non_exhaustive]
pub struct Builtin {
    /// The name users give it (`dangerous-commands`).
    pub name: &'static str,
    /// One line: what it blocks.
    pub summary: &'static str,
    /// The tools it reads, as a Claude Code `PreToolUse` matcher (`Bash`, `Bash|Read|...`);
    /// Codex's names are mapped by the relay (`apply_patch` is `Edit`/`Write` there).
    pub matcher: &'static str,
    /// Its options, with their defaults.
    pub options: &'static [OptionSpec],
    check: fn(&Call<'_>, &Settings) -> Verdict,
    cases: &'static [Case],
}

impl Builtin {
    /// Its case table: the calls it must block and those it must allow.
    pub fn cases(&self) -> &'static [Case] {
        self.cases
    }
}

/// Every built-in guard, in the order `hook guard list` shows them.
pub const BUILTINS: &[&Builtin] = &[
    &dangerous_commands::GUARD,
    &secrets::GUARD,
    &protected_paths::GUARD,
];

/// The built-in guard named `name`, if any.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().copied().find(|guard| guard.name == name)
}

/// What a guard says about one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Nothing to object to.
    Allow,
    /// The call must not run; the reason tells the model what to do instead.
    Block {
        /// Why, and what to do instead.
        reason: String,
    },
    /// The guard could not read the call (a program named by a variable, an unterminated
    /// quote...): it does not know what would run.
    Unreadable {
        /// What could not be read.
        why: String,
    },
}

/// One tool call as a guard reads it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Call<'a> {
    /// The typed input (`Bash`, `Read`, `Write`, `Edit`, `MultiEdit`, `Grep`, `Glob`,
    /// `NotebookEdit`, `ApplyPatch`...).
    pub tool: &'a Tool,
    /// The session's working directory: relative paths are read against it, and it is the
    /// project a command may delete inside.
    pub cwd: &'a Path,
    /// The user's home folder, when known (`~` and `$HOME` expand to it).
    pub home: Option<&'a Path>,
}

/// A built-in guard with its settings: a [`hook_sdk::Handler`] answering `PreToolUse`.
#[derive(Debug, Clone)]
pub struct Guard {
    builtin: &'static Builtin,
    settings: Settings,
    home: Option<PathBuf>,
}

impl Guard {
    /// `builtin` with `settings`, for a user whose home folder is `home`.
    pub fn new(builtin: &'static Builtin, settings: Settings, home: Option<PathBuf>) -> Guard {
        Guard {
            builtin,
            settings,
            home,
        }
    }

    /// The guard this is.
    pub fn builtin(&self) -> &'static Builtin {
        self.builtin
    }

    /// Its settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What it says about `call`. An unreadable call is blocked when the settings say
    /// `block-unreadable=true`.
    pub fn check(&self, call: &Call<'_>) -> Verdict {
        match (self.builtin.check)(call, &self.settings) {
            Verdict::Unreadable { why } if self.settings.flag("block-unreadable") => {
                Verdict::Block {
                    reason: format!(
                        "{why}: the guard cannot tell what this command does; spell out the program and the paths it works on (no variable or `eval` in their place), or ask the user to run it"
                    ),
                }
            }
            verdict => verdict,
        }
    }

    /// What it says about `event`: its tool call on `PreToolUse` (and a permission request),
    /// [`Verdict::Allow`] on any other event.
    pub fn check_event(&self, event: &Event) -> Verdict {
        let (EventKind::PreToolUse(call) | EventKind::PermissionRequest(call)) = event.kind()
        else {
            return Verdict::Allow;
        };
        self.check(&Call {
            tool: &call.tool,
            cwd: Path::new(event.cwd()),
            home: self.home.as_deref(),
        })
    }

    /// The answer for `verdict` on `event`: a deny with its reason, naming the guard; for an
    /// unreadable call the settings do not block, no decision and a message for the user
    /// saying the guard could not read it (where the dialect shows one: not in wuu); no
    /// decision otherwise.
    pub fn response(&self, event: &Event, verdict: Verdict) -> Response {
        match verdict {
            Verdict::Block { reason } => {
                Response::deny(format!("{reason} (guard {})", self.builtin.name))
            }
            Verdict::Unreadable { why } => {
                let hint = if self
                    .builtin
                    .options
                    .iter()
                    .any(|o| o.name == "block-unreadable")
                {
                    "; `--set block-unreadable=true` blocks such calls"
                } else {
                    ""
                };
                let message = Response::system_message(format!(
                    "the guard {} could not read this call ({why}) and let it through{hint}",
                    self.builtin.name
                ));
                match hook_sdk::render(event.dialect(), &event.name(), &message) {
                    Ok(_) => message,
                    Err(_) => Response::none(),
                }
            }
            Verdict::Allow => Response::none(),
        }
    }
}

impl hook_sdk::Handler for Guard {
    fn handle(&self, event: &Event) -> Result<Response, HookError> {
        Ok(self.response(event, self.check_event(event)))
    }
}
