//! `hook relay install` and `hook relay uninstall`: the one relay entry per event in the agent's
//! own settings (Claude Code's `settings.json`, Codex's `config.toml`).
//!
//! - **Idempotent**: an event that already has the relay entry is left alone.
//! - **A backup** of the file as it was before the first install is kept beside it
//!   (`<file>.hook-relay.bak`); `uninstall` puts it back (the file as it was then is kept as
//!   `<file>.hook-relay.uninstalled`, so nothing is lost), or, with no backup, removes the relay
//!   entries.
//! - **`--move`** moves the hooks already in the agent's file into the relay's file of the same
//!   scope (same dialect, so nothing is converted), so they run once, under the engine.
//! - JSON is rewritten whole (serde_json: content kept, keys in sorted order); TOML is edited in
//!   place (toml_edit: comments and layout kept).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_protocol::{ConfigFormat, Dialect, RelayAgent};
use serde_json::{Value, json};

use crate::terminal::outln;

/// Which agent, and which of its settings files.
#[derive(Debug, Args)]
pub(crate) struct Scope {
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = crate::parse_dialect)]
    dialect: Dialect,
    /// The user's settings (the default).
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// This project's settings (`DIR/.claude/settings.json`, `DIR/.codex/config.toml`).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    #[arg(long, value_name = "FILE")]
    agent_config: Option<PathBuf>,
}

impl Scope {
    /// The agent and its settings file.
    fn agent_and_file(&self) -> Result<(RelayAgent, PathBuf)> {
        // `--user` is the default; the flag exists to say so on a command line.
        let _ = self.user;
        let agent = agent_of(self.dialect)?;
        let file = agent_file(
            &agent,
            self.project.as_deref(),
            self.agent_config.as_deref(),
        )?;
        Ok((agent, file))
    }
}

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    scope: Scope,
    /// The dialect's home, where the relay's user file is (~/.claude or ~/.lime by default).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Move the hooks already in the agent's file into the relay's file of the same scope.
    #[arg(long = "move")]
    move_hooks: bool,
}

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    scope: Scope,
}

/// The relay agent of `dialect`, or why there is none.
fn agent_of(dialect: Dialect) -> Result<RelayAgent> {
    dialect.rules().relay.with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The agent's settings file for the scope.
fn agent_file(agent: &RelayAgent, project: Option<&Path>, given: Option<&Path>) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_owned());
    }
    if let Some(project) = project {
        return Ok(project.join(agent.home_dir).join(agent.config_file));
    }
    let home = match std::env::var_os(agent.home_env).filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home),
        None => {
            PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?).join(agent.home_dir)
        }
    };
    Ok(home.join(agent.config_file))
}

/// The command the agent runs: this very binary, so the agent needs no `PATH` of its own.
fn relay_command(dialect: Dialect) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let exe = exe.display().to_string();
    Ok(format!(
        "{} relay --dialect {dialect}",
        crate::trust_commands::shell_quote(&exe)
    ))
}

/// Whether `command` is a relay entry of `dialect` (whatever the path of `hook`).
fn is_relay(command: &str, dialect: Dialect) -> bool {
    command.ends_with(&format!(" relay --dialect {dialect}"))
}

fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".hook-relay.bak");
    PathBuf::from(name)
}

