//! Interpreting one hook run: from (dialect, event, exit code, stdout, stderr) to a
//! [`HandlerResult`].

use serde_json::Value;

use crate::dialect::reading::{ContinueFalse, FieldCase, PlainText};
use crate::output::{self, ApproveOrBlock, ElicitationAction, OutputFields, PermissionBehavior};
use crate::validate::OutputIssue;
use crate::{BlockEffect, Decision, Dialect, Event, RunStatus};

/// The result of one hook run, ready to be combined with the others of the event.
///
/// Closed on purpose (not `#[non_exhaustive]`): a run is read, a non-blocking error or a
/// failure, and every consumer must treat each of the three.
// `Response` is the common case; boxing it would cost an allocation per run to save stack space.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerResult {
    /// The hook ran and what it said was read (it may have said nothing: continue).
    Response(Response),
    /// The hook reported an error that does not block (verboo's non-zero exits): the message is
    /// for the user; the hook made no decision.
    NonBlockingError {
        /// What the hook said (its stderr) or what went wrong.
        message: String,
    },
    /// The run cannot be used: no decision was taken from it.
    Failed(Failure),
}

impl HandlerResult {
    /// The status of this run in an outcome's `runs`.
    pub fn status(&self) -> RunStatus {
        match self {
            HandlerResult::Response(response) if response.stopped => RunStatus::Stopped,
            HandlerResult::Response(response) if response.decision == Some(Decision::Block) => {
                RunStatus::Blocked
            }
            HandlerResult::Response(_) => RunStatus::Ok,
            HandlerResult::NonBlockingError { .. } | HandlerResult::Failed(_) => RunStatus::Failed,
        }
    }

    /// The response, if the run gave one.
    pub fn response(&self) -> Option<&Response> {
        match self {
            HandlerResult::Response(response) => Some(response),
            _ => None,
        }
    }

    /// The error message of a failed run.
    pub fn error(&self) -> Option<String> {
        match self {
            HandlerResult::Response(_) => None,
            HandlerResult::NonBlockingError { message } => Some(message.clone()),
            HandlerResult::Failed(failure) => Some(failure.to_string()),
        }
    }
}

/// What a hook asked for. Every field is optional: the default is "no opinion, continue".
///
/// `#[non_exhaustive]`: start from [`Response::default`] and set fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Response {
    /// `Allow`, `Ask`, `Defer` or `Block`; `None` (or `Continue`) is no decision.
    pub decision: Option<Decision>,
    /// Why, for the decision.
    pub reason: Option<String>,
    /// A replacement for the whole tool input (not an authorization: the agent must check it
    /// again).
    pub updated_input: Option<Value>,
    /// Context for the model.
    pub additional_context: Option<String>,
    /// The hook asked the agent to stop (`continue: false` in verboo and lime).
    pub stop: Option<StopRequest>,
    /// The hook returned `continue: false` and the dialect obeyed it, whatever that does on
    /// the event: a [`stop`](Self::stop), or lime `PostToolUse` feedback in place of the tool's
    /// output. The run's status is then [`RunStatus::Stopped`].
    pub stopped: bool,
    /// A message for the user.
    pub system_message: Option<String>,
    /// Hide the hook's output from the transcript.
    pub suppress_output: bool,
    /// verboo `PermissionRequest`: permission rules to add.
    pub updated_permissions: Option<Value>,
    /// verboo `PermissionRequest`: interrupt the agent as well.
    pub interrupt: bool,
    /// `PostToolUse`: a replacement for an MCP tool's output.
    pub updated_mcp_tool_output: Option<Value>,
    /// verboo elicitation events: the answer given.
    pub elicitation: Option<Elicitation>,
    /// verboo `PostToolUse`: context for the agent's permission classifier.
    pub classifier_context: Option<String>,
    /// verboo prompt events: leave the original prompt out of a block's message.
    pub suppress_original_prompt: bool,
    /// Fields carried to the agent without the engine acting on them, by name
    /// ([`OutputFields::carried`](crate::output::OutputFields::carried)).
    pub carried: std::collections::BTreeMap<String, Value>,
    /// Output the hook gave that has no effect here, one sentence each.
    pub warnings: Vec<String>,
}

