//! The three hook dialects, and each one's rules in one place.
//!
//! [`Dialect`] names a hook system; [`DialectRules`] says how it behaves wherever the three
//! differ: which files it reads and in which format, which handler types it parses and runs,
//! how its matchers compare, whether its hooks run one by one or together, where it takes
//! context for the model and how much, which extra environment variables its hooks get, and
//! how it spells its fields and tools. Every crate of the workspace asks [`Dialect::rules`]
//! instead of branching on the dialect, so a rule of one dialect is written in one file:
//! `wuu.rs`, `verboo.rs` or `lime.rs` beside this one.

mod lime;
pub(crate) mod reading;
mod verboo;
mod wuu;

pub use reading::{ContinueFalse, FieldCase, PlainText};

#[cfg(feature = "schema")]
pub(crate) use lime::output_schema_rules as lime_output_schema_rules;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::output::OutputFields;
use crate::write::WriteRules;
use crate::{BlockEffect, Event, HandlerType, Layer, MatchTarget};

/// One of the hook systems this workspace implements.
///
/// Each dialect has its own configuration files, wire format and rules for combining results
/// (its [`DialectRules`]).
///
/// Closed on purpose (not `#[non_exhaustive]`): the three dialects are the specification, and a
/// fourth would change what every consumer must do, so it should not compile unnoticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Wuu: flat `hooks` entries in `config.json`, serial execution, snake_case output.
    Wuu,
    /// Verboo Code (modelled on Claude Code): grouped settings files, concurrent execution,
    /// `hookSpecificOutput`.
    Verboo,
    /// Lime (modelled on Codex CLI): TOML configuration, trust hashes, strict camelCase output.
    Lime,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 3] = [Dialect::Wuu, Dialect::Verboo, Dialect::Lime];

    /// Everything this dialect does differently from the others.
    ///
    /// ```
    /// use hook_protocol::{Dialect, Event};
    ///
    /// let lime = Dialect::Lime.rules();
    /// assert_eq!(lime.context_limit(), Some(10_000));
    /// assert!(!Dialect::Wuu.rules().accepts_context(&Event::UserPromptSubmit));
    /// assert_eq!(Dialect::Wuu.rules().tool_name("Bash"), "bash");
    /// ```
    pub fn rules(self) -> &'static DialectRules {
        match self {
            Dialect::Wuu => &wuu::RULES,
            Dialect::Verboo => &verboo::RULES,
            Dialect::Lime => &lime::RULES,
        }
    }

    /// The events this dialect knows, in the order its documentation lists them.
    pub fn events(self) -> &'static [Event] {
        self.rules().events()
    }

    /// The dialect whose agent goes by `name` ([`AgentNames::names`]: `claude`, `claude-code`,
    /// `codex`, `wuu`), ignoring ASCII case; `None` for any other name (`verboo` and `lime`
    /// name dialects, not agents: wuu is both).
    ///
    /// ```
    /// use hook_protocol::Dialect;
    ///
    /// assert_eq!(Dialect::from_agent_name("Claude-Code"), Some(Dialect::Verboo));
    /// assert_eq!(Dialect::from_agent_name("codex"), Some(Dialect::Lime));
    /// assert_eq!(Dialect::from_agent_name("lime"), None);
    /// ```
    pub fn from_agent_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|dialect| {
            dialect
                .rules()
                .agent()
                .names
                .iter()
                .any(|known| known.eq_ignore_ascii_case(name))
        })
    }

    /// The lowercase name used on the command line, in `HOOK_DIALECT` and in schema paths.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Wuu => "wuu",
            Dialect::Verboo => "verboo",
            Dialect::Lime => "lime",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A dialect name that is not `wuu`, `verboo` or `lime`.
///
/// Closed on purpose (not `#[non_exhaustive]`): it is the name that was given, nothing more.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown dialect `{0}`: expected one of wuu, verboo, lime")]
pub struct UnknownDialect(pub String);

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownDialect(s.to_owned()))
    }
}

