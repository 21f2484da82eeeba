//! [`Hooks`]: a dialect's configuration, its trust and an engine, loaded in one call.

use hook_config::{Diagnostic, Discovery, LoadError, LoadOptions, load};
use hook_trust::{Refusal, TrustGate, TrustView};
use std::sync::Arc;

use crate::{Engine, EngineOptions};

/// How refusals are worded in a skipped run's message.
type Phrase = dyn Fn(&Refusal) -> String + Send + Sync;

/// The hooks of one home and project, ready to dispatch: what an agent embedding the engine
/// builds once per session.
///
/// [`Hooks::load`] reads the configuration ([`hook_config::load`]), the trust store of the
/// discovered state folder ([`TrustView::for_discovery`]: hashes relative to the project) and
/// builds an [`Engine`] whose gate is the [`TrustGate`] over it, with the project as the hooks'
/// working directory and `<state>/hook-context` for lime's over-limit context (`<state>` is
/// [`Discovery::state_dir`]: the dialect's home, or the relay's user folder beside the agent). A hook that needs trust and
/// lacks it is skipped as `untrusted` (or `modified`) and reported in the outcome's `runs`; it
/// never runs silently. [`Hooks::reload`] reads configuration and trust again.
///
/// ```
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use hook_exec::{Environment, Hooks, LoadOptions};
/// use hook_protocol::Dialect;
///
/// let home = tempfile::tempdir()?;
/// let project = tempfile::tempdir()?;
/// let hooks = Hooks::load(
///     LoadOptions::new(Dialect::Lime, Environment::empty())
///         .without_managed()
///         .with_home(home.path())
///         .with_project(project.path()),
/// )?;
/// for diagnostic in hooks.diagnostics() {
///     eprintln!("{diagnostic}");
/// }
/// let input = hook_protocol::input::input_from_value(Dialect::Lime, serde_json::json!({
///     "hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t",
///     "cwd": project.path(), "transcript_path": null, "model": "m",
///     "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "c",
///     "tool_input": {"command": "ls"},
/// }))?;
/// let outcome = hooks.engine().dispatch(&input).await;
/// assert!(outcome.runs.is_empty());
/// # Ok(()) }
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(demo()).unwrap();
/// ```
pub struct Hooks {
    options: LoadOptions,
    engine_options: Option<EngineOptions>,
    phrase: Option<Arc<Phrase>>,
    model: Option<Arc<dyn crate::ModelClient>>,
    mcp: Option<Arc<dyn crate::McpClient>>,
    in_process: Option<Arc<dyn crate::InProcessCommands>>,
    engine: Engine,
    trust: TrustView,
    diagnostics: Vec<Diagnostic>,
    discovery: Discovery,
}

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks")
            .field("discovery", &self.discovery)
            .field("diagnostics", &self.diagnostics)
            .finish_non_exhaustive()
    }
}

impl Hooks {
    /// Loads the configuration `options` describe, its trust, and an engine gated by that
    /// trust.
    ///
    /// # Errors
    ///
    /// Only when loading cannot start ([`LoadError`]: no home). A broken file is a
    /// [`diagnostic`](Self::diagnostics) and its handlers are reported as `skipped: invalid`.
    pub fn load(options: LoadOptions) -> Result<Hooks, LoadError> {
        let (engine, trust, diagnostics, discovery) = build(&options, None, None)?;
        Ok(Hooks {
            options,
            engine_options: None,
            phrase: None,
            model: None,
            mcp: None,
            in_process: None,
            engine,
            trust,
            diagnostics,
            discovery,
        })
    }

    /// Uses `options` for the engine instead of the defaults (the project as working
    /// directory, `<state>/hook-context` as side-file folder and `<state>/hook-env` as
    /// `CLAUDE_ENV_FILE` folder are kept unless `options` set them). Rebuilds the engine: call
    /// it before the first dispatch.
    pub fn with_engine_options(mut self, options: EngineOptions) -> Self {
        self.engine_options = Some(options);
        self.rebuild_engine();
        self
    }

    /// Words a refusal with `phrase` in a skipped run's message (say, naming the command or
    /// menu that trusts the hook). Rebuilds the engine: call it before the first dispatch.
    pub fn with_refusal_phrasing(
        mut self,
        phrase: impl Fn(&Refusal) -> String + Send + Sync + 'static,
    ) -> Self {
        self.phrase = Some(Arc::new(phrase));
        self.rebuild_engine();
        self
    }

