//! The journal from the command line: what `hook run` and `hook relay` record
//! ([`record`]), and `hook log` and `hook stats`, which read it back.
//!
//! Choices:
//!
//! - **Where**: `<home>/hook-journal/` of the dialect's home (`--home` replaces it), for
//!   `hook run` and `hook relay` alike; `hook log`, `hook stats` and `hook doctor` read the
//!   same folder. The record format and its bounds are `hook_exec::journal`'s. A home that does
//!   not exist gets no journal: recording never creates the agent's home.
//! - **Stats** count a `rewrite` for every `ok` run of a dispatch whose input was rewritten
//!   (the outcome says the input was rewritten, not by which hook); `never matched` is a
//!   configured hook (the agent's or the relay's) with no run in the window.
//! - **Off**: `HOOK_JOURNAL=off` (or `0`, `false`, `no`) in the environment of `hook run` /
//!   `hook relay` records nothing. There is no settings key: the journal belongs to the
//!   engine, not to a dialect's files, and an agent's settings can set the variable for its
//!   hooks (`env` in Claude Code's settings).
//! - **A journal that cannot be written** never changes the outcome or the exit code: it is
//!   said once on stderr (`hook relay` says nothing when its stderr is a block's reason, exit 2,
//!   so the model never reads it as part of the reason).
//! - **Reading** is `hook_exec::journal`'s bounded reader: lines are streamed (each capped at
//!   the line bound), never a whole file; `hook log` keeps only the newest `--limit` matches.
//! - **`--follow`** follows the live file across rotations as `tail -F` does
//!   (`hook_exec::journal::Follower`).
//! - **`--hook K --status S`**: K's own run had status S (another hook's block does not count).
//! - **Times** are shown in UTC, as recorded; `--since` past the start of the calendar means
//!   the whole journal.
//! - **Colour** only when stdout is a terminal and `NO_COLOR` is unset; every value is escaped
//!   (`terminal::one_line`) before colour codes are put around it.

use std::collections::{BTreeMap, VecDeque};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use hook_exec::journal::{Entry, Journal, JournalReader, Record, RunRecord, parse_time};
use hook_protocol::{Decision, EventInput, Outcome, RunStatus};

use crate::engine_commands::Location;
use crate::ui::terminal::{errln, one_line, outln, print_exact, println_exact};

/// Whether `HOOK_JOURNAL` turns the journal off.
pub(crate) fn journal_off() -> bool {
    std::env::var("HOOK_JOURNAL").is_ok_and(|value| {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "off" | "0" | "false" | "no"
        )
    })
}

/// Records one dispatch of front end `front` (`run`, `relay`) in `<home>/hook-journal`. Never
/// fails: a journal that cannot be written is said on stderr (unless `quiet`).
pub(crate) fn record(
    front: &str,
    home: &Path,
    input: &EventInput,
    outcome: &Outcome,
    exit_code: Option<u8>,
) {
    // No home, no journal: the dialect's home is not created as a side effect.
    if journal_off() || !home.is_dir() {
        return;
    }
    let mut record = Record::new(front, input, outcome);
    if front == "relay"
        && let Ok(path) = std::env::var("PATH")
    {
        // What `hook doctor` checks hooks against: the agent's PATH, as its hooks get it.
        record = record.with_path(path);
    }
    if let Some(code) = exit_code {
        record = record.with_exit_code(i32::from(code));
    }
    if let Err(error) = Journal::for_home(home).append(&record) {
        // A relay's stderr on exit 2 is the block's reason: the model would read this there.
        if exit_code != Some(2) {
            errln!("hook: warning: {error} (set HOOK_JOURNAL=off to stop recording)");
        }
    }
}

/// Where the journal of `location` is: `<home>/hook-journal`.
fn journal_of(location: &Location) -> Result<Journal> {
    let discovery = hook_config::discover(&location.load_options()?)
        .context("cannot find the dialect's home")?;
    Ok(Journal::for_home(&discovery.home))
}

