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
//!
//! `onFailure` is kept in every target: the engine reads it in every dialect (the relay's files,
//! `hook run`, wuu agents), so a guard that fails closed still does. Where the target's agent
//! runs a hook itself without reading it (Codex), a warning says so.
//!
//! A command that uses a variable the target's agent does not set is kept as written, with a
//! warning naming the handler, the variable and what to write instead ([`uses_variable`]):
//! `$CLAUDE_PROJECT_DIR` in lime or wuu (Codex sets none; the engine's `$HOOK_PROJECT_DIR` is
//! set in every dialect, and the relay sets both for its hooks), `$HOOK_PROJECT_DIR` where the
//! agent runs the hook itself, and `$CLAUDE_ENV_FILE` on an event the target gives no such
//! file. `$CLAUDE_PLUGIN_ROOT` and `$PLUGIN_ROOT` are not warned of: every dialect sets both for
//! a plugin's hooks, and outside a plugin the source had neither, so converting changes nothing.

use std::time::Duration;

use hook_protocol::{ConfigFormat, ConfigLayout, Dialect, Event, MatchTarget, MatcherStyle};
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

/// Fields the engine reads in every dialect's files (`read/handler.rs`), kept whatever the
/// target's own field list says.
const ENGINE_FIELDS: &[&str] = &["onFailure"];

/// The project's folder as the engine names it in every dialect (`hook_exec::PROJECT_DIR_ENV`;
/// this crate does not depend on hook-exec).
const ENGINE_PROJECT_DIR: &str = "HOOK_PROJECT_DIR";

