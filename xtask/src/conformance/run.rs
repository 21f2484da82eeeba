//! Running the cases: each on both sides, in parallel (`run_parallel`), the engine's side
//! through `hook run` (`run_engine`), compared into a `Row`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::agents::run_agent;
use super::cases;
use super::cases::{Case, Hook, Permissions, Trigger};
use super::predict::{Next, Seen, codex_statuses, predict};
use super::rules::deliberate;
use super::server::{FakeServer, Script, Wire};
use super::setup::{Side, hooks_of, scripts, side, toml_config, write_claude_settings};
use super::{Agent, Env};

/// One compared case.
pub(super) struct Row {
    pub(super) name: &'static str,
    pub(super) event: &'static str,
    pub(super) agent: String,
    pub(super) engine: String,
    pub(super) agree: bool,
    pub(super) deliberate: Option<&'static str>,
    /// Every captured payload (any event).
    pub(super) captures: Vec<PathBuf>,
}

pub(super) fn run_parallel(env: &Env, cases: &[Case]) -> Vec<Row> {
    let next = Mutex::new(0usize);
    let rows: Mutex<Vec<(usize, Row)>> = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let Ok(mut next) = next.lock() else { return };
                        let index = *next;
                        *next += 1;
                        index
                    };
                    let Some(case) = cases.get(index) else { return };
                    let row = run_case(env, case).unwrap_or_else(|error| Row {
                        name: case.name,
                        event: case.event,
                        agent: format!("harness error: {error:#}"),
                        engine: String::new(),
                        agree: false,
                        deliberate: None,
                        captures: Vec::new(),
                    });
                    if let Ok(mut rows) = rows.lock() {
                        rows.push((index, row));
                    }
                }
            });
        }
    });
    let mut rows = rows.into_inner().unwrap_or_default();
    rows.sort_by_key(|(index, _)| *index);
    rows.into_iter().map(|(_, row)| row).collect()
}

