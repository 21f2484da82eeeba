//! Interpreting one hook run: from (dialect, event, exit code, stdout, stderr) to a
//! [`HandlerResult`].
//!
//! This is a pure function of its inputs; it never panics, whatever the bytes. The rules, per
//! dialect (SPEC.md, "Exit codes", "Output"):
//!
//! | exit | wuu | verboo | lime |
//! |---|---|---|---|
//! | 0 | stdout must be empty or exactly one JSON object; its decision is used | stdout starting with `{` is JSON; other text is context on `UserPromptSubmit` and `SessionStart`, ignored elsewhere | stdout starting with `{`/`[` must be one JSON object matching the event's strict schema; other text is context on `SessionStart`, `UserPromptSubmit`, `SubagentStart`, ignored on `PreToolUse`, `PostToolUse`, `PermissionRequest`, `PreCompact`, `PostCompact`, a failure elsewhere |
//! | 2 | blocks, even if stdout says `{}`; reason from JSON `reason`, else stderr | blocks with stderr where the event can block; elsewhere a non-blocking error | blocks with stderr; empty stderr is a failure |
//! | other | execution failure | non-blocking error (verboo `WorktreeCreate`: blocks) | hook error (failure) |
//! | signal | failure | failure | failure |
//!
//! Exit 2 where the event cannot block is never obeyed: it is a failure in wuu and lime, and a
//! non-blocking error in verboo (Claude Code shows stderr to the user only). A block decision in
//! JSON on such an event is ignored with a warning. Output fields that mean nothing on the event
//! (an `updated_input` outside `PreToolUse`...) are ignored with a warning too, never silently.
//!
//! # lime as Codex CLI 0.169 reads it
//!
//! The published schemas accept outputs that Codex then refuses; lime refuses them too (the run
//! is `failed` with the reason, and nothing it said takes effect), measured against the real
//! binary by `cargo xtask conformance codex`:
//!
//! | event | a failed run |
//! |---|---|
//! | `PreToolUse` | `permissionDecision: "ask"` or `"defer"`; `"allow"` without `updatedInput` (a lime allow only rewrites); `updatedInput` without `"allow"`; `"deny"` or `decision: "block"` without a non-empty reason; legacy `decision: "approve"`; `reason` without `decision`; `continue: false`; `stopReason`; `suppressOutput: true` |
//! | `PermissionRequest` | `updatedInput`, `updatedPermissions`, `interrupt: true`, `continue: false`, `stopReason`, `suppressOutput: true` |
//! | `PostToolUse` | `updatedMCPToolOutput`, `suppressOutput: true`, `reason` without `decision` |
//!
//! And two readings differ from verboo's: a `PostToolUse` `continue: false` is a block whose
//! reason (the `reason`, else `stopReason`, else "PostToolUse hook stopped execution") goes to
//! the model while the turn goes on, as Codex 0.169 does, not a stop; `SubagentStart` ignores
//! `continue: false` (with a warning). A `PermissionRequest` deny without a message has the
//! reason "PermissionRequest hook denied approval".
//!
//! A lime `allow` (which always carries `updatedInput`) rewrites the call and nothing more:
//! Codex 0.169 still asks for approval where it would have without the hook (measured). An
//! embedder must not read `decision: allow` from lime as an approval.

use serde_json::Value;

use crate::output::{self, ApproveOrBlock, ElicitationAction, OutputFields, PermissionBehavior};
use crate::schema::SchemaKind;
use crate::validate::{OutputIssue, issues, validator};
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

