//! The agent's settings files: where each scope's is (the user's, a project's shared and
//! personal ones), where the relay's own folder and files are, how Codex names a file in its
//! trust keys, and reading one safely (a regular file of bounded size).

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_config::{Environment, LoadOptions};
use hook_fs::{Links, ReadError};
use hook_protocol::{Dialect, RelayAgent};

/// The relay agent of `dialect`, or why there is none.
pub(crate) fn agent_of(dialect: Dialect) -> Result<&'static RelayAgent> {
    dialect.rules().agent().relay().with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The agent's home: its variable, else `~/` + its folder.
pub(crate) fn agent_home(agent: &RelayAgent) -> Result<PathBuf> {
    match std::env::var_os(agent.home_env).filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => Ok(
            PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?)
                .join(agent.home_dir),
        ),
    }
}

/// The agent's settings file for the scope.
pub(crate) fn agent_file(
    agent: &RelayAgent,
    project: Option<&Path>,
    given: Option<&Path>,
) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_owned());
    }
    if let Some(project) = project {
        return Ok(shared_agent_file(agent, project));
    }
    Ok(agent_home(agent)?.join(agent.config_file))
}

/// The options that load the relay's hooks of both scopes: the user's relay file, and the
/// project's when there is one (never the current directory's otherwise).
pub(crate) fn relay_options(
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

/// The relay's own folder of a scope, where its files are and where what it keeps of the files
/// it edits is (the installer's `state`): `<home>/hook-relay/` with a `--home`, else the agent's
/// home's (`~/.claude/hook-relay/`, `$CODEX_HOME/hook-relay/`); a project's
/// `<project>/.claude/hook-relay/` (`.codex/`).
pub(crate) fn relay_folder(
    agent: &RelayAgent,
    project: Option<&Path>,
    home: Option<&Path>,
) -> Result<PathBuf> {
    Ok(match (project, home) {
        (Some(project), _) => project.join(agent.home_dir).join(hook_config::RELAY_DIR),
        (None, Some(home)) => home.join(hook_config::RELAY_DIR),
        (None, None) => agent_home(agent)?.join(hook_config::RELAY_DIR),
    })
}

/// The agent's settings file of a scope: the user's (the agent's variable, else `~/` and its
/// folder), or `project`'s.
pub(crate) fn agent_settings_file(agent: &RelayAgent, project: Option<&Path>) -> Result<PathBuf> {
    agent_file(agent, project, None)
}

/// The agent's settings files in `project` where a relay entry starts the relay: the shared
/// one, and the personal one beside it where the agent has one (Claude Code's
/// `settings.local.json`).
pub(crate) fn project_agent_files(agent: &RelayAgent, project: &Path) -> Vec<PathBuf> {
    std::iter::once(shared_agent_file(agent, project))
        .chain(personal_agent_file(agent, project))
        .collect()
}

/// The agent's shared settings file in `project` (`.claude/settings.json`,
/// `.codex/config.toml`).
pub(crate) fn shared_agent_file(agent: &RelayAgent, project: &Path) -> PathBuf {
    project.join(agent.home_dir).join(agent.config_file)
}

/// The agent's personal settings file in `project` (Claude Code's
/// `.claude/settings.local.json`), if the agent has one.
pub(crate) fn personal_agent_file(agent: &RelayAgent, project: &Path) -> Option<PathBuf> {
    agent
        .personal_config_file
        .map(|file| project.join(agent.home_dir).join(file))
}

/// How Codex names the settings `file` in its trust keys: its absolute path, the folder
/// resolved as Codex resolves it (when the agent's variable names its home, or in a project:
/// `in_project`); what the installer's `codex_key_source` gives `install --trust`, and what
/// `hook relay status` and `hook doctor` look Codex's records up by.
///
/// # Errors
///
/// When a relative `file` cannot be made absolute (no current directory).
pub(crate) fn codex_key_source_of(
    agent: &hook_protocol::RelayAgent,
    file: &Path,
    in_project: bool,
) -> Result<String> {
    let absolute = match file.parent().map(Path::canonicalize) {
        Some(Ok(dir)) if std::env::var_os(agent.home_env).is_some() || in_project => {
            dir.join(file.file_name().unwrap_or_default())
        }
        _ if file.is_absolute() => file.to_path_buf(),
        _ => std::env::current_dir()?.join(file),
    };
    Ok(absolute.display().to_string())
}

/// The most a settings file may hold (as every configuration file the engine reads).
pub(crate) const MAX_BYTES: u64 = 8 * 1024 * 1024;

/// The text of the regular file `path`, `None` when it does not exist.
///
/// # Errors
///
/// When `path` is not a regular file, is larger than [`MAX_BYTES`], is not UTF-8 or cannot be
/// read; the error names the file.
pub(crate) fn read_regular(path: &Path) -> Result<Option<(String, Metadata)>> {
    let too_large = || {
        anyhow::anyhow!(
            "{} is larger than {} MiB; refusing to edit it",
            path.display(),
            MAX_BYTES / 1024 / 1024
        )
    };
    // A FIFO would block the open itself: `open_regular` never waits on one.
    let (file, metadata) = match hook_fs::open_regular(path, Links::Follow) {
        Ok(opened) => opened,
        Err(error) if error.is_not_found() => return Ok(None),
        Err(ReadError::NotRegular { .. }) => bail!(
            "{} is not a regular file; refusing to read or replace it",
            path.display()
        ),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let bytes = match hook_fs::read_capped(file, &metadata, MAX_BYTES, "a settings file") {
        Ok(bytes) => bytes,
        Err(ReadError::TooLarge { .. }) => return Err(too_large()),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let text = String::from_utf8(bytes).map_err(|error| {
        anyhow::anyhow!(
            "{} is not UTF-8 text ({error}); refusing to edit it",
            path.display()
        )
    })?;
    Ok(Some((text, metadata)))
}
