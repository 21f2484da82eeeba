//! `cargo xtask conformance guests-drift`: does the relay still translate every event of Qwen
//! Code, Gemini CLI and Copilot CLI as they ship? Each agent's event list is read from its
//! installed package and compared with its translation table in
//! `hook-cli/src/ops/relay/agents/<agent>.rs` (read as text: the tables are the CLI's own):
//!
//! - **Qwen Code**: its `HookEventName` enum, compiled as `HookEventName2["X"] = "X"` in its
//!   `chunks/*.js` (the file names are content hashes; every chunk is read);
//! - **Gemini CLI**: the same enum in `bundle/*.js` (the bundle also holds unused copies; the
//!   union is read);
//! - **Copilot CLI**: `definitions.HookType.enum` of `schemas/api.schema.json`, which exists only
//!   once the binary unpacked itself; its Claude Code dialect names each event in Claude Code's
//!   case (`preToolUse` is `PreToolUse`), two by another name (`userPromptSubmitted` is
//!   `UserPromptSubmit`, `agentStop` is `Stop`, measured).
//!
//! It fails on an event the agent has that the table does not translate although Claude Code
//! has one of its name (a guard there would never run), and on a table row for an event the
//! agent no longer has. An agent event with no Claude Code event of its name (Gemini CLI's
//! `BeforeModel`, Qwen Code's `TodoCreated`) is listed, not failed: the relay refuses it, and
//! `hook relay install` never writes an entry for it.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use regex::Regex;
use serde_json::Value;

use super::entries::Guest;

/// Copilot CLI's events whose Claude Code dialect name is not its own in Claude Code's case.
const COPILOT_RENAMED: &[(&str, &str)] = &[
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("agentStop", "Stop"),
];

/// What one agent's drift is.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Drift {
    /// Agent events Claude Code has too that the table does not translate.
    pub(super) missing: Vec<String>,
    /// Table rows for events the agent no longer has.
    pub(super) stale: Vec<String>,
    /// Agent events with no Claude Code event of their name (listed, not failed).
    pub(super) without_counterpart: Vec<String>,
}

/// Compares `guest`'s installed package (under `npm`'s `node_modules`, Copilot CLI's schemas
/// under `copilot_pkg`) with its table in the workspace at `root`; prints a line per agent and
/// fails when one drifted.
pub(super) fn check(
    root: &Path,
    npm: &Path,
    copilot_pkg: &Path,
    versions: &[(Guest, String)],
) -> Result<()> {
    let mut drifted = 0;
    for (guest, version) in versions {
        let events = agent_events(*guest, &npm.join("node_modules"), copilot_pkg)?;
        let table = table_events(root, *guest)?;
        let drift = compare(*guest, &events, &table);
        println!(
            "{} {version}: {} events, the relay translates {}{}",
            guest.title(),
            events.len(),
            table.len(),
            if drift.without_counterpart.is_empty() {
                String::new()
            } else {
                format!(
                    "; no Claude Code event for {}",
                    drift.without_counterpart.join(", ")
                )
            }
        );
        for event in &drift.missing {
            println!("  missing: {event}: Claude Code has it, the table does not translate it");
        }
        for event in &drift.stale {
            println!("  stale: {event}: in the table, no longer an event of the agent");
        }
        if !drift.missing.is_empty() || !drift.stale.is_empty() {
            drifted += 1;
        }
    }
    if drifted > 0 {
        bail!("{drifted} agents' tables drifted from their releases");
    }
    Ok(())
}

/// `guest`'s agent-side events compared with its table's `(agent, Claude Code)` rows.
pub(super) fn compare(
    guest: Guest,
    events: &BTreeSet<String>,
    table: &[(String, String)],
) -> Drift {
    let mut drift = Drift::default();
    let claude_of = |event: &str| -> String {
        match guest {
            Guest::Copilot => COPILOT_RENAMED
                .iter()
                .find(|(its, _)| *its == event)
                .map_or_else(|| upper_first(event), |(_, claude)| (*claude).to_owned()),
            _ => event.to_owned(),
        }
    };
    for event in events {
        let name = claude_of(event);
        let translated = table.iter().any(|(its, _)| *its == name);
        if translated {
            continue;
        }
        if claude_knows(&name) {
            drift.missing.push(event.clone());
        } else {
            drift.without_counterpart.push(event.clone());
        }
    }
    for (its, _) in table {
        if !events.iter().any(|event| claude_of(event) == *its) {
            drift.stale.push(its.clone());
        }
    }
    drift
}

