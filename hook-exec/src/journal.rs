//! The journal: one JSON line per dispatch, so that "what did my hooks do today?" has an answer.
//!
//! A broken hook looks exactly like a quiet one to the agents (Claude Code drops the stderr of
//! an exit-0 hook; a guard whose `jq` is missing reads an empty command and allows). The engine
//! sees every run with its status, exit code, duration and stderr: the journal keeps that, and
//! `hook log`, `hook stats` and `hook doctor` read it.
//!
//! # What a line holds (and what it does not)
//!
//! A [`Record`]: the time (UTC, RFC 3339 with milliseconds), the front end that dispatched
//! (`run`, `relay`, `library`), dialect, event, session id, `cwd`, the tool name and a
//! **summary** of the input (the Bash `command`, else a `file_path`/`path`, else the prompt, cut
//! to [`SUMMARY_CHARS`] characters), the outcome's decision and reason (cut), whether the input
//! was rewritten, and per run ([`RunRecord`]): key, source layer and file, handler type, status,
//! skip reason, exit code, duration, the first and last bytes of its stderr
//! ([`hook_protocol::Run::stderr`]), the error, and whether it was *quiet* (ran, exit 0, and
//! nothing reached the agent: see [`RunRecord::quiet`]). `hook relay` also records the `PATH` it ran with (the agent's),
//! which `hook doctor` checks hooks against.
//!
//! **The event's full input is not recorded**, nor a hook's stdout, nor the context it added:
//! they may hold secrets (file contents, tokens in a command's environment, a prompt). The
//! summary may still show a secret typed into a Bash command line; the journal is private to
//! the user (below) and `HOOK_JOURNAL=off` turns it off.
//!
//! # Where and how it is written
//!
//! - **Folder**: `<home>/hook-journal/` (`hook run` and `hook relay` use the dialect's home),
//!   created 0700; an existing folder that is a symlink, not the user's, or writable by group
//!   or others is refused, as lime's side-file folder is ([`crate::context`]).
//! - **Files**: `journal.jsonl` (0600, opened `O_APPEND | O_NOFOLLOW`), then the rotated
//!   `journal.1.jsonl` … `journal.<n-1>.jsonl`, older each.
//! - **One `write` per line** with `O_APPEND`: concurrent processes (the hooks of one agent run
//!   at once) each add whole lines; Linux serialises appends to a regular file, so lines never
//!   interleave. A line is never longer than [`MAX_LINE_BYTES`]: past that the stderr excerpts,
//!   then the errors, are dropped from it, and it says so (`truncated: true`).
//! - **Rotation by size**: when the live file has reached [`Journal::max_file_bytes`] (default
//!   8 MiB) after a write, the writer takes `journal.lock` (an exclusive `flock`), checks the size
//!   again under it (another process may have rotated already), and renames the files one step
//!   older, dropping the oldest of [`Journal::files`] (default 4). A process that opened the old
//!   live file just before writes its line into what is now `journal.1.jsonl`: whole, and kept.
//!   The journal thus stays within about `files × max_file_bytes` (plus the lines in flight).
//! - **Never fails a dispatch**: [`Journal::append`] returns an error the caller may show once;
//!   the engine ignores it (and keeps the first for [`Journal::first_error`]).
//! - **Cheap**: an `open`, an `fstat` and a `write` per dispatch (and a `stat` of the folder):
//!   tens of microseconds, against milliseconds for the dispatch (BENCHMARKS.md).
//!
//! An embedder opts in with [`crate::EngineOptions::with_journal`]: every dispatch of that engine
//! is then recorded (front end `library`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use hook_protocol::{
    Decision, Dialect, Event, EventInput, HandlerType, Layer, Outcome, Run, RunStatus, SkipReason,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{SideFileError, private_folder};

/// The journal's folder under a dialect's home.
pub const JOURNAL_DIR: &str = "hook-journal";

/// The live journal file's name; rotated files are `journal.1.jsonl`, `journal.2.jsonl`...
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The default size at which the live file is rotated: 8 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The default number of files kept, the live one included: 4.
pub const DEFAULT_FILES: usize = 4;

