//! A Codex `config.toml`, edited with `toml_edit` (comments and layout kept).

use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::{Found, GroupAt, OwnGroup, SettingsDoc, WrittenHook};
use crate::ops::relay::read::entries::{Wanted, is_relay, parse_relay};
use anyhow::{Context, Result, bail};
use hook_protocol::Dialect;
use std::path::Path;

/// A Codex `config.toml`, edited with `toml_edit`.
pub(crate) struct TomlDoc {
    pub(crate) doc: toml_edit::DocumentMut,
    pub(crate) file: String,
}

impl TomlDoc {
    pub(crate) fn new(text: &str, file: &Path) -> Result<TomlDoc> {
        let doc: toml_edit::DocumentMut = text.parse().with_context(|| {
            format!("{} is not valid TOML; refusing to edit it", file.display())
        })?;
        if let Some(hooks) = doc.get("hooks")
            && !hooks.is_table_like()
        {
            bail!(
                "{}: `hooks` must be a table; refusing to edit it",
                file.display()
            );
        }
        Ok(TomlDoc {
            doc,
            file: file.display().to_string(),
        })
    }
}

/// The groups of every event under `hooks` (arrays of tables only; `state` and other
/// reserved keys are not events).
pub(crate) fn toml_events(
    doc: &toml_edit::DocumentMut,
) -> Vec<(String, &toml_edit::ArrayOfTables)> {
    doc.get("hooks")
        .and_then(toml_edit::Item::as_table_like)
        .map(|hooks| {
            hooks
                .iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v.as_array_of_tables()?)))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn toml_handlers(group: &toml_edit::Table) -> Vec<&toml_edit::Table> {
    group
        .get("hooks")
        .and_then(toml_edit::Item::as_array_of_tables)
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

impl TomlDoc {
    /// Appends `group` to `hooks.<event>`, creating `hooks` and the event's array as needed.
    pub(crate) fn push_group(&mut self, event: &str, mut group: toml_edit::Table) -> Result<()> {
        let hooks = self.doc.entry("hooks").or_insert_with(|| {
            let mut table = toml_edit::Table::new();
            table.set_implicit(true);
            toml_edit::Item::Table(table)
        });
        let hooks = hooks
            .as_table_like_mut()
            .with_context(|| format!("{}: `hooks` must be a table", self.file))?;
        let groups = hooks
            .entry(event)
            .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        let Some(groups) = groups.as_array_of_tables_mut() else {
            bail!(
                "{}: `hooks.{event}` must be an array of tables; refusing to edit it",
                self.file
            );
        };
        // The group and every table in it are laid out after what the document holds: a
        // position kept from the document it came from would put its handlers before it.
        unposition(&mut group);
        groups.push(group);
        Ok(())
    }
}

/// `table` and every table under it without a position (laid out in order, after the rest).
fn unposition(table: &mut toml_edit::Table) {
    table.set_position(None);
    for (_, item) in table.iter_mut() {
        match item {
            toml_edit::Item::Table(inner) => unposition(inner),
            toml_edit::Item::ArrayOfTables(tables) => tables.iter_mut().for_each(unposition),
            _ => {}
        }
    }
}

impl TomlDoc {
    /// Removes the group `group` of `hooks.<event>`, whole, and what its removal empties.
    pub(crate) fn remove_group_at(&mut self, event: &str, group: usize) -> Result<()> {
        let hooks = self
            .doc
            .get_mut("hooks")
            .and_then(toml_edit::Item::as_table_like_mut)
            .context("the group moved while editing")?;
        let groups = hooks
            .get_mut(event)
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .context("the group moved while editing")?;
        if group >= groups.len() {
            bail!("the group moved while editing");
        }
        groups.remove(group);
        if groups.is_empty() {
            hooks.remove(event);
        }
        if hooks.is_empty() {
            self.doc.remove("hooks");
        }
        Ok(())
    }
}

impl SettingsDoc for TomlDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        self.found_by(&|command| parse_relay(command, dialect).map(|entry| entry.scope))
    }

    fn found_where(&self, is: &dyn Fn(&str) -> bool) -> Result<Vec<Found>> {
        self.found_by(&|command| is(command).then_some(None))
    }

    fn set_command(&mut self, found: &Found, command: &str) -> Result<()> {
        let handler = self
            .doc
            .get_mut("hooks")
            .and_then(toml_edit::Item::as_table_like_mut)
            .and_then(|hooks| hooks.get_mut(&found.event))
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .and_then(|groups| groups.get_mut(found.group))
            .and_then(|group| group.get_mut("hooks"))
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .and_then(|handlers| handlers.get_mut(found.handler))
            .context("the hook moved while editing")?;
        let item = handler
            .get_mut("command")
            .and_then(toml_edit::Item::as_value_mut)
            .context("the hook moved while editing")?;
        // The new string keeps the old one's surrounding whitespace and comments.
        let decor = item.decor().clone();
        *item = toml_edit::Value::from(command);
        *item.decor_mut() = decor;
        Ok(())
    }

    fn remove(&mut self, found: &Found) -> Result<()> {
        let hooks = self
            .doc
            .get_mut("hooks")
            .and_then(toml_edit::Item::as_table_like_mut)
            .context("the relay entry moved while editing")?;
        let groups = hooks
            .get_mut(&found.event)
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .context("the relay entry moved while editing")?;
        let handlers = groups
            .get_mut(found.group)
            .and_then(|g| g.get_mut("hooks"))
            .and_then(toml_edit::Item::as_array_of_tables_mut)
            .context("the relay entry moved while editing")?;
        if handlers.len() > 1 {
            handlers.remove(found.handler);
            return Ok(());
        }
        self.remove_group_at(&found.event, found.group)
    }

    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()> {
        let mut handler = toml_edit::Table::new();
        handler.insert("type", toml_edit::value("command"));
        handler.insert("command", toml_edit::value(command));
        handler.insert(
            "timeout",
            toml_edit::value(i64::try_from(wanted.timeout).unwrap_or(i64::MAX)),
        );
        let mut handlers = toml_edit::ArrayOfTables::new();
        handlers.push(handler);
        let mut group = toml_edit::Table::new();
        if let Some(matcher) = &wanted.matcher {
            group.insert("matcher", toml_edit::value(matcher.as_str()));
        }
        group.insert("hooks", toml_edit::Item::ArrayOfTables(handlers));
        self.push_group(wanted.event.as_str(), group)
    }

    fn hooks(&self) -> Result<Vec<WrittenHook>> {
        let mut hooks = Vec::new();
        for (event, groups) in toml_events(&self.doc) {
            for (g, group) in groups.iter().enumerate() {
                hooks.extend(group_hooks(&event, g, group));
            }
        }
        Ok(hooks)
    }

    fn take_own_groups(&mut self, dialect: Dialect) -> Result<Vec<OwnGroup>> {
        let reserved = dialect.rules().config().reserved_hooks_keys();
        let relay = |group: &toml_edit::Table| {
            toml_handlers(group).iter().any(|h| {
                h.get("command")
                    .and_then(toml_edit::Item::as_str)
                    .is_some_and(|c| is_relay(c, dialect))
            })
        };
        let mut taken = Vec::new();
        for (event, groups) in toml_events(&self.doc) {
            if reserved.contains(&event.as_str()) {
                continue;
            }
            for (g, group) in groups.iter().enumerate() {
                if relay(group) {
                    continue;
                }
                taken.push(OwnGroup {
                    text: toml_group_text(&event, group),
                    hooks: group_hooks(&event, g, group),
                    event: event.clone(),
                });
            }
        }
        // Removes the groups taken (every group without a relay handler).
        if let Some(hooks) = self
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
                groups.retain(|group| relay(group));
                if groups.is_empty() {
                    hooks.remove(&event);
                }
            }
            if hooks.is_empty() {
                self.doc.remove("hooks");
            }
        }
        Ok(taken)
    }

    fn append_group(&mut self, event: &str, text: &str) -> Result<()> {
        let table = toml_group_of(text, event).with_context(|| {
            format!(
                "the record of a moved {event} hook is damaged; it is in the relay's file, move it back by hand"
            )
        })?;
        self.push_group(event, table)
    }

    fn group_at(&self, event: &str, text: &str) -> Result<Option<GroupAt>> {
        let Ok(wanted) = toml::from_str::<toml::Value>(text) else {
            return Ok(None);
        };
        Ok(toml_events(&self.doc)
            .into_iter()
            .enumerate()
            .find(|(_, (name, _))| name == event)
            .and_then(|(member, (_, groups))| {
                let index = groups.iter().position(|found| {
                    toml::from_str::<toml::Value>(&toml_group_text(event, found)).ok()
                        == Some(wanted.clone())
                })?;
                Some(GroupAt { member, index })
            }))
    }

    fn remove_group(&mut self, event: &str, at: GroupAt) -> Result<()> {
        self.remove_group_at(event, at.index)
    }

    fn text(&self) -> String {
        self.doc.to_string()
    }
}

