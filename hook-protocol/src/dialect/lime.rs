//! lime's rules (modelled on Codex CLI): TOML configuration, trust hashes, strict camelCase
//! output read as Codex CLI 0.169 reads it.
//!
//! The published schemas accept more than Codex obeys: the outputs [`refine_output`] refuses
//! validate there, but Codex fails the run and takes nothing from it, so lime does too. lime's
//! own generated schemas encode those rules ([`output_schema_rules`]), so that they, validation
//! and the engine give one verdict.
//!
//! # Order of checks
//!
//! Codex reads an output's fields in a fixed order per event (`codex-rs/hooks`: the output
//! parser, then each event's handler), and the order decides what an output that says several
//! things means. lime follows it; each line was checked against that source and, where a case
//! shows it, against Codex 0.169 by `cargo xtask conformance codex`:
//!
//! | event | order |
//! |---|---|
//! | `PreToolUse` | `continue: false`, `stopReason`, `suppressOutput` refused (that order); then, when `hookSpecificOutput` decides (`permissionDecision`, `permissionDecisionReason` or `updatedInput`), that decision alone (`updatedInput` needs `allow`, `allow` needs `updatedInput`, `ask`/`defer` refused, `deny` needs a reason, a `permissionDecisionReason` needs a `permissionDecision`) and the legacy `decision`/`reason` are ignored; otherwise the legacy ones (`approve` refused, `reason` without `decision` refused, a block needs a reason); context only from a run that passed |
//! | `PermissionRequest` | `continue: false`, `stopReason`, `suppressOutput` refused; then `updatedInput`, `updatedPermissions`, `interrupt: true` refused; then the decision (a deny without a message gets Codex's) |
//! | `PostToolUse` | **`continue: false` first**: the run is `stopped` and its feedback (`reason`, else `stopReason`, else Codex's text) replaces the tool's output, whatever else the output says; only then `suppressOutput`, `updatedMCPToolOutput`, `reason` without `decision` and a block without a reason are refused; the context is kept unless one of those would have refused the output |
//! | `UserPromptSubmit` | **`continue: false` first** (`stopped`, the context kept); then a block without a reason refused; then the block (its context kept too: see [`OutputRules::dropped_prompt_keeps_context`](crate::OutputRules::dropped_prompt_keeps_context)); no `reason`-without-`decision` check |
//! | `Stop`, `SubagentStop` | **`continue: false` first** (`stopped`; a block beside it is dropped); then a block without a reason refused; then the block; plain text refused |
//! | `SessionStart`, `PreCompact`, `PostCompact` | `continue: false` stops (`stopped`); no decision |
//! | `SubagentStart` | `continue: false` ignored (with a warning); context only |
//!
//! A block without a reason beside `continue: false` on `UserPromptSubmit`, `Stop` or
//! `SubagentStop` is dropped with the run's context (Codex's `invalid_block_reason` there), and
//! the stop stands.

use serde_json::Value;

use super::{
    AgentNames, Concurrency, ConfigFormat, ConfigLayout, ContinueFalse, DialectRules, FieldCase,
    MatcherStyle, NonPositiveTimeout, PlainText, PluginSettings, RelayAgent, UntargetedMatcher,
    named_match_target,
};
use crate::input::{EventInput, InputError};
use crate::interpret::{Read, block, cannot_block, invalid, read_fields};
use crate::output::{self, ApproveOrBlock, OutputFields, PermissionDecision};
use crate::schema::SchemaKind;
use crate::validate::{issues, validator};
use crate::write::{Answer, OutputForm, WriteRules};
use crate::{
    BlockEffect, Decision, Dialect, Event, Failure, HandlerResult, HandlerType, Layer, Response,
    input,
};

use Event as E;

