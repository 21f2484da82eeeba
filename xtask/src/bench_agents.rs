//! `cargo xtask bench agents`: what hooks cost inside the real agents, per tool call.
//!
//! The real Claude Code and Codex (installed as the conformance suite installs them) run a
//! scripted session against the fake model server: `--calls K` Bash calls (`true`), then a
//! text answer. Each agent runs it with no hooks, with N `exit 0` PreToolUse hooks (matcher
//! `Bash`) in its own settings ("direct"), and with the same N hooks in the relay's file behind
//! the entries `hook relay install` writes ("relay"), for each N of `--hooks` (default 1,5).
//! Configurations alternate, `--runs R` times each (default 5); the medians are compared:
//! the cost per tool call of a configuration is (its session − the session without hooks) ÷ K.
//! `--baseline PATH` adds the relayed configuration installed by another build (an earlier
//! commit's `hook`), alternating with the others, so a change to the relay is compared in one run.
//! Load averages are printed before and after, since a busy machine moves every figure.
//!
//! Before timing, one counting session per agent wraps every relay entry so that each start of
//! the relay is counted: the starts per event show what the agent really calls.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::conformance::agents::{claude_command, codex_config, install};
use crate::conformance::server::{FakeServer, Script, Wire};

/// The marker `hook relay install` ends its commands with.
const RELAY_MARKER: &str = "# hook-relay-install";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Agent {
    Claude,
    Codex,
}