    /// Answers `prompt` and `agent` handlers with `client` ([`Engine::with_model_client`]);
    /// kept across [`reload`](Self::reload)s.
    pub fn with_model_client(mut self, client: impl crate::ModelClient + 'static) -> Self {
        let client: Arc<dyn crate::ModelClient> = Arc::new(client);
        self.engine.model = Some(Arc::clone(&client));
        self.model = Some(client);
        self
    }

    /// Calls the tools of `mcp_tool` handlers with `client` ([`Engine::with_mcp_client`]);
    /// kept across [`reload`](Self::reload)s.
    pub fn with_mcp_client(mut self, client: impl crate::McpClient + 'static) -> Self {
        let client: Arc<dyn crate::McpClient> = Arc::new(client);
        self.engine.mcp = Some(Arc::clone(&client));
        self.mcp = Some(client);
        self
    }

    /// Answers the command handlers `commands` recognises in this process
    /// ([`Engine::with_in_process_commands`]); kept across [`reload`](Self::reload)s.
    pub fn with_in_process_commands(
        mut self,
        commands: impl crate::InProcessCommands + 'static,
    ) -> Self {
        let commands: Arc<dyn crate::InProcessCommands> = Arc::new(commands);
        self.engine.in_process = Some(Arc::clone(&commands));
        self.in_process = Some(commands);
        self
    }

    /// The engine: [`Engine::preview`], [`Engine::dispatch`], async results.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The trust the engine's gate decides with (each handler's status:
    /// [`TrustView::evaluate`]).
    pub fn trust(&self) -> &TrustView {
        &self.trust
    }

    /// What loading reported: files skipped, handlers left out, warnings.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Where the configuration was looked for (home, project, files).
    pub fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    /// Reads the configuration and the trust store again (after the user edited a file or
    /// trusted a hook) and replaces the engine. Async handlers the old engine started and nobody
    /// collected are cancelled with it.
    ///
    /// # Errors
    ///
    /// As [`Hooks::load`]; the hooks loaded before are then kept.
    pub fn reload(&mut self) -> Result<(), LoadError> {
        let (engine, trust, diagnostics, discovery) = build(
            &self.options,
            self.engine_options.clone(),
            self.phrase.clone(),
        )?;
        self.engine = engine;
        self.engine.model = self.model.clone();
        self.engine.mcp = self.mcp.clone();
        self.engine.in_process = self.in_process.clone();
        self.trust = trust;
        self.diagnostics = diagnostics;
        self.discovery = discovery;
        Ok(())
    }

    fn rebuild_engine(&mut self) {
        let (options, gate) = settings(
            &self.discovery,
            self.trust.clone(),
            self.engine_options.clone(),
            self.phrase.clone(),
        );
        self.engine.reconfigure(options, Box::new(gate));
    }
}

type Built = (Engine, TrustView, Vec<Diagnostic>, Discovery);

fn build(
    options: &LoadOptions,
    engine_options: Option<EngineOptions>,
    phrase: Option<Arc<Phrase>>,
) -> Result<Built, LoadError> {
    let loaded = load(options)?;
    let trust = TrustView::for_discovery(&loaded.discovery);
    let engine = engine_for(
        loaded.registry,
        &loaded.discovery,
        trust.clone(),
        engine_options,
        phrase,
    );
    Ok((engine, trust, loaded.diagnostics, loaded.discovery))
}

fn engine_for(
    registry: hook_config::Registry,
    discovery: &Discovery,
    trust: TrustView,
    engine_options: Option<EngineOptions>,
    phrase: Option<Arc<Phrase>>,
) -> Engine {
    let (options, gate) = settings(discovery, trust, engine_options, phrase);
    Engine::new(registry).with_options(options).with_gate(gate)
}

/// The engine options and gate of [`Hooks`]: the caller's options with the discovered project
/// and side-file and `CLAUDE_ENV_FILE` folders filled in, and the trust gate.
fn settings(
    discovery: &Discovery,
    trust: TrustView,
    engine_options: Option<EngineOptions>,
    phrase: Option<Arc<Phrase>>,
) -> (EngineOptions, TrustGate) {
    let mut options = engine_options.unwrap_or_default();
    if options.project_dir.is_none() {
        options.project_dir = discovery.project.clone();
    }
    if options.side_file_dir.is_none() {
        options.side_file_dir = Some(discovery.state_dir.join("hook-context"));
    }
    if options.env_file_dir.is_none() {
        options.env_file_dir = Some(discovery.state_dir.join("hook-env"));
    }
    let mut gate = TrustGate::new(trust);
    if let Some(phrase) = phrase {
        gate = gate.with_phrasing(move |refusal| phrase(refusal));
    }
    (options, gate)
}
