//! The wire protocol of agent lifecycle hooks, for the wuu, verboo and lime dialects.
//!
//! **Owns**: event names and what each dialect does with them ([`Event`], [`BlockEffect`],
//! [`MatchTarget`]); the typed input a hook reads ([`input`]) and output it prints ([`output`]),
//! per dialect; the interpretation of one finished run ([`interpret()`]); the [`Outcome`] of a
//! dispatched event; JSON Schemas generated from these types ([`schema`]); and validation of
//! third-party output against them ([`validate_output`]).
//!
//! **Never**: does I/O. It spawns nothing, reads no file, prints nothing: every function here is
//! a pure function of its arguments, so the engine, the SDK and the CLI agree on the protocol
//! by construction.
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
//! # Limitations
//!
//! - Input types are checked with serde (required fields and types), not against the input
//!   schemas; unknown input fields are kept rather than rejected, for agents newer than this
//!   crate.
//! - wuu and verboo outputs ignore unknown fields (as those agents do) and report them as
//!   warnings; lime outputs are strict.
//! - verboo `ConfigChange` blocks except for policy settings: that exception depends on the
//!   input's `source` and is left to the engine.
//! - The per-event output types of verboo follow Claude Code's documented fields; newer fields
//!   of that system are ignored with a warning until they are added here.

mod dialect;
mod event;
pub mod input;
pub mod interpret;
mod json_path;
mod outcome;
pub mod output;
pub mod schema;
pub mod tag;
mod validate;

pub use dialect::{Dialect, UnknownDialect};
pub use event::{BlockEffect, Event, MatchTarget};
pub use input::{EventInput, InputError, parse_input};
pub use interpret::{Failure, HandlerResult, Response, StopRequest, interpret};
pub use outcome::{
    Decision, HandlerType, Layer, Outcome, PluginRef, Run, RunStatus, SkipReason, Source,
};
pub use schema::SchemaKind;
pub use validate::{OutputIssue, ValidateError, validate_output, validate_output_value};
