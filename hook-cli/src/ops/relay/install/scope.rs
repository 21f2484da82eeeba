//! Which agent and which of its settings files a command edits, resolved: the agent, its file,
//! the project, the home, and the options that load the relay's hooks of that scope.

use super::*;

/// Which agent, and which of its settings files (`hook relay install/sync/uninstall`'s
/// `--dialect`, `--project`, `--agent-config`, `--home`; the user's settings by default).
#[derive(Debug, Clone)]
pub(crate) struct ScopeOptions {
    /// The agent: verboo (Claude Code) or lime (Codex).
    pub(crate) dialect: Dialect,
    /// This project's settings instead of the user's; the entries then also serve the
    /// project's relay hooks.
    pub(crate) project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    pub(crate) agent_config: Option<PathBuf>,
    /// The dialect's home (trust store; with it the relay's user folder is `DIR/hook-relay/`).
    pub(crate) home: Option<PathBuf>,
    /// The `hook` program the entries start (`None`: this one).
    pub(crate) program: Option<PathBuf>,
}

/// The relay agent of `dialect`, or why there is none.
pub(super) fn agent_of(dialect: Dialect) -> Result<&'static RelayAgent> {
    dialect.rules().relay().with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The agent's home: its variable, else `~/` + its folder.
pub(super) fn agent_home(agent: &RelayAgent) -> Result<PathBuf> {
    match std::env::var_os(agent.home_env).filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => Ok(
            PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?)
                .join(agent.home_dir),
        ),
    }
}

/// The agent's settings file for the scope.
pub(super) fn agent_file(
    agent: &RelayAgent,
    project: Option<&Path>,
    given: Option<&Path>,
) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_owned());
    }
    if let Some(project) = project {
        return Ok(project.join(agent.home_dir).join(agent.config_file));
    }
    Ok(agent_home(agent)?.join(agent.config_file))
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

/// The options that load the relay's hooks of a scope: the user's relay file, and the
/// project's when there is one (never the current directory's otherwise).
pub(super) fn relay_options(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
) -> LoadOptions {
    let mut options =
        LoadOptions::new(dialect, Environment::from_process().without_current_dir()).for_relay();
    if let Some(project) = project {
        options = options.with_project(project);
    }
    if let Some(home) = home {
        options = options.with_home(home);
    }
    options
}

/// The scope resolved: agent, its file, the project, the relay's hooks.
pub(super) struct Resolved {
    /// Whether this command already kept a backup of the agent's file (once per command: the
    /// backup is the file as it was before the command).
    backed_up: std::cell::Cell<bool>,
    pub(super) dialect: Dialect,
    pub(super) agent: &'static RelayAgent,
    pub(super) file: PathBuf,
    pub(super) project: Option<PathBuf>,
    pub(super) home: Option<PathBuf>,
    /// The `hook` program the entries start.
    pub(super) program: PathBuf,
    /// Whether `--agent-config` named the file (the user's choice: it may be anywhere).
    named_file: bool,
}

impl ScopeOptions {
    pub(super) fn resolve(&self) -> Result<Resolved> {
        let agent = agent_of(self.dialect)?;
        let project = project_dir(self.project.as_deref())?;
        let file = agent_file(agent, project.as_deref(), self.agent_config.as_deref())?;
        let program = match &self.program {
            Some(program) => program.clone(),
            None => this_program()?,
        };
        Ok(Resolved {
            program,
            backed_up: std::cell::Cell::new(false),
            dialect: self.dialect,
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

/// This program's path (in-process tests: the `hook` they name with [`test_program::set`]).
fn this_program() -> Result<PathBuf> {
    #[cfg(test)]
    if let Some(program) = test_program::get() {
        return Ok(program);
    }
    std::env::current_exe().context("cannot find this program's path")
}

impl Resolved {
    /// The folder the agent's file must resolve into: the project in project scope (unless
    /// `--agent-config` named the file).
    pub(super) fn inside(&self) -> Option<&Path> {
        self.project.as_deref().filter(|_| !self.named_file)
    }

    /// Keeps the agent's file as it was before this command, once: where, the first time.
    pub(super) fn backup(&self, locked: &agent_file::Locked) -> Result<Option<PathBuf>> {
        if self.backed_up.replace(true) {
            return Ok(None);
        }
        locked.backup()
    }

    pub(super) fn options(&self) -> LoadOptions {
        relay_options(self.dialect, self.project.as_deref(), self.home.as_deref())
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

    /// The names a report needs.
    pub(super) fn names(&self) -> ScopeNames {
        ScopeNames {
            dialect: self.dialect,
            agent: self.agent.name,
            file: self.file.clone(),
            project: self.project.clone(),
            home: self.home.clone(),
        }
    }
}

/// In-process tests: the `hook` program the entries start, on this thread. This program is
/// then the test binary, whose name is not `hook`: entries starting it would not be recognised
/// as the relay's (`entries::is_relay`).
#[cfg(test)]
pub(crate) mod test_program {
    use std::cell::RefCell;
    use std::path::PathBuf;

    thread_local! {
        static PROGRAM: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
    }

    /// The entries written on this thread start `program`.
    pub(crate) fn set(program: PathBuf) {
        PROGRAM.with_borrow_mut(|given| *given = Some(program));
    }

    /// The program set on this thread.
    pub(super) fn get() -> Option<PathBuf> {
        PROGRAM.with_borrow(Clone::clone)
    }
}
