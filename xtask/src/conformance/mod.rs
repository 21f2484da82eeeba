//! `cargo xtask conformance [--floor] codex|claude|all [CASE-PREFIX]`: run each case against the
//! real agent (the newest release of Codex CLI and Claude Code on the npm registry, or with
//! `--floor` the oldest still checked, [`Versions::floor`]; installed with npm under
//! `target/conformance/npm/<versions>`) and against the engine (`target/debug/hook run`, lime
//! for Codex, verboo for Claude Code), then compare what a user would notice and write
//! `CONFORMANCE.md` with the versions it ran. `cargo xtask conformance drift` ([`drift`])
//! compares the agents' embedded hook surfaces with the engine's tables.
//!
//! `relay` runs [`RELAY_CASES`] for both agents with `hook relay` as the agent's one hook (the
//! case's hooks in the relay's own user file, trusted for lime): the agent must then do what
//! the engine's outcome says (the same comparison, less Codex's per-hook statuses, since Codex
//! sees one hook). It prints the counts and writes nothing.
//!
//! Each case configures command hooks in the agent's own files (Codex: `$CODEX_HOME/config.toml`
//! run with `--dangerously-bypass-hook-trust`; Claude Code: `~/.claude/settings.json` under a
//! temporary `HOME`). A fake model server on 127.0.0.1 scripts one tool call (`touch MARKER`) and
//! then a text answer, and logs every request. Every hook saves its stdin, so the engine is fed
//! the exact payload the agent gave. The captured payloads are copied to
//! `tests/fixtures/conformance/{codex,claude}/` as regression data.
//!
//! Some cases need more than that setup:
//! - *Claude Code's SDK control requests* (`Trigger::SetModel`, `Trigger::AddDirectory`): with
//!   stream-json input the harness sends `set_model` or `register_repo_root` before the prompt,
//!   which fire `PreModelSwitch`/`PostModelSwitch` and `DirectoryAdded`; whether the switch
//!   happened is read from the model requests, whether a hook's output was refused from Claude
//!   Code's `--debug-file` log. *A skill's inline command* (`Trigger::SkillCommand`): a project
//!   command `.claude/commands/x.md` holding `` !`touch MARKER` ``, run as the prompt `/x`
//!   (`PreSkillShellCommand`).
//! - *PermissionRequest* (`Permissions::Prompt`). `codex exec` forces approval `never`: an
//!   escalated call is refused without asking and no PermissionRequest hook runs (config
//!   `approval_policy` is overridden). With `--approve-for-me` (approvals go to Codex's automatic
//!   reviewer) and a call that asks for `sandbox_permissions: "require_escalated"`, Codex 0.169
//!   asks the hooks first; a call they leave undecided goes to the reviewer, a model request the
//!   fake server answers with text, which declines. Claude Code 2.1 `-p` refuses a call that
//!   needs approval ("This command requires approval") without running PermissionRequest hooks;
//!   with `--permission-prompt-tool stdio` and stream-json input the hooks race a `can_use_tool`
//!   control request, which the harness (as the user) declines after `USER_DELAY`, so a hook's
//!   answer always comes first. The first hook to answer wins there (measured with an allow that
//!   answers at once and a deny a second later), and exit 2 is no answer.
//! - *Async hooks* (`async-runs`): both agents start them and go on at once, and both kill them
//!   when the process exits (a hook that needs a second never finishes in a run that ends at
//!   once); the case keeps the agent alive three more seconds (the fake model's last answer is
//!   late), and then both agents let the hook finish. The engine must finish them after `hook run`
//!   returned.
//! - *`CLAUDE_ENV_FILE`* (`env-file`): Claude Code 2.1 gives SessionStart (and Setup, CwdChanged,
//!   FileChanged) hooks a per-session file and sources what they wrote before each later Bash
//!   command; the case's command writes `$CONF_ENV` into the marker, and so does the second
//!   turn's.
//! - *Effects across turns* (`Case::second_turn`): the agent is run a second time on the same
//!   session (Codex `exec resume <session id>`, Claude Code `--continue`, each under the case's
//!   own home) with the prompt "Go on."; the fake server tells the turns apart and the case
//!   compares what the model received on the second turn (a blocked prompt's context, a Stop
//!   hook's continuation, a `PostToolUse` replacement in the history, `CLAUDE_ENV_FILE` on a
//!   later Bash call), in relay mode too.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

mod cases;
pub(crate) mod drift;
pub(crate) mod server;

use cases::{Case, Hook, Only, Permissions, Trigger};
use server::{FakeServer, Script, Wire};

/// The agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agent {
    Codex,
    Claude,
}

impl Agent {
    fn name(self) -> &'static str {
        match self {
            Self::Codex => "codex",
            Self::Claude => "claude",
        }
    }
    fn dialect(self) -> &'static str {
        match self {
            Self::Codex => "lime",
            Self::Claude => "verboo",
        }
    }
    fn title(self, versions: &Versions) -> String {
        match self {
            Self::Codex => format!("Codex CLI {} vs lime", versions.codex),
            Self::Claude => format!("Claude Code {} vs verboo", versions.claude),
        }
    }
}

/// The npm packages of the agents.
const CODEX_PACKAGE: &str = "@openai/codex";
const CLAUDE_PACKAGE: &str = "@anthropic-ai/claude-code";

/// The release of each agent a run is measured against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Versions {
    pub(crate) claude: String,
    pub(crate) codex: String,
}

impl Versions {
    /// The oldest releases the engine is still checked against (`--floor`): the ones every
    /// figure was measured on before Claude Code 2.1.332 and Codex 0.171.
    pub(crate) fn floor() -> Versions {
        Versions {
            claude: "2.1.197".to_owned(),
            codex: "0.169.1".to_owned(),
        }
    }