/// How many characters of the input's summary, a reason or an error a line keeps.
pub const SUMMARY_CHARS: usize = 200;

/// The longest line written: 64 KiB (see the module docs).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why a line could not be added to the journal.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The folder is unsafe (a symlink, another user's, writable by others) or cannot be made.
    #[error("the hook journal is not kept: {}", folder_problem(.0))]
    Folder(#[source] SideFileError),
    /// The file could not be opened, written or rotated.
    #[error("the hook journal {path} cannot be written: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The record could not be serialized (never expected).
    #[error("the hook journal's line cannot be written: {0}")]
    Serialize(#[source] serde_json::Error),
}

/// What is wrong with the journal's folder, said of the journal (the check is the side-file
/// folder's).
fn folder_problem(error: &SideFileError) -> String {
    match error {
        SideFileError::Symlink { path } => format!(
            "its folder {} is a symbolic link; remove it (a private folder is created in its place)",
            path.display()
        ),
        SideFileError::NotADirectory { path } => format!(
            "its folder {} is not a directory; remove or rename it",
            path.display()
        ),
        SideFileError::ForeignOwner { path, owner } => format!(
            "its folder {} belongs to user {owner}, not to you; remove it",
            path.display()
        ),
        SideFileError::Writable { path, mode } => format!(
            "its folder {} is writable by group or others (mode {mode:o}); run `chmod 700 {}`",
            path.display(),
            path.display()
        ),
        other => other.to_string(),
    }
}

/// A journal: where dispatch records are appended (see the module docs).
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    max_file_bytes: u64,
    files: usize,
    first_error: Mutex<Option<String>>,
}

impl Journal {
    /// The journal in folder `dir`, with the default bounds (8 MiB × 4 files).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Journal {
            dir: dir.into(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            files: DEFAULT_FILES,
            first_error: Mutex::new(None),
        }
    }

    /// The journal of a dialect's home: `<home>/hook-journal`.
    pub fn for_home(home: &Path) -> Self {
        Journal::new(home.join(JOURNAL_DIR))
    }

    /// This journal rotating at `max_file_bytes` (at least 1) and keeping `files` files (at
    /// least 1, the live one included).
    pub fn with_limits(mut self, max_file_bytes: u64, files: usize) -> Self {
        self.max_file_bytes = max_file_bytes.max(1);
        self.files = files.max(1);
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size at which the live file is rotated.
    pub fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }

    /// How many files are kept, the live one included.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The journal's files that exist, newest first (the live one, then `.1`, `.2`...).
    pub fn existing_files(&self) -> Vec<PathBuf> {
        (0..self.files)
            .map(|n| self.file(n))
            .filter(|path| path.is_file())
            .collect()
    }

    /// The first error an [`append`](Self::append) met, if any (the engine ignores them).
    pub fn first_error(&self) -> Option<String> {
        self.first_error.lock().ok().and_then(|error| error.clone())
    }

    fn file(&self, n: usize) -> PathBuf {
        if n == 0 {
            self.dir.join(JOURNAL_FILE)
        } else {
            self.dir.join(format!("journal.{n}.jsonl"))
        }
    }

    /// Appends `record` as one line, in one `write`, rotating the files when the live one is
    /// full.
    ///
    /// # Errors
    ///
    /// [`JournalError`] when the folder is unsafe or the file cannot be written; nothing is
    /// retried. The first error is also kept for [`first_error`](Self::first_error).
    pub fn append(&self, record: &Record) -> Result<(), JournalError> {
        let result = self.append_inner(record);
        if let Err(error) = &result
            && let Ok(mut first) = self.first_error.lock()
            && first.is_none()
        {
            *first = Some(error.to_string());
        }
        result
    }

    fn append_inner(&self, record: &Record) -> Result<(), JournalError> {
        let line = record.to_line().map_err(JournalError::Serialize)?;
        private_folder(&self.dir).map_err(JournalError::Folder)?;
        let path = self.file(0);
        let write_error = |source| JournalError::Write {
            path: path.clone(),
            source,
        };
        let mut file = open_private(&path, true).map_err(write_error)?;
        file.write_all(line.as_bytes()).map_err(write_error)?;
        let size = file.metadata().map_err(write_error)?.len();
        drop(file);
        if size >= self.max_file_bytes {
            self.rotate().map_err(|source| JournalError::Write {
                path: self.dir.join("journal.lock"),
                source,
            })?;
        }
        Ok(())
    }

    /// Renames every file one step older under the lock, if the live file is still full.
    fn rotate(&self) -> std::io::Result<()> {
        let lock_path = self.dir.join("journal.lock");
        let lock = open_private(&lock_path, false)?;
        fs4::FileExt::lock(&lock)?;
        let result = (|| {
            let live = self.file(0);
            // Another process may have rotated while this one waited for the lock.
            let full = std::fs::symlink_metadata(&live)
                .map(|m| m.len() >= self.max_file_bytes)
                .unwrap_or(false);
            if !full {
                return Ok(());
            }
            if self.files == 1 {
                return std::fs::remove_file(&live);
            }
            for n in (1..self.files).rev() {
                let from = self.file(n - 1);
                if std::fs::symlink_metadata(&from).is_ok() {
                    // Over the older file of that name, dropping the oldest.
                    std::fs::rename(&from, self.file(n))?;
                }
            }
            Ok(())
        })();
        let _ = fs4::FileExt::unlock(&lock);
        result
    }
}

