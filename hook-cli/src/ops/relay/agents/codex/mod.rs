//! Codex CLI: its settings are TOML (`$CODEX_HOME/config.toml`, a project's
//! `.codex/config.toml`), edited with `toml_edit` ([`document`]); it runs a hook only while its
//! own record of it in the user's `config.toml` holds the hook's hash ([`records`]); it has no
//! `onFailure` (the entries' `|| exit 2` fails them closed).

pub(crate) mod document;
pub(crate) mod records;

use std::path::Path;

use anyhow::Result;
use hook_protocol::{Dialect, RelayAgent};

use super::{Agent, HookRecords, SettingsDoc};
use document::TomlDoc;

/// Codex CLI's adapter.
pub(crate) struct Codex;

impl Agent for Codex {
    fn dialect(&self) -> Dialect {
        Dialect::Lime
    }

    fn settings(&self) -> &'static RelayAgent {
        Dialect::Lime
            .rules()
            .agent()
            .relay()
            .expect("the lime dialect's table names Codex CLI as its relay agent")
    }

    fn open(&self, text: &str, file: &Path) -> Result<Box<dyn SettingsDoc>> {
        Ok(Box::new(TomlDoc::new(text, file)?))
    }

    /// Codex sends its shell commands as `Bash` (reads and searches are commands there: `cat`,
    /// `grep`) and its writes and edits as `apply_patch`; a name it has no call for is left out,
    /// and one it keeps (an MCP tool's) stays.
    fn tools_of_claude(&self, matcher: &str) -> String {
        let mut tools: Vec<&str> = Vec::new();
        for name in matcher.split('|') {
            let tool = match name {
                "Bash" | "Read" | "Grep" | "Glob" | "LS" => "Bash",
                "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => "apply_patch",
                "WebFetch" | "WebSearch" | "Task" | "TodoWrite" => continue,
                other => other,
            };
            if !tools.contains(&tool) {
                tools.push(tool);
            }
        }
        tools.join("|")
    }

    fn hook_records(
        &self,
        settings_file: &Path,
        project: Option<&Path>,
    ) -> Result<Option<HookRecords>> {
        let records_file = records::records_file(self.settings(), settings_file, project)?;
        let key_source = records::key_source(self.settings(), settings_file, project.is_some())?;
        // A store that cannot be read trusts nothing: every hook counts as not run.
        let records = hook_trust::TrustStore::load(&hook_trust::LimeStore::new(records_file))
            .unwrap_or_default();
        Ok(Some(HookRecords::new(self.dialect(), key_source, records)))
    }
}

/// The dialect of the guards the relay of `dialect` runs beside its own relay hooks: Claude
/// Code's (verboo) for Codex's relay (lime), whose events are already Claude-shaped, so that a
/// guard written once for Claude Code guards Codex too; `None` for every other relay.
pub(crate) fn claude_guards_for(dialect: Dialect) -> Option<Dialect> {
    (dialect == Dialect::Lime).then_some(Dialect::Verboo)
}
