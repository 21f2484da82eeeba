//! `hook doctor`'s checks of the relay as the agent starts it: each relay hook has an entry
//! in the agent's settings that reaches it (`hook relay install`'s own reckoning,
//! [`crate::ops::relay::relay_reach`]), the relay is installed at all where a relay file has
//! hooks, and the program each entry starts exists and is executable. Each is an error: a
//! guard the agent never starts guards nothing, and says nothing.

use std::collections::BTreeMap;
use std::path::Path;

use hook_protocol::Dialect;

use super::command::{Env, is_executable};
use super::hooks::where_configured;
use super::{Finding, Fix, Severity};
use crate::ops::location::Location;
use crate::ops::relay::{Reach, UnreachedWhy, relay_reach};

/// Every finding of the relay of `location`'s dialect: none for a dialect without a relay
/// agent, or when its relay hooks cannot be loaded (the relay's diagnostics say why).
pub(super) fn check_relay(location: &Location, env: &Env, findings: &mut Vec<Finding>) {
    let project = location.project_dir().ok();
    let home = location.home.as_deref();
    // Gemini CLI reads the relay's hooks for Claude Code too: its entries' timeouts are
    // milliseconds.
    if location.dialect == crate::ops::relay::agents::gemini::GEMINI.dialect() {
        findings.extend(
            crate::ops::relay::agents::gemini::short_timeouts(project.as_deref())
                .into_iter()
                .map(gemini_short_timeout),
        );
    }
    let Some(reach) = relay_reach(location.dialect, project.as_deref(), home) else {
        return;
    };
    if reach.hooks == 0 {
        return;
    }
    let installed = !reach.entries.is_empty();
    if !installed {
        findings.push(not_installed(location.dialect, &reach, home));
    }
    for unreached in &reach.unreached {
        // Not installed at all: said once above, not once per hook.
        if !installed && unreached.why == UnreachedWhy::NoEntry {
            continue;
        }
        findings.push(Finding {
            severity: Severity::Error,
            key: unreached.handler.key.clone(),
            location: where_configured(&unreached.handler),
            message: unreached.message.clone(),
            fix: Some(Fix::Say(match &unreached.fix {
                Some(fix) => format!("run `{fix}`"),
                None => format!(
                    "move it to an event {} sends, or remove it",
                    reach.agent.name
                ),
            })),
        });
    }
    check_programs(location.dialect, &reach, env, findings);
}

/// The relay files have hooks, and no settings file of the agent has a relay entry (never
/// installed, or `hook relay uninstall` ran and the relay file stayed).
fn not_installed(dialect: Dialect, reach: &Reach, home: Option<&Path>) -> Finding {
    let files: Vec<String> = reach
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    let mut install = format!("hook relay install --dialect {dialect}");
    if let Some(home) = home {
        install.push_str(&format!(
            " --home {}",
            crate::shell::quote(&home.display().to_string())
        ));
    }
    let project_hooks = reach
        .unreached
        .iter()
        .any(|u| u.handler.source.layer != hook_protocol::Layer::User);
    let project = if project_hooks {
        " (and with `--project DIR` for a project's relay file)"
    } else {
        ""
    };
    Finding {
        severity: Severity::Error,
        key: "-".into(),
        location: files.first().cloned().unwrap_or_else(|| "-".into()),
        message: format!(
            "the relay is not installed: {} has no relay entry in {}, so none of the {} relay hook(s) runs",
            reach.agent.name,
            files.join(" or "),
            reach.hooks
        ),
        fix: Some(Fix::Say(format!(
            "run `{install}`{project}, or remove the relay file if you meant to stop using it"
        ))),
    }
}

/// The program each relay entry starts: a path must be an executable regular file, a bare
/// name (`hook`) must be on the agent's `PATH`. One finding per file and program, naming the
/// events whose entries start it.
fn check_programs(dialect: Dialect, reach: &Reach, env: &Env, findings: &mut Vec<Finding>) {
    let mut by_program: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for entry in &reach.entries {
        // `is_relay_entry` read it with the same splitter: a program comes first.
        let Some(program) = shlex::split(&entry.command).and_then(|w| w.into_iter().next()) else {
            continue;
        };
        by_program
            .entry((entry.file.display().to_string(), program))
            .or_default()
            .push(entry.event.clone());
    }
    for ((file, program), events) in by_program {
        let Some(problem) = program_problem(&program, env) else {
            continue;
        };
        findings.push(Finding {
            severity: Severity::Error,
            key: "-".into(),
            location: file,
            message: format!(
                "the relay entries for {} start `{program}`, which {problem}: {} cannot start the relay, so no relay hook runs there (where an entry has `onFailure: \"block\"`, Claude Code blocks the event instead)",
                events.join(", "),
                reach.agent.name
            ),
            fix: Some(Fix::Say(format!(
                "put `hook` back at that path, or run `hook relay install --dialect {dialect}` with the `hook` you have (it rewrites the entries to start it)"
            ))),
        });
    }
}

/// Why `program` cannot be started where the agent runs it, if it cannot.
fn program_problem(program: &str, env: &Env) -> Option<String> {
    if !program.contains('/') {
        return env
            .which(program)
            .is_none()
            .then(|| "is not on the agent's PATH".to_owned());
    }
    match std::fs::metadata(program) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Some("does not exist".to_owned())
        }
        Err(error) => Some(format!("cannot be read ({error})")),
        Ok(meta) if !meta.is_file() => {
            Some(format!("is {}, not a program", hook_fs::kind_of(&meta)))
        }
        Ok(_) if !is_executable(Path::new(program)) => Some("is not executable".to_owned()),
        Ok(_) => None,
    }
}

/// A relay entry Gemini CLI cuts off before the relay answers.
fn gemini_short_timeout(short: crate::ops::relay::agents::gemini::ShortTimeout) -> Finding {
    let origin = if short.migrated {
        " (an entry of Claude Code's copied by `gemini hooks migrate --from-claude`, which keeps Claude Code's seconds as they are)"
    } else {
        ""
    };
    Finding {
        severity: Severity::Error,
        key: "-".into(),
        location: short.file.display().to_string(),
        message: format!(
            "Gemini CLI reads this {} relay entry's \"timeout\": {} as {} ms{origin}: it cuts the relay off before it answers, and then lets the call run",
            short.event, short.timeout, short.timeout
        ),
        fix: Some(Fix::Say(format!(
            "set its \"timeout\" to {} (milliseconds) in {}",
            short.timeout.saturating_mul(1000).max(1000),
            short.file.display()
        ))),
    }
}