/// verboo's file for environment the hook leaves to the session, set on
/// [`hook_protocol::InputRules::env_file_events`].
const ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// Whether `command` expands the variable `name`: `$NAME` or `${NAME...}` (`${NAME}`,
/// `${NAME:-default}`), not a longer name that starts with it. Quoting is not read: a variable
/// inside single quotes may still reach a shell (`bash -c '...'`).
pub fn uses_variable(command: &str, name: &str) -> bool {
    let continues_name = |rest: &str| {
        rest.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    command.match_indices('$').any(|(at, _)| {
        let after = &command[at + 1..];
        let after = after.strip_prefix('{').unwrap_or(after);
        after
            .strip_prefix(name)
            .is_some_and(|rest| !continues_name(rest))
    })
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
        if !to.rules().handlers().parses(handler_type) {
            warnings.push(format!(
                "{label}: {to} has no {} handlers; handler dropped",
                handler_type.as_str()
            ));
            continue;
        }
        if !to.rules().handlers().runs(handler_type) {
            warnings.push(format!(
                "{label}: {to} parses {} handlers but never runs them",
                handler_type.as_str()
            ));
        }
        let Some(matchers) = translate_matcher(from, to, hook, &label, &mut warnings) else {
            continue;
        };
        let fields = translate_fields(to, hook, &label, &mut warnings);
        unset_variables(to, hook, &label, &mut warnings);
        let groups = match events.iter_mut().find(|(event, _)| *event == hook.event) {
            Some((_, groups)) => groups,
            None => {
                events.push((hook.event.clone(), Vec::new()));
                &mut events.last_mut().expect("just pushed").1
            }
        };
        for matcher in matchers {
            match groups.last_mut() {
                Some((last, handlers))
                    if *last == matcher
                        && to.rules().config().config_layout() == ConfigLayout::Grouped =>
                {
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
    let text = match to.rules().config().config_format() {
        ConfigFormat::Json => {
            let mut text = serde_json::to_string_pretty(&root).expect("JSON values serialize");
            text.push('\n');
            text
        }
        ConfigFormat::Toml => toml::to_string(&root).unwrap_or_else(|error| {
            warnings.push(format!("cannot write TOML: {error}"));
            String::new()
        }),
    };
    Converted { text, warnings }
}

fn render_group(to: Dialect, matcher: Option<String>, handlers: Vec<Ordered>) -> Vec<Node> {
    match to.rules().config().config_layout() {
        // Flat entries: the matcher sits in each handler.
        ConfigLayout::Flat => handlers
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
        ConfigLayout::Grouped => {
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
    if to.rules().matching().matcher_style() == MatcherStyle::NameIgnoreCase {
        if hook.event.match_target(to) == MatchTarget::Nothing {
            warnings.push(format!(
                "{label}: {to} matches tool names only, so matcher `{written}` is dropped and the handler runs on every {}",
                hook.event
            ));
            return Some(vec![None]);
        }
        return match names {
            Some(names) => Some(names.into_iter().map(|n| Some(n.to_owned())).collect()),
            None => {
                warnings.push(format!(
                    "{label}: {to} matchers are exact tool names, so the regular expression `{written}` has no equivalent; handler dropped"
                ));
                None
            }
        };
    }
    let ignores_case = from.rules().matching().matcher_style() == MatcherStyle::NameIgnoreCase;
    if ignores_case && written.chars().any(|c| c.is_ascii_alphabetic()) {
        warnings.push(format!(
            "{label}: {from} matches `{written}` case-insensitively, {to} matches tool names exactly: check the tool's name as {to} spells it"
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
    let allowed = to.rules().handlers().handler_fields();
    let mut fields = Ordered::default();
    // The target's own field order first (type, command, ...), so files read naturally.
    for name in allowed {
        let Some(value) = written.get(*name) else {
            continue;
        };
        let implied_type = *name == "type"
            && to
                .rules()
                .handlers()
                .default_handler_type()
                .is_some_and(|implied| value == implied.as_str());
        if *name != "timeout" && !implied_type {
            fields.push(name, Node::Value(value.clone()));
        }
    }
    for name in ENGINE_FIELDS.iter().filter(|name| !allowed.contains(name)) {
        if let Some(value) = written.get(*name) {
            fields.push(name, Node::Value(value.clone()));
        }
    }
    let agent = to.rules().agent().relay();
    if hook.config.on_failure == Some(crate::OnFailure::Block)
        && let Some(agent) = agent.filter(|agent| !agent.on_failure)
    {
        warnings.push(format!(
            "{label}: `onFailure` kept: `hook relay` reads it in the relay's files, but {} ignores it in its own settings, where a failure of this hook lets the event go ahead",
            agent.name
        ));
    }
    for (name, _) in written {
        if !allowed.contains(&name.as_str()) && !ENGINE_FIELDS.contains(&name.as_str()) {
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

/// A warning for each variable `hook`'s command uses that the target's agent does not set: its
/// value would be empty, and a guard on `"$CLAUDE_PROJECT_DIR"/hooks/guard.sh` would run
/// `/hooks/guard.sh`, fail, and let the event go ahead.
fn unset_variables(to: Dialect, hook: &FileHook, label: &str, warnings: &mut Vec<String>) {
    let Some(command) = hook.config.command.as_deref() else {
        return;
    };
    let rules = to.rules();
    let title = rules.agent().title();
    // Where the agent runs a hook itself (Claude Code, Codex), the engine's names are not set;
    // the relay sets them, and the agent's project variable too, for the relay's hooks.
    let relay_agent = rules.agent().relay();
    let in_relay = "(`hook relay` sets it for the hooks of the relay's files)";
    let project_vars = Dialect::ALL
        .iter()
        .filter_map(|dialect| dialect.rules().input().project_dir_env())
        .filter(|var| rules.input().project_dir_env() != Some(*var));
    for var in project_vars.filter(|var| uses_variable(command, var)) {
        let (whose, fix) = match relay_agent {
            Some(_) => (
                format!(" for the hooks of its own settings {in_relay}"),
                format!(
                    "write `${ENGINE_PROJECT_DIR}` and keep the hook in the relay's files, where `hook relay` sets both"
                ),
            ),
            None => (
                String::new(),
                format!("write `${ENGINE_PROJECT_DIR}`, which the engine sets in every dialect"),
            ),
        };
        warnings.push(format!(
            "{label}: {title} does not set `{var}`{whose}: `${var}` expands to empty and the command fails; {fix}"
        ));
    }
    if relay_agent.is_some() && uses_variable(command, ENGINE_PROJECT_DIR) {
        let fix = match rules.input().project_dir_env() {
            Some(var) => format!("write `${var}`, which {title} sets"),
            None => "keep the hook in the relay's files".to_owned(),
        };
        warnings.push(format!(
            "{label}: {title} does not set `{ENGINE_PROJECT_DIR}` for the hooks of its own settings {in_relay}: `${ENGINE_PROJECT_DIR}` expands to empty and the command fails; {fix}"
        ));
    }
    if uses_variable(command, ENV_FILE) && !rules.input().env_file_events().contains(&hook.event) {
        warnings.push(format!(
            "{label}: {title} sets no `{ENV_FILE}` on {}: what the hook writes to it is lost",
            hook.event
        ));
    }
}
