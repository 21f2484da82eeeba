//! The wire protocol of agent lifecycle hooks, for the wuu, verboo and lime dialects.
//!
//! **Owns**: each dialect's rules, in one place per dialect ([`DialectRules`], from
//! [`Dialect::rules`]: the one thing every crate asks instead of branching on a dialect); event
//! names and what each dialect does with them ([`Event`], [`BlockEffect`], [`MatchTarget`]);
//! the typed input a hook reads ([`input`]) and output it prints ([`output`]), per dialect; the
//! interpretation of one finished run ([`interpret()`]); the writing of a hook's answer or of an
//! outcome in a dialect's output ([`write`](mod@write), the readers' other direction); the
//! [`Outcome`] of a dispatched event; JSON Schemas of these types ([`schema`]); and validation of
//! third-party output against them (`validate_output`); and the C ABI of native plugins
//! ([`native_abi`]), which `hook-sdk` exports and `hook-exec` calls. The root holds the protocol
//! only (wire types, events, the outcome, interpretation); the text helpers the other crates
//! share that are not protocol (a value's JSON type for messages, a cut to a UTF-16 budget, the
//! program a hook's stderr says is missing) are in [`text`].
//!
//! **Never**: does I/O. It spawns nothing, reads no file, prints nothing: every function here is
//! a pure function of its arguments, so the engine, the SDK and the CLI agree on the protocol
//! by construction.
//!
//! # Features
//!
//! - `validate` (default): `validate_output` and `validate_output_value` (jsonschema, against
//!   the committed schemas), `unknown_output_fields` (the fields a wuu or verboo output has that
//!   its schema does not define, which those agents ignore, each with a did-you-mean), and lime's
//!   [`interpret()`] refusing an output that does not match its schema with every problem, its
//!   JSON pointer and a hint. Without it, lime output is checked against the same committed
//!   schema by this crate's own reader of the part of JSON Schema the schemas use (a test
//!   compares its verdicts with jsonschema's): **the verdict is the same** (an unknown field, a
//!   wrong type, an explicit `null` or a wrong `hookEventName` fails the hook), the problems
//!   come without hints, and wuu and verboo unknown-field warnings cover top-level fields only
//!   (see "Limitations"). `hook-cli` enables it; `hook-exec` enables it by default (its own
//!   `validate` feature, which a vendor may turn off); `hook-sdk` does not (a hook binary never
//!   validates).
//! - `schema` (off): the `schemars::JsonSchema` derives and `schema::generate`, which generates
//!   the schemas from the types; only `cargo xtask schemas` (which writes and checks the
//!   committed files) needs it. [`schema::schema`], [`schema::all`] and validation read the
//!   committed schemas embedded in this crate, without schemars.
//!
//! # Example
//!
//! A lime `PreToolUse` hook exited 0 and denied the call:
//!
//! ```
//! use hook_protocol::{Decision, Dialect, Event, HandlerResult, interpret};
//!
//! let stdout = br#"{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//!     "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}"#;
//! let result = interpret(Dialect::Lime, &Event::PreToolUse, Some(0), stdout, b"");
//! let HandlerResult::Response(response) = result else { panic!("{result:?}") };
//! assert_eq!(response.decision, Some(Decision::Block));
//! assert_eq!(response.reason.as_deref(), Some("no rm -rf"));
//!
//! // The same object with a snake_case field is not lime output: the hook fails.
//! let stdout = br#"{"stop_reason": "x"}"#;
//! let result = interpret(Dialect::Lime, &Event::Stop, Some(0), stdout, b"");
//! let error = result.error().unwrap();
//! assert!(error.contains("unknown field `stop_reason`"), "{error}");
//! assert!(error.contains("did you mean `stopReason`?"), "{error}");
//! ```
//!
//! # Choices where the dialects' specifications leave room
//!
//! - **What can block.** wuu: every event but `PostToolUse`, `PostToolUseFailure` and
//!   `FileChanged` (the seed says errors "fail" subagent and session operations: read as a block).
//!   lime: `PreToolUse`, `PermissionRequest`, `UserPromptSubmit`, `Stop`, `SubagentStop`; its
//!   `PreCompact` cannot, since the reference output schema has no `decision` there. verboo: its
//!   table of events. On verboo and lime `PostToolUse` (and verboo `PostToolUseFailure`) a block is
//!   feedback for the model: the tool already ran ([`BlockEffect::Feedback`]).
//! - **Exit 2 where the event cannot block** is never obeyed: a failure in wuu and lime, a
//!   non-blocking error in verboo (Claude Code shows that stderr to the user only).
//! - **verboo `PermissionRequest` exit 2** denies, as Claude Code does; the specification's "no
//!   (decides via output)" is read as "the tool call is not cancelled by the exit code alone".
//! - **Where context is taken** ([`OutputRules::accepts_context`], one list read by the engine
//!   and the SDK alike): wuu `additional_context` on `PostToolUse` only, the one place the seed
//!   names; verboo on every event but `PermissionRequest`, `Elicitation` and
//!   `ElicitationResult` (their output is a decision); lime on `SessionStart`, `SubagentStart`,
//!   `UserPromptSubmit`, `PreToolUse` and `PostToolUse`, where Codex's output carries it.
//!   Elsewhere it is a warning. wuu has no "stop": `continue: false` blocks, as the seed says.
//! - **lime plain-text stdout** becomes context on `SessionStart` and `UserPromptSubmit`, as in
//!   the system lime is modelled on; elsewhere it fails the hook.
//! - **lime `decision: "block"` needs a non-empty `reason`** on every event (the reference states
//!   the rule for `Stop`; a block with nothing to tell the model is not useful anywhere).
//! - **lime `permissionDecision: "ask"`** is refused (the run fails), as Codex refuses it,
//!   though the reference schema accepts it; so is every other output the reference accepts and
//!   Codex refuses (see [`interpret()`]).
//! - **lime's generated output schemas are stricter than the reference**: they encode every rule
//!   the engine enforces beyond the types (a block needs a non-empty `reason`, an `allow` needs
//!   an `updatedInput`, ...), so a schema, `validate_output` and the engine give one verdict on a
//!   lime output. They accept nothing the reference rejects.
//! - **lime `SessionEnd` and `Interrupt`**, absent from the reference, take the common output
//!   fields only; their inputs carry an optional `reason`.
//! - **wuu matchers** are tested against the tool name of the four tool events only; every other
//!   wuu event has no match value.
//! - **verboo elicitation answers**: `accept` allows, `decline` and `cancel` block.
//!
//! # Limitations
//!
//! - Input types are checked with serde (required fields and types), not against the input
//!   schemas; unknown input fields are kept rather than rejected, for agents newer than this
//!   crate.
//! - wuu and verboo outputs ignore unknown fields (as those agents do) and report them as
//!   warnings; lime outputs are strict. With `validate`, those warnings come from
//!   `unknown_output_fields` (what `hook validate` reports): nested fields too, each with the
//!   field probably meant; without it (`hook-sdk`), top-level fields only, from
//!   [`output::verboo::FIELDS`] and [`output::wuu::FIELDS`].
//! - verboo `ConfigChange` blocks except for policy settings: that exception depends on the
//!   input's `source` and is left to the engine.
//! - The per-event output types of verboo follow the output schema embedded in Claude Code
//!   2.1.332 (`cargo xtask conformance drift` compares them with each release); newer fields of
//!   that system are ignored with a warning until they are added here. Fields the engine has no
//!   use for itself (`terminalSequence`, `sessionTitle`, `watchPaths`, `updatedToolOutput`,
//!   `worktreePath`...) are type-checked and carried to the agent
//!   ([`Outcome::carried`]), never acted on: an embedder that wants them reads them there.
//! - A model-switch matcher is tested against `to_model` made canonical as Claude Code does it
//!   ([`canonical_model`]: lowercase, no `[1m]`/`[2m]`, no date; the matcher loses its
//!   `[1m]`/`[2m]` too). Claude Code also maps aliases through its managed settings, and runs
//!   every matcher group for a model its build does not know; the engine knows neither.
//! - An event a dialect does not know has no schema: a block on it is read in any known shape
//!   and answered as exit 2 ([`BlockEffect::Unknown`]); its other fields are read leniently
//!   ([`output::read_unknown`]).

mod dialect;
mod event;
pub mod input;
mod interpret;
mod json_path;
pub mod native_abi;
mod outcome;
pub mod output;
pub mod schema;
pub mod shell;
pub mod tag;
pub mod text;
mod validate;
pub mod write;

pub use dialect::{
    AgentRules, Concurrency, ConfigFormat, ConfigLayout, ConfigRules, ContinueFalse, Dialect,
    DialectRules, FieldCase, HandlerRules, InputRules, MatcherStyle, MatchingRules,
    NonPositiveTimeout, OutputRules, PlainText, PluginSettings, RelayAgent, UnknownDialect,
    UntargetedMatcher,
};
pub use event::{BlockEffect, Event, MatchTarget, canonical_model};
pub use interpret::{Elicitation, Failure, HandlerResult, Response, StopRequest, interpret};
pub use outcome::{
    CLASSIFIER_CONTEXT_LIMIT, Decision, HandlerType, HookContext, Layer, Outcome, PluginRef, Run,
    RunStatus, SkipReason, Source,
};
pub use validate::OutputIssue;
#[cfg(feature = "validate")]
pub use validate::{
    UnknownField, ValidateError, unknown_output_fields, validate_output, validate_output_value,
};
