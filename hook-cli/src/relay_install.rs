//! `hook relay install`, `sync` and `uninstall`: the relay's entries in the agent's own
//! settings (Claude Code's `settings.json`, Codex's `config.toml`).
//!
//! **Entries only where hooks are.** The relay hooks that can apply (the relay's user file,
//! and the project's when the scope is a project; see [`hook_config::RELAY_DIR`]) decide the
//! entries: one group per event that has relay hooks, whose matcher is the union of those
//! hooks' matchers in the agent's own syntax (absent when any hook has none, `""` or `*`, and
//! on events the agent does not match on; exact names stay an exact `A|B` list; with a regex
//! among them, `^(?:A|B)$|(?:regex)|...`), and whose timeout is the largest of their timeouts
//! (each the dialect's default when unset) plus [`TIMEOUT_MARGIN`] seconds. The agent's
//! session event ([`hook_protocol::RelayAgent::session_event`], `SessionStart`) always gets
//! an entry, with no matcher, while any relay hook exists: the relay tells the user there
//! which relay hooks are untrusted or unreached.
//!
//! - A project's entries leave out the relay hooks (and the session entry) that the user's own
//!   relay entries already start the relay for: an agent runs every matching entry (Codex does
//!   not merge identical ones), and the relay started by either runs every relay hook of the
//!   call, so two entries would run each hook twice.
//! - A broken relay handler keeps an entry on its event, with no matcher; a relay file that
//!   cannot be read at all keeps every existing entry: the relay still starts, and says what
//!   is wrong.
//! - `install` run again and `sync` rewrite the entries from the relay files as they are now
//!   (add, change, remove): run `sync` after editing a relay file, or after a `git pull` that
//!   changed a project's relay file. A relay hook no entry reaches is reported by
//!   [`unreached_relay_hooks`] (`hook list --relay`, the relay's session entry) with that
//!   command. The session entry does not re-sync by itself: the relay would then edit the
//!   user's settings from a file a `git pull` brought, before the user reviewed it.
//!
//! **The marker.** An entry's command is `<quoted path of this hook> relay --dialect D --event
//! E [--home DIR] # hook-relay-install` (`--home` when install was given one, so the relay reads
//! the relay files install read): the trailing shell comment ([`MARKER`]) is what `sync` and
//! `uninstall` recognise, never a command's suffix alone. It is in the command string, the one
//! field both agents pass to the shell unchanged (Claude Code ignores a whole settings file
//! with a handler field it does not know; Codex runs commands with `$SHELL -lc`, where `#`
//! starts a comment). Entries of earlier versions (`... relay --dialect D`) are recognised too,
//! and replaced.
//!
//! **Nothing else changes.** Only the relay's own handlers are added or removed: another
//! handler in the same group stays; a group, event or `hooks` object the removal empties goes.
//! JSON is edited as text ([`json_text`]): every byte outside the edit (key order, number
//! spellings, indentation, CRLF, a minified layout) is kept, so install then uninstall gives the
//! file back byte for byte. TOML is edited with `toml_edit` (comments and layout kept; the
//! round trip is byte for byte too in the tested layouts). No backup is ever restored: before
//! each command's first change the file as it was is kept as `<file>.hook-relay.prev` (0600),
//! for the user only (the `<file>.hook-relay.bak` of an earlier version is left alone).
//!
//! **Files.** A symbolic link is followed and its target edited; the file must be a regular
//! file (a FIFO or device is refused without waiting on it) of at most 8 MiB, UTF-8, holding an
//! object/table, else the command stops with an error naming it and writes nothing. Writes go
//! to a temporary file beside it, given the file's mode and owner (a new file is 0600), renamed
//! over it, under `<file>.lock` (the lock `hook trust` takes), waited for at most 10 s.
//!
//! **Trust.** Codex runs only hooks it trusts: `install --trust` (lime) writes Codex's own
//! `[hooks.state]` records for the relay entries, with Codex's key and hash ([`codex_trust`],
//! checked against the real Codex), into the user's `config.toml` (the only place Codex reads
//! them, for project entries too); without it, install says what to do in Codex's `/hooks`.
//! Relay hooks that the relay's own trust store does not trust yet are listed with the command
//! that trusts them. `--move` moves the agent's own hooks into the relay's file of the same
//! scope, each group as written (the same dialect: nothing is converted, `native` handlers
//! included; a relative `library` path is warned about, as it now resolves against the relay
//! file's folder); the moved hooks the agent was running (for Codex: the ones whose
//! `[hooks.state]` record matches their current hash; for Claude Code: all, it runs them once
//! the workspace is trusted) are trusted in the relay's store, since the user asked for the
//! move; the others are listed as not running until trusted.

mod agent_file;
mod codex_trust;
pub(crate) mod json_text;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_config::{Broken, Environment, Handler, LoadOptions, Matcher};
use hook_protocol::{ConfigFormat, Dialect, Event, Layer, MatchTarget, RelayAgent};

use crate::terminal::{errln, outln};
use crate::trust_commands::shell_quote;
use json_text::{New, Style};

/// The shell comment that ends every command `hook relay install` writes.
pub(crate) const MARKER: &str = "# hook-relay-install";

/// Seconds added to the largest hook timeout of an event for its entry's timeout: the relay's
/// own start and answer.
pub(crate) const TIMEOUT_MARGIN: u64 = 5;

/// Which agent, and which of its settings files.
#[derive(Debug, Args)]
pub(crate) struct Scope {
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = crate::parse_dialect)]
    dialect: Dialect,
    /// The user's settings (the default).
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// This project's settings (`DIR/.claude/settings.json`, `DIR/.codex/config.toml`); the
    /// entries then also serve the project's relay hooks.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    #[arg(long, value_name = "FILE")]
    agent_config: Option<PathBuf>,
    /// The dialect's home (trust store; with it the relay's user folder is `DIR/hook-relay/`).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    scope: Scope,
    /// Move the hooks already in the agent's file into the relay's file of the same scope.
    #[arg(long = "move")]
    move_hooks: bool,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`, so nothing
    /// is left to do in `/hooks`.
    #[arg(long)]
    trust: bool,
}

#[derive(Debug, Args)]
pub(crate) struct SyncArgs {
    #[command(flatten)]
    scope: Scope,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`.
    #[arg(long)]
    trust: bool,
}

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    scope: Scope,
}

/// The relay agent of `dialect`, or why there is none.
fn agent_of(dialect: Dialect) -> Result<&'static RelayAgent> {
    dialect.rules().relay().with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The agent's home: its variable, else `~/` + its folder.
