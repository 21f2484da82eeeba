//! One adapter per agent the relay speaks for: everything that differs between Claude Code
//! ([`claude`]) and Codex CLI ([`codex`]) behind [`Agent`].
//!
//! What an adapter answers:
//! - **where its files are and what it sends**: [`Agent::settings`], the dialect's table
//!   ([`RelayAgent`]: its home and variable, its settings files, its events, its default
//!   timeout, whether it reads `onFailure`); the paths built from it are in
//!   [`super::read::files`];
//! - **how an entry looks**: [`Agent::open`] parses its settings file into a
//!   [`SettingsDoc`], which finds the relay entries in it, edits them in memory, and takes out
//!   or puts back the agent's own hook groups (`--move` and its way back); nothing here writes
//!   a file (the writers in [`super::install`] do, through their locks and backups);
//! - **its trust records**: [`Agent::hook_records`], the records the agent keeps of which of its
//!   hooks it runs (Codex's `[hooks.state]`), `None` where it keeps none (Claude Code runs every
//!   hook of a file it reads, once the workspace is trusted);
//! - **how the event arrives and how the answer is written**: the dialect's
//!   (`hook_protocol::input` reads it and `hook_protocol::write` writes the answer, from
//!   [`Agent::dialect`]); the relay's answer adds nothing per agent.
//!
//! Agents that run guards written for Claude Code, each on a wire of its own, are tables of a
//! translation ([`mod@translated`]: [`qwen`], [`gemini`], [`copilot`]): the relay reads Claude Code's relay
//! files for them and translates their events in and its answers out. Each table is an
//! [`Agent`] too (`translated/settings.rs`): its own settings file, where `hook relay install
//! --agent NAME` writes entries in its terms ([`Agent::entry`], [`Agent::written`],
//! [`Agent::command`]).
//!
//! Adding an agent is a module here (its adapter and its document), a line in [`ADAPTERS`],
//! and its table in hook-protocol's dialect; CONTRIBUTING.md's "Adding an agent" lists the
//! files and tests in order.

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod gemini;
pub(crate) mod qwen;
pub(crate) mod translated;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hook_protocol::{Dialect, RelayAgent};

use super::RelayScope;
use super::read::entries::{RelayOf, Wanted, relay_command};

pub(crate) use codex::records::HookRecords;
pub(crate) use translated::Translation;

/// What the relay does differently for one agent.
pub(crate) trait Agent: Sync {
    /// The dialect the agent speaks (its events, its answers, its configuration rules).
    fn dialect(&self) -> Dialect;

    /// Its names and files, from the dialect's table.
    fn settings(&self) -> &'static RelayAgent;

    /// Its settings file `file`, holding `text` (empty: none yet), parsed for reading and
    /// editing.
    ///
    /// # Errors
    ///
    /// When the text is not the agent's format, or its `hooks` is not of the shape the agent
    /// reads; the error names `file` and says nothing was edited.
    fn open(&self, text: &str, file: &Path) -> Result<Box<dyn SettingsDoc>>;

    /// The agent's own records of which hooks of its settings file `settings_file` (the
    /// user's, or `project`'s) it runs (Codex's `[hooks.state]` in the user's `config.toml`),
    /// `None` for an agent that keeps none. A store that cannot be read holds no record.
    ///
    /// # Errors
    ///
    /// When the records' file or `settings_file` cannot be named as the agent names them (no
    /// home, no current directory).
    fn hook_records(
        &self,
        settings_file: &Path,
        project: Option<&Path>,
    ) -> Result<Option<HookRecords>>;

    /// Its name in messages (`Claude Code`, `Qwen Code`).
    fn title(&self) -> &'static str {
        self.settings().name
    }

    /// Its settings file of a scope, where `hook relay install` writes the relay's entries:
    /// the user's, or `project`'s shared one.
    ///
    /// # Errors
    ///
    /// When the user's home is not known.
    fn settings_file(&self, project: Option<&Path>) -> Result<PathBuf> {
        super::read::files::agent_settings_file(self.settings(), project)
    }

    /// How an entry's command names the relay it starts (`--dialect verboo`, `--agent qwen`).
    fn relay_of(&self) -> RelayOf {
        RelayOf::Dialect(self.dialect())
    }

    /// The agent whose events the relay translates into Claude Code's, when this is one: its
    /// relay hooks are Claude Code's relay files, which Claude Code runs too.
    fn translation(&self) -> Option<&Translation> {
        None
    }

    /// The entry `wanted` (in the relay hooks' terms: their dialect's event and matcher, a
    /// timeout in seconds) as this agent gets one: `None` where it has no such event; the
    /// timeout within what it reads; `onFailure` where it reads it.
    fn entry(&self, wanted: &Wanted) -> Option<Wanted> {
        Some(wanted.clone())
    }

    /// The command of the entry `wanted` ([`Agent::entry`]): `program` started as the relay of
    /// `scope`'s hooks, with the `--home` install was given ([`relay_command`]).
    fn command(
        &self,
        program: &Path,
        wanted: &Wanted,
        home: Option<&Path>,
        scope: RelayScope,
    ) -> String {
        relay_command(
            program,
            self.dialect(),
            &wanted.event,
            home,
            scope,
            wanted.timeout,
        )
    }

    /// A matcher of Claude Code's tool names (a ready-made guard's: `Bash`,
    /// `Bash|Read|Write|Edit`) in the names under which those calls reach this agent's hooks,
    /// for a hook in its relay file: Claude Code's own (and its relay's translated agents',
    /// whose relay reads Claude Code's files) as they are.
    fn tools_of_claude(&self, matcher: &str) -> String {
        matcher.to_owned()
    }

    /// The entry `wanted` ([`Agent::entry`]) as its settings file holds it: the agent's own
    /// name of the event, its matcher in the agent's tool names, its timeout in the agent's
    /// unit.
    fn written(&self, wanted: &Wanted) -> Wanted {
        wanted.clone()
    }
}

