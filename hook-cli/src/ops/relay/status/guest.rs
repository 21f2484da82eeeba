//! `hook relay status --agent qwen|gemini|copilot`: an agent whose events the relay translates
//! ([`Translation`]) guards with the relay's Claude Code files through entries in its own
//! settings files. Shown: those files and their relay entries, the program the entries start
//! and whether it runs, each relay hook with its trust and last run and whether an entry of
//! the agent's reaches it ([`guest_unreached`]: its event and matcher in the agent's terms),
//! and the relay not installed for the agent. The guard checks `hook doctor` shares with
//! Claude Code's status (a guard's program on the agent's `PATH`, its type, its entry's
//! timeout) are Claude Code's (`hook relay status --agent claude`): they read Claude Code's
//! entries.

use anyhow::Result;

use super::settings::read_entries;
use super::{AgentStatus, Problem, StatusOptions, home_flag, read_hooks, relay_runs, same_file};
use crate::ops::relay::agents::{Agent, Translation};
use crate::ops::relay::read::guest_reach::guest_unreached;
use crate::ops::relay::read::reach::Unreached;
use crate::ops::relay::status::program::check_programs;

/// The relay's status for `agent`.
pub(super) fn guest_status(
    agent: &'static Translation,
    options: &StatusOptions,
) -> Result<AgentStatus> {
    let dialect = Agent::dialect(agent);
    let location = super::relay_location(dialect, options);
    let project = location.project_dir()?;
    let mut status = AgentStatus::empty(agent.name(), agent.title, dialect);
    let home_flag = home_flag(options);
    let user = agent.settings_file(None)?;
    let in_project = agent.settings_file(Some(&project))?;
    let mut files = vec![("user", user.clone())];
    // A project that is the home (the current directory) has no settings of its own.
    if !same_file(&user, &in_project) {
        files.push(("project", in_project));
    }
    read_entries(&mut status, agent, files, &project, &home_flag);
    let home = options.home.as_deref();
    let mut runs = relay_runs(dialect, &project, home)?;
    status.journal_problems = std::mem::take(&mut runs.problems);
    check_programs(&mut status, &project, runs.agent_path.as_deref());
    let unreached: Vec<String> = guest_unreached(agent, Some(&project), home, |_| true)
        .map(|unreached| unreached.iter().map(Unreached::line).collect())
        .unwrap_or_default();
    read_hooks(&mut status, &location, &runs.by_key, &unreached);
    if !status.hooks.is_empty() && !status.installed() {
        status.problems.push(Problem::new(
            format!(
                "the relay is not installed: {} never starts it",
                agent.title
            ),
            Some(format!(
                "hook relay install --agent {}{home_flag}",
                agent.name()
            )),
        ));
    }
    Ok(status)
}