pub(super) static RULES: DialectRules = DialectRules {
    dialect: Dialect::Lime,
    agent: AgentNames {
        title: "Codex CLI",
        names: &["codex"],
    },
    events: EVENTS,
    block_effect,
    match_target: named_match_target,
    config_format: ConfigFormat::Toml,
    config_layout: ConfigLayout::Grouped,
    home_env: Some("LIME_HOME"),
    home_dir: ".lime",
    config_file: "config.toml",
    local_config_file: None,
    // Codex reads `hooks.json` beside `config.toml` in each layer's folder (`$CODEX_HOME`,
    // `<project>/.codex`), the JSON first, and warns when both have hooks
    // (`codex-rs/hooks/src/engine/discovery.rs`); its users have such files.
    hooks_file: Some("hooks.json"),
    managed_path: Some("/etc/lime/managed_config.toml"),
    // lime keeps its trust store in `[hooks.state."<key>"]`: not an event.
    reserved_hooks_keys: &["state"],
    trust_state_in_config: true,
    plugin_settings: PluginSettings::Tables,
    trust_layers: &[
        Layer::User,
        Layer::Project,
        Layer::Local,
        Layer::Plugin,
        Layer::Session,
    ],
    settings_switches: false,
    handler_types: &[
        ("command", HandlerType::Command),
        ("prompt", HandlerType::Prompt),
        ("agent", HandlerType::Agent),
        ("mcp_tool", HandlerType::McpTool),
        ("native", HandlerType::Native),
    ],
    default_handler_type: None,
    parsed_never_run: &[HandlerType::Prompt, HandlerType::Agent],
    handler_fields: &[
        "type",
        "command",
        "commandWindows",
        "timeout",
        "async",
        "statusMessage",
        "additionalContextLimit",
        "prompt",
        "model",
        "server",
        "tool",
        "input",
        "library",
    ],
    command_windows: true,
    skips_blank_command: true,
    conditions: false,
    non_positive_timeout: NonPositiveTimeout::OneSecond,
    timeout_limits,
    matcher_style: MatcherStyle::Regex,
    untargeted_matcher: UntargetedMatcher::Ignored,
    dedup_identical: false,
    tool_aliases: &[("Edit", "apply_patch"), ("Write", "apply_patch")],
    lowercase_tool_names: false,
    known_tools: TOOLS,
    concurrency: Concurrency::Concurrent,
    async_handlers: true,
    model_hooks_fail_open: false,
    model_hooks_block: &[],
    project_dir_env: None,
    relay: Some(RelayAgent {
        name: "Codex CLI",
        home_env: "CODEX_HOME",
        home_dir: ".codex",
        config_file: "config.toml",
        personal_config_file: None,
        config_format: ConfigFormat::Toml,
        events: &[
            E::SessionStart,
            E::UserPromptSubmit,
            E::PreToolUse,
            E::PermissionRequest,
            E::PostToolUse,
            E::PreCompact,
            E::PostCompact,
            E::SubagentStart,
            E::SubagentStop,
            E::Stop,
        ],
        session_event: &E::SessionStart,
        default_timeout: 600,
        // Codex has no `onFailure`.
        on_failure: false,
    }),
    env_file_events: &[],
    field_case: FieldCase::Camel,
    json_starts: b"{[",
    plain_text,
    accepts_context,
    context_limit: Some(10_000),
    continue_false: ContinueFalse::Stops,
    stop_context_blocks: false,
    // A lime `PostToolUse` `continue: false` is feedback already (the model gets it in place
    // of the tool's output); `PreToolUse` refuses `continue: false`.
    stop_reason_in_history: false,
    // Codex 0.169 drops a blocked or stopped prompt but keeps its hooks' `additionalContext`:
    // on the next turn of the session (`codex exec resume`) the model receives it as a
    // developer message (measured by the conformance cases `prompt-block-with-context` and
    // `prompt-continue-false-with-context`, over two turns).
    dropped_prompt_keeps_context: true,
    denied_permission_message: Some(DENIED_APPROVAL),
    nonzero_exit,
    read_output,
    refine_output,
    strict_output: true,
    write: WriteRules {
        form: OutputForm::Tagged,
        refuse: refuse_answer,
        // Codex refuses a bare allow and an `updatedInput` without one.
        rewrite_is_allow: true,
        tool_response_text: false,
    },
    read_input,
    session_id_always: true,
    transcript_and_model_always: true,
};

