//! What `hook relay status` prints: per agent a headline (guarding, not set up, or how many
//! problems stop a guard), its settings files with their relay entries, the program they
//! start, the relay files, each relay hook with its trust and last run, and each problem with
//! its fix; `--json`: the same as one object.
//!
//! Colour (on a terminal, [`Printer::spans`]): the headline's state green when guarding, red
//! when something stops a guard, yellow when not set up; a program that runs green, one that
//! does not red; problems red, fixes green, warnings yellow, notes dim.

use anyhow::Result;

use crate::ops::relay::status::{AgentStatus, Problem, RelayHook, SettingsFile};
use crate::ui::colour::{DIM, GREEN, RED, YELLOW};
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
    let (colour, state) = if agent.hooks.is_empty() && !agent.installed() {
        (
            YELLOW,
            "not set up (no relay hooks, no relay entries)".to_owned(),
        )
    } else if problems > 0 {
        let state = format!(
            "{problems} problem{} stop{} a guard",
            plural(problems),
            if problems == 1 { "s" } else { "" }
        );
        (RED, state)
    } else {
        let state = format!(
            "guarding: {} relay hook{}, each trusted and reached",
            agent.hooks.len(),
            plural(agent.hooks.len())
        );
        (GREEN, state)
    };
    let title = format!("{} (--agent {}): ", agent.title, agent.agent);
    printer.spans(&[("", &title), (colour, &state)]);
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
        let program_at = format!("  program {}{at}", program.program);
        match (&program.version, &program.problem) {
            (Some(version), _) => printer.spans(&[
                ("", &program_at),
                ("", ": "),
                (GREEN, "runs"),
                ("", &format!(" ({version})")),
            ]),
            (_, Some(problem)) => printer.spans(&[("", &program_at), ("", ": "), (RED, problem)]),
            _ => say!(printer, "{program_at}"),
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
        printer.spans(&[
            ("", "  "),
            (YELLOW, "warning:"),
            ("", &format!(" {line}; last runs may be missing")),
        ]);
    }
    for note in &agent.notes {
        printer.spans(&[("", "  "), (DIM, &format!("note: {note}"))]);
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
    let (enabled, enabled_colour) = if hook.enabled {
        ("enabled", "")
    } else {
        ("disabled", YELLOW)
    };
    let trust_colour = match hook.trust.as_str() {
        "trusted" | "managed" => GREEN,
        _ => RED,
    };
    let key = format!("      key {}; ", hook.key);
    let head = [
        ("", key.as_str()),
        (trust_colour, hook.trust.as_str()),
        ("", ", "),
        (enabled_colour, enabled),
        ("", "; "),
    ];
    let Some(run) = &hook.last_run else {
        printer.spans(&[&head[..], &[(DIM, "never run by the relay")]].concat());
        relay_hook_problems(printer, hook);
        return;
    };
    let when = format!("last run {}: ", run.time);
    let mut after = String::new();
    if let Some(reason) = run.skip_reason.as_deref().filter(|r| !r.is_empty()) {
        after.push_str(&format!(" ({reason})"));
    }
    if let Some(code) = run.exit_code {
        after.push_str(&format!(", exit {code}"));
    }
    if let Some(error) = &run.error {
        after.push_str(&format!(": {error}"));
    }
    let colour = match run.status.as_str() {
        "ok" | "blocked" | "stopped" | "async" => GREEN,
        "skipped" => YELLOW,
        _ => RED,
    };
    let last = [
        ("", when.as_str()),
        (colour, run.status.as_str()),
        ("", after.as_str()),
    ];
    printer.spans(&[&head[..], &last[..]].concat());
    relay_hook_problems(printer, hook);
}

fn relay_hook_problems(printer: &Printer, hook: &RelayHook) {
    for problem in &hook.problems {
        problem_lines(printer, "      ", problem);
    }
}

fn problem_lines(printer: &Printer, indent: &str, problem: &Problem) {
    printer.spans(&[("", indent), (RED, &format!("! {}", problem.what))]);
    if let Some(fix) = &problem.fix {
        printer.spans(&[
            ("", &format!("{indent}  ")),
            (GREEN, "fix:"),
            ("", &format!(" {fix}")),
        ]);
    }
}
