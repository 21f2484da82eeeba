//! Translating the hooks of one configuration file from one dialect to another.
//!
//! What is translated: events both dialects know, handler types the target runs, the matcher
//! (a wuu target gets one entry per name of a `|` list, since wuu matches a single tool name),
//! every field the target has, and timeouts: a handler keeps its effective timeout, written out
//! only where it differs from the target's default (wuu 30 s, verboo and lime 600 s...).
//!
//! Everything that has no equivalent is dropped with one warning naming the event, the handler
//! and what was lost; nothing is dropped silently. Converting and converting back gives the
//! original handlers for every field both dialects have.

use std::time::Duration;

use hook_protocol::{Dialect, Event, HandlerType, MatchTarget};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::file::FileHook;
use crate::handler::timeout_limits;

/// The translated configuration and what could not be translated.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Converted {
    /// The target file: JSON for wuu and verboo, TOML for lime.
    pub text: String,
    /// One sentence per thing that has no equivalent in the target.
    pub warnings: Vec<String>,
}

/// The handler fields of each dialect, in the names of the configuration files.
fn fields_of(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Wuu => &["type", "command", "prompt", "model", "timeout", "library"],
        Dialect::Verboo => &[
            "type",
            "command",
            "args",
            "shell",
            "timeout",
            "async",
            "asyncRewake",
            "continueOnBlock",
            "statusMessage",
            "if",
            "url",
            "headers",
            "allowedEnvVars",
            "prompt",
            "model",
            "server",
            "tool",
            "input",
            "library",
        ],
        Dialect::Lime => &[
            "type",
            "command",
            "commandWindows",
            "timeout",
            "async",
            "statusMessage",
            "additionalContextLimit",
            "prompt",
            "model",
            "server",
            "tool",
            "input",
            "library",
        ],
    }
}

fn runs_type(dialect: Dialect, handler_type: HandlerType) -> bool {
    match dialect {
        Dialect::Wuu => {
            matches!(
                handler_type,
                HandlerType::Command | HandlerType::Prompt | HandlerType::Native
            )
        }
        Dialect::Verboo => true,
        Dialect::Lime => handler_type != HandlerType::Http,
    }
}

/// A JSON object that keeps the order its entries were added in (for files people read).
#[derive(Debug, Clone, Default)]
struct Ordered(Vec<(String, Node)>);

#[derive(Debug, Clone)]
enum Node {
    Value(Value),
    Object(Ordered),
    List(Vec<Node>),
}

impl Ordered {
    fn push(&mut self, key: &str, node: Node) {
        self.0.push((key.to_owned(), node));
    }

    fn entry(&mut self, key: &str) -> &mut Node {
        let at = match self.0.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                self.0.push((key.to_owned(), Node::List(Vec::new())));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Value(value) => value.serialize(serializer),
            Node::Object(object) => object.serialize(serializer),
            Node::List(items) => items.serialize(serializer),
        }
    }
}

/// Handlers of one event under one matcher, in order.
type Group = (Option<String>, Vec<Ordered>);

/// Translates `hooks` (read from a `from` file) into a `to` file.
pub fn convert(from: Dialect, to: Dialect, hooks: &[FileHook]) -> Converted {
    let mut warnings = Vec::new();
    // Per event, the groups (matcher, handlers) in first-seen order.
    let mut events: Vec<(Event, Vec<Group>)> = Vec::new();

    for (index, hook) in hooks.iter().enumerate() {
        let label = format!(
            "{} handler {} ({})",
            hook.event,
            index + 1,
            hook.config.summary()
        );
        if !hook.event.is_known_in(to) {
            warnings.push(format!(
                "{label}: {to} has no {} event; handler dropped",
                hook.event
            ));
            continue;
        }
        let handler_type = hook.config.handler_type;
        if !runs_type(to, handler_type) {
            warnings.push(format!(
                "{label}: {to} has no {} handlers; handler dropped",
                handler_type.as_str()
            ));
            continue;
        }
        if to == Dialect::Lime && matches!(handler_type, HandlerType::Prompt | HandlerType::Agent) {
            warnings.push(format!(
                "{label}: lime parses {} handlers but never runs them",
                handler_type.as_str()
            ));
        }
        let Some(matchers) = translate_matcher(from, to, hook, &label, &mut warnings) else {
            continue;
        };
        let fields = translate_fields(to, hook, &label, &mut warnings);
        let groups = match events.iter_mut().find(|(event, _)| *event == hook.event) {
            Some((_, groups)) => groups,
            None => {
                events.push((hook.event.clone(), Vec::new()));
                &mut events.last_mut().expect("just pushed").1
            }
        };
        for matcher in matchers {
            match groups.last_mut() {
                Some((last, handlers)) if *last == matcher && to != Dialect::Wuu => {
                    handlers.push(fields.clone());
                }
                _ => groups.push((matcher, vec![fields.clone()])),
            }
        }
    }

    let mut hooks_table = Ordered::default();
    for (event, groups) in events {
        let Node::List(entries) = hooks_table.entry(event.as_str()) else {
            unreachable!("entry creates lists")
        };
        for (matcher, handlers) in groups {
            entries.extend(render_group(to, matcher, handlers));
        }
    }
    let mut root = Ordered::default();
    root.push("hooks", Node::Object(hooks_table));
    let text = match to {
        Dialect::Wuu | Dialect::Verboo => {
            let mut text = serde_json::to_string_pretty(&root).expect("JSON values serialize");
            text.push('\n');
            text
        }
        Dialect::Lime => toml::to_string(&root).unwrap_or_else(|error| {
            warnings.push(format!("cannot write TOML: {error}"));
            String::new()
        }),
    };
    Converted { text, warnings }
}