/// Every record `reader` gives (a journal's, oldest first), streamed to `each`; returns how
/// many lines could not be read (a file that cannot be read is said on stderr).
fn read_each(reader: &mut JournalReader, mut each: impl FnMut(Record)) -> Unreadable {
    let mut unreadable = Unreadable::default();
    for entry in reader.by_ref() {
        match entry {
            Entry::Record(record) => each(*record),
            Entry::Unreadable { file, line: 0, why } => {
                errln!("warning: cannot read {}: {why}", file.display());
            }
            Entry::Unreadable { file, line, why } => {
                let (count, _) = unreadable
                    .by_file
                    .entry(file)
                    .or_insert_with(|| (0, format!("line {line}: {why}")));
                *count += 1;
            }
            // A kind of entry this reader does not know yet: left out.
            _ => {}
        }
    }
    unreadable
}

/// The journal lines that could not be read, by file: how many, and the first one's line
/// number and why.
#[derive(Debug, Default)]
struct Unreadable {
    by_file: BTreeMap<PathBuf, (usize, String)>,
}

impl Unreadable {
    /// One warning line per file, naming it and the first line's reason.
    fn warn(&self) {
        for (file, (count, first)) in &self.by_file {
            errln!(
                "warning: {count} journal line(s) of {} could not be read and are left out (first: {first})",
                file.display()
            );
        }
    }
}

/// The largest window `--since` takes: beyond it, the number is refused as a typo.
const MAX_SINCE_SECONDS: u64 = 1_000_000 * 365 * 86_400;

