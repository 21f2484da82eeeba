//! Running a hook in memory, for the hook's own tests.
//!
//! [`run_json`] and [`run_event`] call a handler exactly as the binary built with
//! [`run`](crate::run()) would, and return the typed response together with the exact stdout,
//! stderr and exit code the binary would emit. [`input`] fills in the fields each dialect's
//! input requires, so a test only writes the fields it cares about; [`bash`], [`write()`],
//! [`edit`], [`apply_patch`], [`mcp`], [`prompt`]... build the common inputs of a dialect (the
//! tool spelled as that dialect spells it), and [`TestRun`]'s `assert_*` methods check what
//! the hook did, with messages saying what it did instead.
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
use serde_json::{Map, Value, json};

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
            if dialect.rules().input().transcript_and_model_always() {
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

/// An input for a hook's test, built by [`bash`], [`write()`], [`prompt`]... for one dialect:
/// the tool spelled as the dialect spells it and every field the dialect requires filled in
/// (see [`input`]). Run it with [`TestInput::run`], or take its JSON with
/// [`TestInput::into_json`].
///
/// ```
/// use hook_sdk::testing;
/// use hook_sdk::{Dialect, Event, EventKind, Response, Tool};
///
/// fn handle(event: &Event) -> Response {
///     match event.kind() {
///         EventKind::PreToolUse(call) => match &call.tool {
///             Tool::Bash { command, .. } if command.starts_with("npm ") => Response::rewrite(
///                 call.rewritten(Tool::Bash { command: command.replacen("npm", "pnpm", 1), description: None }),
///             ),
///             _ => Response::none(),
///         },
///         _ => Response::none(),
///     }
/// }
///
/// for dialect in Dialect::ALL {
///     testing::bash(dialect, "npm install").run(handle)
///         .assert_allowed()
///         .assert_rewritten(|input| input["command"] == "pnpm install");
///     testing::bash(dialect, "ls").run(handle).assert_no_decision();
/// }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TestInput {
    dialect: Dialect,
    value: Value,
}

