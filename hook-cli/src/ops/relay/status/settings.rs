//! The agent's settings files as `hook relay status` shows them: each with its relay entries,
//! read by the agent's adapter (Claude Code's and Codex's, or an agent whose events the relay
//! translates), a file that cannot be read being a problem with its fix.

use std::path::{Path, PathBuf};

use super::program::program_word;
use super::{AgentStatus, Entry, Problem, SettingsFile};
use crate::ops::relay::agents::Agent;
use crate::ops::relay::read::reach::relay_entries_of;

/// Each of `files` (`(scope, path)`, the agent's settings files) with its relay entries, read
/// by `agent`'s adapter.
pub(super) fn read_entries(
    status: &mut AgentStatus,
    agent: &dyn Agent,
    files: Vec<(&'static str, PathBuf)>,
    project: &Path,
    home_flag: &str,
) {
    for (scope, path) in files {
        let mut file = SettingsFile {
            scope,
            exists: path.exists(),
            path,
            entries: Vec::new(),
        };
        match relay_entries_of(agent, &file.path) {
            Ok(found) => {
                for entry in found.unwrap_or_default() {
                    file.entries.push(Entry {
                        program: program_word(&entry.command),
                        event: entry.event,
                        matcher: entry.matcher,
                        timeout: entry.timeout,
                    });
                }
            }
            Err(error) => status.problems.push(Problem::new(
                format!(
                    "cannot read {}: {error:#}; the relay entries there cannot be checked",
                    file.path.display()
                ),
                Some(format!(
                    "fix the file, then run `hook relay sync --agent {}{}{home_flag}`",
                    status.agent,
                    match scope {
                        "project" => format!(
                            " --project {}",
                            crate::shell::quote(&project.display().to_string())
                        ),
                        "personal" => format!(
                            " --project {} --agent-config {}",
                            crate::shell::quote(&project.display().to_string()),
                            crate::shell::quote(&file.path.display().to_string())
                        ),
                        _ => String::new(),
                    }
                )),
            )),
        }
        status.settings.push(file);
    }
}
