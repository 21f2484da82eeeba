//! `hook relay uninstall`: the relay's entries taken out, and what `install` took given back
//! (what it kept to do so is in [`super::state`]).
//!
//! - **The moved hooks go back where they came from.** For each `--move`, newest first: while
//!   the agent's file is still as `hook relay` last left it, it becomes the file as it was before
//!   the move, byte for byte; once someone else changed it, each moved group is appended to its
//!   event again (one that is already there is not added twice), and the report says the file
//!   was merged, not restored. Then the groups leave the relay's file: it becomes what it was
//!   before the move (or is removed, when the move created it) while it is still as the move
//!   left it; else each moved group still there as moved is taken out, and one changed since is
//!   left, named, and the user told it no longer runs.
//! - **Codex's trust records `install --trust` wrote** for this file's entries are taken out of
//!   `[hooks.state]`, those still holding the hash it wrote; never another record.
//! - The relay hooks left in the scope's relay files are counted: they no longer run; unless
//!   the project's other settings file of the agent (shared or personal) still holds relay
//!   entries, which is said instead, with the command that takes those out.

use super::agent_file;
use super::apply::{holds_only_what_install_wrote, sync_doc};
use super::codex_records::remove_codex_records;
use super::report::{
    GivenBack, LeftHooks, RelayGivenBack, RelayOutcome, UninstallReport, Uninstalled,
};
use super::scope::Resolved;
use super::state::{CodexRecord, MoveRecord, MovedGroup, digest};
use crate::ops::relay::agents::Agent;
use crate::ops::relay::read::{files, reach};
use anyhow::Result;
use hook_protocol::Layer;
use std::path::{Path, PathBuf};

/// `hook relay uninstall` of a resolved scope.
pub(super) fn uninstall_scope(scope: &Resolved, report: &mut UninstallReport) -> Result<()> {
    report.guest = scope.adapter.translation().map(|agent| agent.title);
    let locked = scope.lock_file(&mut report.edit.through_link)?;
    let mut state = locked.state.load(&locked.path)?;
    let moves = std::mem::take(&mut state.moves);
    let existed = locked.text.is_some();
    let text = locked.text.clone().unwrap_or_default();
    let mut now = text.clone();
    let mut given = GivenBack {
        exact: true,
        ..GivenBack::default()
    };
    for record in moves.iter().rev() {
        if existed && digest(&now) == record.after && given.exact {
            now.clone_from(&record.before);
            given.groups += record.groups.len();
        } else {
            given.exact = false;
            let (merged, added, already) =
                merge_back(scope.adapter, &now, &locked.path, &record.groups)?;
            now = merged;
            given.groups += added;
            given.already_there += already;
        }
    }
    if !existed && moves.is_empty() {
        // Nothing to take out, nothing to put back: no file is created.
        drop(locked);
        finish(scope, report, None)?;
        report.result = Some(Uninstalled::NoEntries);
        return Ok(());
    }
    let mut doc = scope.adapter.open(&now, &locked.path)?;
    report.edit.changes = sync_doc(doc.as_mut(), scope, &[], false)?;
    // The entries taken out: those of the file as it was (a file put back as it was before a
    // move has none left to take out, and took them out all the same).
    if existed {
        report.edit.changes.removed = scope
            .adapter
            .open(&text, &locked.path)?
            .found(scope.dialect)?
            .len();
    }
    let new_text = doc.text();
    if existed
        && moves.is_empty()
        && holds_only_what_install_wrote(scope, &state, &new_text, &locked.path)
    {
        locked.remove()?;
        report.edit.removed_created_file = Some(locked.path.clone());
        report.edit.written = true;
    } else if !existed || new_text != text {
        report.edit.backup = scope.backup(&locked)?;
        locked.write(&new_text)?;
        report.edit.written = true;
    }
    // The file is the user's now (or gone).
    state.created = None;
    let places = scope.state_places()?;
    for record in moves.iter().rev() {
        given
            .relay_files
            .push(take_out_of_relay_file(scope, record, &places)?);
    }
    locked.state.save(&state)?;
    drop(locked);
    if !moves.is_empty() {
        given.file = scope.file.clone();
        report.given_back = Some(given);
    }
    finish(scope, report, Some(state.codex_records))?;
    let removed = report.edit.changes.removed;
    report.result = Some(if report.edit.removed_created_file.is_some() {
        Uninstalled::FileRemoved
    } else if removed > 0 {
        Uninstalled::Removed(removed)
    } else {
        Uninstalled::NoEntries
    });
    Ok(())
}

