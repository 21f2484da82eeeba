//! Claude Code: its settings are JSON (`~/.claude/settings.json`, a project's
//! `.claude/settings.json` and the personal `.claude/settings.local.json`), edited as text so
//! that every byte the relay did not mean to change stays ([`document`]); it keeps no trust
//! records of its hooks (it runs every hook of a settings file it reads, once the workspace is
//! trusted), and from 2.1.332 it reads `onFailure` on a command handler.

pub(crate) mod document;
pub(crate) mod json_text;

use std::path::Path;

use anyhow::Result;
use hook_protocol::{Dialect, RelayAgent};

use super::{Agent, HookRecords, SettingsDoc};
use document::JsonDoc;

/// Claude Code's adapter.
pub(crate) struct Claude;

impl Agent for Claude {
    fn dialect(&self) -> Dialect {
        Dialect::Verboo
    }

    fn settings(&self) -> &'static RelayAgent {
        Dialect::Verboo
            .rules()
            .agent()
            .relay()
            .expect("the verboo dialect's table names Claude Code as its relay agent")
    }

    fn open(&self, text: &str, file: &Path) -> Result<Box<dyn SettingsDoc>> {
        Ok(Box::new(JsonDoc::new(text, file)?))
    }

    fn hook_records(&self, _: &Path, _: Option<&Path>) -> Result<Option<HookRecords>> {
        Ok(None)
    }
}
