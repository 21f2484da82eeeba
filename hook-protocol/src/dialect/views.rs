//! The views of [`DialectRules`], one per part of a dialect: its agent, its files, its
//! handlers, its matchers, what its hooks receive and how their output is read. Each is a small
//! `Copy` value borrowing the rules, returned by the method of [`DialectRules`] of its name
//! (`rules.config().home_dir()`), and reads each rule through the method of the rule's name.

use std::borrow::Cow;

use super::{
    Concurrency, ConfigFormat, ConfigLayout, ContinueFalse, DialectRules, FieldCase, MatcherStyle,
    NonPositiveTimeout, PlainText, PluginSettings, RelayAgent, UntargetedMatcher,
};
use crate::{BlockEffect, Event, HandlerType, Layer};

/// The agent a dialect is ([`DialectRules::agent`]): the names people call it by, the agent
/// `hook relay` speaks for, and what its model hooks do where no model answers.
///
/// Read by the `hook` CLI (`--agent`, messages, and everything `hook relay` does: its settings
/// files, its events, its timeouts), by hook-config (a converted file's messages, the relay's
/// folders) and by hook-exec (`prompt` and `agent` hooks).
#[derive(Debug, Clone, Copy)]
pub struct AgentRules<'r> {
    rules: &'r DialectRules,
}

impl<'r> AgentRules<'r> {
    /// The agent's name in messages (`Claude Code`, `Codex CLI`, `Wuu`).
    pub fn title(self) -> &'static str {
        self.rules.agent.title
    }

    /// The names a command line takes for the agent (`hook --agent`), lowercase, the usual one
    /// first (`claude`, `claude-code`; `codex`; `wuu`); no two dialects share a name. See
    /// [`Dialect::from_agent_name`](crate::Dialect::from_agent_name).
    pub fn names(self) -> &'static [&'static str] {
        self.rules.agent.names
    }

    /// The agent `hook relay` speaks for in this dialect (verboo: Claude Code; lime: Codex
    /// CLI); `None` where there is no such agent to relay for (wuu agents embed the engine).
    pub fn relay(self) -> Option<&'r RelayAgent> {
        self.rules.relay.as_ref()
    }

    /// Whether a prompt hook that cannot ask its model allows (wuu fails open).
    pub fn model_hooks_fail_open(self) -> bool {
        self.rules.model_hooks_fail_open
    }

    /// Whether a `prompt` or `agent` hook on `event` blocks it without running (verboo
    /// `PreSkillShellCommand`: Claude Code asks no model before a skill's inline command).
    pub fn model_hooks_block(self, event: &Event) -> bool {
        self.rules.model_hooks_block.contains(event)
    }
}

/// A dialect's configuration files and their layout ([`DialectRules::config`]): where they
/// are, their format, what they hold besides hooks, and which layers need trust.
///
/// Read by hook-config (discovery, reading, merging), hook-trust (the trust layers, where the
/// trust state lives) and the `hook` CLI (`hook init`, `hook trust`, the files it names).
#[derive(Debug, Clone, Copy)]
pub struct ConfigRules<'r> {
    rules: &'r DialectRules,
}

impl ConfigRules<'_> {
    /// The format of its configuration files.
    pub fn config_format(self) -> ConfigFormat {
        self.rules.config_format
    }

    /// Whether handlers are written flat under the event or in matcher groups.
    pub fn config_layout(self) -> ConfigLayout {
        self.rules.config_layout
    }

    /// The environment variable that overrides the home folder (`WUU_HOME`, `LIME_HOME`).
    pub fn home_env(self) -> Option<&'static str> {
        self.rules.home_env
    }

    /// The home folder's name under `$HOME` (`.wuu`, `.claude`, `.lime`); the project folder
    /// has the same name under the project root.
    pub fn home_dir(self) -> &'static str {
        self.rules.home_dir
    }

    /// The user file's name in the home folder, and the project file's in the project folder.
    pub fn config_file(self) -> &'static str {
        self.rules.config_file
    }

    /// The personal, uncommitted project file beside the project file (verboo
    /// `settings.local.json`).
    pub fn local_config_file(self) -> Option<&'static str> {
        self.rules.local_config_file
    }

    /// A JSON file of hooks alone (the plugin `hooks.json` shape) read beside
    /// [`config_file`](Self::config_file) in the user and project layers, before it; when
    /// both files of a layer have hooks, both load and a warning says so (lime: `hooks.json`,
    /// as Codex reads one beside `config.toml`).
    pub fn hooks_file(self) -> Option<&'static str> {
        self.rules.hooks_file
    }

    /// The fixed system path of the administrator's managed file, if the dialect has one.
    pub fn managed_path(self) -> Option<&'static str> {
        self.rules.managed_path
    }

    /// Keys under `hooks` that are not events (lime keeps its trust state in
    /// `[hooks.state]`).
    pub fn reserved_hooks_keys(self) -> &'static [&'static str] {
        self.rules.reserved_hooks_keys
    }

    /// Whether the trust state lives in the user's own configuration file (lime:
    /// `[hooks.state."<key>"]` of `config.toml`) rather than in a store file beside it.
    pub fn trust_state_in_config(self) -> bool {
        self.rules.trust_state_in_config
    }

    /// How the user file enables plugins.
    pub fn plugin_settings(self) -> PluginSettings {
        self.rules.plugin_settings
    }

    /// The layers whose hooks must be trusted before they run (managed hooks never need it).
    pub fn trust_layers(self) -> &'static [Layer] {
        self.rules.trust_layers
    }

    /// Whether `disableAllHooks` and the managed-only switches of settings files apply.
    pub fn settings_switches(self) -> bool {
        self.rules.settings_switches
    }
}

