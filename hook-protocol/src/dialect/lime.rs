//! lime's rules (modelled on Codex CLI): TOML configuration, trust hashes, strict camelCase
//! output read as Codex CLI 0.169 reads it.
//!
//! The published schemas accept more than Codex obeys: the outputs [`refine_output`] refuses
//! validate there, but Codex fails the run and takes nothing from it, so lime does too. lime's
//! own generated schemas encode those rules ([`output_schema_rules`]), so that they, validation
//! and the engine give one verdict.

use serde_json::Value;

use super::{
    Concurrency, ConfigFormat, ConfigLayout, ContinueFalse, DialectRules, FieldCase, MatcherStyle,
    NonPositiveTimeout, PlainText, PluginSettings, RelayAgent, UntargetedMatcher,
    named_match_target,
};
use crate::interpret::{Read, block, cannot_block, invalid, read_fields};
use crate::output::{self, ApproveOrBlock, OutputFields, PermissionDecision};
use crate::schema::SchemaKind;
use crate::validate::{issues, validator};
use crate::{
    BlockEffect, Decision, Dialect, Event, EventInput, Failure, HandlerResult, HandlerType,
    InputError, Layer, Response, input,
};

use Event as E;

pub(super) static RULES: DialectRules = DialectRules {
    dialect: Dialect::Lime,
    events: EVENTS,
    block_effect,
    match_target: named_match_target,
    config_format: ConfigFormat::Toml,
    config_layout: ConfigLayout::Grouped,
    home_env: Some("LIME_HOME"),
    home_dir: ".lime",
    config_file: "config.toml",
    local_config_file: None,
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
    concurrency: Concurrency::Concurrent,
    async_handlers: true,
    model_hooks_fail_open: false,
    project_dir_env: None,
    relay: Some(RelayAgent {
        name: "Codex CLI",
        home_env: "CODEX_HOME",
        home_dir: ".codex",
        config_file: "config.toml",
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
    }),
    env_file_events: &[],
    field_case: FieldCase::Camel,
    json_starts: b"{[",
    plain_text,
    accepts_context,
    context_limit: Some(10_000),
    continue_false: ContinueFalse::Stops,
    stop_context_blocks: false,
    denied_permission_message: Some(DENIED_APPROVAL),
    nonzero_exit,
    read_output,
    refine_output,
    strict_output: true,
    read_input,
    session_id_always: true,
    transcript_and_model_always: true,
};

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
    if let Some(why) = refused(event, fields) {
        return Some(HandlerResult::Failed(Failure::Refused(why)));
    }
    if let Some(feedback) = post_tool_use_stop(event, fields) {
        return Some(HandlerResult::Response(feedback));
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
    // A `PostToolUse` `continue: false` is feedback with a reason of its own (see
    // `post_tool_use_stop`): its block needs no `reason`.
    let stops_post_tool_use = *event == E::PostToolUse && fields.continue_ == Some(false);
    let can_block = RULES.block_effect(event).can_block();
    if fields.decision == Some(ApproveOrBlock::Block)
        && can_block
        && !stops_post_tool_use
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
fn post_tool_use_stop(event: &Event, fields: &mut OutputFields) -> Option<Response> {
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

/// As Codex: exit 2 blocks with stderr as the reason (an empty stderr fails the hook) where the
/// event can block; any other non-zero exit fails the hook.
fn nonzero_exit(event: &Event, code: i32, _stdout: &[u8], stderr: String) -> HandlerResult {
    if code != 2 {
        return HandlerResult::Failed(Failure::NonZeroExit { code, stderr });
    }
    if stderr.is_empty() {
        HandlerResult::Failed(Failure::BlockWithoutReason)
    } else if !RULES.block_effect(event).can_block() {
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
    let mut rules = Vec::new();
    match event {
        E::PreToolUse => {
            rules.extend([no_continue_false, no_stop_reason, no_suppress_output]);
            rules.push(json!({
                "description": "lime refuses the legacy `decision: \"approve\"`; allow with `permissionDecision: \"allow\"` and an `updatedInput`",
                "properties": {"decision": {"enum": ["block"]}}
            }));
            rules.push(reason_needs_decision);
            rules.push(block_needs_reason(None));
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
            rules.push(no_suppress_output);
            rules.push(specific(json!({
                "description": "lime refuses `updatedMCPToolOutput`",
                "properties": {"updatedMCPToolOutput": {"type": "null"}}
            })));
            rules.push(reason_needs_decision);
            // `continue: false` turns the block into feedback with a reason of its own.
            rules.push(block_needs_reason(Some(json!({
                "required": ["continue"],
                "properties": {"continue": {"const": false}}
            }))));
        }
        _ if RULES.block_effect(event).can_block() => rules.push(block_needs_reason(None)),
        _ => {}
    }
    rules
}
