//! The agent's settings as documents (Claude Code's JSON as text, Codex's TOML with
//! `toml_edit`): the relay entries found in them, and the in-memory edits the writers make
//! (the installer's `sync_doc` makes them the wanted ones; nothing here writes a file).

use super::entries::{Wanted, parse_relay};
use super::json_text;
use super::json_text::{New, Style};
use crate::ops::relay::RelayScope;
use anyhow::{Context, Result, bail};
use hook_protocol::{ConfigFormat, Dialect};
use std::path::Path;

/// A relay handler found in the agent's file.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The event key as written.
    pub(crate) event: String,
    /// Which member of `hooks` (JSON: duplicates count), which group, which handler.
    pub(crate) member: usize,
    pub(crate) group: usize,
    pub(crate) handler: usize,
    /// How many handlers its group has.
    pub(crate) group_len: usize,
    pub(crate) command: String,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: Option<String>,
    /// `onFailure` as written (JSON only; Codex has none).
    pub(crate) on_failure: Option<String>,
    /// The relay hooks it starts the relay for (`None`: both scopes, an earlier version's).
    pub(crate) scope: Option<RelayScope>,
}

/// An agent settings document being edited.
pub(crate) trait Doc {
    /// Every relay handler, in file order.
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>>;
    /// Removes one relay handler (and what its removal empties).
    fn remove(&mut self, found: &Found) -> Result<()>;
    /// Adds a relay entry.
    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()>;
    /// The text now.
    fn text(&self) -> String;
}

/// What a sync did.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    /// The events whose entry was added.
    pub(crate) added: Vec<String>,
    /// How many entries were taken out.
    pub(crate) removed: usize,
    /// How many were already as wanted.
    pub(crate) kept: usize,
}

/// A Claude Code settings file, edited as text.
pub(crate) struct JsonDoc {
    pub(crate) text: String,
    pub(crate) file: String,
}

impl JsonDoc {
    pub(crate) fn new(text: &str, file: &Path) -> Result<JsonDoc> {
        let doc = JsonDoc {
            text: if text.trim().is_empty() {
                "{}\n".to_owned()
            } else {
                text.to_owned()
            },
            file: file.display().to_string(),
        };
        let root = doc.root()?;
        if root.members().is_none() {
            bail!("{} must hold a JSON object; refusing to edit it", doc.file);
        }
        if let Some(hooks) = root.get("hooks")
            && hooks.members().is_none()
        {
            bail!(
                "{}: `hooks` must be an object; refusing to edit it",
                doc.file
            );
        }
        Ok(doc)
    }

    pub(crate) fn root(&self) -> Result<json_text::Node> {
        json_text::parse(&self.text).map_err(|error| {
            anyhow::anyhow!(
                "{} is not valid JSON ({error}); refusing to edit it",
                self.file
            )
        })
    }

    /// Appends `group` to `hooks.<event>`, creating `hooks` and the event's array as needed.
    pub(crate) fn append_group(&mut self, event: &str, group: &New) -> Result<()> {
        loop {
            let root = self.root()?;
            let style = Style::of(&self.text, &root);
            let (container, key, value) = match root.get("hooks") {
                None => (&root, Some("hooks"), New::Object(Vec::new())),
                Some(hooks) => match hooks.get(event) {
                    None => (hooks, Some(event), New::Array(Vec::new())),
                    Some(groups) if groups.items().is_none() => bail!(
                        "{}: `hooks.{event}` must be an array; refusing to edit it",
                        self.file
                    ),
                    Some(groups) => {
                        self.text = json_text::append(&self.text, &style, groups, None, group);
                        return Ok(());
                    }
                },
            };
            self.text = json_text::append(&self.text, &style, container, key, &value);
        }
    }
}

impl JsonDoc {
    /// Removes the group `group` of the `member`-th member of `hooks`, whole, and what its
    /// removal empties (the event, `hooks`).
    pub(crate) fn remove_group(&mut self, member: usize, group: usize) -> Result<()> {
        let root = self.root()?;
        let (hooks_index, hooks) = root
            .members()
            .and_then(|m| m.iter().enumerate().rev().find(|(_, m)| m.key == "hooks"))
            .context("the group moved while editing")?;
        let event = hooks
            .value
            .members()
            .and_then(|m| m.get(member))
            .context("the group moved while editing")?;
        let groups = event.value.items().unwrap_or_default();
        if group >= groups.len() {
            bail!("the group moved while editing");
        }
        self.text = if groups.len() > 1 {
            json_text::remove(&self.text, &event.value, group)
        } else if hooks.value.members().map_or(0, <[_]>::len) > 1 {
            json_text::remove(&self.text, &hooks.value, member)
        } else {
            json_text::remove(&self.text, &root, hooks_index)
        };
        Ok(())
    }
}

