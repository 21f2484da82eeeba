//! verboo's rules (modelled on Claude Code): grouped settings files, handlers run together,
//! camelCase `hookSpecificOutput`, identical handlers run once.

use serde_json::Value;

use super::{
    AgentNames, Concurrency, ConfigFormat, ConfigLayout, ContinueFalse, DialectRules, FieldCase,
    MatcherStyle, NonPositiveTimeout, PlainText, PluginSettings, RelayAgent, UntargetedMatcher,
    named_match_target,
};
use crate::input::{EventInput, InputError};
use crate::interpret::{Read, block, detail, read_fields, unknown_fields};
use crate::output;
use crate::write::{OutputForm, WriteRules, refuses_nothing};
use crate::{BlockEffect, Dialect, Event, Failure, HandlerResult, HandlerType, Layer, input};

use Event as E;

pub(super) static RULES: DialectRules = DialectRules {
    dialect: Dialect::Verboo,
    agent: AgentNames {
        title: "Claude Code",
        names: &["claude", "claude-code"],
    },
    events: EVENTS,
    block_effect,
    match_target: named_match_target,
    config_format: ConfigFormat::Json,
    config_layout: ConfigLayout::Grouped,
    home_env: None,
    home_dir: ".claude",
    config_file: "settings.json",
    local_config_file: Some("settings.local.json"),
    // Claude Code reads hooks from its settings files only.
    hooks_file: None,
    managed_path: Some("/etc/claude-code/managed-settings.json"),
    reserved_hooks_keys: &[],
    trust_state_in_config: false,
    plugin_settings: PluginSettings::EnabledFlags,
    trust_layers: &[Layer::Project, Layer::Local, Layer::Plugin],
    settings_switches: true,
    handler_types: &[
        ("command", HandlerType::Command),
        ("http", HandlerType::Http),
        ("prompt", HandlerType::Prompt),
        ("agent", HandlerType::Agent),
        ("mcp_tool", HandlerType::McpTool),
        ("native", HandlerType::Native),
    ],
    default_handler_type: None,
    parsed_never_run: &[],
    handler_fields: &[
        "type",
        "command",
        "args",
        "shell",
        "timeout",
        "async",
        "asyncRewake",
        "continueOnBlock",
        "statusMessage",
        "onFailure",
        "if",
        "url",
        "headers",
        "allowedEnvVars",
        "prompt",
        "model",
        "server",
        "tool",
        "input",
        "library",
    ],
    command_windows: false,
    skips_blank_command: false,
    conditions: true,
    non_positive_timeout: NonPositiveTimeout::Invalid,
    timeout_limits,
    matcher_style: MatcherStyle::Regex,
    untargeted_matcher: UntargetedMatcher::Ignored,
    dedup_identical: true,
    tool_aliases: &[],
    lowercase_tool_names: false,
    known_tools: TOOLS,
    concurrency: Concurrency::Concurrent,
    async_handlers: true,
    model_hooks_fail_open: false,
    // Claude Code 2.1.332 runs no model before a skill's inline command (measured).
    model_hooks_block: &[E::PreSkillShellCommand],
    project_dir_env: Some("CLAUDE_PROJECT_DIR"),
    relay: Some(RelayAgent {
        name: "Claude Code",
        home_env: "CLAUDE_CONFIG_DIR",
        home_dir: ".claude",
        config_file: "settings.json",
        personal_config_file: Some("settings.local.json"),
        config_format: ConfigFormat::Json,
        events: EVENTS,
        session_event: &E::SessionStart,
        default_timeout: 600,
        on_failure: true,
    }),
    env_file_events: &[E::SessionStart, E::Setup, E::CwdChanged, E::FileChanged],
    field_case: FieldCase::Camel,
    json_starts: b"{",
    plain_text,
    accepts_context,
    context_limit: None,
    continue_false: ContinueFalse::Stops,
    stop_context_blocks: true,
    // Claude Code 2.1 ends the turn and appends "PostToolUse:Bash hook stopped continuation:
    // <stopReason>" to the tool's result: the model reads it on the next prompt (measured by
    // the conformance cases `post-continue-false` and `pre-continue-false`, over two turns).
    stop_reason_in_history: true,
    // Claude Code 2.1 discards a blocked or stopped prompt's `additionalContext` with the
    // prompt: the next prompt's model request does not carry it (measured by the conformance
    // cases `prompt-block-with-context` and `prompt-continue-false-with-context`, over two
    // turns).
    dropped_prompt_keeps_context: false,
    denied_permission_message: None,
    nonzero_exit,
    read_output,
    refine_output,
    strict_output: false,
    write: WriteRules {
        form: OutputForm::Tagged,
        refuse: refuses_nothing,
        rewrite_is_allow: false,
        tool_response_text: false,
    },
    read_input,
    session_id_always: true,
    transcript_and_model_always: false,
};

/// Claude Code's built-in tools, as its hook inputs name them (`tool_name`).
pub(super) const TOOLS: &[&str] = &[
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
    "NotebookEdit",
    "NotebookRead",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "KillBash",
    "SlashCommand",
    "Skill",
    "AskUserQuestion",
];

const EVENTS: &[Event] = &[
    E::SessionStart,
    E::Setup,
    E::InstructionsLoaded,
    E::UserPromptSubmit,
    E::UserPromptExpansion,
    E::MessageDisplay,
    E::PreToolUse,
    E::PreSkillShellCommand,
    E::PermissionRequest,
    E::PermissionDenied,
    E::PostToolUse,
    E::PostToolUseFailure,
    E::PostToolBatch,
    E::Notification,
    E::SubagentStart,
    E::SubagentStop,
    E::TaskCreated,
    E::TaskCompleted,
    E::Stop,
    E::StopFailure,
    E::TeammateIdle,
    E::ConfigChange,
    E::CwdChanged,
    E::DirectoryAdded,
    E::FileChanged,
    E::WorktreeCreate,
    E::WorktreeRemove,
    E::PreCompact,
    E::PostCompact,
    E::PreModelSwitch,
    E::PostModelSwitch,
    E::Elicitation,
    E::ElicitationResult,
    E::SessionEnd,
];

