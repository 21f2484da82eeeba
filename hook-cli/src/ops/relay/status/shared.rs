//! The guard checks `hook doctor` makes too ([`crate::ops::doctor::guards`]), folded into the
//! status: each error stops the guard it names (or, for a file, the agent's relay); warnings
//! are doctor's alone (a guard that may not do its job still runs).

use std::path::Path;

use hook_config::Loaded;
use hook_protocol::RelayAgent;

use super::{AgentStatus, Problem, Runs, StatusOptions};
use crate::ops::doctor::{Env, GuardScene, Severity, check_guards};

/// Adds the shared checks' errors to `status`: checked against the agent's `PATH` as the
/// relay last recorded it (this shell's when none is recorded, as for the entries' program).
pub(super) fn add_guard_checks(
    status: &mut AgentStatus,
    agent: &'static RelayAgent,
    project: &Path,
    options: &StatusOptions,
    runs: &Runs,
    loaded: &Loaded,
) {
    let path = runs
        .agent_path
        .clone()
        .or_else(|| std::env::var("PATH").ok())
        .unwrap_or_default();
    let env = Env {
        path: std::env::split_paths(&path).collect(),
        project: project.to_path_buf(),
        project_var: status.dialect.rules().input().project_dir_env(),
    };
    let scene = GuardScene {
        dialect: status.dialect,
        agent,
        project,
        home: options.home.as_deref(),
        env: &env,
        runs: &runs.by_key,
    };
    for finding in check_guards(&scene, loaded) {
        if finding.severity != Severity::Error {
            continue;
        }
        let fix = finding.fix.as_ref().map(crate::ops::doctor::Fix::words);
        match status.hooks.iter_mut().find(|hook| hook.key == finding.key) {
            Some(hook) => hook.problems.push(Problem::new(finding.message, fix)),
            None => status.problems.push(Problem::new(
                format!("{}: {}", finding.location, finding.message),
                fix,
            )),
        }
    }
}
