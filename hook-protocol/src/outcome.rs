//! The one result of dispatching one event: [`Outcome`].
//!
//! The same struct is returned by the Rust API and printed by `hook run`; its schema is
//! `hook-protocol/schemas/outcome.schema.json`.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Dialect, Event, text};

/// The combined decision of every hook that ran for an event.
///
/// Closed on purpose (not `#[non_exhaustive]`): the five outcomes; an agent must handle
/// each, and a new one would change what the agent does, so it should not compile unnoticed.
// The variants' order is how restrictive each is (`Continue < Allow < Ask < Defer < Block`):
// combining hooks keeps the greatest (`Ord`), so it is part of the contract. (A comment, not
// doc: the doc is copied into the committed outcome schema.)
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// No hook decided anything: the agent carries on as it would have.
    #[default]
    Continue,
    /// A hook allowed the action (a permission decision; never wider than the agent's own rules).
    Allow,
    /// A hook asked for the user to confirm.
    Ask,
    /// A hook deferred the call (verboo `PreToolUse`): it neither runs nor is refused; the agent
    /// pauses there for its host to decide later (Claude Code 2.1 in `-p` mode ends the run with
    /// the call pending).
    Defer,
    /// A hook blocked (or denied) the action.
    Block,
}

/// Which configuration layer a handler came from.
///
/// Closed on purpose (not `#[non_exhaustive]`): trust and switch rules are decided per layer,
/// so a new layer must be handled everywhere it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// Managed by an administrator; never needs trust.
    Managed,
    /// The user's own configuration.
    User,
    /// The project's shared configuration.
    Project,
    /// The project's personal, uncommitted configuration (verboo `settings.local.json`).
    Local,
    /// An enabled plugin's `hooks/hooks.json`.
    Plugin,
    /// Added by the embedding agent for this session only.
    Session,
}

/// The plugin a handler came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PluginRef {
    /// The plugin's name, from its `plugin.json`.
    pub name: String,
    /// The plugin's semver version, from its `plugin.json`.
    pub version: String,
}

/// Where a handler was configured.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Source {
    /// The configuration layer.
    pub layer: Layer,
    /// The file the handler was read from; `None` for handlers added through the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The plugin, for the plugin layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<PluginRef>,
}

impl Layer {
    /// The lowercase name, as in the outcome's JSON and in keys (`user`, `project`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Managed => "managed",
            Layer::User => "user",
            Layer::Project => "project",
            Layer::Local => "local",
            Layer::Plugin => "plugin",
            Layer::Session => "session",
        }
    }
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Source {
    /// A source in `layer` with no file and no plugin.
    pub fn new(layer: Layer) -> Self {
        Source {
            layer,
            path: None,
            plugin: None,
        }
    }

    /// This source, read from the file at `path`.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// This source, from `plugin`.
    pub fn with_plugin(mut self, plugin: PluginRef) -> Self {
        self.plugin = Some(plugin);
        self
    }
}

impl PluginRef {
    /// The plugin `name` at `version`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        PluginRef {
            name: name.into(),
            version: version.into(),
        }
    }
}

/// The kind of a handler.
///
/// Closed on purpose (not `#[non_exhaustive]`), reconsidered for the vendor boundary (issue 26)
/// and kept closed:
///
/// - every code that matches it decides something per kind: the engine's runner, the trust
///   identity hashed for it, whether it can run async, how a dialect reads it. A wildcard arm
///   there would run or trust a new kind by a rule written for another; a closed enum makes
///   each of those places (in this workspace and in an embedder that matches it) fail to
///   compile until it decides;
/// - a new kind is never a silent addition: it arrives with new agent behaviour (a new
///   configuration shape, a new runner), so it is released as a breaking version (a new
///   `0.x` minor now, a major after 1.0), listed in `CHANGELOG.md`;
/// - an embedder that only shows a handler's kind needs no `match`: [`HandlerType::as_str`]
///   and `Display` give its configuration name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
// The schema keeps the short description: the reasoning above is about Rust matches.
#[cfg_attr(
    feature = "schema",
    schemars(
        description = "The kind of a handler.\n\nClosed on purpose (not `#[non_exhaustive]`): each kind needs its own runner and trust\nidentity, so a new one must not compile unnoticed."
    )
)]
#[serde(rename_all = "snake_case")]
pub enum HandlerType {
    /// A shell command.
    Command,
    /// An HTTP POST of the event JSON (verboo).
    Http,
    /// A model asked a yes/no question (verboo, wuu).
    Prompt,
    /// A verifier agent (verboo).
    Agent,
    /// A tool of an already connected MCP server (lime, verboo).
    McpTool,
    /// An in-process plugin built with `hook-sdk` (this project's extension).
    Native,
}

