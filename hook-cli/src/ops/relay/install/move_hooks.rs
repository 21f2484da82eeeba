//! `install --move`: the agent's own hooks moved into the relay's file of the same scope, and
//! trusted there when the agent was running them.

use super::agent_file;
use super::report::{MoveReport, ThroughLink, TrustedMoved};
use super::scope::Resolved;
use super::state::{MoveRecord, MovedGroup, digest};
use crate::ops::relay::agents::relative_library;
use anyhow::{Context, Result};
use std::path::Path;

/// `--move`: the agent's own hooks of the scope into the relay's file of the same scope.
pub(super) fn move_agent_hooks(scope: &Resolved, report: &mut MoveReport) -> Result<()> {
    let locked = scope.lock_file(&mut report.agent_link)?;
    let Some(text) = locked.text.clone() else {
        report.no_file = true;
        return Ok(());
    };
    let relay_file = scope.relay_settings_file()?;
    let (remaining, moved) = take_own_hooks(&text, &locked.path, scope)?;
    report.relative_libraries = moved.relative_libraries.clone();
    if moved.hooks.is_empty() {
        report.nothing_to_move = true;
        return Ok(());
    }
    let (relay_before, relay_after) = append_to_relay_file(
        &relay_file,
        scope,
        &moved,
        scope.project.as_deref(),
        &mut report.relay_link,
        &scope.state_places()?,
    )?;
    report.backup = scope.backup(&locked)?;
    locked.write(&remaining)?;
    // What uninstall needs to put the hooks back where they came from.
    let mut state = locked.state.load(&locked.path)?;
    let groups = moved.groups.clone();
    state.moves.push(MoveRecord {
        before: text.clone(),
        after: digest(&remaining),
        groups,
        relay_file: relay_file.clone(),
        relay_before,
        relay_after: digest(&relay_after),
        from_project: false,
    });
    locked.state.save(&state)?;
    drop(locked);
    report.moved_to = Some((moved.hooks.len(), relay_file.clone()));
    trust_moved(scope, &relay_file, &moved, report)
}

/// One moved hook, and whether the agent was running it.
#[derive(Debug, Clone)]
pub(super) struct MovedHook {
    pub(super) event: String,
    pub(super) matcher: Option<String>,
    pub(super) command: Option<String>,
    pub(super) ran: bool,
}

/// The moved groups, as the agent's format writes them, and the hooks in them.
#[derive(Default)]
pub(super) struct Moved {
    pub(super) groups: Vec<MovedGroup>,
    pub(super) hooks: Vec<MovedHook>,
    /// `native` handlers with a relative `library`: `(event, library)` ([`relative_library`]).
    pub(super) relative_libraries: Vec<(String, String)>,
}

/// The agent's file `text` without its own hook groups, and those groups: each whole, with
/// its hooks and whether the agent was running each (Codex: its record of the hook holds the
/// hook's hash; an agent that keeps no records runs every hook of a file it reads).
fn take_own_hooks(text: &str, file: &Path, scope: &Resolved) -> Result<(String, Moved)> {
    let mut doc = scope.adapter.open(text, file)?;
    let records = scope
        .adapter
        .hook_records(&scope.file, scope.project.as_deref())?;
    let mut moved = Moved::default();
    for group in doc.take_own_groups(scope.dialect)? {
        for hook in &group.hooks {
            moved.relative_libraries.extend(relative_library(hook));
            moved.hooks.push(MovedHook {
                event: hook.event.clone(),
                matcher: hook.matcher.clone(),
                command: hook.command.clone(),
                ran: records.as_ref().is_none_or(|records| records.trusts(hook)),
            });
        }
        moved.groups.push(MovedGroup {
            event: group.event,
            text: group.text,
        });
    }
    Ok((doc.text(), moved))
}

/// Appends the moved groups to the relay file (created when missing), each as it was written;
/// the relay file's text before (`None`: there was none) and after.
pub(super) fn append_to_relay_file(
    relay_file: &Path,
    scope: &Resolved,
    moved: &Moved,
    inside: Option<&Path>,
    link: &mut Option<ThroughLink>,
    places: &agent_file::StatePlaces,
) -> Result<(Option<String>, String)> {
    let locked = agent_file::lock_and_read(relay_file, inside, link, places)?;
    let text = locked.text.clone().unwrap_or_default();
    let mut doc = scope.adapter.open(&text, relay_file)?;
    for group in &moved.groups {
        doc.append_group(&group.event, &group.text)?;
    }
    let new_text = doc.text();
    locked.write(&new_text)?;
    Ok((locked.text.clone(), new_text))
}

/// Trusts, in the relay's store, the moved hooks the agent was running; lists the others in
/// `report`.
pub(super) fn trust_moved(
    scope: &Resolved,
    relay_file: &Path,
    moved: &Moved,
    report: &mut MoveReport,
) -> Result<()> {
    let loaded = hook_config::load(&scope.options()).context("cannot load the relay's hooks")?;
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let relay_file = relay_file.display().to_string();
    let mut candidates = Vec::new();
    let mut waiting = Vec::new();
    for handler in loaded.registry.handlers() {
        if handler.source.path.as_deref() != Some(relay_file.as_str()) {
            continue;
        }
        let Some(hook) = moved.hooks.iter().find(|m| {
            m.event == handler.event.as_str()
                && m.matcher == handler.matcher
                && m.command == handler.config.command
        }) else {
            continue;
        };
        let candidate = view.candidate(handler);
        let trust = candidate.trust();
        if trust.may_run() || !trust.needs_trust {
            continue;
        }
        if hook.ran {
            candidates.push(candidate);
        } else {
            waiting.push(trust.key.clone());
        }
    }
    let store = hook_trust::store_for_discovery(&loaded.discovery);
    // One hook at a time: a file that cannot be hashed keeps that hook (only) from being
    // trusted, and the user is told which and why.
    let mut granted = Vec::new();
    for candidate in &candidates {
        match view.trust(store.as_ref(), std::slice::from_ref(candidate)) {
            Ok(trusted) => {
                report
                    .copy_warnings
                    .extend(trusted.copy_warnings.iter().map(ToString::to_string));
                granted.extend(trusted.granted);
            }
            Err(hook_trust::GrantError::Store(error)) => {
                return Err(error).with_context(|| {
                    format!(
                        "cannot trust the moved hooks in {}",
                        store.location().display()
                    )
                });
            }
            Err(error) => {
                report
                    .not_trusted
                    .push((candidate.trust().key.clone(), error.to_string()));
            }
        }
    }
    if !granted.is_empty() {
        report.trusted = Some(TrustedMoved {
            store: store.location().to_path_buf(),
            granted,
        });
    }
    report.waiting = waiting;
    Ok(())
}