/// A request to stop the agent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct StopRequest {
    /// Why, for the user.
    pub reason: Option<String>,
}

impl StopRequest {
    /// A request to stop, with why (for the user).
    pub fn new(reason: Option<String>) -> Self {
        StopRequest { reason }
    }
}

/// An elicitation answer (verboo).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Elicitation {
    /// Accept, decline or cancel.
    pub action: ElicitationAction,
    /// The content, for an accept.
    pub content: Option<Value>,
}

/// Why a run cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The hook exited with a code that means failure.
    #[error("hook exited with code {code}{}", detail(.stderr))]
    NonZeroExit {
        /// The exit code.
        code: i32,
        /// Its stderr, trimmed (may be empty).
        stderr: String,
    },
    /// The hook was killed by a signal (no exit code).
    #[error("hook was killed by a signal{}", detail(.stderr))]
    Signal {
        /// Its stderr, trimmed.
        stderr: String,
    },
    /// lime: exit 2 with nothing on stderr gives no reason to block with.
    #[error("hook exited with code 2 but wrote no reason on stderr; write why to stderr to block")]
    BlockWithoutReason,
    /// Exit 2 on an event that cannot block.
    #[error("hook exited with code 2, but {event} cannot block{}", detail(.stderr))]
    CannotBlock {
        /// The event.
        event: String,
        /// Its stderr, trimmed.
        stderr: String,
    },
    /// stdout is not exactly one JSON object (garbage, mixed text and JSON, non-UTF-8...).
    #[error(
        "stdout is not one JSON object ({what}); print only the JSON object, diagnostics go to stderr"
    )]
    NotJson {
        /// What was found.
        what: String,
    },
    /// stdout is JSON but a field is wrong.
    #[error("stdout does not match the {dialect} {event} output:{}", issue_list(.issues))]
    InvalidOutput {
        /// The dialect.
        dialect: Dialect,
        /// The event.
        event: String,
        /// Each problem with its JSON pointer.
        issues: Vec<OutputIssue>,
    },
    /// The output is well-formed but asks for something the dialect refuses (lime: a
    /// `PermissionRequest` with `updatedInput`, a block without a reason...).
    #[error("{0}")]
    Refused(String),
}

pub(crate) fn detail(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(": {stderr}")
    }
}

fn issue_list(issues: &[OutputIssue]) -> String {
    issues
        .iter()
        .map(|issue| format!(" {issue};"))
        .collect::<String>()
        .trim_end_matches(';')
        .to_owned()
}