/// After the agent's file: Codex's trust records `--trust` wrote taken out (`records`; read
/// from the state when `None`), and the relay hooks left counted.
fn finish(
    scope: &Resolved,
    report: &mut UninstallReport,
    records: Option<Vec<CodexRecord>>,
) -> Result<()> {
    let records = match records {
        Some(records) => records,
        None => {
            let locked = scope.lock_file(&mut None)?;
            locked.state.load(&locked.path)?.codex_records
        }
    };
    if !records.is_empty() {
        // Not under the file's lock: in user scope Codex's records are in this very file, and
        // the store takes the same lock.
        let (file, removed) = remove_codex_records(scope, &records)?;
        let locked = scope.lock_file(&mut None)?;
        let mut state = locked.state.load(&locked.path)?;
        state.codex_records.retain(|r| !records.contains(r));
        locked.state.save(&state)?;
        report.codex_records = Some((file, removed));
    }
    // The project's other settings file of the agent (the shared one, or the personal one
    // `--agent-config` named) may still hold relay entries: its relay hooks still run then.
    // (A translated agent's relay hooks are Claude Code's, whose own entries are not these.)
    if let Some(project) = scope.project.as_ref().filter(|_| report.guest.is_none()) {
        let others: Vec<PathBuf> = files::project_agent_files(scope.agent, project)
            .into_iter()
            .filter(|file| *file != scope.file)
            .collect();
        report.entries_elsewhere = reach::installed_entries(scope.dialect, &others)
            .into_iter()
            .next()
            .map(|entry| {
                let quoted = |path: &Path| crate::shell::quote(&path.display().to_string());
                let mut command = format!(
                    "hook relay uninstall --dialect {} --project {}",
                    scope.dialect,
                    quoted(project)
                );
                if let Some(home) = &scope.home {
                    command.push_str(&format!(" --home {}", quoted(home)));
                }
                command.push_str(&format!(" --agent-config {}", quoted(&entry.file)));
                (entry.file, command)
            });
    }
    if report.entries_elsewhere.is_none()
        && let Ok(loaded) = scope.relay_hooks()
    {
        for handler in loaded.registry.handlers() {
            let Some(path) = &handler.source.path else {
                continue;
            };
            let relay_file = PathBuf::from(path);
            match report.left.iter_mut().find(|l| l.relay_file == relay_file) {
                Some(left) => left.count += 1,
                None => report.left.push(LeftHooks {
                    relay_file,
                    count: 1,
                    agent_file: agent_file_for(scope, handler.source.layer),
                }),
            }
        }
    }
    Ok(())
}

/// The agent's own settings file where hooks of the relay's `layer` would run as the agent's:
/// in a project, a personal relay hook's is the agent's personal file, any other's the shared
/// one, whichever of them the uninstall edited; in the user's scope, the file edited.
fn agent_file_for(scope: &Resolved, layer: Layer) -> PathBuf {
    let Some(project) = scope.project.as_deref() else {
        return scope.file.clone();
    };
    let personal = match layer {
        Layer::Local => files::personal_agent_file(scope.agent, project),
        _ => None,
    };
    personal.unwrap_or_else(|| files::shared_agent_file(scope.agent, project))
}