/// How a dialect behaves wherever the three differ. Obtained from [`Dialect::rules`].
///
/// The enums of single rules ([`ConfigFormat`], [`ConfigLayout`], [`NonPositiveTimeout`],
/// [`MatcherStyle`], [`UntargetedMatcher`], [`PluginSettings`], [`Concurrency`], [`FieldCase`],
/// [`PlainText`], [`ContinueFalse`]) are closed on purpose, like [`Dialect`]: whoever reads a
/// rule must handle each of its values, so a new value must not compile unnoticed.
///
/// Each field is one rule, stated once for each dialect in its own file, and read through the
/// method of the same name (the fields are private). The rules are read by the crates of this
/// workspace (configuration reading, matching, the engine, the trust hash, the SDK, the CLI)
/// and by embedders who want the same answers; nothing else in the workspace decides by naming
/// a dialect.
///
/// `#[non_exhaustive]`: a rule may be added in a minor release; it is built here only.
#[derive(Debug)]
#[non_exhaustive]
pub struct DialectRules {
    dialect: Dialect,
    /// The agent the dialect is, as people name it.
    agent: AgentNames,

    // --- Events ---
    events: &'static [Event],
    /// What a block does on a known event (see [`Event::block_effect`]).
    pub(crate) block_effect: fn(&Event) -> BlockEffect,
    /// What a matcher is tested against on a known event that is not a tool event (tool
    /// events match the tool name in every dialect).
    pub(crate) match_target: fn(&Event) -> MatchTarget,

    // --- Files ---
    config_format: ConfigFormat,
    config_layout: ConfigLayout,
    home_env: Option<&'static str>,
    home_dir: &'static str,
    config_file: &'static str,
    local_config_file: Option<&'static str>,
    hooks_file: Option<&'static str>,
    managed_path: Option<&'static str>,
    reserved_hooks_keys: &'static [&'static str],
    trust_state_in_config: bool,
    plugin_settings: PluginSettings,
    trust_layers: &'static [Layer],
    settings_switches: bool,

    // --- Handlers ---
    handler_types: &'static [(&'static str, HandlerType)],
    default_handler_type: Option<HandlerType>,
    parsed_never_run: &'static [HandlerType],
    handler_fields: &'static [&'static str],
    command_windows: bool,
    skips_blank_command: bool,
    conditions: bool,
    non_positive_timeout: NonPositiveTimeout,
    /// The default timeout of a handler and the most it may be raised to, in seconds.
    pub(crate) timeout_limits: fn(&Event, HandlerType) -> (f64, Option<f64>),

    // --- Matching ---
    matcher_style: MatcherStyle,
    untargeted_matcher: UntargetedMatcher,
    dedup_identical: bool,
    tool_aliases: &'static [(&'static str, &'static str)],
    lowercase_tool_names: bool,
    known_tools: &'static [&'static str],

    // --- Running ---
    concurrency: Concurrency,
    async_handlers: bool,
    model_hooks_fail_open: bool,
    model_hooks_block: &'static [Event],
    project_dir_env: Option<&'static str>,
    relay: Option<RelayAgent>,
    env_file_events: &'static [Event],

    // --- Output ---
    field_case: FieldCase,
    json_starts: &'static [u8],
    /// What plain-text stdout (not starting with [`json_starts`](Self::json_starts)) is on
    /// an event.
    pub(crate) plain_text: fn(&Event) -> PlainText,
    /// Where `additionalContext` is taken.
    pub(crate) accepts_context: fn(&Event) -> bool,
    context_limit: Option<u64>,
    continue_false: ContinueFalse,
    stop_context_blocks: bool,
    stop_reason_in_history: bool,
    dropped_prompt_keeps_context: bool,
    denied_permission_message: Option<&'static str>,
    /// What a run that exited with a non-zero code means: `(event, code, stdout, stderr)`.
    pub(crate) nonzero_exit: fn(&Event, i32, &[u8], String) -> crate::HandlerResult,
    /// Reads an output object into its fields (known fields, validation, warnings).
    pub(crate) read_output: fn(&Event, Value) -> crate::interpret::Read,
    /// The outputs the dialect refuses although its schema accepts them, and the rewrites it
    /// makes before judging; `Some` is the whole result of the run.
    pub(crate) refine_output:
        fn(&Event, &mut OutputFields, &mut Vec<String>) -> Option<crate::HandlerResult>,
    strict_output: bool,
    /// How a hook's answer is written ([`crate::write`]): the output's form, the answers the
    /// dialect cannot write, how it writes a rewrite, how its inputs carry a tool's result.
    pub(crate) write: WriteRules,

    // --- Inputs ---
    /// Reads an event input into the dialect's typed input.
    pub(crate) read_input:
        fn(&Event, Value) -> Result<crate::input::EventInput, crate::input::InputError>,
    session_id_always: bool,
    transcript_and_model_always: bool,
}