fn agent_home(agent: &RelayAgent) -> Result<PathBuf> {
    match std::env::var_os(agent.home_env).filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => Ok(
            PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?)
                .join(agent.home_dir),
        ),
    }
}

/// The agent's settings file for the scope.
fn agent_file(agent: &RelayAgent, project: Option<&Path>, given: Option<&Path>) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_owned());
    }
    if let Some(project) = project {
        return Ok(project.join(agent.home_dir).join(agent.config_file));
    }
    Ok(agent_home(agent)?.join(agent.config_file))
}

/// A project directory, absolute.
fn project_dir(project: Option<&Path>) -> Result<Option<PathBuf>> {
    project
        .map(|dir| {
            dir.canonicalize()
                .with_context(|| format!("project directory {} does not exist", dir.display()))
        })
        .transpose()
}

/// The options that load the relay's hooks of a scope: the user's relay file, and the
/// project's when there is one (never the current directory's otherwise).
fn relay_options(dialect: Dialect, project: Option<&Path>, home: Option<&Path>) -> LoadOptions {
    let mut options =
        LoadOptions::new(dialect, Environment::from_process().without_current_dir()).for_relay();
    if let Some(project) = project {
        options = options.with_project(project);
    }
    if let Some(home) = home {
        options = options.with_home(home);
    }
    options
}

/// One relay entry the agent's file should have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) event: Event,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: u64,
}

/// The command of the relay entry of `event`; with the `--home` install was given, so the
/// relay reads the relay files install read.
fn relay_command(dialect: Dialect, event: &Event, home: Option<&Path>) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let home = home
        .map(|home| format!(" --home {}", shell_quote(&home.display().to_string())))
        .unwrap_or_default();
    Ok(format!(
        "{} relay --dialect {dialect} --event {}{home} {MARKER}",
        shell_quote(&exe.display().to_string()),
        event.as_str()
    ))
}

/// Whether `command` is a relay entry of `dialect`: `install`'s marker, or an entry of an
/// earlier version (`... relay --dialect D`).
fn is_relay(command: &str, dialect: Dialect) -> bool {
    let ours = command.ends_with(&format!(" {MARKER}"))
        && command.contains(&format!(" relay --dialect {dialect} --event "));
    ours || command.ends_with(&format!(" relay --dialect {dialect}"))
}

/// Whether `matcher` matches everything (absent, empty or `*`).
fn matches_all(matcher: Option<&str>) -> bool {
    matcher.is_none_or(|m| m.is_empty() || m == "*")
}

/// The union of `matchers` in the agent's syntax (`None`: everything).
pub(crate) fn union_matcher<'m>(
    matchers: impl IntoIterator<Item = Option<&'m str>>,
) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut regexes: Vec<&str> = Vec::new();
    for matcher in matchers {
        if matches_all(matcher) {
            return None;
        }
        let matcher = matcher.unwrap_or_default();
        if is_name_list(matcher) {
            for name in matcher.split('|').filter(|n| !n.is_empty()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        } else if !regexes.contains(&matcher) {
            regexes.push(matcher);
        }
    }
    if regexes.is_empty() {
        return (!names.is_empty()).then(|| names.join("|"));
    }
    let mut parts = Vec::new();
    if !names.is_empty() {
        parts.push(format!("^(?:{})$", names.join("|")));
    }
    parts.extend(regexes.iter().map(|r| format!("(?:{r})")));
    Some(parts.join("|"))
}

/// A matcher both agents compare as exact names (`Bash`, `Edit|Write`).
fn is_name_list(matcher: &str) -> bool {
    matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
}

/// The entries `handlers` (the relay hooks of the scope) need. A broken relay handler
/// (`broken`, left out by the relay, which tells the user) keeps an entry on its event, with
/// no matcher, so the relay still starts there and says so.
pub(crate) fn wanted_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    handlers: &[&Handler],
    broken: &[Broken],
    with_session: bool,
) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    if handlers.is_empty() && broken.is_empty() && !with_session {
        return wanted;
    }
    for event in agent.events {
        let hooks: Vec<&Handler> = handlers
            .iter()
            .copied()
            .filter(|h| &h.event == event)
            .collect();
        let broken_here = broken.iter().any(|b| b.event.as_ref() == Some(event));
        let session = with_session && event == agent.session_event;
        if hooks.is_empty() && !broken_here && !session {
            continue;
        }
        let matcher =
            if session || broken_here || event.match_target(dialect) == MatchTarget::Nothing {
                None
            } else {
                union_matcher(hooks.iter().map(|h| h.matcher.as_deref()))
            };
        let longest = hooks
            .iter()
            .map(|h| h.timeout.as_secs() + u64::from(h.timeout.subsec_nanos() > 0))
            .chain(broken_here.then_some(agent.default_timeout))
            .max()
            .unwrap_or(agent.default_timeout);
        wanted.push(Wanted {
            event: event.clone(),
            matcher,
            timeout: longest + TIMEOUT_MARGIN,
        });
    }
    wanted
}

/// A relay handler found in the agent's file.
#[derive(Debug, Clone)]
struct Found {
    /// The event key as written.
    event: String,
    /// Which member of `hooks` (JSON: duplicates count), which group, which handler.
    member: usize,
    group: usize,
    handler: usize,
    /// How many handlers its group has.
    group_len: usize,
    command: String,
    matcher: Option<String>,
    timeout: Option<String>,
}

/// An agent settings document being edited.
trait Doc {
    /// Every relay handler, in file order.
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>>;
    /// Removes one relay handler (and what its removal empties).
    fn remove(&mut self, found: &Found) -> Result<()>;
    /// Adds a relay entry.
    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()>;
    /// The text now.
    fn text(&self) -> String;
}

/// What a sync did.
#[derive(Debug, Default)]
struct Changes {
    added: Vec<String>,
    removed: usize,
    kept: usize,
}