impl HandlerType {
    /// The name used in configuration files and the outcome (`command`, `mcp_tool`...).
    pub fn as_str(self) -> &'static str {
        match self {
            HandlerType::Command => "command",
            HandlerType::Http => "http",
            HandlerType::Prompt => "prompt",
            HandlerType::Agent => "agent",
            HandlerType::McpTool => "mcp_tool",
            HandlerType::Native => "native",
        }
    }
}

impl std::fmt::Display for HandlerType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What happened to one matching handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RunStatus {
    /// It ran and its output was used (it may have allowed, asked, added context...).
    Ok,
    /// It ran and blocked.
    Blocked,
    /// It ran and returned `continue: false`, and the dialect obeyed it (verboo, lime; wuu
    /// reads `continue: false` as a block, so its runs are `blocked`). Whatever else the output
    /// said, this is its status, as Codex reports such a run (`Stopped`) even where the stop
    /// is only feedback: a lime `PostToolUse` `continue: false` gives the model its reason in
    /// place of the tool's output and the turn goes on (the outcome's `decision` is `block`,
    /// `stop` false). On an event where the dialect ignores it (lime `SubagentStart`) or
    /// refuses it (lime `PreToolUse`, `PermissionRequest`: a failed run) it is not `stopped`.
    Stopped,
    /// It ran and failed, or its output could not be used; it made no decision.
    Failed,
    /// It ran out of time and was killed; it made no decision.
    TimedOut,
    /// It did not run; `skip_reason` says why.
    Skipped,
    /// It was started in the background; its result is delivered later.
    Async,
}

/// Why a matching handler did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SkipReason {
    /// It needs trust and has never been trusted.
    Untrusted,
    /// It was trusted, then changed.
    Modified,
    /// It is disabled.
    Disabled,
    /// The dialect does not run this handler type.
    Unsupported,
    /// It needs a model or MCP client and the embedder supplied none.
    NoClient,
    /// An earlier handler of a wuu chain blocked or failed, so the chain stopped.
    ChainStopped,
    /// A settings switch turned it off: verboo `disableAllHooks` (managed or user settings for
    /// every layer they cover, project or local settings for the project's own hooks only) or
    /// the managed `allowManagedHooksOnly`. The run's `error` names the switch and its file.
    DisabledBySettings,
    /// Its configuration is broken (an invalid matcher, a bad timeout, a blank command...): it
    /// was left out while every other handler ran. The run's `error` says what is wrong and
    /// where (file:line:col), and `hook run` prints the same diagnostic.
    Invalid,
}

impl SkipReason {
    /// Whether the hook was left out on purpose: the user disabled it, a settings switch
    /// turned it off, or an earlier hook of a wuu chain already stopped the chain. Every other
    /// reason — untrusted, modified, unsupported here, no client for its type, invalid, and any
    /// reason a later version adds — is a hook that could not do its job: for a guard, a
    /// failure (`onFailure: "block"` blocks on it; the relay names it).
    pub fn is_deliberate(self) -> bool {
        matches!(
            self,
            SkipReason::Disabled | SkipReason::DisabledBySettings | SkipReason::ChainStopped
        )
    }
}

