//! The journal: what `hook run` and `hook relay` record ([`record`]), and reading it back for
//! `hook log`, `hook stats` and `hook doctor` (filters, `--since`, following the live file).
//!
//! Choices:
//!
//! - **Where**: `<state>/hook-journal/` of the hooks' state folder
//!   ([`hook_config::Discovery::state_dir`]: the dialect's home, `--home` replacing it; for the
//!   relay of Claude Code and Codex, its user folder beside the agent, `~/.claude/hook-relay/`,
//!   `$CODEX_HOME/hook-relay/`). `hook log` and `hook stats` read the journal of their location
//!   and, without `--relay`, the relay's too (the agent runs both: [`journals_of`]); `hook
//!   doctor` finds the agent's `PATH` in the relay's. The record format and its bounds are
//!   `hook_exec::journal`'s.
//! - **Created when first needed**: the relay's journal folder (and its state folder) is made
//!   by the first relayed event, inside the agent's home, so the first dispatch is recorded
//!   too ([`crate::ops::state::may_create`]). A dialect's own home that does not exist gets no
//!   journal: recording never creates the agent's home.
//! - **Off**: `HOOK_JOURNAL=off` (or `0`, `false`, `no`) in the environment of `hook run` /
//!   `hook relay` records nothing. There is no settings key: the journal belongs to the
//!   engine, not to a dialect's files, and an agent's settings can set the variable for its
//!   hooks (`env` in Claude Code's settings).
//! - **A journal that cannot be written** never changes the outcome or the exit code: it is
//!   returned as one warning for stderr (none when `hook relay`'s stderr is a block's reason,
//!   exit 2, so the model never reads it as part of the reason).
//! - **Reading** is `hook_exec::journal`'s bounded reader: lines are streamed (each capped at
//!   the line bound), never a whole file; `hook log` keeps only the newest `--limit` matches.
//! - **`--follow`** follows the live file across rotations as `tail -F` does
//!   (`hook_exec::journal::Follower`).
//! - **`--hook K --status S`**: K's own run had status S (another hook's block does not count).
//! - **Times** are UTC, as recorded; `--since` past the start of the calendar means the whole
//!   journal.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use hook_exec::journal::{Entry, Follower, Journal, JournalReader, Record, RunRecord, parse_time};
use hook_protocol::input::EventInput;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus};

use crate::ops::location::Location;

/// Whether `HOOK_JOURNAL` turns the journal off.
pub(crate) fn journal_off() -> bool {
    std::env::var("HOOK_JOURNAL").is_ok_and(|value| {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "off" | "0" | "false" | "no"
        )
    })
}

/// Records one dispatch of front end `front` (`run`, `relay`) in `<state>/hook-journal` of
/// `discovery`'s state folder, with `agent_path`, the `PATH` of an agent that started the relay (what `hook doctor` checks
/// hooks against; `None` for a run typed by hand, see
/// [`crate::ops::relay::answer::agent_path`]). Never fails: a journal that cannot be written is
/// returned as the warning to say on stderr (none when `exit_code` is 2: a relay's stderr on
/// exit 2 is the block's reason, and the model would read the warning there).
pub(crate) fn record(
    front: &str,
    discovery: &hook_config::Discovery,
    input: &EventInput,
    outcome: &Outcome,
    exit_code: Option<u8>,
    agent_path: Option<String>,
    agent: Option<&str>,
) -> Option<String> {
    // The agent's home is never created as a side effect (the relay's own folder in it is).
    if journal_off() || !crate::ops::state::may_create(discovery) {
        return None;
    }
    let mut record = Record::new(front, input, outcome);
    if let Some(path) = agent_path {
        record = record.with_path(path);
    }
    if let Some(code) = exit_code {
        record = record.with_exit_code(i32::from(code));
    }
    if let Some(agent) = agent {
        record = record.with_agent(agent);
    }
    match Journal::for_home(&discovery.state_dir).append(&record) {
        Err(error) if exit_code != Some(2) => Some(format!(
            "hook: warning: {error} (set HOOK_JOURNAL=off to stop recording)"
        )),
        _ => None,
    }
}