impl DialectRules {
    // --- Read-only accessors, one per rule (the fields are private: built here only) ---

    /// The dialect these rules are for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The agent this dialect is, as people name it: in messages (`Claude Code`) and on a
    /// command line (`claude`, `claude-code`); see [`Dialect::from_agent_name`].
    pub fn agent(&self) -> &AgentNames {
        &self.agent
    }

    /// The events the dialect knows, in the order its documentation lists them.
    pub fn events(&self) -> &'static [Event] {
        self.events
    }

    /// The format of its configuration files.
    pub fn config_format(&self) -> ConfigFormat {
        self.config_format
    }

    /// Whether handlers are written flat under the event or in matcher groups.
    pub fn config_layout(&self) -> ConfigLayout {
        self.config_layout
    }

    /// The environment variable that overrides the home folder (`WUU_HOME`, `LIME_HOME`).
    pub fn home_env(&self) -> Option<&'static str> {
        self.home_env
    }

    /// The home folder's name under `$HOME` (`.wuu`, `.claude`, `.lime`); the project folder
    /// has the same name under the project root.
    pub fn home_dir(&self) -> &'static str {
        self.home_dir
    }

    /// The user file's name in the home folder, and the project file's in the project folder.
    pub fn config_file(&self) -> &'static str {
        self.config_file
    }

    /// The personal, uncommitted project file beside the project file (verboo
    /// `settings.local.json`).
    pub fn local_config_file(&self) -> Option<&'static str> {
        self.local_config_file
    }

    /// A JSON file of hooks alone (the plugin `hooks.json` shape) read beside
    /// [`config_file`](Self::config_file) in the user and project layers, before it; when
    /// both files of a layer have hooks, both load and a warning says so (lime: `hooks.json`,
    /// as Codex reads one beside `config.toml`).
    pub fn hooks_file(&self) -> Option<&'static str> {
        self.hooks_file
    }

    /// The fixed system path of the administrator's managed file, if the dialect has one.
    pub fn managed_path(&self) -> Option<&'static str> {
        self.managed_path
    }

    /// Keys under `hooks` that are not events (lime keeps its trust state in
    /// `[hooks.state]`).
    pub fn reserved_hooks_keys(&self) -> &'static [&'static str] {
        self.reserved_hooks_keys
    }

    /// Whether the trust state lives in the user's own configuration file (lime:
    /// `[hooks.state."<key>"]` of `config.toml`) rather than in a store file beside it.
    pub fn trust_state_in_config(&self) -> bool {
        self.trust_state_in_config
    }

    /// How the user file enables plugins.
    pub fn plugin_settings(&self) -> PluginSettings {
        self.plugin_settings
    }

    /// The layers whose hooks must be trusted before they run (managed hooks never need it).
    pub fn trust_layers(&self) -> &'static [Layer] {
        self.trust_layers
    }

    /// Whether `disableAllHooks` and the managed-only switches of settings files apply.
    pub fn settings_switches(&self) -> bool {
        self.settings_switches
    }

    /// The handler types the dialect parses, with their names in configuration files.
    pub fn handler_types(&self) -> &'static [(&'static str, HandlerType)] {
        self.handler_types
    }

    /// The type of a handler that names none (wuu: a command); `None` makes `type` required.
    pub fn default_handler_type(&self) -> Option<HandlerType> {
        self.default_handler_type
    }

    /// Handler types the dialect parses but never runs (lime: prompt and agent): they load,
    /// and are reported as skipped.
    pub fn parsed_never_run(&self) -> &'static [HandlerType] {
        self.parsed_never_run
    }

    /// The handler fields the dialect knows, in the names and order of its files.
    pub fn handler_fields(&self) -> &'static [&'static str] {
        self.handler_fields
    }

    /// Whether a command handler may give `command_windows` instead of `command` (lime).
    pub fn command_windows(&self) -> bool {
        self.command_windows
    }

    /// Whether a blank `command` skips the handler with a warning (lime, as Codex) rather than
    /// running nothing.
    pub fn skips_blank_command(&self) -> bool {
        self.skips_blank_command
    }

    /// Whether handlers may carry an `if` permission rule (verboo).
    pub fn conditions(&self) -> bool {
        self.conditions
    }

    /// What a zero or negative `timeout` means.
    pub fn non_positive_timeout(&self) -> NonPositiveTimeout {
        self.non_positive_timeout
    }

    /// How a matcher compares.
    pub fn matcher_style(&self) -> MatcherStyle {
        self.matcher_style
    }

    /// What a non-empty matcher does on an event with nothing to match.
    pub fn untargeted_matcher(&self) -> UntargetedMatcher {
        self.untargeted_matcher
    }

    /// Whether identical handlers from several files run once (verboo).
    pub fn dedup_identical(&self) -> bool {
        self.dedup_identical
    }

    /// Tool names that are another name of a tool, `(alias, canonical)`: a matcher for one
    /// matches the other (lime: `Edit` and `Write` are `apply_patch`).
    pub fn tool_aliases(&self) -> &'static [(&'static str, &'static str)] {
        self.tool_aliases
    }

    /// Whether the dialect spells tool names in lowercase (`bash`, `read`).
    pub fn lowercase_tool_names(&self) -> bool {
        self.lowercase_tool_names
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
    /// assert!(Dialect::Verboo.rules().known_tools().contains(&"Bash"));
    /// assert!(Dialect::Lime.rules().known_tools().contains(&"apply_patch"));
    /// ```
    pub fn known_tools(&self) -> &'static [&'static str] {
        self.known_tools
    }

    /// Whether the matching handlers of one event run one after another or all at once.
    pub fn concurrency(&self) -> Concurrency {
        self.concurrency
    }

    /// Whether command handlers may run in the background (`async`).
    pub fn async_handlers(&self) -> bool {
        self.async_handlers
    }

    /// Whether a prompt hook that cannot ask its model allows (wuu fails open).
    pub fn model_hooks_fail_open(&self) -> bool {
        self.model_hooks_fail_open
    }

    /// Whether a `prompt` or `agent` hook on `event` blocks it without running (verboo
    /// `PreSkillShellCommand`: Claude Code asks no model before a skill's inline command).
    pub fn model_hooks_block(&self, event: &Event) -> bool {
        self.model_hooks_block.contains(event)
    }

    /// The variable naming the project folder in every hook's environment
    /// (`CLAUDE_PROJECT_DIR`).
    pub fn project_dir_env(&self) -> Option<&'static str> {
        self.project_dir_env
    }

    /// The agent `hook relay` speaks for in this dialect (verboo: Claude Code; lime: Codex
    /// CLI); `None` where there is no such agent to relay for (wuu agents embed the engine).
    pub fn relay(&self) -> Option<&RelayAgent> {
        self.relay.as_ref()
    }

    /// The events whose command hooks get a file to write environment variables into for the
    /// rest of the session (verboo `CLAUDE_ENV_FILE`).
    pub fn env_file_events(&self) -> &'static [Event] {
        self.env_file_events
    }

    /// How the dialect spells output and input fields.
    pub fn field_case(&self) -> FieldCase {
        self.field_case
    }

    /// The first bytes of a stdout the dialect reads as JSON; anything else is plain text.
    pub fn json_starts(&self) -> &'static [u8] {
        self.json_starts
    }

    /// The most context characters one handler may add before the rest is written to a side
    /// file; a handler's `additionalContextLimit` overrides it (lime: 10,000).
    pub fn context_limit(&self) -> Option<u64> {
        self.context_limit
    }

    /// What `continue: false` does.
    pub fn continue_false(&self) -> ContinueFalse {
        self.continue_false
    }

    /// Whether context added on `Stop`/`SubagentStop` keeps the agent working (verboo: it is
    /// given to the model as a block's reason).
    pub fn stop_context_blocks(&self) -> bool {
        self.stop_context_blocks
    }

    /// Whether the `stopReason` of a `continue: false` on a tool event (`PreToolUse`,
    /// `PostToolUse`) stays in the session's history with the tool's result, so the model
    /// reads it from the next turn on. The outcome reports the stop (`stop`, `stop_reason`);
    /// an agent that follows this rule keeps the reason there (verboo, as Claude Code 2.1).
    pub fn stop_reason_in_history(&self) -> bool {
        self.stop_reason_in_history
    }

    /// Whether the `additionalContext` of a `UserPromptSubmit` that drops the prompt (a block,
    /// or `continue: false`) stays in the outcome. When it does, the agent gives it to the model
    /// on the session's next turn, as Codex does (a developer message); when it does not, it is
    /// discarded with the prompt, as Claude Code does. Each dialect's file says why.
    pub fn dropped_prompt_keeps_context(&self) -> bool {
        self.dropped_prompt_keeps_context
    }

    /// The reason of a `PermissionRequest` deny that gave none (lime, as Codex).
    pub fn denied_permission_message(&self) -> Option<&'static str> {
        self.denied_permission_message
    }

    /// Whether outputs the agent would refuse are refused (lime, as Codex): the hook fails and
    /// nothing of its output is used. The SDK refuses to write them.
    pub fn strict_output(&self) -> bool {
        self.strict_output
    }

    /// Whether every input carries `session_id` (wuu: only where its schema has one).
    pub fn session_id_always(&self) -> bool {
        self.session_id_always
    }

    /// Whether every input carries `transcript_path`, `null` when there is none, and `model`
    /// (lime, as Codex).
    pub fn transcript_and_model_always(&self) -> bool {
        self.transcript_and_model_always
    }

    /// What a block does on `event` in this dialect; [`BlockEffect::Unknown`] on an event it
    /// does not know (a block there is kept, never dropped).
    pub fn block_effect(&self, event: &Event) -> BlockEffect {
        if self.knows(event) {
            (self.block_effect)(event)
        } else {
            BlockEffect::Unknown
        }
    }

    /// Whether the dialect knows `event`.
    pub fn knows(&self, event: &Event) -> bool {
        self.events.contains(event)
    }

    /// The handler type a configuration file names `name`, if this dialect parses it.
    pub fn handler_type(&self, name: &str) -> Option<HandlerType> {
        self.handler_types
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// Whether this dialect parses handlers of `handler_type`.
    pub fn parses(&self, handler_type: HandlerType) -> bool {
        self.handler_types.iter().any(|(_, t)| *t == handler_type)
    }

    /// Whether this dialect runs handlers of `handler_type` (it parses them and does not
    /// leave them unrun).
    pub fn runs(&self, handler_type: HandlerType) -> bool {
        self.parses(handler_type) && !self.parsed_never_run.contains(&handler_type)
    }

    /// The default timeout of a handler of `handler_type` on `event`, in seconds, and the most
    /// a handler's own `timeout` may raise it to (`None`: no bound).
    pub fn timeout_limits(&self, event: &Event, handler_type: HandlerType) -> (f64, Option<f64>) {
        (self.timeout_limits)(event, handler_type)
    }

    /// Whether `additionalContext` from a hook on `event` reaches the model.
    pub fn accepts_context(&self, event: &Event) -> bool {
        (self.accepts_context)(event)
    }

    /// What plain-text stdout is on `event`.
    pub fn plain_text(&self, event: &Event) -> PlainText {
        (self.plain_text)(event)
    }

    /// Whether `stdout` (trimmed) is read as JSON rather than as plain text.
    pub fn reads_as_json(&self, stdout: &[u8]) -> bool {
        stdout
            .first()
            .is_some_and(|first| self.json_starts.contains(first))
    }

    /// A tool's name as this dialect spells it: `tool_name("Bash")` is `bash` in wuu.
    pub fn tool_name<'n>(&self, canonical: &'n str) -> Cow<'n, str> {
        if self.lowercase_tool_names {
            Cow::Owned(canonical.to_lowercase())
        } else {
            Cow::Borrowed(canonical)
        }
    }

    /// A name as matchers compare it: lowercased where matching ignores case.
    pub fn match_name<'n>(&self, name: &'n str) -> Cow<'n, str> {
        match self.matcher_style {
            MatcherStyle::NameIgnoreCase => Cow::Owned(name.to_lowercase()),
            MatcherStyle::Regex => Cow::Borrowed(name),
        }
    }
}