/// `text` (the agent's file) with `groups` appended to their events, each that is not there
/// already; the text, how many were added and how many were there.
fn merge_back(
    agent: &dyn Agent,
    text: &str,
    path: &Path,
    groups: &[MovedGroup],
) -> Result<(String, usize, usize)> {
    let (mut added, mut already) = (0, 0);
    let mut doc = agent.open(text, path)?;
    for group in groups {
        if doc.group_at(&group.event, &group.text)?.is_some() {
            already += 1;
            continue;
        }
        doc.append_group(&group.event, &group.text)?;
        added += 1;
    }
    Ok((doc.text(), added, already))
}

/// Takes the groups of one move out of its relay file: the file as it was before the move
/// while it is still as the move left it, else each group still there as moved. A move read
/// from a project's own folder ([`MoveRecord::from_project`], which a clone can ship) edits
/// only a file inside the project, and never removes one.
fn take_out_of_relay_file(
    scope: &Resolved,
    record: &MoveRecord,
    places: &agent_file::StatePlaces,
) -> Result<RelayGivenBack> {
    let mut link = None;
    let inside = if record.from_project {
        scope.project.as_deref()
    } else {
        scope.inside()
    };
    let locked = agent_file::lock_and_read(&record.relay_file, inside, &mut link, places)?;
    let file = locked.path.clone();
    let Some(text) = locked.text.clone() else {
        return Ok(RelayGivenBack {
            file,
            outcome: RelayOutcome::Gone,
            backup: None,
        });
    };
    let backup = Some(locked.state.backup(&text)?);
    let removes = record.relay_before.is_none();
    if digest(&text) == record.relay_after && !(removes && record.from_project) {
        let outcome = match &record.relay_before {
            Some(before) => {
                locked.write(before)?;
                RelayOutcome::Restored
            }
            None => {
                locked.remove()?;
                RelayOutcome::Removed
            }
        };
        return Ok(RelayGivenBack {
            file,
            outcome,
            backup,
        });
    }
    let (mut taken, mut changed) = (0, Vec::new());
    let mut doc = scope.adapter.open(&text, &file)?;
    for group in &record.groups {
        match doc.group_at(&group.event, &group.text)? {
            Some(at) => {
                doc.remove_group(&group.event, at)?;
                taken += 1;
            }
            None => changed.push(group.event.clone()),
        }
    }
    let new_text = doc.text();
    if new_text != text {
        locked.write(&new_text)?;
    }
    Ok(RelayGivenBack {
        file,
        outcome: RelayOutcome::TookOut { taken, changed },
        backup,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::relay::agents::codex::Codex;

    #[test]
    fn a_toml_group_merges_back_beside_the_same_events_groups() {
        let text = "model = \"m\"\n\n[hooks.state.\"k\"]\ntrusted_hash = \"x\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"a\"\n";
        let original = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"guard\"\n";
        let mut doc = Codex.open(original, Path::new("c.toml")).expect("a doc");
        let taken = doc
            .take_own_groups(hook_protocol::Dialect::Lime)
            .expect("taken");
        let moved = MovedGroup {
            event: "PreToolUse".to_owned(),
            text: taken[0].text.clone(),
        };
        let (merged, added, already) = merge_back(
            &Codex,
            text,
            Path::new("c.toml"),
            std::slice::from_ref(&moved),
        )
        .expect("merged");
        assert_eq!((added, already), (1, 0));
        let parsed: toml::Value =
            toml::from_str(&merged).unwrap_or_else(|e| panic!("{e}: {merged}"));
        assert_eq!(
            parsed["hooks"]["PreToolUse"][1]["hooks"][0]["command"].as_str(),
            Some("guard"),
            "{merged}"
        );
        // Again: it is there already.
        let (again, added, already) =
            merge_back(&Codex, &merged, Path::new("c.toml"), &[moved]).expect("merged");
        assert_eq!((again.as_str(), added, already), (merged.as_str(), 0, 1));
    }
}
