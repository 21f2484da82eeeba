//! [`Scope::ProjectHooks`](super::Scope::ProjectHooks): an engine that runs only the project's
//! own hooks (its project and local files), trust still applying.

use anyhow::{Context, Result};
use hook_config::Diagnostic;
use hook_protocol::Layer;

use super::Phrasing;
use crate::ops::location::Location;

/// Why a hook is left out under [`Scope::ProjectHooks`](super::Scope::ProjectHooks).
const NOT_THE_PROJECTS: &str = "not one of the project's own hooks: a project's expectations run only through its own hooks (`hook doctor --all-hooks` runs them through every hook)";

/// The project's own hooks pass on to the trust gate; every other one is refused.
struct ProjectHooksOnly {
    inner: hook_trust::TrustGate,
}

impl ProjectHooksOnly {
    fn refuses(handler: &hook_config::Handler) -> Option<(hook_protocol::SkipReason, String)> {
        (!matches!(handler.source.layer, Layer::Project | Layer::Local)).then(|| {
            (
                hook_protocol::SkipReason::Disabled,
                NOT_THE_PROJECTS.to_owned(),
            )
        })
    }
}

impl hook_config::Gate for ProjectHooksOnly {
    fn check(&self, handler: &hook_config::Handler) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check(handler))
    }

    fn check_at(
        &self,
        handler: &hook_config::Handler,
        place: &hook_config::RunPlace,
    ) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check_at(handler, place))
    }

    fn check_native(
        &self,
        handler: &hook_config::Handler,
        library_sha256: Option<&str>,
    ) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check_native(handler, library_sha256))
    }
}

/// An engine over `location`'s hooks that runs only the project's own (trust still applies),
/// with the options [`hook_exec::Hooks`] would give it.
pub(super) fn project_hooks_engine(
    location: &Location,
    phrasing: &Phrasing,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<hook_exec::Engine> {
    let loaded = hook_config::load(&location.load_options()?)
        .context("cannot load the hook configuration")?;
    diagnostics.extend(loaded.diagnostics.iter().cloned());
    let discovery = &loaded.discovery;
    let gate = ProjectHooksOnly {
        inner: hook_trust::TrustGate::new(hook_trust::TrustView::for_discovery(discovery))
            .with_phrasing(phrasing(location)),
    };
    let mut options = hook_exec::EngineOptions::default()
        .with_kill_on_parent_death(true)
        .with_side_file_dir(discovery.state_dir.join("hook-context"))
        .with_env_file_dir(discovery.state_dir.join("hook-env"));
    if let Some(project) = &discovery.project {
        options = options.with_project_dir(project);
    }
    let mut engine = hook_exec::Engine::new(loaded.registry)
        .with_options(options)
        .with_gate(gate);
    // The ready-made guards' entries are answered in process, as `hook relay` answers them.
    engine = engine.with_in_process_commands(crate::ops::guard::in_process::GuardCommands);
    if let Some(client) = hook_exec::OpenAiCompatibleClient::from_env() {
        engine = engine.with_model_client(client);
    }
    Ok(engine)
}
