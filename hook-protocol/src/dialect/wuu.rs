//! wuu's rules: flat `hooks` entries in `config.json`, handlers run one by one, snake_case
//! output, tool-name matchers that ignore case.

use serde_json::Value;

use super::{
    AgentNames, Concurrency, ConfigFormat, ConfigLayout, ContinueFalse, DialectRules, FieldCase,
    MatcherStyle, NonPositiveTimeout, PlainText, PluginSettings, UntargetedMatcher,
};
use crate::input::{EventInput, InputError};
use crate::interpret::{Read, block, cannot_block, parse_object, read_fields, unknown_fields};
use crate::output::{self, OutputFields};
use crate::write::{Answer, OutputForm, WriteRules};
use crate::{BlockEffect, Dialect, Event, Failure, HandlerResult, HandlerType, Layer};
use crate::{Decision, MatchTarget, input};

use Event as E;

pub(super) static RULES: DialectRules = DialectRules {
    dialect: Dialect::Wuu,
    agent: AgentNames {
        title: "Wuu",
        names: &["wuu"],
    },
    events: EVENTS,
    block_effect,
    // wuu matchers are tool names only; every other event has no match value.
    match_target: |_| MatchTarget::Nothing,
    config_format: ConfigFormat::Json,
    config_layout: ConfigLayout::Flat,
    home_env: Some("WUU_HOME"),
    home_dir: ".wuu",
    config_file: "config.json",
    local_config_file: None,
    // The wuu seed names `config.json` only.
    hooks_file: None,
    managed_path: None,
    reserved_hooks_keys: &[],
    trust_state_in_config: false,
    plugin_settings: PluginSettings::Tables,
    trust_layers: &[Layer::Project, Layer::Local, Layer::Plugin],
    settings_switches: false,
    handler_types: &[
        ("command", HandlerType::Command),
        ("prompt", HandlerType::Prompt),
        ("native", HandlerType::Native),
    ],
    default_handler_type: Some(HandlerType::Command),
    parsed_never_run: &[],
    handler_fields: &["type", "command", "prompt", "model", "timeout", "library"],
    command_windows: false,
    skips_blank_command: false,
    conditions: false,
    non_positive_timeout: NonPositiveTimeout::Default,
    timeout_limits: |_, _| (30.0, None),
    matcher_style: MatcherStyle::NameIgnoreCase,
    untargeted_matcher: UntargetedMatcher::NeverMatches,
    dedup_identical: false,
    tool_aliases: &[],
    lowercase_tool_names: true,
    // Claude Code's tools, spelt in lowercase (`tool_name`).
    known_tools: super::verboo::TOOLS,
    concurrency: Concurrency::Serial,
    async_handlers: false,
    model_hooks_fail_open: true,
    model_hooks_block: &[],
    project_dir_env: None,
    relay: None,
    env_file_events: &[],
    field_case: FieldCase::Snake,
    json_starts: b"{[",
    plain_text: |_| PlainText::Json,
    // The wuu seed names one place for context: after a successful PostToolUse.
    accepts_context: |event| *event == E::PostToolUse,
    context_limit: None,
    continue_false: ContinueFalse::Blocks,
    stop_context_blocks: false,
    // wuu has no stop: `continue: false` blocks.
    stop_reason_in_history: false,
    // wuu takes no context on `UserPromptSubmit` at all (its seed: `additional_context` after
    // a successful `PostToolUse` only), so there is none to keep.
    dropped_prompt_keeps_context: false,
    denied_permission_message: None,
    nonzero_exit,
    read_output,
    refine_output: no_refinement,
    strict_output: false,
    write: WriteRules {
        form: OutputForm::Flat,
        refuse: refuse_answer,
        rewrite_is_allow: false,
        // The wuu seed types `tool_response` as a string.
        tool_response_text: true,
    },
    read_input,
    session_id_always: false,
    transcript_and_model_always: false,
};

const EVENTS: &[Event] = &[
    E::PreToolUse,
    E::PermissionRequest,
    E::PostToolUse,
    E::PostToolUseFailure,
    E::UserPromptSubmit,
    E::PreCompact,
    E::PostCompact,
    E::SubagentStart,
    E::SubagentStop,
    E::SessionStart,
    E::SessionEnd,
    E::Stop,
    E::FileChanged,
];

/// Every event can stop its operation except the ones that only observe.
/// What wuu cannot write: it has no ask or defer, rewrites on `PreToolUse` only, has no stop
/// (its `continue: false` blocks), no system message and no suppressed output.
fn refuse_answer(
    event: &Event,
    answer: &Answer,
    decision: Option<Decision>,
) -> Option<&'static str> {
    if matches!(decision, Some(Decision::Ask | Decision::Defer)) {
        return Some("wuu has no ask or defer: allow (no decision) or block");
    }
    if answer.updated_input.is_some() && *event != E::PreToolUse {
        return Some("wuu rewrites the input on PreToolUse only");
    }
    if answer.stop {
        return Some("wuu has no \"stop the agent\" (its `continue: false` blocks): use block");
    }
    if answer.system_message.is_some() || answer.suppress_output {
        return Some("wuu has no system message or suppressed output: write to stderr instead");
    }
    None
}

fn block_effect(event: &Event) -> BlockEffect {
    match event {
        E::PostToolUse | E::PostToolUseFailure | E::FileChanged => BlockEffect::Cannot,
        _ => BlockEffect::Blocks,
    }
}

/// Unknown fields are ignored with a warning, as wuu does.
fn read_output(event: &Event, value: Value) -> Read {
    let warnings = unknown_fields(Dialect::Wuu, event, &value, output::wuu::FIELDS);
    read_fields(
        Dialect::Wuu,
        event,
        output::wuu::read_output(value),
        warnings,
    )
}

pub(super) fn no_refinement(
    _: &Event,
    _: &mut OutputFields,
    _: &mut Vec<String>,
) -> Option<HandlerResult> {
    None
}

fn read_input(event: &Event, value: Value) -> Result<EventInput, InputError> {
    Ok(EventInput::Wuu(input::wuu::Input::from_value(
        event, value,
    )?))
}

/// Exit 2 blocks where the event can block, with the JSON `reason` when stdout is a valid wuu
/// object that has one, else stderr; any other non-zero exit fails the hook.
fn nonzero_exit(event: &Event, code: i32, stdout: &[u8], stderr: String) -> HandlerResult {
    if code != 2 {
        return HandlerResult::Failed(Failure::NonZeroExit { code, stderr });
    }
    if !RULES.output().block_effect(event).can_block() {
        return cannot_block(event, stderr);
    }
    let json_reason = parse_object(stdout)
        .ok()
        .and_then(|value| output::wuu::read_output(value).ok())
        .and_then(|fields| fields.reason)
        .filter(|reason| !reason.trim().is_empty());
    block(json_reason.unwrap_or(stderr), code)
}
