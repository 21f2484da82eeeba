//! `install --move`: the agent's own hooks moved into the relay's file of the same scope, and
//! trusted there when the agent was running them.

use super::agent_file;
use super::codex_records::{codex_key_source, codex_records_file};
use super::report::{MoveReport, ThroughLink, TrustedMoved};
use super::scope::Resolved;
use super::state::{MoveRecord, MovedGroup, digest};
use crate::ops::relay::read::documents::{Doc, JsonDoc, TomlDoc, toml_events, toml_handlers};
use crate::ops::relay::read::entries::is_relay;
use crate::ops::relay::read::json_text;
use crate::ops::relay::read::json_text::New;
use anyhow::{Context, Result};
use hook_protocol::{ConfigFormat, Dialect, Event, Layer};
use std::path::Path;

/// `--move`: the agent's own hooks of the scope into the relay's file of the same scope.
pub(super) fn move_agent_hooks(scope: &Resolved, report: &mut MoveReport) -> Result<()> {
    let locked = scope.lock_file(&mut report.agent_link)?;
    let Some(text) = locked.text.clone() else {
        report.no_file = true;
        return Ok(());
    };
    let options = scope.options();
    let discovery = hook_config::discover(&options).context("cannot find the relay's files")?;
    let layer = if scope.project.is_some() {
        Layer::Project
    } else {
        Layer::User
    };
    let relay_file = discovery
        .files
        .iter()
        // The layer's settings file (`config.toml`), not the hooks-only `hooks.json` beside it.
        .find(|f| f.layer == layer && !f.hooks_only)
        .map(|f| f.path.clone())
        .context("no relay file for this scope")?;
    let moving = match scope.agent.config_format {
        ConfigFormat::Json => move_json(&text, &locked.path, scope.dialect),
        ConfigFormat::Toml => move_toml(&text, &locked.path, scope),
    };
    let (remaining, moved) = moving?;
    report.relative_libraries = moved.relative_libraries.clone();
    if moved.hooks.is_empty() {
        report.nothing_to_move = true;
        return Ok(());
    }
    let (relay_before, relay_after) = append_to_relay_file(
        &relay_file,
        scope.agent.config_format,
        &moved,
        scope.project.as_deref(),
        &mut report.relay_link,
        &scope.state_places()?,
    )?;
    report.backup = scope.backup(&locked)?;
    locked.write(&remaining)?;
    // What uninstall needs to put the hooks back where they came from.
    let mut state = locked.state.load(&locked.path)?;
    let groups = match scope.agent.config_format {
        ConfigFormat::Json => moved
            .json
            .iter()
            .map(|(event, text)| MovedGroup {
                event: event.clone(),
                text: text.clone(),
            })
            .collect(),
        ConfigFormat::Toml => moved
            .toml
            .iter()
            .map(|(event, group)| MovedGroup {
                event: event.clone(),
                text: toml_group_text(event, group),
            })
            .collect(),
    };
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

/// The moved groups, as the relay file's format writes them, and the hooks in them.
#[derive(Default)]
pub(super) struct Moved {
    /// JSON: `(event, group text)`; TOML: `(event, group table)`.
    pub(super) json: Vec<(String, String)>,
    pub(super) toml: Vec<(String, toml_edit::Table)>,
    pub(super) hooks: Vec<MovedHook>,
    /// `native` handlers with a relative `library`: `(event, library)` ([`relative_library`]).
    pub(super) relative_libraries: Vec<(String, String)>,
}

pub(super) fn move_json(text: &str, file: &Path, dialect: Dialect) -> Result<(String, Moved)> {
    let mut doc = JsonDoc::new(text, file)?;
    let mut moved = Moved::default();
    loop {
        let root = doc.root()?;
        let Some(hooks) = root.get("hooks").and_then(json_text::Node::members) else {
            break;
        };
        let mut next = None;
        'events: for (member, event) in hooks.iter().enumerate() {
            for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                let handlers = group
                    .get("hooks")
                    .and_then(json_text::Node::items)
                    .unwrap_or_default();
                let relay = handlers.iter().any(|h| {
                    h.get("command")
                        .and_then(|c| c.as_str(&doc.text))
                        .is_some_and(|c| is_relay(&c, dialect))
                });
                if !relay {
                    next = Some((
                        member,
                        g,
                        event.key.clone(),
                        group.clone(),
                        handlers.to_vec(),
                    ));
                    break 'events;
                }
            }
        }
        let Some((member, g, event, group, handlers)) = next else {
            break;
        };
        moved
            .json
            .push((event.clone(), group.raw(&doc.text).to_owned()));
        let matcher = group.get("matcher").and_then(|m| m.as_str(&doc.text));
        for handler in &handlers {
            let library = handler.get("library").and_then(|l| l.as_str(&doc.text));
            moved
                .relative_libraries
                .extend(relative_library(&event, library.as_deref()));
            moved.hooks.push(MovedHook {
                event: event.clone(),
                matcher: matcher.clone(),
                command: handler.get("command").and_then(|c| c.as_str(&doc.text)),
                // Claude Code runs the hooks of every settings file it reads.
                ran: true,
            });
        }
        // The whole group, whatever the number of its handlers.
        doc.remove_group(member, g)?;
    }
    Ok((doc.text, moved))
}