fn render_group(to: Dialect, matcher: Option<String>, handlers: Vec<Ordered>) -> Vec<Node> {
    match to {
        // wuu entries are flat: the matcher sits in each handler.
        Dialect::Wuu => handlers
            .into_iter()
            .map(|fields| {
                let mut entry = Ordered::default();
                if let Some(matcher) = &matcher {
                    entry.push("matcher", Node::Value(matcher.clone().into()));
                }
                entry.0.extend(fields.0);
                Node::Object(entry)
            })
            .collect(),
        Dialect::Verboo | Dialect::Lime => {
            let mut group = Ordered::default();
            if let Some(matcher) = matcher {
                group.push("matcher", Node::Value(matcher.into()));
            }
            group.push(
                "hooks",
                Node::List(handlers.into_iter().map(Node::Object).collect()),
            );
            vec![Node::Object(group)]
        }
    }
}

/// The matcher(s) the target needs for this handler, or `None` to drop it.
fn translate_matcher(
    from: Dialect,
    to: Dialect,
    hook: &FileHook,
    label: &str,
    warnings: &mut Vec<String>,
) -> Option<Vec<Option<String>>> {
    let matcher = hook.matcher.clone();
    let matches_all = matcher.as_deref().is_none_or(|m| m.is_empty() || m == "*");
    if matches_all {
        return Some(vec![matcher]);
    }
    let written = matcher.as_deref().unwrap_or_default();
    let names: Option<Vec<&str>> = written
        .split('|')
        .map(|name| {
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            plain.then_some(name)
        })
        .collect();
    if to == Dialect::Wuu {
        if hook.event.match_target(Dialect::Wuu) == MatchTarget::Nothing {
            warnings.push(format!(
                "{label}: wuu matches tool names only, so matcher `{written}` is dropped and the handler runs on every {}",
                hook.event
            ));
            return Some(vec![None]);
        }
        return match names {
            Some(names) => Some(names.into_iter().map(|n| Some(n.to_owned())).collect()),
            None => {
                warnings.push(format!(
                    "{label}: wuu matchers are exact tool names, so the regular expression `{written}` has no equivalent; handler dropped"
                ));
                None
            }
        };
    }
    if from == Dialect::Wuu && written.chars().any(|c| c.is_ascii_alphabetic()) {
        warnings.push(format!(
            "{label}: wuu matches `{written}` case-insensitively, {to} matches tool names exactly: check the tool's name as {to} spells it"
        ));
    }
    Some(vec![matcher])
}

fn translate_fields(
    to: Dialect,
    hook: &FileHook,
    label: &str,
    warnings: &mut Vec<String>,
) -> Ordered {
    let written = serde_json::to_value(&hook.config).expect("handler fields serialize");
    let Value::Object(written) = written else {
        unreachable!("a struct serializes to an object")
    };
    let allowed = fields_of(to);
    let mut fields = Ordered::default();
    // The target's own field order first (type, command, ...), so files read naturally.
    for name in allowed {
        let Some(value) = written.get(*name) else {
            continue;
        };
        let wuu_default_type = *name == "type" && to == Dialect::Wuu && value == "command";
        if *name != "timeout" && !wuu_default_type {
            fields.push(name, Node::Value(value.clone()));
        }
    }
    for (name, _) in written {
        if !allowed.contains(&name.as_str()) {
            let consequence = match name.as_str() {
                "if" => "; the handler now runs for every matching call",
                _ => "",
            };
            warnings.push(format!(
                "{label}: `{name}` has no {to} equivalent; dropped{consequence}"
            ));
        }
    }
    let (default, maximum) = timeout_limits(to, &hook.event, hook.config.handler_type);
    let mut timeout = hook.timeout;
    if let Some(maximum) = maximum
        && timeout.as_secs_f64() > maximum
    {
        warnings.push(format!(
            "{label}: timeout {} s is over {to}'s maximum of {maximum} s for {}; capped",
            timeout.as_secs_f64(),
            hook.event
        ));
        timeout = Duration::from_secs_f64(maximum);
    }
    if (timeout.as_secs_f64() - default).abs() > f64::EPSILON {
        let seconds = timeout.as_secs_f64();
        let value = if seconds.fract() == 0.0 {
            Value::from(timeout.as_secs())
        } else {
            Value::from(seconds)
        };
        fields.push("timeout", Node::Value(value));
    }
    fields
}