/// Where the journal of `location` is: `<state>/hook-journal`
/// ([`hook_config::Discovery::state_dir`]).
pub(crate) fn journal_of(location: &Location) -> Result<Journal> {
    let discovery = hook_config::discover(&location.load_options()?)
        .context("cannot find the dialect's home")?;
    Ok(Journal::for_home(&discovery.state_dir))
}

/// The journals of the hooks the agent runs at `location`: its own and, where the dialect has
/// a relay and `location` is not already the relay's, the relay's (a folder once). `location`'s
/// own comes first.
pub(crate) fn journals_of(location: &Location) -> Result<Vec<Journal>> {
    journals_of_locations(std::slice::from_ref(location))
}

/// The journals of each of `dialects` (its own hooks' and its relay's, [`journals_of`]) with
/// `--project` and `--home`, each folder once: what `hook log` and `hook stats` read without
/// `--agent`.
pub(crate) fn journals_of_dialects(
    dialects: &[Dialect],
    project: Option<&Path>,
    home: Option<&Path>,
) -> Result<Vec<Journal>> {
    let locations: Vec<Location> = dialects
        .iter()
        .map(|&dialect| Location {
            dialect,
            project: project.map(Path::to_path_buf),
            home: home.map(Path::to_path_buf),
            relay: false,
        })
        .collect();
    journals_of_locations(&locations)
}

/// The journals of `locations` and their relays, each folder once.
fn journals_of_locations(locations: &[Location]) -> Result<Vec<Journal>> {
    let mut journals: Vec<Journal> = Vec::new();
    for location in locations.iter().flat_map(crate::ops::location::with_relay) {
        let journal = journal_of(&location)?;
        if journals.iter().all(|known| known.dir() != journal.dir()) {
            journals.push(journal);
        }
    }
    Ok(journals)
}

/// What could not be read while reading a journal: whole files (and why), and lines by file
/// (how many, and the first one's line number and why).
#[derive(Debug, Default)]
pub(crate) struct ReadProblems {
    /// Files that could not be read at all, in the order met.
    pub(crate) files: Vec<(PathBuf, String)>,
    /// Per file, how many lines could not be read, and the first one's `line N: why`.
    pub(crate) lines: BTreeMap<PathBuf, (usize, String)>,
}

/// Every record `reader` gives (a journal's, oldest first), streamed to `each`; returns what
/// could not be read.
pub(crate) fn read_each(reader: &mut JournalReader, mut each: impl FnMut(Record)) -> ReadProblems {
    let mut problems = ReadProblems::default();
    for entry in reader.by_ref() {
        match entry {
            Entry::Record(record) => each(*record),
            Entry::Unreadable { file, line: 0, why } => problems.files.push((file, why)),
            Entry::Unreadable { file, line, why } => {
                let (count, _) = problems
                    .lines
                    .entry(file)
                    .or_insert_with(|| (0, format!("line {line}: {why}")));
                *count += 1;
            }
            // A kind of entry this reader does not know yet: left out.
            _ => {}
        }
    }
    problems
}

/// The largest window `--since` takes: beyond it, the number is refused as a typo.
pub(crate) const MAX_SINCE_SECONDS: u64 = 1_000_000 * 365 * 86_400;

/// `2h`, `30m`, `7d`, `90s`, `1w`: a window back from now (`--since`'s value parser).
pub(crate) fn parse_since(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let too_long = || {
        format!(
            "`{text}` is longer than any journal (at most a million years); leave --since out for the whole journal"
        )
    };
    let number: u64 = match number.parse() {
        Ok(number) => number,
        Err(_) if !number.is_empty() => return Err(too_long()),
        Err(_) => return Err(format!("`{text}` is not a duration such as 30m, 2h, 7d")),
    };
    let seconds = match unit {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => {
            return Err(format!(
                "`{text}`: the unit is s, m, h, d or w (30m, 2h, 7d)"
            ));
        }
    };
    match number.checked_mul(seconds) {
        Some(total) if total <= MAX_SINCE_SECONDS => Ok(Duration::from_secs(total)),
        _ => Err(too_long()),
    }
}

/// The earliest time (milliseconds since the epoch) a window of `since` back from now keeps;
/// 0 (everything) when it reaches before the epoch.
pub(crate) fn since_ms(since: Duration) -> u64 {
    let now = jiff::Timestamp::now().as_millisecond();
    let window = i64::try_from(since.as_millis()).unwrap_or(i64::MAX);
    u64::try_from(now.saturating_sub(window)).unwrap_or(0)
}