/// `path` opened for writing (created 0600 when missing, a symlink never followed): appending
/// for the journal's lines, or as is for the lock file.
fn open_private(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(false);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(nix::libc::O_NOFOLLOW);
    }
    options.open(path)
}

/// One dispatch, as a journal line (see the module docs for what is and is not kept).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Record {
    /// When the dispatch ended: UTC, RFC 3339 with milliseconds (`2026-12-03T19:16:17.123Z`).
    pub time: String,
    /// Who dispatched: `run` (`hook run`), `relay` (`hook relay`) or `library` (an embedder).
    pub front: String,
    /// The dialect.
    pub dialect: Dialect,
    /// The event.
    pub event: Event,
    /// The session id the agent gave (may be empty).
    pub session_id: String,
    /// The event's working directory.
    pub cwd: String,
    /// The tool, for tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// A short summary of the input: the command, else the path, else the prompt, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The outcome's decision.
    pub decision: Decision,
    /// The outcome's reason, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A hook rewrote the tool input.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewritten: bool,
    /// A hook asked the agent to stop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
    /// The `PATH` the front end ran with (`hook relay`: the agent's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The exit code the front end answered with (`hook relay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The line was cut to [`MAX_LINE_BYTES`]: stderr excerpts (then errors) were dropped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// One entry per matching handler, in configuration order.
    pub runs: Vec<RunRecord>,
}

/// One handler's part of a [`Record`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The handler's key.
    pub key: String,
    /// The layer it came from.
    pub layer: Layer,
    /// The file it was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The handler type.
    #[serde(rename = "type")]
    pub handler_type: HandlerType,
    /// What happened.
    pub status: RunStatus,
    /// Why it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<SkipReason>,
    /// Its exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The first and last bytes of its stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// What went wrong (or why it was skipped), cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// It ran and exited 0, and nothing reached the agent: no block (its status), no other
    /// decision, rewrite or stop in the dispatch, no context, no warning (its stderr does not count: the agents drop it on exit 0). On an
    /// event that can block, a guard that may have stopped guarding.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quiet: bool,
}