/// `hook relay install`.
pub(crate) fn install(args: InstallArgs) -> Result<ExitCode> {
    let (agent, file) = args.scope.agent_and_file()?;
    let dialect = args.scope.dialect;
    let command = relay_command(dialect)?;
    let original = match std::fs::read_to_string(&file) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", file.display())),
    };
    let text = original.clone().unwrap_or_default();
    let (edited, added, moved) = match agent.config_format {
        ConfigFormat::Json => {
            install_json(&text, &file, &agent, dialect, &command, args.move_hooks)?
        }
        ConfigFormat::Toml => {
            install_toml(&text, &file, &agent, dialect, &command, args.move_hooks)?
        }
    };
    if let Some(moved) = moved {
        let relay_file = relay_file(dialect, args.scope.project.as_deref(), args.home.as_deref())?;
        write_moved(&relay_file, agent.config_format, &moved)?;
        outln!(
            "moved the hooks of {} to {}",
            file.display(),
            relay_file.display()
        );
    }
    if added == 0 && edited == text {
        outln!(
            "{}: the relay is already installed for every {} event",
            file.display(),
            agent.name
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(original) = &original {
        let backup = backup_path(&file);
        if !backup.exists() {
            std::fs::write(&backup, original)
                .with_context(|| format!("cannot write the backup {}", backup.display()))?;
            outln!("backup: {}", backup.display());
        }
    }
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(&file, edited).with_context(|| format!("cannot write {}", file.display()))?;
    outln!(
        "{}: relay entry added for {added} events ({command})",
        file.display()
    );
    if dialect.rules().trust_state_in_config {
        outln!(
            "{} runs only hooks you trusted: open it, type /hooks, and trust the `hook relay` entries (or run `codex exec --dangerously-bypass-hook-trust` in automation you vetted)",
            agent.name
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The relay's own file of the scope: the user file in the dialect's home, or the project's.
fn relay_file(dialect: Dialect, project: Option<&Path>, home: Option<&Path>) -> Result<PathBuf> {
    let rules = dialect.rules();
    let dir = match project {
        Some(project) => project.join(rules.home_dir),
        None => match home {
            Some(home) => home.to_owned(),
            None => {
                let options = hook_config::LoadOptions::new(
                    dialect,
                    hook_config::Environment::from_process(),
                );
                hook_config::discover(&options)
                    .context("cannot find the dialect's home: pass --home")?
                    .home
            }
        },
    };
    Ok(dir.join(hook_config::RELAY_DIR).join(rules.config_file))
}

type Installed = (String, usize, Option<Value>);

fn install_json(
    text: &str,
    file: &Path,
    agent: &RelayAgent,
    dialect: Dialect,
    command: &str,
    move_hooks: bool,
) -> Result<Installed> {
    let mut settings: Value = if text.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(text)
            .with_context(|| format!("{} is not valid JSON", file.display()))?
    };
    let Some(root) = settings.as_object_mut() else {
        bail!("{} must hold a JSON object", file.display());
    };
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("{}: `hooks` must be an object", file.display());
    };
    let mut moved = serde_json::Map::new();
    if move_hooks {
        for (event, groups) in hooks.iter_mut() {
            let Some(groups) = groups.as_array_mut() else {
                continue;
            };
            let (relay, theirs): (Vec<Value>, Vec<Value>) = groups
                .drain(..)
                .partition(|group| json_group_is_relay(group, dialect));
            *groups = relay;
            if !theirs.is_empty() {
                moved.insert(event.clone(), Value::Array(theirs));
            }
        }
        hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
    }
    let mut added = 0;
    for event in agent.events {
        let groups = hooks.entry(event.as_str()).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else {
            bail!("{}: `hooks.{event}` must be an array", file.display());
        };
        if groups
            .iter()
            .any(|group| json_group_is_relay(group, dialect))
        {
            continue;
        }
        groups.push(json!({"hooks": [{"type": "command", "command": command, "timeout": 600}]}));
        added += 1;
    }
    let edited = format!("{}\n", serde_json::to_string_pretty(&settings)?);
    let moved = (!moved.is_empty()).then(|| json!({"hooks": moved}));
    Ok((edited, added, moved))
}

fn json_group_is_relay(group: &Value, dialect: Dialect) -> bool {
    group["hooks"].as_array().is_some_and(|handlers| {
        handlers
            .iter()
            .any(|h| h["command"].as_str().is_some_and(|c| is_relay(c, dialect)))
    })
}

fn install_toml(
    text: &str,
    file: &Path,
    agent: &RelayAgent,
    dialect: Dialect,
    command: &str,
    move_hooks: bool,
) -> Result<Installed> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .with_context(|| format!("{} is not valid TOML", file.display()))?;
    let hooks = doc
        .entry("hooks")
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let Some(hooks) = hooks.as_table_like_mut() else {
        bail!("{}: `hooks` must be a table", file.display());
    };
    let mut moved = serde_json::Map::new();
    if move_hooks {
        let events: Vec<String> = hooks.iter().map(|(k, _)| k.to_owned()).collect();
        for event in events {
            if event == "state" {
                continue; // Codex's trust records stay with Codex
            }
            let Some(groups) = hooks
                .get_mut(&event)
                .and_then(|i| i.as_array_of_tables_mut())
            else {
                continue;
            };
            let mut theirs = Vec::new();
            let mut index = 0;
            while index < groups.len() {
                let group = groups.get(index).expect("index is below len");
                if toml_group_is_relay(group, dialect) {
                    index += 1;
                } else {
                    theirs.push(table_to_json(group)?);
                    groups.remove(index);
                }
            }
            if groups.is_empty() {
                hooks.remove(&event);
            }
            if !theirs.is_empty() {
                moved.insert(event, Value::Array(theirs));
            }
        }
    }
    let mut added = 0;
    for event in agent.events {
        let item = hooks
            .entry(event.as_str())
            .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        let Some(groups) = item.as_array_of_tables_mut() else {
            bail!(
                "{}: `hooks.{event}` must be an array of tables",
                file.display()
            );
        };
        if groups
            .iter()
            .any(|group| toml_group_is_relay(group, dialect))
        {
            continue;
        }
        let mut handler = toml_edit::Table::new();
        handler.insert("type", toml_edit::value("command"));
        handler.insert("command", toml_edit::value(command));
        handler.insert("timeout", toml_edit::value(600));
        let mut handlers = toml_edit::ArrayOfTables::new();
        handlers.push(handler);
        let mut group = toml_edit::Table::new();
        group.insert("hooks", toml_edit::Item::ArrayOfTables(handlers));
        groups.push(group);
        added += 1;
    }
    let moved = (!moved.is_empty()).then(|| json!({"hooks": moved}));
    Ok((doc.to_string(), added, moved))
}

fn toml_group_is_relay(group: &toml_edit::Table, dialect: Dialect) -> bool {
    group
        .get("hooks")
        .and_then(toml_edit::Item::as_array_of_tables)
        .is_some_and(|handlers| {
            handlers.iter().any(|h| {
                h.get("command")
                    .and_then(toml_edit::Item::as_str)
                    .is_some_and(|c| is_relay(c, dialect))
            })
        })
}

/// A TOML table as JSON (for moving it into a relay file).
fn table_to_json(table: &toml_edit::Table) -> Result<Value> {
    // A table's own text leaves out its nested arrays of tables: print it as a document's.
    let mut doc = toml_edit::DocumentMut::new();
    doc.insert("group", toml_edit::Item::Table(table.clone()));
    let value: toml::Value = toml::from_str(&doc.to_string()).context("re-reading a hook group")?;
    Ok(serde_json::to_value(
        value
            .get("group")
            .cloned()
            .unwrap_or(toml::Value::Table(Default::default())),
    )?)
}

/// Appends `moved` (`{"hooks": {event: [groups]}}`) to the relay file, creating it.
fn write_moved(relay_file: &Path, format: ConfigFormat, moved: &Value) -> Result<()> {
    if let Some(parent) = relay_file.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let existing = std::fs::read_to_string(relay_file).unwrap_or_default();
    let text = match format {
        ConfigFormat::Json => {
            let mut settings: Value = if existing.trim().is_empty() {
                json!({})
            } else {
                serde_json::from_str(&existing)
                    .with_context(|| format!("{} is not valid JSON", relay_file.display()))?
            };
            for (event, groups) in moved["hooks"].as_object().into_iter().flatten() {
                let target = &mut settings["hooks"][event];
                if !target.is_array() {
                    *target = json!([]);
                }
                if let (Some(target), Some(groups)) = (target.as_array_mut(), groups.as_array()) {
                    target.extend(groups.iter().cloned());
                }
            }
            format!("{}\n", serde_json::to_string_pretty(&settings)?)
        }
        ConfigFormat::Toml => {
            let mut doc: toml_edit::DocumentMut = existing
                .parse()
                .with_context(|| format!("{} is not valid TOML", relay_file.display()))?;
            let added: toml_edit::DocumentMut = toml::to_string(moved)
                .context("writing the moved hooks as TOML")?
                .parse()
                .context("re-reading the moved hooks")?;
            let hooks = doc
                .entry("hooks")
                .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
            let Some(hooks) = hooks.as_table_like_mut() else {
                bail!("{}: `hooks` must be a table", relay_file.display());
            };
            if let Some(new) = added.get("hooks").and_then(toml_edit::Item::as_table_like) {
                for (event, item) in new.iter() {
                    let Some(groups) = item.as_array_of_tables() else {
                        continue;
                    };
                    let target = hooks.entry(event).or_insert_with(|| {
                        toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new())
                    });
                    if let Some(target) = target.as_array_of_tables_mut() {
                        for group in groups.iter() {
                            target.push(group.clone());
                        }
                    }
                }
            }
            doc.to_string()
        }
    };
    std::fs::write(relay_file, text)
        .with_context(|| format!("cannot write {}", relay_file.display()))
}

