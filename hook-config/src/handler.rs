//! A configured handler and the fields it was written with.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hook_protocol::{Dialect, Event, HandlerType, Source};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::diagnostic::Pos;

/// The fields of one handler exactly as configured (before defaults), in the names of the
/// configuration files (`commandWindows`, `statusMessage`, ...) when serialized.
///
/// Every field that changes what runs or what it may do is here, so `hook-trust` can hash it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HandlerConfig {
    /// The handler's type (`command` when a wuu entry omits it).
    #[serde(rename = "type")]
    pub handler_type: HandlerType,
    /// Shell command of a `command` handler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// lime: the command to run on Windows instead of `command`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_windows: Option<String>,
    /// verboo: arguments of a command handler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// verboo: `bash` or `powershell`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,
    /// The timeout in seconds as written; see [`Handler::timeout`] for the one in force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Runs in the background; can never block, approve or rewrite.
    #[serde(rename = "async", skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    /// verboo: an async hook that may wake the agent when it finishes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub async_rewake: bool,
    /// verboo prompt hooks: keep going after a block.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub continue_on_block: bool,
    /// Text the agent shows while the hook runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// verboo `command`, `http` and `mcp_tool`: what a failure of the hook does (`onFailure`);
    /// `None` when not written, which is [`OnFailure::Continue`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_failure: Option<OnFailure>,
    /// lime: maximum characters of additional context (0 turns the limit off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_context_limit: Option<u64>,
    /// verboo: the `if` permission-rule filter.
    #[serde(rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// verboo `http`: the URL the event JSON is POSTed to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// verboo `http`: extra request headers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,
    /// verboo `http`: environment variables that may be expanded in headers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_env_vars: Option<Vec<String>>,
    /// `prompt`/`agent`: the prompt template (`$ARGUMENTS` is the event JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// `prompt`/`agent`: the model to ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `mcp_tool`: the MCP server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// `mcp_tool`: the tool of that server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// `mcp_tool`: the tool's arguments (templates expanded at run time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// `native`: the shared library built with `hook-sdk`, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
}

/// What a failure of a hook does (`onFailure`, Claude Code 2.1.332's field on `command`,
/// `http` and `mcp_tool` handlers).
///
/// A failure is a hook that could not start (a missing script, a missing program, an
/// unreachable URL or MCP server), timed out, exited with a code other than 0 or 2, or printed
/// JSON the event's output refuses. With [`OnFailure::Block`] such a run counts as exit 2: the
/// action the event guards is blocked, with the failure as the reason. It does not apply to
/// async hooks, nor on `Stop`, `SubagentStop`, `TaskCompleted` and `TeammateIdle` (where a
/// block keeps the agent working), nor on events that cannot block. The engine adds cases
/// Claude Code cannot have: a hook skipped for any reason that is not deliberate (not trusted,
/// changed since it was trusted, no client for its type, a type the dialect does not run:
/// `hook_protocol::SkipReason::is_deliberate`) is a failure too (a guard that must never fail
/// open does not run untrusted code either: it blocks and says what to trust); a handler that
/// cannot be read keeps the `onFailure` it asked for
/// ([`Broken::on_failure`](crate::Broken::on_failure)), so the typo that broke it does not also
/// turn it off; and it is honoured on every handler type, not only `command`, `http` and
/// `mcp_tool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum OnFailure {
    /// The failure is reported and the action goes ahead (the default).
    Continue,
    /// The failure blocks the action, as exit 2 would.
    Block,
}

impl OnFailure {
    /// The events on which `onFailure` is ignored: a block there keeps the agent working
    /// instead of stopping it, so a failing hook would never let it stop.
    pub const IGNORED_ON: &'static [Event] = &[
        Event::Stop,
        Event::SubagentStop,
        Event::TaskCompleted,
        Event::TeammateIdle,
    ];
}

impl HandlerConfig {
    /// An empty configuration of `handler_type`.
    pub fn new(handler_type: HandlerType) -> Self {
        HandlerConfig {
            handler_type,
            command: None,
            command_windows: None,
            args: None,
            shell: None,
            timeout: None,
            is_async: false,
            async_rewake: false,
            continue_on_block: false,
            status_message: None,
            on_failure: None,
            additional_context_limit: None,
            condition: None,
            url: None,
            headers: None,
            allowed_env_vars: None,
            prompt: None,
            model: None,
            server: None,
            tool: None,
            input: None,
            library: None,
        }
    }

    /// What the handler runs, for listings: the command, URL, prompt, `server/tool` or library.
    pub fn summary(&self) -> String {
        match self.handler_type {
            HandlerType::Command => self
                .command
                .clone()
                .or_else(|| self.command_windows.clone()),
            HandlerType::Http => self.url.clone(),
            HandlerType::Prompt | HandlerType::Agent => self.prompt.clone(),
            HandlerType::McpTool => Some(format!(
                "{}/{}",
                self.server.as_deref().unwrap_or(""),
                self.tool.as_deref().unwrap_or("")
            )),
            HandlerType::Native => self.library.clone(),
        }
        .unwrap_or_default()
    }

