//! One case's files: its folder per side (`Side`), the hooks' scripts, and the agent's
//! configuration written from them (Codex's TOML, Claude Code's settings), through `hook relay`
//! too.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, bail};
use serde_json::{Value, json};

use super::cases;
use super::cases::{Case, Hook};
use super::{Agent, Env};

pub(super) struct Side {
    pub(super) dir: PathBuf,
    pub(super) marker: PathBuf,
    /// What the second turn's tool command writes (`{MARKER2}`).
    pub(super) marker2: PathBuf,
    pub(super) flag: PathBuf,
    pub(super) rewritten: PathBuf,
    pub(super) captures: PathBuf,
}

pub(super) fn side(case_dir: &Path, name: &str) -> Result<Side> {
    let dir = case_dir.join(name);
    for sub in ["home", "project", "hooks", "captures"] {
        fs::create_dir_all(dir.join(sub))?;
    }
    Ok(Side {
        marker: dir.join("marker"),
        marker2: dir.join("marker2"),
        flag: dir.join("flag"),
        rewritten: dir.join("rewritten"),
        captures: dir.join("captures"),
        dir,
    })
}

pub(super) fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Writes one script per distinct hook (a hook with `same_as` reuses that one's); returns each
/// hook's command.
pub(super) fn scripts(side: &Side, hooks: &[Hook]) -> Result<Vec<String>> {
    let mut commands: Vec<String> = Vec::new();
    for (index, hook) in hooks.iter().enumerate() {
        if let Some(first) = hooks
            .iter()
            .position(|h| h == hook)
            .map(|first| hook.same_as.unwrap_or(first))
            .filter(|first| *first < index)
        {
            commands.push(commands[first].clone());
            continue;
        }
        let dir = side.dir.join("hooks");
        let rewrite = format!("touch {}", side.rewritten.display());
        let (stdout, stop_once) = match hook.stdout {
            "STOP_ONCE" => (
                r#"{"decision":"block","reason":"REASON_TOKEN once"}"#.to_owned(),
                true,
            ),
            "STOP_ONCE_B" => (
                r#"{"decision":"block","reason":"SECOND_TOKEN once"}"#.to_owned(),
                true,
            ),
            "STOP_ONCE_EXIT2" => (String::new(), true),
            other => (
                other.replace("{REWRITE}", &rewrite.replace('"', "\\\"")),
                false,
            ),
        };
        let stderr = if hook.stdout == "STOP_ONCE_EXIT2" {
            "REASON_TOKEN once"
        } else {
            hook.stderr
        };
        let exit = if hook.stdout == "STOP_ONCE_EXIT2" {
            2
        } else {
            hook.exit
        };
        fs::write(dir.join(format!("{index}.out")), stdout)?;
        fs::write(dir.join(format!("{index}.err")), stderr)?;
        let capture = side.captures.join(index.to_string());
        let flag = dir.join(format!("{index}.once"));
        let mut script = format!(
            "#!/bin/sh\ni=0\nwhile [ -e {cap}.$i.json ]; do i=$((i+1)); done\ncat > {cap}.$i.json\n",
            cap = quote(&capture)
        );
        if stop_once || hook.once {
            let _ = write!(
                script,
                "if [ -e {f} ]; then exit 0; fi\ntouch {f}\n",
                f = quote(&flag)
            );
        }
        if hook.sleep > 0 {
            let _ = writeln!(script, "sleep {}", hook.sleep);
        }
        if !hook.shell.is_empty() {
            let _ = writeln!(
                script,
                "{}",
                hook.shell.replace("{FLAG}", &quote(&side.flag))
            );
        }
        let _ = write!(
            script,
            "cat {}\ncat {} >&2\nexit {exit}\n",
            quote(&dir.join(format!("{index}.out"))),
            quote(&dir.join(format!("{index}.err")))
        );
        let path = dir.join(format!("{index}.sh"));
        fs::write(&path, script)?;
        commands.push(format!("sh {}", quote(&path)));
    }
    Ok(commands)
}

/// The case's hooks, plus the probe.
pub(super) fn hooks_of(case: &Case) -> Vec<Hook> {
    let mut hooks = case.hooks.clone();
    if case.probe {
        hooks.push(Hook {
            stdout: "",
            ..cases::hook()
        });
    }
    hooks
}

pub(super) fn toml_config(event: &str, hooks: &[Hook], commands: &[String]) -> String {
    let mut text = String::new();
    for (hook, command) in hooks.iter().zip(commands) {
        let _ = writeln!(text, "[[hooks.{event}]]");
        if let Some(matcher) = hook.matcher {
            let _ = writeln!(text, "matcher = {}", Value::from(matcher));
        }
        let _ = writeln!(text, "[[hooks.{event}.hooks]]\ntype = \"command\"");
        let _ = writeln!(
            text,
            "command = {}\ntimeout = {}",
            Value::from(command.as_str()),
            hook.timeout
        );
        if hook.background {
            let _ = writeln!(text, "async = true");
        }
        text.push('\n');
    }
    text
}

pub(super) fn json_config(event: &str, hooks: &[Hook], commands: &[String]) -> Value {
    let groups: Vec<Value> = hooks
        .iter()
        .zip(commands)
        .map(|(hook, command)| {
            let mut handler =
                json!({"type": "command", "command": command, "timeout": hook.timeout});
            if let Some(when) = hook.when {
                handler["if"] = json!(when);
            }
            if hook.background {
                handler["async"] = json!(true);
            }
            if let Some(on_failure) = hook.on_failure {
                handler["onFailure"] = json!(on_failure);
            }
            let mut group = json!({"hooks": [handler]});
            if let Some(matcher) = hook.matcher {
                group["matcher"] = json!(matcher);
            }
            group
        })
        .collect();
    json!({"hooks": {event: groups}})
}

/// Claude Code / verboo settings: the user's `settings.json` in `user_dir`, and with
/// `probe_apart` the probe alone in the project's `.claude/settings.json`; a
/// `personal_settings` case's hooks all in the project's `.claude/settings.local.json`.
pub(super) fn write_claude_settings(
    user_dir: &Path,
    project: &Path,
    case: &Case,
    hooks: &[Hook],
    commands: &[String],
) -> Result<()> {
    let split = if case.probe && case.probe_apart {
        hooks.len() - 1
    } else {
        hooks.len()
    };
    if case.personal_settings {
        let dir = project.join(".claude");
        fs::create_dir_all(&dir)?;
        fs::write(
            dir.join("settings.local.json"),
            serde_json::to_string_pretty(&json_config(case.event, hooks, commands))?,
        )?;
        return Ok(());
    }
    fs::create_dir_all(user_dir)?;
    fs::write(
        user_dir.join("settings.json"),
        serde_json::to_string_pretty(&json_config(
            case.event,
            &hooks[..split],
            &commands[..split],
        ))?,
    )?;
    if split < hooks.len() {
        let dir = project.join(".claude");
        fs::create_dir_all(&dir)?;
        fs::write(
            dir.join("settings.json"),
            serde_json::to_string_pretty(&json_config(
                case.event,
                &hooks[split..],
                &commands[split..],
            ))?,
        )?;
    }
    Ok(())
}

/// Relay mode: the case's hooks in the relay's user file of a home of their own (trusted
/// for lime, which trusts nothing unreviewed); returns that home.
pub(super) fn write_relay_files(
    env: &Env,
    case: &Case,
    side: &Side,
    hooks: &[Hook],
    commands: &[String],
) -> Result<PathBuf> {
    let relay_home = side.dir.join("relay-home");
    let files = relay_home.join("hook-relay");
    fs::create_dir_all(&files)?;
    match env.agent {
        Agent::Codex => {
            fs::write(
                files.join("config.toml"),
                toml_config(case.event, hooks, commands),
            )?;
            let trust = Command::new(&env.hook)
                .args(["trust", "--dialect", "lime", "--relay", "--all", "--home"])
                .arg(&relay_home)
                .arg("--project")
                .arg(side.dir.join("project"))
                .output()?;
            if !trust.status.success() {
                bail!(
                    "hook trust --relay: {}",
                    String::from_utf8_lossy(&trust.stderr).trim()
                );
            }
        }
        Agent::Claude => fs::write(
            files.join("settings.json"),
            serde_json::to_string_pretty(&json_config(case.event, hooks, commands))?,
        )?,
    }
    Ok(relay_home)
}

/// The agent's one hook in relay mode: `hook relay` for every tool, with room for the relay's
/// own hooks' timeouts.
pub(super) fn relay_entry(
    env: &Env,
    case: &Case,
    side: &Side,
    relay_home: &Path,
) -> (Hook, String) {
    // As `hook relay install` writes it (`--event`), timed: when the relay started and when it
    // ended, in nanoseconds, a line per call (how long the agent waited for it).
    let command = format!(
        "s=$(date +%s%N); {} relay --dialect {} --event {} --home {}; rc=$?; echo \"$s $(date +%s%N)\" >> {}; exit $rc",
        quote(&env.hook),
        env.agent.dialect(),
        case.event,
        quote(relay_home),
        quote(&side.dir.join("relay-times"))
    );
    // As install writes it for Claude Code: `onFailure: "block"` where the event can block
    // (Claude Code ignores it on the four events where a block keeps the agent working).
    let blocks = hook_protocol::Event::from_name(case.event)
        .block_effect(hook_protocol::Dialect::Verboo)
        .can_block()
        && !matches!(
            case.event,
            "Stop" | "SubagentStop" | "TaskCompleted" | "TeammateIdle"
        );
    let hook = Hook {
        matcher: None,
        timeout: 120,
        on_failure: (env.agent == Agent::Claude && blocks).then_some("block"),
        ..cases::hook()
    };
    (hook, command)
}
