//! A translated agent's own settings file as the relay's writers see it ([`Agent`]): where it
//! is ([`SettingsFiles`](super::SettingsFiles): `~/.qwen/settings.json`,
//! `<project>/.github/hooks/hook-relay.json`...), and how the relay's entry is written there
//! ([`EntryForm`](super::EntryForm)), in Claude Code's nested shape:
//!
//! - **the event** is the agent's own name of the relay hooks' Claude Code event (Gemini CLI's
//!   `BeforeTool` for `PreToolUse`); an event the agent has no counterpart of gets no entry;
//! - **the matcher** names the agent's tools: each name of a list translated where the table
//!   names it (`Bash` is Gemini CLI's `run_shell_command`; Qwen Code accepts Claude Code's
//!   names too, and gets its own), a name it does not (an MCP tool) kept; a regular expression
//!   of Claude Code's names cannot be translated, so that entry matches every tool, and the
//!   relay matches again with Claude Code's names; an agent whose tools are named as Claude
//!   Code's (Copilot CLI) keeps the matcher as it is. An entry matching every tool is written
//!   as the agent reads "every" ([`EntryForm::match_all`](super::EntryForm::match_all));
//! - **the timeout** in the agent's unit (Gemini CLI: milliseconds), never over what it reads
//!   as seconds (Qwen Code: under 1000); the command's `--entry-timeout` is in seconds;
//! - **no `onFailure`**: none of them reads it; the command's `|| exit 2` fails closed.
//!
//! The relay hooks are Claude Code's relay files of the same scope, and what `hook relay
//! install` keeps of the agent's file (its lock, backups, state) is in the relay's user folder,
//! as for Claude Code ([`Agent::settings`] is Claude Code's table).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hook_protocol::{Dialect, Event, RelayAgent};

use super::Translation;
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::claude::Claude;
use crate::ops::relay::agents::claude::document::JsonDoc;
use crate::ops::relay::agents::{Agent, HookRecords, SettingsDoc};
use crate::ops::relay::read::entries::{EntryLine, RelayOf, Wanted, fails_closed, is_name_list};

impl Translation {
    /// Claude Code's `matcher` in the agent's tool names ([`self`]'s module doc); `None`: no
    /// matcher.
    pub(crate) fn agent_matcher(&self, matcher: Option<&str>) -> Option<String> {
        let every = || self.entry.match_all.map(str::to_owned);
        let Some(matcher) = matcher.filter(|m| !m.is_empty() && *m != "*") else {
            return every();
        };
        if self.tools.is_empty() {
            return Some(matcher.to_owned());
        }
        if !is_name_list(matcher) {
            return every();
        }
        let mut names: Vec<&str> = Vec::new();
        for name in matcher.split('|').filter(|n| !n.is_empty()) {
            let its = self.agent_tool(name).unwrap_or(name);
            if !names.contains(&its) {
                names.push(its);
            }
        }
        Some(names.join("|"))
    }
}

impl Agent for Translation {
    fn dialect(&self) -> Dialect {
        Translation::dialect(self)
    }

    /// Claude Code's: its relay files are the guards', its relay folder keeps the state.
    fn settings(&self) -> &'static RelayAgent {
        Claude.settings()
    }

    fn open(&self, text: &str, file: &Path) -> Result<Box<dyn SettingsDoc>> {
        Ok(Box::new(JsonDoc::of_agent(
            text,
            file,
            self.relay_of(),
            self.files.new,
        )?))
    }

    fn hook_records(&self, _: &Path, _: Option<&Path>) -> Result<Option<HookRecords>> {
        Ok(None)
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn settings_file(&self, project: Option<&Path>) -> Result<PathBuf> {
        Ok(match project {
            Some(project) => project.join(self.files.project),
            None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?)
                .join(self.files.user),
        })
    }

    fn relay_of(&self) -> RelayOf {
        RelayOf::Agent(self.name())
    }

    fn translation(&self) -> Option<&Translation> {
        Some(self)
    }

    fn entry(&self, wanted: &Wanted) -> Option<Wanted> {
        self.agent_event(wanted.event.as_str())?;
        Some(Wanted {
            timeout: self
                .entry
                .max_timeout
                .map_or(wanted.timeout, |max| wanted.timeout.min(max)),
            on_failure_block: false,
            ..wanted.clone()
        })
    }

    /// `relay --agent NAME --event <its event> ...`, failing closed where the relay hooks'
    /// event can block.
    fn command(
        &self,
        program: &Path,
        wanted: &Wanted,
        home: Option<&Path>,
        scope: RelayScope,
    ) -> String {
        let event = wanted.event.as_str();
        EntryLine {
            program,
            of: self.relay_of(),
            event: self.agent_event(event).unwrap_or(event),
            fails_closed: fails_closed(Translation::dialect(self), &wanted.event),
            home,
            scope,
            timeout: wanted.timeout,
        }
        .command()
    }

    fn written(&self, wanted: &Wanted) -> Wanted {
        let event = wanted.event.as_str();
        Wanted {
            event: Event::from_name(self.agent_event(event).unwrap_or(event)),
            matcher: self.agent_matcher(wanted.matcher.as_deref()),
            timeout: self.entry.timeout_unit.of(wanted.timeout),
            on_failure_block: false,
        }
    }
}