/// One matching handler's part in an outcome.
///
/// `#[non_exhaustive]`: fields may be added; build one with [`Run::new`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Run {
    /// The handler's stable key (see the trust store).
    pub key: String,
    /// Where the handler was configured.
    pub source: Source,
    /// The handler's type.
    #[serde(rename = "type")]
    pub handler_type: HandlerType,
    /// What happened.
    pub status: RunStatus,
    /// Why it did not run, when `status` is `skipped`.
    pub skip_reason: Option<SkipReason>,
    /// The process exit code, for command handlers that exited.
    pub exit_code: Option<i32>,
    /// Wall time of the run in milliseconds; `None` when it did not run.
    pub duration_ms: Option<u64>,
    /// What went wrong, for `failed` and `timed_out`, or the reason of a skip.
    pub error: Option<String>,
    /// Output fields the hook gave that have no effect on this event (never dropped silently).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What the handler printed on stderr, cut to its first and last bytes
    /// ([`Run::set_stderr`]); `None` when it printed nothing there (or did not run). Kept because
    /// a failed or timed-out hook's stderr is usually the only word on why (the journal and
    /// `hook log` show it); it is diagnostics, never a decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// The command handler was answered in the engine's own process, by its embedder, instead
    /// of a spawned process (absent when false): the `hook` command's ready-made guards
    /// (`hook guard run NAME`) in `hook relay` and `hook run`. Its exit code, stderr and
    /// duration are those of that answer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_process: bool,
}

/// `stderr` cut for [`Run::stderr`] ([`Run::set_stderr`]): whole when it fits in 2 ×
/// [`Run::STDERR_EXCERPT_BYTES`], otherwise its first and last [`Run::STDERR_EXCERPT_BYTES`]
/// bytes around a note of how many were left out (cut on character boundaries, invalid UTF-8
/// replaced); `None` when it is empty or only whitespace.
fn stderr_excerpt(stderr: &[u8]) -> Option<String> {
    if stderr.trim_ascii().is_empty() {
        return None;
    }
    let keep = Run::STDERR_EXCERPT_BYTES;
    if stderr.len() <= 2 * keep {
        return Some(String::from_utf8_lossy(stderr).into_owned());
    }
    let head = String::from_utf8_lossy(&stderr[..keep]);
    let tail = String::from_utf8_lossy(&stderr[stderr.len() - keep..]);
    // A character cut in two at either end is one U+FFFD: drop it.
    let head = head.trim_end_matches('\u{fffd}');
    let tail = tail.trim_start_matches('\u{fffd}');
    Some(format!(
        "{head}\n[... {} bytes omitted ...]\n{tail}",
        stderr.len() - 2 * keep
    ))
}

/// The context one hook added (an entry of [`Outcome::additional_contexts`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HookContext {
    /// The key of the hook that added it (as in its `runs` entry).
    pub key: String,
    /// The text.
    pub text: String,
}

impl HookContext {
    /// The context `text` added by hook `key`.
    pub fn new(key: impl Into<String>, text: impl Into<String>) -> Self {
        HookContext {
            key: key.into(),
            text: text.into(),
        }
    }
}