/// Whether `record` is older than `since` (milliseconds since the epoch), or has a time that
/// does not read as one.
pub(crate) fn before(record: &Record, since: u64) -> bool {
    parse_time(&record.time).is_none_or(|t| t < since)
}

/// The statuses `hook log --status` takes: a run's, or `blocked` for a blocking outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StatusFilter {
    /// A run that ran and was used.
    Ok,
    /// A run that blocked, or a dispatch whose decision is block.
    Blocked,
    /// A run that asked the agent to stop (`continue: false`).
    Stopped,
    /// A run that failed.
    Failed,
    /// A run that timed out.
    TimedOut,
    /// A run that was skipped.
    Skipped,
    /// A run started in the background.
    Async,
    /// A run that failed or timed out.
    Error,
}

impl StatusFilter {
    /// Whether `run` itself had this status.
    pub(crate) fn accepts(self, run: &RunRecord) -> bool {
        match self {
            StatusFilter::Ok => run.status == RunStatus::Ok,
            StatusFilter::Blocked => run.status == RunStatus::Blocked,
            StatusFilter::Stopped => run.status == RunStatus::Stopped,
            StatusFilter::Failed => run.status == RunStatus::Failed,
            StatusFilter::TimedOut => run.status == RunStatus::TimedOut,
            StatusFilter::Skipped => run.status == RunStatus::Skipped,
            StatusFilter::Async => run.status == RunStatus::Async,
            StatusFilter::Error => matches!(run.status, RunStatus::Failed | RunStatus::TimedOut),
        }
    }
}

/// What `--agent`/`--dialect`, `--event`, `--hook`, `--status`, `--since` and `--session`
/// keep.
#[derive(Debug, Default)]
pub(crate) struct Filter {
    /// Only dispatches of these dialects (empty: every one).
    pub(crate) dialects: Vec<Dialect>,
    /// Only dispatches of this event.
    pub(crate) event: Option<String>,
    /// Only dispatches in which the hook with this key matched.
    pub(crate) hook: Option<String>,
    /// Only dispatches with a run of this status (with `hook`: that hook's own run).
    pub(crate) status: Option<StatusFilter>,
    /// Only dispatches from this time on (milliseconds since the epoch).
    pub(crate) since_ms: Option<u64>,
    /// Only dispatches of this session.
    pub(crate) session: Option<String>,
}

impl Filter {
    /// Whether `record` is kept.
    pub(crate) fn accepts(&self, record: &Record) -> bool {
        if !self.dialects.is_empty() && !self.dialects.contains(&record.dialect) {
            return false;
        }
        if let Some(event) = &self.event
            && record.event.as_str() != event
        {
            return false;
        }
        if let Some(session) = &self.session
            && &record.session_id != session
        {
            return false;
        }
        if let Some(since) = self.since_ms
            && before(record, since)
        {
            return false;
        }
        let runs: Vec<&RunRecord> = record
            .runs
            .iter()
            .filter(|run| self.hook.as_ref().is_none_or(|key| &run.key == key))
            .collect();
        if self.hook.is_some() && runs.is_empty() {
            return false;
        }
        match self.status {
            None => true,
            // Without --hook, a dispatch whose outcome blocks is `blocked` too.
            Some(StatusFilter::Blocked) if self.hook.is_none() => {
                record.decision == Decision::Block
                    || runs.iter().any(|run| StatusFilter::Blocked.accepts(run))
            }
            // With --hook, the runs are that hook's: its own run had the status.
            Some(status) => runs.iter().any(|run| status.accepts(run)),
        }
    }
}

/// The newest dispatches of one or more journals that a [`Filter`] keeps.
#[derive(Debug)]
pub(crate) struct Selection {
    /// The kept records, oldest first (by time across journals).
    pub(crate) records: Vec<Record>,
    /// What could not be read.
    pub(crate) problems: ReadProblems,
    /// Whether no journal has a file at all (nothing recorded yet).
    pub(crate) no_journal: bool,
    /// Where the journals are, in the order given.
    pub(crate) dirs: Vec<PathBuf>,
    /// Where the reading of each journal ended: [`follow`] goes on from there, nothing twice,
    /// nothing missed.
    pub(crate) followers: Vec<Follower>,
}

