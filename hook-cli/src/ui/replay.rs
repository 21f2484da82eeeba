//! What `hook replay` prints: the warnings found before it starts, the progress bar over a long
//! history (on stderr, when it is a terminal), the `--json` lines as they come, and the report
//! (the summary line with `--json`, else the text report).

use crate::ops::replay::report::{
    HookStats, LeftOutWhy, NotReplayed, Result1, Summary, cut, json_word,
};
use crate::ops::replay::tally::Counts;
use crate::ops::replay::{Listener, ReplayReport, ReportLine, Warning};

use super::{Printer, plural, say, say_err};

/// Each warning on its own stderr line, in the order they were found.
pub(crate) fn warnings(printer: &Printer, warnings: &[Warning]) {
    for warning in warnings {
        match warning {
            Warning::Config(diagnostic) => {
                super::diagnostics::print(printer, std::slice::from_ref(diagnostic));
            }
            Warning::UnknownOnlyKey(key) => say_err!(
                printer,
                "warning: --only {key}: no hook has this key (see `hook list`)"
            ),
            Warning::NoTranscripts(paths) => say_err!(
                printer,
                "warning: no transcripts found in {}",
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// What the replay shows while it runs: the `--json` lines on stdout, and a progress bar on
/// stderr when it is a terminal and there is something to read.
pub(crate) struct Live<'a> {
    printer: &'a Printer,
    bar: Option<indicatif::ProgressBar>,
}

impl<'a> Live<'a> {
    /// Live output for a replay of `total_bytes` of transcripts.
    pub(crate) fn new(printer: &'a Printer, total_bytes: u64) -> Self {
        let bar = (printer.stderr_is_terminal() && total_bytes > 0).then(|| {
            let bar = indicatif::ProgressBar::new(total_bytes);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {bytes}/{total_bytes} {msg} ({elapsed}, {eta} left)",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        Live { printer, bar }
    }

    /// The replay is done: the progress bar goes away.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Listener for Live<'_> {
    fn line(&self, line: &ReportLine) {
        json_line(self.printer, line);
    }

    fn read(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
        }
    }

    fn session_done(&self, done: usize, total: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{done}/{total} sessions"));
        }
    }
}

/// One `--json` line, compact, on stdout.
fn json_line(printer: &Printer, line: &ReportLine) {
    if let Ok(text) = serde_json::to_string(line) {
        printer.exact_line(&text);
    }
}

/// The schema of one `--json` line, as committed.
pub(crate) fn schema(printer: &Printer, text: &str) {
    printer.exact_line(text);
}

/// The `--json` report's last line: the summary.
pub(crate) fn json_summary(printer: &Printer, report: ReplayReport) {
    json_line(printer, &ReportLine::Summary(report.summary));
}

/// The text report: the totals, the hooks' table (and the compared configuration's), the
/// events not `continue` (or whose outcome differs) most recent first, the bad lines.
pub(crate) fn text_report(printer: &Printer, report: &ReplayReport) {
    let summary = &report.summary;
    let limit = report.limit;
    let decisions = if summary.decisions.is_empty() {
        String::new()
    } else {
        format!(" ({})", counts(&summary.decisions))
    };
    say!(
        printer,
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
    totals(printer, summary);
    hook_table(printer, "Hooks", &summary.hooks);
    if let Some(other) = &summary.compared_hooks {
        hook_table(printer, "Hooks of the compared configuration", other);
    }
    let title = if report.compare {
        format!(
            "{} event{} whose outcome differs",
            report.notable_count,
            plural(report.notable_count)
        )
    } else {
        format!(
            "{} event{} not `continue`",
            report.notable_count,
            plural(report.notable_count)
        )
    };
    say!(printer);
    if report.notable.is_empty() {
        say!(printer, "{title}.");
    } else {
        say!(printer, "{title}, most recent first:");
    }
    for event in report.notable.iter().take(limit) {
        let what = match (&event.tool, &event.subject) {
            (Some(tool), Some(subject)) => format!("{tool} `{subject}`"),
            (Some(tool), None) => tool.clone(),
            (None, Some(subject)) => format!("`{subject}`"),
            (None, None) => String::new(),
        };
        say!(
            printer,
            "  {}  {}  {} {}",
            event.time.as_deref().unwrap_or("-"),
            short(&event.session),
            event.event,
            what
        );
        match &event.compared {
            Some(other) => {
                result_line(printer, "this: ", &event.result);
                result_line(printer, "other: ", other);
            }
            None => result_line(printer, "", &event.result),
        }
        say!(printer, "      at {}:{}", event.file, event.line);
    }
    let listed = report.notable.len().min(limit) as u64;
    if report.notable_count > listed {
        say!(
            printer,
            "  ... {} more (--limit)",
            report.notable_count - listed
        );
    }
    if summary.bad_lines > 0 {
        say!(printer);
        say!(
            printer,
            "{} line{} not replayed ({}):",
            summary.bad_lines,
            plural(summary.bad_lines),
            counts(&summary.bad_by_kind)
        );
        for bad in report.bad.iter().take(limit) {
            say!(
                printer,
                "  {}:{}: {}: {}",
                bad.file,
                bad.line,
                json_word(&bad.kind),
                cut(&bad.detail)
            );
        }
    }
}

/// The lines under the first: what was rebuilt, not dispatched, dispatched elsewhere, skipped.
fn totals(printer: &Printer, summary: &Summary) {
    let rebuilt = counts(&summary.rebuilt);
    if !rebuilt.is_empty() {
        say!(printer, "Rebuilt from the transcripts: {rebuilt}.");
    }
    if summary.skipped_after_block > 0 {
        say!(
            printer,
            "Not dispatched: {} later event{} of calls a replayed PreToolUse blocked.",
            summary.skipped_after_block,
            plural(summary.skipped_after_block),
        );
    }
    if summary.cwd_replaced > 0 {
        say!(
            printer,
            "{} event{} recorded a cwd that no longer exists: dispatched with the project's.",
            summary.cwd_replaced,
            plural(summary.cwd_replaced),
        );
    }
    if !summary.skipped_entries.is_empty() {
        skipped_entries(printer, &summary.skipped_entries);
    }
    if !summary.not_replayed.is_empty() {
        not_replayed(printer, &summary.not_replayed);
    }
    let skipped: u64 = summary.hooks.iter().map(|h| h.skipped).sum();
    if skipped > 0 {
        say!(
            printer,
            "{skipped} run{} skipped (untrusted, modified or disabled hooks are reported, not run: \
             trust them, or pass --trust-all-for-replay).",
            plural(skipped)
        );
    }
}

/// The hooks left out of the replay: why, what replays them instead, then one line each.
fn not_replayed(printer: &Printer, entries: &[NotReplayed]) {
    let relay_entries = entries
        .iter()
        .filter(|e| e.reason == LeftOutWhy::RelayEntry)
        .count();
    let instead = match entries.iter().find_map(|e| e.instead.as_deref()) {
        Some(flag) => format!("; the hooks they run replay with {flag}"),
        None => String::new(),
    };
    say!(
        printer,
        "Not replayed: {relay_entries} relay entr{} of the agent's settings (each would start the \
         relay as if the agent had called it: the replayed events would go into its live journal, \
         this shell's PATH would be recorded as the agent's){instead}:",
        if relay_entries == 1 { "y" } else { "ies" },
    );
    for entry in entries {
        let compared = if entry.compared {
            " (the compared configuration)"
        } else {
            ""
        };
        say!(
            printer,
            "  {}  `{}`{compared}",
            entry.key,
            cut(&entry.command)
        );
    }
}

/// One configuration's result of a listed event: its decision, flags and reason.
fn result_line(printer: &Printer, label: &str, result: &Result1) {
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
    say!(
        printer,
        "      {label}{}{flags}{reason}",
        result.decision.word()
    );
}

fn hook_table(printer: &Printer, title: &str, hooks: &[HookStats]) {
    say!(printer);
    if hooks.is_empty() {
        say!(printer, "{title}: none matched.");
        return;
    }
    say!(printer, "{title}:");
    let width = hooks
        .iter()
        .map(|h| h.key.chars().count())
        .max()
        .unwrap_or(0);
    say!(
        printer,
        "  {:width$}  matched  blocked  rewritten  context  failed  timed out  skipped  p50 ms  p95 ms",
        "key"
    );
    for h in hooks {
        let ms = |v: Option<u64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        say!(
            printer,
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

/// One line: the entries of types replay does not model, the most frequent types first (at
/// most [`SHOWN_TYPES`] named).
fn skipped_entries(printer: &Printer, skipped: &Counts) {
    let total: u64 = skipped.values().sum();
    let mut by_count: Vec<(&String, &u64)> = skipped.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut named: Vec<String> = by_count
        .iter()
        .take(SHOWN_TYPES)
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect();
    if by_count.len() > SHOWN_TYPES {
        named.push(format!("{} more types", by_count.len() - SHOWN_TYPES));
    }
    say!(
        printer,
        "Skipped {total} entr{} of types replay does not model (a newer agent's): {}.",
        if total == 1 { "y" } else { "ies" },
        named.join(", ")
    );
}

/// How many skipped entry types the text report names.
const SHOWN_TYPES: usize = 6;

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
