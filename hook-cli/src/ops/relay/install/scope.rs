//! Which agent and which of its settings files a command edits, resolved: the agent, its file,
//! the project, the home, and the options that load the relay's hooks of that scope.

use super::agent_file;
use super::report::{FoundKind, ScopeNames, ThroughLink};
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::codex::claude_guards_for;
use crate::ops::relay::agents::{Agent, Translation, agent_of};
use crate::ops::relay::read::entries::Wanted;
use crate::ops::relay::read::files::{relay_folder, relay_options};
use anyhow::{Context, Result};
use hook_config::LoadOptions;
use hook_protocol::{Dialect, RelayAgent};
use std::path::{Path, PathBuf};

/// Which agent, and which of its settings files (`hook relay install/sync/uninstall`'s
/// `--dialect`, `--project`, `--agent-config`, `--home`; the user's settings by default).
#[derive(Debug, Clone)]
pub(crate) struct ScopeOptions {
    /// The agent: verboo (Claude Code) or lime (Codex).
    pub(crate) dialect: Dialect,
    /// An agent whose events the relay translates (`--agent qwen|gemini|copilot`) instead:
    /// its own settings file holds the entries, which start the relay of `dialect`'s
    /// (Claude Code's) relay files.
    pub(crate) agent: Option<&'static Translation>,
    /// This project's settings instead of the user's; the entries then also serve the
    /// project's relay hooks.
    pub(crate) project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    pub(crate) agent_config: Option<PathBuf>,
    /// The dialect's home (trust store; with it the relay's user folder is `DIR/hook-relay/`).
    pub(crate) home: Option<PathBuf>,
    /// The `hook` program the entries start (`None`: this one's path in the user's settings;
    /// `hook`, found through the agent's `PATH`, in a project's).
    pub(crate) program: Option<PathBuf>,
}

/// A project directory, absolute.
fn project_dir(project: Option<&Path>) -> Result<Option<PathBuf>> {
    project
        .map(|dir| {
            dir.canonicalize()
                .with_context(|| format!("project directory {} does not exist", dir.display()))
        })
        .transpose()
}

/// The first `hook` program on this process's `PATH`, as a shell would find it (the agents run
/// a project's entries, `hook relay ...`, through theirs).
pub(super) fn hook_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join("hook"))
        .find(|candidate| crate::ops::program::is_executable(candidate))
}

/// What `found`, a `hook` on `PATH`, is: a script starts with `#!`; npm's launcher is the
/// `bin/hook` of the package whose `package.json` is named `hook-engine`.
pub(super) fn found_kind(found: &Path) -> FoundKind {
    use std::io::Read as _;
    // The first bytes, and a small `package.json` whole: regular files only, opened without
    // blocking (`hook_fs::open_regular`).
    let head = |path: &Path, most: u64| -> Option<Vec<u8>> {
        let (file, _) = hook_fs::open_regular(path, hook_fs::Links::Follow).ok()?;
        let mut bytes = Vec::new();
        file.take(most).read_to_end(&mut bytes).ok()?;
        Some(bytes)
    };
    if head(found, 2).is_none_or(|start| start != b"#!") {
        return FoundKind::Binary;
    }
    // Through npm's link in the prefix's `bin/`: the package's own `bin/hook`.
    let package = found
        .canonicalize()
        .ok()
        .and_then(|file| Some(file.parent()?.parent()?.join("package.json")));
    let name = package
        .and_then(|file| head(&file, 64 * 1024))
        .and_then(|text| serde_json::from_slice::<serde_json::Value>(&text).ok())
        .and_then(|manifest| Some(manifest.get("name")?.as_str()?.to_owned()));
    if name.as_deref() == Some(NPM_PACKAGE) {
        FoundKind::NpmLauncher
    } else {
        FoundKind::Script
    }
}

/// The npm package that installs `hook` (`npm install -g hook-engine`).
pub(crate) const NPM_PACKAGE: &str = "hook-engine";

/// The scope resolved: agent, its file, the project, the relay's hooks.
pub(super) struct Resolved {
    /// Whether this command already kept a backup of the agent's file (once per command: the
    /// backup is the file as it was before the command).
    backed_up: std::cell::Cell<bool>,
    pub(super) dialect: Dialect,
    /// The agent's adapter, and its names and files.
    pub(super) adapter: &'static dyn Agent,
    pub(super) agent: &'static RelayAgent,
    pub(super) file: PathBuf,
    pub(super) project: Option<PathBuf>,
    pub(super) home: Option<PathBuf>,
    /// The `hook` program the entries start.
    pub(super) program: PathBuf,
    /// Whose relay hooks the entries start the relay for.
    pub(super) relay_scope: RelayScope,
    /// Whether `--agent-config` named the file (the user's choice: it may be anywhere).
    named_file: bool,
}

impl ScopeOptions {
    pub(super) fn resolve(&self) -> Result<Resolved> {
        let adapter: &'static dyn Agent = match self.agent {
            Some(translated) => translated,
            None => agent_of(self.dialect)?,
        };
        let agent = adapter.settings();
        let project = project_dir(self.project.as_deref())?;
        let file = match &self.agent_config {
            Some(file) => file.clone(),
            None => adapter.settings_file(project.as_deref())?,
        };
        // A project's settings are shared: its entries start the `hook` each machine's PATH
        // finds, never the installer's own path (a teammate's has none there).
        let program = match (&self.program, &project) {
            (Some(program), _) => program.clone(),
            (None, Some(_)) => PathBuf::from("hook"),
            (None, None) => this_program()?,
        };
        Ok(Resolved {
            program,
            relay_scope: if project.is_some() {
                RelayScope::Project
            } else {
                RelayScope::User
            },
            backed_up: std::cell::Cell::new(false),
            dialect: adapter.dialect(),
            adapter,
            agent,
            file,
            project,
            named_file: self.agent_config.is_some(),
            home: self
                .home
                .as_deref()
                .map(|home| {
                    home.canonicalize().with_context(|| {
                        format!("home directory {} does not exist", home.display())
                    })
                })
                .transpose()?,
        })
    }
}

