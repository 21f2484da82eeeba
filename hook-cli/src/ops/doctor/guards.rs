//! The checks of each relay guard that `hook doctor` and `hook relay status` share: one set, so
//! that status says "guarding" only when doctor finds no error that stops a guard. For each
//! relay hook, whether it would run and do its job now:
//!
//! - its command line ([`super::command`]: the program, the script, `jq`/`python3`/`node` on
//!   the agent's `PATH`): a guard script deleted with no event since is an error at once;
//! - its type: `prompt`, `agent` and `mcp_tool` on an event that can block never run under the
//!   relay (it has no model or MCP client; the engine skips them as `no_client`);
//! - its entries' timeout: an entry whose `timeout` (as written in the agent's file, else the
//!   agent's default) is not longer than the guard's is stopped by the agent before the guard
//!   is done (the relay needs a moment of its own), and the agent then goes ahead;
//! - its latest run by the relay: stderr saying a program is missing
//!   ([`hook_protocol::text::missing_program`]) means it did not do its job, whatever its exit (an
//!   exit 0 stays an allow in the relay: a warning, not a block);
//!
//! and, for Codex, whether Codex trusts the relay's entries: Codex runs a hook only when its
//! own `[hooks.state]` record (in the user's `config.toml`) holds the hash Codex computes for
//! it ([`hook_trust::codex_trust_hash`]); an entry without one never starts the relay.
//!
//! Every finding names the guard (or the file), the reason and the one command that fixes it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hook_config::{Handler, Loaded};
use hook_protocol::{Dialect, Event, HandlerType, RelayAgent};

use super::command::{Env, check_command};
use super::hooks::where_configured;
use super::{Finding, Fix, Severity};
use crate::ops::relay::status::LastRun;
use crate::ops::relay::{RelayScope, is_relay_entry};

/// Where the relay's guards are checked: the agent, the project and `--home`.
pub(crate) struct GuardScene<'a> {
    /// The relay's dialect.
    pub(crate) dialect: Dialect,
    /// Its agent.
    pub(crate) agent: &'static RelayAgent,
    /// The project whose settings and relay files are read beside the user's.
    pub(crate) project: &'a Path,
    /// `--home`, as given.
    pub(crate) home: Option<&'a Path>,
    /// The agent's `PATH` and project, for command lines.
    pub(crate) env: &'a Env,
    /// The latest relay run of each hook key ([`crate::ops::relay::status::relay_runs`]).
    pub(crate) runs: &'a BTreeMap<String, (LastRun, usize)>,
}

/// Every finding of the relay guards `loaded` (the relay's hooks) and of Codex's trust of the
/// relay's entries, in that order.
pub(crate) fn check_guards(scene: &GuardScene<'_>, loaded: &Loaded) -> Vec<Finding> {
    let mut findings = Vec::new();
    let entries = relay_entries(scene);
    for handler in loaded.registry.handlers() {
        let mut add = |severity: Severity, message: String, fix: Option<Fix>| {
            findings.push(Finding {
                severity,
                key: handler.key.clone(),
                location: where_configured(handler),
                message,
                fix,
            });
        };
        if handler.config.handler_type == HandlerType::Command {
            check_command(handler, scene.env, &mut add);
        }
        check_type(scene, handler, &mut add);
        check_entry_timeout(scene, handler, &entries, &mut add);
        check_latest_run(scene, handler, &mut add);
    }
    // Only an agent that keeps trust records in its own config (Codex's `[hooks.state]`)
    // gates its entries by them; Claude Code trusts the workspace.
    if scene.dialect.rules().config().trust_state_in_config() {
        findings.extend(codex_trust(scene));
    }
    findings
}

/// `--project` and `--home` for a suggested `hook relay` command of `scope`.
fn relay_flags(scene: &GuardScene<'_>, scope: RelayScope) -> String {
    let mut flags = String::new();
    if scope == RelayScope::Project {
        flags.push_str(&format!(
            " --project {}",
            crate::shell::quote(&scene.project.display().to_string())
        ));
    }
    if let Some(home) = scene.home {
        flags.push_str(&format!(
            " --home {}",
            crate::shell::quote(&home.display().to_string())
        ));
    }
    flags
}

