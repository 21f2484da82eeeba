//! `hook replay` where it needs the binary: where the agents keep their sessions (read from
//! `HOME` and `CODEX_HOME`), a FIFO named `*.jsonl` that must not hang the process, and the
//! relay an agent really called, whose state a replay must leave byte for byte. The
//! replay itself, `--compare`, `--json` against the committed schema and bad lines are tested
//! in-process (`hook-cli/src/tests/replay.rs`, `hook-cli/src/ops/replay/tests/`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use hook_test_support::read::{blocked, json_lines, of_type, summary};
use hook_test_support::{Output, Runner as _, Scene, Spawn};
use serde_json::Value;

fn fixtures(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay")
        .join(agent)
}

fn fixture_file(agent: &str) -> PathBuf {
    let dir = fixtures(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.remove(0)
}

/// A guard that blocks any Bash command containing `needle` (exit 2, reason on stderr).
fn guard(dialect: &str, needle: &str) -> String {
    let command =
        format!("grep -q '{needle}' && {{ echo 'no {needle} here' >&2; exit 2; }} || exit 0");
    match dialect {
        "verboo" => serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string(),
        _ => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = {}\n",
            Value::from(command)
        ),
    }
}

/// The replays a test runs in its [`Scene`] (home and project).
trait Replays {
    /// `hook replay --dialect D --project P ARGS`, with `HOME` and `CODEX_HOME` in the scene.
    fn replay(&self, dialect: &str, args: &[&str]) -> Output;
    /// `--json` lines of a successful replay.
    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value>;
}

impl Replays for Scene {
    fn replay(&self, dialect: &str, args: &[&str]) -> Output {
        let project = self.project().display().to_string();
        let mut all = vec!["replay", "--dialect", dialect, "--project", &project];
        all.extend(args);
        Spawn::new(env!("CARGO_BIN_EXE_hook"))
            .in_scene(self)
            .env("CODEX_HOME", self.agent_home("lime"))
            .run(&all, b"")
    }

    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        json_lines(&self.replay(dialect, &all).success().stdout)
    }
}

