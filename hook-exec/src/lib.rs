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
//! use hook_exec::hook_protocol::{Decision, Dialect, input_from_value};
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
//! # Choices where the spec is silent
//!
//! - **http**: redirects are not followed (a 3xx is a non-2xx reply); a 2xx reply's body goes
//!   through [`hook_protocol::interpret()`] as the stdout of an exit 0 (so an empty body continues
//!   and plain text is context where verboo takes plain text); any other status, a connection
//!   error or a body over 1 MiB fails the run without a decision; running out of time is
//!   `timed_out`, like a command. Header `$VAR`/`${VAR}` names outside `allowedEnvVars` (and
//!   allowed ones that are unset) become empty, with a warning on the run.
//! - **prompt/agent**: the prompt is the handler's `prompt` with every `$ARGUMENTS` replaced by
//!   the event JSON; a prompt without `$ARGUMENTS` gets the event JSON appended after a blank
//!   line. The request carries the answer format as its `system` instruction
//!   ([`ANSWER_FORMAT`]). The reply is read from its first `{` to its last `}` (so a code
//!   fence around it is fine) and must hold a boolean `ok`. `ok: false` is read as the output
//!   `{"decision": "block", "reason": ...}`, so the event's own blocking rules apply. Agent
//!   handlers go to the same client with `kind: Agent`: how many steps a verifier takes is the
//!   client's business. wuu fails open: a failed request, a timeout or an unparsable reply
//!   allows, with a warning on the run (`ok`); with no client at all the run is `skipped:
//!   no_client` and allows. verboo: no client is `skipped: no_client`, a failed request or an
//!   unparsable reply `failed`, a timeout `timed_out`; none of them decides anything.
//! - **mcp_tool**: `${path}` placeholders in `input` (in string values, at any depth) name a dotted
//!   path into the event JSON, a whole-string placeholder keeps its JSON type, a missing path
//!   fails the run before any call, and a null/object/array cannot be spliced into a longer
//!   string. The tool's `structuredContent` (else its only text content, else the whole result)
//!   is read as the stdout of an exit 0; `isError: true` fails the run. Never run at
//!   `SessionEnd` (`skipped: unsupported`).
//! - **async** (lime and verboo `async: true`): only command handlers run in the background
//!   (both seeds define `async` as a command-handler field); on another type, in wuu (which has
//!   no async hooks) and at lime's `SessionEnd` (which runs synchronously) the handler runs in
//!   the foreground with a warning. A background run is reported in the outcome with status
//!   `async` and nothing else; at most [`EngineOptions::max_async`] run at once. Its
//!   [`AsyncResult`] is tagged with the `session_id` and `turn_id` of the event that started it
//!   and handed out only by [`Engine::collect_async`] (waits) or
//!   [`Engine::collect_finished_async`] (does not) for that session (and turn), once.
//!   It keeps `additionalContext` and `systemMessage` only: a decision, a rewrite, a stop or
//!   permission changes are dropped with a warning on its run, and a block (exit 2) becomes an
//!   `ok` run. [`Engine::cancel_async`] kills a session's pending runs at session end; dropping
//!   the engine kills them all.
//! - **Stop loops**: past [`EngineOptions::stop_loop_cap`] consecutive `Stop`/`SubagentStop`
//!   blocks in one session, the stop goes through and a system message says why.
//! - **Broken configuration**: every handler, group, file or plugin the loader could not read
//!   ([`hook_config::Registry::broken_for`]) is in `runs` after the handlers that ran, as
//!   `skipped` with `skip_reason: invalid` and the diagnostic (`file:line:col: ...`) as its
//!   `error`, on each event it may have been on; everything else runs. A typo in a committed
//!   project file can never switch off the user's own guard. One that asked for
//!   `onFailure: "block"` blocks each of those events that can block, with the diagnostic as
//!   the reason: read leniently ([`hook_config::Broken::on_failure`]: `"Block"`, or such a word
//!   anywhere in a file that does not parse), so the typo that broke a guard never also turns
//!   its fail-closed setting off. Likewise every skip that is not deliberate
//!   ([`hook_protocol::SkipReason::is_deliberate`]: untrusted, modified, unsupported, no client
//!   for its type) is a failure for `onFailure: "block"`.
//! - **`CLAUDE_ENV_FILE`** (verboo `SessionStart`, `Setup`, `CwdChanged`, `FileChanged`): a
//!   0600 file in a fresh 0700 folder inside [`EngineOptions::env_file_dir`] (`hook run`:
//!   `<state>/hook-env`, a private folder checked as side files' folders are; unset: the
//!   system's temporary folder). A hook that replaces it with a FIFO, a symlink, a folder or a
//!   file over 1 MiB cannot hang or exhaust the engine: it is opened `O_NONBLOCK | O_NOFOLLOW`,
//!   checked with `fstat`, read bounded, and refused with a system message. What the hooks
//!   wrote is [`hook_protocol::Outcome::session_env`]. Details in the `env_file` module.
//! - **Variables in commands**: the engine never puts a path into a command's text on Unix.
//!   `${PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_ROOT}` and `$CLAUDE_PROJECT_DIR` stay as written and
//!   are set in the hook's environment (with [`PROJECT_DIR_ENV`], `HOOK_PROJECT_DIR`, in every
//!   dialect, and [`EngineOptions::env`]), so `/bin/sh` expands them: an expansion's result is
//!   never parsed again, and a home, project or plugin path containing `$(...)`, backquotes,
//!   quotes, `;` or spaces runs nothing. Claude Code substitutes `${CLAUDE_PLUGIN_ROOT}` into
//!   the text instead; the two agree for every command written as its docs show
//!   (`"${CLAUDE_PLUGIN_ROOT}/scripts/x.sh"`, quoted or not), and differ only where a path's
//!   text would have become syntax (the engine's reading is the safe one) or where the
//!   variable sits inside single quotes, which the shell leaves unexpanded (see
//!   "Limitations"). Substituting a quoted value instead was rejected: the right quoting
//!   depends on where the variable sits (`'...'` inside `"..."` would reach the program with
//!   its quotes), and only the shell knows that.
//! - **How results combine** per event: the `combine` module (first block reason on tool calls, a
//!   blocked or stopped prompt drops its context in verboo and keeps it for the next turn in
//!   lime, verboo `Stop` context continues the agent).
//!
//! # Cancellation: what survives and what does not
//!
//! Every command hook runs in its own process group. The whole group (the shell, its children
//! and grandchildren) gets SIGKILL, and the hook's pipes are closed, when:
//!
//! - the hook times out, or exits (after at most [`EngineOptions::pipe_grace`] for output its
//!   leftover children hold open);
//! - the `dispatch` future is dropped before the end (the agent cancelled the event): the kill
//!   happens in the drop itself;
//! - [`Engine::cancel_async`] is called, or the engine is dropped, for async hooks: their tasks
//!   are aborted and the runtime drops them on its next turn, killing their groups;
//! - the runtime is shut down: dropping a task drops its hooks.
//!
//! `hook run` builds on this for SIGINT/SIGTERM/SIGHUP: it drops the dispatch and exits 128 + n.
//! With [`EngineOptions::kill_on_parent_death`] (Linux), a hook's shell also gets SIGKILL when
//! the thread that started it exits, including when the engine's process is SIGKILLed.
//!
//! # Example
//!
//! ```
//! use std::time::Duration;
//! use hook_exec::command::{CommandSpec, run_command};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut spec = CommandSpec::new("cat; echo oops >&2; exit 2", ".", Duration::from_secs(5));
//! spec.stdin = br#"{"hook_event_name":"Stop"}"#.to_vec().into();
//! let run = run_command(&spec).await;
//! assert!(run.end.is_ok());
//! assert_eq!(run.exit_code, Some(2));
//! assert_eq!(run.stdout, &spec.stdin[..]);
//! assert_eq!(run.stderr, b"oops\n");
//! # });
//! ```
//!
//! # Limitations
//!
//! - Hooks are trusted code, not a sandbox: a command hook runs with the agent's own rights.
//! - A process that leaves the hook's process group (`setsid`, `setpgid`, a daemon's double
//!   fork) escapes every kill above; if it holds the hook's output open, the run fails rather
//!   than wait for it.
//! - A SIGKILL of the engine's process cannot run any cleanup: only the hook's shell (the direct
//!   child) is reached, through `PR_SET_PDEATHSIG` on Linux with
//!   [`EngineOptions::kill_on_parent_death`]; the shell's own children are orphaned and keep
//!   running (they are not told, and being a child subreaper would not help a dead parent).
//!   Other systems have no parent-death signal: there, a SIGKILLed engine leaves its hooks.
//! - `PR_SET_PDEATHSIG` follows the *thread* that started the hook, which is why it is off by
//!   default: on a multi-thread runtime a hook started from a thread that later exits (e.g. after
//!   `block_in_place`) would be killed with it.
//! - [`Engine::cancel_async`] returns once the tasks are aborted; their groups are killed when
//!   the runtime drops the tasks, at its next turn (at once on an idle runtime), not before the
//!   call returns.
//! - A native (in-process) call that times out cannot be killed: its thread runs on and its
//!   result is dropped.
//! - A front end that must answer its agent and exit at once (a hook process, as `hook relay`)
//!   dispatches with [`AsyncHandlers::Deferred`] and the agent's own bytes
//!   ([`Engine::dispatch_bytes`]), then starts a process of its own with
//!   [`detach::spawn_detached`] that dispatches with [`AsyncHandlers::Only`] and collects: the
//!   engine cannot hand a running hook from one process to another. Trust is decided again in
//!   that process, on the files as they are then.
//! - Async results live in the engine's memory until collected or cancelled: an agent that never
//!   collects a session's results should cancel them at session end.
//! - `async` is honoured for command handlers only; verboo's `asyncRewake` is parsed but the
//!   engine never wakes the agent: collecting results is the agent's move.
//! - `'${CLAUDE_PLUGIN_ROOT}/x.sh'` in single quotes reaches the program unexpanded on Unix
//!   (Claude Code would have substituted it): use double quotes. On Windows (`cmd /C`, which
//!   has no `${...}`), the plugin folder is substituted into the command's text as Claude Code
//!   does, unquoted: a plugin folder whose name contains `&`, `|`, `^` or `%` there is read
//!   by `cmd`; install plugins under plain names.
//! - http handlers speak HTTP/1.1 only (no HTTP/2) and trust the system's root certificates.
//! - The prompt/agent answer format is one JSON object: a model that cannot keep to it fails
//!   open in wuu and fails the run in verboo.
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