/// A guard of a type the relay cannot run, on an event where it was meant to block.
fn check_type(scene: &GuardScene<'_>, handler: &Handler, add: &mut super::command::Add<'_>) {
    let kind = handler.config.handler_type;
    let Some(client) = crate::ops::relay::read::missing_client(scene.dialect, handler) else {
        return;
    };
    add(
        Severity::Error,
        format!(
            "a `{}` guard on {} never runs under the relay: the relay has no {client} client, so it is skipped (`no_client`) and the event goes ahead (or, with onFailure \"block\", is blocked every time)",
            kind.as_str(),
            handler.event
        ),
        Some(Fix::Say(
            "rewrite it as a `command` guard (an `http` guard also runs under the relay), or keep it in the agent's own settings, where the agent runs it"
                .into(),
        )),
    );
}

/// A relay entry in one of the agent's settings files, as status and doctor read it.
struct EntryFound {
    file: PathBuf,
    event: String,
    /// Its timeout in seconds: as written, else the agent's default.
    timeout: f64,
    written: bool,
    /// Whose relay hooks it starts the relay for (`None`: both, an earlier version's).
    scope: Option<RelayScope>,
}

/// The relay entries of the agent's user and project settings files (unreadable files are
/// status's and doctor's own findings).
fn relay_entries(scene: &GuardScene<'_>) -> Vec<EntryFound> {
    let mut files = Vec::new();
    if let Ok(user) = crate::ops::relay::read::files::agent_settings_file(scene.agent, None) {
        files.push(user);
    }
    if let Ok(shared) =
        crate::ops::relay::read::files::agent_settings_file(scene.agent, Some(scene.project))
        && !files.contains(&shared)
    {
        files.push(shared);
    }
    if let Some(personal) =
        crate::ops::relay::read::files::personal_agent_file(scene.agent, scene.project)
    {
        files.push(personal);
    }
    let mut entries = Vec::new();
    for file in files {
        let Ok(Some(found)) =
            crate::ops::relay::read::reach::relay_entries_in(scene.dialect, &file)
        else {
            continue;
        };
        for entry in found {
            let event = Event::from_name(&entry.event);
            let written = entry
                .timeout
                .as_deref()
                .and_then(|t| t.trim().parse::<f64>().ok());
            let default =
                hook_config::timeout_limits(scene.dialect, &event, HandlerType::Command).0;
            entries.push(EntryFound {
                file: file.clone(),
                timeout: written.unwrap_or(default),
                written: written.is_some(),
                scope: entry_scope(&entry.command),
                event: entry.event,
            });
        }
    }
    entries
}

/// The `--scope` an entry's command names.
fn entry_scope(command: &str) -> Option<RelayScope> {
    let words = shlex::split(command.split(" # ").next().unwrap_or(command))?;
    let at = words.iter().position(|w| w == "--scope")?;
    RelayScope::from_name(words.get(at + 1)?)
}

/// The entries that start the relay for `handler` must wait longer than the guard may run.
fn check_entry_timeout(
    scene: &GuardScene<'_>,
    handler: &Handler,
    entries: &[EntryFound],
    add: &mut super::command::Add<'_>,
) {
    // The relay answers without waiting for an async hook; a suppressed one never runs.
    if handler.config.is_async || handler.suppressed.is_some() {
        return;
    }
    let scope = RelayScope::of_layer(handler.source.layer);
    let guard = handler.timeout.as_secs_f64();
    // The one rule `install`, `sync` and the relay itself use: the guard's time plus the
    // relay's own, within the agent's bound.
    let needed = crate::ops::relay::read::entries::entry_timeout(
        scene.dialect,
        &handler.event,
        &[handler.timeout],
    ) as f64;
    let short = entries
        .iter()
        .filter(|e| e.event == handler.event.as_str() && e.scope.is_none_or(|s| s == scope))
        .filter(|e| e.timeout < needed)
        .min_by(|a, b| a.timeout.total_cmp(&b.timeout));
    let Some(entry) = short else {
        return;
    };
    let given = if entry.written {
        "its `timeout`"
    } else {
        "the agent's default, none written"
    };
    add(
        Severity::Error,
        format!(
            "its timeout ({guard} s) needs a relay entry of {needed} s (the relay's own time added), but its entry gives {} s ({given}, in {}): {} stops the relay first and goes ahead, so a slow run never blocks",
            entry.timeout,
            entry.file.display(),
            scene.agent.name
        ),
        Some(Fix::Say(format!(
            "run `hook relay sync --agent {}{}` (it rewrites the entry's timeout to cover the guard's)",
            crate::ops::agents::name(scene.dialect),
            relay_flags(scene, scope)
        ))),
    );
}