impl TestInput {
    /// An input of `event` in `dialect` with `fields` over the required ones ([`input`]).
    pub fn new(dialect: Dialect, event: &str, fields: Value) -> TestInput {
        TestInput {
            dialect,
            value: input(dialect, event, fields),
        }
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The input JSON.
    pub fn json(&self) -> &Value {
        &self.value
    }

    /// The input JSON, owned.
    pub fn into_json(self) -> Value {
        self.value
    }

    /// Sets a field of the input (`cwd`, `permission_mode`, a field of the event...).
    #[must_use]
    pub fn with(mut self, field: &str, value: Value) -> TestInput {
        if let Value::Object(object) = &mut self.value {
            object.insert(field.to_owned(), value);
        }
        self
    }

    /// The same tool call as another tool event (`PermissionRequest`, `PostToolUseFailure`...)
    /// or any event, keeping the fields given so far and filling the new event's.
    #[must_use]
    pub fn on(self, event: &str) -> TestInput {
        let mut fields = self.value;
        if let Value::Object(object) = &mut fields {
            object.remove("hook_event_name");
        }
        TestInput::new(self.dialect, event, fields)
    }

    /// The same tool call after it ran (`PostToolUse`), with the tool's `response` (wuu sends
    /// text: a response that is not a string is sent as its JSON text there).
    #[must_use]
    pub fn after(self, response: Value) -> TestInput {
        let response = hook_protocol::write::tool_response(self.dialect, response);
        self.on("PostToolUse").with("tool_response", response)
    }

    /// Runs `handler` on this input, as [`run_json`] does.
    pub fn run<H: Handler>(&self, handler: H) -> TestRun {
        run_json(handler, self.dialect, self.value.clone())
    }
}

impl From<TestInput> for Value {
    fn from(input: TestInput) -> Value {
        input.value
    }
}

/// A `PreToolUse` of the tool `canonical` (as verboo spells it: `Bash`, `MultiEdit`...) with
/// `tool_input`, the name spelled the way `dialect` spells it (wuu: `bash`, `multiedit`).
pub fn tool(dialect: Dialect, canonical: &str, tool_input: Value) -> TestInput {
    let name = dialect.rules().matching().tool_name(canonical).into_owned();
    TestInput::new(
        dialect,
        "PreToolUse",
        json!({"tool_name": name, "tool_input": tool_input}),
    )
}

/// A `PreToolUse` of a shell command (`Bash`; wuu `bash`).
pub fn bash(dialect: Dialect, command: &str) -> TestInput {
    tool(dialect, "Bash", json!({"command": command}))
}

/// A `PreToolUse` reading a file (`Read`; wuu `read`).
pub fn read(dialect: Dialect, file_path: &str) -> TestInput {
    tool(dialect, "Read", json!({"file_path": file_path}))
}

/// A `PreToolUse` writing a whole file (`Write`; wuu `write`).
pub fn write(dialect: Dialect, file_path: &str, content: &str) -> TestInput {
    tool(
        dialect,
        "Write",
        json!({"file_path": file_path, "content": content}),
    )
}

/// A `PreToolUse` replacing `old_string` with `new_string` in a file (`Edit`; wuu `edit`).
pub fn edit(dialect: Dialect, file_path: &str, old_string: &str, new_string: &str) -> TestInput {
    tool(
        dialect,
        "Edit",
        json!({"file_path": file_path, "old_string": old_string, "new_string": new_string}),
    )
}

/// A `PreToolUse` of several replacements `(old, new)` in one file (`MultiEdit`).
pub fn multi_edit(dialect: Dialect, file_path: &str, edits: &[(&str, &str)]) -> TestInput {
    let edits: Vec<Value> = edits
        .iter()
        .map(|(old, new)| json!({"old_string": old, "new_string": new}))
        .collect();
    tool(
        dialect,
        "MultiEdit",
        json!({"file_path": file_path, "edits": edits}),
    )
}

/// A `PreToolUse` of lime's `apply_patch` with the patch text as `tool_input.command`, as
/// lime sends it (the other dialects have no such tool: the same name is used).
pub fn apply_patch(dialect: Dialect, patch: &str) -> TestInput {
    tool(dialect, "apply_patch", json!({"command": patch}))
}

/// A `PreToolUse` of the tool `tool` of the MCP server `server` (`mcp__server__tool`, in every
/// dialect: MCP names are not respelled).
pub fn mcp(dialect: Dialect, server: &str, tool: &str, tool_input: Value) -> TestInput {
    TestInput::new(
        dialect,
        "PreToolUse",
        json!({"tool_name": format!("mcp__{server}__{tool}"), "tool_input": tool_input}),
    )
}

/// A `UserPromptSubmit` of `text`.
pub fn prompt(dialect: Dialect, text: &str) -> TestInput {
    TestInput::new(dialect, "UserPromptSubmit", json!({"prompt": text}))
}

/// A `SessionStart` (verboo and lime: `source` `startup`).
pub fn session_start(dialect: Dialect) -> TestInput {
    TestInput::new(dialect, "SessionStart", json!({}))
}

/// A `Stop`.
pub fn stop(dialect: Dialect) -> TestInput {
    TestInput::new(dialect, "Stop", json!({}))
}

/// Assertions, with messages that say what the hook did instead. Each first checks that the
/// output is valid for the dialect and event (as `hook validate` does), and returns the run so
/// that they chain.
impl TestRun {
    fn what(&self) -> String {
        let dialect = self
            .dialect
            .map_or_else(|| "(unknown dialect)".to_owned(), |d| d.to_string());
        let event = self
            .event
            .as_ref()
            .map_or_else(|| "(unknown event)".to_owned(), ToString::to_string);
        format!(
            "{dialect} {event}: exit code {}, decision {:?}, stdout `{}`, stderr `{}`",
            self.exit_code,
            self.decision(),
            String::from_utf8_lossy(&self.stdout).trim_end(),
            self.stderr_text().trim_end()
        )
    }

