//! The entries written: the relay hooks of the scope decide them ([`apply()`], for `install` and
//! `sync`), the agent's file is edited to hold exactly them ([`edit`], also `uninstall`'s),
//! and what is left to do is found (Codex's trust, the relay hooks not trusted yet).

use super::*;

/// Writes the entries the relay hooks need, then finds what is left to do.
pub(super) fn apply(scope: &Resolved, trust: bool, report: &mut SyncReport) -> Result<()> {
    let loaded = scope.relay_hooks()?;
    report.diagnostics = loaded.diagnostics.clone();
    let handlers = loaded.registry.handlers();
    let broken = loaded.registry.broken();
    // A project's entries leave out what the user's entries already start the relay for:
    // Codex runs every matching entry, so two entries would run each relay hook twice.
    let user_entries = match &scope.project {
        Some(_) => installed_entries(
            scope.dialect,
            scope.agent,
            &[agent_home(scope.agent)?.join(scope.agent.config_file)],
        ),
        None => Vec::new(),
    };
    let needed: Vec<&Handler> = handlers
        .iter()
        .filter(|h| !reached(scope.dialect, &user_entries, h))
        .collect();
    let any_relay_hook = !handlers.is_empty() || !broken.is_empty();
    let user_announces = user_entries
        .iter()
        .any(|(event, _)| event == scope.agent.session_event.as_str());
    let wanted = wanted_entries(
        scope.dialect,
        scope.agent,
        &needed,
        broken,
        any_relay_hook && !user_announces,
    );
    report.served_by_user = handlers.len() - needed.len();
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
    let removed = report.edit.changes.removed;
    report.entries = Some(if wanted.is_empty() && any_relay_hook {
        Entries::ServedByUser { removed }
    } else if wanted.is_empty() {
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
            wanted: wanted.clone(),
            added: report.edit.changes.added.len(),
            removed,
            unchanged: report.edit.changes.kept,
        }
    } else {
        Entries::UpToDate
    });
    if !wanted.is_empty() && scope.dialect.rules().trust_state_in_config() {
        report.codex_trust = Some(codex_trust_step(scope, &wanted, trust)?);
    }
    report.untrusted = untrusted_relay_keys(&loaded);
    Ok(())
}

/// Edits the agent's file so its relay entries are `wanted`, saying in `edited` what it did.
pub(super) fn edit(
    scope: &Resolved,
    wanted: &[Wanted],
    keep_others: bool,
    edited: &mut Edited,
) -> Result<()> {
    let locked = agent_file::lock_and_read(&scope.file, scope.inside(), &mut edited.through_link)?;
    let existed = locked.text.is_some();
    if !existed && wanted.is_empty() {
        // Nothing to take out, nothing to add: no file is created.
        return Ok(());
    }
    let text = locked.text.clone().unwrap_or_default();
    let mut doc = open_doc(scope.agent.config_format, &text, &locked.path)?;
    edited.changes = sync_doc(
        doc.as_mut(),
        scope.dialect,
        wanted,
        keep_others,
        &scope.program,
        scope.home.as_deref(),
    )?;
    let changes = &edited.changes;
    let new_text = doc.text();
    let unchanged = changes.added.is_empty() && changes.removed == 0;
    if unchanged || (existed && new_text == text) {
        return Ok(());
    }
    let created = agent_file::created_marker(&locked.path);
    if !existed {
        // Install made this file: remember what it wrote, so uninstall can take it away.
        locked.write(&new_text)?;
        agent_file::write_file(&created, None, new_text.as_bytes())?;
        edited.written = true;
        return Ok(());
    }
    if wanted.is_empty() && holds_only_what_install_wrote(scope, &created, &new_text, &locked.path)
    {
        locked.remove()?;
        let _ = std::fs::remove_file(&created);
        edited.removed_created_file = Some(locked.path.clone());
        edited.written = true;
        return Ok(());
    }
    edited.backup = scope.backup(&locked)?;
    locked.write(&new_text)?;
    if wanted.is_empty() {
        // The relay's entries are gone and the file holds the user's own: it is theirs now.
        let _ = std::fs::remove_file(&created);
    }
    edited.written = true;
    Ok(())
}

/// Whether `new_text` (the agent's file with the relay's entries taken out) is what the file
/// `hook relay install` created (`created` records it) becomes without them: nothing of the
/// user's is in it, so removing the file loses nothing.
fn holds_only_what_install_wrote(
    scope: &Resolved,
    created: &Path,
    new_text: &str,
    path: &Path,
) -> bool {
    let Ok(Some((was, _))) = agent_file::read_regular(created) else {
        return false;
    };
    let Ok(mut doc) = open_doc(scope.agent.config_format, &was, path) else {
        return false;
    };
    sync_doc(
        doc.as_mut(),
        scope.dialect,
        &[],
        false,
        &scope.program,
        scope.home.as_deref(),
    )
    .is_ok()
        && doc.text() == new_text
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