    /// The newest release of each on the npm registry (`npm view PACKAGE version`).
    pub(crate) fn newest() -> Result<Versions> {
        let view = |package: &str| -> Result<String> {
            let out = Command::new("npm")
                .args(["view", package, "version"])
                .output()
                .context("running npm view (is Node.js installed?)")?;
            let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            if !out.status.success() || version.is_empty() {
                bail!(
                    "npm view {package} version failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
            Ok(version)
        };
        Ok(Versions {
            claude: view(CLAUDE_PACKAGE)?,
            codex: view(CODEX_PACKAGE)?,
        })
    }

    /// `--floor` or the newest releases.
    pub(crate) fn chosen(floor: bool) -> Result<Versions> {
        if floor {
            Ok(Versions::floor())
        } else {
            Versions::newest()
        }
    }

    /// The npm prefix these releases are installed under (one per pair, kept between runs).
    pub(crate) fn npm_dir(&self, work: &Path) -> PathBuf {
        work.join("npm")
            .join(format!("claude-{}-codex-{}", self.claude, self.codex))
    }

    /// The packages, pinned: (npm spec, package folder, exact version).
    fn packages(&self) -> [(String, &'static str, &str); 2] {
        [
            (
                format!("{CODEX_PACKAGE}@{}", self.codex),
                CODEX_PACKAGE,
                self.codex.as_str(),
            ),
            (
                format!("{CLAUDE_PACKAGE}@{}", self.claude),
                CLAUDE_PACKAGE,
                self.claude.as_str(),
            ),
        ]
    }
}

/// Codex model metadata for the fake model with the freeform `apply_patch` tool (the fields
/// Codex 0.169 requires in `model_catalog_json`).
const PATCH_MODEL_CATALOG: &str = r#"{"models":[{"slug":"gpt-5.1-codex","display_name":"gpt-5.1-codex",
"description":"fake","apply_patch_tool_type":"freeform","shell_type":"shell_command",
"supports_reasoning_summaries":false,"support_verbosity":false,"default_verbosity":null,
"input_modalities":["text"],"truncation_policy":{"mode":"tokens","limit":10000},
"supports_parallel_tool_calls":false,"context_window":272000,"reasoning_summary_format":"none",
"default_reasoning_level":"medium","supported_reasoning_levels":[{"effort":"medium","description":"m"}],
"visibility":"list","minimal_client_version":"0.0.1","supported_in_api":true,"upgrade":null,
"priority":0,"base_instructions":"You are a fake model.","experimental_supported_tools":[]}]}"#;

/// How long one agent run may take before it is killed.
const AGENT_DEADLINE: Duration = Duration::from_secs(90);