/// Codex's built-in tools, as its hook inputs and tool calls name them (`apply_patch` is also
/// the `Edit` and `Write` of the tool aliases).
const TOOLS: &[&str] = &[
    "apply_patch",
    "shell",
    "exec_command",
    "write_stdin",
    "update_plan",
    "view_image",
    "read_file",
    "list_dir",
    "grep_files",
    "web_search",
    "local_shell",
    "unified_exec",
];

const EVENTS: &[Event] = &[
    E::SessionStart,
    E::SessionEnd,
    E::UserPromptSubmit,
    E::PreToolUse,
    E::PermissionRequest,
    E::PostToolUse,
    E::PreCompact,
    E::PostCompact,
    E::SubagentStart,
    E::SubagentStop,
    E::Stop,
    E::Interrupt,
];

/// What lime (as Codex CLI 0.169 reads it) refuses that verboo would take: such an output would
/// be a failed run, so it is not written.
fn refuse_answer(
    event: &Event,
    answer: &Answer,
    decision: Option<Decision>,
) -> Option<&'static str> {
    let stop = answer.stop;
    match event {
        E::PreToolUse if decision == Some(Decision::Ask) => {
            Some(if answer.updated_input.is_some() {
                "lime has no `ask` on PreToolUse: rewrite with no decision (`Response::rewrite`: lime still asks where it would have), or deny"
            } else {
                "lime has no `ask` on PreToolUse: deny, or give no decision"
            })
        }
        E::PreToolUse | E::PermissionRequest if stop => {
            Some("lime takes no `continue: false` on tool calls: deny (or block) the call instead")
        }
        E::PostToolUse if stop => {
            Some("lime reads `continue: false` on PostToolUse as feedback for the model: use block")
        }
        E::SubagentStart if stop => Some("lime ignores `continue: false` on SubagentStart"),
        E::PreToolUse | E::PermissionRequest | E::PostToolUse if answer.suppress_output => {
            Some("lime takes no `suppressOutput` on tool calls")
        }
        E::PreToolUse if decision == Some(Decision::Defer) => {
            Some("lime has no `defer`: use allow, deny or ask (or no decision)")
        }
        E::PermissionRequest if answer.updated_input.is_some() => {
            Some("lime accepts no rewritten input on PermissionRequest")
        }
        _ => None,
    }
}

/// Its `PreCompact` cannot block: the reference output schema has no `decision` there.
fn block_effect(event: &Event) -> BlockEffect {
    match event {
        E::PreToolUse | E::PermissionRequest | E::UserPromptSubmit | E::Stop | E::SubagentStop => {
            BlockEffect::Blocks
        }
        E::PostToolUse => BlockEffect::Feedback,
        _ => BlockEffect::Cannot,
    }
}

/// Short clean-up bounds on `SessionEnd` and `Interrupt`; 10 minutes elsewhere.
fn timeout_limits(event: &Event, _: HandlerType) -> (f64, Option<f64>) {
    match event {
        E::SessionEnd => (1.0, Some(3.0)),
        E::Interrupt => (5.0, Some(10.0)),
        _ => (600.0, None),
    }
}

/// The events whose `hookSpecificOutput` carries `additionalContext` in Codex.
fn accepts_context(event: &Event) -> bool {
    matches!(
        event,
        E::SessionStart | E::SubagentStart | E::UserPromptSubmit | E::PreToolUse | E::PostToolUse
    )
}

/// Strict: the output must validate against the event's schema (unknown fields fail the hook).
fn read_output(event: &Event, value: Value) -> Read {
    if let Some(validator) = validator(Dialect::Lime, event, SchemaKind::Output) {
        let found = issues(Dialect::Lime, event, validator, &value);
        if !found.is_empty() {
            // The schema also encodes the rules of `refused`: when the fields read and one of
            // those rules is what failed, its own wording says more than the schema's.
            let why = output::lime::read_output(event, value)
                .ok()
                .and_then(|fields| refused(event, &fields));
            return Err(match why {
                Some(why) => Failure::Refused(why),
                None => invalid(Dialect::Lime, event, found),
            });
        }
    }
    read_fields(
        Dialect::Lime,
        event,
        output::lime::read_output(event, value),
        Vec::new(),
    )
}