/// Interprets one finished run of a hook.
///
/// `exit_code` is `None` when the process was killed by a signal. Timeouts and output over the
/// size cap are decided by the runner before this is called: a truncated output is never
/// interpreted.
///
/// This is a pure function of its inputs; it never panics, whatever the bytes. The rules, per
/// dialect (exit codes, then output):
///
/// | exit | wuu | verboo | lime |
/// |---|---|---|---|
/// | 0 | stdout must be empty or exactly one JSON object; its decision is used | stdout starting with `{` is JSON; other text is context on `UserPromptSubmit` and `SessionStart`, ignored elsewhere | stdout starting with `{`/`[` must be one JSON object matching the event's strict schema; other text is context on `SessionStart`, `UserPromptSubmit`, `SubagentStart`, ignored on `PreToolUse`, `PostToolUse`, `PermissionRequest`, `PreCompact`, `PostCompact`, a failure elsewhere |
/// | 2 | blocks, even if stdout says `{}`; reason from JSON `reason`, else stderr | blocks with stderr where the event can block; elsewhere a non-blocking error | blocks with stderr; empty stderr is a failure |
/// | other | execution failure | non-blocking error (verboo `WorktreeCreate`: blocks) | hook error (failure) |
/// | signal | failure | failure | failure |
///
/// Exit 2 where the event cannot block is never obeyed: it is a failure in wuu and lime, and a
/// non-blocking error in verboo (Claude Code shows stderr to the user only). A block decision in
/// JSON on such an event is ignored with a warning. Output fields that mean nothing on the event
/// (an `updated_input` outside `PreToolUse`...) are ignored with a warning too, never silently.
///
/// # lime as Codex CLI 0.169 reads it
///
/// The published schemas accept outputs that Codex then refuses; lime refuses them too (the run
/// is `failed` with the reason, and nothing it said takes effect), measured against the real
/// binary by `cargo xtask conformance codex`. lime's own generated schemas refuse them as well,
/// so `validate_output` and the engine agree:
///
/// | event | a failed run |
/// |---|---|
/// | `PreToolUse` | `continue: false`; `stopReason`; `suppressOutput: true`; then, when `hookSpecificOutput` decides (`permissionDecision`, `permissionDecisionReason` or `updatedInput`): `permissionDecision: "ask"` or `"defer"`, `"allow"` without `updatedInput` (a lime allow only rewrites), `updatedInput` without `"allow"`, `"deny"` without a non-empty reason, `permissionDecisionReason` without `permissionDecision` (the legacy `decision`/`reason` beside it are ignored, with a warning); otherwise: legacy `decision: "approve"`, `reason` without `decision`, `decision: "block"` without a non-empty reason |
/// | `PermissionRequest` | `updatedInput`, `updatedPermissions`, `interrupt: true`, `continue: false`, `stopReason`, `suppressOutput: true` |
/// | `PostToolUse` | `updatedMCPToolOutput`, `suppressOutput: true`, `reason` without `decision`, a block without a reason: none of them beside `continue: false`, which is read first |
/// | `UserPromptSubmit`, `Stop`, `SubagentStop` | a block without a reason, unless beside `continue: false` (read first: the stop stands, the block and the run's context go) |
///
/// The order of these checks is Codex's, listed event by event in `dialect/lime.rs`.
///
/// And two readings differ from verboo's: a `PostToolUse` `continue: false` is a block whose
/// reason (the `reason`, else `stopReason`, else "PostToolUse hook stopped execution") goes to
/// the model while the turn goes on, as Codex 0.169 does, not a stop (the run is `stopped`, as
/// Codex reports it); `SubagentStart` ignores
/// `continue: false` (with a warning). A `PermissionRequest` deny without a message has the
/// reason "PermissionRequest hook denied approval".
///
/// A lime `allow` (which always carries `updatedInput`) rewrites the call and nothing more:
/// Codex 0.169 still asks for approval where it would have without the hook (measured). An
/// embedder must not read `decision: allow` from lime as an approval.
pub fn interpret(
    dialect: Dialect,
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HandlerResult {
    let stderr_text = String::from_utf8_lossy(stderr).trim().to_owned();
    let Some(code) = exit_code else {
        return HandlerResult::Failed(Failure::Signal {
            stderr: stderr_text,
        });
    };
    match code {
        0 => read_stdout(dialect, event, stdout),
        _ => (dialect.rules().nonzero_exit)(event, code, stdout, stderr_text),
    }
}

pub(crate) fn cannot_block(event: &Event, stderr: String) -> HandlerResult {
    HandlerResult::Failed(Failure::CannotBlock {
        event: event.to_string(),
        stderr,
    })
}

pub(crate) fn block(reason: String, code: i32) -> HandlerResult {
    let reason = if reason.is_empty() {
        format!("blocked by hook (exit code {code})")
    } else {
        reason
    };
    HandlerResult::Response(Response {
        decision: Some(Decision::Block),
        reason: Some(reason),
        ..Response::default()
    })
}

/// Exactly one JSON object, surrounded by nothing but whitespace.
pub(crate) fn parse_object(stdout: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(stdout)
        .map_err(|e| format!("not UTF-8: invalid byte at offset {}", e.valid_up_to()))?;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        format!(
            "{} at line {}, column {}",
            crate::input::strip_position(&e),
            e.line(),
            e.column()
        )
    })?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(format!("found {}", crate::text::json_type(&value)))
    }
}