    /// What makes two verboo handlers "identical" (they then run once): the type and what it
    /// runs, with `${PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_ROOT}` expanded to `plugin_root` first,
    /// so two plugins' `${CLAUDE_PLUGIN_ROOT}/run.sh` are two different hooks. Command hooks are
    /// compared by command (and shell, args), HTTP hooks by URL, prompt and agent hooks by
    /// prompt and model, MCP hooks by server, tool and input, native hooks by library; and in
    /// every type by what else changes what runs: `if`, `timeout`, `async` and `asyncRewake`.
    /// Anthropic's `security-guidance` plugin has two handlers with one command and the `if`s
    /// `Bash(git commit:*)` and `Bash(git push:*)`: both must stay, each runs when its rule
    /// matches.
    pub(crate) fn identity(&self, plugin_root: Option<&std::path::Path>) -> String {
        use std::borrow::Cow;
        // Serialized straight from borrowed fields (no intermediate `Value`): it is computed
        // for every handler a verboo configuration loads.
        fn expand<'a>(
            text: &'a Option<String>,
            plugin_root: Option<&std::path::Path>,
        ) -> Option<Cow<'a, str>> {
            let text = text.as_deref()?;
            Some(match plugin_root {
                Some(root) => Cow::Owned(expand_plugin_root(text, root)),
                None => Cow::Borrowed(text),
            })
        }
        let args: Option<Vec<Cow<'_, str>>> = self.args.as_ref().map(|args| {
            args.iter()
                .map(|a| match plugin_root {
                    Some(root) => Cow::Owned(expand_plugin_root(a, root)),
                    None => Cow::Borrowed(a.as_str()),
                })
                .collect()
        });
        let rest = (
            &self.condition,
            self.timeout,
            self.is_async,
            self.async_rewake,
        );
        let written = match self.handler_type {
            HandlerType::Command => serde_json::to_string(&(
                (
                    "command",
                    expand(&self.command, plugin_root),
                    expand(&self.command_windows, plugin_root),
                    &self.shell,
                    args,
                ),
                rest,
            )),
            HandlerType::Http => serde_json::to_string(&(("http", &self.url), rest)),
            HandlerType::Prompt => {
                serde_json::to_string(&(("prompt", &self.prompt, &self.model), rest))
            }
            HandlerType::Agent => {
                serde_json::to_string(&(("agent", &self.prompt, &self.model), rest))
            }
            HandlerType::McpTool => {
                serde_json::to_string(&(("mcp_tool", &self.server, &self.tool, &self.input), rest))
            }
            HandlerType::Native => {
                serde_json::to_string(&(("native", expand(&self.library, plugin_root)), rest))
            }
        };
        written.expect("strings, numbers, booleans and JSON values always serialize")
    }
}

/// `text` with `${PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_ROOT}` replaced by `root`.
fn expand_plugin_root(text: &str, root: &std::path::Path) -> String {
    let root = root.display().to_string();
    text.replace("${PLUGIN_ROOT}", &root)
        .replace("${CLAUDE_PLUGIN_ROOT}", &root)
}

/// Why a loaded handler is listed but never runs (verboo's switches; see the crate docs,
/// "Matching"). The engine reports such a handler in `runs` as `skipped: disabled_by_settings`
/// with this as its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "by")]
#[non_exhaustive]
pub enum Suppression {
    /// verboo `disableAllHooks: true` in this file.
    DisableAllHooks {
        /// The settings file that set it.
        path: String,
    },
    /// verboo `allowManagedHooksOnly: true` in the managed settings.
    AllowManagedHooksOnly {
        /// The managed settings file.
        path: String,
    },
}

impl std::fmt::Display for Suppression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Suppression::DisableAllHooks { path } => write!(
                f,
                "turned off by `disableAllHooks: true` in {path}: remove it or set it to false there to run this hook"
            ),
            Suppression::AllowManagedHooksOnly { path } => write!(
                f,
                "turned off by `allowManagedHooksOnly: true` in the managed settings {path}: only your administrator can change it"
            ),
        }
    }
}

