//! The replay's tally: each session's [`SessionLog`] (its events' results, per-hook counts
//! and durations, its bad lines), summed by [`Tally`] into the finished [`ReplayReport`]: the
//! totals, and the events whose outcome is not `continue` (or, with `--compare`, whose outcome
//! differs) for the text report to list.
//!
//! With `--json`, every event's line and every bad line goes to the [`Listener`] as soon as it
//! is known (each line names its session, so sessions replayed at once may interleave), so
//! memory does not grow with the history.
//!
//! Per hook, `rewritten` counts the events whose combined outcome rewrote the input and whose
//! last run in configuration order that ended `ok` was this hook's (the engine keeps the last
//! rewrite in config order); `context_added` comes from the outcome's per-hook contexts.

use std::collections::BTreeMap;
use std::time::Duration;

use hook_protocol::{Dialect, Outcome, RunStatus};
use serde_json::Value;

use super::Listener;
use super::engines::left_out;
use super::lines::BadLine;
use super::rebuild::{MAX_SKIPPED_TYPES, OTHER_TYPES};
use super::report::{
    EventRecord, HookRun, HookStats, ReportLine, Result1, Summary, Verdict, json_word, subject,
};

/// Counts by name (events rebuilt, decisions, bad lines by kind), in name order.
pub(crate) type Counts = BTreeMap<String, u64>;

/// What one session's replay produced. Only the events the text report lists are kept; with
/// `--json` every event's line goes to the listener as soon as it is dispatched (see the
/// module docs).
pub(crate) struct SessionLog<'a> {
    pub(crate) file: String,
    pub(crate) session: String,
    pub(crate) lines: u64,
    /// The first [`KEEP_BAD`] bad lines (with `--json`, none: each goes to the listener at once).
    bad: Vec<BadLine>,
    bad_count: u64,
    bad_by_kind: Counts,
    /// Entries of types the reader does not model, by type (not bad lines).
    pub(crate) skipped: Counts,
    pub(crate) rebuilt: Counts,
    pub(crate) after_block: u64,
    pub(crate) cwd_replaced: u64,
    /// `--json`: events and bad lines go to this listener, not kept.
    stream: Option<&'a dyn Listener>,
    events: u64,
    decisions: Counts,
    rewritten: u64,
    context_added: u64,
    notable: Vec<EventRecord>,
    notable_count: u64,
    /// Per configuration, per hook.
    hooks: Vec<BTreeMap<String, HookStats>>,
}

impl<'a> SessionLog<'a> {
    /// The log of the transcript `file` replayed through `configurations` engines; with
    /// `stream`, its events and bad lines go there as they are known.
    pub(crate) fn new(
        file: String,
        configurations: usize,
        stream: Option<&'a dyn Listener>,
    ) -> Self {
        SessionLog {
            file,
            session: String::new(),
            lines: 0,
            bad: Vec::new(),
            bad_count: 0,
            bad_by_kind: Counts::new(),
            skipped: Counts::new(),
            rebuilt: Counts::new(),
            after_block: 0,
            cwd_replaced: 0,
            stream,
            events: 0,
            decisions: Counts::new(),
            rewritten: 0,
            context_added: 0,
            notable: Vec::new(),
            notable_count: 0,
            hooks: vec![BTreeMap::new(); configurations],
        }
    }

    /// Records lines that were not replayed.
    pub(crate) fn add_bad(&mut self, bad: impl IntoIterator<Item = BadLine>) {
        for bad in bad {
            self.bad_count += 1;
            *self.bad_by_kind.entry(json_word(&bad.kind)).or_default() += 1;
            if let Some(listener) = self.stream {
                listener.line(&ReportLine::BadLine(bad));
            } else if self.bad.len() < KEEP_BAD {
                self.bad.push(bad);
            }
        }
    }

    /// Records one dispatched event and its outcome under each configuration.
    pub(crate) fn record(
        &mut self,
        session: &str,
        line: u64,
        time: Option<String>,
        event: &str,
        input: &Value,
        outcomes: Vec<(Outcome, Duration)>,
    ) {
        let mut results = Vec::new();
        for ((outcome, took), hooks) in outcomes.into_iter().zip(self.hooks.iter_mut()) {
            results.push(result_of(&outcome, took, hooks));
        }
        let mut results = results.into_iter();
        let Some(result) = results.next() else {
            return;
        };
        let record = EventRecord {
            session: session.to_owned(),
            file: self.file.clone(),
            line,
            time,
            event: event.to_owned(),
            tool: input["tool_name"].as_str().map(str::to_owned),
            tool_use_id: input["tool_use_id"].as_str().map(str::to_owned),
            subject: subject(input),
            result,
            compared: results.next(),
        };
        self.events += 1;
        *self
            .decisions
            .entry(record.result.decision.word().to_owned())
            .or_default() += 1;
        self.rewritten += u64::from(record.result.rewritten);
        self.context_added += u64::from(record.result.context_added);
        let notable = match &record.compared {
            Some(other) => record.result.differs(other),
            None => record.result.decision != Verdict::Continue || record.result.stop,
        };
        self.notable_count += u64::from(notable);
        if let Some(listener) = self.stream {
            // Given now; the text report's list is not kept.
            listener.line(&ReportLine::Event(record));
        } else if notable {
            self.notable.push(record);
        }
    }
}