pub(super) fn run_case(env: &Env, case: &Case) -> Result<Row> {
    let case_dir = env.work.join(case.name);
    let hooks = hooks_of(case);
    let agent_side = side(&case_dir, "agent")?;
    let commands = scripts(&agent_side, &hooks)?;
    let server = FakeServer::start(
        match env.agent {
            Agent::Codex => Wire::Responses,
            Agent::Claude => Wire::Messages,
        },
        Script {
            command: if case.trigger == Trigger::SkillCommand {
                // The skill's own command writes the marker; the model's call must not.
                "true".to_owned()
            } else if case.patch {
                format!(
                    "*** Begin Patch\n*** Add File: {}\n+patched\n*** End Patch\n",
                    agent_side.marker.display()
                )
            } else {
                case.command
                    .replace("{MARKER}", &agent_side.marker.display().to_string())
            },
            patch: case.patch,
            calls: 1,
            delay: Duration::from_secs(case.answer_delay),
            escalate: case.permissions == Permissions::Prompt,
            later_command: case
                .later_command
                .map(|c| c.replace("{MARKER2}", &agent_side.marker2.display().to_string())),
        },
    )?;
    let output = run_agent(env, case, &agent_side, &hooks, &commands, server.port, 0)?;
    fs::write(agent_side.dir.join("agent.log"), &output)?;
    let second_turn = case.second_turn;
    if second_turn {
        server.next_turn();
        let output = run_agent(env, case, &agent_side, &hooks, &commands, server.port, 1)?;
        fs::write(agent_side.dir.join("agent-turn2.log"), &output)?;
    }
    let requests = server.requests();
    fs::write(
        agent_side.dir.join("requests.json"),
        serde_json::to_string_pretty(
            &requests
                .iter()
                .map(|r| json!({"path": r.path, "main": r.main, "turn": r.turn, "body": r.body}))
                .collect::<Vec<_>>(),
        )?,
    )?;
    let main: Vec<_> = requests.iter().filter(|r| r.main && r.turn == 0).collect();
    let all_bodies: String = requests
        .iter()
        .filter(|r| r.turn == 0)
        .map(|r| r.body.as_str())
        .collect();
    let next = second_turn.then(|| {
        let bodies: String = requests
            .iter()
            .filter(|r| r.turn == 1)
            .map(|r| r.body.as_str())
            .collect();
        Next {
            calls: requests.iter().filter(|r| r.main && r.turn == 1).count(),
            reason: bodies.contains("REASON_TOKEN"),
            context: bodies.contains("CONTEXT_TOKEN"),
            env: fs::read_to_string(&agent_side.marker2).is_ok_and(|t| t.contains("ENVTOKEN")),
        }
    });
    let switched = requests.iter().any(|r| {
        r.main
            && r.body
                .contains(&format!("\"model\":\"{}\"", cases::SWITCH_TO))
    });
    let refused = fs::read_to_string(agent_side.dir.join("debug.log"))
        .is_ok_and(|log| log.contains("Hook JSON output validation failed"));
    let agent_seen = Seen {
        ran: if case.trigger == Trigger::SetModel {
            if switched { "switched" } else { "kept" }
        } else if case.trigger == Trigger::AddDirectory {
            if refused { "refused" } else { "accepted" }
        } else if agent_side.rewritten.exists() {
            "rewritten"
        } else if agent_side.dir.join("rewritten-first").exists() {
            "rewritten-first"
        } else if agent_side.marker.exists() {
            "original"
        } else {
            "none"
        },
        reason: all_bodies.contains("REASON_TOKEN"),
        second: all_bodies.contains("SECOND_TOKEN"),
        context: all_bodies.contains("CONTEXT_TOKEN"),
        turns: match main.len() {
            0 => "no model call",
            1 => "stopped",
            2 => "normal",
            _ => "continued",
        },
        hooks: ran_hooks(&agent_side.captures, hooks.len(), case.probe),
        statuses: if env.agent == Agent::Codex && case.event != "Stop" && !env.relay {
            codex_statuses(&output, case.event)
        } else {
            String::new()
        },
        env: saw_env(&agent_side),
        text: env.agent == Agent::Codex
            && case
                .codex_text
                .is_some_and(|text| all_bodies.contains(text)),
        late: background_finished(case, &agent_side),
        next,
    };
    let mut captures: Vec<PathBuf> = fs::read_dir(&agent_side.captures)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    captures.sort();
    let payload = (0..hooks.len())
        .map(|i| agent_side.captures.join(format!("{i}.0.json")))
        .find(|p| p.exists());
    let (engine_text, agree) = match &payload {
        None => {
            let agree = agent_seen.hooks.is_empty();
            (
                format!(
                    "no payload captured (agent ran no hook); {}",
                    agent_seen.show()
                ),
                agree,
            )
        }
        Some(payload) => {
            let engine = run_engine(env, case, &case_dir, &hooks, payload)?;
            match engine {
                Err(error) => (format!("engine error: {error}"), false),
                Ok(EngineRun {
                    outcome,
                    hooks,
                    late,
                }) => {
                    let mut predicted = predict(env.agent, case, &outcome, hooks, late);
                    if !second_turn {
                        predicted.next = None;
                    }
                    if env.relay {
                        // Codex reports one hook (the relay) whatever the relay's hooks did.
                        predicted.statuses = String::new();
                    }
                    match case.trigger {
                        // A blocked switch keeps the model; `ask` in a headless session
                        // refuses too.
                        Trigger::SetModel => {
                            let decision = outcome["decision"].as_str().unwrap_or("");
                            let kept = case.event == "PreModelSwitch"
                                && matches!(decision, "block" | "ask");
                            predicted.ran = if kept { "kept" } else { "switched" };
                        }
                        // An output the event refuses fails the run.
                        Trigger::AddDirectory => {
                            let failed = outcome["runs"].as_array().is_some_and(|runs| {
                                runs.iter().any(|r| {
                                    r["status"] == "failed"
                                        && r["error"]
                                            .as_str()
                                            .is_some_and(|e| e.contains("hookSpecificOutput"))
                                })
                            });
                            predicted.ran = if failed { "refused" } else { "accepted" };
                        }
                        Trigger::ToolCall | Trigger::SkillCommand => {}
                    }
                    if env.relay && case.relay_killed {
                        // The relay never answers: its entry's `onFailure: "block"` makes the
                        // agent block the call, with its own words.
                        predicted.ran = "none";
                        predicted.reason = false;
                        predicted.context = false;
                    }
                    let statuses: Vec<String> = outcome["runs"]
                        .as_array()
                        .map(|runs| {
                            runs.iter()
                                .map(|r| {
                                    let status = r["status"].as_str().unwrap_or("?");
                                    match r["skip_reason"].as_str() {
                                        Some(why) => format!("{status}:{why}"),
                                        None => status.to_owned(),
                                    }
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let summary = format!(
                        "{} [decision {}, stop {}, runs {}]",
                        predicted.show(),
                        outcome["decision"].as_str().unwrap_or("none"),
                        outcome["stop"],
                        statuses.join(",")
                    );
                    (summary, predicted == agent_seen)
                }
            }
        }
    };
    let mut agent_text = agent_seen.show();
    let mut agree = agree;
    if env.relay && case.hooks.iter().any(|h| h.background) {
        // The relay must answer without waiting for the async hook, which still finishes.
        match relay_timing(&agent_side) {
            Some((answered_ms, finished_ms)) => {
                let _ = write!(
                    agent_text,
                    "; relay answered in {answered_ms} ms, the async hook finished {}",
                    finished_ms.map_or("never".to_owned(), |ms| format!(
                        "{ms} ms after the relay started"
                    ))
                );
                agree &= answered_ms < 1000 && finished_ms.is_some();
            }
            None => {
                agent_text.push_str("; the relay was never called");
                agree = false;
            }
        }
    }
    Ok(Row {
        name: case.name,
        event: case.event,
        agent: agent_text,
        engine: engine_text,
        agree,
        deliberate: deliberate(env.agent, case.name),
        captures,
    })
}

/// How long the agent's first relay call took (ms), and when the async hook finished (ms after
/// that call started; it writes the time to the side's flag), from the timed relay entry.
pub(super) fn relay_timing(side: &Side) -> Option<(u64, Option<u64>)> {
    let times = fs::read_to_string(side.dir.join("relay-times")).ok()?;
    let mut first = times.lines().next()?.split_whitespace();
    let started: u64 = first.next()?.parse().ok()?;
    let ended: u64 = first.next()?.parse().ok()?;
    let finished = fs::read_to_string(&side.flag)
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map(|at| at.saturating_sub(started) / 1_000_000);
    Some((ended.saturating_sub(started) / 1_000_000, finished))
}

/// The marker holds what the tool command saw in `$CONF_ENV` (`env-file`).
pub(super) fn saw_env(side: &Side) -> bool {
    fs::read_to_string(&side.marker).is_ok_and(|text| text.contains("ENVTOKEN"))
}

/// For a case with async hooks: whether the flag they write appears within a few seconds (they
/// sleep one second first, so it cannot be there when the agent or `hook run` returns at once).
pub(super) fn background_finished(case: &Case, side: &Side) -> bool {
    if !case.hooks.iter().any(|h| h.background) {
        return false;
    }
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(5) {
        if side.flag.exists() {
            return true;
        }
        thread::sleep(Duration::from_millis(100));
    }
    false
}

pub(super) fn ran_hooks(captures: &Path, count: usize, probe: bool) -> Vec<usize> {
    let under_test = if probe { count - 1 } else { count };
    (0..under_test)
        .filter(|i| captures.join(format!("{i}.0.json")).exists())
        .collect()
}

/// What one `hook run` gave.
pub(super) struct EngineRun {
    pub(super) outcome: Value,
    /// The hooks whose process started (see `predict`).
    pub(super) hooks: Vec<usize>,
    /// The async hooks' flag appeared after `hook run` returned.
    pub(super) late: bool,
}

/// Runs `hook run` with the same hooks on the captured payload: the outcome and the hooks that ran.
pub(super) fn run_engine(
    env: &Env,
    case: &Case,
    case_dir: &Path,
    hooks: &[Hook],
    payload: &Path,
) -> Result<std::result::Result<EngineRun, String>> {
    let engine = side(case_dir, "engine")?;
    let commands = scripts(&engine, hooks)?;
    let home = engine.dir.join("home");
    let project = engine.dir.join("project");
    let dialect = env.agent.dialect();
    // The engine asks for trust of lime's hooks and of a project's (the agents do not).
    let trust_all = match env.agent {
        Agent::Codex => {
            fs::write(
                home.join("config.toml"),
                toml_config(case.event, hooks, &commands),
            )?;
            true
        }
        Agent::Claude => {
            write_claude_settings(&home, &project, case, hooks, &commands)?;
            case.personal_settings
        }
    };
    if trust_all {
        let trust = Command::new(&env.hook)
            .args(["trust", "--dialect", dialect, "--all", "--home"])
            .arg(&home)
            .arg("--project")
            .arg(&project)
            .output()?;
        if !trust.status.success() {
            return Ok(Err(format!(
                "hook trust: {}",
                String::from_utf8_lossy(&trust.stderr).trim()
            )));
        }
    }
    let output = Command::new(&env.hook)
        .args(["run", "--dialect", dialect, "--event", case.event, "--home"])
        .arg(&home)
        .arg("--project")
        .arg(&project)
        .arg("--input")
        .arg(payload)
        .current_dir(&project)
        .env("HOME", &home)
        .output()?;
    fs::write(engine.dir.join("outcome.json"), &output.stdout)?;
    fs::write(engine.dir.join("stderr"), &output.stderr)?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .replace('|', "\\|");
        return Ok(Err(format!(
            "`hook run` exit {}: {first}",
            output.status.code().unwrap_or(-1)
        )));
    }
    let outcome: Value = serde_json::from_slice(&output.stdout).context("parsing the outcome")?;
    // Async hooks must still finish after `hook run` returned; checked before the captures are
    // listed, so a hook that was started late is seen too.
    let late = background_finished(case, &engine);
    Ok(Ok(EngineRun {
        outcome,
        hooks: ran_hooks(&engine.captures, hooks.len(), case.probe),
        late,
    }))
}
