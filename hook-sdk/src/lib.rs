//! A typed Rust API for writing hooks that speak wuu, verboo and lime.
//!
//! **Owns**: the hook author's API (typed events in, typed responses out, a one-line `main`),
//! the writing of a response in each dialect's wire format with its exit code ([`render()`]),
//! in-memory testing of hooks (`testing`, feature `testing`), and the native in-process plugin ABI ([`native`],
//! [`export_native!`]).
//!
//! **Never**: spawns processes or reads hook configuration: a hook built on it is a handler, not
//! an engine (`hook-exec` runs hooks, including native ones).
//!
//! # Example
//!
//! A hook is a function from an [`Event`] to a [`Response`]; `main` is one line:
//!
//! ```
//! use hook_sdk::{Event, EventKind, Response, Tool};
//!
//! fn handle(event: &Event) -> Response {
//!     match event.kind() {
//!         EventKind::PreToolUse(call) => match &call.tool {
//!             Tool::Bash { command, .. } if command.contains("rm -rf /") => {
//!                 Response::deny("refusing to delete the root directory")
//!             }
//!             _ => Response::none(),
//!         },
//!         // Events the hook does not handle: "no decision", written the dialect's way.
//!         _ => Response::none(),
//!     }
//! }
//!
//! # #[allow(clippy::needless_doctest_main)]
//! fn main() {
//! #   if false {
//!     hook_sdk::run(handle)
//! #   }
//! #   let input = hook_sdk::testing::input(hook_sdk::Dialect::Wuu, "PreToolUse",
//! #       serde_json::json!({"tool_name": "bash", "tool_input": {"command": "rm -rf /"}}));
//! #   let run = hook_sdk::testing::run_json(handle, hook_sdk::Dialect::Wuu, input);
//! #   assert_eq!(run.stdout, b"{\"decision\":\"block\",\"reason\":\"refusing to delete the root directory\"}\n");
//! }
//! ```
//!
//! For hooks that handle several events or tools, the optional [`Router`] dispatches on the
//! event and the typed tool (`Router::new().on_pre_tool_use("Bash", |call| ..)
//! .on_user_prompt_submit(..)`, tool names compared as each dialect does); the first handler
//! that answers wins (see [`Router`]). A router is a [`Handler`]: `hook_sdk::run(router)` and [`export_native!`]
//! take it unchanged.
//!
//! The same binary serves every dialect. It learns the dialect from `--dialect D`, else
//! `HOOK_DIALECT` (which `hook-exec` sets), else from the input ([`infer_dialect`]), and writes:
//!
//! | response | wuu | verboo | lime |
//! |---|---|---|---|
//! | [`Response::deny`] on `PreToolUse` | `{"decision":"block","reason":..}` | `hookSpecificOutput.permissionDecision: "deny"` | same as verboo |
//! | [`Response::block`] elsewhere | `decision: "block"` | top-level `decision: "block"` + `reason` | same, where lime's schema has `decision` |
//! | [`Response::allow`] | `{}` (wuu has no allow) | `permissionDecision: "allow"` (skips the prompt); `PermissionRequest`: `behavior: "allow"`; elsewhere `{}` | `PreToolUse`: `{}` (a lime allow only carries a rewrite); `PermissionRequest`: `behavior: "allow"` |
//! | [`Response::ask`] | error: wuu has no ask | `permissionDecision: "ask"` + reason; `PermissionRequest`: `{}` (asking is the default) | error on `PreToolUse`; `PermissionRequest`: `{}` |
//! | [`Response::defer`] | error | `permissionDecision: "defer"` (`PreToolUse` only) | error |
//! | [`Response::rewrite`] (no decision) | `updated_input` (`PreToolUse` only) | `updatedInput` alone: the agent's permission rules decide | `permissionDecision: "allow"` + `updatedInput`: lime's allow only rewrites, the agent still asks where it would have |
//! | [`Response::rewrite_and_allow`] | `updated_input` (no allow in wuu: its permission check runs) | `permissionDecision: "allow"` + `updatedInput`: skips the prompt; `PermissionRequest`: `behavior: "allow"` + `updatedInput` | as [`Response::rewrite`] (never an approval in lime) |
//! | [`Response::rewrite_and_ask`] | error: wuu has no ask | `permissionDecision: "ask"` + reason + `updatedInput` | error: lime has no ask |
//! | [`Response::context`] | `additional_context` (PostToolUse only) | `hookSpecificOutput.additionalContext` | same, on the events whose schema has it |
//! | [`Response::stop`] | error: wuu has no stop | `continue: false` + `stopReason` | same (error on tool events) |
//! | [`Response::system_message`] | error | `systemMessage` | same |
//! | [`Response::none`] | `{}` | `{}` | `{}` |
//!
//! Every answer is one JSON object on stdout with exit code 0, a block included. A failure
//! (input that is not JSON, over [`Options::max_input_bytes`], missing a field the typed event
//! needs; a handler error or panic; a response the dialect cannot express) writes one line on
//! stderr and exits 1, which every dialect reads as a failed hook that decides nothing; with
//! [`Options::fail_closed`] it exits 2 instead, which blocks wherever the event can block.
//!
//! # Choices
//!
//! - **Deny is block.** One [`Decision::Block`] written as each event requires
//!   (`permissionDecision: "deny"`, `behavior: "deny"` or `decision: "block"`).
//! - **Compile-time where types can say it.** A rewritten input is a JSON object by
//!   construction (`Into<Map>`: a [`Tool`], a map, or [`ToolCall::rewritten`]); a handler must
//!   return a [`Response`] or `Result<Response, impl Display>`. Everything that depends on the
//!   dialect and event is checked when the response is written, with an error naming the
//!   dialect, event and the alternative ([`RenderError`]).
//! - **`--dialect` beats `HOOK_DIALECT`**: an explicit argument in the hook's own command line
//!   is the more specific statement.
//! - **A rewrite says its decision.** [`Response::rewrite`] decides nothing (the agent's
//!   permission rules still apply), [`Response::rewrite_and_allow`] also skips the prompt
//!   where the dialect can, [`Response::rewrite_and_ask`] shows the user the new input: an
//!   input rewrite never becomes an approval by accident.
//! - **Ask on `PermissionRequest`** gives no decision: leaving it to the user is what asking is.
//! - **Allow outside permission decisions** means "no objection" and writes nothing.
//!
//! # Native plugins and speed
//!
//! `hook_sdk::export_native!(handle)` in a `cdylib` crate makes the same handler an in-process
//! plugin (`{"type": "native", "library": ".../libname.so"}`); see [`native`] for the C ABI.
//! The bench `native_vs_exec` (release, 2 shared cores, one run) measured, for
//! `block_dangerous_bash` through `hook_exec::Engine` (verboo): native dispatch 57 µs against
//! 3.6 ms as an executable (about 60x); and for the executable alone 1.3 ms of wall time against
//! 44 ms for the same check in Python 3 with `json` (about 34x).
//!
//! `hook new NAME` (in `hook-cli`) scaffolds a crate on this SDK with a working hook and tests;
//! `hook new --native NAME` the same hook as a native plugin (`cdylib`).
//!
//! # Features
//!
//! - `testing` (off by default): the `testing` module, which runs a handler in memory, reads
//!   its output as the engine does (`hook_protocol::interpret`) and validates it against the
//!   dialect's schema (`hook-protocol`'s `validate` feature, jsonschema); dialect-aware input
//!   builders (`testing::bash(dialect, "ls")` spells the tool `bash` in wuu) and assertions
//!   (`run.assert_blocked()`, `assert_rewritten(..)`, `assert_context_contains(..)`). Enable it for tests
//!   only, so the hook binary compiles neither:
//!
//!   ```toml
//!   [dependencies]
//!   hook-sdk = { path = "../hook-sdk" }
//!
//!   [dev-dependencies]
//!   hook-sdk = { path = "../hook-sdk", features = ["testing"] }
//!   ```
//!
//! Without features the SDK depends on `hook-protocol` without its `schema` and `validate`
//! features: no schemars, no jsonschema.
//!
//! # Limitations
//!
//! - Events beyond the common ones are [`EventKind::Other`]: their fields are read from
//!   [`Event::input`] (the protocol's typed input) or [`Event::raw`].
//! - Typed tools: `Bash` (`bash`, `shell`), `Read`, `Write`, `Edit`, `MultiEdit`, `Glob`,
//!   `Grep`, `WebFetch`, `WebSearch`, `Task`, `NotebookEdit`, lime's `apply_patch` and MCP tools
//!   (`mcp__server__tool`); other tools are [`Tool::Other`] with the raw input. Field names
//!   are those of the agents' own tools (`file_path`, `old_string`...); a tool of the same name
//!   with other required fields is an [`EventError`] naming the field, a failed run.
//! - [`Tool::ApplyPatch`]'s files come from the patch's headers (`*** Add File:`...); the
//!   SDK does not apply or check the hunks. A `Bash` command's files are not known
//!   ([`Tool::paths`] is empty): read the command.
//! - A [`Router`] takes the first handler's answer; it does not merge responses (context
//!   from one handler and a decision from another): return both from one handler.
//! - Dialect inference is a heuristic (see [`infer_dialect`]); an ambiguous `SessionStart` is
//!   read as verboo. The engine sets `HOOK_DIALECT`, so this only matters outside it.
//! - A native plugin shares the agent's process: it cannot be killed on timeout (the engine
//!   stops waiting for it), and a panic is caught only with `panic = "unwind"`; the default
//!   panic hook of the host still prints the panic message on the host's stderr.

mod event;
pub mod native;
mod render;
mod response;
mod router;
mod run;
#[cfg(feature = "testing")]
pub mod testing;

pub use event::{
    Compact, Event, EventError, EventKind, FileChanged, Prompt, SessionEnd, SessionStart, Stop,
    Subagent, TextEdit, Tool, ToolCall, ToolFailure, ToolResult, patch_files,
};
/// A quote-aware reader of shell command lines (simple commands, words), for rules on `Bash`
/// commands: `hook_sdk::shell::simple_commands(command)` instead of splitting on spaces.
pub use hook_protocol::shell;
pub use hook_protocol::{Decision, Dialect};
pub use render::{RenderError, render};
pub use response::{Handler, HookError, IntoResponse, Response, StopAgent};
pub use router::{Routed, Router, tool_matches};
pub use run::{
    DEFAULT_MAX_INPUT_BYTES, Emitted, Options, Processed, infer_dialect, process, run, run_with,
};
/// The JSON crate the SDK's types use, re-exported so a hook needs no version of its own.
pub use serde_json;
