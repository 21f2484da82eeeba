//! The replay's report: per-session logs summed into totals, per-hook counts and durations,
//! the events whose outcome is not `continue` (or, with `--compare`, whose outcome differs),
//! printed as text or as JSON Lines.
//!
//! `--json` writes one object per line, each with a `type`: `event` (every dispatched event,
//! session by session, in order), `bad_line`, then one `summary`. The line types derive their
//! JSON Schema (schemars); the committed `hook-cli/schemas/replay-report.schema.json` is checked
//! against it by the test suite (`hook replay --schema` prints it). It lives beside the CLI, not
//! in `hook-protocol/schemas/`: it describes this command's output, not the hook wire protocol
//! `cargo xtask schemas` generates from `hook-protocol`'s types.
//!
//! Per hook, `rewritten` counts the events whose combined outcome rewrote the input and whose
//! last run in configuration order that ended `ok` was this hook's (the engine keeps the last
//! rewrite in config order); `context_added` comes from the outcome's per-hook contexts.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Result;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::Counts;
use super::lines::BadLine;
use crate::ui::terminal::{outln, println_exact};

/// How long a cut tool call or reason may be in the report.
const CUT: usize = 120;

/// A decision, as the outcome gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Verdict {
    /// Nothing to say: the agent goes on.
    Continue,
    /// Allowed explicitly.
    Allow,
    /// The user is asked.
    Ask,
    /// Deferred to the agent's own decision.
    Defer,
    /// Blocked (a deny is a block).
    Block,
}

impl From<Decision> for Verdict {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Continue => Verdict::Continue,
            Decision::Allow => Verdict::Allow,
            Decision::Ask => Verdict::Ask,
            Decision::Defer => Verdict::Defer,
            Decision::Block => Verdict::Block,
        }
    }
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Continue => "continue",
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Defer => "defer",
            Verdict::Block => "block",
        }
    }
}

/// What one configuration made of one event.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Result1 {
    /// The combined decision.
    pub(crate) decision: Verdict,
    /// The reason given with it (a hook's), if any.
    pub(crate) reason: Option<String>,
    /// The input was rewritten (`updated_input`).
    pub(crate) rewritten: bool,
    /// Context for the model was added.
    pub(crate) context_added: bool,
    /// A hook asked the agent to stop (`continue: false`).
    pub(crate) stop: bool,
    /// How long the dispatch took, in milliseconds.
    pub(crate) duration_ms: u64,
    /// Each matching hook's run.
    pub(crate) hooks: Vec<HookRun>,
}

impl Result1 {
    /// Whether two configurations' results differ in what the agent would do.
    fn differs(&self, other: &Result1) -> bool {
        (self.decision, self.rewritten, self.context_added, self.stop)
            != (
                other.decision,
                other.rewritten,
                other.context_added,
                other.stop,
            )
    }
}

/// One hook's run on one event.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HookRun {
    /// The hook's key (`hook list`).
    pub(crate) key: String,
    /// `ok`, `blocked`, `failed`, `timed_out`, `skipped` or `async`.
    pub(crate) status: String,
    /// Why it was skipped (`untrusted`, `modified`, `disabled`...).
    pub(crate) skip_reason: Option<String>,
    /// How long it ran, in milliseconds.
    pub(crate) duration_ms: Option<u64>,
    /// What went wrong, for a failed or skipped run.
    pub(crate) error: Option<String>,
}

/// One dispatched event.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EventRecord {
    /// The session id.
    pub(crate) session: String,
    /// The transcript file.
    pub(crate) file: String,
    /// The line of the entry the event was rebuilt from.
    pub(crate) line: u64,
    /// The entry's timestamp, as recorded.
    pub(crate) time: Option<String>,
    /// The event name.
    pub(crate) event: String,
    /// The tool, for tool events.
    pub(crate) tool: Option<String>,
    /// The tool call's id, for tool events.
    pub(crate) tool_use_id: Option<String>,
    /// What the event is about, cut to 120 characters: the command, the file path, the prompt.
    pub(crate) subject: Option<String>,
    /// The configuration's result.
    pub(crate) result: Result1,
    /// With `--compare`: the other configuration's result.
    pub(crate) compared: Option<Result1>,
}

