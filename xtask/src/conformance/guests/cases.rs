//! The cases each agent runs, one at a time in a fresh home and project, and what is checked
//! after each: whether the fake model's tool call was made, whether `victim/` survived, whether
//! the allowed command's marker exists, whether the guard's reason reached the model in a
//! request after the call.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::super::server::{FakeServer, Logged, Script};
use super::entries::{
    Guest, Place, REASON, agent_settings, entry_path, guard_path, guard_settings, installed_entry,
    setup_commands,
};
use super::launch::{DEADLINE, Run, command, hook_command, run};

/// One case.
#[derive(Clone, Copy, Debug)]
pub(super) struct Case {
    pub(super) name: &'static str,
    /// The command of the fake model's one shell tool call.
    pub(super) call: &'static str,
    /// Where the relay's entry is.
    pub(super) place: Place,
    /// Whether the entry's `hook` exists (else it names one that does not).
    pub(super) relay: bool,
    /// What must be seen.
    pub(super) expect: &'static [Fact],
}

/// What a case can see after the agent's run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fact {
    /// The fake model's tool call was made (the agent offered its shell tool).
    Called,
    /// `victim/keep` is still there.
    VictimKept,
    /// `allowed-marker` exists.
    Marker,
    /// The guard's reason is in a model request sent after the tool call.
    Reason,
    /// The relay's journal (`~/.claude/hook-relay/hook-journal/`) has the guard's run on the
    /// `Bash` call, with this status (`ok`, `blocked`), naming the agent that called: the relay
    /// ran it, translated.
    Journal(&'static str),
}

impl Fact {
    /// How the fact reads, when it holds and when not.
    fn label(self, holds: bool) -> String {
        let label = match (self, holds) {
            (Self::Journal(status), true) => return format!("guard's run {status} in the journal"),
            (Self::Journal(status), false) => {
                return format!("no guard's run {status} in the relay's journal");
            }
            (Self::Called, true) => "tool call made",
            (Self::Called, false) => "no tool call",
            (Self::VictimKept, true) => "victim kept",
            (Self::VictimKept, false) => "victim removed",
            (Self::Marker, true) => "marker written",
            (Self::Marker, false) => "no marker",
            (Self::Reason, true) => "reason→model",
            (Self::Reason, false) => "reason not in a later model request",
        };
        label.to_owned()
    }
}

const DELETE: &str = "rm -rf victim";
const DENIED: &[Fact] = &[
    Fact::Called,
    Fact::VictimKept,
    Fact::Reason,
    Fact::Journal("blocked"),
];

/// The cases of `guest`: `deny`, `allow`, `relay-missing`, `project-deny` (the agent's own
/// project install, the guard in the project's relay file), and for Copilot CLI
/// `claude-project-deny` (Claude Code's entry in a trusted project's `.claude/settings.json`).
pub(super) fn cases(guest: Guest) -> Vec<Case> {
    let mut cases = vec![
        Case {
            name: "deny",
            call: DELETE,
            place: Place::User,
            relay: true,
            expect: DENIED,
        },
        Case {
            name: "allow",
            call: "touch allowed-marker",
            place: Place::User,
            relay: true,
            expect: &[Fact::Called, Fact::Marker, Fact::Journal("ok")],
        },
        Case {
            name: "relay-missing",
            call: DELETE,
            place: Place::User,
            relay: false,
            expect: &[Fact::Called, Fact::VictimKept],
        },
        Case {
            name: "project-deny",
            call: DELETE,
            place: Place::Project,
            relay: true,
            expect: DENIED,
        },
    ];
    if guest == Guest::Copilot {
        cases.push(Case {
            name: "claude-project-deny",
            call: DELETE,
            place: Place::ClaudeProject,
            relay: true,
            expect: DENIED,
        });
    }
    cases
}