/// A dialect's handlers ([`DialectRules::handlers`]): the types it parses and runs, their
/// fields and timeouts, and how the handlers of one event run together.
///
/// Read by hook-config (reading a handler, deduplicating) and hook-exec (what runs, serially or
/// concurrently, in the background or not).
#[derive(Debug, Clone, Copy)]
pub struct HandlerRules<'r> {
    rules: &'r DialectRules,
}

impl HandlerRules<'_> {
    /// The handler types the dialect parses, with their names in configuration files.
    pub fn handler_types(self) -> &'static [(&'static str, HandlerType)] {
        self.rules.handler_types
    }

    /// The handler type a configuration file names `name`, if this dialect parses it.
    pub fn handler_type(self, name: &str) -> Option<HandlerType> {
        self.rules
            .handler_types
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// The type of a handler that names none (wuu: a command); `None` makes `type` required.
    pub fn default_handler_type(self) -> Option<HandlerType> {
        self.rules.default_handler_type
    }

    /// Whether this dialect parses handlers of `handler_type`.
    pub fn parses(self, handler_type: HandlerType) -> bool {
        self.rules
            .handler_types
            .iter()
            .any(|(_, t)| *t == handler_type)
    }

    /// Whether this dialect runs handlers of `handler_type` (it parses them and does not
    /// leave them unrun).
    pub fn runs(self, handler_type: HandlerType) -> bool {
        self.parses(handler_type) && !self.rules.parsed_never_run.contains(&handler_type)
    }

    /// Handler types the dialect parses but never runs (lime: prompt and agent): they load,
    /// and are reported as skipped.
    pub fn parsed_never_run(self) -> &'static [HandlerType] {
        self.rules.parsed_never_run
    }

    /// The handler fields the dialect knows, in the names and order of its files.
    pub fn handler_fields(self) -> &'static [&'static str] {
        self.rules.handler_fields
    }

    /// Whether a command handler may give `command_windows` instead of `command` (lime).
    pub fn command_windows(self) -> bool {
        self.rules.command_windows
    }

    /// Whether a blank `command` skips the handler with a warning (lime, as Codex) rather than
    /// running nothing.
    pub fn skips_blank_command(self) -> bool {
        self.rules.skips_blank_command
    }

    /// Whether handlers may carry an `if` permission rule (verboo).
    pub fn conditions(self) -> bool {
        self.rules.conditions
    }

    /// What a zero or negative `timeout` means.
    pub fn non_positive_timeout(self) -> NonPositiveTimeout {
        self.rules.non_positive_timeout
    }

    /// The default timeout of a handler of `handler_type` on `event`, in seconds, and the most
    /// a handler's own `timeout` may raise it to (`None`: no bound).
    pub fn timeout_limits(self, event: &Event, handler_type: HandlerType) -> (f64, Option<f64>) {
        (self.rules.timeout_limits)(event, handler_type)
    }

    /// Whether the matching handlers of one event run one after another or all at once.
    pub fn concurrency(self) -> Concurrency {
        self.rules.concurrency
    }

    /// Whether command handlers may run in the background (`async`).
    pub fn async_handlers(self) -> bool {
        self.rules.async_handlers
    }

    /// Whether identical handlers from several files run once (verboo).
    pub fn dedup_identical(self) -> bool {
        self.rules.dedup_identical
    }
}

