//! Running hook handlers and combining their results into one outcome, per dialect.
//!
//! **Owns**: spawning command hooks (the only crate in the workspace that creates processes),
//! timeouts, output caps, and combining the per-handler results of one event into a
//! [`hook_protocol::Outcome`].
//!
//! **Never**: reads configuration files itself (it is given a loaded configuration) or prints.
//!
//! # Quick start (vendors)
//!
//! [`Hooks::load`] reads a dialect's configuration and trust for a home and project and builds
//! an engine gated by that trust; an [`Engine`] built by hand with [`Engine::new`] refuses the
//! hooks that need trust until it is given a gate ([`RefuseUntrusted`]; [`AllowAll`] must be
//! asked for by name). `examples/embed_lime.rs` is a whole agent loop (trust, reload, block,
//! rewrite, context, cancellation), run by the test suite. README.md shows this same code.
//!
//! ```no_run
//! # #[cfg(feature = "trust")] mod with_trust {
//! use hook_exec::{Environment, Hooks, LoadOptions};
//! use hook_exec::hook_protocol::{Decision, Dialect};
//! use hook_exec::hook_protocol::input::input_from_value;
//!
//! async fn before_tool_call(
//!     home: &std::path::Path,
//!     project: &std::path::Path,
//! ) -> Result<(), Box<dyn std::error::Error>> {
//!     // Once per session: configuration, trust and engine in one call. A project's hooks run
//!     // only once the user has trusted them (`hook trust`); the others are reported as skipped.
//!     let hooks = Hooks::load(
//!         LoadOptions::new(Dialect::Lime, Environment::from_process())
//!             .with_home(home)
//!             .with_project(project),
//!     )?;
//!     for diagnostic in hooks.diagnostics() {
//!         eprintln!("{diagnostic}");
//!     }
//!
//!     // Before each tool call: show what will run, run it, honour what it says.
//!     let call = input_from_value(Dialect::Lime, serde_json::json!({
//!         "hook_event_name": "PreToolUse", "session_id": "s1", "turn_id": "t1",
//!         "cwd": project, "transcript_path": null, "model": "gpt-5",
//!         "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "c1",
//!         "tool_input": {"command": "npm install"},
//!     }))?;
//!     for handler in hooks.engine().preview(&call) {
//!         if let Some(status) = &handler.config.status_message {
//!             eprintln!("{status}");
//!         }
//!     }
//!     let outcome = hooks
//!         .engine()
//!         .dispatch_observed(&call, |run| eprintln!("{} {:?}", run.key, run.status))
//!         .await;
//!     match outcome.decision {
//!         Decision::Block => eprintln!("refused: {}", outcome.reason.unwrap_or_default()),
//!         _ => {
//!             // A rewrite is a proposal: put it through the agent's own permission check.
//!             let _input = outcome.updated_input.unwrap_or(serde_json::json!({"command": "npm install"}));
//!         }
//!     }
//!     for context in &outcome.additional_contexts {
//!         eprintln!("context from {}: {}", context.key, context.text);
//!     }
//!     Ok(())
//! }
//! # }
//! ```
//!
//! # The engine
//!
//! [`Engine`] is built once from a loaded [`hook_config::Registry`]; [`Engine::dispatch`] runs
//! every matching handler of one event and returns the [`hook_protocol::Outcome`]. No global
//! state: two engines never share anything. Dropping a `dispatch` future kills the hooks it
//! started (see "Cancellation" below). The outcome's `updated_input` is a proposal, never an authorization: the agent must
//! put it through its own permission check again, because a hook never widens what the agent may
//! do.
//!
//! | handler | runs in | how |
//! |---|---|---|
//! | `command` | every dialect | [`command::run_command`]: `/bin/sh -c`, event JSON on stdin |
//! | `http` | verboo | POST of the event JSON; a 2xx body is read like stdout (see below); feature `http` |
//! | `prompt`, `agent` | verboo, wuu (`prompt`) | a [`ModelClient`] from [`Engine::with_model_client`]; lime: `skipped: unsupported` |
//! | `mcp_tool` | lime, verboo | an [`McpClient`] from [`Engine::with_mcp_client`] |
//! | `native` | every dialect | the SDK's in-process plugins |
//!
//! **Commands the embedder answers itself.** [`Engine::with_in_process_commands`] (and
//! [`Hooks::with_in_process_commands`]) gives the engine an [`InProcessCommands`]: before
//! spawning a command hook, the engine asks it, and a command it recognises is answered in
//! this process ([`CommandCall`] in, [`CommandReply`] out: an exit code, stdout and stderr) —
//! how `hook relay` runs its ready-made guards (`hook guard run NAME`) without starting a
//! process per event. Everything around it is a spawned hook's: matching, `if` rules and trust
//! decide first (a refused handler is never asked), the handler's timeout bounds the answer,
//! the reply is capped and read by [`hook_protocol::interpret()`], `onFailure` and combining
//! apply, and the run (marked [`in_process`](hook_protocol::Run::in_process), in the journal
//! too) is an ordinary `runs` entry.
//!
//! # Errors an embedder can match
//!
//! Every way a handler can fail is a variant of a `#[non_exhaustive]` error enum, with the
//! path, URL or limit it concerns and its cause as [`std::error::Error::source`]:
//!
//! | operation | error | variants |
//! |---|---|---|
//! | a command ([`command::run_command`]) | [`command::CommandError`] (in [`command::CommandRun::end`]) | `NoWorkingDirectory`, `Spawn` (io source), `TimedOut` (the limit), `OutputTooLarge` (the cap), `PipesHeldOpen` (the grace), `OutputUnreadable` (io source) |
//! | an http hook ([`post_hook`]) | [`HttpError`] | `Setup`, `Transport` (a [`TransportError`] source: `is_connect()`, `is_timeout()`), `Status` (the code), `Body`, `TooLarge`, `TimedOut` |
//! | a native plugin ([`native::call_library`]) | [`native::NativeError`] | `Library` (reading the file), `Load` (a [`native::LoaderError`] source), `ChangedSinceLoaded` (not Linux), `MissingSymbol`, `UnreadableVersion`, `IncompatibleAbi`, `CallFailed` (the status), `OutputTooLarge`, `Panicked`, `TimedOut` |
//! | a model ([`ModelClient`]) | [`ModelError`] | `Http` (an [`HttpError`] source), `NotJson`, `NoContent`, `Client` (what an embedder's client reports: [`ModelError::new`], [`ModelError::with_source`]) |
//! | an MCP tool ([`McpClient`]) | [`McpError`] | `Server`, `Tool`, `Protocol`, `Other` (built with [`McpError::server`], [`McpError::tool`], [`McpError::protocol`], [`McpError::new`], [`McpError::with_source`]) |
//! | a side file (lime's over-limit context, in [`EngineOptions::with_side_file_dir`]'s folder) or the journal's folder | [`SideFileError`] | the folder is unsafe, or a write failed (io source) |
//!
//! An error's `Display` is the whole sentence, the cause's text included: it is exactly what
//! the engine writes in the run's `error` when it turns the failure into a `runs` entry, so a
//! printer that also walks `source()` shows the cause twice. [`Engine::dispatch`] itself never
//! fails: every failure is one run's `failed` or `timed_out` status and that text.
//!
//! # Features
//!
//! - **`http`** (on by default): verboo `type = "http"` hooks, [`post_hook`] and
//!   [`OpenAiCompatibleClient`]: everything that needs reqwest and its TLS stack. It is on by
//!   default because http hooks are part of verboo's contract (Claude Code runs them): an
//!   embedder who takes the defaults runs a verboo configuration as the agent does, and one who
//!   never runs http hooks nor uses the bundled model client turns it off
//!   (`default-features = false`) to drop reqwest, hyper and rustls. Without it an http handler
//!   is never run silently: its run is `skipped: unsupported`, saying the engine was built
//!   without `http`. `prompt`/`agent` handlers still run through any [`ModelClient`] the
//!   embedder gives. `hook` (hook-cli) enables it explicitly.
//! - **`trust`** (on by default): `Hooks` (configuration, trust and a gated engine in one
//!   call) and the trust items it is used with (`TrustView`, `TrustGate`, `Refusal`, `Grant`,
//!   `store_for`), through `hook-trust`. Without it, build the engine from [`load`] and give it
//!   your own [`Gate`] ([`Engine::with_gate`]); an engine without a gate still refuses every
//!   hook that needs trust ([`RefuseUntrusted`]).
//! - **`validate`** (on by default): hook-protocol's `validate`, lime output checked with
//!   jsonschema, every problem listed with a hint. Without it the same committed schemas are
//!   checked by hook-protocol's own reader of the subset of JSON Schema they use: **every
//!   output gets the same verdict** (a test compares the two), a failed run's `error` lists the
//!   problems without hints, and wuu and verboo unknown-field warnings name top-level fields
//!   only.
//!
//! With none of them (`default-features = false`), `cargo tree -e normal` has no hook-trust,
//! jsonschema, reqwest, hyper or rustls; `cargo test -p hook-exec --no-default-features` is
//! part of CI.
//!
//! # More
//!
//! The choices this engine made where the specification is silent (http, prompt and agent,
//! `mcp_tool`, async, stop loops, broken configuration, `CLAUDE_ENV_FILE`, variables in
//! commands), what cancellation kills, and the limitations are in [`Engine`]'s
//! documentation; running one command alone is in [`command`]'s, the journal in [`journal`]'s,
//! the native ABI in [`native`]'s.
//!
// The docs name the `http` and `trust` items (on by default); built without them, those links
// have no target.
#![cfg_attr(
    not(all(feature = "http", feature = "trust")),
    allow(rustdoc::broken_intra_doc_links)
)]