/// Every input but `SessionEnd` and `Interrupt` (the two the published schemas lack) must
/// carry `model`.
fn read_input(event: &Event, value: Value) -> Result<EventInput, InputError> {
    let input = input::lime::Input::from_value(event, value)?;
    if input.common().model.is_none() && input::lime::model_required(event) {
        return Err(InputError::Field {
            event: event.to_string(),
            pointer: String::new(),
            message: "missing field `model`".to_owned(),
        });
    }
    Ok(EventInput::Lime(input))
}

/// What Codex refuses, and the rewrites it makes, before an output is judged.
fn refine_output(
    event: &Event,
    fields: &mut OutputFields,
    warnings: &mut Vec<String>,
) -> Option<HandlerResult> {
    // Codex reads `continue: false` before every other check on the events that obey it (see
    // the module docs, "Order of checks").
    if let Some(feedback) = post_tool_use_stop(event, fields) {
        return Some(HandlerResult::Response(feedback));
    }
    if let Some(why) = refused(event, fields) {
        return Some(HandlerResult::Failed(Failure::Refused(why)));
    }
    if *event == E::PreToolUse
        && decides_in_specific(fields)
        && (fields.decision.is_some() || fields.reason.is_some())
    {
        fields.decision = None;
        fields.reason = None;
        warnings.push(format!(
            "the top-level `decision` and `reason` have no effect beside `hookSpecificOutput`'s decision on {event}"
        ));
    }
    if stops_first(event, fields) && fields.decision == Some(ApproveOrBlock::Block) {
        // A stop with a block Codex would refuse (no reason): Codex takes the stop and drops
        // the block, and with it the run's context (its `invalid_block_reason`).
        if blank(fields.reason.as_ref()) {
            fields.decision = None;
            fields.additional_context = None;
            warnings.push(format!(
                "`decision: \"block\"` without a `reason` has no effect beside `continue: false` on {event}"
            ));
        }
    }
    if *event == E::SubagentStart && fields.continue_ == Some(false) {
        // Codex stops only on SessionStart; SubagentStart ignores `continue: false`.
        fields.continue_ = None;
        fields.stop_reason = None;
        warnings.push(format!("`continue: false` has no effect on {event}"));
    }
    None
}