/// One handler of the merged configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Handler {
    /// The stable key: `<layer>:<file or plugin or session name>:<event>:<matcher>:<n>` (see
    /// the crate docs).
    pub key: String,
    /// The event it handles.
    pub event: Event,
    /// The matcher as written (`None` when absent).
    pub matcher: Option<String>,
    /// The handler's fields as written.
    pub config: HandlerConfig,
    /// The timeout in force: the dialect's default when none is written, capped by the event's
    /// maximum.
    #[serde(serialize_with = "as_secs")]
    pub timeout: Duration,
    /// Where it was configured.
    pub source: Source,
    /// Where in that file the handler starts, when it came from a file.
    pub position: Option<Pos>,
    /// The plugin folder, for plugin handlers: `${PLUGIN_ROOT}` and the `PLUGIN_ROOT`
    /// environment variable.
    pub plugin_root: Option<PathBuf>,
    /// `native` handlers: the library's absolute path, resolved once at load
    /// ([`resolve_library`]); what `hook-trust` hashes and `hook-exec` loads, whatever the
    /// event's `cwd`. `None` for other types.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library_path: Option<PathBuf>,
    /// verboo: identical handlers of later files that were collapsed into this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duplicates: Vec<Source>,
    /// Set when a verboo setting keeps this handler from running: [`Registry::select`] never
    /// returns it; [`Registry::select_including_suppressed`] does, so the engine can report it.
    ///
    /// [`Registry::select`]: crate::Registry::select
    /// [`Registry::select_including_suppressed`]: crate::Registry::select_including_suppressed
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<Suppression>,
}

fn as_secs<S: Serializer>(timeout: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(timeout.as_secs_f64())
}

impl Handler {
    /// The native library this handler loads: [`Handler::library_path`], resolved at load;
    /// for a handler built by hand without it, [`crate::resolve_library`] against its file,
    /// its plugin folder or `base`. `None` when it names no library.
    pub fn library(&self, base: &Path) -> Option<PathBuf> {
        if let Some(path) = &self.library_path {
            return Some(path.clone());
        }
        crate::resolve_library(
            &self.config,
            self.source.path.as_deref().map(Path::new),
            self.plugin_root.as_deref(),
            base,
        )
    }

    /// The command with `${PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin
    /// folder, as text; the command as written for non-plugin handlers. For showing what runs:
    /// `hook-exec` runs the command as written on Unix and gives the folder through the
    /// environment, so a folder's name never becomes shell syntax.
    pub fn expanded_command(&self) -> Option<String> {
        let command = self.config.command.as_ref()?;
        Some(match &self.plugin_root {
            Some(root) => expand_plugin_root(command, root),
            None => command.clone(),
        })
    }
}

/// Where a native handler's `library` is, resolved once at load (its trust hash covers the
/// file there): `${PLUGIN_ROOT}` (and `${CLAUDE_PLUGIN_ROOT}`) expanded to the plugin folder; a
/// relative path joined to the plugin folder for plugin handlers, else to the folder of the
/// file that declares it (`declared_in`), else (session hooks, which have no file) to
/// `fallback_dir`, the project directory; then made absolute against the current directory
/// (no symbolic link is resolved: the file is opened, hashed and loaded from this path).
///
/// So a project's `"library": "lib/hook.so"` in `<project>/.claude/settings.json` is
/// `<project>/.claude/lib/hook.so`; earlier versions resolved it against the event's `cwd`
/// when loading and against the project directory when hashing, so what was reviewed and what
/// ran could differ.
///
/// ```
/// # use std::path::Path;
/// # use hook_config::{HandlerConfig, resolve_library};
/// # use hook_protocol::HandlerType;
/// let mut config = HandlerConfig::new(HandlerType::Native);
/// config.library = Some("lib/hook.so".to_owned());
/// let declared = Path::new("/work/app/.claude/settings.json");
/// assert_eq!(
///     resolve_library(&config, Some(declared), None, Path::new("/work/app")),
///     Some(Path::new("/work/app/.claude/lib/hook.so").to_path_buf())
/// );
/// ```
pub fn resolve_library(
    config: &HandlerConfig,
    declared_in: Option<&Path>,
    plugin_root: Option<&Path>,
    fallback_dir: &Path,
) -> Option<PathBuf> {
    if config.handler_type != HandlerType::Native {
        return None;
    }
    let written = config.library.as_deref()?;
    let expanded = match plugin_root {
        Some(root) => {
            let root = root.display().to_string();
            written
                .replace("${PLUGIN_ROOT}", &root)
                .replace("${CLAUDE_PLUGIN_ROOT}", &root)
        }
        None => written.to_owned(),
    };
    let path = Path::new(&expanded);
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        let base = plugin_root
            .or_else(|| declared_in.and_then(Path::parent))
            .unwrap_or(fallback_dir);
        base.join(path)
    };
    Some(std::path::absolute(&joined).unwrap_or(joined))
}

/// Default and maximum timeouts (seconds) of a handler type on an event, per dialect: the
/// dialect's [`HandlerRules::timeout_limits`](hook_protocol::HandlerRules::timeout_limits).
///
/// - wuu: 30 s for every handler; a non-positive value means the default; no maximum.
/// - verboo: command, http, mcp_tool and native 600 s, prompt 30 s, agent 60 s; no maximum.
/// - lime: 600 s; `SessionEnd` 1 s, at most 3 s; `Interrupt` 5 s, at most 10 s (the seed only
///   says "a short bound").
pub fn timeout_limits(
    dialect: Dialect,
    event: &Event,
    handler_type: HandlerType,
) -> (f64, Option<f64>) {
    dialect
        .rules()
        .handlers()
        .timeout_limits(event, handler_type)
}
