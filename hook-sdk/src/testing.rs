//! Running a hook in memory, for the hook's own tests.
//!
//! [`run_json`] and [`run_event`] call a handler exactly as the binary built with
//! [`run`](crate::run()) would, and return the typed response together with the exact stdout,
//! stderr and exit code the binary would emit. [`input`] fills in the fields each dialect's
//! input requires, so a test only writes the fields it cares about.
//!
//! ```
//! use hook_sdk::testing::{input, run_json};
//! use hook_sdk::{Dialect, Event, EventKind, Response, Tool};
//! use serde_json::json;
//!
//! fn handle(event: &Event) -> Response {
//!     match event.kind() {
//!         EventKind::PreToolUse(call) => match &call.tool {
//!             Tool::Bash { command, .. } if command.starts_with("sudo") => Response::deny("no sudo"),
//!             _ => Response::none(),
//!         },
//!         _ => Response::none(),
//!     }
//! }
//!
//! let event = input(Dialect::Lime, "PreToolUse", json!({
//!     "tool_name": "Bash", "tool_input": {"command": "sudo rm x"}}));
//! let run = run_json(handle, Dialect::Lime, event);
//! assert_eq!(run.exit_code, 0);
//! assert_eq!(run.decision(), hook_sdk::Decision::Block);
//! assert_eq!(run.stdout_json().unwrap()["hookSpecificOutput"]["permissionDecision"], "deny");
//! ```

use hook_protocol::input::example_input;
use hook_protocol::{Decision, Dialect, HandlerResult, interpret};
use serde_json::{Value, json};

use crate::run::{Options, process};
use crate::{Event, Handler, Response};

/// What a hook did with one input, in memory.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TestRun {
    /// The dialect used, when it could be learned.
    pub dialect: Option<Dialect>,
    /// The event name, when the input could be read.
    pub event: Option<hook_protocol::Event>,
    /// The handler's response, when it gave one.
    pub response: Option<Response>,
    /// The error, when the run failed.
    pub error: Option<String>,
    /// The exact bytes the binary writes to stdout.
    pub stdout: Vec<u8>,
    /// The exact bytes the binary writes to stderr.
    pub stderr: Vec<u8>,
    /// The binary's exit code.
    pub exit_code: i32,
}

impl TestRun {
    /// stdout parsed as JSON, if it is JSON.
    pub fn stdout_json(&self) -> Option<Value> {
        serde_json::from_slice(&self.stdout).ok()
    }

    /// stderr as text.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// What an engine reads from this run: the protocol's interpretation of the exit code and
    /// output (`None` when the dialect or event could not be learned).
    pub fn interpreted(&self) -> Option<HandlerResult> {
        let dialect = self.dialect?;
        let event = self.event.as_ref()?;
        Some(interpret(
            dialect,
            event,
            Some(self.exit_code),
            &self.stdout,
            &self.stderr,
        ))
    }

    /// The decision an engine reads from this run (`Continue` for none or a failure).
    pub fn decision(&self) -> Decision {
        self.interpreted()
            .and_then(|result| result.response().and_then(|r| r.decision))
            .unwrap_or(Decision::Continue)
    }

    /// Checks stdout against the dialect's output schema for the event (as `hook validate`
    /// does); `Ok` when there is nothing on stdout to check.
    ///
    /// # Errors
    ///
    /// The validation error, each problem with its JSON pointer.
    pub fn validate(&self) -> Result<(), String> {
        if self.stdout.is_empty() {
            return Ok(());
        }
        let (Some(dialect), Some(event)) = (self.dialect, self.event.as_ref()) else {
            return Err("the dialect or event is unknown".to_owned());
        };
        hook_protocol::validate_output(dialect, event, &self.stdout).map_err(|e| e.to_string())
    }
}

/// Runs `handler` on raw input bytes with `options`.
pub fn run_bytes<H: Handler>(handler: H, bytes: &[u8], options: &Options) -> TestRun {
    let processed = process(&handler, bytes, options);
    TestRun {
        dialect: processed.dialect,
        event: processed.event.as_ref().map(Event::name),
        response: processed.response,
        error: processed.error,
        stdout: processed.emitted.stdout,
        stderr: processed.emitted.stderr,
        exit_code: processed.emitted.exit_code,
    }
}

/// Runs `handler` on a JSON input of `dialect` (as if `HOOK_DIALECT` were set).
pub fn run_json<H: Handler>(handler: H, dialect: Dialect, input: Value) -> TestRun {
    let bytes = input.to_string().into_bytes();
    run_bytes(handler, &bytes, &Options::default().with_dialect(dialect))
}

/// Runs `handler` on a typed event.
pub fn run_event<H: Handler>(handler: H, event: &Event) -> TestRun {
    run_json(handler, event.dialect(), event.raw().clone())
}

/// A minimal input of `event` in `dialect`: `fields` over every field the dialect's input
/// requires, with plain values (`cwd` = the current directory, `session_id`, lime's
/// `transcript_path`, `model` and `turn_id`, a `Bash` call with `echo hello` for tool events...;
/// see `hook_protocol::input::example_input`). Fields given in `fields` win. An event the
/// dialect does not know gets the common fields only.
pub fn input(dialect: Dialect, event: &str, fields: Value) -> Value {
    let cwd = std::env::current_dir()
        .map(|dir| dir.display().to_string())
        .unwrap_or_else(|_| ".".to_owned());
    let name = hook_protocol::Event::from_name(event);
    let mut base = match example_input(dialect, &name, &cwd, None) {
        Some(Value::Object(object)) => object,
        _ => {
            let mut object = serde_json::Map::new();
            object.insert("hook_event_name".into(), json!(event));
            object.insert("session_id".into(), json!("hook-test"));
            object.insert("cwd".into(), json!(cwd));
            if dialect.rules().transcript_and_model_always {
                object.insert("transcript_path".into(), Value::Null);
                object.insert("model".into(), json!("test-model"));
            }
            object
        }
    };
    if let Value::Object(fields) = fields {
        base.extend(fields);
    }
    Value::Object(base)
}