/// The result of dispatching one event through every matching hook.
///
/// `#[non_exhaustive]`: fields may be added (as `session_env` was); start from
/// [`Outcome::new`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Outcome {
    /// The dialect whose rules combined the results.
    pub dialect: Dialect,
    /// The event dispatched.
    pub event: Event,
    /// The combined decision; a deny is a `block`.
    pub decision: Decision,
    /// Why, for a block or a permission decision; `None` otherwise.
    pub reason: Option<String>,
    /// The rewritten tool input, or `None`.
    ///
    /// A rewrite is not an authorization: the agent must run its own permission check on the
    /// rewritten input again. A hook never widens what the agent may do.
    pub updated_input: Option<Value>,
    /// All context for the model, joined by a blank line, or `None`.
    ///
    /// On a `UserPromptSubmit` that drops the prompt (a block, or `stop`) it is context for the
    /// session's next turn: lime keeps it there, as Codex does; verboo drops it, as Claude Code
    /// does ([`OutputRules::dropped_prompt_keeps_context`](crate::OutputRules::dropped_prompt_keeps_context)).
    pub additional_context: Option<String>,
    /// The same context hook by hook, in configuration order: what a front end shows to say
    /// which hook added what. Each text is the one joined into
    /// [`additional_context`](Self::additional_context) (after the dialect's per-hook limit);
    /// empty when no hook added context, or when the context was dropped (a dropped prompt in
    /// verboo).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_contexts: Vec<HookContext>,
    /// A hook asked the agent to stop (`continue: false`).
    ///
    /// It ends the agent's turn; it does not decide a pending tool call, `decision` does. On
    /// verboo `PreToolUse`, Claude Code 2.1 runs the call as `decision` says and then stops.
    pub stop: bool,
    /// Why the agent should stop, when `stop` is set.
    pub stop_reason: Option<String>,
    /// Messages for the user.
    pub system_messages: Vec<String>,
    /// verboo: the shell text hooks appended to `CLAUDE_ENV_FILE` (`export NAME=value` lines),
    /// for the agent to source before each later Bash command of the session, as Claude Code
    /// does; `None` when no hook wrote any.
    #[serde(default)]
    pub session_env: Option<String>,
    /// verboo `PostToolUse`: context for the agent's automatic permission classifier, every
    /// hook's joined by a blank line and cut to [`CLASSIFIER_CONTEXT_LIMIT`] UTF-16 code units
    /// (Claude Code 2.1.332's shared budget); synchronous hooks only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classifier_context: Option<String>,
    /// verboo prompt events: a hook asked that a block's message leave the original prompt
    /// out (`suppressOriginalPrompt`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suppress_original_prompt: bool,
    /// verboo: output fields the engine carries to the agent without acting on them, by their
    /// name in the output (`terminalSequence`, `sessionTitle`, `initialUserMessage`,
    /// `reloadSkills`, `watchPaths`, `displayContent`, `retry`, `worktreePath`,
    /// `updatedToolOutput`, `permissionDisplay`): the last hook in configuration order that
    /// gave one wins, but `watchPaths`, whose lists are joined.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub carried: std::collections::BTreeMap<String, Value>,
    /// One entry per matching handler, in configuration order.
    pub runs: Vec<Run>,
}

impl Run {
    /// How many bytes of the start, and of the end, of a handler's stderr [`Run::stderr`] keeps.
    pub const STDERR_EXCERPT_BYTES: usize = 512;

    /// The program its `stderr` says was missing ([`text::missing_program`]): a run that may
    /// have answered without doing its job.
    pub fn missing_program(&self) -> Option<&str> {
        self.stderr.as_deref().and_then(text::missing_program)
    }

    /// Keeps what the handler printed on stderr in [`stderr`](Self::stderr), cut: whole when it
    /// fits in 2 × [`STDERR_EXCERPT_BYTES`](Self::STDERR_EXCERPT_BYTES), otherwise its first and
    /// last that many bytes around a note of how many were left out (cut on character
    /// boundaries, invalid UTF-8 replaced); `None` when it is empty or only whitespace.
    pub fn set_stderr(&mut self, stderr: &[u8]) {
        self.stderr = stderr_excerpt(stderr);
    }

    /// The entry of handler `key` from `source`: `ok`, with nothing else set yet.
    pub fn new(key: impl Into<String>, source: Source, handler_type: HandlerType) -> Self {
        Run {
            key: key.into(),
            source,
            handler_type,
            status: RunStatus::Ok,
            skip_reason: None,
            exit_code: None,
            duration_ms: None,
            error: None,
            warnings: Vec::new(),
            stderr: None,
            in_process: false,
        }
    }
}

impl Outcome {
    /// The outcome of an event no hook matched: continue, nothing else.
    pub fn new(dialect: Dialect, event: Event) -> Self {
        Outcome {
            dialect,
            event,
            decision: Decision::Continue,
            reason: None,
            updated_input: None,
            additional_context: None,
            additional_contexts: Vec::new(),
            stop: false,
            stop_reason: None,
            system_messages: Vec::new(),
            session_env: None,
            classifier_context: None,
            suppress_original_prompt: false,
            carried: std::collections::BTreeMap::new(),
            runs: Vec::new(),
        }
    }
}

/// The most UTF-16 code units of [`Outcome::classifier_context`]: Claude Code 2.1.332's budget,
/// shared by every hook of one tool call.
pub const CLASSIFIER_CONTEXT_LIMIT: usize = 2000;