/// One hook's totals.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HookStats {
    /// The hook's key.
    pub(crate) key: String,
    /// Events it matched (it ran, or was skipped with a reason).
    pub(crate) matched: u64,
    /// Runs that blocked.
    pub(crate) blocked: u64,
    /// Events whose input it rewrote.
    pub(crate) rewritten: u64,
    /// Runs that added context for the model.
    pub(crate) context_added: u64,
    /// Runs that failed.
    pub(crate) failed: u64,
    /// Runs that timed out.
    pub(crate) timed_out: u64,
    /// Runs skipped (untrusted, modified, disabled, unsupported...).
    pub(crate) skipped: u64,
    /// Median duration of its runs, in milliseconds.
    pub(crate) p50_ms: Option<u64>,
    /// 95th percentile of its runs' durations, in milliseconds.
    pub(crate) p95_ms: Option<u64>,
    #[serde(skip)]
    #[schemars(skip)]
    durations: Vec<u64>,
}

/// The totals of a replay.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Summary {
    /// `verboo` or `lime`.
    pub(crate) dialect: String,
    /// Transcript files read.
    pub(crate) files: u64,
    /// Sessions replayed (one per file).
    pub(crate) sessions: u64,
    /// Lines read.
    pub(crate) lines: u64,
    /// Bytes read.
    pub(crate) bytes: u64,
    /// Events rebuilt, by name (dispatched or not).
    pub(crate) rebuilt: BTreeMap<String, u64>,
    /// Events dispatched.
    pub(crate) events: u64,
    /// Dispatched events by decision.
    pub(crate) decisions: BTreeMap<String, u64>,
    /// Events whose input was rewritten.
    pub(crate) rewritten: u64,
    /// Events that got context for the model.
    pub(crate) context_added: u64,
    /// Events of a call a replayed PreToolUse blocked, not dispatched.
    pub(crate) skipped_after_block: u64,
    /// Events whose recorded `cwd` no longer exists, dispatched with the project's.
    pub(crate) cwd_replaced: u64,
    /// Lines not replayed.
    pub(crate) bad_lines: u64,
    /// Lines not replayed, by why.
    pub(crate) bad_by_kind: BTreeMap<String, u64>,
    /// Per hook, in key order.
    pub(crate) hooks: Vec<HookStats>,
    /// With `--compare`: the other configuration's hooks.
    pub(crate) compared_hooks: Option<Vec<HookStats>>,
    /// With `--compare`: events whose outcome differs.
    pub(crate) differing: Option<u64>,
    /// Wall time of the replay, in seconds.
    pub(crate) seconds: f64,
    /// Dispatched events per second.
    pub(crate) events_per_second: f64,
}

/// One line of `hook replay --json`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ReportLine {
    /// A dispatched event and its outcome.
    Event(EventRecord),
    /// A line that was not replayed.
    BadLine(BadLine),
    /// The totals, last.
    Summary(Summary),
}

/// The schema of one `--json` line, as committed.
///
/// # Errors
///
/// Never in practice (a schema always serializes).
pub(crate) fn schema_text() -> Result<String> {
    let mut schema = serde_json::to_value(schemars::schema_for!(ReportLine))?;
    if let Some(object) = schema.as_object_mut() {
        object.insert(
            "title".into(),
            "One line of `hook replay --json` (JSON Lines)".into(),
        );
    }
    Ok(serde_json::to_string_pretty(&schema)?)
}

/// What one session's replay produced. Only the events the text report lists are kept; with
/// `--json` every event's line is written as soon as it is dispatched (each line names its
/// session, so sessions replayed at once may interleave), so memory does not grow with the
/// history.
pub(crate) struct SessionLog {
    pub(crate) file: String,
    pub(crate) session: String,
    pub(crate) lines: u64,
    /// The first [`KEEP_BAD`] bad lines (with `--json`, none: each is written at once).
    bad: Vec<BadLine>,
    bad_count: u64,
    bad_by_kind: Counts,
    pub(crate) rebuilt: Counts,
    pub(crate) after_block: u64,
    pub(crate) cwd_replaced: u64,
    json: bool,
    events: u64,
    decisions: Counts,
    rewritten: u64,
    context_added: u64,
    notable: Vec<EventRecord>,
    notable_count: u64,
    /// Per configuration, per hook.
    hooks: Vec<BTreeMap<String, HookStats>>,
}