#[test]
fn the_current_projects_sessions_are_found_where_the_agents_keep_them() {
    let setup = Scene::new();
    let project = setup.root().join("project").canonicalize().unwrap();
    // Claude Code: ~/.claude/projects/<the project's path, non-alphanumerics as `-`>/.
    let name: String = project
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let claude = setup.root().join("home/.claude/projects").join(name);
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::copy(fixture_file("claude"), claude.join("s.jsonl")).unwrap();
    std::fs::write(
        setup.root().join("home/.claude/settings.json"),
        guard("verboo", "rm -rf"),
    )
    .unwrap();
    let lines = setup.json("verboo", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
    assert_eq!(blocked(&lines).len(), 1);

    // Codex: the rollouts under $CODEX_HOME/sessions whose cwd is the project.
    let day = setup.root().join("home/.codex/sessions/2026/12/03");
    std::fs::create_dir_all(&day).unwrap();
    let rollout = std::fs::read_to_string(fixture_file("codex")).unwrap();
    std::fs::write(
        day.join("rollout-a.jsonl"),
        rollout.replace("/replay/project", &project.display().to_string()),
    )
    .unwrap();
    std::fs::write(day.join("rollout-b.jsonl"), &rollout).unwrap();
    let lines = setup.json("lime", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_dev_zero_link_named_jsonl_is_a_bad_file_not_a_hang() {
    let setup = Scene::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
    let folder = setup.root().join("sessions");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fixture_file("claude"), folder.join("b-real.jsonl")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(folder.join("a-fifo.jsonl"))
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", folder.join("c-zero.jsonl")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["replay", "--dialect", "verboo", "--json", "--project"])
        .arg(setup.root().join("project"))
        .arg(&folder)
        .arg("--config")
        .arg(&config)
        .env("HOME", setup.root().join("home"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hook replay hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let unreadable: Vec<String> = of_type(&lines, "bad_line")
        .into_iter()
        .filter(|b| b["kind"] == "unreadable")
        .map(|b| b["detail"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(
        unreadable.iter().any(|d| d.contains("FIFO")),
        "{unreadable:?}"
    );
    assert!(
        unreadable.iter().any(|d| d.contains("character device")),
        "{unreadable:?}"
    );
    // The real session is still replayed.
    assert_eq!(
        blocked(&lines),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
}

/// Replay never touches the live relay: the relay's entries that `hook relay install` wrote
/// into the agent's settings are left out (named once), so the relay's state folder — its
/// journal, the agent's `PATH` recorded there, what it said in a session — stays byte for byte
/// as the agent left it; `--relay` replays the relay's hooks through the engine, which records
/// nothing either.
#[cfg(unix)]
mod live_relay {
    use std::collections::BTreeMap;
    use std::path::Path;
    use std::process::{Command, Output, Stdio};

    use serde_json::{Value, json};

    use super::{blocked, fixture_file, summary};
    use crate::cli::text;
    use crate::relay_install::{Home, read, relay_entries, write};

    /// The `PATH` the agent started its hooks with: no test runner's folders in it.
    const AGENT_PATH: &str = "/agent/only/bin:/usr/bin:/bin";

    /// A relay guard that refuses `rm -rf` (it reads the event).
    const GUARD: &str = "grep -q 'rm -rf' && { echo 'the relay says no' >&2; exit 2; } || exit 0";

    /// Every file under `dir` (relative path → bytes), and every folder (→ empty).
    fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        let mut found = BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(folder) = stack.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                if path.is_dir() {
                    stack.push(path);
                    found.insert(format!("{name}/"), Vec::new());
                } else {
                    found.insert(name, std::fs::read(&path).unwrap());
                }
            }
        }
        found
    }

    /// Runs `command` as the agents do: a shell, the event on stdin, the agent's `PATH`,
    /// `env` set (Claude Code's `CLAUDE_PROJECT_DIR`) and nothing of the test runner's agent
    /// variables.
    fn run_as_agent(home: &Home, command: &str, event: &Value, env: &[(&str, &Path)]) -> Output {
        use std::io::Write;
        let mut child = Command::new("sh");
        child
            .args(["-c", command])
            .env("HOME", &home.root)
            .env("PATH", AGENT_PATH)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("LIME_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_ENV_FILE")
            .env_remove("HOOK_JOURNAL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, value) in env {
            child.env(name, value);
        }
        let mut child = child.spawn().unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(event.to_string().as_bytes());
        drop(pipe);
        child.wait_with_output().unwrap()
    }

    /// The relay's journal of `state`, checked to hold the record of the agent's call: the
    /// `PATH` doctor checks hooks against is the agent's.
    fn journal_records_the_agent(state: &Path) {
        let journal = read(&state.join("hook-journal/journal.jsonl"));
        let records: Vec<Value> = journal
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(records.len(), 1, "{journal}");
        assert_eq!(records[0]["path"], AGENT_PATH, "{journal}");
        assert_eq!(records[0]["decision"], "block", "{journal}");
    }

    /// `hook replay ARGS --project P` (with `--json` when asked) from the test's own shell:
    /// another `PATH` than the agent's, the journal on.
    fn replay(home: &Home, project: &Path, args: &[&str], json: bool) -> Output {
        let mut all = vec!["replay", "--project", project.to_str().unwrap()];
        all.extend(args);
        if json {
            all.push("--json");
        }
        let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
        command
            .args(&all)
            .stdin(Stdio::null())
            .env("HOME", &home.root)
            .env("CODEX_HOME", home.codex())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("LIME_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_ENV_FILE")
            .env_remove("HOOK_JOURNAL");
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "hook {all:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        out
    }

    /// `--json` lines of [`replay`].
    fn lines(out: &Output) -> Vec<Value> {
        text(&out.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// The keys of the summary's `not_replayed` entries, each checked to be a relay entry whose
    /// flag to use instead is `--relay`.
    fn not_replayed(lines: &[Value]) -> Vec<String> {
        let entries = summary(lines)["not_replayed"].as_array().unwrap().clone();
        entries
            .iter()
            .map(|entry| {
                assert_eq!(entry["reason"], "relay_entry", "{entry}");
                assert_eq!(entry["instead"], "--relay", "{entry}");
                assert!(
                    entry["command"]
                        .as_str()
                        .unwrap()
                        .contains(" relay --dialect "),
                    "{entry}"
                );
                entry["key"].as_str().unwrap().to_owned()
            })
            .collect()
    }

    /// One replay of a table: its arguments, the keys it must name as not replayed, whether
    /// the relay's guard blocks `rm -rf build` (it does when the relay's hooks are replayed).
    struct Case<'a> {
        args: Vec<String>,
        not_replayed: &'a [&'a str],
        guard_blocks: bool,
    }

    /// Replays each case over the agent's session and checks the relay's state folder `state`
    /// is byte for byte what the agent left.
    fn replay_leaves_the_relay_alone(home: &Home, project: &Path, state: &Path, cases: &[Case]) {
        let before = tree(state);
        for case in cases {
            let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
            let lines = lines(&replay(home, project, &args, true));
            assert!(
                tree(state) == before,
                "{args:?} changed the relay's state in {}",
                state.display()
            );
            assert_eq!(not_replayed(&lines), case.not_replayed, "{args:?}");
            let expected: Vec<(String, String)> = if case.guard_blocks {
                vec![(String::new(), "rm -rf build".to_owned())]
            } else {
                Vec::new()
            };
            let blocked: Vec<(String, String)> = blocked(&lines)
                .into_iter()
                .map(|(_, subject)| (String::new(), subject))
                .collect();
            assert_eq!(blocked, expected, "{args:?}");
            // No entry's run is in any event's hooks either: it is named once, above.
            for event in lines.iter().filter(|l| l["type"] == "event") {
                for run in event["result"]["hooks"].as_array().unwrap() {
                    let key = run["key"].as_str().unwrap();
                    assert!(!case.not_replayed.contains(&key), "{args:?}: {event}");
                }
            }
        }
    }

    #[test]
    fn replaying_claude_code_leaves_the_live_journal_and_the_agents_path_as_they_were() {
        let home = Home::new();
        let project = home.root.join("project");
        std::fs::create_dir_all(&project).unwrap();
        write(
            &home.claude().join("hook-relay/settings.json"),
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": GUARD}]}]}})
            .to_string(),
        );
        home.ok(&["relay", "install", "--agent", "claude"], &[]);
        let settings: Value =
            serde_json::from_str(&read(&home.claude().join("settings.json"))).unwrap();
        let entries = relay_entries(&settings);
        let command = &entries
            .iter()
            .find(|(event, ..)| event == "PreToolUse")
            .unwrap()
            .3;
        // Claude Code calls the relay once: blocked, journaled with the agent's PATH.
        let event = json!({"hook_event_name": "PreToolUse", "session_id": "s-agent",
            "transcript_path": "/t.jsonl", "cwd": project, "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "t1"});
        let out = run_as_agent(
            &home,
            command,
            &event,
            &[("CLAUDE_PROJECT_DIR", project.as_path())],
        );
        assert!(
            text(&out.stdout).contains("the relay says no"),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let state = home.claude().join("hook-relay");
        journal_records_the_agent(&state);
        // The session Claude Code keeps for the project.
        let name: String = project
            .display()
            .to_string()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let transcript = read(&fixture_file("claude"))
            .replace("/replay/project", &project.display().to_string());
        write(
            &home.claude().join("projects").join(name).join("s.jsonl"),
            &transcript,
        );
        let settings_file = home.claude().join("settings.json").display().to_string();
        let entry_keys = [
            "user:settings.json:SessionStart::0",
            "user:settings.json:PreToolUse:Bash:0",
        ];
        let owned = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect();
        replay_leaves_the_relay_alone(
            &home,
            &project,
            &state,
            &[
                Case {
                    args: owned(&["--agent", "claude"]),
                    not_replayed: &entry_keys,
                    guard_blocks: false,
                },
                // The agent's settings given as the file to replay through.
                Case {
                    args: owned(&["--dialect", "verboo", "--config", &settings_file]),
                    not_replayed: &entry_keys,
                    guard_blocks: false,
                },
                Case {
                    args: owned(&["--agent", "claude", "--relay"]),
                    not_replayed: &[],
                    guard_blocks: true,
                },
            ],
        );
        // The text report names the entries, once each, and the flag.
        let report = text(&replay(&home, &project, &["--agent", "claude"], false).stdout);
        assert!(
            report.contains("Not replayed: 2 relay entries of the agent's settings"),
            "{report}"
        );
        assert!(report.contains("replay with --relay"), "{report}");
        for key in entry_keys {
            assert_eq!(report.matches(key).count(), 1, "{report}");
        }
    }

    #[test]
    fn replaying_codex_leaves_the_live_journal_and_the_agents_path_as_they_were() {
        let home = Home::new();
        let project = home.root.join("project");
        std::fs::create_dir_all(&project).unwrap();
        let codex = home.codex();
        let codex_env = [("CODEX_HOME", codex.as_path())];
        write(
            &codex.join("hook-relay/config.toml"),
            &format!(
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n\
                 type = \"command\"\ncommand = {}\n",
                Value::from(GUARD)
            ),
        );
        home.ok(
            &["trust", "--dialect", "lime", "--relay", "--all"],
            &codex_env,
        );
        home.ok(
            &["relay", "install", "--agent", "codex", "--trust"],
            &codex_env,
        );
        let config: toml::Table = read(&codex.join("config.toml")).parse().unwrap();
        let command = config["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_owned();
        // Codex calls the relay once (its hooks get its environment and nothing more).
        let event = json!({"hook_event_name": "PreToolUse", "session_id": "s-agent",
            "turn_id": "t", "cwd": project, "transcript_path": null, "model": "gpt-5",
            "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
            "tool_input": {"command": "rm -rf /"}});
        let out = run_as_agent(&home, &command, &event, &codex_env);
        assert!(
            text(&out.stdout).contains("the relay says no"),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let state = codex.join("hook-relay");
        journal_records_the_agent(&state);
        // The rollout Codex keeps, its cwd the project.
        let rollout =
            read(&fixture_file("codex")).replace("/replay/project", &project.display().to_string());
        write(&codex.join("sessions/2026/12/03/rollout-a.jsonl"), &rollout);
        let codex_dir = codex.display().to_string();
        let config_file = codex.join("config.toml").display().to_string();
        let entry_keys = [
            "user:config.toml:SessionStart::0",
            "user:config.toml:PreToolUse:Bash:0",
        ];
        let owned = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect();
        replay_leaves_the_relay_alone(
            &home,
            &project,
            &state,
            &[
                // Codex's own config read as lime's, every hook run as if trusted: its entries
                // are still left out.
                Case {
                    args: owned(&[
                        "--dialect",
                        "lime",
                        "--home",
                        &codex_dir,
                        "--trust-all-for-replay",
                    ]),
                    not_replayed: &entry_keys,
                    guard_blocks: false,
                },
                Case {
                    args: owned(&[
                        "--dialect",
                        "lime",
                        "--config",
                        &config_file,
                        "--trust-all-for-replay",
                    ]),
                    not_replayed: &entry_keys,
                    guard_blocks: false,
                },
                // Codex's hooks are the relay's: replayed through the engine.
                Case {
                    args: owned(&["--agent", "codex"]),
                    not_replayed: &[],
                    guard_blocks: true,
                },
            ],
        );
    }
}