fn result_of(
    outcome: &Outcome,
    took: Duration,
    hooks: &mut BTreeMap<String, HookStats>,
) -> Result1 {
    let runs: Vec<&hook_protocol::Run> = outcome.runs.iter().filter(|run| !left_out(run)).collect();
    let rewriter = outcome
        .updated_input
        .as_ref()
        .and_then(|_| runs.iter().rev().find(|r| r.status == RunStatus::Ok))
        .map(|r| r.key.clone());
    let mut shown = Vec::new();
    for run in &runs {
        let stats = hooks.entry(run.key.clone()).or_insert_with(|| HookStats {
            key: run.key.clone(),
            ..HookStats::default()
        });
        stats.matched += 1;
        match run.status {
            RunStatus::Blocked => stats.blocked += 1,
            RunStatus::Failed => stats.failed += 1,
            RunStatus::TimedOut => stats.timed_out += 1,
            RunStatus::Skipped => stats.skipped += 1,
            _ => {}
        }
        if rewriter.as_deref() == Some(run.key.as_str()) {
            stats.rewritten += 1;
        }
        if outcome.additional_contexts.iter().any(|c| c.key == run.key) {
            stats.context_added += 1;
        }
        if let Some(ms) = run.duration_ms
            && run.status != RunStatus::Skipped
        {
            stats.durations.push(ms);
        }
        shown.push(HookRun {
            key: run.key.clone(),
            status: json_word(&run.status),
            skip_reason: run.skip_reason.as_ref().map(json_word),
            duration_ms: run.duration_ms,
            error: run.error.clone(),
        });
    }
    Result1 {
        decision: outcome.decision.into(),
        reason: outcome
            .reason
            .clone()
            .or_else(|| outcome.stop_reason.clone()),
        rewritten: outcome.updated_input.is_some(),
        context_added: outcome.additional_context.is_some(),
        stop: outcome.stop,
        duration_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        hooks: shown,
    }
}

/// Every session's log summed up.
pub(crate) struct Tally {
    limit: usize,
    dialect: Dialect,
    compare: bool,
    sessions: u64,
    lines: u64,
    rebuilt: Counts,
    events: u64,
    decisions: Counts,
    rewritten: u64,
    context_added: u64,
    after_block: u64,
    cwd_replaced: u64,
    bad: Vec<BadLine>,
    bad_count: u64,
    bad_by_kind: Counts,
    skipped: Counts,
    hooks: Vec<BTreeMap<String, HookStats>>,
    /// The events the text report lists (not `continue`, or differing).
    notable: Vec<EventRecord>,
    notable_count: u64,
}

/// A finished replay: its totals, and what the text report lists.
pub(crate) struct ReplayReport {
    /// The totals (`--json`'s last line).
    pub(crate) summary: Summary,
    /// `--compare`: `notable` holds the events whose outcome differs.
    pub(crate) compare: bool,
    /// How many of `notable` and of `bad` the text report lists (`--limit`).
    pub(crate) limit: usize,
    /// The events not `continue` (or differing), most recent first; at least the `limit` most
    /// recent (without `--json`; with it, none are kept).
    pub(crate) notable: Vec<EventRecord>,
    /// How many events are notable, listed or not.
    pub(crate) notable_count: u64,
    /// The first bad lines (without `--json`).
    pub(crate) bad: Vec<BadLine>,
}

/// How many bad lines the report keeps to list (every one is counted).
const KEEP_BAD: usize = 1000;

impl Tally {
    pub(crate) fn new(dialect: Dialect, compare: bool, limit: usize) -> Self {
        Tally {
            limit,
            dialect,
            compare,
            sessions: 0,
            lines: 0,
            rebuilt: Counts::new(),
            events: 0,
            decisions: Counts::new(),
            rewritten: 0,
            context_added: 0,
            after_block: 0,
            cwd_replaced: 0,
            bad: Vec::new(),
            bad_count: 0,
            bad_by_kind: Counts::new(),
            skipped: Counts::new(),
            hooks: vec![BTreeMap::new(); if compare { 2 } else { 1 }],
            notable: Vec::new(),
            notable_count: 0,
        }
    }