/// The format of a dialect's configuration files.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigFormat {
    /// JSON (wuu `config.json`, verboo `settings.json`).
    Json,
    /// TOML (lime `config.toml`).
    Toml,
}

/// The agent a dialect is, as people name it ([`DialectRules::agent`]).
///
/// `#[non_exhaustive]`: a name an agent is known by may be added (an agent's other products,
/// a display form); only the dialect tables build one, consumers read its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct AgentNames {
    /// Its name in messages (`Claude Code`, `Codex CLI`, `Wuu`).
    pub title: &'static str,
    /// The names a command line takes for it (`hook --agent`), lowercase, the usual one first
    /// (`claude`, `claude-code`; `codex`; `wuu`). No two dialects share a name.
    pub names: &'static [&'static str],
}

/// The agent `hook relay` speaks for, and where its own settings are (what `hook relay
/// install` edits).
///
/// `#[non_exhaustive]`: fields are added as the relay learns what an agent does (it gained
/// `default_timeout` and `on_failure` in one round); only the dialect tables build one,
/// consumers read its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RelayAgent {
    /// Its name, for messages (`Claude Code`, `Codex CLI`).
    pub name: &'static str,
    /// The variable that replaces its home (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`).
    pub home_env: &'static str,
    /// Its home under `$HOME`, and its folder in a project (`.claude`, `.codex`).
    pub home_dir: &'static str,
    /// Its settings file in either (`settings.json`, `config.toml`).
    pub config_file: &'static str,
    /// Its settings file for one person in a project, beside the shared one, which it reads
    /// too and which is not committed (Claude Code's `settings.local.json`; Codex has none). A
    /// relay entry there starts the relay for that person alone.
    pub personal_config_file: Option<&'static str>,
    /// That file's format.
    pub config_format: ConfigFormat,
    /// The events it sends (lime: all but its own `SessionEnd` and `Interrupt`, which Codex
    /// does not have). `hook relay install` gives one of them a relay entry only where relay
    /// hooks are.
    pub events: &'static [Event],
    /// The event whose relay entry is installed whenever any relay hook exists, with no
    /// matcher, so the relay can tell the user at the start of every session which relay hooks
    /// are untrusted or unreached (`SessionStart`).
    pub session_event: &'static Event,
    /// The timeout, in seconds, the agent gives a command handler that sets none (600 s in
    /// both agents). `hook relay install` gives an entry the largest timeout in force of the
    /// relay hooks it waits for (each its own, else the dialect's default for its type and
    /// event, [`DialectRules::timeout_limits`]) plus a margin, and the margin alone where it
    /// waits for none: never this default for nothing.
    pub default_timeout: u64,
    /// Whether the agent reads `onFailure` on a command handler (Claude Code 2.1.332): the
    /// relay's entries on events that can block then carry `"onFailure": "block"`, so that a
    /// relay that crashes, is killed, times out or is missing blocks instead of letting the
    /// event through (agents before it ignore the field).
    pub on_failure: bool,
}

