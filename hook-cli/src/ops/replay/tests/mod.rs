//! In-process tests of the replay: transcripts rebuilt into the events the agents send and
//! dispatched through a guard, without the `hook` binary. The whole command (the text report,
//! `--json` against the committed schema) is in `hook-cli/src/tests/replay.rs`;
//! `tests/it/replay.rs` keeps what needs the binary: where the agents keep their sessions
//! (`HOME`, `CODEX_HOME`), a FIFO that must not hang the process.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;

mod formats;
mod sessions;

/// A listener that keeps every `--json` line, as `hook replay --json` would print it.
#[derive(Default)]
struct Collect {
    lines: RefCell<Vec<Value>>,
    read: RefCell<u64>,
    sessions: RefCell<Vec<(usize, usize)>>,
}

impl Listener for Collect {
    fn line(&self, line: &ReportLine) {
        self.lines
            .borrow_mut()
            .push(serde_json::to_value(line).unwrap());
    }
    fn read(&self, bytes: u64) {
        *self.read.borrow_mut() += bytes;
    }
    fn session_done(&self, done: usize, total: usize) {
        self.sessions.borrow_mut().push((done, total));
    }
}

pub(crate) fn fixture_file(agent: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay")
        .join(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.remove(0)
}

/// A guard that blocks any Bash command containing `needle` (exit 2, reason on stderr).
pub(crate) fn guard(dialect: Dialect, needle: &str) -> String {
    let command =
        format!("grep -q '{needle}' && {{ echo 'no {needle} here' >&2; exit 2; }} || exit 0");
    match dialect {
        Dialect::Verboo => json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string(),
        _ => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = {}\n",
            Value::from(command)
        ),
    }
}

/// A temporary folder with a project in it.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        Setup { dir }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Writes `entries` (one JSON value a line) as a transcript.
    fn transcript(&self, name: &str, entries: &[Value]) -> PathBuf {
        let text: String = entries.iter().map(|e| format!("{e}\n")).collect();
        self.write(name, &text)
    }

    /// `hook replay FILE --config CONFIG` with `hook replay`'s defaults.
    fn options(&self, dialect: Dialect, file: &Path, config: &Path) -> ReplayOptions {
        ReplayOptions {
            location: Location {
                dialect,
                project: Some(self.dir.path().join("project")),
                home: None,
                relay: false,
            },
            paths: vec![file.to_owned()],
            config: Some(config.to_owned()),
            compare: None,
            only: Vec::new(),
            trust_all_for_replay: false,
            events: ["PreToolUse", "PermissionRequest", "UserPromptSubmit"]
                .map(str::to_owned)
                .to_vec(),
            jobs: 4,
            stream: true,
            max_line_bytes: lines::DEFAULT_MAX_LINE,
            limit: 50,
            dry_run: false,
        }
    }
}

/// The `--json` lines of a replay (the summary last), and its warnings.
fn replay_json(options: ReplayOptions) -> (Vec<Value>, Vec<Warning>) {
    let mut prepared = prepare(options).unwrap();
    let warnings = std::mem::take(&mut prepared.warnings);
    let listener = Collect::default();
    let report = run(prepared, &listener).unwrap();
    let mut lines = listener.lines.into_inner();
    lines.push(serde_json::to_value(ReportLine::Summary(report.summary)).unwrap());
    (lines, warnings)
}

fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

fn summary(lines: &[Value]) -> &Value {
    let summaries = of_type(lines, "summary");
    assert_eq!(summaries.len(), 1);
    summaries[0]
}

/// (tool_use_id, subject) of each blocked event.
fn blocked(lines: &[Value]) -> Vec<(String, String)> {
    of_type(lines, "event")
        .into_iter()
        .filter(|e| e["result"]["decision"] == "block")
        .map(|e| {
            (
                e["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                e["subject"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// (event name, `field`) of each dispatched event, in order.
fn seen(lines: &[Value], field: &str) -> Vec<(String, String)> {
    of_type(lines, "event")
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_owned(),
                e[field].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn pair(event: &str, value: &str) -> (String, String) {
    (event.to_owned(), value.to_owned())
}
