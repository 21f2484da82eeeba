//! `hook stats`' figures: per hook over a window of the journal, runs, blocks, rewrites,
//! failures, time-outs, skips, duration percentiles, and the flags that say a hook needs a look.
//!
//! A `rewrite` is counted for every `ok` run of a dispatch whose input was rewritten (the
//! outcome says the input was rewritten, not by which hook); `never matched` is a configured
//! hook (the agent's or the relay's) with no run in the window. The relay's own entries in the
//! agent's settings (the `hook relay` commands `hook relay install` writes) are not hooks of
//! their own: the journal records the relay hooks they run, never the entry, so they are left
//! out of the configured hooks (else every one would be "never matched").
//!
//! **A dead guard is seen at once.** `failing now` flags a hook whose latest runs (one is
//! enough) did not do their job: failed (exit other than 0 or 2, could not start: a missing
//! program is exit 127), timed out, or skipped for a reason that is not deliberate (untrusted,
//! modified, invalid, no client for its type: [`SkipReason::is_deliberate`]), whatever it
//! did before in the window: a guard that blocked ten times and then lost its `jq` is flagged
//! on its first failing run. A run that worked (ok, blocked, stopped) ends the streak; an
//! async start or a deliberate skip (disabled, a settings switch, `chain_stopped`) leaves it as
//! it was. `always fails` (every run of at least `--min-runs` failed) says more and
//! replaces it.
//!
//! **A degraded guard too.** A hook whose latest run's stderr says a program is missing
//! (`jq: command not found`: [`hook_protocol::text::missing_program`]) is flagged `degraded`, even
//! when it exited 0: the relay and the agents take that exit as an allow (a warning, not a
//! block), but the guard did not look at the event.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use hook_exec::journal::Record;
use hook_protocol::{Dialect, Event, RunStatus, SkipReason};

use crate::ops::journal::{ReadProblems, before, read_each, skip_name, status_name, tail};
use crate::ops::location::Location;

/// What `hook stats` counts, and when it flags a hook.
#[derive(Debug, Clone)]
pub(crate) struct StatsOptions {
    /// Only dispatches from this time on (milliseconds since the epoch); `None`: all.
    pub(crate) since_ms: Option<u64>,
    /// A hook whose p95 duration is over this many milliseconds is flagged slow.
    pub(crate) slow_ms: u64,
    /// The fewest runs before "always fails" or "always exit 0 with no output" is said.
    pub(crate) min_runs: usize,
}

/// One hook's figures over the window.
#[derive(Debug, Default, serde::Serialize)]
pub(crate) struct HookStats {
    /// The agent, as `--agent` names it (`claude`), and its dialect.
    pub(crate) agent: &'static str,
    pub(crate) dialect: &'static str,
    pub(crate) key: String,
    pub(crate) events: Vec<String>,
    pub(crate) configured: bool,
    pub(crate) matched: usize,
    pub(crate) runs: usize,
    pub(crate) ok: usize,
    pub(crate) blocks: usize,
    pub(crate) rewrites: usize,
    pub(crate) failures: usize,
    pub(crate) timeouts: usize,
    pub(crate) quiet: usize,
    pub(crate) skips: BTreeMap<String, usize>,
    pub(crate) p50_ms: Option<u64>,
    pub(crate) p95_ms: Option<u64>,
    pub(crate) max_ms: Option<u64>,
    pub(crate) last_match: Option<String>,
    pub(crate) last_failure: Option<LastFailure>,
    /// How many of its latest runs in a row did not do their job (0: the latest did).
    pub(crate) failing_streak: usize,
    /// When the first of those ran.
    pub(crate) failing_since: Option<String>,
    /// The program its latest run's stderr says was missing
    /// ([`hook_protocol::text::missing_program`]): it did not do its job, whatever its exit.
    pub(crate) missing_program: Option<String>,
    /// When that run was.
    #[serde(skip)]
    missing_since: Option<String>,
    pub(crate) flags: Vec<String>,
    #[serde(skip)]
    durations: Vec<u64>,
    /// How each run of the streak ended (`failed`, `timed out`, `skipped (untrusted)`), each
    /// once, in the order met.
    #[serde(skip)]
    failing_kinds: Vec<String>,
    #[serde(skip)]
    can_block: bool,
}

/// A hook's latest failed or timed-out run.
#[derive(Debug, serde::Serialize)]
pub(crate) struct LastFailure {
    pub(crate) time: String,
    pub(crate) status: String,
    pub(crate) exit_code: Option<i32>,
    pub(crate) error: Option<String>,
    pub(crate) stderr_tail: Option<String>,
}