impl Record {
    /// The record of `outcome`, the result of dispatching `input`, by front end `front`
    /// (`run`, `relay`, `library`), timed now.
    pub fn new(front: &str, input: &EventInput, outcome: &Outcome) -> Self {
        let value = input.to_value();
        let tool = value
            .get("tool_name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        // What a run whose own status is `ok` may have given: a block is always its run's
        // `blocked`, so another hook's block does not make this one less quiet.
        let decided = !matches!(outcome.decision, Decision::Continue | Decision::Block)
            || outcome.updated_input.is_some()
            || outcome.stop;
        let runs = outcome
            .runs
            .iter()
            .map(|run| RunRecord::new(run, outcome, decided))
            .collect();
        Record {
            time: format_time(SystemTime::now()),
            front: front.to_owned(),
            dialect: outcome.dialect,
            event: outcome.event.clone(),
            session_id: input.session_id().to_owned(),
            cwd: input.cwd().to_owned(),
            tool,
            summary: summary(&value),
            decision: outcome.decision,
            reason: outcome.reason.as_deref().map(cut),
            rewritten: outcome.updated_input.is_some(),
            stop: outcome.stop,
            path: None,
            exit_code: None,
            truncated: false,
            runs,
        }
    }

    /// This record with the `PATH` the front end ran with.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// This record with the exit code the front end answered with.
    pub fn with_exit_code(mut self, code: i32) -> Self {
        self.exit_code = Some(code);
        self
    }

    /// The record as one JSON line (with its newline), at most [`MAX_LINE_BYTES`].
    ///
    /// # Errors
    ///
    /// When serde_json cannot serialize it (never expected).
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        let mut line = serde_json::to_string(self)?;
        if line.len() >= MAX_LINE_BYTES {
            let mut smaller = self.clone();
            smaller.truncated = true;
            for run in &mut smaller.runs {
                run.stderr = None;
            }
            line = serde_json::to_string(&smaller)?;
            if line.len() >= MAX_LINE_BYTES {
                for run in &mut smaller.runs {
                    run.error = None;
                }
                smaller.runs.truncate(200);
                line = serde_json::to_string(&smaller)?;
            }
        }
        line.push('\n');
        Ok(line)
    }
}

impl RunRecord {
    fn new(run: &Run, outcome: &Outcome, decided: bool) -> Self {
        let added_context = outcome
            .additional_contexts
            .iter()
            .any(|context| context.key == run.key);
        // stderr does not count: the agents drop an exit-0 hook's stderr (a guard whose `jq`
        // is missing says so there, exits 0, and allows).
        let quiet = run.status == RunStatus::Ok
            && run.exit_code == Some(0)
            && run.warnings.is_empty()
            && !added_context
            && !decided;
        RunRecord {
            key: run.key.clone(),
            layer: run.source.layer,
            file: run.source.path.clone(),
            handler_type: run.handler_type,
            status: run.status,
            skip_reason: run.skip_reason,
            exit_code: run.exit_code,
            duration_ms: run.duration_ms,
            stderr: run.stderr.clone(),
            error: run.error.as_deref().map(cut),
            quiet,
        }
    }
}