/// Whether Claude Code (the verboo dialect) has an event of this name.
fn claude_knows(name: &str) -> bool {
    hook_protocol::Dialect::Verboo
        .rules()
        .knows(&hook_protocol::Event::from_name(name))
}

fn upper_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The events `guest`'s installed package names.
fn agent_events(guest: Guest, modules: &Path, copilot_pkg: &Path) -> Result<BTreeSet<String>> {
    let events = match guest {
        Guest::Qwen => enum_members(&modules.join("@qwen-code/qwen-code/chunks"))?,
        Guest::Gemini => enum_members(&modules.join("@google/gemini-cli/bundle"))?,
        Guest::Copilot => {
            let schema = copilot_pkg.join("schemas/api.schema.json");
            let text = fs::read_to_string(&schema).with_context(|| {
                format!("reading {} (is Copilot CLI unpacked?)", schema.display())
            })?;
            let value: Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not JSON", schema.display()))?;
            value["definitions"]["HookType"]["enum"]
                .as_array()
                .with_context(|| format!("{}: no definitions.HookType.enum", schema.display()))?
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        }
    };
    if events.is_empty() {
        bail!("found no hook events of {} in its package", guest.title());
    }
    Ok(events)
}

/// The members of every `HookEventName` enum compiled in the `.js` files of `folder`.
fn enum_members(folder: &Path) -> Result<BTreeSet<String>> {
    let member =
        Regex::new(r#"HookEventName\d*\["(\w+)"\] = "(\w+)""#).context("the enum regex")?;
    let mut events = BTreeSet::new();
    let entries = fs::read_dir(folder).with_context(|| format!("reading {}", folder.display()))?;
    for entry in entries {
        let path = entry
            .with_context(|| format!("reading {}", folder.display()))?
            .path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        events.extend(member.captures_iter(&text).map(|c| c[2].to_owned()));
    }
    Ok(events)
}

/// The `(agent, Claude Code)` rows of the `events` table in `guest`'s module.
fn table_events(root: &Path, guest: Guest) -> Result<Vec<(String, String)>> {
    let file = root.join(format!("hook-cli/src/ops/relay/agents/{}.rs", guest.name()));
    let text = fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let rows = table_rows(&text);
    if rows.is_empty() {
        bail!("{}: found no `events: &[...]` table", file.display());
    }
    Ok(rows)
}

/// The `("A", "B")` rows between `events: &[` and the next `],`.
pub(super) fn table_rows(text: &str) -> Vec<(String, String)> {
    let Some(start) = text.find("events: &[") else {
        return Vec::new();
    };
    let rest = &text[start..];
    let block = &rest[..rest.find("],").unwrap_or(rest.len())];
    let Ok(row) = Regex::new(r#"\(\s*"(\w+)",\s*"(\w+)"\s*\)"#) else {
        return Vec::new();
    };
    row.captures_iter(block)
        .map(|c| (c[1].to_owned(), c[2].to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_read_from_the_cli_sources() {
        let root = crate::root();
        for guest in Guest::ALL {
            let rows = table_events(&root, guest).expect("a table");
            assert!(rows.len() >= 6, "{}: {rows:?}", guest.title());
        }
        let gemini = table_events(&root, Guest::Gemini).expect("a table");
        assert!(gemini.contains(&("BeforeTool".to_owned(), "PreToolUse".to_owned())));
    }

    #[test]
    fn drift_is_a_missing_or_stale_row_never_an_event_claude_code_lacks() {
        let table = vec![
            ("BeforeTool".to_owned(), "PreToolUse".to_owned()),
            ("Gone".to_owned(), "Stop".to_owned()),
        ];
        let events: BTreeSet<String> = ["BeforeTool", "BeforeModel", "PreCompact"]
            .iter()
            .map(|e| (*e).to_owned())
            .collect();
        let drift = compare(Guest::Gemini, &events, &table);
        assert_eq!(drift.missing, ["PreCompact"]);
        assert_eq!(drift.stale, ["Gone"]);
        assert_eq!(drift.without_counterpart, ["BeforeModel"]);
        // Copilot CLI's camelCase names, two of them renamed in its Claude Code dialect.
        let table = vec![
            ("PreToolUse".to_owned(), "PreToolUse".to_owned()),
            ("Stop".to_owned(), "Stop".to_owned()),
        ];
        let events: BTreeSet<String> = ["preToolUse", "agentStop", "postResult"]
            .iter()
            .map(|e| (*e).to_owned())
            .collect();
        let drift = compare(Guest::Copilot, &events, &table);
        assert_eq!(
            drift,
            Drift {
                without_counterpart: vec!["postResult".to_owned()],
                ..Drift::default()
            }
        );
    }
}