mod background;
mod client;
mod combine;
pub use combine::combine_outcomes;
pub mod command;
mod context;
pub mod detach;
mod dispatch;
mod engine;
mod env_file;
#[cfg(feature = "trust")]
mod hooks;
#[cfg(feature = "http")]
mod http;
mod in_process;
pub mod journal;
mod mcp;
pub mod native;
mod payload;
mod runner;
mod schedule;

pub use background::AsyncResult;
#[cfg(feature = "http")]
pub use client::OpenAiCompatibleClient;
pub use client::{
    ANSWER_FORMAT, BoxError, BoxFuture, McpClient, McpError, ModelClient, ModelError, ModelRequest,
};
pub use context::SideFileError;
pub use engine::{AsyncHandlers, Engine, EngineOptions};
pub use in_process::{CommandCall, CommandReply, InProcessCommands};

/// The variable that gives every command hook its project directory, in every dialect (a name
/// no agent owns, so one script finds its project under any of them): the engine's
/// [`EngineOptions::project_dir`], else the event's `cwd`. The dialect's own variable
/// (verboo `CLAUDE_PROJECT_DIR`) is set beside it.
pub const PROJECT_DIR_ENV: &str = "HOOK_PROJECT_DIR";
// What an embedder names to build and gate an engine, re-exported item by item: the crates
// behind them stay free to grow without each addition becoming part of this crate's API.
pub use hook_config::{
    AllowAll, Diagnostic, Discovery, Environment, Gate, Handler, LoadError, LoadOptions, Loaded,
    RefuseUntrusted, Registry, RunPlace, load,
};
/// The wire protocol every embedder speaks (events, `interpret`, `Outcome`): re-exported so an
/// embedder's `hook-protocol` is always the one this engine was built with.
pub use hook_protocol;
#[cfg(feature = "trust")]
pub use hook_trust::{Grant, Refusal, TrustGate, TrustView, store_for, store_for_discovery};
#[cfg(feature = "trust")]
pub use hooks::Hooks;
#[cfg(feature = "http")]
pub use http::{HttpError, TransportError, post_hook};
