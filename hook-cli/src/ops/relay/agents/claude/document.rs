//! A Claude Code settings file (`settings.json`), edited as text ([`json_text`]): every byte
//! outside an edit (key order, number spellings, indentation, CRLF, a minified layout) is kept.

use super::json_text;
use super::json_text::{New, Style};
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::{Found, GroupAt, OwnGroup, SettingsDoc, WrittenHook};
use crate::ops::relay::read::entries::{RelayOf, Wanted, is_relay_of, parse_relay_of};
use anyhow::{Context, Result, bail};
use hook_protocol::Dialect;
use std::path::Path;

/// A Claude Code settings file, edited as text.
pub(crate) struct JsonDoc {
    pub(crate) text: String,
    pub(crate) file: String,
    /// Whose relay entries it holds: the dialect's own (`None`: the dialect `found` is given),
    /// or a translated agent's (`--agent NAME`), in a file of Claude Code's shape.
    relay: Option<RelayOf>,
}

impl JsonDoc {
    pub(crate) fn new(text: &str, file: &Path) -> Result<JsonDoc> {
        JsonDoc::holding(text, file, None, "{}\n")
    }

    /// A file of Claude Code's shape holding `of`'s relay entries; `empty` is the text a file
    /// that does not exist yet starts from.
    pub(crate) fn of_agent(text: &str, file: &Path, of: RelayOf, empty: &str) -> Result<JsonDoc> {
        JsonDoc::holding(text, file, Some(of), empty)
    }

    fn holding(text: &str, file: &Path, relay: Option<RelayOf>, empty: &str) -> Result<JsonDoc> {
        let doc = JsonDoc {
            text: if text.trim().is_empty() {
                empty.to_owned()
            } else {
                text.to_owned()
            },
            file: file.display().to_string(),
            relay,
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
    pub(crate) fn append_new(&mut self, event: &str, group: &New) -> Result<()> {
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
    pub(crate) fn remove_group_at(&mut self, member: usize, group: usize) -> Result<()> {
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

impl SettingsDoc for JsonDoc {
    fn found(&self, dialect: Dialect) -> Result<Vec<Found>> {
        let of = self.relay_of(dialect);
        self.found_by(&|command| parse_relay_of(command, of).map(|entry| entry.scope))
    }

    fn found_where(&self, is: &dyn Fn(&str) -> bool) -> Result<Vec<Found>> {
        self.found_by(&|command| is(command).then_some(None))
    }

    fn set_command(&mut self, found: &Found, command: &str) -> Result<()> {
        let root = self.root()?;
        let node = root
            .get("hooks")
            .and_then(json_text::Node::members)
            .and_then(|m| m.get(found.member))
            .and_then(|event| event.value.items()?.get(found.group)?.get("hooks"))
            .and_then(|handlers| handlers.items()?.get(found.handler)?.get("command"))
            .context("the hook moved while editing")?;
        let (start, end) = (node.start, node.end);
        let quoted = serde_json::Value::from(command).to_string();
        self.text.replace_range(start..end, &quoted);
        Ok(())
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
        self.remove_group_at(found.member, found.group)
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
        self.append_new(wanted.event.as_str(), &New::Object(group))
    }

    fn hooks(&self) -> Result<Vec<WrittenHook>> {
        let root = self.root()?;
        let mut hooks = Vec::new();
        let Some(members) = root.get("hooks").and_then(json_text::Node::members) else {
            return Ok(hooks);
        };
        for event in members {
            for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                hooks.extend(self.group_hooks(&event.key, g, group));
            }
        }
        Ok(hooks)
    }

    fn take_own_groups(&mut self, dialect: Dialect) -> Result<Vec<OwnGroup>> {
        let mut taken = Vec::new();
        // The first group left without a relay handler, taken out, until none is left: each
        // removal may empty its event or `hooks`, which moves what follows.
        let of = self.relay_of(dialect);
        loop {
            let root = self.root()?;
            let Some(members) = root.get("hooks").and_then(json_text::Node::members) else {
                break;
            };
            let mut next = None;
            'events: for (member, event) in members.iter().enumerate() {
                for (g, group) in event.value.items().unwrap_or_default().iter().enumerate() {
                    let hooks = self.group_hooks(&event.key, g, group);
                    let relay = hooks
                        .iter()
                        .any(|h| h.command.as_deref().is_some_and(|c| is_relay_of(c, of)));
                    if !relay {
                        next = Some((
                            member,
                            g,
                            event.key.clone(),
                            group.raw(&self.text).to_owned(),
                            hooks,
                        ));
                        break 'events;
                    }
                }
            }
            let Some((member, g, event, text, hooks)) = next else {
                break;
            };
            taken.push(OwnGroup { event, text, hooks });
            // The whole group, whatever the number of its handlers.
            self.remove_group_at(member, g)?;
        }
        Ok(taken)
    }

    fn append_group(&mut self, event: &str, text: &str) -> Result<()> {
        self.append_new(event, &New::Raw(text.to_owned()))
    }

    fn group_at(&self, event: &str, text: &str) -> Result<Option<GroupAt>> {
        let root = self.root()?;
        let Some(members) = root.get("hooks").and_then(json_text::Node::members) else {
            return Ok(None);
        };
        let wanted = serde_json::from_str::<serde_json::Value>(text).ok();
        for (member, found) in members.iter().enumerate() {
            if found.key != event {
                continue;
            }
            for (index, group) in found.value.items().unwrap_or_default().iter().enumerate() {
                let raw = group.raw(&self.text);
                let same = raw == text
                    || wanted.is_some()
                        && serde_json::from_str::<serde_json::Value>(raw).ok() == wanted;
                if same {
                    return Ok(Some(GroupAt { member, index }));
                }
            }
        }
        Ok(None)
    }

    fn remove_group(&mut self, _event: &str, at: GroupAt) -> Result<()> {
        self.remove_group_at(at.member, at.index)
    }

    fn text(&self) -> String {
        self.text.clone()
    }
}

impl JsonDoc {
    /// Every command handler `pick` takes (with the relay scope it names), in file order.
    fn found_by(&self, pick: &dyn Fn(&str) -> Option<Option<RelayScope>>) -> Result<Vec<Found>> {
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
                    let Some(scope) = pick(&command) else {
                        continue;
                    };
                    found.push(Found {
                        scope,
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
}

impl JsonDoc {
    /// Whose relay entries this file holds, `dialect`'s unless it was opened for an agent.
    fn relay_of(&self, dialect: Dialect) -> RelayOf {
        self.relay.unwrap_or(RelayOf::Dialect(dialect))
    }

    /// The command handlers of `group` (the `g`-th of `event`).
    fn group_hooks(&self, event: &str, g: usize, group: &json_text::Node) -> Vec<WrittenHook> {
        let text = |node: Option<&json_text::Node>| node.and_then(|n| n.as_str(&self.text));
        let matcher = text(group.get("matcher"));
        group
            .get("hooks")
            .and_then(json_text::Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(h, handler)| WrittenHook {
                event: event.to_owned(),
                group: g,
                handler: h,
                matcher: matcher.clone(),
                command: text(handler.get("command")),
                timeout: handler
                    .get("timeout")
                    .and_then(|t| t.raw(&self.text).parse().ok()),
                is_async: handler
                    .get("async")
                    .is_some_and(|a| a.raw(&self.text) == "true"),
                status_message: text(handler.get("statusMessage")),
                additional_context_limit: handler
                    .get("additionalContextLimit")
                    .and_then(|t| t.raw(&self.text).parse().ok()),
                library: text(handler.get("library")),
            })
            .collect()
    }
}