/// The guard's latest relay run reported a program missing.
fn check_latest_run(scene: &GuardScene<'_>, handler: &Handler, add: &mut super::command::Add<'_>) {
    let Some((last, _)) = scene.runs.get(&handler.key) else {
        return;
    };
    let Some(program) = &last.missing_program else {
        return;
    };
    let exit = last
        .exit_code
        .map(|code| format!(", exit {code}"))
        .unwrap_or_default();
    let then = if last.exit_code == Some(0) {
        ": the relay took its exit 0 as an allow"
    } else {
        ""
    };
    add(
        Severity::Error,
        format!(
            "degraded: its latest run ({}, {}{exit}) says `{program}` is missing, so it did not do its job{then}",
            last.time, last.status
        ),
        Some(Fix::Say(format!(
            "install `{program}` where {}'s PATH finds it (`hook doctor` shows that PATH), or make the guard fail when `{program}` is missing",
            scene.agent.name
        ))),
    );
}

/// Codex's trust of the relay's entries: each must have a `[hooks.state]` record in the
/// user's `config.toml` with the hash Codex computes for it, else Codex never runs it.
fn codex_trust(scene: &GuardScene<'_>) -> Vec<Finding> {
    let agent = scene.agent;
    let Some(adapter) = crate::ops::relay::agents::adapter(scene.dialect) else {
        return Vec::new();
    };
    let Ok(records_file) = crate::ops::relay::read::files::agent_settings_file(agent, None) else {
        return Vec::new();
    };
    let mut files = vec![(records_file.clone(), RelayScope::User)];
    if let Ok(shared) =
        crate::ops::relay::read::files::agent_settings_file(agent, Some(scene.project))
        && shared != records_file
    {
        files.push((shared, RelayScope::Project));
    }
    let mut findings = Vec::new();
    for (file, scope) in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(doc) = adapter.open(&text, &file) else {
            continue;
        };
        let project = (scope == RelayScope::Project).then_some(scene.project);
        let Ok(Some(records)) = adapter.hook_records(&file, project) else {
            continue;
        };
        let mut untrusted: Vec<String> = Vec::new();
        let mut count = 0;
        for hook in doc.hooks().unwrap_or_default() {
            if !hook
                .command
                .as_deref()
                .is_some_and(|command| is_relay_entry(command, scene.dialect))
            {
                continue;
            }
            count += 1;
            if !records.trusts(&hook) && !untrusted.contains(&hook.event) {
                untrusted.push(hook.event.clone());
            }
        }
        if untrusted.is_empty() {
            continue;
        }
        findings.push(Finding {
            severity: Severity::Error,
            key: "-".into(),
            location: file.display().to_string(),
            message: format!(
                "Codex does not trust the relay's entries for {} (of {count} in this file): no `[hooks.state]` record in {} holds the hash Codex computes for them, so Codex never starts the relay there",
                untrusted.join(", "),
                records_file.display()
            ),
            fix: Some(Fix::Say(format!(
                "run `hook relay install --agent {} --trust{}` (or trust them in Codex's `/hooks`)",
                crate::ops::agents::name(scene.dialect),
                relay_flags(scene, scope)
            ))),
        });
    }
    findings
}
