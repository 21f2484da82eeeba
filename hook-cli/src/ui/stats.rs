//! What `hook stats` prints: every hook's figures (its key on a line, its figures in columns
//! under it, so that the figures fit 100 columns however long the keys), then each hook that
//! needs a look with its flags and last failure (`--json`: the figures as an array).

use anyhow::Result;

use super::colour::{BOLD, DIM, GREEN, RED, YELLOW};
use super::terminal::one_line;
use super::{Printer, say, say_err};
use crate::ops::stats::{HookStats, StatsReport};

/// The report: warnings on stderr, then the figures (with an agent column when
/// `every_agent`).
pub(crate) fn report(
    printer: &Printer,
    report: &StatsReport,
    json: bool,
    every_agent: bool,
) -> Result<()> {
    for problem in &report.config_problems {
        say_err!(
            printer,
            "warning: {problem}; hooks that never matched are not listed"
        );
    }
    super::log::read_problems(printer, &report.problems);
    let all = &report.hooks;
    if json {
        printer.exact_line(&serde_json::to_string_pretty(all)?);
        return Ok(());
    }
    if all.is_empty() {
        let dirs: Vec<String> = report
            .journal_dirs
            .iter()
            .map(|dir| dir.display().to_string())
            .collect();
        say!(
            printer,
            "no hooks configured and nothing in {}",
            dirs.join(", ")
        );
        return Ok(());
    }
    table(printer, all, every_agent);
    let mut first = true;
    for stats in all {
        if stats.flags.is_empty() && stats.last_failure.is_none() {
            continue;
        }
        if std::mem::take(&mut first) {
            // The hooks that need a look, apart from the figures.
            printer.exact_line("");
        }
        printer.exact_line(&printer.paint(BOLD, &stats.key));
        for flag in &stats.flags {
            printer.exact_line(&format!(
                "  {} {}",
                printer.paint(YELLOW, "!"),
                one_line(flag)
            ));
        }
        if let Some(failure) = &stats.last_failure {
            let when = format!("  last failure {} ", failure.time);
            let mut after = String::new();
            if let Some(code) = failure.exit_code {
                after.push_str(&format!(" (exit {code})"));
            }
            if let Some(error) = &failure.error {
                after.push_str(&format!(": {error}"));
            }
            printer.spans(&[
                ("", &when),
                (RED, &failure.status.to_string()),
                ("", &after),
            ]);
            for stderr in failure.stderr_tail.iter().flat_map(|s| s.lines()) {
                printer.exact_line(&format!(
                    "    {} {}",
                    printer.paint(DIM, "stderr:"),
                    printer.paint(RED, stderr)
                ));
            }
        }
    }
    Ok(())
}

/// The figures, one hook to two lines: its key whole on a line of its own (keys are long —
/// a project's holds its absolute path — and are pasted into `hook log --hook`, so never cut
/// or wrapped; without `--agent`, after the agent's name), then its figures under a header, in columns that fit 100 (a skip column
/// with several reasons may go past it).
fn table(printer: &Printer, all: &[HookStats], every_agent: bool) {
    const HEADER: [&str; 10] = [
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
    ];
    let ms = |v: Option<u64>| v.map(|v| format!("{v} ms")).unwrap_or_else(|| "-".into());
    let rows: Vec<[String; 10]> = all
        .iter()
        .map(|stats| {
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
            [
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
            ]
        })
        .collect();
    let mut widths = HEADER.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    // Each cell padded first, then painted: colour codes take no column.
    let line = |cells: &[String], paint: &dyn Fn(usize, &str) -> String| -> String {
        let mut text = String::from("   ");
        let last = cells.len() - 1;
        for (index, (cell, width)) in cells.iter().zip(widths).enumerate() {
            // Counts right-aligned, text (skip reasons, durations, times) left-aligned; the
            // last cell is not padded (no trailing spaces).
            let padded = if index < 5 {
                format!(" {cell:>width$}")
            } else if index == last {
                format!("  {cell}")
            } else {
                format!("  {cell:<width$}")
            };
            text.push_str(&paint(index, &padded));
        }
        text
    };
    let header: Vec<String> = HEADER.iter().map(|h| (*h).to_owned()).collect();
    printer.exact_line(&printer.paint(DIM, if every_agent { "agent  hook" } else { "hook" }));
    let plain = |_: usize, cell: &str| one_line(cell).into_owned();
    printer.exact_line(&printer.paint(DIM, line(&header, &plain).trim_end()));
    for (stats, row) in all.iter().zip(&rows) {
        let key = if every_agent {
            format!("{}  {}", stats.agent, one_line(&stats.key))
        } else {
            one_line(&stats.key).into_owned()
        };
        printer.exact_line(&printer.paint(BOLD, &key));
        // Failures red, time-outs yellow, when there are any; runs green.
        let status = |index: usize, cell: &str| {
            let colour = match index {
                0 if stats.runs > 0 => GREEN,
                3 if stats.failures > 0 => RED,
                4 if stats.timeouts > 0 => YELLOW,
                _ => "",
            };
            printer.paint(colour, cell)
        };
        printer.exact_line(line(row, &status).trim_end());
    }
}

/// `2026-12-03T19:55:06.906Z` as `12-03 19:55`; a time that does not read as one is shown
/// escaped (a line's `time` is whatever the file holds).
fn short_time(time: &str) -> String {
    match time.parse::<jiff::Timestamp>() {
        Ok(at) => at.strftime("%m-%d %H:%M").to_string(),
        Err(_) => one_line(time).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::short_time;

    #[test]
    fn a_time_is_short_or_escaped() {
        assert_eq!(short_time("2026-12-03T19:55:06.906Z"), "12-03 19:55");
        assert_eq!(short_time("\x1b[2Jx"), "\\x1b[2Jx");
    }
}