impl TomlDoc {
    /// Every command handler `pick` takes (with the relay scope it names), in file order.
    fn found_by(&self, pick: &dyn Fn(&str) -> Option<Option<RelayScope>>) -> Result<Vec<Found>> {
        let mut found = Vec::new();
        for (member, (event, groups)) in toml_events(&self.doc).into_iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                let handlers = toml_handlers(group);
                for (h, handler) in handlers.iter().enumerate() {
                    let Some(command) = handler.get("command").and_then(toml_edit::Item::as_str)
                    else {
                        continue;
                    };
                    let Some(scope) = pick(command) else {
                        continue;
                    };
                    found.push(Found {
                        scope,
                        event: event.clone(),
                        member,
                        group: g,
                        handler: h,
                        group_len: handlers.len(),
                        command: command.to_owned(),
                        matcher: group
                            .get("matcher")
                            .and_then(toml_edit::Item::as_str)
                            .map(str::to_owned),
                        timeout: handler
                            .get("timeout")
                            .and_then(toml_edit::Item::as_integer)
                            .map(|t| t.to_string()),
                        on_failure: None,
                    });
                }
            }
        }
        Ok(found)
    }
}

/// The command handlers of `group` (the `g`-th of `event`), as Codex hashes them.
fn group_hooks(event: &str, g: usize, group: &toml_edit::Table) -> Vec<WrittenHook> {
    let text = |table: &toml_edit::Table, key| {
        table
            .get(key)
            .and_then(toml_edit::Item::as_str)
            .map(str::to_owned)
    };
    let integer =
        |table: &toml_edit::Table, key| table.get(key).and_then(toml_edit::Item::as_integer);
    let matcher = text(group, "matcher");
    toml_handlers(group)
        .into_iter()
        .enumerate()
        .map(|(h, handler)| WrittenHook {
            event: event.to_owned(),
            group: g,
            handler: h,
            matcher: matcher.clone(),
            command: text(handler, "command"),
            timeout: integer(handler, "timeout"),
            is_async: handler
                .get("async")
                .and_then(toml_edit::Item::as_bool)
                .unwrap_or(false),
            status_message: text(handler, "statusMessage"),
            additional_context_limit: integer(handler, "additionalContextLimit"),
            library: text(handler, "library"),
        })
        .collect()
}

/// A TOML group as a document of its own (`[[hooks.<event>]]` and its handlers), as the move
/// record keeps it.
pub(crate) fn toml_group_text(event: &str, group: &toml_edit::Table) -> String {
    let mut doc = TomlDoc {
        doc: toml_edit::DocumentMut::new(),
        file: String::new(),
    };
    // A new document has no `hooks` of another shape: this cannot fail.
    let _ = doc.push_group(event, group.clone());
    doc.text()
}

/// The group [`toml_group_text`] wrote.
pub(crate) fn toml_group_of(text: &str, event: &str) -> Option<toml_edit::Table> {
    let doc: toml_edit::DocumentMut = text.parse().ok()?;
    doc.get("hooks")?
        .get(event)?
        .as_array_of_tables()?
        .get(0)
        .cloned()
}