/// The newest `limit` records of `journals` that `filter` keeps (0: all of them), oldest
/// first; only those are held while each journal streams by.
pub(crate) fn select(journals: &[Journal], filter: &Filter, limit: usize) -> Selection {
    let mut records = Vec::new();
    let mut problems = ReadProblems::default();
    let mut followers = Vec::new();
    for journal in journals {
        let mut kept: VecDeque<Record> = VecDeque::new();
        let mut reader = journal.read();
        let read = read_each(&mut reader, |record| {
            if filter.accepts(&record) {
                keep_newest(&mut kept, record, limit);
            }
        });
        problems.files.extend(read.files);
        problems.lines.extend(read.lines);
        records.extend(kept);
        followers.push(reader.into_follower());
    }
    if journals.len() > 1 {
        // Each journal is in time order; together, by time (a stable sort keeps a journal's
        // own order among equal times).
        records.sort_by_key(|record| parse_time(&record.time).unwrap_or(0));
        if limit > 0 && records.len() > limit {
            records.drain(..records.len() - limit);
        }
    }
    Selection {
        records,
        problems,
        no_journal: journals.iter().all(|j| j.existing_files().is_empty()),
        dirs: journals.iter().map(|j| j.dir().to_path_buf()).collect(),
        followers,
    }
}

/// Pushes `item` on `kept`, dropping the oldest when `limit` (not 0) are held already.
fn keep_newest<T>(kept: &mut VecDeque<T>, item: T, limit: usize) {
    if limit > 0 && kept.len() == limit {
        kept.pop_front();
    }
    kept.push_back(item);
}

/// Hands each record appended from now on that `filter` keeps to `each`, across rotations,
/// polling every journal every 200 ms, until `each` fails (or the process is interrupted).
pub(crate) fn follow(
    mut followers: Vec<Follower>,
    filter: &Filter,
    mut each: impl FnMut(&Record) -> Result<()>,
) -> Result<()> {
    loop {
        for follower in &mut followers {
            for entry in follower.poll() {
                if let Entry::Record(record) = entry
                    && filter.accepts(&record)
                {
                    each(&record)?;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A run's status as the journal spells it (`timed_out`).
pub(crate) fn status_name(status: RunStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{status:?}"))
}

/// A decision as the journal spells it (`block`).
pub(crate) fn decision_name(decision: Decision) -> String {
    serde_json::to_value(decision)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Why a run was skipped, as the journal spells it (`untrusted`); empty when not said.
pub(crate) fn skip_name(run: &RunRecord) -> String {
    run.skip_reason
        .and_then(|reason| serde_json::to_value(reason).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The last `lines` non-empty lines of a stderr excerpt.
pub(crate) fn tail(text: &str, lines: usize) -> Vec<&str> {
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].to_vec()
}

/// The `PATH` the latest `hook relay` dispatch an agent started recorded in `journals` ran
/// with (a run typed by hand records none), if any: the newest across them (the relay's journal beside the agent, and the dialect's,
/// where earlier versions recorded it).
pub(crate) fn recorded_path(journals: &[Journal]) -> RecordedPath {
    let mut recorded = RecordedPath::default();
    let newer = |time: &str, than: &Option<(String, String)>| {
        than.as_ref()
            .is_none_or(|(_, latest)| parse_time(time) >= parse_time(latest))
    };
    for journal in journals {
        let problems = read_each(&mut journal.read(), |record| {
            if let Some(path) = record.path
                && newer(&record.time, &recorded.latest)
            {
                recorded.latest = Some((path, record.time));
            }
        });
        recorded.problems.extend(problems.files);
        for (file, (count, first)) in problems.lines {
            recorded.problems.push((
                file,
                format!("{count} line(s) could not be read and are left out (first: {first})"),
            ));
        }
    }
    recorded
}

/// What [`recorded_path`] found in the journal.
#[derive(Debug, Default)]
pub(crate) struct RecordedPath {
    /// The newest `PATH` a dispatch recorded, and when.
    pub(crate) latest: Option<(String, String)>,
    /// The journal files (or lines) that could not be read, and why.
    pub(crate) problems: Vec<(PathBuf, String)>,
}

#[cfg(test)]
#[path = "journal/tests.rs"]
mod tests;
