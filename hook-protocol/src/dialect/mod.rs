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
mod views;
mod wuu;

pub use reading::{ContinueFalse, FieldCase, PlainText};
pub use views::{AgentRules, ConfigRules, HandlerRules, InputRules, MatchingRules, OutputRules};

#[cfg(feature = "schema")]
pub(crate) use lime::output_schema_rules as lime_output_schema_rules;

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
    /// assert_eq!(lime.output().context_limit(), Some(10_000));
    /// assert!(!Dialect::Wuu.rules().output().accepts_context(&Event::UserPromptSubmit));
    /// assert_eq!(Dialect::Wuu.rules().matching().tool_name("Bash"), "bash");
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

    /// The dialect whose agent goes by `name` ([`AgentRules::names`]: `claude`, `claude-code`,
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
                .names()
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
/// Each field is one rule, stated once for each dialect in its own file (the fields are
/// private). A few say what the dialect is, read here: [`dialect`](Self::dialect),
/// [`events`](Self::events), [`knows`](Self::knows). The others are grouped in views, each
/// read through the method of the rule's name on the view:
///
/// - [`agent`](Self::agent) ([`AgentRules`]): the agent's names, the agent `hook relay` speaks
///   for, its model hooks;
/// - [`config`](Self::config) ([`ConfigRules`]): its files, their format and layout, trust
///   layers;
/// - [`handlers`](Self::handlers) ([`HandlerRules`]): handler types, fields, timeouts, how they
///   run together;
/// - [`matching`](Self::matching) ([`MatchingRules`]): matchers and tool names;
/// - [`input`](Self::input) ([`InputRules`]): the common input fields and a hook's environment;
/// - [`output`](Self::output) ([`OutputRules`]): reading a hook's output, blocks, context,
///   stops.
///
/// ```
/// use hook_protocol::{Dialect, Event};
///
/// let rules = Dialect::Verboo.rules();
/// assert_eq!(rules.config().home_dir(), ".claude");
/// assert_eq!(rules.agent().title(), "Claude Code");
/// assert!(rules.output().accepts_context(&Event::UserPromptSubmit));
/// ```
///
/// The rules are read by the crates of this workspace (configuration reading, matching, the
/// engine, the trust hash, the SDK, the CLI) and by embedders who want the same answers;
/// nothing else in the workspace decides by naming a dialect.
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
    /// The dialect these rules are for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The events the dialect knows, in the order its documentation lists them.
    pub fn events(&self) -> &'static [Event] {
        self.events
    }

    /// Whether the dialect knows `event`.
    pub fn knows(&self, event: &Event) -> bool {
        self.events.contains(event)
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

/// The agent a dialect is, as people name it (read through [`DialectRules::agent`]:
/// [`AgentRules::title`], [`AgentRules::names`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AgentNames {
    /// Its name in messages (`Claude Code`, `Codex CLI`, `Wuu`).
    pub(crate) title: &'static str,
    /// The names a command line takes for it (`hook --agent`), lowercase, the usual one first
    /// (`claude`, `claude-code`; `codex`; `wuu`). No two dialects share a name.
    pub(crate) names: &'static [&'static str],
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
    /// event, [`HandlerRules::timeout_limits`]) plus a margin, and the margin alone where it
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