/// The agents the relay speaks for, one adapter each.
pub(crate) const ADAPTERS: &[&dyn Agent] = &[&claude::Claude, &codex::Codex];

/// The adapter of the agent that speaks `dialect`, if the relay speaks for one.
pub(crate) fn adapter(dialect: Dialect) -> Option<&'static dyn Agent> {
    ADAPTERS.iter().copied().find(|a| a.dialect() == dialect)
}

/// The adapter of `dialect`, or why there is none.
///
/// # Errors
///
/// When the relay speaks for no agent of `dialect`.
pub(crate) fn agent_of(dialect: Dialect) -> Result<&'static dyn Agent> {
    adapter(dialect).with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The settings file `file` of the agent that speaks `dialect`, holding `text`, parsed
/// ([`Agent::open`]).
///
/// # Errors
///
/// When the relay speaks for no agent of `dialect`, or as [`Agent::open`].
pub(crate) fn open_settings(
    dialect: Dialect,
    text: &str,
    file: &Path,
) -> Result<Box<dyn SettingsDoc>> {
    agent_of(dialect)?.open(text, file)
}

/// Every agent whose events the relay translates.
pub(crate) const TRANSLATED: &[&Translation] = &[&qwen::QWEN, &gemini::GEMINI, &copilot::COPILOT];

/// The agent that started a relay of `dialect` as Claude Code's own (`--agent claude`,
/// `--dialect verboo`), by the variable only it sets for its hooks: Copilot CLI running a
/// project's `.claude/settings.json` (`COPILOT_CLI`), Gemini CLI running an entry
/// `gemini hooks migrate --from-claude` copied (`GEMINI_SESSION_ID`), Qwen Code one copied
/// into its settings (`QWEN_CODE_CLI`); `None`: Claude Code itself.
pub(crate) fn caller_of(dialect: Dialect) -> Option<&'static Translation> {
    TRANSLATED.iter().copied().find(|agent| {
        agent.dialect() == dialect
            && std::env::var_os(agent.marker_env).is_some_and(|v| !v.is_empty() && v != "0")
    })
}

/// Every translated agent, as an error lists them: `qwen (Qwen Code), ...`.
pub(crate) fn every_translated() -> String {
    TRANSLATED
        .iter()
        .map(|agent| format!("{} ({})", agent.name(), agent.title))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every name of every translated agent (`qwen`, `gemini`...), for shell completions.
pub(crate) fn translated_values() -> Vec<&'static str> {
    TRANSLATED
        .iter()
        .flat_map(|agent| agent.names.iter().copied())
        .collect()
}

/// Every event name of every translated agent, in its own words (`BeforeTool`...), for shell
/// completions of `hook relay --agent NAME --event EVENT`.
pub(crate) fn translated_event_values() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for (event, _) in TRANSLATED.iter().flat_map(|agent| agent.events) {
        if !all.contains(event) {
            all.push(event);
        }
    }
    all
}

/// The agent named `name` (`qwen`, `gemini`, any of its names, any case).
pub(crate) fn translated(name: &str) -> Option<&'static Translation> {
    TRANSLATED
        .iter()
        .copied()
        .find(|t| t.names.iter().any(|known| known.eq_ignore_ascii_case(name)))
}

/// A relay handler found in the agent's file.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The event key as written.
    pub(crate) event: String,
    /// Which member of `hooks` (JSON: duplicates count), which group, which handler.
    pub(crate) member: usize,
    pub(crate) group: usize,
    pub(crate) handler: usize,
    /// How many handlers its group has.
    pub(crate) group_len: usize,
    pub(crate) command: String,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: Option<String>,
    /// `onFailure` as written (JSON only; Codex has none).
    pub(crate) on_failure: Option<String>,
    /// The relay hooks it starts the relay for (`None`: both scopes, an earlier version's).
    pub(crate) scope: Option<RelayScope>,
}