/// What `hook stats` found.
#[derive(Debug)]
pub(crate) struct StatsReport {
    /// Per hook, by key.
    pub(crate) hooks: Vec<HookStats>,
    /// Why the configured hooks could not all be listed (then hooks that never matched are
    /// missing).
    pub(crate) config_problems: Vec<String>,
    /// What could not be read in the journals.
    pub(crate) problems: ReadProblems,
    /// Where the journals are.
    pub(crate) journal_dirs: Vec<PathBuf>,
}

/// `hook stats`: per hook of each of `dialects` over the window (each dialect's hooks, then
/// the next's), with the flags that say a hook needs a look. `project` and `home` are
/// `--project` and `--home`.
pub(crate) fn stats(
    dialects: &[Dialect],
    project: Option<&Path>,
    home: Option<&Path>,
    options: &StatsOptions,
) -> Result<StatsReport> {
    let mut report = StatsReport {
        hooks: Vec::new(),
        config_problems: Vec::new(),
        problems: ReadProblems::default(),
        journal_dirs: Vec::new(),
    };
    for &dialect in dialects {
        let location = Location {
            dialect,
            project: project.map(Path::to_path_buf),
            home: home.map(Path::to_path_buf),
            relay: false,
        };
        let mut tally = Tally::new(dialect, options.since_ms);
        // The configured hooks, the agent's own and the relay's, so that one that never
        // matched is said.
        let (configured, config_problems) = configured_hooks(&location);
        for (key, event) in &configured {
            tally.configured(key, event);
        }
        report.config_problems.extend(config_problems);
        for journal in crate::ops::journal::journals_of_dialects(&[dialect], project, home)? {
            // A folder several dialects share (one `--home`) is read for each, its records
            // kept by their dialect; what could not be read is said once.
            let problems = read_each(&mut journal.read(), |record| tally.record(&record));
            for file in problems.files {
                if !report.problems.files.contains(&file) {
                    report.problems.files.push(file);
                }
            }
            report.problems.lines.extend(problems.lines);
            if !report.journal_dirs.iter().any(|dir| dir == journal.dir()) {
                report.journal_dirs.push(journal.dir().to_path_buf());
            }
        }
        let mut hooks = tally.finish(options);
        for hook in &mut hooks {
            hook.agent = crate::ops::agents::name(dialect);
            hook.dialect = dialect.as_str();
        }
        report.hooks.extend(hooks);
    }
    report.config_problems.dedup();
    Ok(report)
}

/// The figures being counted, by hook key.
#[derive(Debug)]
pub(crate) struct Tally {
    dialect: Dialect,
    since_ms: Option<u64>,
    by_key: BTreeMap<String, HookStats>,
}

impl Tally {
    /// An empty tally of `dialect`'s records from `since_ms` on.
    pub(crate) fn new(dialect: Dialect, since_ms: Option<u64>) -> Tally {
        Tally {
            dialect,
            since_ms,
            by_key: BTreeMap::new(),
        }
    }

    /// A configured hook: listed even when it never matched.
    pub(crate) fn configured(&mut self, key: &str, event: &str) {
        let stats = self.by_key.entry(key.to_owned()).or_default();
        stats.key = key.to_owned();
        stats.configured = true;
        if !stats.events.iter().any(|e| e == event) {
            stats.events.push(event.to_owned());
        }
        stats.can_block |= Event::from_name(event)
            .block_effect(self.dialect)
            .can_block();
    }