/// What a block does on each of verboo's events.
fn block_effect(event: &Event) -> BlockEffect {
    match event {
        E::UserPromptSubmit
        | E::UserPromptExpansion
        | E::PreToolUse
        | E::PreSkillShellCommand
        | E::PermissionRequest
        | E::PostToolBatch
        | E::SubagentStop
        | E::TaskCreated
        | E::TaskCompleted
        | E::Stop
        | E::TeammateIdle
        | E::ConfigChange
        | E::PreCompact
        | E::PreModelSwitch
        | E::Elicitation
        | E::ElicitationResult => BlockEffect::Blocks,
        E::PostToolUse | E::PostToolUseFailure => BlockEffect::Feedback,
        E::WorktreeCreate => BlockEffect::AnyNonZeroExit,
        _ => BlockEffect::Cannot,
    }
}

/// Prompt hooks answer in 30 s, agents in 60 s, everything else in 10 minutes.
fn timeout_limits(_: &Event, handler_type: HandlerType) -> (f64, Option<f64>) {
    match handler_type {
        HandlerType::Prompt => (30.0, None),
        HandlerType::Agent => (60.0, None),
        _ => (600.0, None),
    }
}

/// Text is context where Claude Code adds it for the model; elsewhere it is shown, not used.
fn plain_text(event: &Event) -> PlainText {
    match event {
        E::UserPromptSubmit | E::SessionStart => PlainText::Context,
        _ => PlainText::Ignored,
    }
}

/// The events whose `hookSpecificOutput` has `additionalContext` in Claude Code 2.1.332 (its
/// embedded output schema; `cargo xtask conformance drift` checks it). The others have a
/// decision instead (permissions, elicitations, model switches, a skill's command), other
/// fields (`watchPaths`, `displayContent`, `retry`, `worktreePath`), or no
/// `hookSpecificOutput` at all.
fn accepts_context(event: &Event) -> bool {
    matches!(
        event,
        E::SessionStart
            | E::Setup
            | E::UserPromptSubmit
            | E::UserPromptExpansion
            | E::PreToolUse
            | E::PostToolUse
            | E::PostToolUseFailure
            | E::PostToolBatch
            | E::Notification
            | E::SubagentStart
            | E::SubagentStop
            | E::Stop
            | E::PostModelSwitch
    )
}

/// Unknown fields are ignored with a warning, as Claude Code does.
fn read_output(event: &Event, value: Value) -> Read {
    let warnings = unknown_fields(Dialect::Verboo, event, &value, output::verboo::FIELDS);
    read_fields(
        Dialect::Verboo,
        event,
        output::verboo::read_output(event, value),
        warnings,
    )
}

/// What Claude Code 2.1.332 makes of a `PreSkillShellCommand` answer before it is judged: a
/// skill's command cannot wait for approval nor run a rewrite, so `ask` and `defer` block
/// (their reason, with why), and so does any `updatedInput` beside no block; the reason of a
/// `deny` falls back to the top-level `reason`. Claude Code's own words.
fn refine_output(
    event: &Event,
    fields: &mut output::OutputFields,
    _warnings: &mut Vec<String>,
) -> Option<HandlerResult> {
    use output::{ApproveOrBlock, PermissionDecision as P};
    if *event != E::PreSkillShellCommand {
        return None;
    }
    let reason = fields
        .permission_decision_reason
        .clone()
        .filter(|r| !r.is_empty())
        .or_else(|| fields.reason.clone().filter(|r| !r.is_empty()));
    const CANNOT_WAIT: &str = "the hook asked for approval, which a skill can't wait for";
    match fields.permission_decision {
        Some(P::Deny) => fields.permission_decision_reason = reason,
        Some(P::Ask | P::Defer) => {
            fields.permission_decision = Some(P::Deny);
            fields.permission_decision_reason = Some(match reason {
                Some(reason) => format!("{reason}; {CANNOT_WAIT}"),
                None => CANNOT_WAIT.to_owned(),
            });
        }
        _ if fields.updated_input.is_some() && fields.decision != Some(ApproveOrBlock::Block) => {
            fields.permission_decision = Some(P::Deny);
            fields.permission_decision_reason =
                Some("the hook changed the command, which isn't supported here".to_owned());
        }
        _ => {}
    }
    // Never applied: it was read as a block above, or beside one.
    fields.updated_input = None;
    None
}

fn read_input(event: &Event, value: Value) -> Result<EventInput, InputError> {
    Ok(EventInput::Verboo(input::verboo::Input::from_value(
        event, value,
    )?))
}

/// As Claude Code: exit 2 blocks where the event can block and is a non-blocking error
/// elsewhere; `WorktreeCreate` fails on any non-zero exit; any other exit is a non-blocking
/// error (its stderr is shown to the user only).
fn nonzero_exit(event: &Event, code: i32, _stdout: &[u8], stderr: String) -> HandlerResult {
    let effect = RULES.output().block_effect(event);
    match code {
        2 if effect == BlockEffect::Cannot => HandlerResult::NonBlockingError {
            message: format!("exit 2 on {event}, which cannot block{}", detail(&stderr)),
        },
        2 => block(stderr, code),
        _ if effect == BlockEffect::AnyNonZeroExit => block(stderr, code),
        _ => HandlerResult::NonBlockingError {
            message: Failure::NonZeroExit { code, stderr }.to_string(),
        },
    }
}
