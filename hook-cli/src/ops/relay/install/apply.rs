//! The entries written: the relay hooks of the scope decide them ([`apply()`], for `install` and
//! `sync`), the agent's file is edited to hold exactly them ([`edit`], also `uninstall`'s; the
//! document made to hold them by [`sync_doc`]), and what is left to do is found (Codex's trust,
//! the relay hooks not trusted yet).

use super::codex_records::codex_trust_step;
use std::collections::BTreeSet;

use super::report::{Edited, Entries, Portable, SyncReport};
use super::scope::{Resolved, found_kind, hook_on_path};
use super::state::State;
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::{Changes, SettingsDoc};
use crate::ops::relay::read::entries::{Wanted, wanted_entries};
use crate::ops::relay::read::files;
use crate::ops::relay::read::files::personal_agent_file;
use anyhow::{Result, bail};
use hook_config::Diagnostic;
use hook_config::Handler;
use hook_protocol::Dialect;
use std::path::{Path, PathBuf};

/// Writes the entries the relay hooks need, then finds what is left to do.
pub(super) fn apply(scope: &Resolved, trust: bool, report: &mut SyncReport) -> Result<()> {
    let loaded = scope.relay_hooks()?;
    report.diagnostics = loaded.diagnostics.clone();
    report
        .diagnostics
        .extend(unrunnable_guards(scope.dialect, loaded.registry.handlers()));
    // This scope's relay hooks only (`Resolved::options`): each scope's entries start the relay
    // for its own hooks (`--scope`), so entries of both scopes on one call never run a relay
    // hook twice, and a project's shared entries do not depend on the installer's own.
    let handlers = loaded.registry.handlers();
    let broken = loaded.registry.broken();
    // Codex's relay runs the guards written for Claude Code too: their events and matchers
    // join the entries, whose timeouts cover them.
    let guests = scope.claude_guards();
    let any_relay_hook = !handlers.is_empty() || !broken.is_empty() || !guests.is_empty();
    let wanted = wanted_entries(
        scope.dialect,
        scope.agent,
        &handlers.iter().chain(&guests).collect::<Vec<_>>(),
        broken,
        any_relay_hook,
    );
    // In the agent's terms: an agent whose events the relay translates may have no event for
    // some relay hooks, which are then named (no entry starts the relay for them there).
    let mut entries = Vec::new();
    for w in wanted {
        match scope.adapter.entry(&w) {
            Some(entry) => entries.push(entry),
            None => {
                let keys: Vec<String> = handlers
                    .iter()
                    .filter(|h| h.event == w.event)
                    .map(|h| h.key.clone())
                    .collect();
                if !keys.is_empty() {
                    report.unguarded.push((w.event.as_str().to_owned(), keys));
                }
            }
        }
    }
    let wanted = entries;
    if scope.relay_scope == RelayScope::Project && scope.program == Path::new("hook") {
        report.portable = Some(Portable {
            on_path: hook_on_path().map(|found| {
                let kind = found_kind(&found);
                (found, kind)
            }),
            this: std::env::current_exe().ok(),
        });
    }
    report.personal_hooks_in_shared = personal_hooks_in_shared(scope, handlers);
    // A relay file that could not be read at all may have hooks on any event: its entries stay.
    let unreadable = broken.iter().any(|b| b.event.is_none());
    if unreadable && trust {
        let reasons: Vec<&str> = broken
            .iter()
            .filter(|b| b.event.is_none())
            .map(|b| b.error.as_str())
            .collect();
        bail!(
            "--trust: a relay file cannot be read, so the relay entries it needs are unknown and none is trusted: {}; fix it, then run this command again",
            reasons.join("; ")
        );
    }
    report.unreadable_relay_file = unreadable;
    edit(scope, &wanted, unreadable, &mut report.edit)?;
    report.by_hand = by_hand(scope);
    let removed = report.edit.changes.removed;
    report.entries = Some(if wanted.is_empty() {
        Entries::NoRelayHooks {
            places: loaded
                .discovery
                .files
                .iter()
                .map(|f| f.path.clone())
                .collect(),
            removed,
        }
    } else if report.edit.written {
        Entries::Written {
            wanted: wanted.iter().map(|w| scope.adapter.written(w)).collect(),
            added: report.edit.changes.added.len(),
            removed,
            unchanged: report.edit.changes.kept,
        }
    } else {
        Entries::UpToDate
    });
    if !wanted.is_empty() && scope.dialect.rules().config().trust_state_in_config() {
        report.codex_trust = Some(codex_trust_step(scope, &wanted, trust)?);
    }
    report.untrusted = untrusted_relay_keys(&loaded);
    Ok(())
}

