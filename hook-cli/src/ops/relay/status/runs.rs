//! What the journals say of the relay's runs.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use hook_exec::journal::Record;
use hook_protocol::{Dialect, RunStatus};

use super::LastRun;
use crate::ops::journal::{ReadProblems, read_each, skip_name, status_name, tail};

/// What the journals say of the relay's runs: the agent's `PATH`, and per hook key its latest
/// run and how many of its latest runs in a row failed.
pub(crate) struct Runs {
    pub(crate) agent_path: Option<String>,
    pub(crate) by_key: BTreeMap<String, (LastRun, usize)>,
    pub(crate) problems: Vec<String>,
}

pub(crate) fn read_runs(dialect: Dialect, project: &Path, home: Option<&Path>) -> Result<Runs> {
    let mut runs = Runs {
        agent_path: None,
        by_key: BTreeMap::new(),
        problems: Vec::new(),
    };
    let mut each = |record: Record| {
        if record.dialect != dialect || record.front != "relay" {
            return;
        }
        if let Some(path) = &record.path {
            runs.agent_path = Some(path.clone());
        }
        for run in &record.runs {
            let last = LastRun {
                time: record.time.clone(),
                status: status_name(run.status),
                skip_reason: (run.status == RunStatus::Skipped).then(|| skip_name(run)),
                exit_code: run.exit_code,
                // A skip's reason is its trust, said beside it: its message is not repeated.
                error: (run.status != RunStatus::Skipped)
                    .then(|| run.error.clone())
                    .flatten()
                    .or_else(|| {
                        run.stderr
                            .as_deref()
                            .and_then(|stderr| tail(stderr, 1).first().map(|l| (*l).to_owned()))
                    }),
                // A skipped run never started: its stderr is not the guard's.
                missing_program: (run.status != RunStatus::Skipped)
                    .then(|| {
                        run.stderr
                            .as_deref()
                            .and_then(hook_protocol::text::missing_program)
                    })
                    .flatten()
                    .map(str::to_owned),
            };
            let failing = runs.by_key.get(&run.key).map_or(0, |(_, n)| *n);
            let failing = match run.status {
                RunStatus::Failed | RunStatus::TimedOut => failing + 1,
                RunStatus::Skipped => failing,
                _ => 0,
            };
            runs.by_key.insert(run.key.clone(), (last, failing));
        }
    };
    let mut unread = Vec::new();
    for journal in crate::ops::journal::journals_of_dialects(&[dialect], Some(project), home)? {
        let problems: ReadProblems = read_each(&mut journal.read(), &mut each);
        for (file, why) in problems.files {
            unread.push(format!("cannot read {}: {why}", file.display()));
        }
        for (file, (count, first)) in problems.lines {
            unread.push(format!(
                "{count} line(s) of {} could not be read (first: {first})",
                file.display()
            ));
        }
    }
    runs.problems = unread;
    Ok(runs)
}