/// `hook relay uninstall`.
pub(crate) fn uninstall(args: UninstallArgs) -> Result<ExitCode> {
    let (agent, file) = args.scope.agent_and_file()?;
    let dialect = args.scope.dialect;
    let backup = backup_path(&file);
    if backup.exists() {
        if file.exists() {
            let mut kept = file.as_os_str().to_owned();
            kept.push(".hook-relay.uninstalled");
            std::fs::copy(&file, &kept)
                .with_context(|| format!("cannot keep {}", file.display()))?;
            outln!("the file as it was: {}", PathBuf::from(kept).display());
        }
        std::fs::rename(&backup, &file)
            .with_context(|| format!("cannot restore {}", backup.display()))?;
        outln!("{}: restored from {}", file.display(), backup.display());
        return Ok(ExitCode::SUCCESS);
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            outln!("{}: no such file; nothing to uninstall", file.display());
            return Ok(ExitCode::SUCCESS);
        }
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", file.display())),
    };
    let (edited, removed) = match agent.config_format {
        ConfigFormat::Json => {
            let mut settings: Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not valid JSON", file.display()))?;
            let mut removed = 0;
            if let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) {
                for groups in hooks.values_mut() {
                    if let Some(groups) = groups.as_array_mut() {
                        let before = groups.len();
                        groups.retain(|group| !json_group_is_relay(group, dialect));
                        removed += before - groups.len();
                    }
                }
                hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
            }
            (
                format!("{}\n", serde_json::to_string_pretty(&settings)?),
                removed,
            )
        }
        ConfigFormat::Toml => {
            let mut doc: toml_edit::DocumentMut = text
                .parse()
                .with_context(|| format!("{} is not valid TOML", file.display()))?;
            let mut removed = 0;
            if let Some(hooks) = doc
                .get_mut("hooks")
                .and_then(toml_edit::Item::as_table_like_mut)
            {
                let events: Vec<String> = hooks.iter().map(|(k, _)| k.to_owned()).collect();
                for event in events {
                    let Some(groups) = hooks
                        .get_mut(&event)
                        .and_then(|i| i.as_array_of_tables_mut())
                    else {
                        continue;
                    };
                    let before = groups.len();
                    groups.retain(|group| !toml_group_is_relay(group, dialect));
                    removed += before - groups.len();
                    if groups.is_empty() {
                        hooks.remove(&event);
                    }
                }
            }
            (doc.to_string(), removed)
        }
    };
    std::fs::write(&file, edited).with_context(|| format!("cannot write {}", file.display()))?;
    outln!("{}: removed {removed} relay entries", file.display());
    Ok(ExitCode::SUCCESS)
}