/// The agent's personal settings file of the project, when every relay hook of the project is
/// personal (`hook-relay/settings.local.json`) and the entries go to the shared settings file:
/// a teammate would get entries for hooks that are not theirs, which block every guarded event
/// where their `PATH` has no `hook` (the entries fail closed).
fn personal_hooks_in_shared(scope: &Resolved, handlers: &[Handler]) -> Option<PathBuf> {
    let project = scope.project.as_deref()?;
    let shared = files::shared_agent_file(scope.agent, project);
    let all_personal = !handlers.is_empty()
        && handlers
            .iter()
            .all(|handler| handler.source.layer == hook_protocol::Layer::Local);
    if scope.relay_scope != RelayScope::Project || !all_personal || scope.file != shared {
        return None;
    }
    personal_agent_file(scope.agent, project)
}

/// Edits the agent's file so its relay entries are `wanted`, saying in `edited` what it did.
pub(super) fn edit(
    scope: &Resolved,
    wanted: &[Wanted],
    keep_others: bool,
    edited: &mut Edited,
) -> Result<()> {
    let locked = scope.lock_file(&mut edited.through_link)?;
    let existed = locked.text.is_some();
    if !existed && wanted.is_empty() {
        // Nothing to take out, nothing to add: no file is created.
        return Ok(());
    }
    let mut state = locked.state.load(&locked.path)?;
    let text = locked.text.clone().unwrap_or_default();
    let mut doc = scope.adapter.open(&text, &locked.path)?;
    edited.changes = sync_doc(doc.as_mut(), scope, wanted, keep_others)?;
    let changes = &edited.changes;
    let new_text = doc.text();
    let unchanged = changes.added.is_empty() && changes.removed == 0;
    if unchanged || (existed && new_text == text) {
        return Ok(());
    }
    if !existed {
        // Install made this file: remember what it wrote, so uninstall can take it away.
        locked.write(&new_text)?;
        state.created = Some(new_text);
        locked.state.save(&state)?;
        edited.written = true;
        return Ok(());
    }
    if wanted.is_empty() && holds_only_what_install_wrote(scope, &state, &new_text, &locked.path) {
        locked.remove()?;
        state.created = None;
        locked.state.save(&state)?;
        edited.removed_created_file = Some(locked.path.clone());
        edited.written = true;
        return Ok(());
    }
    edited.backup = scope.backup(&locked)?;
    locked.write(&new_text)?;
    if wanted.is_empty() {
        // The relay's entries are gone and the file holds the user's own: it is theirs now.
        state.created = None;
    }
    state.wrote(locked.text.as_deref(), &new_text);
    locked.state.save(&state)?;
    edited.written = true;
    Ok(())
}

/// Whether `new_text` (the agent's file with the relay's entries taken out) is what the file
/// `hook relay install` created (`state` records it) becomes without them: nothing of the
/// user's is in it, so removing the file loses nothing.
pub(super) fn holds_only_what_install_wrote(
    scope: &Resolved,
    state: &State,
    new_text: &str,
    path: &Path,
) -> bool {
    let Some(was) = &state.created else {
        return false;
    };
    let Ok(mut doc) = scope.adapter.open(was, path) else {
        return false;
    };
    sync_doc(doc.as_mut(), scope, &[], false).is_ok() && doc.text() == new_text
}