fn read_stdout(dialect: Dialect, event: &Event, stdout: &[u8]) -> HandlerResult {
    let trimmed = stdout.trim_ascii();
    if trimmed.is_empty() {
        return HandlerResult::Response(Response::default());
    }
    let rules = dialect.rules();
    if !rules.output().reads_as_json(trimmed) {
        match rules.output().plain_text(event) {
            PlainText::Context => return plain_text(trimmed, true),
            PlainText::Ignored => return plain_text(trimmed, false),
            PlainText::Refused => {
                return HandlerResult::Failed(Failure::NotJson {
                    what: format!("plain text, which {event} does not take"),
                });
            }
            // Read as JSON below, where text fails with the position of the first bad byte.
            PlainText::Json => {}
        }
    }
    let unknown = rules.output().block_effect(event) == BlockEffect::Unknown;
    let fields = parse_object(trimmed)
        .map_err(|what| Failure::NotJson { what })
        .and_then(|value| {
            if unknown {
                // No schema of this event: a block in any known shape is kept.
                Ok((output::read_unknown(&value), Vec::new()))
            } else {
                (rules.read_output)(event, value)
            }
        });
    match fields {
        Ok((fields, warnings)) => judge(dialect, event, fields, warnings),
        Err(failure) => HandlerResult::Failed(failure),
    }
}

fn plain_text(trimmed: &[u8], is_context: bool) -> HandlerResult {
    let mut response = Response::default();
    if is_context {
        response.additional_context = Some(String::from_utf8_lossy(trimmed).into_owned());
    }
    HandlerResult::Response(response)
}

pub(crate) fn invalid(dialect: Dialect, event: &Event, issues: Vec<OutputIssue>) -> Failure {
    Failure::InvalidOutput {
        dialect,
        event: event.to_string(),
        issues,
    }
}

/// An output's fields and the warnings reading them gave, or why they cannot be used.
pub(crate) type Read = Result<(OutputFields, Vec<String>), Failure>;

pub(crate) fn read_fields(
    dialect: Dialect,
    event: &Event,
    fields: Result<OutputFields, output::FieldError>,
    warnings: Vec<String>,
) -> Read {
    fields.map(|fields| (fields, warnings)).map_err(|error| {
        invalid(
            dialect,
            event,
            vec![OutputIssue {
                pointer: error.pointer,
                message: error.message,
                hint: None,
            }],
        )
    })
}

/// A warning for each field of a wuu or verboo output that the event's output schema does not
/// define, nested ones included, each with the field it probably meant (feature `validate`);
/// without the feature, for each top-level field not in `known`.
#[cfg(feature = "validate")]
pub(crate) fn unknown_fields(
    dialect: Dialect,
    event: &Event,
    value: &Value,
    known: &[&str],
) -> Vec<String> {
    match crate::validate::unknown_output_fields(dialect, event, value) {
        Ok(found) => found
            .iter()
            .map(crate::validate::unknown_field_warning)
            .collect(),
        // An event the dialect does not know has no schema: its top-level fields are checked.
        Err(_) => top_level_unknown_fields(value, known),
    }
}

/// A warning for each top-level field of a wuu or verboo output not in `known` (the
/// `validate` feature, which reads the schemas, finds nested ones too).
#[cfg(not(feature = "validate"))]
pub(crate) fn unknown_fields(_: Dialect, _: &Event, value: &Value, known: &[&str]) -> Vec<String> {
    top_level_unknown_fields(value, known)
}

fn top_level_unknown_fields(value: &Value, known: &[&str]) -> Vec<String> {
    let Some(object) = value.as_object() else {
        return Vec::new();
    };
    object
        .keys()
        .filter(|key| !known.contains(&key.as_str()))
        .map(|key| format!("unknown field `{key}` ignored"))
        .collect()
}