impl Agent {
    fn title(self) -> &'static str {
        match self {
            Agent::Claude => "Claude Code",
            Agent::Codex => "Codex CLI",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Setup {
    NoHooks,
    Direct(usize),
    Relay(usize),
    /// Relayed by the `--baseline` build (an earlier commit's), in the same run.
    Baseline(usize),
}

impl Setup {
    fn name(self) -> String {
        match self {
            Setup::NoHooks => "no hooks".to_owned(),
            Setup::Direct(n) => format!("{n} direct"),
            Setup::Relay(n) => format!("{n} relayed"),
            Setup::Baseline(n) => format!("{n} baseline"),
        }
    }
}

struct Options {
    calls: usize,
    runs: usize,
    hooks: Vec<usize>,
    baseline: Option<std::path::PathBuf>,
}

fn options(args: &[&str]) -> Result<Options> {
    let mut options = Options {
        calls: 20,
        runs: 5,
        hooks: vec![1, 5],
        baseline: None,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .with_context(|| format!("{flag} needs a value"))?;
        match *flag {
            "--calls" => options.calls = value.parse()?,
            "--runs" => options.runs = value.parse()?,
            "--baseline" => options.baseline = Some(value.into()),
            "--hooks" => {
                options.hooks = value.split(',').map(str::parse).collect::<Result<_, _>>()?;
            }
            other => {
                bail!("unknown option {other}: --calls K, --runs R, --hooks 1,5, --baseline PATH")
            }
        }
    }
    Ok(options)
}

pub(crate) fn agents(root: &Path, args: &[&str]) -> Result<()> {
    let options = options(args)?;
    let versions = crate::conformance::agents::Versions::newest()?;
    let npm = versions.npm_dir(&root.join("target/conformance"));
    install(&npm, &versions)?;
    let hook = crate::bench::release_hook(root)?;
    let bin = npm.join("node_modules/.bin");
    println!(
        "{} Bash calls a session, {} runs a configuration, load average {}",
        options.calls,
        options.runs,
        load_average()
    );
    for agent in [Agent::Claude, Agent::Codex] {
        let work = tempfile::tempdir()?;
        let mut bench = Bench {
            agent,
            matcher: "Bash",
            hook: &hook,
            baseline: options.baseline.as_deref(),
            bin: &bin,
            work: work.path(),
            calls: options.calls,
        };
        for matcher in ["Read", "Bash"] {
            bench.matcher = matcher;
            let counts = bench.count_relay_starts(options.hooks[0])?;
            println!(
                "{}: one session through the relay ({} PreToolUse hook, matcher {matcher}): the relay started {} times ({})",
                agent.title(),
                options.hooks[0],
                counts.iter().map(|(_, n)| n).sum::<usize>(),
                counts
                    .iter()
                    .map(|(event, n)| format!("{event} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let mut setups = vec![Setup::NoHooks];
        for &n in &options.hooks {
            setups.extend([Setup::Direct(n), Setup::Relay(n)]);
            if options.baseline.is_some() {
                setups.push(Setup::Baseline(n));
            }
        }
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); setups.len()];
        for _ in 0..options.runs {
            for (index, setup) in setups.iter().enumerate() {
                times[index].push(bench.session(*setup, None)?);
            }
        }
        let medians: Vec<Duration> = times.iter().map(|t| median(t.clone())).collect();
        let base = medians[0];
        let per_call =
            |d: Duration| (d.as_secs_f64() - base.as_secs_f64()) * 1000.0 / options.calls as f64;
        for (index, setup) in setups.iter().enumerate() {
            let spread = spread(&times[index]);
            println!(
                "{}: {:<11} session {:>7.0} ms (spread {:.0} ms), {:>6.1} ms per tool call over no hooks",
                agent.title(),
                setup.name(),
                medians[index].as_secs_f64() * 1000.0,
                spread * 1000.0,
                per_call(medians[index]),
            );
        }
        for &n in &options.hooks {
            let direct = setups.iter().position(|s| *s == Setup::Direct(n));
            for (relayed, name) in [(Setup::Relay(n), "relay"), (Setup::Baseline(n), "baseline")] {
                let relay = setups.iter().position(|s| *s == relayed);
                if let (Some(direct), Some(relay)) = (direct, relay) {
                    let (d, r) = (per_call(medians[direct]), per_call(medians[relay]));
                    // Session time with hooks, per tool call: what the user waits for.
                    let session_ratio =
                        medians[relay].as_secs_f64() / medians[direct].as_secs_f64();
                    println!(
                        "{}: {n} hook(s): {name} {r:.1} ms vs direct {d:.1} ms per tool call; session {name} ÷ direct {session_ratio:.3}",
                        agent.title()
                    );
                }
            }
        }
    }
    println!("load average after: {}", load_average());
    Ok(())
}

struct Bench<'a> {
    agent: Agent,
    /// The matcher of the hooks' group (`Bash`; `Read` for the count of a hook that must not
    /// start the relay on a Bash call).
    matcher: &'a str,
    hook: &'a Path,
    /// The `--baseline` build, which installs the relay of [`Setup::Baseline`].
    baseline: Option<&'a Path>,
    bin: &'a Path,
    work: &'a Path,
    calls: usize,
}

impl Bench<'_> {
    /// One session of the setup in a fresh home: its wall time. With `count`, every relay
    /// entry appends its event's name to that file first.
    fn session(&self, setup: Setup, count: Option<&Path>) -> Result<Duration> {
        let dir = tempfile::tempdir_in(self.work)?;
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        fs::create_dir_all(&project)?;
        let server = FakeServer::start(
            match self.agent {
                Agent::Claude => Wire::Messages,
                Agent::Codex => Wire::Responses,
            },
            Script {
                command: "true".to_owned(),
                calls: self.calls,
                delay: Duration::ZERO,
                escalate: false,
                patch: false,
                later_command: None,
            },
        )?;
        let hooks = |n: usize| -> Vec<String> {
            // Distinct commands: both agents run identical handlers once.
            (0..n).map(|i| format!("exit 0 # hook {i}")).collect()
        };
        let mut command = match self.agent {
            Agent::Claude => {
                let claude = home.join(".claude");
                fs::create_dir_all(&claude)?;
                let settings = |commands: Vec<String>| {
                    let handlers: Vec<Value> = commands
                        .into_iter()
                        .map(|c| json!({"type": "command", "command": c}))
                        .collect();
                    json!({"hooks": {"PreToolUse": [{"matcher": self.matcher, "hooks": handlers}]}})
                        .to_string()
                };
                match setup {
                    Setup::NoHooks => {}
                    Setup::Direct(n) => {
                        fs::write(claude.join("settings.json"), settings(hooks(n)))?
                    }
                    Setup::Relay(n) | Setup::Baseline(n) => {
                        fs::create_dir_all(claude.join("hook-relay"))?;
                        fs::write(claude.join("hook-relay/settings.json"), settings(hooks(n)))?;
                        self.hook_command(
                            setup,
                            &home,
                            &["relay", "install", "--dialect", "verboo"],
                        )?;
                    }
                }
                let mut command = claude_command(self.bin, server.port);
                command.args(["--dangerously-skip-permissions", "Run the commands."]);
                command
            }
            Agent::Codex => {
                let codex = home.join(".codex");
                fs::create_dir_all(&codex)?;
                let toml = |commands: Vec<String>| {
                    let mut text = format!(
                        "\n[[hooks.PreToolUse]]\nmatcher = {}\n",
                        Value::from(self.matcher)
                    );
                    for c in commands {
                        text.push_str(&format!(
                            "[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
                            Value::from(c)
                        ));
                    }
                    text
                };
                let base = codex_config(server.port, "never", "danger-full-access", "");
                match setup {
                    Setup::NoHooks => fs::write(codex.join("config.toml"), &base)?,
                    Setup::Direct(n) => {
                        fs::write(
                            codex.join("config.toml"),
                            format!("{base}{}", toml(hooks(n))),
                        )?;
                    }
                    Setup::Relay(n) | Setup::Baseline(n) => {
                        fs::write(codex.join("config.toml"), &base)?;
                        fs::create_dir_all(codex.join("hook-relay"))?;
                        fs::write(codex.join("hook-relay/config.toml"), toml(hooks(n)))?;
                        self.hook_command(
                            setup,
                            &home,
                            &["trust", "--dialect", "lime", "--relay", "--all"],
                        )?;
                        self.hook_command(
                            setup,
                            &home,
                            &["relay", "install", "--dialect", "lime"],
                        )?;
                    }
                }
                let mut command = Command::new(self.bin.join("codex"));
                command
                    .args([
                        "exec",
                        "--skip-git-repo-check",
                        "--dangerously-bypass-hook-trust",
                    ])
                    .arg("--dangerously-bypass-approvals-and-sandbox")
                    .arg("-C")
                    .arg(&project)
                    .arg("Run the commands.")
                    .env("CODEX_HOME", &codex)
                    .env("OPENAI_API_KEY", "sk-fake");
                command
            }
        };
        if let Some(count) = count {
            count_relay_entries(self.agent, &home, count)?;
        }
        command
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("CLAUDECODE")
            .env_remove("CLAUDE_CONFIG_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let started = Instant::now();
        let status = command
            .status()
            .with_context(|| format!("starting {}", self.agent.title()))?;
        let elapsed = started.elapsed();
        let tool_calls = server.requests().iter().filter(|r| r.main).count();
        if !status.success() || tool_calls < self.calls {
            bail!(
                "{} {}: {status}, {tool_calls} model turns for {} calls",
                self.agent.title(),
                setup.name(),
                self.calls
            );
        }
        Ok(elapsed)
    }

    /// `hook ARGS` with this session's home (the `--baseline` build for its setup).
    fn hook_command(&self, setup: Setup, home: &Path, args: &[&str]) -> Result<()> {
        let program = match (setup, self.baseline) {
            (Setup::Baseline(_), Some(baseline)) => baseline,
            _ => self.hook,
        };
        let out = Command::new(program)
            .args(args)
            .env("HOME", home)
            .env("CODEX_HOME", home.join(".codex"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .output()?;
        crate::bench::succeeded(&out, args)
    }

    /// One relayed session with every relay start counted: (event, starts), by event.
    fn count_relay_starts(&self, hooks: usize) -> Result<Vec<(String, usize)>> {
        let count = self.work.join("relay-starts");
        let _ = fs::remove_file(&count);
        self.session(Setup::Relay(hooks), Some(&count))?;
        let text = fs::read_to_string(&count).unwrap_or_default();
        let mut counts = std::collections::BTreeMap::<String, usize>::new();
        for event in text.lines() {
            *counts.entry(event.to_owned()).or_default() += 1;
        }
        Ok(counts.into_iter().collect())
    }
}

/// Prefixes each relay entry of the agent's settings with a line that appends its event to
/// `count`.
fn count_relay_entries(agent: Agent, home: &Path, count: &Path) -> Result<()> {
    let prefix = |event: &str| format!("echo {event} >> {}; ", count.display());
    let mut counted = 0;
    match agent {
        Agent::Claude => {
            let file = home.join(".claude/settings.json");
            let mut settings: Value = serde_json::from_str(&fs::read_to_string(&file)?)?;
            if let Some(events) = settings["hooks"].as_object_mut() {
                for (event, groups) in events.iter_mut() {
                    for group in groups.as_array_mut().into_iter().flatten() {
                        for handler in group["hooks"].as_array_mut().into_iter().flatten() {
                            let Some(command) = handler["command"].as_str() else {
                                continue;
                            };
                            if command.contains(RELAY_MARKER) {
                                handler["command"] = format!("{}{command}", prefix(event)).into();
                                counted += 1;
                            }
                        }
                    }
                }
            }
            fs::write(&file, settings.to_string())?;
        }
        Agent::Codex => {
            // Each key of the tables install writes is on a line of its own.
            let file = home.join(".codex/config.toml");
            let text = fs::read_to_string(&file)?;
            let lines: Vec<String> = text
                .lines()
                .map(|line| match line.split_once("command = \"") {
                    Some((key, rest)) if line.contains(RELAY_MARKER) => {
                        let event = line
                            .split("--event ")
                            .nth(1)
                            .and_then(|rest| rest.split_whitespace().next())
                            .unwrap_or("?");
                        counted += 1;
                        format!("{key}command = \"{}{rest}", prefix(event))
                    }
                    _ => line.to_owned(),
                })
                .collect();
            fs::write(&file, lines.join("\n"))?;
        }
    }
    if counted == 0 {
        bail!("no relay entry found in the agent's settings");
    }
    Ok(())
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// The spread of `samples` (max − min), in seconds.
fn spread(samples: &[Duration]) -> f64 {
    let max = samples.iter().max().copied().unwrap_or_default();
    let min = samples.iter().min().copied().unwrap_or_default();
    (max - min).as_secs_f64()
}

fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}
