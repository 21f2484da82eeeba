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
//! `guests` ([`guests`]) runs the real Qwen Code, Gemini CLI and Copilot CLI with a guard
//! written for Claude Code in the relay's user file and the entry the README gives each
//! (`hook relay --agent qwen|gemini|copilot`): a denied `rm -rf` must not run and its reason
//! must reach the model, an allowed command must run, a missing `hook` must still block. It
//! prints a line per agent and writes the `guests` section of `CONFORMANCE.md` (which `all`
//! keeps as it is); `relay` runs it too, after Claude Code's and Codex's relay cases (not with
//! a case filter or `--floor`). `guests-drift` ([`fn@guests::drift`]) reads the three agents' event lists from
//! their packages and compares them with the relay's translation tables.
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
//!
//! Where each part is: `cases.rs` the cases (data), `agents.rs` the real agents (releases,
//! install, one turn), `setup.rs` a case's files and the agents' configuration, `run.rs` both
//! sides run and compared, `predict.rs` what the engine's outcome says the user will see,
//! `rules.rs` the deliberate differences (a table), `report.rs` the fixtures and
//! `CONFORMANCE.md`, `server.rs` the fake model (`server/shell.rs` the shell tool's call,
//! `server/genai.rs` Google GenAI's shapes), `drift.rs` the hook surfaces compared,
//! `guests/` the `guests` mode.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub(crate) mod agents;
mod cases;
pub(crate) mod drift;
mod guests;
mod predict;
mod report;
mod rules;
mod run;
pub(crate) mod server;
mod setup;

use agents::{Versions, install, older};
use cases::{Case, Only};
use report::{copy_fixtures, report};
use rules::MODEL_REQUEST_HOOKS;
use run::run_parallel;

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

/// Runs the suite; `which` is `codex`, `claude`, `all`, `relay` or `guests`; `floor` runs it
/// against [`Versions::floor`] instead of the newest releases.
pub(crate) fn run(root: &Path, which: &str, filter: Option<&str>, floor: bool) -> Result<()> {
    let agents: Vec<Agent> = match which {
        "codex" => vec![Agent::Codex],
        "claude" => vec![Agent::Claude],
        "all" | "relay" => vec![Agent::Codex, Agent::Claude],
        "guests" if floor => bail!("`guests` runs the newest releases only: no --floor"),
        "guests" => return guests::run(root, filter),
        "guests-drift" => return guests::drift(root),
        other => {
            bail!("unknown agent `{other}`: use codex, claude, all, relay, guests or guests-drift")
        }
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
    let hook = build_hook(root)?;
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
        // The relay in the other agents a team runs, with a guard written for Claude Code.
        if filter.is_none() && !floor {
            return guests::run(root, None);
        }
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
        // The guests section is `guests`'s to write: kept as it is.
        let path = root.join("CONFORMANCE.md");
        let former = fs::read_to_string(&path).unwrap_or_default();
        if let Some(section) = guests::report::existing(&former) {
            text = guests::report::splice(&text, section);
        }
        fs::write(path, text).context("writing CONFORMANCE.md")?;
        println!("wrote CONFORMANCE.md");
    }
    Ok(())
}

/// Builds `hook` (`cargo build -p hook-cli`) and returns `target/debug/hook`.
fn build_hook(root: &Path) -> Result<PathBuf> {
    let status = crate::cargo_command(root)
        .args(["build", "--quiet", "-p", "hook-cli"])
        .status()
        .context("running cargo build -p hook-cli")?;
    if !status.success() {
        bail!("cargo build -p hook-cli failed");
    }
    Ok(root.join("target/debug/hook"))
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