    /// Adds one session.
    pub(crate) fn add(&mut self, log: SessionLog<'_>) {
        self.sessions += 1;
        self.lines += log.lines;
        for (name, count) in log.rebuilt {
            *self.rebuilt.entry(name).or_default() += count;
        }
        self.after_block += log.after_block;
        self.cwd_replaced += log.cwd_replaced;
        for (mine, theirs) in self.hooks.iter_mut().zip(log.hooks) {
            for (key, stats) in theirs {
                let total = mine.entry(key.clone()).or_insert_with(|| HookStats {
                    key,
                    ..HookStats::default()
                });
                total.matched += stats.matched;
                total.blocked += stats.blocked;
                total.rewritten += stats.rewritten;
                total.context_added += stats.context_added;
                total.failed += stats.failed;
                total.timed_out += stats.timed_out;
                total.skipped += stats.skipped;
                total.durations.extend(stats.durations);
            }
        }
        self.events += log.events;
        for (decision, count) in log.decisions {
            *self.decisions.entry(decision).or_default() += count;
        }
        self.rewritten += log.rewritten;
        self.context_added += log.context_added;
        self.notable_count += log.notable_count;
        self.notable.extend(log.notable);
        // Only the `--limit` most recent are listed: keep those, so a guard that blocks
        // everything does not hold the whole history.
        if self.notable.len() > 2 * self.limit.max(1) {
            self.notable.sort_by(|a, b| b.time.cmp(&a.time));
            self.notable.truncate(self.limit);
        }
        self.bad_count += log.bad_count;
        for (kind, count) in log.skipped {
            let known = self.skipped.len() < MAX_SKIPPED_TYPES || self.skipped.contains_key(&kind);
            let kind = if known { kind } else { OTHER_TYPES.to_owned() };
            *self.skipped.entry(kind).or_default() += count;
        }
        for (kind, count) in log.bad_by_kind {
            *self.bad_by_kind.entry(kind).or_default() += count;
        }
        for bad in log.bad {
            if self.bad.len() < KEEP_BAD {
                self.bad.push(bad);
            }
        }
    }

    /// Computes the totals.
    pub(crate) fn finish(mut self, files: usize, bytes: u64, took: Duration) -> ReplayReport {
        let seconds = took.as_secs_f64();
        let mut hooks = self.hooks.iter_mut().map(|stats| {
            stats
                .values_mut()
                .map(|h| {
                    h.durations.sort_unstable();
                    h.p50_ms = percentile(&h.durations, 50);
                    h.p95_ms = percentile(&h.durations, 95);
                    h.clone()
                })
                .collect::<Vec<_>>()
        });
        let main = hooks.next().unwrap_or_default();
        let compared = hooks.next();
        let summary = Summary {
            dialect: self.dialect.to_string(),
            files: files as u64,
            sessions: self.sessions,
            lines: self.lines,
            bytes,
            rebuilt: self.rebuilt,
            events: self.events,
            decisions: self.decisions,
            rewritten: self.rewritten,
            context_added: self.context_added,
            skipped_after_block: self.after_block,
            cwd_replaced: self.cwd_replaced,
            bad_lines: self.bad_count,
            bad_by_kind: self.bad_by_kind,
            skipped_entries: self.skipped,
            hooks: main,
            compared_hooks: compared,
            differing: self.compare.then_some(self.notable_count),
            // Known to the engines, not to the sessions: set by `run`.
            not_replayed: Vec::new(),
            seconds,
            events_per_second: if seconds > 0.0 {
                self.events as f64 / seconds
            } else {
                0.0
            },
        };
        self.notable.sort_by(|a, b| b.time.cmp(&a.time));
        ReplayReport {
            summary,
            compare: self.compare,
            limit: self.limit,
            notable: self.notable,
            notable_count: self.notable_count,
            bad: self.bad,
        }
    }
}

/// The `p`th percentile (nearest rank) of sorted `values`.
fn percentile(values: &[u64], p: usize) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let rank = (p * values.len()).div_ceil(100).max(1);
    values.get(rank - 1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        assert_eq!(percentile(&[], 50), None);
        assert_eq!(percentile(&[7], 95), Some(7));
        let values: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&values, 50), Some(50));
        assert_eq!(percentile(&values, 95), Some(95));
    }
}
