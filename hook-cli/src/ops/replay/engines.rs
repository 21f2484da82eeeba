//! The engines a replay dispatches through: built like [`hook_exec::Hooks::load`] does
//! (configuration, trust store, trust gate with `hook trust`'s wording), but assembled here so
//! that [`ReplayGate`] can wrap the gate (`--only KEY`, `--trust-all-for-replay`, the relay's
//! entries); and the engine of one `--config FILE`, read as the user file of an empty
//! temporary home.
//!
//! The relay's entries (what `hook relay install` writes into the agent's settings, recognised
//! by [`crate::ops::relay::is_relay_entry`], the one recogniser `doctor` and `stats` use too)
//! never run: the relay they start would take the replayed event for the agent's, record it in
//! the relay's live journal with today's time and record the replay's `PATH` as the agent's.
//! They are listed once ([`NotReplayed`]); `--relay` replays the relay's own hooks, through
//! the engine, which records nothing.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{Context, Result};
use hook_config::{Environment, Gate, Handler, LoadOptions};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::{Dialect, Run, SkipReason};

use super::report::{LeftOutWhy, NotReplayed};
use super::{ReplayOptions, Warning};
use crate::ops::location::Location;

/// The gate around the trust gate: the relay's entries never run, and with `--only` only the
/// hooks it names do. What it refuses is left out of the report ([`left_out`]). Every method
/// is forwarded as itself: the trust gate reads a command's files from the place the hook
/// runs at (`check_at`), as in `hook run`, never from the project root instead.
struct ReplayGate {
    dialect: Dialect,
    keys: HashSet<String>,
    inner: Box<dyn Gate>,
}

/// The message `ReplayGate` refuses a hook `--only` does not name with.
const NOT_SELECTED: &str = "not selected by --only";

/// The message `ReplayGate` refuses a relay entry with (the entry is listed once instead).
const RELAY_ENTRY: &str = "a relay entry: not replayed (its hooks replay with --relay)";

impl ReplayGate {
    /// Why the replay itself refuses `handler`, before any trust is asked.
    fn refuses(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        if is_relay_entry(handler, self.dialect) {
            return Some((SkipReason::Disabled, RELAY_ENTRY.to_owned()));
        }
        if !self.keys.is_empty() && !self.keys.contains(&handler.key) {
            return Some((SkipReason::Disabled, NOT_SELECTED.to_owned()));
        }
        None
    }
}

impl Gate for ReplayGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        self.refuses(handler).or_else(|| self.inner.check(handler))
    }

    fn check_at(
        &self,
        handler: &Handler,
        place: &hook_config::RunPlace,
    ) -> Option<(SkipReason, String)> {
        self.refuses(handler)
            .or_else(|| self.inner.check_at(handler, place))
    }

    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        self.refuses(handler)
            .or_else(|| self.inner.check_native(handler, library_sha256))
    }
}

/// Whether `run` was refused by [`ReplayGate`] (not selected, a relay entry): the report
/// leaves it out.
pub(super) fn left_out(run: &Run) -> bool {
    run.status == hook_protocol::RunStatus::Skipped
        && matches!(run.error.as_deref(), Some(NOT_SELECTED | RELAY_ENTRY))
}

/// Whether `handler` is one of the relay's entries in the agent's settings.
fn is_relay_entry(handler: &Handler, dialect: Dialect) -> bool {
    handler
        .config
        .command
        .as_deref()
        .is_some_and(|command| crate::ops::relay::is_relay_entry(command, dialect))
}

/// The engine of `options`, gated as described in the module docs, and the relay entries it
/// leaves out (in configuration order); the configuration's diagnostics and the `--only` keys
/// no hook has go to `warnings`.
pub(super) fn engine(
    replay: &ReplayOptions,
    options: LoadOptions,
    side_files: &Path,
    project: &Path,
    warnings: &mut Vec<Warning>,
) -> Result<(Engine, Vec<NotReplayed>)> {
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
    let dialect = replay.location.dialect;
    let not_replayed = loaded
        .registry
        .handlers()
        .iter()
        .filter(|handler| is_relay_entry(handler, dialect))
        .map(|handler| NotReplayed {
            key: handler.key.clone(),
            command: handler.config.command.clone().unwrap_or_default(),
            reason: LeftOutWhy::RelayEntry,
            // Already `--relay`: the relay's hooks are what is replayed.
            instead: (!replay.location.relay).then(|| "--relay".to_owned()),
            compared: false,
        })
        .collect();
    let gate = ReplayGate {
        dialect,
        keys: replay.only.iter().cloned().collect(),
        inner,
    };
    // A replayed hook that runs `hook` itself (a wrapper around the relay, a `hook run`)
    // records nothing in a live journal either.
    let options = EngineOptions::default()
        .with_project_dir(project)
        .with_side_file_dir(side_files)
        .with_kill_on_parent_death(true)
        .with_env("HOOK_JOURNAL", "off");
    let mut engine = Engine::new(loaded.registry)
        .with_options(options)
        .with_gate(gate);
    // The ready-made guards' entries are answered in process, as `hook relay` answers them.
    engine = engine.with_in_process_commands(crate::ops::guard::in_process::GuardCommands);
    if let Some(client) = hook_exec::OpenAiCompatibleClient::from_env() {
        engine = engine.with_model_client(client);
    }
    Ok((engine, not_replayed))
}

/// The engine of one config file, read as the user file of an empty temporary home (kept in
/// `temporary` for as long as the replay runs), and the relay entries it leaves out.
pub(super) fn engine_for_file(
    replay: &ReplayOptions,
    file: &Path,
    project: &Path,
    side_files: &Path,
    temporary: &mut Vec<tempfile::TempDir>,
    warnings: &mut Vec<Warning>,
) -> Result<(Engine, Vec<NotReplayed>)> {
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
    let built = engine(replay, options, side_files, project, warnings)?;
    temporary.push(home);
    temporary.push(empty_project);
    Ok(built)
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