/// How a dialect's matchers compare, and how it spells tool names ([`DialectRules::matching`]).
///
/// Read by hook-config (matchers, `if` rules), hook-sdk (a hook's own tool matching), the
/// `hook` CLI (`hook doctor`'s matcher checks, tool names in examples) and this crate's inputs.
#[derive(Debug, Clone, Copy)]
pub struct MatchingRules<'r> {
    rules: &'r DialectRules,
}

impl MatchingRules<'_> {
    /// How a matcher compares.
    pub fn matcher_style(self) -> MatcherStyle {
        self.rules.matcher_style
    }

    /// A name as matchers compare it: lowercased where matching ignores case.
    pub fn match_name<'n>(self, name: &'n str) -> Cow<'n, str> {
        match self.rules.matcher_style {
            MatcherStyle::NameIgnoreCase => Cow::Owned(name.to_lowercase()),
            MatcherStyle::Regex => Cow::Borrowed(name),
        }
    }

    /// What a non-empty matcher does on an event with nothing to match.
    pub fn untargeted_matcher(self) -> UntargetedMatcher {
        self.rules.untargeted_matcher
    }

    /// Tool names that are another name of a tool, `(alias, canonical)`: a matcher for one
    /// matches the other (lime: `Edit` and `Write` are `apply_patch`).
    pub fn tool_aliases(self) -> &'static [(&'static str, &'static str)] {
        self.rules.tool_aliases
    }

    /// Whether the dialect spells tool names in lowercase (`bash`, `read`).
    pub fn lowercase_tool_names(self) -> bool {
        self.rules.lowercase_tool_names
    }

    /// The built-in tools of the agent the dialect is modelled on (Claude Code's for verboo
    /// and wuu, Codex's for lime), each in its canonical spelling: [`tool_name`](Self::tool_name)
    /// spells it as the dialect does. Never complete: MCP tools (`mcp__server__tool`) and the
    /// tools of newer agents are not here, so a matcher that matches none of them is worth a
    /// look (`hook doctor` warns), not an error.
    ///
    /// ```
    /// use hook_protocol::Dialect;
    ///
    /// assert!(Dialect::Verboo.rules().matching().known_tools().contains(&"Bash"));
    /// assert!(Dialect::Lime.rules().matching().known_tools().contains(&"apply_patch"));
    /// ```
    pub fn known_tools(self) -> &'static [&'static str] {
        self.rules.known_tools
    }

    /// A tool's name as this dialect spells it: `tool_name("Bash")` is `bash` in wuu.
    pub fn tool_name<'n>(self, canonical: &'n str) -> Cow<'n, str> {
        if self.rules.lowercase_tool_names {
            Cow::Owned(canonical.to_lowercase())
        } else {
            Cow::Borrowed(canonical)
        }
    }
}

/// What a dialect's hooks receive besides the event's own fields ([`DialectRules::input`]):
/// the common fields every input carries, and the environment of a command hook.
///
/// Read by this crate's inputs, hook-sdk's `testing` (the inputs it builds), hook-exec (a
/// command hook's environment and `CLAUDE_ENV_FILE`) and the `hook` CLI (the relay's hooks).
#[derive(Debug, Clone, Copy)]
pub struct InputRules<'r> {
    rules: &'r DialectRules,
}

impl InputRules<'_> {
    /// Whether every input carries `session_id` (wuu: only where its schema has one).
    pub fn session_id_always(self) -> bool {
        self.rules.session_id_always
    }

    /// Whether every input carries `transcript_path`, `null` when there is none, and `model`
    /// (lime, as Codex).
    pub fn transcript_and_model_always(self) -> bool {
        self.rules.transcript_and_model_always
    }

    /// The variable naming the project folder in every hook's environment
    /// (`CLAUDE_PROJECT_DIR`).
    pub fn project_dir_env(self) -> Option<&'static str> {
        self.rules.project_dir_env
    }

    /// The events whose command hooks get a file to write environment variables into for the
    /// rest of the session (verboo `CLAUDE_ENV_FILE`).
    pub fn env_file_events(self) -> &'static [Event] {
        self.rules.env_file_events
    }
}

/// How a dialect reads a hook's output and what each part of it does
/// ([`DialectRules::output`]): its spelling, JSON or plain text, what a block does, where
/// context is taken and how much, stops, and the outputs it refuses.
///
/// Read by this crate's interpretation and writer, hook-exec's combining of results, hook-sdk
/// (what a hook may answer) and the `hook` CLI (`hook validate`, `hook test`).
#[derive(Debug, Clone, Copy)]
pub struct OutputRules<'r> {
    rules: &'r DialectRules,
}