/// Why Codex refuses the output whose fields are `fields` on `event`, if it does: every rule
/// lime enforces beyond the types. [`output_schema_rules`] states the same rules as JSON
/// Schema; a test runs the lime corpus through both.
fn refused(event: &Event, fields: &OutputFields) -> Option<String> {
    if let Some(why) = refusal(event, fields) {
        return Some(why);
    }
    // Where `continue: false` is read first, a block without a reason beside it is no
    // refusal (Codex takes the stop; see `refine_output`).
    let can_block = RULES.output().block_effect(event).can_block();
    if fields.decision == Some(ApproveOrBlock::Block)
        && can_block
        && !stops_first(event, fields)
        && !(*event == E::PreToolUse && decides_in_specific(fields))
        && blank(fields.reason.as_ref())
    {
        return Some(format!(
            "`decision: \"block\"` on {event} needs a non-empty `reason`"
        ));
    }
    if let Some(request) = &fields.permission_request {
        let field = if request.updated_input.as_ref().is_some_and(|v| !v.is_null()) {
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
        if let Some(field) = field {
            return Some(format!(
                "a lime PermissionRequest hook may not return `{field}`: remove it and decide with `behavior` alone"
            ));
        }
    }
    None
}

/// What plain-text stdout is on `event`, as Codex reads it.
fn plain_text(event: &Event) -> PlainText {
    match event {
        Event::SessionStart | Event::UserPromptSubmit | Event::SubagentStart => PlainText::Context,
        Event::PreToolUse
        | Event::PostToolUse
        | Event::PermissionRequest
        | Event::PreCompact
        | Event::PostCompact => PlainText::Ignored,
        _ => PlainText::Refused,
    }
}

/// The reason of a lime `PermissionRequest` deny that gave no message.
const DENIED_APPROVAL: &str = "PermissionRequest hook denied approval";

/// The text of a lime `PostToolUse` `continue: false` without a `stopReason`.
const POST_TOOL_USE_STOPPED: &str = "PostToolUse hook stopped execution";

fn blank(text: Option<&String>) -> bool {
    text.is_none_or(|t| t.trim().is_empty())
}

/// Why Codex refuses this output on `event`, if it does.
fn refusal(event: &Event, fields: &OutputFields) -> Option<String> {
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
            // Codex checks the legacy `decision`/`reason` only when `hookSpecificOutput` makes
            // no decision of its own (see `decides_in_specific`).
            if !decides_in_specific(fields) {
                if fields.decision == Some(ApproveOrBlock::Approve) {
                    return unsupported(
                        "`decision: \"approve\"`; allow with `permissionDecision: \"allow\"` and an `updatedInput`",
                    );
                }
                return reason_alone();
            }
            match permission {
                Some(PermissionDecision::Ask) => unsupported("`permissionDecision: \"ask\"`"),
                Some(PermissionDecision::Defer) => unsupported("`permissionDecision: \"defer\"`"),
                Some(PermissionDecision::Allow) if fields.updated_input.is_none() => Some(format!(
                    "{event} hook returned `permissionDecision: \"allow\"` without `updatedInput`: a lime allow only rewrites the input; print nothing to let the call go on"
                )),
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
                None if fields.permission_decision_reason.is_some() => Some(format!(
                    "{event} hook returned `permissionDecisionReason` without `permissionDecision`"
                )),
                _ => None,
            }
        }
        Event::PermissionRequest => common(),
        // `continue: false` first: it is feedback, whatever else the output says.
        Event::PostToolUse if fields.continue_ == Some(false) => None,
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

/// Whether a `PreToolUse` output decides in `hookSpecificOutput` (`permissionDecision`,
/// `permissionDecisionReason` or `updatedInput`): Codex then reads that decision alone and
/// ignores the legacy top-level `decision` and `reason`, whatever they say.
fn decides_in_specific(fields: &OutputFields) -> bool {
    fields.permission_decision.is_some()
        || fields.permission_decision_reason.is_some()
        || fields.updated_input.as_ref().is_some_and(|v| !v.is_null())
}

/// The events on which Codex reads `continue: false` before any other check of the output:
/// the run is `Stopped` whatever else it says (a block without a reason, a `reason` without
/// `decision`, `suppressOutput`...). `PreToolUse` and `PermissionRequest` refuse it instead,
/// and `SubagentStart` ignores it.
fn stops_first(event: &Event, fields: &OutputFields) -> bool {
    fields.continue_ == Some(false)
        && matches!(
            event,
            E::SessionStart
                | E::UserPromptSubmit
                | E::PostToolUse
                | E::PreCompact
                | E::PostCompact
                | E::Stop
                | E::SubagentStop
        )
}

/// A lime `PostToolUse` `continue: false`, read before every other check of the output (as
/// Codex does): Codex 0.169 reports the run `Stopped`, sends the text to the model as feedback
/// in place of the tool's result, and the turn goes on (measured), so it is a block with that
/// reason (the run `stopped`), not a stop. The text is the `reason` (trimmed), else the
/// `stopReason`, else "PostToolUse hook stopped execution". The run's context is kept unless
/// Codex would have refused the rest of the output (`suppressOutput`, `updatedMCPToolOutput`,
/// a block without a reason).
fn post_tool_use_stop(event: &Event, fields: &mut OutputFields) -> Option<Response> {
    if *event != Event::PostToolUse || fields.continue_ != Some(false) {
        return None;
    }
    let refused_rest = fields.suppress_output == Some(true)
        || fields.updated_mcp_tool_output.is_some()
        || (fields.decision == Some(ApproveOrBlock::Block) && blank(fields.reason.as_ref()));
    let reason = fields
        .reason
        .take()
        .map(|reason| reason.trim().to_owned())
        .filter(|reason| !reason.is_empty())
        .or_else(|| fields.stop_reason.take())
        .unwrap_or_else(|| POST_TOOL_USE_STOPPED.to_owned());
    let additional_context = fields.additional_context.take().filter(|_| !refused_rest);
    let warnings = if refused_rest {
        vec![format!(
            "beside `continue: false` on {event}, an output lime would refuse otherwise gives no context"
        )]
    } else {
        Vec::new()
    };
    Some(Response {
        decision: Some(Decision::Block),
        reason: Some(reason),
        additional_context,
        system_message: fields.system_message.take(),
        stopped: true,
        warnings,
        ..Response::default()
    })
}

/// As Codex: exit 2 blocks with stderr as the reason (an empty stderr fails the hook) where the
/// event can block; any other non-zero exit fails the hook.
fn nonzero_exit(event: &Event, code: i32, _stdout: &[u8], stderr: String) -> HandlerResult {
    if code != 2 {
        return HandlerResult::Failed(Failure::NonZeroExit { code, stderr });
    }
    if stderr.is_empty() {
        HandlerResult::Failed(Failure::BlockWithoutReason)
    } else if !RULES.output().block_effect(event).can_block() {
        cannot_block(event, stderr)
    } else {
        block(stderr, code)
    }
}

/// The rules of [`refused`] as JSON Schema, one described subschema each, for the generated
/// output schema of `event` (its `allOf`): with them the schema, `validate_output` and the
/// engine give one verdict on every lime output (a test runs the lime corpus through all three).
///
/// `null` is absent for the `Value` fields (`updatedInput`, `updatedMCPToolOutput`, ...), as the
/// engine reads them.
#[cfg(feature = "schema")]
pub(crate) fn output_schema_rules(event: &Event) -> Vec<Value> {
    use serde_json::json;
    let no_continue_false = json!({
        "description": format!("lime refuses `continue: false` on {event}"),
        "properties": {"continue": {"const": true}}
    });
    let no_stop_reason = json!({
        "description": format!("lime refuses `stopReason` on {event}"),
        "properties": {"stopReason": false}
    });
    let no_suppress_output = json!({
        "description": format!("lime refuses `suppressOutput: true` on {event}"),
        "properties": {"suppressOutput": {"const": false}}
    });
    let reason_needs_decision = json!({
        "description": format!("lime refuses a `reason` without `decision` on {event}"),
        "dependentRequired": {"reason": ["decision"]}
    });
    let non_blank = json!({"type": "string", "pattern": "\\S"});
    let block_needs_reason = |unless: Option<Value>| {
        let mut condition = json!({
            "required": ["decision"],
            "properties": {"decision": {"const": "block"}}
        });
        if let (Some(unless), Some(condition)) = (unless, condition.as_object_mut()) {
            condition.insert("not".into(), unless);
        }
        json!({
            "description": format!("`decision: \"block\"` on {event} needs a non-empty `reason`"),
            "if": condition,
            "then": {"required": ["reason"], "properties": {"reason": non_blank}}
        })
    };
    let specific = |rule: Value| json!({"properties": {"hookSpecificOutput": rule}});
    // An output with `continue: false`, which Codex reads before the other checks on the
    // events that obey it.
    let stopped = json!({
        "required": ["continue"],
        "properties": {"continue": {"const": false}}
    });
    // `rule`, except where `condition` holds (`when` says where, for the description).
    let unless = |condition: &Value, when: &str, rule: Value| {
        json!({
            "description": format!(
                "{} (unless {when})",
                rule["description"].as_str().unwrap_or_default()
            ),
            "if": condition,
            "else": rule
        })
    };
    let unless_stopped = |rule: Value| unless(&stopped, "`continue: false`", rule);
    let mut rules = Vec::new();
    match event {
        E::PreToolUse => {
            rules.extend([no_continue_false, no_stop_reason, no_suppress_output]);
            // The legacy top-level `decision` and `reason` are read (and checked) only when
            // `hookSpecificOutput` makes no decision of its own.
            let present = |field: &str| {
                json!({
                    "required": [field],
                    "properties": {field: {"not": {"type": "null"}}}
                })
            };
            let decides_in_specific = json!({
                "required": ["hookSpecificOutput"],
                "properties": {"hookSpecificOutput": {
                    "type": "object",
                    "anyOf": [
                        present("permissionDecision"),
                        present("permissionDecisionReason"),
                        present("updatedInput")
                    ]
                }}
            });
            let legacy =
                |rule: Value| unless(&decides_in_specific, "`hookSpecificOutput` decides", rule);
            rules.push(legacy(json!({
                "description": "lime refuses the legacy `decision: \"approve\"`; allow with `permissionDecision: \"allow\"` and an `updatedInput`",
                "properties": {"decision": {"enum": ["block"]}}
            })));
            rules.push(legacy(reason_needs_decision));
            rules.push(legacy(block_needs_reason(None)));
            let mut reason_alone = specific(json!({
                "if": present("permissionDecisionReason"),
                "then": present("permissionDecision")
            }));
            reason_alone["description"] =
                "lime refuses a `permissionDecisionReason` without `permissionDecision`".into();
            rules.push(reason_alone);
            let mut ask = specific(
                json!({"properties": {"permissionDecision": {"enum": ["allow", "deny"]}}}),
            );
            ask["description"] = "lime refuses `permissionDecision: \"ask\"`".into();
            rules.push(ask);
            let mut allow = specific(json!({
                "if": {
                    "required": ["permissionDecision"],
                    "properties": {"permissionDecision": {"const": "allow"}}
                },
                "then": {
                    "required": ["updatedInput"],
                    "properties": {"updatedInput": {"not": {"type": "null"}}}
                },
                "else": {"properties": {"updatedInput": {"type": "null"}}}
            }));
            allow["description"] = "a lime `permissionDecision: \"allow\"` needs an `updatedInput` (it only rewrites the input), and an `updatedInput` needs `\"allow\"`".into();
            rules.push(allow);
            let mut deny = specific(json!({
                "if": {
                    "required": ["permissionDecision"],
                    "properties": {"permissionDecision": {"const": "deny"}}
                },
                "then": {
                    "required": ["permissionDecisionReason"],
                    "properties": {"permissionDecisionReason": non_blank}
                }
            }));
            deny["description"] =
                "`permissionDecision: \"deny\"` needs a non-empty `permissionDecisionReason`"
                    .into();
            rules.push(deny);
        }
        E::PermissionRequest => {
            rules.extend([no_continue_false, no_stop_reason, no_suppress_output]);
            rules.push(specific(json!({
                "description": "a lime PermissionRequest hook decides with `behavior` alone: no `updatedInput`, `updatedPermissions` or `interrupt: true`",
                "properties": {"decision": {"properties": {
                    "updatedInput": {"type": "null"},
                    "updatedPermissions": {"type": "null"},
                    "interrupt": {"const": false}
                }}}
            })));
        }
        E::PostToolUse => {
            // `continue: false` is read first: it turns the output into feedback with a
            // reason of its own, whatever else it says, so every other rule holds only
            // without it.
            let mut updated_mcp = specific(json!({
                "properties": {"updatedMCPToolOutput": {"type": "null"}}
            }));
            updated_mcp["description"] = "lime refuses `updatedMCPToolOutput`".into();
            for rule in [
                no_suppress_output,
                updated_mcp,
                reason_needs_decision,
                block_needs_reason(None),
            ] {
                rules.push(unless_stopped(rule));
            }
        }
        E::UserPromptSubmit | E::Stop | E::SubagentStop => {
            rules.push(block_needs_reason(Some(stopped.clone())));
        }
        _ if RULES.output().block_effect(event).can_block() => rules.push(block_needs_reason(None)),
        _ => {}
    }
    rules
}
