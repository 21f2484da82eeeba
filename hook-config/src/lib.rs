//! Discovery, parsing and merging of hook configuration for wuu, verboo and lime.
//!
//! **Owns**: finding each dialect's configuration files (managed, user, project, local,
//! plugins, session), parsing them (JSON, TOML, plugin `hooks.json`) into [`Handler`]s that
//! keep their [`Source`](hook_protocol::Source) and a stable key, merging the layers in a
//! defined order, compiling matchers and verboo `if` rules once, and selecting the handlers of
//! an event quickly ([`Registry::select`]).
//!
//! **Never**: spawns a process, talks to the network, prints anything, or decides whether a
//! hook may run (trust and disabled state are `hook-trust`'s) or what its output means
//! (`hook-protocol`'s). Problems are returned as [`Diagnostic`]s for the caller to show.
//!
//! # Example
//!
//! ```
//! use hook_config::{Environment, LoadOptions, load};
//! use hook_protocol::{Dialect, Event};
//!
//! let home = tempfile::tempdir()?;
//! std::fs::write(
//!     home.path().join("settings.json"),
//!     r#"{"model": "kept, never read",
//!         "hooks": {"PreToolUse": [{"matcher": "Write|Edit",
//!             "hooks": [{"type": "command", "command": "./lint.sh"}]}]}}"#,
//! )?;
//! let options = LoadOptions::new(Dialect::Verboo, Environment::empty()).with_home(home.path());
//! let loaded = load(&options)?;
//! assert!(loaded.diagnostics.is_empty());
//!
//! let selected: Vec<_> = loaded.registry.select(&Event::PreToolUse, Some("Edit"), None).collect();
//! assert_eq!(selected.len(), 1);
//! assert_eq!(selected[0].config.command.as_deref(), Some("./lint.sh"));
//! assert_eq!(selected[0].timeout.as_secs(), 600);
//! // The user file is named relative to the home in keys (see "Keys").
//! assert_eq!(selected[0].key, "user:settings.json:PreToolUse:Write|Edit:0");
//! assert!(loaded.registry.select(&Event::PreToolUse, Some("Read"), None).next().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Files and layers
//!
//! [`discover`] lists each dialect's files (its [`DialectRules`](hook_protocol::DialectRules)) from an explicit [`Environment`]
//! (build it with [`Environment::from_process`]; tests build their own, so nothing mutates the
//! process environment). A missing file is an empty layer. The managed layer comes only from
//! its fixed system path ([`ConfigRules::managed_path`](hook_protocol::ConfigRules::managed_path)), honoured only when
//! owned by root and not group- or world-writable, in a folder that is too (otherwise an
//! error names the file and the fix, and the layer is not loaded); the environment never
//! chooses it. Embedders and tests name another file with [`LoadOptions::with_managed_file`]
//! (it and its folder owned by root or by the effective user, not group- or world-writable)
//! or drop it with
//! [`LoadOptions::without_managed`]. Handlers accumulate in this order:
//! managed, user, project, local, plugin, session; within a file in file order (events in the
//! order written, `preserve_order` for TOML).
//!
//! lime also reads a `hooks.json` (the plugin `hooks.json` shape: JSON, only `hooks`) beside
//! `config.toml` in the user and project layers, before it, as Codex does
//! ([`ConfigRules::hooks_file`](hook_protocol::ConfigRules::hooks_file)); when both files of a layer
//! have hooks, both load and a warning names them. Its keys name it (`user:hooks.json:...`,
//! `project:<path>/hooks.json:...`), so its hooks are trusted apart from the TOML's.
//!
//! Plugins: only the **user** file enables them (wuu `plugins.<name>.enabled`, verboo
//! `enabledPlugins.<name>`, lime `[plugins.<name>] enabled`), in the order it lists them. The
//! plugin is `<home>/plugins/<name>/`: `plugin.json` must have a `name` and a semver `version`
//! or the plugin is reported and skipped; `hooks/hooks.json` (missing: no hooks) is the
//! dialect's own shape in JSON. [`Handler::expanded_command`] replaces `${PLUGIN_ROOT}`.
//! A plugin is identified by its **folder**: the name enabled in the user
//! file and `plugin.json`'s `name` must both be that folder's name, made of `[A-Za-z0-9._-]`
//! only (not `.` or `..`); anything else is an error naming the file, and that plugin is not
//! loaded. So a name can never reach outside `<home>/plugins/` or inject text into a key, and
//! a manifest copied into another folder never takes the first plugin's keys or trust hashes
//! (which use the folder name and the version).
//!
//! Session hooks come from [`LoadOptions::session`], JSON in the dialect's shape.
//!
//! # State
//!
//! [`Discovery::state_dir`] is the one answer to "where does the engine keep its state for
//! these hooks" (trust store, private copies, digest cache, journal, side files,
//! `CLAUDE_ENV_FILE` folders): the dialect's home, except for the relay
//! ([`LoadOptions::for_relay`]) of Claude Code and Codex, whose state is in the relay's user
//! folder beside the agent (`~/.claude/hook-relay/`, `$CODEX_HOME/hook-relay/`), unless the
//! caller gave a home. [`Discovery::legacy_state_dir`] names where an earlier version kept it
//! (the dialect's home), for the one-time move of what belongs to the relay, and
//! [`Discovery::project_state_dir`] the project's folder beside the hooks. Keys do not
//! depend on it: they name the hooks' files (see "Keys"), so the relay's records are never
//! confused with the dialect's own.
//!
//! # Keys
//!
//! `<layer>:<where>:<Event>:<matcher>:<n>`, where `<layer>` is `managed`, `user`, `project`,
//! `local`, `plugin` or `session`; `<where>` is the file path as discovered, except: the user
//! file, named relative to the home (`config.toml`, `settings.json`, `config.json`) so that its
//! keys survive moving the home and a home kept in a repository carries its trust records to
//! every clone; a plugin, named by its folder name (equal to `plugin.json`'s `name`) without
//! its version, so an upgrade keeps
//! the key and `hook-trust` sees a *modified* hook; a session fragment, by its name. Project and
//! local files keep their absolute path on purpose: trusting a project's hook must never trust
//! the same text in another checkout; `<matcher>` is the matcher as written
//! (empty when absent); and `<n>` counts, from 0, the handlers of the same event and matcher
//! earlier in the same file. Reordering or adding groups of other events or matchers never
//! changes a key; only inserting a handler before it with the same event and matcher does.
//!
//! # Parsing
//!
//! Only the `hooks` key is read, plus: the plugin switches of the user file; verboo
//! `disableAllHooks` and `allowManagedHooksOnly`. Every other key is ignored, whatever its
//! type. lime's `[hooks.state.*]` (the trust store) is skipped, not read as an event.
//!
//! Handler fields: `type`, `command`, `commandWindows`, `args`, `shell`, `timeout`, `async`,
//! `asyncRewake`, `continueOnBlock`, `statusMessage`, `onFailure` (`continue` or `block`,
//! anything else invalid — a miscased `"Block"` says to write `"block"`; `mcp_tool`: anything
//! but `continue` reads as `block`, as Claude Code 2.1.332 reads it; on `prompt`, `agent` and
//! `native` too, where Claude Code ignores it; read in every dialect's files, an extension
//! outside verboo, so a Codex relay file can ask for it; a handler, group or file that cannot
//! be read keeps it, leniently, in [`Broken::on_failure`]; [`OnFailure`]), `additionalContextLimit`,
//! `if`, `url`, `headers`, `allowedEnvVars`, `prompt`, `model`, `server`, `tool`, `input`,
//! `library`; an unknown field is a warning. Types per dialect: wuu `command` (the default), `prompt`,
//! `native`; verboo all six; lime all but `http` (`prompt`/`agent` parse; `hook-exec` skips
//! them). A verboo or lime handler must name its `type`. Required: `command` (lime:
//! `command` or `commandWindows`), `url`, `prompt`, `server` + `tool`, `library`.
//! A native handler's `library` is resolved once, at load, to an absolute path
//! ([`Handler::library_path`], [`resolve_library`]): relative to the plugin folder, or to the
//! folder of the file that declares it (the project's `.claude/`, `.wuu/`, `.lime/`; the
//! home), or for session hooks to the project directory; never to an event's `cwd`.
//!
//! Timeouts ([`timeout_limits`]): wuu 30 s, and a non-positive value means 30 s (a warning);
//! verboo command, http, mcp_tool, native 600 s, prompt 30 s, agent 60 s; lime 600 s,
//! `SessionEnd` 1 s (at most 3 s), `Interrupt` 5 s (at most 10 s; the seed only says "short").
//! A value over the maximum is capped with a warning. In verboo and lime a zero or negative
//! timeout is an error.
//!
//! # Diagnostics
//!
//! A [`Diagnostic`] displays as `file:line:col: message`. A syntax error, a wrong type, an
//! unknown handler type, a missing required field, an invalid regex or `if` rule, or a
//! negative timeout is an **error**: the file's hooks (and its settings, such as enabled
//! plugins) are not loaded, and every other file still loads. Unknown events (loaded anyway),
//! unknown fields, capped timeouts and matchers that can never match are **warnings**.
//! Every file (settings, `plugin.json`, plugin `hooks.json`, managed) is read the same way, and
//! so is [`read_hooks_file`]'s (`hook validate --config`): it must be a regular file after
//! following symlinks (a FIFO, a device or a directory is refused without blocking or reading
//! it), of at most 8 MiB, and UTF-8 (an error at the first bad byte otherwise). JSON nesting
//! deeper than 128 levels is an error at the array or object that goes past it; TOML stops at
//! `toml`'s own limit of 80 levels; a TOML integer that does not fit in 64 bits is an error.
//! Positions cost O(1) amortized each, so a one-line (minified) file parses in linear time.
//! Syntax errors are serde_json's and `toml`'s messages and positions; everything else is
//! reported at the offending value, with its field path (`hooks.PreToolUse[0].hooks[1].timeout`),
//! from a small position-keeping tree both formats are read into.
//!
//! A managed file is honoured only when it and its folder are owned by root (or, for a file the
//! embedder names, by the user running the engine) and neither is writable by group or others:
//! a 0777 `/etc/lime` or `/etc/claude-code` refuses the managed layer with an error, since
//! anyone could remove or swap its policy. [`read_config_text`] is public so the other files
//! the engine reads back as configuration (trust stores) get the same rules.
//!
//! Files are opened and read through `hook-fs`, the workspace's safe-filesystem crate (private
//! folders and files, locks with a deadline or none, capped reads and lines, file stamps and
//! capped digests), which every crate above this one uses for the files a hostile process
//! could replace; it is not part of this crate's API.
//!
//! # Matching
//!
//! [`Matcher`] gives the rules. On events with no match value
//! ([`MatchTarget::Nothing`](hook_protocol::MatchTarget::Nothing)) verboo and lime ignore the
//! matcher, and a non-empty wuu matcher never matches (with a warning at load). Selection is
//! indexed per event: matchers that match all, a hash map of exact names and one
//! [`regex::RegexSet`] of the distinct regex matchers, so its cost does not grow with the
//! number of non-matching handlers. Tool aliases ([`LoadOptions::tool_aliases`]) are tried
//! both ways.
//!
//! verboo `if` rules are [`PermissionRule`]s, checked in [`Registry::select`] before anything
//! is spawned; on events without a tool a handler with `if` is never selected.
//!
//! verboo's switches, as Claude Code documents them, except that a project never switches off
//! more than its own hooks (its files are untrusted content): `disableAllHooks: true` in the managed settings suppresses every hook; in the
//! user settings every hook but the managed ones (a project's `false` does not undo it); in
//! the project or local settings (the local file wins when both set it) only the hooks of the
//! project and local files. `allowManagedHooksOnly: true`, honoured only in the managed
//! settings, suppresses user, project, local and plugin hooks (session hooks, the embedder's
//! own, still run). Suppressed handlers stay in [`Registry::handlers`] with
//! [`Handler::suppressed`] set, so a listing shows them; [`Registry::select`] never returns
//! them, and [`Registry::select_including_suppressed`] does, so the engine reports each in the
//! outcome's `runs` as `skipped: disabled_by_settings`, never silently.
//!
//! Identical verboo handlers (same event, matcher, type and what runs, with `${PLUGIN_ROOT}` /
//! `${CLAUDE_PLUGIN_ROOT}` expanded, and the same `if`, `timeout`, `async` and `asyncRewake`:
//! handlers that differ in any of those are two hooks, as in Claude Code 2.1) collapse into the first at load, recording the others in
//! [`Handler::duplicates`]; at selection identical handlers under different matchers are
//! returned once. A hook collapses into an identical managed or user hook, or one of its own
//! file or plugin, never into another project, local, plugin or session source: an untrusted
//! copy can never stand in for a hook that would have run, and two plugins' hooks always run
//! as two.
//!
//! # Broken configuration
//!
//! Loading never stops at a mistake (Claude Code and Codex both run
//! the rest): the smallest unit that cannot be read is left out, reported as an error
//! [`Diagnostic`] with its `file:line:col`, and kept in [`Registry::broken`] so that the engine
//! lists it in `runs` as `skipped: invalid` ([`Registry::broken_for`]). The units: a handler (a
//! field of the wrong type, a missing `command`, a verboo `timeout` of 0 or less, an invalid
//! `if`), a group (an invalid matcher, no `hooks` array: its handlers are still checked and
//! reported), an event's list, and a whole file or plugin (a syntax error, a file that is not a
//! regular file or too big, a bad `plugin.json`: reported on every event). A setting of the
//! wrong type (`disableAllHooks: "yes"`, `enabledPlugins`, `[plugins.*]`) is an error and is
//! ignored; the hooks still load. As the agents do:
//! - verboo and lime ignore the matcher of an event without a match value (`UserPromptSubmit`,
//!   `Stop`...): it is not compiled, so `"["` there is a warning, not an error;
//! - lime raises a `timeout` under one second to one second, with a warning (Codex does), and
//!   skips a blank `command` with a warning (and a broken entry).
//!
//! # Limitations
//!
//! - Project, local and managed keys contain the absolute file path: moving a project changes
//!   them (its hooks then need trust again).
//! - verboo `if` rules on shell commands are prefix rules on each simple command, read as
//!   [`PermissionRule`] describes; variables, aliases and programs that run a command they are
//!   given are not seen through (the list is there).
//! - `if` path patterns starting with `/` are matched against the absolute path (Claude Code
//!   anchors them to the settings file's folder); `~/` is not expanded.
//! - A file is all or nothing: one bad handler drops the whole file's hooks, so a typo never
//!   leaves a half-loaded configuration.
//! - verboo plugins are enabled by their bare folder name (no `@marketplace`), and only in the
//!   user file.
//! - wuu skill front-matter `hooks` are never registered: this crate does not read skills.

mod convert;
mod diagnostic;
mod discover;
mod file;
mod fileread;
mod gate;
mod handler;
pub mod library;
mod load;
mod matcher;
mod merge;
mod node;
mod read;
mod registry;
mod rule;

pub use convert::{Converted, convert, uses_variable};
pub use diagnostic::{Diagnostic, Pos, Severity};
pub use discover::{
    ConfigFile, DiscoverError, Discovery, ENV_VARS, Environment, LoadOptions, ManagedSource,
    RELAY_DIR, RelayDirs, RelayLocations, SessionHooks, discover, relay_dirs,
};
pub use file::{FileHook, FileHooks, ReadFileError, parse_hooks, read_hooks_file};
pub use fileread::{FileOwner, FileReadError, MAX_FILE_BYTES, read_config_text};
pub use gate::{AllowAll, Gate, RefuseUntrusted, RunPlace};
pub use handler::{
    Handler, HandlerConfig, OnFailure, Suppression, resolve_library, timeout_limits,
};
pub use load::{LoadError, Loaded, load};
pub use matcher::{Matcher, MatcherError};
pub use registry::{Broken, Registry};
pub use rule::{PermissionRule, RuleError};