impl OutputRules<'_> {
    /// How the dialect spells output and input fields.
    pub fn field_case(self) -> FieldCase {
        self.rules.field_case
    }

    /// The first bytes of a stdout the dialect reads as JSON; anything else is plain text.
    pub fn json_starts(self) -> &'static [u8] {
        self.rules.json_starts
    }

    /// Whether `stdout` (trimmed) is read as JSON rather than as plain text.
    pub fn reads_as_json(self, stdout: &[u8]) -> bool {
        stdout
            .first()
            .is_some_and(|first| self.rules.json_starts.contains(first))
    }

    /// What plain-text stdout is on `event`.
    pub fn plain_text(self, event: &Event) -> PlainText {
        (self.rules.plain_text)(event)
    }

    /// What a block does on `event` in this dialect; [`BlockEffect::Unknown`] on an event it
    /// does not know (a block there is kept, never dropped).
    pub fn block_effect(self, event: &Event) -> BlockEffect {
        if self.rules.knows(event) {
            (self.rules.block_effect)(event)
        } else {
            BlockEffect::Unknown
        }
    }

    /// Whether `additionalContext` from a hook on `event` reaches the model.
    pub fn accepts_context(self, event: &Event) -> bool {
        (self.rules.accepts_context)(event)
    }

    /// The most context characters one handler may add before the rest is written to a side
    /// file; a handler's `additionalContextLimit` overrides it (lime: 10,000).
    pub fn context_limit(self) -> Option<u64> {
        self.rules.context_limit
    }

    /// What `continue: false` does.
    pub fn continue_false(self) -> ContinueFalse {
        self.rules.continue_false
    }

    /// Whether context added on `Stop`/`SubagentStop` keeps the agent working (verboo: it is
    /// given to the model as a block's reason).
    pub fn stop_context_blocks(self) -> bool {
        self.rules.stop_context_blocks
    }

    /// Whether the `stopReason` of a `continue: false` on a tool event (`PreToolUse`,
    /// `PostToolUse`) stays in the session's history with the tool's result, so the model
    /// reads it from the next turn on. The outcome reports the stop (`stop`, `stop_reason`);
    /// an agent that follows this rule keeps the reason there (verboo, as Claude Code 2.1).
    pub fn stop_reason_in_history(self) -> bool {
        self.rules.stop_reason_in_history
    }

    /// Whether the `additionalContext` of a `UserPromptSubmit` that drops the prompt (a block,
    /// or `continue: false`) stays in the outcome. When it does, the agent gives it to the model
    /// on the session's next turn, as Codex does (a developer message); when it does not, it is
    /// discarded with the prompt, as Claude Code does. Each dialect's file says why.
    pub fn dropped_prompt_keeps_context(self) -> bool {
        self.rules.dropped_prompt_keeps_context
    }

    /// The reason of a `PermissionRequest` deny that gave none (lime, as Codex).
    pub fn denied_permission_message(self) -> Option<&'static str> {
        self.rules.denied_permission_message
    }

    /// Whether outputs the agent would refuse are refused (lime, as Codex): the hook fails and
    /// nothing of its output is used. The SDK refuses to write them.
    pub fn strict_output(self) -> bool {
        self.rules.strict_output
    }
}

impl DialectRules {
    /// The agent this dialect is: its names, the agent `hook relay` speaks for, its model
    /// hooks.
    pub fn agent(&self) -> AgentRules<'_> {
        AgentRules { rules: self }
    }

    /// Its configuration files: where, in which format, which layers need trust.
    pub fn config(&self) -> ConfigRules<'_> {
        ConfigRules { rules: self }
    }

    /// Its handlers: the types it parses and runs, their fields and timeouts, how they run
    /// together.
    pub fn handlers(&self) -> HandlerRules<'_> {
        HandlerRules { rules: self }
    }

    /// Its matchers, and how it spells tool names.
    pub fn matching(&self) -> MatchingRules<'_> {
        MatchingRules { rules: self }
    }

    /// What its hooks receive besides the event's own fields: common input fields, environment.
    pub fn input(&self) -> InputRules<'_> {
        InputRules { rules: self }
    }

    /// How it reads a hook's output and what each part does.
    pub fn output(&self) -> OutputRules<'_> {
        OutputRules { rules: self }
    }
}