fn detail(stderr: &str) -> String {
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
pub fn interpret(
    dialect: Dialect,
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HandlerResult {
    let stderr_text = String::from_utf8_lossy(stderr).trim().to_owned();
    let effect = event.block_effect(dialect);
    let Some(code) = exit_code else {
        return HandlerResult::Failed(Failure::Signal {
            stderr: stderr_text,
        });
    };
    match (dialect, code) {
        (_, 0) => read_stdout(dialect, event, stdout),
        (Dialect::Wuu, 2) => {
            if !effect.can_block() {
                return cannot_block(event, stderr_text);
            }
            // The JSON `reason` wins when stdout is a valid wuu object that has one.
            let json_reason = parse_object(stdout)
                .ok()
                .and_then(|value| output::wuu::read_output(value).ok())
                .and_then(|fields| fields.reason)
                .filter(|reason| !reason.trim().is_empty());
            block(json_reason.unwrap_or(stderr_text), code)
        }
        (Dialect::Verboo, 2) => match effect {
            BlockEffect::Cannot => HandlerResult::NonBlockingError {
                message: format!(
                    "exit 2 on {event}, which cannot block{}",
                    detail(&stderr_text)
                ),
            },
            _ => block(stderr_text, code),
        },
        (Dialect::Verboo, _) if effect == BlockEffect::AnyNonZeroExit => block(stderr_text, code),
        (Dialect::Verboo, _) => HandlerResult::NonBlockingError {
            message: Failure::NonZeroExit {
                code,
                stderr: stderr_text,
            }
            .to_string(),
        },
        (Dialect::Lime, 2) => {
            if stderr_text.is_empty() {
                HandlerResult::Failed(Failure::BlockWithoutReason)
            } else if !effect.can_block() {
                cannot_block(event, stderr_text)
            } else {
                block(stderr_text, code)
            }
        }
        (Dialect::Wuu | Dialect::Lime, _) => HandlerResult::Failed(Failure::NonZeroExit {
            code,
            stderr: stderr_text,
        }),
    }
}

fn cannot_block(event: &Event, stderr: String) -> HandlerResult {
    HandlerResult::Failed(Failure::CannotBlock {
        event: event.to_string(),
        stderr,
    })
}

fn block(reason: String, code: i32) -> HandlerResult {
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
fn parse_object(stdout: &[u8]) -> Result<Value, String> {
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
        Err(format!("found {}", crate::input::json_type(&value)))
    }
}

fn read_stdout(dialect: Dialect, event: &Event, stdout: &[u8]) -> HandlerResult {
    let trimmed = stdout.trim_ascii();
    if trimmed.is_empty() {
        return HandlerResult::Response(Response::default());
    }
    let plain_text_is_context = matches!(event, Event::UserPromptSubmit | Event::SessionStart);
    let looks_like_json = matches!(trimmed.first(), Some(b'{' | b'['));
    let fields = match dialect {
        Dialect::Wuu => parse_object(trimmed)
            .map_err(|what| Failure::NotJson { what })
            .and_then(|value| {
                let warnings = unknown_fields(&value, output::wuu::FIELDS);
                read_fields(dialect, event, output::wuu::read_output(value), warnings)
            }),
        Dialect::Verboo if trimmed.first() != Some(&b'{') => {
            return plain_text(trimmed, plain_text_is_context);
        }
        Dialect::Verboo => parse_object(trimmed)
            .map_err(|what| Failure::NotJson { what })
            .and_then(|value| {
                let warnings = unknown_fields(&value, output::verboo::FIELDS);
                read_fields(
                    dialect,
                    event,
                    output::verboo::read_output(event, value),
                    warnings,
                )
            }),
        Dialect::Lime if !looks_like_json => match lime::plain_text(event) {
            Some(is_context) => return plain_text(trimmed, is_context),
            None => Err(Failure::NotJson {
                what: format!("plain text, which {event} does not take"),
            }),
        },
        Dialect::Lime => parse_object(trimmed)
            .map_err(|what| Failure::NotJson { what })
            .and_then(|value| {
                if let Some(validator) = validator(dialect, event, SchemaKind::Output) {
                    let found = issues(dialect, validator, &value);
                    if !found.is_empty() {
                        return Err(invalid(dialect, event, found));
                    }
                }
                read_fields(
                    dialect,
                    event,
                    output::lime::read_output(event, value),
                    Vec::new(),
                )
            }),
    };
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

fn invalid(dialect: Dialect, event: &Event, issues: Vec<OutputIssue>) -> Failure {
    Failure::InvalidOutput {
        dialect,
        event: event.to_string(),
        issues,
    }
}

type Read = Result<(OutputFields, Vec<String>), Failure>;

fn read_fields(
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

fn unknown_fields(value: &Value, known: &[&str]) -> Vec<String> {
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
    let effect = event.block_effect(dialect);
    let mut fields = fields;
    if dialect == Dialect::Lime {
        if let Some(refusal) = lime::refusal(event, &fields) {
            return HandlerResult::Failed(Failure::Refused(refusal));
        }
        if let Some(feedback) = lime::post_tool_use_stop(event, &mut fields) {
            return HandlerResult::Response(feedback);
        }
        if *event == Event::SubagentStart && fields.continue_ == Some(false) {
            // Codex stops only on SessionStart; SubagentStart ignores `continue: false`.
            fields.continue_ = None;
            fields.stop_reason = None;
            warnings.push(format!("`continue: false` has no effect on {event}"));
        }
    }
    let mut response = Response {
        system_message: fields.system_message,
        suppress_output: fields.suppress_output.unwrap_or(false),
        ..Response::default()
    };
    let mut ignore = |what: &str| warnings.push(format!("`{what}` has no effect on {event}"));

    // Decisions, most restrictive last so that it wins within one output.
    let mut decisions: Vec<(Decision, Option<String>)> = Vec::new();

    match dialect {
        Dialect::Wuu => {
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
        Dialect::Verboo | Dialect::Lime => {
            if fields.continue_ == Some(false) {
                response.stop = Some(StopRequest {
                    reason: fields.stop_reason.clone(),
                });
            }
            match fields.decision {
                Some(ApproveOrBlock::Block) if effect.can_block() => {
                    if dialect == Dialect::Lime
                        && fields.reason.as_deref().is_none_or(|r| r.trim().is_empty())
                    {
                        return HandlerResult::Failed(Failure::Refused(format!(
                            "`decision: \"block\"` on {event} needs a non-empty `reason`"
                        )));
                    }
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
        if dialect == Dialect::Lime {
            let refused = if request.updated_input.as_ref().is_some_and(|v| !v.is_null()) {
                Some("updatedInput")
            } else if request
                .updated_permissions
                .as_ref()
                .is_some_and(|v| !v.is_null())
            {
                Some("updatedPermissions")
            } else if request.interrupt == Some(true) {
                Some("interrupt: true")
            } else {
                None
            };
            if let Some(field) = refused {
                return HandlerResult::Failed(Failure::Refused(format!(
                    "a lime PermissionRequest hook may not return `{field}`: remove it and decide with `behavior` alone"
                )));
            }
        }
        match request.behavior {
            PermissionBehavior::Allow => {
                decisions.push((Decision::Allow, request.message.clone()));
                response.updated_input = request.updated_input.filter(|v| !v.is_null());
                response.updated_permissions = request.updated_permissions;
            }
            PermissionBehavior::Deny => {
                let message = match dialect {
                    // Codex gives a deny without a message this text.
                    Dialect::Lime => request
                        .message
                        .clone()
                        .filter(|m| !m.trim().is_empty())
                        .or_else(|| Some(lime::DENIED_APPROVAL.to_owned())),
                    _ => request.message.clone(),
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
    if let Some((decision, reason)) = decisions.into_iter().max_by_key(|(d, _)| rank(*d)) {
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
        let accepted = match dialect {
            // The wuu seed names one place for context: after a successful PostToolUse.
            Dialect::Wuu => *event == Event::PostToolUse,
            Dialect::Verboo | Dialect::Lime => true,
        };
        if accepted {
            response.additional_context = Some(context);
        } else {
            ignore("additional_context");
        }
    }

    if let Some(replacement) = fields.updated_mcp_tool_output {
        if *event == Event::PostToolUse {
            response.updated_mcp_tool_output = Some(replacement);
        } else {
            ignore("updatedMCPToolOutput");
        }
    }

    response.warnings = warnings;
    HandlerResult::Response(response)
}

/// lime's reading of an output that its schema accepts, as Codex CLI 0.169 parses it.
///
/// The published schemas accept more than Codex obeys: these outputs validate but Codex fails
/// the run and takes nothing from it, so lime does too.
mod lime {
    use super::{ApproveOrBlock, Decision, Event, OutputFields, Response};
    use crate::output::PermissionDecision;

    /// What lime plain-text stdout is on `event`, as Codex reads it: `Some(true)` context for
    /// the model, `Some(false)` ignored (the run is ok), `None` a failed run.
    pub(super) fn plain_text(event: &Event) -> Option<bool> {
        match event {
            Event::SessionStart | Event::UserPromptSubmit | Event::SubagentStart => Some(true),
            Event::PreToolUse
            | Event::PostToolUse
            | Event::PermissionRequest
            | Event::PreCompact
            | Event::PostCompact => Some(false),
            _ => None,
        }
    }

    /// The reason of a lime `PermissionRequest` deny that gave no message.
    pub(super) const DENIED_APPROVAL: &str = "PermissionRequest hook denied approval";

    /// The text of a lime `PostToolUse` `continue: false` without a `stopReason`.
    const POST_TOOL_USE_STOPPED: &str = "PostToolUse hook stopped execution";

    fn blank(text: Option<&String>) -> bool {
        text.is_none_or(|t| t.trim().is_empty())
    }

    /// Why Codex refuses this output on `event`, if it does.
    pub(super) fn refusal(event: &Event, fields: &OutputFields) -> Option<String> {
        let unsupported = |what: &str| Some(format!("{event} hook returned unsupported {what}"));
        let common = || {
            if fields.continue_ == Some(false) {
                unsupported("`continue: false`")
            } else if fields.stop_reason.is_some() {
                unsupported("`stopReason`")
            } else if fields.suppress_output == Some(true) {
                unsupported("`suppressOutput`")
            } else {
                None
            }
        };
        // A top-level `reason` with no `decision` to give it to.
        let reason_alone = || {
            (fields.decision.is_none() && fields.reason.is_some()).then(|| {
                format!(
                    "{event} hook returned `reason` without `decision`: add `decision: \"block\"` or remove `reason`"
                )
            })
        };
        match event {
            Event::PreToolUse => {
                let permission = fields.permission_decision;
                if let Some(refused) = common() {
                    return Some(refused);
                }
                if fields.decision == Some(ApproveOrBlock::Approve) {
                    return unsupported(
                        "`decision: \"approve\"`; allow with `permissionDecision: \"allow\"` and an `updatedInput`",
                    );
                }
                if let Some(refused) = reason_alone() {
                    return Some(refused);
                }
                match permission {
                    Some(PermissionDecision::Ask) => unsupported("`permissionDecision: \"ask\"`"),
                    Some(PermissionDecision::Defer) => {
                        unsupported("`permissionDecision: \"defer\"`")
                    }
                    Some(PermissionDecision::Allow) if fields.updated_input.is_none() => {
                        Some(format!(
                            "{event} hook returned `permissionDecision: \"allow\"` without `updatedInput`: a lime allow only rewrites the input; print nothing to let the call go on"
                        ))
                    }
                    Some(PermissionDecision::Deny)
                        if blank(fields.permission_decision_reason.as_ref()) =>
                    {
                        Some(format!(
                            "{event} hook returned `permissionDecision: \"deny\"` without a non-empty `permissionDecisionReason`"
                        ))
                    }
                    Some(PermissionDecision::Allow) => None,
                    _ if fields.updated_input.is_some() => Some(format!(
                        "{event} hook returned `updatedInput` without `permissionDecision: \"allow\"`"
                    )),
                    _ => None,
                }
            }
            Event::PermissionRequest => common(),
            Event::PostToolUse => {
                if fields.suppress_output == Some(true) {
                    unsupported("`suppressOutput`")
                } else if fields.updated_mcp_tool_output.is_some() {
                    unsupported("`updatedMCPToolOutput`")
                } else {
                    reason_alone()
                }
            }
            _ => None,
        }
    }

    /// A lime `PostToolUse` `continue: false`: Codex 0.169 sends the text to the model as
    /// feedback in place of the tool's result and the turn goes on (measured), so it is a block
    /// with that reason, not a stop.
    pub(super) fn post_tool_use_stop(event: &Event, fields: &mut OutputFields) -> Option<Response> {
        if *event != Event::PostToolUse || fields.continue_ != Some(false) {
            return None;
        }
        let reason = [fields.reason.take(), fields.stop_reason.take()]
            .into_iter()
            .flatten()
            .find(|text| !text.trim().is_empty())
            .unwrap_or_else(|| POST_TOOL_USE_STOPPED.to_owned());
        Some(Response {
            decision: Some(Decision::Block),
            reason: Some(reason),
            additional_context: fields.additional_context.take(),
            system_message: fields.system_message.take(),
            ..Response::default()
        })
    }
}

/// How restrictive a decision is: the order in which decisions win when combined.
pub fn rank(decision: Decision) -> u8 {
    match decision {
        Decision::Continue => 0,
        Decision::Allow => 1,
        Decision::Ask => 2,
        Decision::Defer => 3,
        Decision::Block => 4,
    }
}