/// `2h`, `30m`, `7d`, `90s`, `1w`: a window back from now.
fn parse_since(text: &str) -> Result<Duration, String> {
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
fn since_ms(since: Duration) -> u64 {
    let now = jiff::Timestamp::now().as_millisecond();
    let window = i64::try_from(since.as_millis()).unwrap_or(i64::MAX);
    u64::try_from(now.saturating_sub(window)).unwrap_or(0)
}

/// The statuses `--status` takes: a run's, or `blocked`/`block` for a blocking outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StatusFilter {
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
    fn accepts(self, run: &RunRecord) -> bool {
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

#[derive(Debug, Args)]
pub(crate) struct LogArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// Only dispatches of this event (e.g. PreToolUse).
    #[arg(long)]
    event: Option<String>,
    /// Only dispatches in which the hook with this key matched.
    #[arg(long, value_name = "KEY")]
    hook: Option<String>,
    /// Only dispatches with a run of this status (with --hook: that hook's own run; without,
    /// `blocked` also takes a blocking outcome; `error` is failed or timed out).
    #[arg(long, value_enum)]
    status: Option<StatusFilter>,
    /// Only dispatches of the last 30m, 2h, 7d...
    #[arg(long, value_parser = parse_since, value_name = "AGE")]
    since: Option<Duration>,
    /// Only dispatches of this session.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// At most this many dispatches (newest first); 0 for all.
    #[arg(long, short = 'n', default_value_t = 50)]
    limit: usize,
    /// JSON lines, exactly as recorded (`hook_exec::journal::Record`; JSON Schema:
    /// `hook-cli/schemas/journal-record.schema.json`).
    #[arg(long)]
    json: bool,
    /// Print the latest dispatches oldest first, then each new one as it is recorded, until
    /// interrupted.
    #[arg(long)]
    follow: bool,
}

/// What `--event`, `--hook`, `--status`, `--since` and `--session` keep.
struct Filter {
    event: Option<String>,
    hook: Option<String>,
    status: Option<StatusFilter>,
    since_ms: Option<u64>,
    session: Option<String>,
}

impl Filter {
    fn accepts(&self, record: &Record) -> bool {
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
            && parse_time(&record.time).is_none_or(|t| t < since)
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

/// `hook log`: the journal, newest first, one line a dispatch.
pub(crate) fn log(args: LogArgs) -> Result<ExitCode> {
    let journal = journal_of(&args.location.location())?;
    let filter = Filter {
        event: args.event.clone(),
        hook: args.hook.clone(),
        status: args.status,
        since_ms: args.since.map(since_ms),
        session: args.session.clone(),
    };
    // Only the newest `limit` matches are kept while the journal streams by.
    let mut kept: VecDeque<Record> = VecDeque::new();
    let mut reader = journal.read();
    let unreadable = read_each(&mut reader, |record| {
        if filter.accepts(&record) {
            if args.limit > 0 && kept.len() == args.limit {
                kept.pop_front();
            }
            kept.push_back(record);
        }
    });
    unreadable.warn();
    let style = Style::detect();
    if !args.follow {
        kept.make_contiguous().reverse();
        if kept.is_empty() && !args.json {
            if journal.existing_files().is_empty() {
                outln!(
                    "no journal yet in {} (hook run and hook relay write it; HOOK_JOURNAL=off turns it off)",
                    journal.dir().display()
                );
            } else {
                outln!("no dispatch matches");
            }
        }
    }
    for record in &kept {
        show(record, args.json, style, filter.hook.as_deref())?;
    }
    if args.follow {
        // On from where the reading ended: nothing twice, nothing missed.
        follow(reader.into_follower(), &filter, args.json, style)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the records appended from now on, across rotations, until interrupted.
fn follow(
    mut follower: hook_exec::journal::Follower,
    filter: &Filter,
    json: bool,
    style: Style,
) -> Result<()> {
    loop {
        for entry in follower.poll() {
            if let Entry::Record(record) = entry
                && filter.accepts(&record)
            {
                show(&record, json, style, filter.hook.as_deref())?;
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// ANSI colour, when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    colour: bool,
}

impl Style {
    pub(crate) fn detect() -> Style {
        Style {
            colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    /// `text` escaped, in colour `code` (an SGR parameter such as `31`) when colour is on.
    pub(crate) fn paint(self, code: &str, text: &str) -> String {
        let text = one_line(text);
        if self.colour && !code.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.into_owned()
        }
    }
}

const RED: &str = "31";
const GREEN: &str = "32";
const YELLOW: &str = "33";
const DIM: &str = "2";
const BOLD: &str = "1";

fn status_colour(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Ok | RunStatus::Async => GREEN,
        RunStatus::Blocked | RunStatus::Stopped => BOLD,
        RunStatus::Skipped => YELLOW,
        _ => RED,
    }
}

fn status_name(status: RunStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{status:?}"))
}

fn decision_name(decision: Decision) -> String {
    serde_json::to_value(decision)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn skip_name(run: &RunRecord) -> String {
    run.skip_reason
        .and_then(|reason| serde_json::to_value(reason).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The last `lines` non-empty lines of a stderr excerpt.
fn tail(text: &str, lines: usize) -> Vec<&str> {
    let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    all[all.len().saturating_sub(lines)..].to_vec()
}

/// One dispatch: a header line, then a line per run (only `hook`'s when given).
fn show(record: &Record, json: bool, style: Style, hook: Option<&str>) -> Result<()> {
    if json {
        println_exact(&serde_json::to_string(record)?);
        return Ok(());
    }
    let time = record.time.replacen('T', " ", 1);
    let decision = decision_name(record.decision);
    let decision_colour = match record.decision {
        Decision::Block => RED,
        Decision::Continue => DIM,
        _ => GREEN,
    };
    let mut header = format!(
        "{} {} {} {}",
        style.paint(DIM, &time),
        style.paint(BOLD, &record.event.to_string()),
        record.dialect,
        style.paint(decision_colour, &decision),
    );
    if record.rewritten {
        header.push_str(&style.paint(YELLOW, " rewritten"));
    }
    if let Some(tool) = &record.tool {
        header.push(' ');
        header.push_str(&style.paint(BOLD, tool));
    }
    if let Some(summary) = &record.summary {
        header.push_str(&format!(" {}", style.paint("", &format!("`{summary}`"))));
    }
    let session = if record.session_id.is_empty() {
        String::new()
    } else {
        format!(" session {}", record.session_id)
    };
    header.push_str(&style.paint(DIM, &format!("  ({}{session})", record.front)));
    print_exact(&format!("{header}\n"));
    if let Some(reason) = &record.reason
        && record.decision != Decision::Continue
    {
        print_exact(&format!("    reason: {}\n", style.paint("", reason)));
    }
    for run in &record.runs {
        if hook.is_some_and(|key| key != run.key) {
            continue;
        }
        let mut line = format!(
            "  {} {}",
            style.paint(
                status_colour(run.status),
                &format!("{:<9}", status_name(run.status))
            ),
            style.paint("", &run.key)
        );
        if run.status == RunStatus::Skipped {
            line.push_str(&style.paint(YELLOW, &format!(" ({})", skip_name(run))));
        }
        if let Some(code) = run.exit_code {
            line.push_str(&format!(" exit {code}"));
        }
        if let Some(ms) = run.duration_ms {
            line.push_str(&format!(" {ms} ms"));
        }
        if run.quiet {
            line.push_str(&style.paint(DIM, " (no effect)"));
        }
        print_exact(&format!("{line}\n"));
        let failed = matches!(run.status, RunStatus::Failed | RunStatus::TimedOut);
        if (failed || run.status == RunStatus::Skipped)
            && let Some(error) = &run.error
        {
            print_exact(&format!("      {}\n", style.paint(DIM, error)));
        }
        // Every run's stderr tail: the agents drop it on exit 0, where a broken guard says why.
        if let Some(stderr) = &run.stderr {
            // What the error already quotes is not said twice.
            let quoted = run.error.as_deref().unwrap_or("");
            let colour = if run.status == RunStatus::Ok {
                YELLOW
            } else {
                RED
            };
            for line in tail(stderr, 3).into_iter().filter(|l| !quoted.contains(l)) {
                print_exact(&format!(
                    "      {} {}\n",
                    style.paint(DIM, "stderr:"),
                    style.paint(colour, line)
                ));
            }
        }
    }
    Ok(())
}

#[derive(Debug, Args)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// The window: the last 30m, 2h, 7d... (default: the whole journal).
    #[arg(long, value_parser = parse_since, value_name = "AGE")]
    since: Option<Duration>,
    /// A hook whose p95 duration is over this many milliseconds is flagged slow.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    slow_ms: u64,
    /// The fewest runs before "always fails" or "always exit 0 with no output" is said.
    #[arg(long, value_name = "N", default_value_t = 3)]
    min_runs: usize,
    /// JSON: an array of per-hook statistics.
    #[arg(long)]
    json: bool,
}

/// One hook's figures over the window.
#[derive(Debug, Default, serde::Serialize)]
struct HookStats {
    key: String,
    events: Vec<String>,
    configured: bool,
    matched: usize,
    runs: usize,
    ok: usize,
    blocks: usize,
    rewrites: usize,
    failures: usize,
    timeouts: usize,
    quiet: usize,
    skips: BTreeMap<String, usize>,
    p50_ms: Option<u64>,
    p95_ms: Option<u64>,
    max_ms: Option<u64>,
    last_match: Option<String>,
    last_failure: Option<LastFailure>,
    flags: Vec<String>,
    #[serde(skip)]
    durations: Vec<u64>,
    #[serde(skip)]
    can_block: bool,
}

#[derive(Debug, serde::Serialize)]
struct LastFailure {
    time: String,
    status: String,
    exit_code: Option<i32>,
    error: Option<String>,
    stderr_tail: Option<String>,
}

fn percentile(sorted: &[u64], p: usize) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// `hook stats`: per hook over `--since`, with the flags that say a hook needs a look.
pub(crate) fn stats(args: StatsArgs) -> Result<ExitCode> {
    let journal = journal_of(&args.location.location())?;
    let since = args.since.map(since_ms);
    let dialect = args.location.dialect;
    let mut by_key: BTreeMap<String, HookStats> = BTreeMap::new();
    // The configured hooks, the agent's own and the relay's, so that one that never matched
    // is said.
    let configured = configured_hooks(&args.location.location());
    for (key, event) in &configured {
        let stats = by_key.entry(key.clone()).or_default();
        stats.key.clone_from(key);
        stats.configured = true;
        if !stats.events.contains(event) {
            stats.events.push(event.clone());
        }
        stats.can_block |= hook_protocol::Event::from_name(event)
            .block_effect(dialect)
            .can_block();
    }
    let unreadable = read_each(&mut journal.read(), |record| {
        if record.dialect != dialect {
            return;
        }
        if since.is_some_and(|since| parse_time(&record.time).is_none_or(|t| t < since)) {
            return;
        }
        for run in &record.runs {
            let stats = by_key.entry(run.key.clone()).or_default();
            stats.key.clone_from(&run.key);
            let event = record.event.to_string();
            if !stats.events.contains(&event) {
                stats.events.push(event);
            }
            stats.can_block |= record.event.block_effect(dialect).can_block();
            stats.matched += 1;
            stats.last_match = Some(record.time.clone());
            match run.status {
                RunStatus::Skipped => {
                    *stats.skips.entry(skip_name(run)).or_default() += 1;
                    continue;
                }
                RunStatus::Async => {}
                RunStatus::Ok => stats.ok += 1,
                // A stop (`continue: false`) is the hook deciding, as a block is.
                RunStatus::Blocked | RunStatus::Stopped => stats.blocks += 1,
                RunStatus::Failed => stats.failures += 1,
                RunStatus::TimedOut => stats.timeouts += 1,
                _ => {}
            }
            stats.runs += 1;
            if run.quiet {
                stats.quiet += 1;
            }
            if record.rewritten && run.status == RunStatus::Ok {
                stats.rewrites += 1;
            }
            if let Some(ms) = run.duration_ms {
                stats.durations.push(ms);
            }
            if matches!(run.status, RunStatus::Failed | RunStatus::TimedOut) {
                stats.last_failure = Some(LastFailure {
                    time: record.time.clone(),
                    status: status_name(run.status),
                    exit_code: run.exit_code,
                    error: run.error.clone(),
                    stderr_tail: run.stderr.as_deref().map(|s| tail(s, 3).join("\n")),
                });
            }
        }
    });
    unreadable.warn();
    let mut all: Vec<HookStats> = by_key.into_values().collect();
    for stats in &mut all {
        stats.durations.sort_unstable();
        stats.p50_ms = percentile(&stats.durations, 50);
        stats.p95_ms = percentile(&stats.durations, 95);
        stats.max_ms = stats.durations.last().copied();
        let ran = stats.runs;
        if stats.configured && stats.matched == 0 {
            stats.flags.push("never matched".into());
        }
        if ran >= args.min_runs && stats.failures + stats.timeouts == ran {
            stats.flags.push("always fails".into());
        }
        if ran >= args.min_runs && stats.can_block && stats.quiet == ran {
            stats.flags.push(
                "always exit 0 with no output on a blocking event (a guard that may have stopped guarding)"
                    .into(),
            );
        }
        if stats.p95_ms.is_some_and(|p95| p95 > args.slow_ms) {
            stats
                .flags
                .push(format!("slow (p95 over {} ms)", args.slow_ms));
        }
    }
    if args.json {
        println_exact(&serde_json::to_string_pretty(&all)?);
        return Ok(ExitCode::SUCCESS);
    }
    if all.is_empty() {
        outln!(
            "no hooks configured and nothing in {}",
            journal.dir().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    print_table(&all);
    let style = Style::detect();
    for stats in &all {
        if stats.flags.is_empty() && stats.last_failure.is_none() {
            continue;
        }
        print_exact(&format!("{}\n", style.paint(BOLD, &stats.key)));
        for flag in &stats.flags {
            print_exact(&format!(
                "  {} {}\n",
                style.paint(YELLOW, "!"),
                one_line(flag)
            ));
        }
        if let Some(failure) = &stats.last_failure {
            let mut line = format!(
                "  last failure {} {}",
                one_line(&failure.time),
                failure.status
            );
            if let Some(code) = failure.exit_code {
                line.push_str(&format!(" (exit {code})"));
            }
            if let Some(error) = &failure.error {
                line.push_str(&format!(": {error}"));
            }
            outln!("{line}");
            for stderr in failure.stderr_tail.iter().flat_map(|s| s.lines()) {
                print_exact(&format!(
                    "    {} {}\n",
                    style.paint(DIM, "stderr:"),
                    style.paint(RED, stderr)
                ));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Key and event of every configured hook: the agent's own and, where the dialect has a
/// relay, the relay's. Diagnostics are not repeated here (`hook list` and `hook doctor` say
/// them).
fn configured_hooks(location: &Location) -> Vec<(String, String)> {
    let mut keys = Vec::new();
    for location in crate::expectations::with_relay(location) {
        let options = match location.load_options() {
            Ok(options) => options,
            Err(error) => {
                errln!("warning: {error:#}; hooks that never matched are not listed");
                return keys;
            }
        };
        match hook_config::load(&options) {
            Ok(loaded) => keys.extend(
                loaded
                    .registry
                    .handlers()
                    .iter()
                    .map(|h| (h.key.clone(), h.event.to_string())),
            ),
            Err(error) => {
                errln!("warning: {error:#}; hooks that never matched are not listed");
            }
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

fn print_table(all: &[HookStats]) {
    use comfy_table::{Table, presets};
    let mut table = Table::new();
    table.load_preset(presets::UTF8_BORDERS_ONLY).set_header([
        "hook",
        "runs",
        "block",
        "rewrite",
        "fail",
        "t/o",
        "skip",
        "p50",
        "p95",
        "max",
        "last match",
    ]);
    crate::ui::table::fit(&mut table);
    let ms = |v: Option<u64>| v.map(|v| format!("{v} ms")).unwrap_or_else(|| "-".into());
    for stats in all {
        let skips: usize = stats.skips.values().sum();
        let skip_text = if skips == 0 {
            "0".to_owned()
        } else {
            let reasons: Vec<String> = stats
                .skips
                .iter()
                .map(|(reason, n)| format!("{n} {reason}"))
                .collect();
            reasons.join(", ")
        };
        table.add_row([
            one_line(&stats.key).into_owned(),
            stats.runs.to_string(),
            stats.blocks.to_string(),
            stats.rewrites.to_string(),
            stats.failures.to_string(),
            stats.timeouts.to_string(),
            skip_text,
            ms(stats.p50_ms),
            ms(stats.p95_ms),
            ms(stats.max_ms),
            stats
                .last_match
                .as_deref()
                .map(short_time)
                .unwrap_or_else(|| "never".into()),
        ]);
    }
    print_exact(&format!("{table}\n"));
}

/// `2026-12-03T19:55:06.906Z` as `12-03 19:55`; a time that does not read as one is shown
/// escaped (a line's `time` is whatever the file holds).
fn short_time(time: &str) -> String {
    match time.parse::<jiff::Timestamp>() {
        Ok(at) => at.strftime("%m-%d %H:%M").to_string(),
        Err(_) => one_line(time).into_owned(),
    }
}

/// The `PATH` the latest `hook relay` dispatch of this home ran with (the agent's), if any.
pub(crate) fn recorded_path(home: &Path) -> RecordedPath {
    let journal = Journal::for_home(home);
    let mut recorded = RecordedPath::default();
    let mut unreadable: BTreeMap<PathBuf, (usize, String)> = BTreeMap::new();
    for entry in journal.read() {
        match entry {
            Entry::Record(record) => {
                if let Some(path) = record.path {
                    recorded.latest = Some((path, record.time));
                }
            }
            Entry::Unreadable { file, line: 0, why } => {
                recorded.problems.push((file, why));
            }
            Entry::Unreadable { file, line, why } => {
                let (count, _) = unreadable
                    .entry(file)
                    .or_insert_with(|| (0, format!("line {line}: {why}")));
                *count += 1;
            }
            _ => {}
        }
    }
    for (file, (count, first)) in unreadable {
        recorded.problems.push((
            file,
            format!("{count} line(s) could not be read and are left out (first: {first})"),
        ));
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
mod tests {
    use super::*;

    #[test]
    fn windows_and_percentiles() {
        assert_eq!(parse_since("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_since("30m"), Ok(Duration::from_secs(1800)));
        assert!(parse_since("soon").is_err());
        let error = parse_since("9999999999999w").expect_err("too long");
        assert!(error.contains("leave --since out"), "{error}");
        assert!(parse_since("99999999999999999999999d").is_err());
        assert_eq!(since_ms(Duration::from_secs(MAX_SINCE_SECONDS)), 0);
        assert_eq!(short_time("2026-12-03T19:55:06.906Z"), "12-03 19:55");
        assert_eq!(short_time("\x1b[2Jx"), "\\x1b[2Jx");
        let sorted: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&sorted, 50), Some(50));
        assert_eq!(percentile(&sorted, 95), Some(95));
        assert_eq!(percentile(&[7], 95), Some(7));
    }
}