/// This program's path, which user-scope entries start.
fn this_program() -> Result<PathBuf> {
    std::env::current_exe().context("cannot find this program's path")
}

impl Resolved {
    /// The relay's own settings file of this scope (the user's, or the project's shared one),
    /// not a hooks-only `hooks.json` beside it.
    pub(super) fn relay_settings_file(&self) -> Result<PathBuf> {
        let discovery =
            hook_config::discover(&self.options()).context("cannot find the relay's files")?;
        let layer = if self.project.is_some() {
            hook_protocol::Layer::Project
        } else {
            hook_protocol::Layer::User
        };
        discovery
            .files
            .iter()
            .find(|f| f.layer == layer && !f.hooks_only)
            .map(|f| f.path.clone())
            .context("no relay file for this scope")
    }

    /// The folder the agent's file must resolve into: the project in project scope (unless
    /// `--agent-config` named the file).
    pub(super) fn inside(&self) -> Option<&Path> {
        self.project.as_deref().filter(|_| !self.named_file)
    }

    /// Keeps the agent's file as it was before this command, once ([`super::state`]): where,
    /// the first time.
    pub(super) fn backup(&self, locked: &agent_file::Locked) -> Result<Option<PathBuf>> {
        let Some(text) = &locked.text else {
            return Ok(None);
        };
        if self.backed_up.replace(true) {
            return Ok(None);
        }
        locked.state.backup(text).map(Some)
    }

    /// The relay's own folder of this scope.
    pub(super) fn relay_folder(&self) -> Result<PathBuf> {
        relay_folder(self.agent, self.project.as_deref(), self.home.as_deref())
    }

    /// The command of this scope's relay entry `wanted` (its event and timeout, in the relay
    /// hooks' terms: [`Agent::entry`]).
    pub(super) fn command(&self, wanted: &Wanted) -> String {
        self.adapter.command(
            &self.program,
            wanted,
            self.home.as_deref(),
            self.relay_scope,
        )
    }

    /// Where what is kept of the files this scope edits is: the relay's user folder, the
    /// project's too ([`super::state`]).
    pub(super) fn state_places(&self) -> Result<agent_file::StatePlaces> {
        let project = match &self.project {
            Some(project) => Some((project.clone(), self.relay_folder()?)),
            None => None,
        };
        Ok(agent_file::StatePlaces {
            user: relay_folder(self.agent, None, self.home.as_deref())?,
            users_own: project.is_none() && !self.named_file,
            project,
        })
    }

    /// The agent's file, locked and read (its lock and state in the relay's user folder).
    pub(super) fn lock_file(&self, link: &mut Option<ThroughLink>) -> Result<agent_file::Locked> {
        agent_file::lock_and_read(&self.file, self.inside(), link, &self.state_places()?)
    }

    /// The options that load this scope's relay hooks (a project's: its own files only).
    pub(super) fn options(&self) -> LoadOptions {
        relay_options(self.dialect, self.project.as_deref(), self.home.as_deref())
            .with_only_layers(self.relay_scope.file_layers().iter().copied())
    }

    /// The relay hooks of the scope, once the relay's state is settled (moved from an earlier
    /// version's place: [`crate::ops::state::settle`]); their diagnostics, what the move said
    /// first, are in [`hook_config::Loaded`].
    pub(super) fn relay_hooks(&self) -> Result<hook_config::Loaded> {
        let options = self.options();
        let said = hook_config::discover(&options)
            .map(|discovery| crate::ops::state::settle(&discovery).diagnostics())
            .unwrap_or_default();
        let mut loaded = hook_config::load(&options).context("cannot load the relay's hooks")?;
        loaded.diagnostics.splice(0..0, said);
        Ok(loaded)
    }

    /// The guards written for Claude Code that this scope's relay runs beside its own relay
    /// hooks (Codex's: [`claude_guards_for`]): Claude Code's relay hooks of the same scope, in
    /// the user's Claude Code home (`CLAUDE_CONFIG_DIR`, else `~/.claude`; never `--home`,
    /// which is the agent's) and the same project. None for another agent, or when Claude Code's
    /// relay files cannot be loaded (the relay then fails closed on the events it is started
    /// for, and says why).
    pub(super) fn claude_guards(&self) -> Vec<hook_config::Handler> {
        let Some(dialect) = claude_guards_for(self.dialect) else {
            return Vec::new();
        };
        let options = relay_options(dialect, self.project.as_deref(), None)
            .with_only_layers(self.relay_scope.file_layers().iter().copied());
        hook_config::load(&options)
            .map(|loaded| loaded.registry.handlers().to_vec())
            .unwrap_or_default()
    }

    /// The names a report needs.
    pub(super) fn names(&self) -> ScopeNames {
        ScopeNames {
            dialect: self.dialect,
            agent: self.adapter.title(),
            relay_flags: self.adapter.relay_of().flags(),
            file: self.file.clone(),
            project: self.project.clone(),
            home: self.home.clone(),
        }
    }
}