/// Makes the relay entries of `doc` exactly `wanted`, touching nothing else; with
/// `keep_others`, entries on events `wanted` does not name stay (a relay file that could not be
/// read may have hooks there).
fn sync_doc(
    doc: &mut dyn Doc,
    dialect: Dialect,
    wanted: &[Wanted],
    keep_others: bool,
    home: Option<&Path>,
) -> Result<Changes> {
    let mut changes = Changes::default();
    let commands: Vec<String> = wanted
        .iter()
        .map(|w| relay_command(dialect, &w.event, home))
        .collect::<Result<_>>()?;
    let mut kept: BTreeSet<String>;
    loop {
        kept = BTreeSet::new();
        let mut stale = None;
        for found in doc.found(dialect)? {
            let fits = wanted.iter().zip(&commands).any(|(w, command)| {
                w.event.as_str() == found.event
                    && found.group_len == 1
                    && &found.command == command
                    && found.matcher == w.matcher
                    && found.timeout.as_deref() == Some(w.timeout.to_string().as_str())
            });
            if fits && kept.insert(found.event.clone()) {
                continue;
            }
            let elsewhere = !wanted.iter().any(|w| w.event.as_str() == found.event);
            if keep_others && elsewhere && !kept.contains(&found.event) {
                kept.insert(found.event.clone());
                continue;
            }
            stale = Some(found);
            break;
        }
        match stale {
            Some(found) => {
                doc.remove(&found)?;
                changes.removed += 1;
            }
            None => break,
        }
    }
    changes.kept = kept.len();
    for (w, command) in wanted.iter().zip(&commands) {
        if !kept.contains(w.event.as_str()) {
            doc.add(w, command)?;
            changes.added.push(w.event.as_str().to_owned());
        }
    }
    Ok(changes)
}

/// A Claude Code settings file, edited as text.
struct JsonDoc {
    text: String,
    file: String,
}

impl JsonDoc {
    fn new(text: &str, file: &Path) -> Result<JsonDoc> {
        let doc = JsonDoc {
            text: if text.trim().is_empty() {
                "{}\n".to_owned()
            } else {
                text.to_owned()
            },
            file: file.display().to_string(),
        };
        let root = doc.root()?;
        if root.members().is_none() {
            bail!("{} must hold a JSON object; refusing to edit it", doc.file);
        }
        if let Some(hooks) = root.get("hooks")
            && hooks.members().is_none()
        {
            bail!(
                "{}: `hooks` must be an object; refusing to edit it",
                doc.file
            );
        }
        Ok(doc)
    }

    fn root(&self) -> Result<json_text::Node> {
        json_text::parse(&self.text).map_err(|error| {
            anyhow::anyhow!(
                "{} is not valid JSON ({error}); refusing to edit it",
                self.file
            )
        })
    }

    /// Appends `group` to `hooks.<event>`, creating `hooks` and the event's array as needed.
    fn append_group(&mut self, event: &str, group: &New) -> Result<()> {
        loop {
            let root = self.root()?;
            let style = Style::of(&self.text, &root);
            let (container, key, value) = match root.get("hooks") {
                None => (&root, Some("hooks"), New::Object(Vec::new())),
                Some(hooks) => match hooks.get(event) {
                    None => (hooks, Some(event), New::Array(Vec::new())),
                    Some(groups) if groups.items().is_none() => bail!(
                        "{}: `hooks.{event}` must be an array; refusing to edit it",
                        self.file
                    ),
                    Some(groups) => {
                        self.text = json_text::append(&self.text, &style, groups, None, group);
                        return Ok(());
                    }
                },
            };
            self.text = json_text::append(&self.text, &style, container, key, &value);
        }
    }
}

impl Doc for JsonDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        let root = self.root()?;
        let mut found = Vec::new();
        let Some(hooks) = root.get("hooks").and_then(json_text::Node::members) else {
            return Ok(found);
        };
        for (member, event) in hooks.iter().enumerate() {
            for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                let handlers = group
                    .get("hooks")
                    .and_then(json_text::Node::items)
                    .unwrap_or_default();
                for (h, handler) in handlers.iter().enumerate() {
                    let Some(command) = handler.get("command").and_then(|c| c.as_str(&self.text))
                    else {
                        continue;
                    };
                    if !is_relay(&command, dialect) {
                        continue;
                    }
                    found.push(Found {
                        event: event.key.clone(),
                        member,
                        group: g,
                        handler: h,
                        group_len: handlers.len(),
                        command,
                        matcher: group.get("matcher").and_then(|m| m.as_str(&self.text)),
                        timeout: handler.get("timeout").map(|t| t.raw(&self.text).to_owned()),
                    });
                }
            }
        }
        Ok(found)
    }

    fn remove(&mut self, found: &Found) -> Result<()> {
        let root = self.root()?;
        let (hooks_index, hooks) = root
            .members()
            .and_then(|m| m.iter().enumerate().rev().find(|(_, m)| m.key == "hooks"))
            .context("the relay entry moved while editing")?;
        let event = hooks
            .value
            .members()
            .and_then(|m| m.get(found.member))
            .context("the relay entry moved while editing")?;
        let groups = event.value.items().unwrap_or_default();
        let group = groups.get(found.group).context("the relay entry moved")?;
        let handlers_node = group.get("hooks").context("the relay entry moved")?;
        let handlers = handlers_node.items().unwrap_or_default();
        self.text = if handlers.len() > 1 {
            json_text::remove(&self.text, handlers_node, found.handler)
        } else if groups.len() > 1 {
            json_text::remove(&self.text, &event.value, found.group)
        } else if hooks.value.members().map_or(0, <[_]>::len) > 1 {
            json_text::remove(&self.text, &hooks.value, found.member)
        } else {
            json_text::remove(&self.text, &root, hooks_index)
        };
        Ok(())
    }

    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()> {
        let handler = New::Object(vec![
            ("type".to_owned(), New::string("command")),
            ("command".to_owned(), New::string(command)),
            ("timeout".to_owned(), New::Raw(wanted.timeout.to_string())),
        ]);
        let mut group = Vec::new();
        if let Some(matcher) = &wanted.matcher {
            group.push(("matcher".to_owned(), New::string(matcher)));
        }
        group.push(("hooks".to_owned(), New::Array(vec![handler])));
        self.append_group(wanted.event.as_str(), &New::Object(group))
    }

    fn text(&self) -> String {
        self.text.clone()
    }
}

/// A Codex `config.toml`, edited with `toml_edit`.
struct TomlDoc {
    doc: toml_edit::DocumentMut,
    file: String,
}

impl TomlDoc {
    fn new(text: &str, file: &Path) -> Result<TomlDoc> {
        let doc: toml_edit::DocumentMut = text.parse().with_context(|| {
            format!("{} is not valid TOML; refusing to edit it", file.display())
        })?;
        if let Some(hooks) = doc.get("hooks")
            && !hooks.is_table_like()
        {
            bail!(
                "{}: `hooks` must be a table; refusing to edit it",
                file.display()
            );
        }
        Ok(TomlDoc {
            doc,
            file: file.display().to_string(),
        })
    }
}

/// The groups of every event under `hooks` (arrays of tables only; `state` and other
/// reserved keys are not events).
fn toml_events(doc: &toml_edit::DocumentMut) -> Vec<(String, &toml_edit::ArrayOfTables)> {
    doc.get("hooks")
        .and_then(toml_edit::Item::as_table_like)
        .map(|hooks| {
            hooks
                .iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v.as_array_of_tables()?)))
                .collect()
        })
        .unwrap_or_default()
}

