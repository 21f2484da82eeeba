//! The engines a replay dispatches through: built like [`hook_exec::Hooks::load`] does
//! (configuration, trust store, trust gate with `hook trust`'s wording), but assembled here so
//! that `--only KEY` ([`OnlyGate`]) and `--trust-all-for-replay` can wrap the gate; and the
//! engine of one `--config FILE`, read as the user file of an empty temporary home.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, Result};
use hook_config::{Environment, Gate, Handler, LoadOptions};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::SkipReason;

use super::{ReplayOptions, Warning};
use crate::ops::location::Location;

/// Only the hooks `--only` names run; every other one is refused (and left out of the report).
struct OnlyGate {
    keys: HashSet<String>,
    inner: Box<dyn Gate>,
}

/// The message `OnlyGate` refuses with; the report leaves those runs out.
pub(super) const NOT_SELECTED: &str = "not selected by --only";

impl Gate for OnlyGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        if !self.keys.is_empty() && !self.keys.contains(&handler.key) {
            return Some((SkipReason::Disabled, NOT_SELECTED.to_owned()));
        }
        self.inner.check(handler)
    }

    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        if !self.keys.is_empty() && !self.keys.contains(&handler.key) {
            return Some((SkipReason::Disabled, NOT_SELECTED.to_owned()));
        }
        self.inner.check_native(handler, library_sha256)
    }
}

/// The engine of `options`, gated as described in the module docs; the configuration's
/// diagnostics and the `--only` keys no hook has go to `warnings`.
pub(super) fn engine(
    replay: &ReplayOptions,
    options: LoadOptions,
    side_files: &Path,
    project: &Path,
    warnings: &mut Vec<Warning>,
) -> Result<Engine> {
    let mut loaded = hook_config::load(&options).context("cannot load the hook configuration")?;
    warnings.extend(
        std::mem::take(&mut loaded.diagnostics)
            .into_iter()
            .map(Warning::Config),
    );
    let inner: Box<dyn Gate> = if replay.trust_all_for_replay {
        Box::new(hook_config::AllowAll)
    } else {
        let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
        Box::new(
            hook_trust::TrustGate::new(view)
                .with_phrasing(crate::ops::trust::refusal_phrasing(&replay.location)),
        )
    };
    let known: HashSet<&str> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| h.key.as_str())
        .collect();
    for key in &replay.only {
        if !known.contains(key.as_str()) {
            warnings.push(Warning::UnknownOnlyKey(key.clone()));
        }
    }
    let gate = OnlyGate {
        keys: replay.only.iter().cloned().collect(),
        inner,
    };
    let options = EngineOptions::default()
        .with_project_dir(project)
        .with_side_file_dir(side_files)
        .with_kill_on_parent_death(true);
    let mut engine = Engine::new(loaded.registry)
        .with_options(options)
        .with_gate(gate);
    if let Some(client) = hook_exec::client::OpenAiCompatibleClient::from_env() {
        engine = engine.with_model_client(client);
    }
    Ok(engine)
}

/// The engine of one config file, read as the user file of an empty temporary home (kept in
/// `temporary` for as long as the replay runs).
pub(super) fn engine_for_file(
    replay: &ReplayOptions,
    file: &Path,
    project: &Path,
    side_files: &Path,
    temporary: &mut Vec<tempfile::TempDir>,
    warnings: &mut Vec<Warning>,
) -> Result<Engine> {
    let text = hook_config::read_config_text(file, hook_config::FileOwner::Anyone)
        .map_err(|error| anyhow::anyhow!("{} {error}", file.display()))?;
    let home = tempfile::tempdir().context("cannot create a temporary folder")?;
    let empty_project = tempfile::tempdir().context("cannot create a temporary folder")?;
    let options = LoadOptions::new(replay.location.dialect, Environment::from_process())
        .with_home(home.path())
        .with_project(empty_project.path())
        .without_managed();
    let discovery = hook_config::discover(&options).context("cannot place the config file")?;
    let user = discovery
        .user_file()
        .context("this dialect has no user file")?
        .to_owned();
    std::fs::write(&user, text).with_context(|| format!("cannot write {}", user.display()))?;
    let engine = engine(replay, options, side_files, project, warnings)?;
    temporary.push(home);
    temporary.push(empty_project);
    Ok(engine)
}

/// The options `hook run` loads with (`--home`, `--relay`), for `project`.
pub(super) fn load_options(location: &Location, project: &Path) -> Result<LoadOptions> {
    let mut options =
        LoadOptions::new(location.dialect, Environment::from_process()).with_project(project);
    if let Some(home) = &location.home {
        let home = home
            .canonicalize()
            .with_context(|| format!("home directory {} does not exist", home.display()))?;
        options = options.with_home(home);
    }
    if location.relay {
        options = options.for_relay();
    }
    Ok(options)
}