/// How handlers are written under an event.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfigLayout {
    /// Each entry is one handler with its own `matcher` (wuu).
    Flat,
    /// Each entry is a group `{matcher, hooks: [...]}` (verboo, lime).
    Grouped,
}

/// How a dialect's user file enables plugins.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PluginSettings {
    /// `plugins` tables, one per plugin with its folder (wuu, lime).
    Tables,
    /// `enabledPlugins` flags, `"name@marketplace": true` (verboo).
    EnabledFlags,
}

/// What a zero or negative `timeout` means.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NonPositiveTimeout {
    /// The default applies, with a warning (wuu).
    Default,
    /// One second applies, with a warning (lime, as Codex).
    OneSecond,
    /// The handler is invalid (verboo).
    Invalid,
}

/// How a matcher compares.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatcherStyle {
    /// A tool name, compared ignoring case (wuu).
    NameIgnoreCase,
    /// `|`-separated exact names, or else a regular expression (verboo, lime).
    Regex,
}

/// What a non-empty matcher does on an event that has nothing to match it against.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UntargetedMatcher {
    /// It is ignored: the handler runs (verboo, lime).
    Ignored,
    /// It never matches: the handler never runs (wuu).
    NeverMatches,
}

/// Whether the handlers of one event run one by one or together.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Concurrency {
    /// In order; a rewrite feeds the next handler, a block stops the rest (wuu).
    Serial,
    /// All at once, results combined (verboo, lime).
    Concurrent,
}

/// What a matcher is tested against on a known event that is not a tool event, in the dialects
/// whose matchers test more than tool names (verboo, lime).
fn named_match_target(event: &Event) -> MatchTarget {
    use Event as E;
    use MatchTarget as T;
    match event {
        E::SessionStart | E::ConfigChange | E::DirectoryAdded => T::Source,
        E::Setup | E::PreCompact | E::PostCompact => T::Trigger,
        E::InstructionsLoaded => T::LoadReason,
        E::UserPromptExpansion => T::CommandName,
        E::Notification => T::NotificationType,
        E::SubagentStart | E::SubagentStop => T::AgentType,
        E::StopFailure => T::ErrorKind,
        E::FileChanged => T::FileName,
        E::Elicitation | E::ElicitationResult => T::McpServerName,
        E::SessionEnd => T::EndReason,
        E::PreModelSwitch | E::PostModelSwitch => T::ToModel,
        _ => T::Nothing,
    }
}

#[cfg(test)]
mod tests;