fn toml_handlers(group: &toml_edit::Table) -> Vec<&toml_edit::Table> {
    group
        .get("hooks")
        .and_then(toml_edit::Item::as_array_of_tables)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

impl TomlDoc {
    /// Appends `group` to `hooks.<event>`, creating `hooks` and the event's array as needed.
    fn push_group(&mut self, event: &str, mut group: toml_edit::Table) -> Result<()> {
        let hooks = self.doc.entry("hooks").or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        });
        let hooks = hooks
            .as_table_like_mut()
            .with_context(|| format!("{}: `hooks` must be a table", self.file))?;
        let groups = hooks
            .entry(event)
            .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        let Some(groups) = groups.as_array_of_tables_mut() else {
            bail!(
                "{}: `hooks.{event}` must be an array of tables; refusing to edit it",
                self.file
            );
        };
        group.set_position(None);
        groups.push(group);
        Ok(())
    }
}

impl Doc for TomlDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        let mut found = Vec::new();
        for (member, (event, groups)) in toml_events(&self.doc).into_iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                let handlers = toml_handlers(group);
                for (h, handler) in handlers.iter().enumerate() {
                    let Some(command) = handler.get("command").and_then(toml_edit::Item::as_str)
                    else {
                        continue;
                    };
                    if !is_relay(command, dialect) {
                        continue;
                    }
                    found.push(Found {
                        event: event.clone(),
                        member,
                        group: g,
                        handler: h,
                        group_len: handlers.len(),
                        command: command.to_owned(),
                        matcher: group
                            .get("matcher")
                            .and_then(toml_edit::Item::as_str)
                            .map(str::to_owned),
                        timeout: handler
                            .get("timeout")
                            .and_then(toml_edit::Item::as_integer)
                            .map(|t| t.to_string()),
                    });
                }
            }
        }
        Ok(found)
    }

    fn remove(&mut self, found: &Found) -> Result<()> {
        let hooks = self
            .doc
            .get_mut("hooks")
            .and_then(toml_edit::Item::as_table_like_mut)
            .context("the relay entry moved while editing")?;
        let groups = hooks
            .get_mut(&found.event)
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .context("the relay entry moved while editing")?;
        let handlers = groups
            .get_mut(found.group)
            .and_then(|g| g.get_mut("hooks"))
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .context("the relay entry moved while editing")?;
        if handlers.len() > 1 {
            handlers.remove(found.handler);
            return Ok(());
        }
        groups.remove(found.group);
        if groups.is_empty() {
            hooks.remove(&found.event);
        }
        if hooks.is_empty() {
            self.doc.remove("hooks");
        }
        Ok(())
    }

    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()> {
        let mut handler = toml_edit::Table::new();
        handler.insert("type", toml_edit::value("command"));
        handler.insert("command", toml_edit::value(command));
        handler.insert(
            "timeout",
            toml_edit::value(i64::try_from(wanted.timeout).unwrap_or(i64::MAX)),
        );
        let mut handlers = toml_edit::ArrayOfTables::new();
        handlers.push(handler);
        let mut group = toml_edit::Table::new();
        if let Some(matcher) = &wanted.matcher {
            group.insert("matcher", toml_edit::value(matcher.as_str()));
        }
        group.insert("hooks", toml_edit::Item::ArrayOfTables(handlers));
        self.push_group(wanted.event.as_str(), group)
    }

    fn text(&self) -> String {
        self.doc.to_string()
    }
}

fn open_doc(format: ConfigFormat, text: &str, file: &Path) -> Result<Box<dyn Doc>> {
    Ok(match format {
        ConfigFormat::Json => Box::new(JsonDoc::new(text, file)?),
        ConfigFormat::Toml => Box::new(TomlDoc::new(text, file)?),
    })
}

/// The scope resolved: agent, its file, the project, the relay's hooks.
struct Resolved {
    /// Whether this command already kept a backup of the agent's file (once per command: the
    /// backup is the file as it was before the command).
    backed_up: std::cell::Cell<bool>,
    dialect: Dialect,
    agent: &'static RelayAgent,
    file: PathBuf,
    project: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl Scope {
    fn resolve(&self) -> Result<Resolved> {
        // `--user` is the default; the flag exists to say so on a command line.
        let _ = self.user;
        let agent = agent_of(self.dialect)?;
        let project = project_dir(self.project.as_deref())?;
        let file = agent_file(agent, project.as_deref(), self.agent_config.as_deref())?;
        Ok(Resolved {
            backed_up: std::cell::Cell::new(false),
            dialect: self.dialect,
            agent,
            file,
            project,
            home: self
                .home
                .as_deref()
                .map(|home| {
                    home.canonicalize().with_context(|| {
                        format!("home directory {} does not exist", home.display())
                    })
                })
                .transpose()?,
        })
    }
}

impl Resolved {
    /// Keeps the agent's file as it was before this command, once.
    fn backup(&self, locked: &agent_file::Locked) -> Result<()> {
        if self.backed_up.replace(true) {
            return Ok(());
        }
        if let Some(backup) = locked.backup()? {
            outln!("the file as it was: {}", backup.display());
        }
        Ok(())
    }

    fn options(&self) -> LoadOptions {
        relay_options(self.dialect, self.project.as_deref(), self.home.as_deref())
    }

    /// The relay hooks of the scope (the relay's diagnostics on stderr).
    fn relay_hooks(&self) -> Result<hook_config::Loaded> {
        let loaded = hook_config::load(&self.options()).context("cannot load the relay's hooks")?;
        for diagnostic in &loaded.diagnostics {
            errln!("warning: {diagnostic}");
        }
        Ok(loaded)
    }

