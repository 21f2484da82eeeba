//! Which guards written for Claude Code (its relay files) the entries of Codex CLI start its
//! relay for: Codex's relay runs them beside its own ([`crate::ops::relay::agents::codex`]'s
//! `claude_guards_for`), but only on an event and tool one of Codex's entries starts it on.
//! A guard added after `hook relay install --agent codex` is not reached until `sync`; the
//! relay says so at the start of each session and `hook relay status --agent codex` counts it,
//! as for Codex's own relay hooks.

use std::path::Path;

use hook_protocol::Dialect;

use super::files::{agent_file, project_agent_files, relay_options};
use super::reach::{installed_entries, reached};
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::codex::claude_guards_for;

/// Each guard of the guest relay files (Claude Code's, for Codex's relay: `host`) of `scope`
/// (both without one) that no entry of `host`'s agent starts the relay for, as a line with
/// the command that fixes it; empty when `host` runs none, has no relay entry at all, or they
/// cannot be loaded (the relay then fails closed on the event, saying why).
pub(crate) fn unreached_guest_guards(
    host: Dialect,
    project: Option<&Path>,
    guest_home: Option<&Path>,
    scope: Option<RelayScope>,
) -> Vec<String> {
    let (Some(guest), Some(agent)) = (claude_guards_for(host), host.rules().agent().relay()) else {
        return Vec::new();
    };
    let Ok(loaded) = hook_config::load(&relay_options(guest, project, guest_home)) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    if let Ok(file) = agent_file(agent, None, None) {
        files.push(file);
    }
    if let Some(project) = project {
        files.extend(project_agent_files(agent, project));
    }
    let entries = installed_entries(host, &files);
    // No relay entry at all: the agent never starts the relay, and is not set up for it
    // (what `hook relay status` says); nothing more to say of these guards.
    if entries.is_empty() {
        return Vec::new();
    }
    let guest_title = guest.rules().agent().title();
    let sync = format!("hook relay sync --agent {}", crate::ops::agents::name(host));
    loaded
        .registry
        .handlers()
        .iter()
        .filter(|handler| scope.is_none_or(|s| RelayScope::of_layer(handler.source.layer) == s))
        .filter_map(|handler| {
            if !agent.events.contains(&handler.event) {
                return Some(format!(
                    "{guest_title} guard {} never runs in {}: it sends no {} event",
                    handler.key, agent.name, handler.event
                ));
            }
            (!reached(host, &entries, handler)).then(|| {
                let mut fix = sync.clone();
                if RelayScope::of_layer(handler.source.layer) == RelayScope::Project
                    && let Some(project) = project
                {
                    fix.push_str(&crate::shell::path_flag("project", project));
                }
                format!(
                    "{guest_title} guard {} never runs in {}: no entry of its starts the relay for it (`{fix}`)",
                    handler.key, agent.name
                )
            })
        })
        .collect()
}