/// A command handler as the agent's settings file holds it: where it is and the fields an
/// agent that keeps trust records of its hooks (Codex) hashes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WrittenHook {
    /// The event key as written.
    pub(crate) event: String,
    /// Its group's index under the event, and its own in the group.
    pub(crate) group: usize,
    pub(crate) handler: usize,
    pub(crate) matcher: Option<String>,
    pub(crate) command: Option<String>,
    pub(crate) timeout: Option<i64>,
    pub(crate) is_async: bool,
    pub(crate) status_message: Option<String>,
    pub(crate) additional_context_limit: Option<i64>,
    /// A `native` handler's `library`.
    pub(crate) library: Option<String>,
}

/// One of the agent's own hook groups (one without a relay handler), taken out by `--move`.
#[derive(Debug, Clone)]
pub(crate) struct OwnGroup {
    /// The event key as written.
    pub(crate) event: String,
    /// The group as the agent's format writes it alone (JSON: its text as written; TOML: a
    /// document holding it), what [`SettingsDoc::append_group`] takes.
    pub(crate) text: String,
    /// Its handlers, as the file held them before the move.
    pub(crate) hooks: Vec<WrittenHook>,
}

/// Where a group is in a settings document: the member of `hooks` (JSON: duplicate keys
/// count) and its index under the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GroupAt {
    pub(crate) member: usize,
    pub(crate) index: usize,
}

/// An agent settings document being read or edited (in memory).
pub(crate) trait SettingsDoc {
    /// Every relay handler, in file order.
    ///
    /// # Errors
    ///
    /// When the document no longer parses.
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>>;
    /// Every command handler whose command `is` accepts, in file order, as a [`Found`] (its
    /// `scope` `None`): what `hook guard` finds its guards' entries in the relay's files with,
    /// to change ([`SettingsDoc::set_command`]) or take out ([`SettingsDoc::remove`]).
    ///
    /// # Errors
    ///
    /// When the document no longer parses.
    fn found_where(&self, is: &dyn Fn(&str) -> bool) -> Result<Vec<Found>>;
    /// Replaces the command of the handler `found`, every other byte kept.
    ///
    /// # Errors
    ///
    /// When the handler is no longer where `found` says.
    fn set_command(&mut self, found: &Found, command: &str) -> Result<()>;
    /// Every command handler, in file order.
    ///
    /// # Errors
    ///
    /// When the document no longer parses.
    fn hooks(&self) -> Result<Vec<WrittenHook>>;
    /// Removes one relay handler (and what its removal empties).
    ///
    /// # Errors
    ///
    /// When the handler is no longer where `found` says.
    fn remove(&mut self, found: &Found) -> Result<()>;
    /// Adds a relay entry.
    ///
    /// # Errors
    ///
    /// When `hooks` or the event's groups are not of the shape the agent reads.
    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()>;
    /// Takes out every group of the agent's own (none of its handlers a relay entry's), each
    /// whole, and what their removal empties; the groups, in file order.
    ///
    /// # Errors
    ///
    /// When the document no longer parses.
    fn take_own_groups(&mut self, dialect: Dialect) -> Result<Vec<OwnGroup>>;
    /// Appends a group ([`OwnGroup::text`]) to `hooks.<event>`, as written.
    ///
    /// # Errors
    ///
    /// When `text` is not a group the format reads (a damaged record), or `hooks` is not of
    /// the shape the agent reads.
    fn append_group(&mut self, event: &str, text: &str) -> Result<()>;
    /// Where the group `text` of `event` is (the same value, however laid out), if it is.
    ///
    /// # Errors
    ///
    /// When the document no longer parses.
    fn group_at(&self, event: &str, text: &str) -> Result<Option<GroupAt>>;
    /// Removes the group at `at` under `event`, whole, and what its removal empties.
    ///
    /// # Errors
    ///
    /// When the group is no longer there.
    fn remove_group(&mut self, event: &str, at: GroupAt) -> Result<()>;
    /// The text now.
    fn text(&self) -> String;
}

/// What a sync did.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// The events whose entry was added.
    pub(crate) added: Vec<String>,
    /// How many entries were taken out.
    pub(crate) removed: usize,
    /// How many were already as wanted.
    pub(crate) kept: usize,
}

/// A moved `native` handler's relative `library` resolves against its new file's folder:
/// `(event, library)` for the warning when it is relative.
pub(crate) fn relative_library(hook: &WrittenHook) -> Option<(String, String)> {
    hook.library
        .as_deref()
        .filter(|l| !Path::new(l).is_absolute())
        .map(|library| (hook.event.clone(), library.to_owned()))
}

#[cfg(test)]
mod tests;