/// `text` cut to [`SUMMARY_CHARS`] characters (an ellipsis marks the cut).
fn cut(text: &str) -> String {
    match text.char_indices().nth(SUMMARY_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The command, else the path, else the prompt of an event, cut.
fn summary(value: &Value) -> Option<String> {
    let input = value.get("tool_input");
    let from_input = |name: &str| input.and_then(|i| i.get(name)).and_then(Value::as_str);
    let text = from_input("command")
        .or_else(|| from_input("file_path"))
        .or_else(|| from_input("path"))
        .or_else(|| from_input("url"))
        .or_else(|| from_input("pattern"))
        .or_else(|| value.get("file_path").and_then(Value::as_str))
        .or_else(|| value.get("prompt").and_then(Value::as_str))
        .or_else(|| value.get("source").and_then(Value::as_str))
        .or_else(|| value.get("reason").and_then(Value::as_str))?;
    Some(cut(text))
}

/// `time` as UTC RFC 3339 with milliseconds: `2026-12-03T19:16:17.123Z`.
pub fn format_time(time: SystemTime) -> String {
    let millis = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let millis = u64::try_from(millis).unwrap_or(u64::MAX);
    let (secs, ms) = (millis / 1000, millis % 1000);
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The milliseconds since the Unix epoch of a time [`format_time`] wrote (or any
/// `YYYY-MM-DDTHH:MM:SS[.fff]Z`); `None` for anything else.
pub fn parse_time(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || !text.ends_with('Z') {
        return None;
    }
    let number =
        |range: std::ops::Range<usize>| -> Option<u64> { text.get(range)?.parse::<u64>().ok() };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if bytes[4] != b'-' || bytes[7] != b'-' || bytes[10] != b'T' {
        return None;
    }
    let millis = match text.get(19..text.len() - 1) {
        Some("") => 0,
        Some(fraction) => {
            let digits = fraction.strip_prefix('.')?;
            let padded = format!("{digits:0<3}");
            padded.get(..3)?.parse::<u64>().ok()?
        }
        None => return None,
    };
    let days = days_from_civil(i64::try_from(year).ok()?, month, day);
    let secs = u64::try_from(days).ok()? * 86_400 + hour * 3600 + minute * 60 + second;
    Some(secs * 1000 + millis)
}

/// Howard Hinnant's `civil_from_days`: the date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u64, u64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        u64::try_from(month).unwrap_or(1),
        u64::try_from(day).unwrap_or(1),
    )
}

/// Howard Hinnant's `days_from_civil`: the day count since 1970-01-01 of a date.
fn days_from_civil(year: i64, month: u64, day: u64) -> i64 {
    let month = i64::try_from(month).unwrap_or(1);
    let day = i64::try_from(day).unwrap_or(1);
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip() {
        let at = UNIX_EPOCH + std::time::Duration::from_millis(1_796_325_377_123);
        let text = format_time(at);
        assert_eq!(text, "2026-12-03T19:16:17.123Z");
        assert_eq!(parse_time(&text), Some(1_796_325_377_123));
        assert_eq!(parse_time("2024-02-29T00:00:00Z"), Some(1_709_164_800_000));
        assert_eq!(parse_time("yesterday"), None);
    }

    fn record(stderr: &str) -> Record {
        let input = hook_protocol::input_from_value(
            Dialect::Verboo,
            serde_json::json!({
                "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
                "transcript_path": "/t", "tool_name": "Bash", "tool_use_id": "c",
                "tool_input": {"command": "ls"},
            }),
        )
        .expect("a valid input");
        let mut outcome = Outcome::new(Dialect::Verboo, Event::PreToolUse);
        let mut run = Run::new(
            "user:settings.json:PreToolUse:Bash:0",
            hook_protocol::Source::new(Layer::User),
            HandlerType::Command,
        );
        run.exit_code = Some(0);
        run.stderr = hook_protocol::stderr_excerpt(stderr.as_bytes());
        outcome.runs.push(run);
        Record::new("run", &input, &outcome)
    }

    #[test]
    fn lines_are_bounded_and_whole() {
        let line = record("").to_line().expect("serializes");
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let parsed: Record = serde_json::from_str(&line).expect("reads back");
        assert_eq!(parsed.summary.as_deref(), Some("ls"));
        assert!(parsed.runs[0].quiet);
        let mut big = record("x");
        for _ in 0..200 {
            big.runs.push(big.runs[0].clone());
        }
        for run in &mut big.runs {
            run.stderr = Some("e".repeat(1024));
        }
        let line = big.to_line().expect("serializes");
        assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
        assert!(line.contains("\"truncated\":true"));
    }

    #[test]
    fn rotation_keeps_the_size_bound() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = Journal::new(dir.path().join(JOURNAL_DIR)).with_limits(4096, 3);
        let record = record("some stderr");
        let line = record.to_line().expect("serializes").len() as u64;
        for _ in 0..500 {
            journal.append(&record).expect("appends");
        }
        let files = journal.existing_files();
        assert_eq!(files.len(), 3, "{files:?}");
        let mut lines = 0;
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            assert!(
                text.len() as u64 <= 4096 + line,
                "{} is {}",
                file.display(),
                text.len()
            );
            for row in text.lines() {
                serde_json::from_str::<Record>(row).expect("whole lines");
                lines += 1;
            }
        }
        assert!(lines > 0);
        assert!(
            !dir.path()
                .join(JOURNAL_DIR)
                .join("journal.3.jsonl")
                .exists()
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unsafe_folder_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("elsewhere");
        std::fs::create_dir(&target).expect("a folder");
        std::os::unix::fs::symlink(&target, dir.path().join(JOURNAL_DIR)).expect("a link");
        let journal = Journal::for_home(dir.path());
        let error = journal.append(&record("")).expect_err("refused");
        assert!(error.to_string().contains("symbolic link"), "{error}");
        assert!(journal.first_error().is_some());
        assert_eq!(std::fs::read_dir(&target).expect("readable").count(), 0);
    }
}