impl Doc for JsonDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        let root = self.root()?;
        let mut found = Vec::new();
        let Some(hooks) = root.get("hooks").and_then(json_text::Node::members) else {
            return Ok(found);
        };
        for (member, event) in hooks.iter().enumerate() {
            for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                let handlers = group
                    .get("hooks")
                    .and_then(json_text::Node::items)
                    .unwrap_or_default();
                for (h, handler) in handlers.iter().enumerate() {
                    let Some(command) = handler.get("command").and_then(|c| c.as_str(&self.text))
                    else {
                        continue;
                    };
                    let Some(entry) = parse_relay(&command, dialect) else {
                        continue;
                    };
                    found.push(Found {
                        scope: entry.scope,
                        event: event.key.clone(),
                        member,
                        group: g,
                        handler: h,
                        group_len: handlers.len(),
                        command,
                        matcher: group.get("matcher").and_then(|m| m.as_str(&self.text)),
                        timeout: handler.get("timeout").map(|t| t.raw(&self.text).to_owned()),
                        on_failure: handler.get("onFailure").and_then(|o| o.as_str(&self.text)),
                    });
                }
            }
        }
        Ok(found)
    }

    fn remove(&mut self, found: &Found) -> Result<()> {
        let root = self.root()?;
        let event = root
            .get("hooks")
            .and_then(json_text::Node::members)
            .and_then(|m| m.get(found.member))
            .context("the relay entry moved while editing")?;
        let groups = event.value.items().unwrap_or_default();
        let group = groups.get(found.group).context("the relay entry moved")?;
        let handlers_node = group.get("hooks").context("the relay entry moved")?;
        let handlers = handlers_node.items().unwrap_or_default();
        if handlers.len() > 1 {
            self.text = json_text::remove(&self.text, handlers_node, found.handler);
            return Ok(());
        }
        self.remove_group(found.member, found.group)
    }

    fn add(&mut self, wanted: &Wanted, command: &str) -> Result<()> {
        let mut fields = vec![
            ("type".to_owned(), New::string("command")),
            ("command".to_owned(), New::string(command)),
            ("timeout".to_owned(), New::Raw(wanted.timeout.to_string())),
        ];
        if wanted.on_failure_block {
            fields.push(("onFailure".to_owned(), New::string("block")));
        }
        let handler = New::Object(fields);
        let mut group = Vec::new();
        if let Some(matcher) = &wanted.matcher {
            group.push(("matcher".to_owned(), New::string(matcher)));
        }
        group.push(("hooks".to_owned(), New::Array(vec![handler])));
        self.append_group(wanted.event.as_str(), &New::Object(group))
    }

    fn text(&self) -> String {
        self.text.clone()
    }
}

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
    pub(crate) fn remove_group(&mut self, event: &str, group: usize) -> Result<()> {
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

impl Doc for TomlDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        let mut found = Vec::new();
        for (member, (event, groups)) in toml_events(&self.doc).into_iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                let handlers = toml_handlers(group);
                for (h, handler) in handlers.iter().enumerate() {
                    let Some(command) = handler.get("command").and_then(toml_edit::Item::as_str)
                    else {
                        continue;
                    };
                    let Some(entry) = parse_relay(command, dialect) else {
                        continue;
                    };
                    found.push(Found {
                        scope: entry.scope,
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
        self.remove_group(&found.event, found.group)
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

    fn text(&self) -> String {
        self.doc.to_string()
    }
}

pub(crate) fn open_doc(format: ConfigFormat, text: &str, file: &Path) -> Result<Box<dyn Doc>> {
    Ok(match format {
        ConfigFormat::Json => Box::new(JsonDoc::new(text, file)?),
        ConfigFormat::Toml => Box::new(TomlDoc::new(text, file)?),
    })
}