/// Turns the fields of an output into what they mean on `event` in `dialect`.
fn judge(
    dialect: Dialect,
    event: &Event,
    fields: OutputFields,
    mut warnings: Vec<String>,
) -> HandlerResult {
    let rules = dialect.rules();
    let effect = rules.output().block_effect(event);
    let mut fields = fields;
    if let Some(result) = (rules.refine_output)(event, &mut fields, &mut warnings) {
        return result;
    }
    let mut response = Response {
        system_message: fields.system_message,
        suppress_output: fields.suppress_output.unwrap_or(false),
        ..Response::default()
    };
    let mut ignore = |what: &str| warnings.push(format!("`{what}` has no effect on {event}"));

    // Decisions, most restrictive last so that it wins within one output.
    let mut decisions: Vec<(Decision, Option<String>)> = Vec::new();

    match rules.output().continue_false() {
        ContinueFalse::Blocks => {
            // wuu: `decision: "block"` and `continue: false` both block; there is no "stop".
            let blocks =
                fields.decision == Some(ApproveOrBlock::Block) || fields.continue_ == Some(false);
            if blocks {
                if effect.can_block() {
                    decisions.push((Decision::Block, fields.reason.clone()));
                } else {
                    ignore("decision: block");
                }
            }
        }
        ContinueFalse::Stops => {
            if fields.continue_ == Some(false) {
                response.stop = Some(StopRequest {
                    reason: fields.stop_reason.clone(),
                });
                response.stopped = true;
            }
            match fields.decision {
                Some(ApproveOrBlock::Block) if effect.can_block() => {
                    decisions.push((Decision::Block, fields.reason.clone()));
                }
                Some(ApproveOrBlock::Approve) if *event == Event::PreToolUse => {
                    decisions.push((Decision::Allow, fields.reason.clone()));
                }
                Some(ApproveOrBlock::Block) => ignore("decision: block"),
                Some(ApproveOrBlock::Approve) => ignore("decision: approve"),
                None => {}
            }
        }
    }

    if let Some(permission) = fields.permission_decision {
        use output::PermissionDecision as P;
        let decision = match permission {
            P::Allow => Decision::Allow,
            P::Deny => Decision::Block,
            P::Ask => Decision::Ask,
            P::Defer => Decision::Defer,
        };
        decisions.push((decision, fields.permission_decision_reason.clone()));
    }

    if let Some(request) = fields.permission_request {
        match request.behavior {
            PermissionBehavior::Allow => {
                decisions.push((Decision::Allow, request.message.clone()));
                response.updated_input = request.updated_input.filter(|v| !v.is_null());
                response.updated_permissions = request.updated_permissions;
            }
            PermissionBehavior::Deny => {
                let message = match rules.output().denied_permission_message() {
                    Some(default) => request
                        .message
                        .clone()
                        .filter(|m| !m.trim().is_empty())
                        .or_else(|| Some(default.to_owned())),
                    None => request.message.clone(),
                };
                decisions.push((Decision::Block, message));
            }
        }
        response.interrupt = request.interrupt == Some(true);
    }

    if let Some(action) = fields.elicitation_action {
        let decision = match action {
            ElicitationAction::Accept => Decision::Allow,
            ElicitationAction::Decline | ElicitationAction::Cancel => Decision::Block,
        };
        decisions.push((decision, None));
        response.elicitation = Some(Elicitation {
            action,
            content: fields.elicitation_content,
        });
    }

    // The most restrictive decision of this one output: block > defer > ask > allow.
    if let Some((decision, reason)) = decisions.into_iter().max_by_key(|(d, _)| *d) {
        response.decision = Some(decision);
        response.reason = reason.filter(|r| !r.is_empty());
        if decision == Decision::Block && response.reason.is_none() {
            response.reason = Some("blocked by hook".to_owned());
        }
    }

    if let Some(updated) = fields.updated_input.filter(|v| !v.is_null()) {
        let rewrites_here = *event == Event::PreToolUse;
        if !rewrites_here {
            ignore("updated_input");
        } else if response.decision == Some(Decision::Block) {
            ignore("updated_input with a block");
        } else {
            response.updated_input = Some(updated);
        }
    }

    if let Some(context) = fields.additional_context {
        if rules.output().accepts_context(event) {
            response.additional_context = Some(context);
        } else {
            ignore(match rules.output().field_case() {
                FieldCase::Snake => "additional_context",
                FieldCase::Camel => "additionalContext",
            });
        }
    }

    if let Some(replacement) = fields.updated_mcp_tool_output {
        if *event == Event::PostToolUse {
            response.updated_mcp_tool_output = Some(replacement);
        } else {
            ignore("updatedMCPToolOutput");
        }
    }

    if let Some(context) = fields.classifier_context {
        if *event == Event::PostToolUse {
            response.classifier_context = Some(context);
        } else {
            ignore("classifierContext");
        }
    }
    response.suppress_original_prompt = fields.suppress_original_prompt == Some(true);
    response.carried = fields.carried;

    response.warnings = warnings;
    HandlerResult::Response(response)
}
