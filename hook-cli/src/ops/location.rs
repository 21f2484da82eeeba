//! [`Location`]: which dialect, project, home and hooks (the agent's own or the relay's) a
//! command works on, resolved to absolute paths and loaded.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_config::{Environment, LoadOptions, Loaded, load};
use hook_exec::Hooks;
use hook_protocol::Dialect;

use crate::ops::state::Settled;

/// Where the configuration comes from: every command that loads one has one.
#[derive(Debug, Clone)]
pub(crate) struct Location {
    /// The dialect.
    pub(crate) dialect: Dialect,
    /// The project directory (`None`: the current directory).
    pub(crate) project: Option<PathBuf>,
    /// Replaces the dialect's home.
    pub(crate) home: Option<PathBuf>,
    /// The hooks `hook relay` runs instead of the agent's own.
    pub(crate) relay: bool,
}

impl Location {
    /// Loads the configuration; its diagnostics are in [`Loaded::diagnostics`] for the caller
    /// to show, after what moving the state said ([`settle_state`]).
    pub(crate) fn load(&self) -> Result<Loaded> {
        let options = self.load_options()?;
        let said = settle_state(&options);
        let mut loaded = load(&options).context("cannot load the hook configuration")?;
        loaded.diagnostics.splice(0..0, said.diagnostics());
        Ok(loaded)
    }

    /// Loads configuration, trust and engine ([`Hooks::load`]), once the state is settled
    /// ([`settle_state`]); the diagnostics are in [`Hooks::diagnostics`], and what moving the
    /// state said is returned beside them.
    pub(crate) fn hooks(&self) -> Result<(Hooks, Settled)> {
        let options = self.load_options()?;
        let said = settle_state(&options);
        let hooks = Hooks::load(options).context("cannot load the hook configuration")?;
        Ok((hooks, said))
    }

    /// The load options of this location.
    pub(crate) fn load_options(&self) -> Result<LoadOptions> {
        let project = self.project_dir()?;
        let mut options =
            LoadOptions::new(self.dialect, Environment::from_process()).with_project(&project);
        if let Some(home) = &self.home {
            options = options.with_home(existing_dir(home, "home")?);
        }
        if self.relay {
            options = options.for_relay();
        }
        Ok(options)
    }

    /// This location's `--home`, `--project` and `--relay` flags as a command line names them
    /// (each with its leading space, quoted for a POSIX shell), for the commands `hook`
    /// suggests.
    pub(crate) fn flags(&self) -> String {
        let mut extra = String::new();
        if let Some(home) = &self.home {
            extra.push_str(" --home ");
            extra.push_str(&crate::shell::quote(&home.display().to_string()));
        }
        if let Some(project) = &self.project {
            extra.push_str(" --project ");
            extra.push_str(&crate::shell::quote(&project.display().to_string()));
        }
        if self.relay {
            extra.push_str(" --relay");
        }
        extra
    }

    /// The project directory, absolute, so that keys do not depend on how it was typed.
    pub(crate) fn project_dir(&self) -> Result<PathBuf> {
        match &self.project {
            Some(dir) => existing_dir(dir, "project"),
            None => std::env::current_dir().context("cannot read the current directory"),
        }
    }
}

/// `location`, and where the dialect has a relay and `location` is not already the relay's,
/// the relay's too: the agent runs both its own hooks and the relay's.
pub(crate) fn with_relay(location: &Location) -> Vec<Location> {
    let mut all = vec![Location {
        dialect: location.dialect,
        project: location.project.clone(),
        home: location.home.clone(),
        relay: location.relay,
    }];
    if !location.relay && location.dialect.rules().agent().relay().is_some() {
        all.push(Location {
            dialect: location.dialect,
            project: location.project.clone(),
            home: location.home.clone(),
            relay: true,
        });
    }
    all
}

/// Moves the relay's state from where an earlier version kept it, once
/// ([`crate::ops::state::settle`]), for the configuration `options` names; what there is to
/// say about it (nothing when its files cannot be found: loading them says why). Every command
/// that reads trust goes through [`Location::load`] or [`Location::hooks`], which call it.
pub(crate) fn settle_state(options: &LoadOptions) -> Settled {
    match hook_config::discover(options) {
        Ok(discovery) => crate::ops::state::settle(&discovery),
        Err(_) => Settled::default(),
    }
}

/// `dir` made absolute, or an error saying it does not exist.
pub(crate) fn existing_dir(dir: &Path, what: &str) -> Result<PathBuf> {
    match std::fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => bail!("{what} directory {} is not a directory", dir.display()),
        Err(_) => bail!("{what} directory {} does not exist", dir.display()),
    }
    dir.canonicalize()
        .with_context(|| format!("cannot resolve {what} directory {}", dir.display()))
}