pub(super) fn move_toml(text: &str, file: &Path, scope: &Resolved) -> Result<(String, Moved)> {
    let mut doc = TomlDoc::new(text, file)?;
    let mut moved = Moved::default();
    // What Codex trusts now: its records against each hook's current hash.
    let records_file = codex_records_file(scope)?;
    let records = hook_trust::TrustStore::load(&hook_trust::LimeStore::new(&records_file))
        .unwrap_or_default();
    let key_source = codex_key_source(scope)?;
    let reserved = scope.dialect.rules().config().reserved_hooks_keys();
    for (event, groups) in toml_events(&doc.doc) {
        if reserved.contains(&event.as_str()) {
            continue;
        }
        let event_name = Event::from_name(&event);
        for (g, group) in groups.iter().enumerate() {
            let handlers = toml_handlers(group);
            let relay = handlers.iter().any(|h| {
                h.get("command")
                    .and_then(toml_edit::Item::as_str)
                    .is_some_and(|c| is_relay(c, scope.dialect))
            });
            if relay {
                continue;
            }
            let matcher = group.get("matcher").and_then(toml_edit::Item::as_str);
            for (h, handler) in handlers.iter().enumerate() {
                let library = handler.get("library").and_then(toml_edit::Item::as_str);
                moved
                    .relative_libraries
                    .extend(relative_library(&event, library));
                let command = handler.get("command").and_then(toml_edit::Item::as_str);
                let ran = command.is_some_and(|command| {
                    let hook = hook_trust::CodexHook::new(&event_name, command)
                        .with_matcher(matcher)
                        .with_timeout(handler.get("timeout").and_then(toml_edit::Item::as_integer))
                        .with_async(
                            handler
                                .get("async")
                                .and_then(toml_edit::Item::as_bool)
                                .unwrap_or(false),
                        )
                        .with_status_message(
                            handler
                                .get("statusMessage")
                                .and_then(toml_edit::Item::as_str),
                        )
                        .with_additional_context_limit(
                            handler
                                .get("additionalContextLimit")
                                .and_then(toml_edit::Item::as_integer),
                        );
                    let key = hook_trust::codex_trust_key(&key_source, &event_name, g, h);
                    records.get(&key).and_then(|r| r.trusted_hash.as_deref())
                        == Some(hook_trust::codex_trust_hash(scope.dialect, &hook).as_str())
                });
                moved.hooks.push(MovedHook {
                    event: event.clone(),
                    matcher: matcher.map(str::to_owned),
                    command: command.map(str::to_owned),
                    ran,
                });
            }
            moved.toml.push((event.clone(), group.clone()));
        }
    }
    // Removes the moved groups (every group without a relay handler).
    if let Some(hooks) = doc
        .doc
        .get_mut("hooks")
        .and_then(toml_edit::Item::as_table_like_mut)
    {
        let events: Vec<String> = hooks.iter().map(|(k, _)| k.to_owned()).collect();
        for event in events {
            if reserved.contains(&event.as_str()) {
                continue;
            }
            let Some(groups) = hooks
                .get_mut(&event)
                .and_then(toml_edit::Item::as_array_of_tables_mut)
            else {
                continue;
            };
            groups.retain(|group| {
                toml_handlers(group).iter().any(|h| {
                    h.get("command")
                        .and_then(toml_edit::Item::as_str)
                        .is_some_and(|c| is_relay(c, scope.dialect))
                })
            });
            if groups.is_empty() {
                hooks.remove(&event);
            }
        }
        if hooks.is_empty() {
            doc.doc.remove("hooks");
        }
    }
    Ok((doc.text(), moved))
}

/// A moved `native` handler's relative `library` resolves against its new file's folder:
/// `(event, library)` for the warning when it is relative.
pub(super) fn relative_library(event: &str, library: Option<&str>) -> Option<(String, String)> {
    library
        .filter(|l| !Path::new(l).is_absolute())
        .map(|library| (event.to_owned(), library.to_owned()))
}

/// Appends the moved groups to the relay file (created when missing), each as it was written;
/// the relay file's text before (`None`: there was none) and after.
pub(super) fn append_to_relay_file(
    relay_file: &Path,
    format: ConfigFormat,
    moved: &Moved,
    inside: Option<&Path>,
    link: &mut Option<ThroughLink>,
    places: &agent_file::StatePlaces,
) -> Result<(Option<String>, String)> {
    let locked = agent_file::lock_and_read(relay_file, inside, link, places)?;
    let text = locked.text.clone().unwrap_or_default();
    let new_text = match format {
        ConfigFormat::Json => {
            let mut doc = JsonDoc::new(&text, relay_file)?;
            for (event, group) in &moved.json {
                doc.append_group(event, &New::Raw(group.clone()))?;
            }
            doc.text
        }
        ConfigFormat::Toml => {
            let mut doc = TomlDoc::new(&text, relay_file)?;
            for (event, group) in &moved.toml {
                doc.push_group(event, group.clone())?;
            }
            doc.text()
        }
    };
    locked.write(&new_text)?;
    Ok((locked.text.clone(), new_text))
}

/// A TOML group as a document of its own (`[[hooks.<event>]]` and its handlers), as the move
/// record keeps it.
pub(super) fn toml_group_text(event: &str, group: &toml_edit::Table) -> String {
    let mut doc = TomlDoc {
        doc: toml_edit::DocumentMut::new(),
        file: String::new(),
    };
    // A new document has no `hooks` of another shape: this cannot fail.
    let _ = doc.push_group(event, group.clone());
    doc.text()
}

/// The group [`toml_group_text`] wrote.
pub(super) fn toml_group_of(text: &str, event: &str) -> Option<toml_edit::Table> {
    let doc: toml_edit::DocumentMut = text.parse().ok()?;
    doc.get("hooks")?
        .get(event)?
        .as_array_of_tables()?
        .get(0)
        .cloned()
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