    /// One dispatch of the journal (another dialect's, or one before the window, is left out).
    pub(crate) fn record(&mut self, record: &Record) {
        if record.dialect != self.dialect {
            return;
        }
        if self.since_ms.is_some_and(|since| before(record, since)) {
            return;
        }
        for run in &record.runs {
            let stats = self.by_key.entry(run.key.clone()).or_default();
            stats.key.clone_from(&run.key);
            let event = record.event.to_string();
            if !stats.events.contains(&event) {
                stats.events.push(event);
            }
            stats.can_block |= record.event.block_effect(self.dialect).can_block();
            stats.matched += 1;
            stats.last_match = Some(record.time.clone());
            stats.streak(run, &record.time);
            stats.degraded(run, &record.time);
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
    }

    /// Every hook's figures, by key, with percentiles and flags.
    pub(crate) fn finish(self, options: &StatsOptions) -> Vec<HookStats> {
        let mut all: Vec<HookStats> = self.by_key.into_values().collect();
        for stats in &mut all {
            stats.durations.sort_unstable();
            stats.p50_ms = percentile(&stats.durations, 50);
            stats.p95_ms = percentile(&stats.durations, 95);
            stats.max_ms = stats.durations.last().copied();
            let ran = stats.runs;
            if stats.configured && stats.matched == 0 {
                stats.flags.push("never matched".into());
            }
            let always_fails = ran >= options.min_runs && stats.failures + stats.timeouts == ran;
            if always_fails {
                stats.flags.push("always fails".into());
            } else if let Some(flag) = stats.failing_now() {
                stats.flags.push(flag);
            }
            if let (Some(program), Some(time)) = (&stats.missing_program, &stats.missing_since) {
                stats.flags.push(format!(
                    "degraded: its latest run ({time}) says `{program}` is missing, so it did not do its job (an exit 0 of such a run stays an allow)"
                ));
            }
            if ran >= options.min_runs && stats.can_block && stats.quiet == ran {
                stats.flags.push(
                    "always exit 0 with no output on a blocking event (a guard that may have stopped guarding)"
                        .into(),
                );
            }
            if stats.p95_ms.is_some_and(|p95| p95 > options.slow_ms) {
                stats
                    .flags
                    .push(format!("slow (p95 over {} ms)", options.slow_ms));
            }
        }
        all
    }
}

impl HookStats {
    /// One more run of this hook, at `time`: the streak of runs that did not do their job
    /// grows, ends, or stays as it was.
    fn streak(&mut self, run: &hook_exec::journal::RunRecord, time: &str) {
        let kind = match run.status {
            RunStatus::Failed => "failed".to_owned(),
            RunStatus::TimedOut => "timed out".to_owned(),
            // The user's choice (disabled), a settings switch's, or the chain's.
            RunStatus::Skipped if run.skip_reason.is_some_and(SkipReason::is_deliberate) => {
                return;
            }
            // The guard did not guard: it waits for trust, changed since, is broken, or is of a
            // type that cannot run here (no client): every reason that is not deliberate.
            RunStatus::Skipped => format!("skipped ({})", skip_name(run)),
            RunStatus::Ok | RunStatus::Blocked | RunStatus::Stopped => {
                self.failing_streak = 0;
                self.failing_since = None;
                self.failing_kinds.clear();
                return;
            }
            // Started in the background: how it ends is not in the journal.
            _ => return,
        };
        if self.failing_streak == 0 {
            self.failing_since = Some(time.to_owned());
        }
        self.failing_streak += 1;
        if !self.failing_kinds.contains(&kind) {
            self.failing_kinds.push(kind);
        }
    }

    /// One more run of this hook, at `time`: whether its stderr says a program is missing. A
    /// run that never started (skipped) or ran in the background (async) says nothing of it.
    fn degraded(&mut self, run: &hook_exec::journal::RunRecord, time: &str) {
        if matches!(run.status, RunStatus::Skipped | RunStatus::Async) {
            return;
        }
        self.missing_program = run
            .stderr
            .as_deref()
            .and_then(hook_protocol::text::missing_program)
            .map(str::to_owned);
        self.missing_since = self.missing_program.as_ref().map(|_| time.to_owned());
    }

    /// The `failing now` flag, when the latest runs did not do their job.
    fn failing_now(&self) -> Option<String> {
        if self.failing_streak == 0 {
            return None;
        }
        let runs = match self.failing_streak {
            1 => "its latest run did not do its job".to_owned(),
            n => format!("its latest {n} runs did not do their job"),
        };
        let worked = self.ok + self.blocks;
        let before = if worked > 0 {
            format!(", after {worked} that worked")
        } else {
            String::new()
        };
        Some(format!(
            "failing now: {runs} ({}){before}, since {}",
            self.failing_kinds.join(", "),
            self.failing_since.as_deref().unwrap_or("-")
        ))
    }
}

/// The `p`th percentile (nearest rank) of `sorted`.
pub(crate) fn percentile(sorted: &[u64], p: usize) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted.get(rank - 1).copied()
}

/// Key and event of every configured hook: the agent's own and, where the dialect has a
/// relay, the relay's; and why some could not be listed. Diagnostics are not repeated here
/// (`hook list` and `hook doctor` say them).
fn configured_hooks(location: &Location) -> (Vec<(String, String)>, Vec<String>) {
    let mut keys = Vec::new();
    let mut problems = Vec::new();
    for location in crate::ops::expectations::with_relay(location) {
        let options = match location.load_options() {
            Ok(options) => options,
            Err(error) => {
                problems.push(format!("{error:#}"));
                return (keys, problems);
            }
        };
        match hook_config::load(&options) {
            Ok(loaded) => keys.extend(
                loaded
                    .registry
                    .handlers()
                    .iter()
                    // The relay's own entries: the journal records the hooks they run.
                    .filter(|h| {
                        !h.config
                            .command
                            .as_deref()
                            .is_some_and(|c| crate::ops::relay::is_relay_entry(c, location.dialect))
                    })
                    .map(|h| (h.key.clone(), h.event.to_string())),
            ),
            Err(error) => problems.push(format!("{error:#}")),
        }
    }
    keys.sort();
    keys.dedup();
    (keys, problems)
}

#[cfg(test)]
#[path = "stats/tests.rs"]
mod tests;
