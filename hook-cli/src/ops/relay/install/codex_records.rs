//! Codex's own trust records of the relay entries (`[hooks.state]` in the user's
//! `config.toml`), with Codex's key and hash ([`hook_trust::codex_trust_hash`]).

use super::agent_file;
use super::report::CodexTrust;
use super::scope::Resolved;
use super::state::{CodexRecord, StateDir};
use crate::ops::relay::agents::codex::records;
use crate::ops::relay::agents::{Found, WrittenHook};
use crate::ops::relay::read::entries::Wanted;
use crate::ops::relay::read::files::{read_regular, relay_folder};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Codex: writes its trust records of the relay entries (`--trust`), or says what is left to
/// do. Only the entries this run wants, exactly as it writes them (the command this program
/// writes for the event, its matcher and timeout, alone in its group), are trusted: an entry
/// the file already held that only looks like one (a project's `config.toml` can copy the
/// marker) never is.
pub(super) fn codex_trust_step(
    scope: &Resolved,
    wanted: &[Wanted],
    trust: bool,
) -> Result<CodexTrust> {
    let records = codex_records_file(scope)?;
    let text = read_regular(&scope.file)?
        .map(|(text, _)| text)
        .unwrap_or_default();
    let doc = scope.adapter.open(&text, &scope.file)?;
    let Some(already) = scope
        .adapter
        .hook_records(&scope.file, scope.project.as_deref())?
    else {
        return Ok(CodexTrust::AlreadyTrusted {
            records,
            entries: 0,
        });
    };
    let mut grants = Vec::new();
    for found in doc.found(scope.dialect)? {
        if !fits_wanted(scope, wanted, &found)? {
            continue;
        }
        // The entry as this program writes it: its command, matcher and timeout.
        let hook = WrittenHook {
            event: found.event.clone(),
            group: found.group,
            handler: found.handler,
            matcher: found.matcher.clone(),
            command: Some(found.command.clone()),
            timeout: found.timeout.as_deref().and_then(|t| t.parse().ok()),
            ..WrittenHook::default()
        };
        grants.extend(already.grant(&hook));
    }
    let records_store = codex_store(scope, &records)?;
    let missing: Vec<_> = grants
        .iter()
        .filter(|g| !already.holds(g))
        .cloned()
        .collect();
    if missing.is_empty() {
        return Ok(CodexTrust::AlreadyTrusted {
            records,
            entries: grants.len(),
        });
    }
    if trust {
        hook_trust::TrustStore::set_trusted(&records_store, &missing)
            .with_context(|| format!("cannot record Codex's trust in {}", records.display()))?;
        // Remembered with the file's entries, so that uninstall takes out these records (and
        // only these: never the user's own).
        let locked = scope.lock_file(&mut None)?;
        let mut state = locked.state.load(&locked.path)?;
        if records == scope.file
            && let Some(now) = &locked.text
        {
            // The records are in the agent's file itself: a write of `hook relay`'s, which a
            // `--move`'s way back follows.
            state.wrote(Some(&text), now);
        }
        for grant in &missing {
            let record = CodexRecord {
                key: grant.key.clone(),
                hash: grant.hash.clone(),
            };
            state.codex_records.retain(|r| r.key != record.key);
            state.codex_records.push(record);
        }
        locked.state.save(&state)?;
        return Ok(CodexTrust::Recorded {
            records,
            entries: missing.len(),
        });
    }
    Ok(CodexTrust::ToDo {
        entries: missing.len(),
        file: scope.file.clone(),
    })
}

/// Whether `found` is exactly an entry of `wanted` as this program writes it.
fn fits_wanted(scope: &Resolved, wanted: &[Wanted], found: &Found) -> Result<bool> {
    for w in wanted {
        if w.event.as_str() != found.event {
            continue;
        }
        let command = scope.command(w);
        if found.group_len == 1
            && found.command == command
            && found.matcher == w.matcher
            && found.timeout.as_deref() == Some(w.timeout.to_string().as_str())
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Codex's trust records in `records` (the user's `config.toml`), locked through the lock of that
/// file in the relay's user folder, as every edit of it by `hook relay` is: no lock file is left
/// in Codex's folder.
fn codex_store(scope: &Resolved, records: &Path) -> Result<hook_trust::LimeStore> {
    let real = agent_file::write_target(records, None, &mut None)?;
    let state = StateDir::for_file(
        &relay_folder(scope.agent, None, scope.home.as_deref())?,
        &real,
    );
    state.prepare()?;
    Ok(hook_trust::LimeStore::new(records).with_lock_file(state.lock_path()))
}

/// Takes out the trust records `--trust` wrote for this file's entries (`written`) that still
/// hold the hash it wrote (a record the user changed since is theirs, and a file put back as it
/// was before the install holds the user's own again); from which file, and how many of the
/// records `--trust` wrote are gone.
///
/// # Errors
///
/// When the records cannot be read or written.
pub(super) fn remove_codex_records(
    scope: &Resolved,
    written: &[CodexRecord],
) -> Result<(PathBuf, usize)> {
    let records = codex_records_file(scope)?;
    if written.is_empty() {
        return Ok((records, 0));
    }
    let store = codex_store(scope, &records)?;
    let now = hook_trust::TrustStore::load(&store)
        .with_context(|| format!("cannot read Codex's trust records in {}", records.display()))?;
    let ours: Vec<String> = written
        .iter()
        .filter(|w| {
            now.get(&w.key).and_then(|r| r.trusted_hash.as_deref()) == Some(w.hash.as_str())
        })
        .map(|w| w.key.clone())
        .collect();
    if !ours.is_empty() {
        hook_trust::TrustStore::remove_trust(&store, &ours).with_context(|| {
            format!(
                "cannot take out Codex's trust records in {}",
                records.display()
            )
        })?;
    }
    // None of them holds the hash `--trust` wrote any more.
    Ok((records, written.len()))
}

/// The `config.toml` whose `[hooks.state]` Codex reads: the user's (the agent file itself in
/// user scope).
pub(super) fn codex_records_file(scope: &Resolved) -> Result<PathBuf> {
    records::records_file(scope.agent, &scope.file, scope.project.as_deref())
}