/// The events of the entries of the agent's file written by hand that start the same relay
/// ([`RelayOf::by_hand`](crate::ops::relay::read::entries::RelayOf::by_hand)).
fn by_hand(scope: &Resolved) -> Vec<String> {
    let of = scope.adapter.relay_of();
    let Ok(Some((text, _))) = files::read_regular(&scope.file) else {
        return Vec::new();
    };
    let Ok(doc) = scope.adapter.open(&text, &scope.file) else {
        return Vec::new();
    };
    doc.hooks()
        .unwrap_or_default()
        .into_iter()
        .filter(|hook| hook.command.as_deref().is_some_and(|c| of.by_hand(c)))
        .map(|hook| hook.event)
        .collect()
}

/// The keys of the relay hooks of the scope that the relay's trust store does not let run.
fn untrusted_relay_keys(loaded: &hook_config::Loaded) -> Vec<String> {
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    loaded
        .registry
        .handlers()
        .iter()
        .map(|h| view.evaluate(h))
        .filter(|t| !t.may_run())
        .map(|t| t.key)
        .collect()
}

/// A warning for each relay hook of a type the relay has no client for (`mcp_tool`; `prompt`
/// and `agent` unless the agent's environment names a model with `HOOK_MODEL_URL`) on an event
/// that can block: it is skipped there (`no_client`), so the event goes ahead, or, with
/// `onFailure: "block"`, is blocked every time. Said where it is written, as status and doctor
/// say it where it is looked at.
fn unrunnable_guards(dialect: Dialect, handlers: &[Handler]) -> Vec<Diagnostic> {
    handlers
        .iter()
        .filter(|handler| crate::ops::relay::read::missing_client(dialect, handler).is_some())
        .map(|handler| {
            Diagnostic::warning(
                handler.source.path.clone().unwrap_or_default(),
                handler.position,
                format!(
                    "{}: a `{}` guard on {} does not run under the relay, which has no MCP client (and no model unless HOOK_MODEL_URL is set where the agent runs): it is skipped, and the event goes ahead (or, with onFailure \"block\", is blocked every time); write it as a `command` guard (`http` runs too)",
                    handler.key,
                    handler.config.handler_type.as_str(),
                    handler.event
                ),
            )
        })
        .collect()
}

/// Makes the relay entries of `doc` exactly `wanted` (each running the scope's program, with its
/// home, for its relay hooks: [`relay_command`]), touching nothing else; with `keep_others`,
/// entries on events `wanted` does not name stay (a relay file that could not be read may have
/// hooks there).
///
/// [`relay_command`]: crate::ops::relay::read::entries::relay_command
pub(super) fn sync_doc(
    doc: &mut dyn SettingsDoc,
    scope: &Resolved,
    wanted: &[Wanted],
    keep_others: bool,
) -> Result<Changes> {
    let dialect = scope.dialect;
    let mut changes = Changes::default();
    let commands: Vec<String> = wanted.iter().map(|w| scope.command(w)).collect();
    // As the agent's file holds them (its event names, matchers and timeout unit).
    let wanted: Vec<Wanted> = wanted.iter().map(|w| scope.adapter.written(w)).collect();
    let wanted = wanted.as_slice();
    let mut kept: BTreeSet<String>;
    loop {
        kept = BTreeSet::new();
        let mut stale = None;
        for found in doc.found(dialect)? {
            let fits = wanted.iter().zip(&commands).any(|(w, command)| {
                w.event.as_str() == found.event
                    && found.group_len == 1
                    && &found.command == command
                    && found.matcher == w.matcher
                    && found.timeout.as_deref() == Some(w.timeout.to_string().as_str())
                    && (found.on_failure.as_deref() == Some("block")) == w.on_failure_block
            });
            if fits && kept.insert(found.event.clone()) {
                continue;
            }
            let elsewhere = !wanted.iter().any(|w| w.event.as_str() == found.event);
            if keep_others && elsewhere && !kept.contains(&found.event) {
                kept.insert(found.event.clone());
                continue;
            }
            stale = Some(found);
            break;
        }
        match stale {
            Some(found) => {
                doc.remove(&found)?;
                changes.removed += 1;
            }
            None => break,
        }
    }
    changes.kept = kept.len();
    for (w, command) in wanted.iter().zip(&commands) {
        if !kept.contains(w.event.as_str()) {
            doc.add(w, command)?;
            changes.added.push(w.event.as_str().to_owned());
        }
    }
    Ok(changes)
}