/// What a run needs besides its case.
pub(super) struct Setting<'a> {
    /// The npm `.bin` folder of the agents.
    pub(super) bin: &'a Path,
    /// `target/debug/hook`.
    pub(super) hook: &'a Path,
    /// The runs' folder; a case's is `<work>/<agent>/<case>`.
    pub(super) work: &'a Path,
    /// Copilot CLI's shared `XDG_CACHE_HOME`.
    pub(super) cache: &'a Path,
}

/// One case's result.
pub(super) struct Row {
    pub(super) guest: Guest,
    pub(super) case: Case,
    /// The entry install wrote on the agent's event before a tool runs: its matcher and
    /// timeout as written (empty when the harness failed before).
    pub(super) entry: String,
    pub(super) expected: String,
    pub(super) seen: String,
    pub(super) agree: bool,
    /// How the agent's run ended, and its folder.
    pub(super) status: String,
    pub(super) dir: PathBuf,
}

/// Runs `jobs` two at a time (two cores, shared), in order of the list.
pub(super) fn run_all(setting: &Setting<'_>, jobs: &[(Guest, Case)]) -> Vec<Row> {
    let next = Mutex::new(0usize);
    let rows: Mutex<Vec<(usize, Row)>> = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = {
                        let Ok(mut next) = next.lock() else { return };
                        *next += 1;
                        *next - 1
                    };
                    let Some(&(guest, case)) = jobs.get(index) else {
                        return;
                    };
                    let dir = setting.work.join(guest.name()).join(case.name);
                    let row = run_case(setting, guest, case, &dir).unwrap_or_else(|error| Row {
                        guest,
                        case,
                        entry: String::new(),
                        expected: shown(case.expect, |_| true),
                        seen: format!("harness error: {error:#}"),
                        agree: false,
                        status: String::new(),
                        dir,
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

/// `facts` as they read, each holding or not as `holds` says.
fn shown(facts: &[Fact], holds: impl Fn(Fact) -> bool) -> String {
    facts
        .iter()
        .map(|fact| fact.label(holds(*fact)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn run_case(setting: &Setting<'_>, guest: Guest, case: Case, dir: &Path) -> Result<Row> {
    let _ignored = fs::remove_dir_all(dir);
    let home = dir.join("home");
    let project = dir.join("project");
    fs::create_dir_all(home.join(".claude/hook-relay"))?;
    fs::create_dir_all(project.join("victim"))?;
    fs::write(project.join("victim/keep"), "")?;
    let git = Command::new("git")
        .args(["init", "-q"])
        .arg(&project)
        .status()
        .context("running git init")?;
    if !git.success() {
        bail!("git init {} failed", project.display());
    }
    let guard = guard_path(case.place, &home, &project);
    if let Some(parent) = guard.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(&guard, serde_json::to_string_pretty(&guard_settings())?)?;
    if let Some((file, settings)) = agent_settings(guest, &home) {
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&file, serde_json::to_string_pretty(&settings)?)?;
    }
    let entry = set_up(setting, guest, case, dir, &home, &project)?;
    // A project's entry starts `hook` through the agent's `PATH`.
    let bin = dir.join("bin");
    if case.place != Place::User {
        fs::create_dir_all(&bin)?;
        std::os::unix::fs::symlink(setting.hook, bin.join("hook"))?;
    }
    let server = FakeServer::start(
        guest.wire(),
        Script {
            command: case.call.to_owned(),
            delay: Duration::ZERO,
            escalate: false,
            patch: false,
            calls: 1,
            later_command: None,
        },
    )?;
    let setting_run = Run {
        bin: setting.bin,
        home: &home,
        project: &project,
        port: server.port,
        cache: setting.cache,
        path_first: (case.place != Place::User).then_some(bin.as_path()),
    };
    let status = run(
        command(guest, case.place, &setting_run),
        &dir.join("agent"),
        DEADLINE,
    )?;
    let requests = server.requests();
    fs::write(
        dir.join("requests.json"),
        serde_json::to_string_pretty(
            &requests
                .iter()
                .map(|r| json!({"path": r.path, "main": r.main, "call": r.call, "body": r.body}))
                .collect::<Vec<_>>(),
        )?,
    )?;
    let holds = |fact: Fact| match fact {
        Fact::Called => requests.iter().any(|r| r.call),
        Fact::VictimKept => project.join("victim/keep").exists(),
        Fact::Marker => project.join("allowed-marker").exists(),
        Fact::Reason => reason_after_call(&requests),
        Fact::Journal(status) => guard_ran(&home, status, guest.name()),
    };
    Ok(Row {
        guest,
        case,
        entry,
        expected: shown(case.expect, |_| true),
        seen: shown(case.expect, holds),
        agree: case.expect.iter().all(|fact| holds(*fact)),
        status,
        dir: dir.to_path_buf(),
    })
}

/// Sets the relay up as a user does ([`setup_commands`]: `hook relay install`), each command
/// run as the `hook` the entry is to start: this checkout's, or for `relay-missing` a link to
/// it in a folder removed right after, so that the entry names a `hook` that is gone. Returns
/// the entry on the agent's event before a tool runs, as written: `matcher, timeout`.
fn set_up(
    setting: &Setting<'_>,
    guest: Guest,
    case: Case,
    dir: &Path,
    home: &Path,
    project: &Path,
) -> Result<String> {
    let gone = dir.join("no-such-folder");
    let hook = if case.relay {
        setting.hook.to_path_buf()
    } else {
        fs::create_dir_all(&gone)?;
        let link = gone.join("hook");
        // The program's own path is what install writes (a symbolic link would be resolved).
        fs::hard_link(setting.hook, &link).or_else(|_| fs::copy(setting.hook, &link).map(drop))?;
        link
    };
    for (index, args) in setup_commands(guest, case.place, project)
        .iter()
        .enumerate()
    {
        let out = dir.join(format!("setup-{index}"));
        let status = run(hook_command(&hook, args, home, project), &out, DEADLINE)?;
        if status != "exit status: 0" {
            let stderr = fs::read_to_string(out.with_extension("stderr")).unwrap_or_default();
            bail!(
                "hook {} ended with {status}: {}",
                args.join(" "),
                stderr.trim()
            );
        }
    }
    if !case.relay {
        fs::remove_dir_all(&gone)?;
    }
    let file = entry_path(guest, case.place, home, project);
    let text = fs::read_to_string(&file)
        .with_context(|| format!("install wrote no {}", file.display()))?;
    let event = match case.place {
        Place::User | Place::Project => guest.event(),
        Place::ClaudeProject => "PreToolUse",
    };
    let (matcher, timeout, _) = installed_entry(&serde_json::from_str(&text)?, event)
        .with_context(|| format!("{} holds no single {event} entry", file.display()))?;
    Ok(format!("{matcher}, {timeout}"))
}

/// Whether the relay's journal under `home` records the guard's run on a `Bash` call before it
/// ran (`PreToolUse`) with `status`, the calling agent named `agent` (Copilot CLI too when it
/// runs Claude Code's own project entry: the relay saw it).
fn guard_ran(home: &Path, status: &str, agent: &str) -> bool {
    let journal = home.join(".claude/hook-relay/hook-journal/journal.jsonl");
    let text = fs::read_to_string(journal).unwrap_or_default();
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|record| {
            record["event"] == "PreToolUse" && record["tool"] == "Bash" && record["agent"] == agent
        })
        .any(|record| {
            record["runs"]
                .as_array()
                .is_some_and(|runs| runs.iter().any(|run| run["status"] == status))
        })
}

/// Whether a request logged after the one answered with the tool call holds [`REASON`].
fn reason_after_call(requests: &[Logged]) -> bool {
    requests
        .iter()
        .skip_while(|r| !r.call)
        .skip(1)
        .any(|r| r.body.contains(REASON))
}