    fn read(&self, expected: &str) -> hook_protocol::Response {
        if let Err(error) = self.validate() {
            panic!(
                "expected {expected}, but the output is invalid ({error}); {}",
                self.what()
            );
        }
        match self.interpreted() {
            Some(HandlerResult::Response(response)) if self.exit_code == 0 => response,
            _ => panic!("expected {expected}, but the hook failed; {}", self.what()),
        }
    }

    /// Panics unless the hook blocked (denied) with exit code 0 and valid output.
    #[track_caller]
    pub fn assert_blocked(&self) -> &TestRun {
        let read = self.read("a block");
        if read.decision != Some(Decision::Block) {
            panic!("expected a block; {}", self.what());
        }
        self
    }

    /// Panics unless the hook blocked with a reason containing `text`.
    #[track_caller]
    pub fn assert_blocked_because(&self, text: &str) -> &TestRun {
        let read = self.read("a block");
        let reason = read.reason.unwrap_or_default();
        if read.decision != Some(Decision::Block) || !reason.contains(text) {
            panic!(
                "expected a block with a reason containing `{text}`; {}",
                self.what()
            );
        }
        self
    }

    /// Panics unless the call may go on: exit code 0, valid output, no block, ask, defer or
    /// stop (no decision, an allow, or a rewrite).
    #[track_caller]
    pub fn assert_allowed(&self) -> &TestRun {
        let read = self.read("the call to go on");
        let goes_on = matches!(
            read.decision,
            None | Some(Decision::Allow | Decision::Continue)
        );
        if !goes_on || read.stop.is_some() {
            panic!("expected the call to go on; {}", self.what());
        }
        self
    }

    /// Panics unless the hook said nothing: exit code 0 and `{}` on stdout.
    #[track_caller]
    pub fn assert_no_decision(&self) -> &TestRun {
        if self.exit_code != 0 || self.stdout_json() != Some(json!({})) {
            panic!("expected no decision (`{{}}`); {}", self.what());
        }
        self
    }

    /// Panics unless the hook asked the user to confirm.
    #[track_caller]
    pub fn assert_asked(&self) -> &TestRun {
        let read = self.read("an ask");
        if read.decision != Some(Decision::Ask) {
            panic!("expected an ask; {}", self.what());
        }
        self
    }

    /// Panics unless the hook rewrote the tool input into one for which `check` is true.
    #[track_caller]
    pub fn assert_rewritten(&self, check: impl FnOnce(&Map<String, Value>) -> bool) -> &TestRun {
        let read = self.read("a rewritten input");
        let Some(Value::Object(input)) = read.updated_input else {
            panic!("expected a rewritten input; {}", self.what());
        };
        if !check(&input) {
            panic!(
                "the rewritten input {} does not pass the check; {}",
                Value::Object(input.clone()),
                self.what()
            );
        }
        self
    }

    /// Panics unless the hook gave context for the model containing `text`.
    #[track_caller]
    pub fn assert_context_contains(&self, text: &str) -> &TestRun {
        let read = self.read("context");
        match read.additional_context {
            Some(context) if context.contains(text) => self,
            Some(context) => panic!(
                "expected context containing `{text}`, got `{context}`; {}",
                self.what()
            ),
            None => panic!(
                "expected context containing `{text}`, got none; {}",
                self.what()
            ),
        }
    }

    /// Panics unless the hook failed (a non-zero exit code); returns its stderr.
    #[track_caller]
    pub fn assert_failed(&self) -> String {
        if self.exit_code == 0 {
            panic!("expected a failure; {}", self.what());
        }
        self.stderr_text()
    }
}