impl SessionLog {
    pub(crate) fn new(file: String, configurations: usize, json: bool) -> Self {
        SessionLog {
            file,
            session: String::new(),
            lines: 0,
            bad: Vec::new(),
            bad_count: 0,
            bad_by_kind: Counts::new(),
            rebuilt: Counts::new(),
            after_block: 0,
            cwd_replaced: 0,
            json,
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
            if self.json {
                emit(&ReportLine::BadLine(bad));
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
        if self.json {
            // Written now; the text report's list is not kept.
            emit(&ReportLine::Event(record));
        } else if notable {
            self.notable.push(record);
        }
    }
}

/// The one-line subject of an event: a command, a path, a prompt, a patch's first file.
fn subject(input: &Value) -> Option<String> {
    let tool_input = &input["tool_input"];
    let text = if let Some(prompt) = input["prompt"].as_str() {
        prompt.to_owned()
    } else if let Some(command) = tool_input["command"].as_str() {
        command.to_owned()
    } else if let Some(path) = tool_input["file_path"]
        .as_str()
        .or_else(|| tool_input["path"].as_str())
        .or_else(|| tool_input["url"].as_str())
        .or_else(|| tool_input["pattern"].as_str())
    {
        path.to_owned()
    } else if let Some(message) = input["last_assistant_message"].as_str() {
        message.to_owned()
    } else if tool_input.is_null() {
        return None;
    } else {
        tool_input.to_string()
    };
    Some(cut(&text))
}

/// `text` on one line, at most [`CUT`] characters (an ellipsis marks a cut).
fn cut(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    if flat.chars().count() <= CUT {
        return flat.to_owned();
    }
    let mut out: String = flat.chars().take(CUT - 1).collect();
    out.push('…');
    out
}

fn result_of(
    outcome: &Outcome,
    took: Duration,
    hooks: &mut BTreeMap<String, HookStats>,
) -> Result1 {
    let runs: Vec<&hook_protocol::Run> = outcome
        .runs
        .iter()
        .filter(|run| run.error.as_deref() != Some(super::NOT_SELECTED))
        .collect();
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

/// A serde enum's word (`timed_out`, `untrusted`).
fn json_word(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Every session's log summed up.
pub(crate) struct Report {
    limit: usize,
    dialect: Dialect,
    compare: bool,
    json: bool,
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
    hooks: Vec<BTreeMap<String, HookStats>>,
    /// The events the text report lists (not `continue`, or differing).
    notable: Vec<EventRecord>,
    notable_count: u64,
    summary: Option<Summary>,
}

/// How many bad lines the report keeps to list (every one is counted).
const KEEP_BAD: usize = 1000;

impl Report {
    pub(crate) fn new(dialect: Dialect, compare: bool, json: bool, limit: usize) -> Self {
        Report {
            limit,
            dialect,
            compare,
            json,
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
            hooks: vec![BTreeMap::new(); if compare { 2 } else { 1 }],
            notable: Vec::new(),
            notable_count: 0,
            summary: None,
        }
    }

    /// Adds one session (with `--json`, its bad lines are written now).
    pub(crate) fn add(&mut self, log: SessionLog) {
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
    pub(crate) fn finish(&mut self, files: usize, bytes: u64, took: Duration) {
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
        self.summary = Some(Summary {
            dialect: self.dialect.to_string(),
            files: files as u64,
            sessions: self.sessions,
            lines: self.lines,
            bytes,
            rebuilt: self.rebuilt.clone(),
            events: self.events,
            decisions: self.decisions.clone(),
            rewritten: self.rewritten,
            context_added: self.context_added,
            skipped_after_block: self.after_block,
            cwd_replaced: self.cwd_replaced,
            bad_lines: self.bad_count,
            bad_by_kind: self.bad_by_kind.clone(),
            hooks: main,
            compared_hooks: compared,
            differing: self.compare.then_some(self.notable_count),
            seconds,
            events_per_second: if seconds > 0.0 {
                self.events as f64 / seconds
            } else {
                0.0
            },
        });
    }

    /// Prints the report: the summary line with `--json`, else the text report.
    ///
    /// # Errors
    ///
    /// Never in practice (serializing the summary).
    pub(crate) fn print(&mut self) -> Result<()> {
        let limit = self.limit;
        let Some(summary) = self.summary.take() else {
            return Ok(());
        };
        if self.json {
            emit(&ReportLine::Summary(summary));
            return Ok(());
        }
        let decisions = if summary.decisions.is_empty() {
            String::new()
        } else {
            format!(" ({})", counts(&summary.decisions))
        };
        outln!(
            "Replayed {} session{} ({} line{}, {}) in {:.1} s: {} event{} dispatched{decisions}, {} bad line{}.",
            summary.sessions,
            plural(summary.sessions),
            summary.lines,
            plural(summary.lines),
            size(summary.bytes),
            summary.seconds,
            summary.events,
            plural(summary.events),
            summary.bad_lines,
            plural(summary.bad_lines),
        );
        let rebuilt = counts(&summary.rebuilt);
        if !rebuilt.is_empty() {
            outln!("Rebuilt from the transcripts: {rebuilt}.");
        }
        if summary.skipped_after_block > 0 {
            outln!(
                "Not dispatched: {} later event{} of calls a replayed PreToolUse blocked.",
                summary.skipped_after_block,
                plural(summary.skipped_after_block),
            );
        }
        if summary.cwd_replaced > 0 {
            outln!(
                "{} event{} recorded a cwd that no longer exists: dispatched with the project's.",
                summary.cwd_replaced,
                plural(summary.cwd_replaced),
            );
        }
        let skipped: u64 = summary.hooks.iter().map(|h| h.skipped).sum();
        if skipped > 0 {
            outln!(
                "{skipped} run{} skipped (untrusted, modified or disabled hooks are reported, not run: \
                 trust them, or pass --trust-all-for-replay).",
                plural(skipped)
            );
        }
        hook_table("Hooks", &summary.hooks);
        if let Some(other) = &summary.compared_hooks {
            hook_table("Hooks of the compared configuration", other);
        }
        self.notable.sort_by(|a, b| b.time.cmp(&a.time));
        let title = if self.compare {
            format!(
                "{} event{} whose outcome differs",
                self.notable_count,
                plural(self.notable_count)
            )
        } else {
            format!(
                "{} event{} not `continue`",
                self.notable_count,
                plural(self.notable_count)
            )
        };
        outln!();
        if self.notable.is_empty() {
            outln!("{title}.");
        } else {
            outln!("{title}, most recent first:");
        }
        for event in self.notable.iter().take(limit) {
            let what = match (&event.tool, &event.subject) {
                (Some(tool), Some(subject)) => format!("{tool} `{subject}`"),
                (Some(tool), None) => tool.clone(),
                (None, Some(subject)) => format!("`{subject}`"),
                (None, None) => String::new(),
            };
            outln!(
                "  {}  {}  {} {}",
                event.time.as_deref().unwrap_or("-"),
                short(&event.session),
                event.event,
                what
            );
            let side = |label: &str, result: &Result1| {
                let reason = result
                    .reason
                    .as_deref()
                    .map(|r| format!(": {}", cut(r)))
                    .unwrap_or_default();
                let mut flags = String::new();
                if result.rewritten {
                    flags.push_str(" (input rewritten)");
                }
                if result.context_added {
                    flags.push_str(" (context added)");
                }
                if result.stop {
                    flags.push_str(" (stop)");
                }
                outln!("      {label}{}{flags}{reason}", result.decision.word());
            };
            match &event.compared {
                Some(other) => {
                    side("this: ", &event.result);
                    side("other: ", other);
                }
                None => side("", &event.result),
            }
            outln!("      at {}:{}", event.file, event.line);
        }
        let listed = self.notable.len().min(limit) as u64;
        if self.notable_count > listed {
            outln!("  ... {} more (--limit)", self.notable_count - listed);
        }
        if summary.bad_lines > 0 {
            outln!();
            outln!(
                "{} line{} not replayed ({}):",
                summary.bad_lines,
                plural(summary.bad_lines),
                counts(&summary.bad_by_kind)
            );
            for bad in self.bad.iter().take(limit) {
                outln!(
                    "  {}:{}: {}: {}",
                    bad.file,
                    bad.line,
                    json_word(&bad.kind),
                    cut(&bad.detail)
                );
            }
        }
        Ok(())
    }
}

fn hook_table(title: &str, hooks: &[HookStats]) {
    outln!();
    if hooks.is_empty() {
        outln!("{title}: none matched.");
        return;
    }
    outln!("{title}:");
    let width = hooks
        .iter()
        .map(|h| h.key.chars().count())
        .max()
        .unwrap_or(0);
    outln!(
        "  {:width$}  matched  blocked  rewritten  context  failed  timed out  skipped  p50 ms  p95 ms",
        "key"
    );
    for h in hooks {
        let ms = |v: Option<u64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        outln!(
            "  {:width$}  {:>7}  {:>7}  {:>9}  {:>7}  {:>6}  {:>9}  {:>7}  {:>6}  {:>6}",
            h.key,
            h.matched,
            h.blocked,
            h.rewritten,
            h.context_added,
            h.failed,
            h.timed_out,
            h.skipped,
            ms(h.p50_ms),
            ms(h.p95_ms),
        );
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

fn emit(line: &ReportLine) {
    if let Ok(text) = serde_json::to_string(line) {
        println_exact(&text);
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn counts(counts: &Counts) -> String {
    counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// A session id's first 8 characters.
fn short(session: &str) -> String {
    session.chars().take(8).collect()
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

    #[test]
    fn subjects_are_cut_on_one_line() {
        let long = "x".repeat(300);
        let cut = cut(&format!("a\nb {long}"));
        assert!(cut.starts_with("a b x"));
        assert_eq!(cut.chars().count(), CUT);
    }
}
