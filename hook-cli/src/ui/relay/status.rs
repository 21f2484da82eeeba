//! What `hook relay status` prints: per agent a headline (guarding, not set up, or how many
//! problems stop a guard), its settings files with their relay entries, the program they
//! start, the relay files, each relay hook with its trust and last run, and each problem with
//! its fix; `--json`: the same as one object.

use anyhow::Result;

use crate::ops::relay::status::{AgentStatus, Problem, RelayHook, SettingsFile};
use crate::ui::{Printer, Status, plural, say};

/// The status of every agent; `Failed` when something stops a guard.
pub(crate) fn report(printer: &Printer, agents: &[AgentStatus], json: bool) -> Result<Status> {
    let stopped = agents.iter().any(AgentStatus::stopped);
    if json {
        let mut all = Vec::new();
        for agent in agents {
            let mut value = serde_json::to_value(agent)?;
            if let Some(object) = value.as_object_mut() {
                object.insert("installed".into(), agent.installed().into());
                object.insert("guarding".into(), (!agent.stopped()).into());
            }
            all.push(value);
        }
        let report = serde_json::json!({"guarding": !stopped, "agents": all});
        printer.exact_line(&serde_json::to_string_pretty(&report)?);
    } else {
        for agent in agents {
            text(printer, agent);
        }
    }
    Ok(if stopped {
        Status::Failed
    } else {
        Status::Success
    })
}

fn text(printer: &Printer, agent: &AgentStatus) {
    let problems = agent.problems.len()
        + agent
            .hooks
            .iter()
            .map(|hook| hook.problems.len())
            .sum::<usize>();
    let state = if agent.hooks.is_empty() && !agent.installed() {
        "not set up (no relay hooks, no relay entries)".to_owned()
    } else if problems > 0 {
        format!(
            "{problems} problem{} stop{} a guard",
            plural(problems),
            if problems == 1 { "s" } else { "" }
        )
    } else {
        format!(
            "guarding: {} relay hook{}, each trusted and reached",
            agent.hooks.len(),
            plural(agent.hooks.len())
        )
    };
    say!(
        printer,
        "{} (--agent {}): {state}",
        agent.title,
        agent.agent
    );
    for file in &agent.settings {
        settings(printer, file);
    }
    for program in &agent.programs {
        let at = match &program.path {
            Some(path) if path.as_os_str() != program.program.as_str() => {
                format!(" ({})", path.display())
            }
            _ => String::new(),
        };
        match (&program.version, &program.problem) {
            (Some(version), _) => say!(
                printer,
                "  program {}{at}: runs ({version})",
                program.program
            ),
            (_, Some(problem)) => say!(printer, "  program {}{at}: {problem}", program.program),
            _ => say!(printer, "  program {}{at}", program.program),
        }
    }
    let relay_files: Vec<String> = agent
        .relay_files
        .iter()
        .map(|path| path.display().to_string())
        .collect();
    if relay_files.is_empty() {
        say!(printer, "  relay files: none");
    } else {
        say!(printer, "  relay files: {}", relay_files.join(", "));
    }
    if !agent.hooks.is_empty() {
        say!(printer, "  relay hooks:");
    }
    for hook in &agent.hooks {
        relay_hook(printer, hook);
    }
    for problem in &agent.problems {
        problem_lines(printer, "  ", problem);
    }
    for line in &agent.journal_problems {
        say!(printer, "  warning: {line}; last runs may be missing");
    }
    for note in &agent.notes {
        say!(printer, "  note: {note}");
    }
}

fn settings(printer: &Printer, file: &SettingsFile) {
    let path = file.path.display();
    if !file.exists {
        say!(printer, "  {} settings {path}: no such file", file.scope);
        return;
    }
    if file.entries.is_empty() {
        say!(
            printer,
            "  {} settings {path}: no relay entries",
            file.scope
        );
        return;
    }
    let entries: Vec<String> = file
        .entries
        .iter()
        .map(
            |entry| match entry.matcher.as_deref().filter(|m| !m.is_empty()) {
                Some(matcher) => format!("{} [{matcher}]", entry.event),
                None => entry.event.clone(),
            },
        )
        .collect();
    say!(
        printer,
        "  {} settings {path}: relay entries for {}",
        file.scope,
        entries.join(", ")
    );
}

fn relay_hook(printer: &Printer, hook: &RelayHook) {
    let matcher = hook
        .matcher
        .as_deref()
        .filter(|m| !m.is_empty())
        .unwrap_or("*");
    say!(printer, "    {} [{matcher}] {}", hook.event, hook.summary);
    let enabled = if hook.enabled { "enabled" } else { "disabled" };
    let last = match &hook.last_run {
        None => "never run by the relay".to_owned(),
        Some(run) => {
            let mut last = format!("last run {}: {}", run.time, run.status);
            if let Some(reason) = run.skip_reason.as_deref().filter(|r| !r.is_empty()) {
                last.push_str(&format!(" ({reason})"));
            }
            if let Some(code) = run.exit_code {
                last.push_str(&format!(", exit {code}"));
            }
            if let Some(error) = &run.error {
                last.push_str(&format!(": {error}"));
            }
            last
        }
    };
    say!(
        printer,
        "      key {}; {}, {enabled}; {last}",
        hook.key,
        hook.trust
    );
    for problem in &hook.problems {
        problem_lines(printer, "      ", problem);
    }
}

fn problem_lines(printer: &Printer, indent: &str, problem: &Problem) {
    say!(printer, "{indent}! {}", problem.what);
    if let Some(fix) = &problem.fix {
        say!(printer, "{indent}  fix: {fix}");
    }
}