/// Runs the suite; `which` is `codex`, `claude`, `all` or `relay`; `floor` runs it against
/// [`Versions::floor`] instead of the newest releases.
pub(crate) fn run(root: &Path, which: &str, filter: Option<&str>, floor: bool) -> Result<()> {
    let agents: Vec<Agent> = match which {
        "codex" => vec![Agent::Codex],
        "claude" => vec![Agent::Claude],
        "all" | "relay" => vec![Agent::Codex, Agent::Claude],
        other => bail!("unknown agent `{other}`: use codex, claude, all or relay"),
    };
    let relay = which == "relay";
    let work = root.join("target/conformance");
    let versions = Versions::chosen(floor)?;
    let npm = versions.npm_dir(&work);
    install(&npm, &versions)?;
    println!(
        "Claude Code {} and Codex CLI {}{}",
        versions.claude,
        versions.codex,
        if floor {
            " (the floor)"
        } else {
            " (the newest releases)"
        }
    );
    let status = crate::cargo_command(root)
        .args(["build", "--quiet", "-p", "hook-cli"])
        .status()
        .context("running cargo build -p hook-cli")?;
    if !status.success() {
        bail!("cargo build -p hook-cli failed");
    }
    let hook = root.join("target/debug/hook");
    let mut sections = Vec::new();
    for agent in agents {
        let cases: Vec<Case> = cases::all()
            .into_iter()
            .filter(|c| match c.only {
                Only::Both => true,
                Only::Claude => agent == Agent::Claude,
                Only::Codex => agent == Agent::Codex,
            })
            .filter(|c| filter.is_none_or(|f| c.name.starts_with(f)))
            .filter(|c| !relay || RELAY_CASES.contains(&c.name))
            .collect();
        // A case that measures what a release added is skipped on an older one (`--floor`).
        let (cases, too_new): (Vec<Case>, Vec<Case>) =
            cases
                .into_iter()
                .partition(|c| match (agent, c.since_claude) {
                    (Agent::Claude, Some(since)) => !older(&versions.claude, since),
                    _ => true,
                });
        if !too_new.is_empty() {
            println!(
                "{}: {} cases need a newer release, skipped: {}",
                agent.title(&versions),
                too_new.len(),
                too_new
                    .iter()
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let env = Env {
            agent,
            npm: npm.clone(),
            hook: hook.clone(),
            work: work
                .join(if relay { "relay-runs" } else { "runs" })
                .join(agent.name()),
            relay,
        };
        let _ignored = fs::remove_dir_all(&env.work);
        let rows = run_parallel(&env, &cases);
        let agreed = rows.iter().filter(|r| r.agree).count();
        let deliberate = rows
            .iter()
            .filter(|r| !r.agree && r.deliberate.is_some())
            .count();
        println!(
            "{}{}: {agreed}/{} cases agree, {deliberate} deliberate differences, {} disagreements",
            agent.title(&versions),
            if relay { " through hook relay" } else { "" },
            rows.len(),
            rows.len() - agreed - deliberate
        );
        if filter.is_some() {
            for row in rows.iter().filter(|r| r.agree || r.deliberate.is_some()) {
                let verdict = if row.agree { "agree" } else { "DELIBERATE" };
                println!(
                    "  {verdict} {}: agent {} | engine {}",
                    row.name, row.agent, row.engine
                );
            }
        }
        for row in rows.iter().filter(|r| !r.agree && r.deliberate.is_none()) {
            println!(
                "  DIFFER {}: agent {} | engine {}",
                row.name, row.agent, row.engine
            );
        }
        if relay {
            continue;
        }
        copy_fixtures(root, agent, &env.work, &rows)?;
        sections.push((agent, rows));
    }
    if relay {
        return Ok(());
    }
    if filter.is_none() {
        let (drift_text, _) = drift::compare_installed(&npm, &versions)?;
        let mut text = report(&sections, &versions);
        let _ = write!(
            text,
            "\n## Drift: the agents' hook surfaces vs the engine's tables\n\n\
             `cargo xtask conformance drift` (run with every agent release) reads the events and \
             output fields embedded in each installed binary and names each one the engine does \
             not know; its result with the releases above:\n\n```text\n{drift_text}```\n\n{MODEL_REQUEST_HOOKS}"
        );
        fs::write(root.join("CONFORMANCE.md"), text).context("writing CONFORMANCE.md")?;
        println!("wrote CONFORMANCE.md");
    }
    Ok(())
}

/// Whether release `version` is older than `than` (dotted numbers, compared numerically).
fn older(version: &str, than: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    parts(version) < parts(than)
}

/// Codex's `config.toml` for the fake model server on `port`, then `rest` (hooks and such).
pub(crate) fn codex_config(port: u16, approval: &str, sandbox: &str, rest: &str) -> String {
    format!(
        "model = \"gpt-5.1-codex\"\nmodel_provider = \"fake\"\napproval_policy = \"{approval}\"\n\
         sandbox_mode = \"{sandbox}\"\n\n[model_providers.fake]\nname = \"fake\"\n\
         base_url = \"http://127.0.0.1:{port}/v1\"\nwire_api = \"responses\"\n\
         request_max_retries = 0\nstream_max_retries = 0\n{rest}"
    )
}

/// `claude -p` (stream-json output) against the fake model server on `port`, with nothing
/// sent elsewhere; `bin` is the npm `.bin` folder.
pub(crate) fn claude_command(bin: &Path, port: u16) -> Command {
    let mut command = Command::new(bin.join("claude"));
    command
        .args(["-p", "--output-format", "stream-json", "--verbose"])
        .args(["--model", "claude-sonnet-4-5"])
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("ANTHROPIC_API_KEY", "sk-ant-fake")
        .env("IS_SANDBOX", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    command
}

/// Installs the agents of `versions` unless the cache already has them.
pub(crate) fn install(npm: &Path, versions: &Versions) -> Result<()> {
    let packages = versions.packages();
    let current = packages.iter().all(|(_, folder, version)| {
        let manifest = npm.join("node_modules").join(folder).join("package.json");
        fs::read_to_string(manifest)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|m| m["version"].as_str() == Some(*version))
    });
    if current {
        return Ok(());
    }
    fs::create_dir_all(npm)?;
    let specs: Vec<&str> = packages.iter().map(|p| p.0.as_str()).collect();
    println!(
        "installing {} with npm into {}",
        specs.join(" "),
        npm.display()
    );
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(npm)
        .args(&specs)
        .status()
        .context("running npm (is Node.js installed?)")?;
    if !status.success() {
        bail!("npm install failed: check the registry is reachable");
    }
    Ok(())
}

struct Env {
    agent: Agent,
    npm: PathBuf,
    hook: PathBuf,
    work: PathBuf,
    /// `relay`: the agent's one hook is `hook relay`, which runs the case's hooks from the
    /// relay's own files.
    relay: bool,
}

/// The cases `cargo xtask conformance relay` runs through `hook relay`: a block (JSON and exit
/// 2), a rewrite, context (tool, prompt, session start), a blocked prompt (with context, over
/// two turns), a stop that continues the agent, and a stopped turn.
const RELAY_CASES: &[&str] = &[
    "switch-deny",
    "switched-context",
    "dir-added-message",
    "skill-deny",
    "skill-exit2",
    "pre-on-failure-block",
    "relay-killed",
    "pre-deny-reason",
    "pre-deny-beside-async",
    "pre-deny-lone-surrogate",
    "pre-deny-personal-settings",
    "pre-exit2-stderr",
    "pre-rewrite-allow",
    "post-block",
    "prompt-plain-text",
    "prompt-block",
    "prompt-block-with-context",
    "prompt-continue-false",
    "start-plain-text",
    "stop-block-once",
    "stop-continue-false",
];

/// One compared case.
struct Row {
    name: &'static str,
    event: &'static str,
    agent: String,
    engine: String,
    agree: bool,
    deliberate: Option<&'static str>,
    /// Every captured payload (any event).
    captures: Vec<PathBuf>,
}

fn run_parallel(env: &Env, cases: &[Case]) -> Vec<Row> {
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

/// What a user notices, for the agent or predicted from the engine's outcome.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    /// `none`, `original`, `rewritten` or `rewritten-first`.
    ran: &'static str,
    /// The block/deny reason reached the model.
    reason: bool,
    /// The second hook's reason reached the model.
    second: bool,
    /// The additional context reached the model.
    context: bool,
    /// `no model call`, `stopped`, `normal` or `continued`.
    turns: &'static str,
    /// Which hooks (config index) ran.
    hooks: Vec<usize>,
    /// The tool command saw `CONF_ENV=ENVTOKEN` in its environment (`env-file`).
    env: bool,
    /// Codex: the case's `codex_text` reached the model (the engine: it is the outcome's
    /// `reason`).
    text: bool,
    /// Codex: how its hook runs ended, as it reports them (`hook: PreToolUse Failed`), counted
    /// by status (`blocked`, `completed`, `failed`); empty for Claude Code and for Stop (loops).
    statuses: String,
    /// The flag file an async hook writes after a second existed a few seconds after the agent
    /// (or `hook run`) returned (`async-runs`).
    late: bool,
    /// What the model received on the session's second turn ([`Case::second_turn`]).
    next: Option<Next>,
}

/// What the model received on a later turn of the session: the effects a hook's output has
/// beyond its own turn.
#[derive(Debug, PartialEq, Eq)]
struct Next {
    /// Model requests of the turn (`1`: a text answer; `2`: a tool call and an answer).
    calls: usize,
    /// The hook's reason was in what the model received (the history of the session included).
    reason: bool,
    /// The hook's context was.
    context: bool,
    /// The turn's tool command saw `CONF_ENV=ENVTOKEN` (`env-file`).
    env: bool,
}

impl Seen {
    fn show(&self) -> String {
        let mut s = format!("ran {}; turns {}", self.ran, self.turns);
        if self.reason {
            s.push_str("; reason→model");
        }
        if self.second {
            s.push_str("; 2nd reason→model");
        }
        if self.context {
            s.push_str("; context→model");
        }
        if self.env {
            s.push_str("; env→command");
        }
        if self.text {
            s.push_str("; agent's text→model");
        }
        if self.late {
            s.push_str("; async hook finished");
        }
        if !self.statuses.is_empty() {
            let _ = write!(s, "; runs {}", self.statuses);
        }
        let _ = write!(s, "; hooks {:?}", self.hooks);
        if let Some(next) = &self.next {
            let _ = write!(s, "; next turn: {} model calls", next.calls);
            let seen = [
                (next.reason, ", reason→model"),
                (next.context, ", context→model"),
                (next.env, ", env→command"),
            ];
            for (_, what) in seen.iter().filter(|(on, _)| *on) {
                s.push_str(what);
            }
        }
        s
    }
}

struct Side {
    dir: PathBuf,
    marker: PathBuf,
    /// What the second turn's tool command writes (`{MARKER2}`).
    marker2: PathBuf,
    flag: PathBuf,
    rewritten: PathBuf,
    captures: PathBuf,
}

fn side(case_dir: &Path, name: &str) -> Result<Side> {
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

fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Writes one script per distinct hook (a hook with `same_as` reuses that one's); returns each
/// hook's command.
fn scripts(side: &Side, hooks: &[Hook]) -> Result<Vec<String>> {
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
fn hooks_of(case: &Case) -> Vec<Hook> {
    let mut hooks = case.hooks.clone();
    if case.probe {
        hooks.push(Hook {
            stdout: "",
            ..cases::hook()
        });
    }
    hooks
}

fn toml_config(event: &str, hooks: &[Hook], commands: &[String]) -> String {
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

fn json_config(event: &str, hooks: &[Hook], commands: &[String]) -> Value {
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
fn write_claude_settings(
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

fn run_case(env: &Env, case: &Case) -> Result<Row> {
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
fn relay_timing(side: &Side) -> Option<(u64, Option<u64>)> {
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

/// Counts statuses, sorted: `blocked 1, failed 1`.
fn count_statuses(statuses: impl Iterator<Item = String>) -> String {
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for status in statuses {
        *counts.entry(status).or_default() += 1;
    }
    counts
        .iter()
        .map(|(status, n)| format!("{status} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The end of each hook run Codex reports on stderr: `hook: <Event> <Status>` (async hooks and
/// hooks it skips report none).
fn codex_statuses(log: &str, event: &str) -> String {
    let prefix = format!("hook: {event} ");
    count_statuses(
        log.lines()
            .filter_map(|line| line.strip_prefix(&prefix))
            .map(|status| status.trim().to_ascii_lowercase()),
    )
}

/// The engine's runs as Codex would report them: `ok` completed, `blocked`, `stopped` (a run
/// whose `continue: false` was obeyed), `failed` and `timed_out` failed; skipped and async runs
/// report nothing.
fn engine_statuses(outcome: &Value) -> String {
    count_statuses(
        outcome["runs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|run| match run["status"].as_str() {
                Some("ok") => Some("completed".to_owned()),
                Some("blocked") => Some("blocked".to_owned()),
                Some("stopped") => Some("stopped".to_owned()),
                Some("failed" | "timed_out") => Some("failed".to_owned()),
                _ => None,
            }),
    )
}

/// The marker holds what the tool command saw in `$CONF_ENV` (`env-file`).
fn saw_env(side: &Side) -> bool {
    fs::read_to_string(&side.marker).is_ok_and(|text| text.contains("ENVTOKEN"))
}

/// For a case with async hooks: whether the flag they write appears within a few seconds (they
/// sleep one second first, so it cannot be there when the agent or `hook run` returns at once).
fn background_finished(case: &Case, side: &Side) -> bool {
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

fn ran_hooks(captures: &Path, count: usize, probe: bool) -> Vec<usize> {
    let under_test = if probe { count - 1 } else { count };
    (0..under_test)
        .filter(|i| captures.join(format!("{i}.0.json")).exists())
        .collect()
}

/// Relay mode: the case's hooks in the relay's user file of a home of their own (trusted
/// for lime, which trusts nothing unreviewed); returns that home.
fn write_relay_files(
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
fn relay_entry(env: &Env, case: &Case, side: &Side, relay_home: &Path) -> (Hook, String) {
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

fn run_agent(
    env: &Env,
    case: &Case,
    side: &Side,
    hooks: &[Hook],
    commands: &[String],
    port: u16,
    turn: usize,
) -> Result<String> {
    // The second turn resumes the session of the first with another prompt.
    let prompt = if case.trigger == Trigger::SkillCommand {
        "/x"
    } else if turn == 0 {
        "Run the command."
    } else {
        "Go on."
    };
    let (stdout_name, stderr_name) = if turn == 0 {
        ("stdout", "stderr")
    } else {
        ("stdout-turn2", "stderr-turn2")
    };
    let home = side.dir.join("home");
    let project = side.dir.join("project");
    // SDK control requests sent before the prompt (stream-json input), if the case has any.
    let controls = control_requests(case, &project);
    let bin = env.npm.join("node_modules/.bin");
    let mut command = match env.agent {
        Agent::Codex => {
            let codex_home = home.join(".codex");
            fs::create_dir_all(&codex_home)?;
            let (approval, sandbox) = match case.permissions {
                Permissions::Bypass => ("never".to_owned(), "danger-full-access"),
                Permissions::Prompt => ("on-request".to_owned(), "workspace-write"),
            };
            // Codex offers `apply_patch` only to a model whose metadata says so, and knows no
            // metadata for the fake model: a one-model catalog gives it.
            let catalog = if case.patch {
                let path = codex_home.join("models.json");
                fs::write(&path, PATCH_MODEL_CATALOG)?;
                format!(
                    "model_catalog_json = {}\n",
                    Value::from(path.display().to_string())
                )
            } else {
                String::new()
            };
            let hooks_config = if env.relay {
                let relay_home = write_relay_files(env, case, side, hooks, commands)?;
                let (relay_hook, relay_command) = relay_entry(env, case, side, &relay_home);
                toml_config(case.event, &[relay_hook], &[relay_command])
            } else {
                toml_config(case.event, hooks, commands)
            };
            let config = codex_config(
                port,
                &approval,
                sandbox,
                &format!("{catalog}\n{hooks_config}"),
            );
            fs::write(codex_home.join("config.toml"), config)?;
            let mut command = Command::new(bin.join("codex"));
            if turn == 0 {
                command
                    .args([
                        "exec",
                        "--skip-git-repo-check",
                        "--dangerously-bypass-hook-trust",
                    ])
                    .arg("-C")
                    .arg(&project);
            } else {
                // The first turn's session, by the id Codex printed (`--last` skips a session
                // whose only prompt was blocked).
                let first = fs::read_to_string(side.dir.join("stderr")).unwrap_or_default();
                let id = first
                    .lines()
                    .find_map(|line| line.strip_prefix("session id: "))
                    .map(str::trim)
                    .context("the first turn printed no session id")?;
                command.args([
                    "exec",
                    "resume",
                    "--skip-git-repo-check",
                    "--dangerously-bypass-hook-trust",
                    id,
                ]);
            }
            command
                .arg(prompt)
                .env("CODEX_HOME", &codex_home)
                .env("OPENAI_API_KEY", "sk-fake");
            match case.permissions {
                Permissions::Bypass => {
                    command.arg("--dangerously-bypass-approvals-and-sandbox");
                }
                // `codex exec` forces approval `never` (an escalated call is refused without
                // asking, and no PermissionRequest hook runs) unless approvals go to the
                // automatic reviewer: then the hooks are asked first, and a call they leave
                // undecided goes to the reviewer, which the fake model makes decline.
                Permissions::Prompt => {
                    command.arg("--approve-for-me");
                }
            }
            command
        }
        Agent::Claude => {
            if env.relay {
                let relay_home = write_relay_files(env, case, side, hooks, commands)?;
                let (relay_hook, relay_command) = relay_entry(env, case, side, &relay_home);
                let settings = json_config(case.event, &[relay_hook], &[relay_command]);
                let (dir, file) = if case.personal_settings {
                    (project.join(".claude"), "settings.local.json")
                } else {
                    (home.join(".claude"), "settings.json")
                };
                fs::create_dir_all(&dir)?;
                fs::write(dir.join(file), serde_json::to_string_pretty(&settings)?)?;
            } else {
                write_claude_settings(&home.join(".claude"), &project, case, hooks, commands)?;
            }
            if case.trigger == Trigger::SkillCommand {
                // The inline shell command of a project command, run when `/x` expands it.
                let commands_dir = project.join(".claude/commands");
                fs::create_dir_all(&commands_dir)?;
                let inline = case
                    .command
                    .replace("{MARKER}", &side.marker.display().to_string());
                fs::write(
                    commands_dir.join("x.md"),
                    format!("---\ndescription: x\n---\nSay done.\n\n!`{inline}`\n"),
                )?;
            }
            let mut command = claude_command(&bin, port);
            match case.permissions {
                // SDK control requests (`set_model`, `register_repo_root`) come on stream-json
                // stdin, before the prompt (`prompt_user`).
                Permissions::Bypass if !controls.is_empty() => {
                    // The debug log is where Claude Code says it refused a hook's output.
                    command
                        .args([
                            "--dangerously-skip-permissions",
                            "--input-format",
                            "stream-json",
                            "--debug-file",
                        ])
                        .arg(side.dir.join("debug.log"));
                }
                Permissions::Bypass => {
                    if turn > 0 {
                        // The most recent conversation of the project, under this case's HOME.
                        command.arg("--continue");
                    }
                    command.args(["--dangerously-skip-permissions", prompt]);
                }
                // Plain `-p` refuses a call that needs approval ("This command requires
                // approval") without running PermissionRequest hooks. With the stdio prompt
                // tool the hooks race the permission question sent to us as a control
                // request; `prompt_user` answers it late, so a hook's decision always wins.
                Permissions::Prompt => {
                    command.args([
                        "--input-format",
                        "stream-json",
                        "--permission-prompt-tool",
                        "stdio",
                    ]);
                }
            }
            command
        }
    };
    let prompted = env.agent == Agent::Claude
        && (case.permissions == Permissions::Prompt || !controls.is_empty());
    command
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("CLAUDECODE")
        .stderr(fs::File::create(side.dir.join(stderr_name))?);
    if prompted {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
    } else {
        command
            .stdin(Stdio::null())
            .stdout(fs::File::create(side.dir.join(stdout_name))?);
    }
    let mut child = command
        .spawn()
        .with_context(|| format!("starting {}", env.agent.name()))?;
    let user = if prompted {
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let log = fs::File::create(side.dir.join(stdout_name))?;
        Some(thread::spawn(move || {
            prompt_user(stdin, stdout, log, &controls)
        }))
    } else {
        None
    };
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status.to_string();
        }
        if started.elapsed() > AGENT_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break "killed after the deadline".to_owned();
        }
        thread::sleep(Duration::from_millis(100));
    };
    if let Some(user) = user {
        let _ignored = user.join();
    }
    let stdout = fs::read_to_string(side.dir.join(stdout_name)).unwrap_or_default();
    let stderr = fs::read_to_string(side.dir.join(stderr_name)).unwrap_or_default();
    Ok(format!(
        "status: {status}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    ))
}

/// How long the harness, as the user, takes to answer a permission question: long enough that
/// every PermissionRequest hook of a case has answered first.
const USER_DELAY: Duration = Duration::from_secs(3);

/// Plays the user of a Claude Code stream-json session: sends the prompt, copies every output
/// line to `log`, declines each permission question after `USER_DELAY`, and closes stdin once
/// the result arrives so the agent exits.
/// The SDK control requests a case sends before its prompt (stream-json input).
fn control_requests(case: &Case, project: &Path) -> Vec<Value> {
    match case.trigger {
        Trigger::SetModel => vec![
            json!({"type": "control_request", "request_id": "set-model-1",
            "request": {"subtype": "set_model", "model": cases::SWITCH_TO}}),
        ],
        Trigger::AddDirectory => {
            // A strict subfolder of the session's working directory, as Claude Code requires.
            let folder = project.join("added");
            let _ignored = fs::create_dir_all(&folder);
            vec![json!({"type": "control_request", "request_id": "add-dir-1",
                "request": {"subtype": "register_repo_root", "directory": folder}})]
        }
        Trigger::ToolCall | Trigger::SkillCommand => Vec::new(),
    }
}

fn prompt_user(
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    mut log: fs::File,
    controls: &[Value],
) {
    use std::io::{BufRead as _, BufReader, Write as _};
    let stdin = std::sync::Arc::new(Mutex::new(Some(stdin)));
    let send = |stdin: &Mutex<Option<std::process::ChildStdin>>, message: &Value| {
        if let Ok(mut guard) = stdin.lock()
            && let Some(pipe) = guard.as_mut()
        {
            let _ignored = writeln!(pipe, "{message}").and_then(|()| pipe.flush());
        }
    };
    for control in controls {
        send(&stdin, control);
    }
    send(
        &stdin,
        &json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
            "message": {"role": "user", "content": "Run the command."}}),
    );
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let _ignored = writeln!(log, "{line}");
        let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        if message["type"] == "control_request" && message["request"]["subtype"] == "can_use_tool" {
            let id = message["request_id"].clone();
            let stdin = std::sync::Arc::clone(&stdin);
            thread::spawn(move || {
                thread::sleep(USER_DELAY);
                send(
                    &stdin,
                    &json!({"type": "control_response", "response": {"subtype": "success",
                        "request_id": id, "response": {"behavior": "deny",
                        "message": "declined by the user"}}}),
                );
            });
        } else if message["type"] == "result"
            && let Ok(mut guard) = stdin.lock()
        {
            guard.take();
        }
    }
}

/// What one `hook run` gave.
struct EngineRun {
    outcome: Value,
    /// The hooks whose process started (see `predict`).
    hooks: Vec<usize>,
    /// The async hooks' flag appeared after `hook run` returned.
    late: bool,
}

/// Runs `hook run` with the same hooks on the captured payload: the outcome and the hooks that ran.
fn run_engine(
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

/// What the agent would do, by the engine's outcome: the embedder contract, i.e. how an agent
/// that embeds the engine must act on each outcome field to behave as the real agent does.
///
/// `hooks` are the hooks whose process really started (they saved their stdin), not the `runs`
/// entries: a run `skipped` for any reason (`untrusted`, `disabled`, and `invalid` for a handler
/// or group the engine could not load, such as matcher `[` or verboo `timeout: 0`) started no
/// process and decided nothing, so it is never counted as a hook that ran. `late` is whether the
/// engine's async hooks finished after `hook run` returned (only measured, nothing to predict).
fn predict(agent: Agent, case: &Case, outcome: &Value, hooks: Vec<usize>, late: bool) -> Seen {
    let decision = outcome["decision"].as_str().unwrap_or("");
    let stop = outcome["stop"] == true;
    let reason = outcome["reason"].as_str().unwrap_or("");
    let blocking = matches!(decision, "block" | "deny" | "ask");
    let context = outcome["additional_context"]
        .as_str()
        .is_some_and(|c| c.contains("CONTEXT_TOKEN"));
    let command = outcome["updated_input"]["command"].as_str();
    let reason_token = |token: &str| blocking && reason.contains(token);
    // verboo `CLAUDE_ENV_FILE`: the embedder sources `session_env` before later Bash commands.
    let env = outcome["session_env"]
        .as_str()
        .is_some_and(|text| text.contains("CONF_ENV=ENVTOKEN"));
    // lime: the engine gives the agent's own words where the hook gave none (e.g. Codex's
    // "PermissionRequest hook denied approval"); the embedder passes `reason` on as it is.
    let text = agent == Agent::Codex
        && case
            .codex_text
            .is_some_and(|text| blocking && reason.contains(text));
    let statuses = if agent == Agent::Codex && case.event != "Stop" {
        engine_statuses(outcome)
    } else {
        String::new()
    };
    let seen = |ran, reason, second, context, turns| Seen {
        ran,
        reason,
        second,
        context,
        turns,
        hooks: hooks.clone(),
        statuses: statuses.clone(),
        env,
        text,
        late,
        next: None,
    };
    // A blocked (or stopped) prompt reaches no model on its own turn; the context its hooks
    // left in the outcome (lime keeps it, verboo drops it with the prompt) is what the embedder
    // gives the model on the session's next turn.
    let prompt_dropped = case.event == "UserPromptSubmit" && (blocking || stop);
    let mut seen = match case.event {
        "PreToolUse" => {
            // `defer` (verboo only; lime fails such a run, so it never reaches the outcome):
            // Claude Code `-p` leaves the call undone and ends the run, so the embedder hands
            // the pending call back to its caller: measured "ran none; turns stopped".
            let deferred = decision == "defer";
            // `stop` (`continue: false`): Claude Code 2.1 runs the call as the decision says
            // (a block still blocks) and then ends the turn: measured "ran original; turns
            // stopped". lime never sets `stop` on PreToolUse (Codex 0.169 treats
            // `continue: false` there as an invalid output: "ran original; turns normal"), so
            // a lime outcome with `stop` would be predicted to stop and disagree, as it should.
            // A call that needs an approval (`Permissions::Prompt`) goes to the usual approval,
            // which the harness declines, unless a verboo hook allowed it: Claude Code 2.1 runs
            // an allowed call (rewritten or not) without asking. A lime `allow` is no
            // authorization (SPEC: a hook never widens it): Codex 0.169 asks its approval for
            // the call, the rewritten one too, whatever the hook said.
            let authorized = decision == "allow" && agent == Agent::Claude;
            let declined = case.permissions == Permissions::Prompt && !authorized;
            let ran = match (blocking || deferred || declined, command) {
                (true, _) => "none",
                (false, Some(c)) if c.ends_with("-first") => "rewritten-first",
                (false, Some(_)) => "rewritten",
                (false, None) => "original",
            };
            let quiet = stop || deferred;
            seen(
                ran,
                !quiet && reason_token("REASON_TOKEN"),
                !quiet && reason_token("SECOND_TOKEN"),
                context,
                if quiet { "stopped" } else { "normal" },
            )
        }
        // A skill's inline command: a block (deny, ask, defer, a rewrite, exit 2) keeps it from
        // running; the model's own call (`true`) and answer follow.
        "PreSkillShellCommand" => seen(
            if blocking { "none" } else { "original" },
            reason_token("REASON_TOKEN"),
            false,
            context,
            "normal",
        ),
        // The tool already ran; a block gives the model the reason (lime `continue: false` is
        // such a block, with the stop reason, and `stop` stays false: Codex 0.169 goes on).
        "PostToolUse" => seen(
            "original",
            !stop && reason_token("REASON_TOKEN"),
            false,
            context,
            if stop { "stopped" } else { "normal" },
        ),
        // A block or stop drops the prompt: no model call on this turn; its context waits for
        // the next one (see `prompt_dropped`).
        "UserPromptSubmit" => seen(
            if blocking || stop { "none" } else { "original" },
            false,
            false,
            context && !prompt_dropped,
            if blocking || stop {
                "no model call"
            } else {
                "normal"
            },
        ),
        // A block makes the agent take another turn with the reason; verboo context alone is
        // reported as a block with `additional_context` and no reason, so it continues too.
        "Stop" => seen(
            "original",
            reason_token("REASON_TOKEN") && !stop,
            reason_token("SECOND_TOKEN") && !stop,
            context,
            if blocking && !stop {
                "continued"
            } else {
                "normal"
            },
        ),
        // allow: the call runs without asking. A block (deny) refuses the call and the model
        // gets the reason as the tool result. No decision: the agent asks as usual, which in
        // a non-interactive run refuses the call (Claude Code `-p`; see `run_agent`).
        "PermissionRequest" => seen(
            if decision == "allow" {
                "original"
            } else {
                "none"
            },
            reason_token("REASON_TOKEN"),
            reason_token("SECOND_TOKEN"),
            context,
            if stop { "stopped" } else { "normal" },
        ),
        _ => seen("original", false, false, context, "normal"),
    };
    // The next turn: what reached the model stays in the session's history; a dropped
    // prompt's context arrives now; `session_env` is sourced before the turn's Bash command;
    // a tool event's stop reason is in the history where the dialect keeps it there.
    // A stop on a tool event whose reason the agent keeps in the history (verboo).
    let stop_reason_kept = agent
        .dialect()
        .parse::<hook_protocol::Dialect>()
        .is_ok_and(|dialect| dialect.rules().stop_reason_in_history())
        && stop
        && matches!(case.event, "PreToolUse" | "PostToolUse")
        && outcome["stop_reason"]
            .as_str()
            .is_some_and(|why| why.contains("REASON_TOKEN"));
    seen.next = Some(Next {
        calls: if case.later_command.is_some() { 2 } else { 1 },
        reason: seen.reason || seen.second || stop_reason_kept,
        context: seen.context || (prompt_dropped && context),
        env,
    });
    seen
}

/// What Codex's model-request hooks are, as measured (written into CONFORMANCE.md).
const MODEL_REQUEST_HOOKS: &str = "## Codex's model-request hooks\n\n\
Codex CLI 0.169 and 0.171 run two hook events lime does not model yet, configured like the others \
(`[[hooks.PreModelRequest]]`, `[[hooks.PostModelRequest]]` in `config.toml` or `hooks.json`), \
with no embedded command schema. Measured on 0.171.0 with `codex exec` against a fake and an \
unreachable model server: both fire once per model request *attempt* (a retry fires them again \
with the same `request_id` and a higher `attempt_number`; compaction requests too, `kind` \
`foreground_compaction`), `PreModelRequest` before the request is sent (which waits for it), \
with the input `kind` (`sampling`), `request_id`, `attempt_number`, `session_id`, `thread_id`, \
`turn_id`, `cwd`, `transcript_path`, `model`, `hook_event_name`, and `PostModelRequest` after \
it, failed ones included, adding `status`, `error`, `token_usage` and `response_id`. They \
observe only: stdout is ignored (a block, `continue: false`, `additionalContext` or garbage \
alike), a non-zero exit (2 included) only marks the run `Failed`, and matchers are ignored. \
(The stored Codex source has an older `PostModelResponse` with a richer payload; the binary is \
what is described here.) Nothing they say changes what Codex does, so no guard can be written \
on them and the relay has nothing to block: lime does not model them in this version (a later \
one can, as observe-only events), `cargo xtask conformance drift` lists them as known, and a \
lime file naming them loads them as events the engine does not know (kept, with a warning).\n";

/// The deliberate differences issue 11 keeps, each with the rule that makes it: the rows of
/// `deliberate` use these texts, and the report lists every one, hit by a case or not.
const RULE_EVENT_NAME: &str = "lime: a `hookEventName` naming another event fails the run (the published schema), \
     though Codex 0.169 accepts it";
const RULE_TWO_BLOCKS: &str = "several PreToolUse blocks: the first in config order gives the reason (Claude Code 2.1: \
     the first to finish, a race)";
const RULE_TWO_REWRITES: &str =
    "several rewrites: the last in config order wins (both agents: the last to finish, a race)";
const RULE_EXIT_1_JSON: &str = "verboo: JSON is read on exit 0 only; exit 1/3 with JSON is a failed run (Claude Code 2.1 obeys the JSON)";
const RULE_TRAILING_JSON: &str = "verboo: truncated or trailing JSON is a failed run with a message (Claude Code treats it as text)";
const RULE_PERMISSION: &str =
    "verboo PermissionRequest: deny wins and exit 2 denies (Claude Code races the user prompt)";
const RULE_BAD_TIMEOUT: &str = "one bad handler never disables the others: an invalid handler (`timeout: 0`) is skipped \
     and the rest run (Claude Code 2.1.332 drops every hook of that settings file when the invalid handler is on \
     PreToolUse, PermissionRequest or PreSkillShellCommand, and the handler alone elsewhere, as the engine does)";
const RULE_TRUSTED_FILES: &str = "trust covers the files a hook runs: a trusted hook whose script changed waits for trust \
     again (Codex 0.169 hashes the config entry only and runs the changed script)";

/// Every deliberate rule, in the order the report lists them.
const RULES: [&str; 8] = [
    RULE_EVENT_NAME,
    RULE_TWO_BLOCKS,
    RULE_TWO_REWRITES,
    RULE_EXIT_1_JSON,
    RULE_TRAILING_JSON,
    RULE_PERMISSION,
    RULE_BAD_TIMEOUT,
    RULE_TRUSTED_FILES,
];

/// Deliberate differences: the rule that makes each.
fn deliberate(agent: Agent, case: &str) -> Option<&'static str> {
    match (agent, case) {
        (Agent::Codex, "pre-wrong-event-name") => Some(RULE_EVENT_NAME),
        // Both hooks exit 2 at once: Claude Code 2.1 gives the model the reason of the one that
        // finished first (measured both ways); Codex 0.169 the first in config order.
        (Agent::Claude, "pre-two-blocks") => Some(RULE_TWO_BLOCKS),
        (_, "pre-two-rewrites") => Some(RULE_TWO_REWRITES),
        (Agent::Claude, "pre-exit1-json-allow") => Some(RULE_EXIT_1_JSON),
        (Agent::Claude, "pre-invalid-json" | "pre-json-trailing-text") => Some(RULE_TRAILING_JSON),
        // Claude Code 2.1 takes the first PermissionRequest hook to answer (it races them and
        // the user's prompt) and ignores exit 2 there (the call goes to the user).
        // `perm-deny-and-allow` agrees when the deny answers first and differs when the allow
        // does (seen both ways on one machine).
        (Agent::Claude, "perm-exit2" | "perm-allow-and-slow-deny" | "perm-deny-and-allow") => {
            Some(RULE_PERMISSION)
        }
        // Claude Code 2.1 rejects the whole settings file (no hook of it runs) when one handler
        // has `timeout: 0`; a matcher `[` drops only its group there.
        (Agent::Claude, "bad-timeout-others-run") => Some(RULE_BAD_TIMEOUT),
        _ => None,
    }
}

/// Captured payloads kept per case: a looping case (Codex's stop-block loop) captures hundreds
/// of near-identical ones.
const FIXTURES_PER_CASE: usize = 4;

fn copy_fixtures(root: &Path, agent: Agent, work: &Path, rows: &[Row]) -> Result<()> {
    let dir = root.join("tests/fixtures/conformance").join(agent.name());
    fs::create_dir_all(&dir)?;
    for row in rows {
        for capture in row.captures.iter().take(FIXTURES_PER_CASE) {
            let Ok(text) = fs::read_to_string(capture) else {
                continue;
            };
            let Ok(mut value) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let event = value["hook_event_name"]
                .as_str()
                .unwrap_or("unknown")
                .to_owned();
            // Machine-specific paths are kept as captured except the run folder, made relative.
            let prefix = work.display().to_string();
            let text =
                serde_json::to_string_pretty(&value.take())?.replace(&prefix, "/conformance");
            let file = capture
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("capture.json");
            fs::write(
                dir.join(format!("{}--{event}--{file}", row.name)),
                text + "\n",
            )?;
        }
    }
    Ok(())
}

fn report(sections: &[(Agent, Vec<Row>)], versions: &Versions) -> String {
    let mut text = format!(
        "# Conformance against the real agents\n\n\
         Generated by `cargo xtask conformance all` against the newest releases on the npm \
         registry when it ran: **Claude Code {}** and **Codex CLI {}** (`cargo xtask conformance \
         --floor all` runs the floor, Claude Code {} and Codex CLI {}); do not edit. Each case configures command hooks in \
         the agent's own files, runs the real agent against a fake model server that scripts one \
         `touch MARKER` tool call, records what happened (did the command run, what reached the model, \
         how many model turns, which hooks ran), then feeds the exact stdin each hook got to \
         `hook run` with the same hooks and predicts the same observations from the outcome.\n\n\
         Columns: *ran* is `original` (marker written), `rewritten` (the hook's `updatedInput` ran) or \
         `none` (for a skill's inline command, `/x`, the same of the command), `switched`/`kept` \
         (the SDK's `set_model`: did the agent loop's requests use the new model) or \
         `accepted`/`refused` (the SDK's `register_repo_root`: did Claude Code refuse the \
         DirectoryAdded hook's output); *turns* counts model requests of the agent loop (`normal` = tool call + answer, \
         `stopped` = no answer after the tool, `continued` = a Stop hook made it go on, `no model call`); \
         `reason→model`/`context→model`: the hook's reason or context reached the model; *hooks*: \
         which of the case's handlers (config index) ran; Codex only: *runs* counts how its hook runs \
         ended as Codex reports them (`completed`, `blocked`, `failed`), and `agent's text→model`: \
         Codex's own message for the case reached the model; `env→command`: a variable a \
         SessionStart hook wrote to `CLAUDE_ENV_FILE` reached the later Bash command; \
         `async hook finished`: an async hook's work was done a few seconds after the agent (or \
         `hook run`) went on; *next turn* (cases run over two turns of one session: the agent is \
         run again with a second prompt, `codex exec resume <id>` or `claude --continue`): the \
         model requests of that turn, and whether the hook's reason or context reached the model \
         then (the history included), or a `CLAUDE_ENV_FILE` variable the turn's Bash command. \
         The engine's prediction for it is the embedder contract: what reached the model stays in \
         the history, a dropped prompt's `additional_context` is given on the next turn, \
         `session_env` is sourced before every later Bash command.\n\n",
        versions.claude,
        versions.codex,
        Versions::floor().claude,
        Versions::floor().codex,
    );
    for (agent, rows) in sections {
        let agreed = rows.iter().filter(|r| r.agree).count();
        let deliberate = rows
            .iter()
            .filter(|r| !r.agree && r.deliberate.is_some())
            .count();
        let _ = writeln!(
            text,
            "## {}\n\n{agreed} of {} cases agree; {deliberate} deliberate differences; {} disagreements.\n",
            agent.title(versions),
            rows.len(),
            rows.len() - agreed - deliberate
        );
        text.push_str(
            "| case | event | agent did | engine concluded | agree |\n|---|---|---|---|---|\n",
        );
        for row in rows {
            let verdict = match (row.agree, row.deliberate) {
                (true, _) => "yes".to_owned(),
                (false, Some(rule)) => format!("deliberate: {rule}"),
                (false, None) => "**no**".to_owned(),
            };
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {} |",
                row.name,
                row.event,
                row.agent.replace('|', "\\|"),
                row.engine.replace('|', "\\|"),
                verdict
            );
        }
        text.push('\n');
    }
    text.push_str(
        "## Deliberate differences\n\n\
         Each rule the engine keeps on purpose where the agents differ (issue 11), with the cases \
         that show it. A rule no case shows differs where these cases cannot see it (e.g. both \
         sides run the call in bypass mode).\n\n",
    );
    for rule in RULES {
        let shown: Vec<String> = sections
            .iter()
            .flat_map(|(agent, rows)| {
                rows.iter()
                    .filter(|r| !r.agree && r.deliberate == Some(rule))
                    .map(move |r| format!("{} `{}`", agent.name(), r.name))
            })
            .collect();
        let shown = if shown.is_empty() {
            "no case shows it".to_owned()
        } else {
            shown.join(", ")
        };
        let _ = writeln!(text, "- {rule}: {shown}.");
    }
    text
}

#[cfg(test)]
mod version_tests {
    use super::older;

    #[test]
    fn releases_compare_by_number() {
        assert!(older("2.1.197", "2.1.332"));
        assert!(older("2.1.99", "2.1.332"));
        assert!(!older("2.1.332", "2.1.332"));
        assert!(!older("2.10.0", "2.9.9"));
    }
}