    /// The flags naming this scope on a `hook` command line.
    fn flags(&self) -> String {
        let mut flags = format!("--dialect {}", self.dialect);
        if let Some(project) = &self.project {
            flags.push_str(&format!(
                " --project {}",
                shell_quote(&project.display().to_string())
            ));
        }
        if let Some(home) = &self.home {
            flags.push_str(&format!(
                " --home {}",
                shell_quote(&home.display().to_string())
            ));
        }
        flags
    }
}

/// `hook relay install`.
pub(crate) fn install(args: InstallArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    if args.move_hooks {
        move_hooks(&scope)?;
    }
    apply(&scope, args.trust)
}

/// `hook relay sync`.
pub(crate) fn sync(args: SyncArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    apply(&scope, args.trust)
}

/// Writes the entries the relay hooks need, then says what is left to do.
fn apply(scope: &Resolved, trust: bool) -> Result<ExitCode> {
    let loaded = scope.relay_hooks()?;
    let handlers = loaded.registry.handlers();
    let broken = loaded.registry.broken();
    // A project's entries leave out what the user's entries already start the relay for:
    // Codex runs every matching entry, so two entries would run each relay hook twice.
    let user_entries = match &scope.project {
        Some(_) => installed_entries(
            scope.dialect,
            scope.agent,
            &[agent_home(scope.agent)?.join(scope.agent.config_file)],
        ),
        None => Vec::new(),
    };
    let needed: Vec<&Handler> = handlers
        .iter()
        .filter(|h| !reached(scope.dialect, &user_entries, h))
        .collect();
    let any_relay_hook = !handlers.is_empty() || !broken.is_empty();
    let user_announces = user_entries
        .iter()
        .any(|(event, _)| event == scope.agent.session_event.as_str());
    let wanted = wanted_entries(
        scope.dialect,
        scope.agent,
        &needed,
        broken,
        any_relay_hook && !user_announces,
    );
    if needed.len() < handlers.len() {
        outln!(
            "{} relay hooks are already served by the relay entries of {}'s user settings",
            handlers.len() - needed.len(),
            scope.agent.name
        );
    }
    // A relay file that could not be read at all may have hooks on any event: its entries stay.
    let unreadable = broken.iter().any(|b| b.event.is_none());
    if unreadable {
        errln!(
            "warning: a relay file could not be read; the relay entries of events it may use are kept: fix it, then run `hook relay sync {}`",
            scope.flags()
        );
    }
    let (changes, written) = edit(scope, &wanted, unreadable)?;
    let file = scope.file.display();
    if wanted.is_empty() && any_relay_hook {
        outln!(
            "{file}: no relay entries needed: the user's relay entries start the relay for every relay hook{}",
            if changes.removed > 0 {
                format!(" ({} removed)", changes.removed)
            } else {
                String::new()
            }
        );
    } else if wanted.is_empty() {
        outln!(
            "{file}: no relay hooks in {}, so no relay entries{}: add hooks there, then run `hook relay sync {}`",
            relay_places(&loaded.discovery),
            if changes.removed > 0 {
                format!(" ({} removed)", changes.removed)
            } else {
                String::new()
            },
            scope.flags()
        );
    } else if written {
        outln!(
            "{file}: relay entries for {} (added {}, removed {}, unchanged {})",
            wanted
                .iter()
                .map(|w| match &w.matcher {
                    Some(m) => format!("{} [{m}]", w.event),
                    None => w.event.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
            changes.added.len(),
            changes.removed,
            changes.kept
        );
    } else {
        outln!("{file}: the relay entries are up to date");
    }
    if !wanted.is_empty() && scope.dialect.rules().trust_state_in_config() {
        codex_trust_step(scope, trust)?;
    }
    report_untrusted(scope, &loaded);
    Ok(ExitCode::SUCCESS)
}

/// Where the relay's files of the scope are, for messages.
fn relay_places(discovery: &hook_config::Discovery) -> String {
    discovery
        .files
        .iter()
        .map(|f| f.path.display().to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Edits the agent's file so its relay entries are `wanted`; whether it was written.
fn edit(scope: &Resolved, wanted: &[Wanted], keep_others: bool) -> Result<(Changes, bool)> {
    let locked = agent_file::lock_and_read(&scope.file)?;
    let existed = locked.text.is_some();
    if !existed && wanted.is_empty() {
        // Nothing to take out, nothing to add: no file is created.
        return Ok((Changes::default(), false));
    }
    let text = locked.text.clone().unwrap_or_default();
    let mut doc = open_doc(scope.agent.config_format, &text, &locked.path)?;
    let changes = sync_doc(
        doc.as_mut(),
        scope.dialect,
        wanted,
        keep_others,
        scope.home.as_deref(),
    )?;
    let new_text = doc.text();
    let unchanged = changes.added.is_empty() && changes.removed == 0;
    if unchanged || (existed && new_text == text) {
        return Ok((changes, false));
    }
    let created = agent_file::created_marker(&locked.path);
    if !existed {
        // Install made this file: remember what it wrote, so uninstall can take it away.
        locked.write(&new_text)?;
        agent_file::write_file(&created, None, new_text.as_bytes())?;
        return Ok((changes, true));
    }
    if wanted.is_empty() && holds_only_what_install_wrote(scope, &created, &new_text, &locked.path)
    {
        locked.remove()?;
        let _ = std::fs::remove_file(&created);
        outln!(
            "{}: removed (hook relay install had created it, and nothing else is in it)",
            locked.path.display()
        );
        return Ok((changes, true));
    }
    scope.backup(&locked)?;
    locked.write(&new_text)?;
    Ok((changes, true))
}

/// Whether `new_text` (the agent's file with the relay's entries taken out) is what the file
/// `hook relay install` created (`created` records it) becomes without them: nothing of the
/// user's is in it, so removing the file loses nothing.
fn holds_only_what_install_wrote(
    scope: &Resolved,
    created: &Path,
    new_text: &str,
    path: &Path,
) -> bool {
    let Ok(Some((was, _))) = agent_file::read_regular(created) else {
        return false;
    };
    let Ok(mut doc) = open_doc(scope.agent.config_format, &was, path) else {
        return false;
    };
    sync_doc(
        doc.as_mut(),
        scope.dialect,
        &[],
        false,
        scope.home.as_deref(),
    )
    .is_ok()
        && doc.text() == new_text
}

/// `hook relay uninstall`.
pub(crate) fn uninstall(args: UninstallArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    let (changes, written) = edit(&scope, &[], false)?;
    if written && !scope.file.exists() {
        // `edit` removed the file install had created, and said so.
    } else if written {
        outln!(
            "{}: removed {} relay entries; nothing else changed",
            scope.file.display(),
            changes.removed
        );
    } else {
        outln!(
            "{}: no relay entries; nothing to uninstall",
            scope.file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Lists the relay hooks of the scope that the relay's trust store does not let run.
fn report_untrusted(scope: &Resolved, loaded: &hook_config::Loaded) {
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let waiting: Vec<_> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| view.evaluate(h))
        .filter(|t| !t.may_run())
        .collect();
    if waiting.is_empty() {
        return;
    }
    outln!(
        "{} relay hooks will not run until you review and trust them:",
        waiting.len()
    );
    for trust in &waiting {
        outln!(
            "  hook trust {} --relay {}",
            scope.flags(),
            shell_quote(&trust.key)
        );
    }
}

/// Codex: writes its trust records of the relay entries (`--trust`), or says how.
fn codex_trust_step(scope: &Resolved, trust: bool) -> Result<()> {
    let records = codex_records_file(scope)?;
    let key_source = codex_key_source(scope)?;
    let text = agent_file::read_regular(&scope.file)?
        .map(|(text, _)| text)
        .unwrap_or_default();
    let doc = TomlDoc::new(&text, &scope.file)?;
    let mut grants = Vec::new();
    for found in doc.found(scope.dialect)? {
        let event = Event::from_name(&found.event);
        let hook = codex_trust::CodexHook {
            event: &event,
            matcher: found.matcher.as_deref(),
            command: &found.command,
            timeout: found.timeout.as_deref().and_then(|t| t.parse().ok()),
            is_async: false,
            status_message: None,
            additional_context_limit: None,
        };
        let key = codex_trust::key(&key_source, &event, found.group, found.handler);
        grants.push(hook_trust::Grant::new(
            key,
            codex_trust::hash(scope.dialect, &hook),
        ));
    }
    let records_store = hook_trust::LimeStore::new(&records);
    let already = hook_trust::TrustStore::load(&records_store).unwrap_or_default();
    let missing: Vec<_> = grants
        .iter()
        .filter(|g| {
            already.get(&g.key).and_then(|r| r.trusted_hash.as_deref()) != Some(g.hash.as_str())
        })
        .cloned()
        .collect();
    if missing.is_empty() {
        outln!(
            "{}: Codex trusts the {} relay entries",
            records.display(),
            grants.len()
        );
        return Ok(());
    }
    if trust {
        hook_trust::TrustStore::set_trusted(&records_store, &missing)
            .with_context(|| format!("cannot record Codex's trust in {}", records.display()))?;
        outln!(
            "{}: recorded Codex's trust of {} relay entries ([hooks.state]); nothing to do in /hooks",
            records.display(),
            missing.len()
        );
    } else {
        outln!(
            "Codex runs only hooks you trusted: start codex, type /hooks, and trust the {} `hook relay` entries of {} (or run this command again with --trust to record that trust now)",
            missing.len(),
            scope.file.display()
        );
    }
    Ok(())
}

/// The `config.toml` whose `[hooks.state]` Codex reads: the user's (the agent file itself in
/// user scope).
fn codex_records_file(scope: &Resolved) -> Result<PathBuf> {
    if scope.project.is_none() {
        return Ok(scope.file.clone());
    }
    Ok(agent_home(scope.agent)?.join(scope.agent.config_file))
}

/// How Codex names the file in its keys: its absolute path (`CODEX_HOME` resolved, as Codex
/// resolves it).
fn codex_key_source(scope: &Resolved) -> Result<String> {
    let file = &scope.file;
    let absolute = match file.parent().map(Path::canonicalize) {
        Some(Ok(dir))
            if std::env::var_os(scope.agent.home_env).is_some() || scope.project.is_some() =>
        {
            dir.join(file.file_name().unwrap_or_default())
        }
        _ if file.is_absolute() => file.clone(),
        _ => std::env::current_dir()?.join(file),
    };
    Ok(absolute.display().to_string())
}

/// `--move`: the agent's own hooks of the scope into the relay's file of the same scope.
fn move_hooks(scope: &Resolved) -> Result<()> {
    let locked = agent_file::lock_and_read(&scope.file)?;
    let Some(text) = locked.text.clone() else {
        outln!("{}: no such file; nothing to move", scope.file.display());
        return Ok(());
    };
    let options = scope.options();
    let discovery = hook_config::discover(&options).context("cannot find the relay's files")?;
    let layer = if scope.project.is_some() {
        Layer::Project
    } else {
        Layer::User
    };
    let relay_file = discovery
        .files
        .iter()
        // The layer's settings file (`config.toml`), not the hooks-only `hooks.json` beside it.
        .find(|f| f.layer == layer && !f.hooks_only)
        .map(|f| f.path.clone())
        .context("no relay file for this scope")?;
    let (remaining, moved) = match scope.agent.config_format {
        ConfigFormat::Json => move_json(&text, &locked.path, scope.dialect)?,
        ConfigFormat::Toml => move_toml(&text, &locked.path, scope)?,
    };
    if moved.hooks.is_empty() {
        outln!("{}: no hooks of its own to move", scope.file.display());
        return Ok(());
    }
    append_to_relay_file(&relay_file, scope.agent.config_format, &moved)?;
    scope.backup(&locked)?;
    locked.write(&remaining)?;
    drop(locked);
    outln!(
        "moved {} hooks of {} to {}",
        moved.hooks.len(),
        scope.file.display(),
        relay_file.display()
    );
    trust_moved(scope, &relay_file, &moved)
}

/// One moved hook, and whether the agent was running it.
#[derive(Debug, Clone)]
struct MovedHook {
    event: String,
    matcher: Option<String>,
    command: Option<String>,
    ran: bool,
}

/// The moved groups, as the relay file's format writes them, and the hooks in them.
#[derive(Default)]
struct Moved {
    /// JSON: `(event, group text)`; TOML: `(event, group table)`.
    json: Vec<(String, String)>,
    toml: Vec<(String, toml_edit::Table)>,
    hooks: Vec<MovedHook>,
}

fn move_json(text: &str, file: &Path, dialect: Dialect) -> Result<(String, Moved)> {
    let mut doc = JsonDoc::new(text, file)?;
    let mut moved = Moved::default();
    loop {
        let root = doc.root()?;
        let Some(hooks) = root.get("hooks").and_then(json_text::Node::members) else {
            break;
        };
        let mut next = None;
        'events: for (member, event) in hooks.iter().enumerate() {
            for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                let handlers = group
                    .get("hooks")
                    .and_then(json_text::Node::items)
                    .unwrap_or_default();
                let relay = handlers.iter().any(|h| {
                    h.get("command")
                        .and_then(|c| c.as_str(&doc.text))
                        .is_some_and(|c| is_relay(&c, dialect))
                });
                if !relay {
                    next = Some((
                        member,
                        g,
                        event.key.clone(),
                        group.clone(),
                        handlers.to_vec(),
                    ));
                    break 'events;
                }
            }
        }
        let Some((member, g, event, group, handlers)) = next else {
            break;
        };
        moved
            .json
            .push((event.clone(), group.raw(&doc.text).to_owned()));
        let matcher = group.get("matcher").and_then(|m| m.as_str(&doc.text));
        for handler in &handlers {
            let library = handler.get("library").and_then(|l| l.as_str(&doc.text));
            warn_relative_library(&event, library.as_deref());
            moved.hooks.push(MovedHook {
                event: event.clone(),
                matcher: matcher.clone(),
                command: handler.get("command").and_then(|c| c.as_str(&doc.text)),
                // Claude Code runs the hooks of every settings file it reads.
                ran: true,
            });
        }
        // Removes the group as a one-handler group would be removed.
        let found = Found {
            event,
            member,
            group: g,
            handler: 0,
            group_len: 1,
            command: String::new(),
            matcher: None,
            timeout: None,
        };
        doc.remove(&found)?;
    }
    Ok((doc.text, moved))
}

fn move_toml(text: &str, file: &Path, scope: &Resolved) -> Result<(String, Moved)> {
    let mut doc = TomlDoc::new(text, file)?;
    let mut moved = Moved::default();
    // What Codex trusts now: its records against each hook's current hash.
    let records_file = codex_records_file(scope)?;
    let records = hook_trust::TrustStore::load(&hook_trust::LimeStore::new(&records_file))
        .unwrap_or_default();
    let key_source = codex_key_source(scope)?;
    let reserved = scope.dialect.rules().reserved_hooks_keys();
    for (event, groups) in toml_events(&doc.doc) {
        if reserved.contains(&event.as_str()) {
            continue;
        }
        let event_name = Event::from_name(&event);
        for (g, group) in groups.iter().enumerate() {
            let handlers = toml_handlers(group);
            let relay = handlers.iter().any(|h| {
                h.get("command")
                    .and_then(toml_edit::Item::as_str)
                    .is_some_and(|c| is_relay(c, scope.dialect))
            });
            if relay {
                continue;
            }
            let matcher = group.get("matcher").and_then(toml_edit::Item::as_str);
            for (h, handler) in handlers.iter().enumerate() {
                let library = handler.get("library").and_then(toml_edit::Item::as_str);
                warn_relative_library(&event, library);
                let command = handler.get("command").and_then(toml_edit::Item::as_str);
                let ran = command.is_some_and(|command| {
                    let hook = codex_trust::CodexHook {
                        event: &event_name,
                        matcher,
                        command,
                        timeout: handler.get("timeout").and_then(toml_edit::Item::as_integer),
                        is_async: handler
                            .get("async")
                            .and_then(toml_edit::Item::as_bool)
                            .unwrap_or(false),
                        status_message: handler
                            .get("statusMessage")
                            .and_then(toml_edit::Item::as_str),
                        additional_context_limit: handler
                            .get("additionalContextLimit")
                            .and_then(toml_edit::Item::as_integer),
                    };
                    let key = codex_trust::key(&key_source, &event_name, g, h);
                    records.get(&key).and_then(|r| r.trusted_hash.as_deref())
                        == Some(codex_trust::hash(scope.dialect, &hook).as_str())
                });
                moved.hooks.push(MovedHook {
                    event: event.clone(),
                    matcher: matcher.map(str::to_owned),
                    command: command.map(str::to_owned),
                    ran,
                });
            }
            moved.toml.push((event.clone(), group.clone()));
        }
    }
    // Removes the moved groups (every group without a relay handler).
    if let Some(hooks) = doc
        .doc
        .get_mut("hooks")
        .and_then(toml_edit::Item::as_table_like_mut)
    {
        let events: Vec<String> = hooks.iter().map(|(k, _)| k.to_owned()).collect();
        for event in events {
            if reserved.contains(&event.as_str()) {
                continue;
            }
            let Some(groups) = hooks
                .get_mut(&event)
                .and_then(toml_edit::Item::as_array_of_tables_mut)
            else {
                continue;
            };
            groups.retain(|group| {
                toml_handlers(group).iter().any(|h| {
                    h.get("command")
                        .and_then(toml_edit::Item::as_str)
                        .is_some_and(|c| is_relay(c, scope.dialect))
                })
            });
            if groups.is_empty() {
                hooks.remove(&event);
            }
        }
        if hooks.is_empty() {
            doc.doc.remove("hooks");
        }
    }
    Ok((doc.text(), moved))
}

/// A moved `native` handler's relative `library` resolves against its new file's folder.
fn warn_relative_library(event: &str, library: Option<&str>) {
    if let Some(library) = library.filter(|l| !Path::new(l).is_absolute()) {
        errln!(
            "warning: a moved {event} hook loads `{library}`, a path relative to the file that declares it: it now resolves against the relay file's folder; make it absolute if the library is not there"
        );
    }
}

/// Appends the moved groups to the relay file (created when missing), each as it was written.
fn append_to_relay_file(relay_file: &Path, format: ConfigFormat, moved: &Moved) -> Result<()> {
    let locked = agent_file::lock_and_read(relay_file)?;
    let text = locked.text.clone().unwrap_or_default();
    let new_text = match format {
        ConfigFormat::Json => {
            let mut doc = JsonDoc::new(&text, relay_file)?;
            for (event, group) in &moved.json {
                doc.append_group(event, &New::Raw(group.clone()))?;
            }
            doc.text
        }
        ConfigFormat::Toml => {
            let mut doc = TomlDoc::new(&text, relay_file)?;
            for (event, group) in &moved.toml {
                doc.push_group(event, group.clone())?;
            }
            doc.text()
        }
    };
    locked.write(&new_text)
}

/// Trusts, in the relay's store, the moved hooks the agent was running; lists the others.
fn trust_moved(scope: &Resolved, relay_file: &Path, moved: &Moved) -> Result<()> {
    let loaded = hook_config::load(&scope.options()).context("cannot load the relay's hooks")?;
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let relay_file = relay_file.display().to_string();
    let mut grants = Vec::new();
    let mut waiting = Vec::new();
    for handler in loaded.registry.handlers() {
        if handler.source.path.as_deref() != Some(relay_file.as_str()) {
            continue;
        }
        let Some(hook) = moved.hooks.iter().find(|m| {
            m.event == handler.event.as_str()
                && m.matcher == handler.matcher
                && m.command == handler.config.command
        }) else {
            continue;
        };
        let trust = view.evaluate(handler);
        if trust.may_run() || !trust.needs_trust {
            continue;
        }
        if hook.ran {
            grants.push(
                hook_trust::Grant::new(trust.key.clone(), trust.hash.clone())
                    .with_command(handler.config.summary()),
            );
        } else {
            waiting.push(trust.key.clone());
        }
    }
    if !grants.is_empty() {
        let store = hook_trust::store_for(scope.dialect, &loaded.discovery.home);
        store.set_trusted(&grants).with_context(|| {
            format!(
                "cannot trust the moved hooks in {}",
                store.location().display()
            )
        })?;
        outln!(
            "trusted {} moved hooks in the relay's store ({}): {} was running them",
            grants.len(),
            store.location().display(),
            scope.agent.name
        );
    }
    for key in &waiting {
        outln!(
            "{key}: {} had not trusted it; it will not run until `hook trust {} --relay {}`",
            scope.agent.name,
            scope.flags(),
            shell_quote(key)
        );
    }
    Ok(())
}

/// The relay hooks that no installed agent entry would start the relay for: a hook whose
/// event has no relay entry in the agent's user settings (or the project's), or whose tools
/// the entry's matcher does not match. Each line names the hook's key and the command that
/// fixes it (`hook relay sync ...`). Empty for a dialect without a relay agent, or when the
/// relay's hooks cannot be loaded.
pub(crate) fn unreached_relay_hooks(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
) -> Vec<String> {
    let Some(agent) = dialect.rules().relay() else {
        return Vec::new();
    };
    let Ok(loaded) = hook_config::load(&relay_options(dialect, project, home)) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    if let Ok(file) = agent_file(agent, None, None) {
        files.push(file);
    }
    if let Some(project) = project {
        files.push(project.join(agent.home_dir).join(agent.config_file));
    }
    let entries = installed_entries(dialect, agent, &files);
    let mut lines = Vec::new();
    for handler in loaded.registry.handlers() {
        if !agent.events.contains(&handler.event) {
            lines.push(format!(
                "relay hook {} never runs: {} does not send {}",
                handler.key, agent.name, handler.event
            ));
            continue;
        }
        if reached(dialect, &entries, handler) {
            continue;
        }
        let on_event = entries.iter().any(|(e, _)| e == handler.event.as_str());
        let why = if !on_event {
            format!("no {} entry starts the relay", handler.event)
        } else {
            format!(
                "the {} entry's matcher does not match `{}`",
                handler.event,
                handler.matcher.as_deref().unwrap_or("*")
            )
        };
        let mut fix = format!("hook relay sync --dialect {dialect}");
        if handler.source.layer != Layer::User
            && let Some(project) = &loaded.discovery.project
        {
            fix.push_str(&format!(
                " --project {}",
                shell_quote(&project.display().to_string())
            ));
        }
        if let Some(home) = home {
            fix.push_str(&format!(
                " --home {}",
                shell_quote(&home.display().to_string())
            ));
        }
        lines.push(format!(
            "relay hook {} never runs: {why} in {}'s settings; run `{fix}`",
            handler.key, agent.name
        ));
    }
    lines
}

/// The relay entries, `(event, matcher)`, of the agent's settings `files`.
fn installed_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    files: &[PathBuf],
) -> Vec<(String, Option<String>)> {
    let mut entries = Vec::new();
    for file in files {
        let Ok(Some((text, _))) = agent_file::read_regular(file) else {
            continue;
        };
        let Ok(doc) = open_doc(agent.config_format, &text, file) else {
            continue;
        };
        for found in doc.found(dialect).unwrap_or_default() {
            entries.push((found.event, found.matcher));
        }
    }
    entries
}

/// Whether one of `entries` starts the relay for `handler`.
fn reached(dialect: Dialect, entries: &[(String, Option<String>)], handler: &Handler) -> bool {
    let mut on_event = entries
        .iter()
        .filter(|(event, _)| event == handler.event.as_str())
        .peekable();
    if on_event.peek().is_none() {
        return false;
    }
    handler.event.match_target(dialect) == MatchTarget::Nothing
        || on_event
            .any(|(_, entry)| entry_reaches(dialect, entry.as_deref(), handler.matcher.as_deref()))
}

/// Whether an entry with `entry` as matcher starts the relay for a hook with `hook` as
/// matcher.
fn entry_reaches(dialect: Dialect, entry: Option<&str>, hook: Option<&str>) -> bool {
    if matches_all(entry) {
        return true;
    }
    let entry = entry.unwrap_or_default();
    match hook {
        Some(hook) if !matches_all(Some(hook)) && is_name_list(hook) => {
            let Ok(compiled) = Matcher::compile(dialect, Some(entry)) else {
                return false;
            };
            hook.split('|')
                .filter(|n| !n.is_empty())
                .all(|name| compiled.is_match(name))
        }
        Some(hook) if !matches_all(Some(hook)) => {
            entry == hook
                || entry.split('|').any(|part| part == format!("(?:{hook})"))
                || entry.contains(&format!("(?:{hook})"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_unite_in_the_agents_syntax() {
        let table: &[(&[Option<&str>], Option<&str>)] = &[
            (&[Some("Bash")], Some("Bash")),
            (
                &[Some("Bash"), Some("Edit|Write"), Some("Bash")],
                Some("Bash|Edit|Write"),
            ),
            (&[Some("Bash"), None], None),
            (&[Some("Bash"), Some("*")], None),
            (&[Some("")], None),
            (
                &[Some("Bash"), Some("mcp__.*")],
                Some("^(?:Bash)$|(?:mcp__.*)"),
            ),
            (&[Some("^Read$"), Some("Gr.p")], Some("(?:^Read$)|(?:Gr.p)")),
        ];
        for (matchers, expected) in table {
            assert_eq!(
                union_matcher(matchers.iter().copied()).as_deref(),
                *expected,
                "{matchers:?}"
            );
        }
    }

    #[test]
    fn a_union_reaches_exactly_its_hooks() {
        let union = union_matcher([Some("Bash"), Some("mcp__.*")]);
        let entry = union.as_deref();
        assert!(entry_reaches(Dialect::Verboo, entry, Some("Bash")));
        assert!(entry_reaches(Dialect::Verboo, entry, Some("mcp__.*")));
        assert!(!entry_reaches(Dialect::Verboo, entry, Some("Read")));
        assert!(!entry_reaches(Dialect::Verboo, entry, None));
        // The exact part stays exact: `Bashful` is not `Bash`.
        let compiled = Matcher::compile(Dialect::Verboo, entry).unwrap_or(Matcher::All);
        assert!(!compiled.is_match("Bashful"));
        assert!(compiled.is_match("mcp__x__y"));
    }

    #[test]
    fn only_the_marker_or_an_old_entry_is_the_relay() {
        assert!(is_relay(
            "'/bin/hook' relay --dialect lime --event Stop # hook-relay-install",
            Dialect::Lime
        ));
        assert!(is_relay("/x/hook relay --dialect lime", Dialect::Lime));
        assert!(!is_relay("/x/hook relay --dialect verboo", Dialect::Lime));
        assert!(!is_relay("./guard.sh # hook-relay-install", Dialect::Lime));
        assert!(!is_relay(
            "/x/hook relay --dialect lime --event Stop",
            Dialect::Lime
        ));
    }
}
