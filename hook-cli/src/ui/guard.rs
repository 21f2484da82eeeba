//! What `hook guard` prints: the guards and where each is on (`list`), a case table's results
//! (`test`), what `add` and `remove` did (with the relay's install or sync, as `hook relay`
//! prints it), the backtest (`add --dry-run`, `hook replay --guard`), and the answer of `run`,
//! exactly as a hook's.

use std::path::Path;

use hook_guards::{BUILTINS, Builtin, CaseResult, Expect, Shape, Verdict};
use hook_sdk::Emitted;
use serde_json::json;

use crate::ops::guard::backtest::{Backtest, Flagged};
use crate::ops::guard::list::Switched;
use crate::ops::guard::relay_file::{EntryChange, GuardChange, RelayStep};
use crate::shell::quote;

use super::{Printer, plural, say, say_err};

/// Every guard: what it blocks, its options with their defaults, where it is on.
pub(crate) fn list(printer: &Printer, switched: &Switched) {
    for (index, guard) in BUILTINS.iter().enumerate() {
        if index > 0 {
            say!(printer);
        }
        say!(printer, "{}: {}", guard.name, guard.summary);
        say!(printer, "  tools: {} (Claude Code's names)", guard.matcher);
        for option in guard.options {
            say!(
                printer,
                "  --set {}={}  {}",
                option.name,
                option.default,
                option.summary
            );
        }
        let on: Vec<_> = switched
            .on
            .iter()
            .filter(|on| on.guard == guard.name)
            .collect();
        if on.is_empty() {
            say!(
                printer,
                "  off: `hook guard add {} --agent claude` (or codex) switches it on",
                guard.name
            );
        }
        for on in on {
            let sets: String = on
                .sets
                .iter()
                .map(|set| format!(" --set {}", quote(set)))
                .collect();
            say!(
                printer,
                "  on for {} (--agent {}), {}: {}{}",
                on.agent,
                on.agent_name,
                if on.project { "project" } else { "user" },
                on.file.display(),
                if sets.is_empty() {
                    String::new()
                } else {
                    format!(" (options:{sets})")
                }
            );
        }
    }
    for (file, why) in &switched.unreadable {
        say_err!(printer, "warning: {}: {why}", file.display());
    }
}

/// A guard's case table: each case with each shape's verdict, then the totals.
pub(crate) fn cases(
    printer: &Printer,
    guard: &Builtin,
    shapes: &[Shape],
    results: &[Vec<CaseResult>],
) {
    let shown: Vec<&str> = shapes.iter().map(|shape| shape.title()).collect();
    say!(
        printer,
        "{}: {} case{}, each as {} send{} it",
        guard.name,
        results.len(),
        plural(results.len()),
        shown.join(" and "),
        if shown.len() == 1 { "s" } else { "" }
    );
    let width = |title: &str| title.len().max(12);
    let mut header = format!("{:<11}", "expect");
    for title in &shown {
        header.push_str(&format!(" {:<w$}", title, w = width(title)));
    }
    say!(printer, "{header} call (what it shows)");
    let mut failed = 0;
    let mut errors = Vec::new();
    for row in results {
        let Some(first) = row.first() else {
            continue;
        };
        let case = first.case;
        let mut line = format!("{:<11}", expected(case.expect));
        for (result, title) in row.iter().zip(&shown) {
            let mut cell = got(&result.got).to_owned();
            if !result.passed {
                failed += 1;
                cell.push_str(" ✗");
            }
            if let Err(error) = &result.got {
                errors.push(format!("{} ({}): {error}", case.describe(), title));
            }
            line.push_str(&format!(" {:<w$}", cell, w = width(title)));
        }
        let settings = if case.settings.is_empty() {
            String::new()
        } else {
            format!(", with {}", case.settings.join(" "))
        };
        say!(
            printer,
            "{line} {} ({}{settings})",
            case.describe(),
            case.form
        );
    }
    for error in errors {
        say!(printer, "  error: {error}");
    }
    let runs: usize = results.iter().map(Vec::len).sum();
    say!(printer);
    if failed == 0 {
        say!(
            printer,
            "ok: {runs} of {runs} passed ({} case{} × {} shape{})",
            results.len(),
            plural(results.len()),
            shapes.len(),
            plural(shapes.len())
        );
    } else {
        say!(
            printer,
            "FAILED: {failed} of {runs} did not give the verdict expected (✗ above)"
        );
    }
}

fn expected(expect: Expect) -> &'static str {
    match expect {
        Expect::Block => "block",
        Expect::Allow => "allow",
        Expect::Unreadable => "unreadable",
        _ => "?",
    }
}

fn got(got: &Result<Verdict, String>) -> &'static str {
    match got {
        Ok(Verdict::Block { .. }) => "block",
        Ok(Verdict::Allow) => "allow",
        Ok(Verdict::Unreadable { .. }) => "unreadable",
        Ok(_) => "?",
        Err(_) => "error",
    }
}

/// `hook guard run`'s answer, exactly as the hook writes it.
pub(crate) fn emitted(printer: &Printer, emitted: &Emitted) {
    if !emitted.stdout.is_empty() {
        printer.exact(&String::from_utf8_lossy(&emitted.stdout));
    }
    if !emitted.stderr.is_empty() {
        printer.exact_err(&String::from_utf8_lossy(&emitted.stderr));
    }
}

/// Why `hook guard run` could not set its guard up, on stderr (where an agent reads a
/// block's reason).
pub(crate) fn cannot_run(printer: &Printer, error: &anyhow::Error) {
    say_err!(
        printer,
        "hook guard run: {}",
        super::exit::error_chain(error)
    );
}

/// What `add` or `remove` did (what it did before it failed, when it did).
pub(crate) fn change(printer: &Printer, change: &GuardChange) {
    let Some(file) = &change.relay_file else {
        return;
    };
    super::relay::install::through_link(printer, change.edit.through_link.as_ref());
    super::relay::install::backup(printer, change.edit.backup.as_deref());
    let file = file.display();
    let name = change.guard;
    match &change.entry {
        Some(EntryChange::Added { command, matcher }) => say!(
            printer,
            "{file}: added {name} for {}: PreToolUse [{matcher}] {command}",
            change.relay_agent
        ),
        Some(EntryChange::Replaced {
            before,
            command,
            dropped,
        }) => {
            say!(
                printer,
                "{file}: {name} was on; its entry is now {command} (was {before})"
            );
            if *dropped > 0 {
                say!(
                    printer,
                    "{file}: took out {dropped} more entr{} of {name}",
                    if *dropped == 1 { "y" } else { "ies" }
                );
            }
        }
        Some(EntryChange::Unchanged { command }) => {
            say!(
                printer,
                "{file}: {name} is on already, with these options: {command}"
            );
        }
        Some(EntryChange::Removed(count)) => say!(
            printer,
            "{file}: removed {count} entr{} of {name}",
            if *count == 1 { "y" } else { "ies" }
        ),
        Some(EntryChange::NotThere) => {
            say!(printer, "{file}: {name} is not on here; nothing to remove");
        }
        None => {}
    }
    trust(printer, change);
    match &change.relay {
        Some(RelayStep::Installed(report)) => super::relay::install::install(printer, report),
        Some(RelayStep::Synced(report)) => super::relay::install::sync(printer, report),
        Some(RelayStep::NotInstalled) | None => {}
    }
    let on = matches!(
        change.entry,
        Some(
            EntryChange::Added { .. }
                | EntryChange::Replaced { .. }
                | EntryChange::Unchanged { .. }
        )
    );
    if on && change.relay.is_some() {
        say!(
            printer,
            "{} runs {name} on its tool calls now, answered inside the relay (no process of its own)",
            change.agent
        );
    }
    for agent in &change.also_run_by {
        printer.note(format_args!(
            "note: the {agent} relay installed here runs the guards of {}'s relay file too: `hook relay sync --agent {agent}{}` gives its entries this guard's tools",
            change.relay_agent,
            change
                .project
                .as_deref()
                .map(|p| crate::shell::path_flag("project", p))
                .unwrap_or_default()
        ));
    }
    if let Some(other) = &change.still_in {
        say_err!(
            printer,
            "note: {} still runs {name}: its relay runs the guards of Claude Code's relay file too, and {} holds it; `hook guard remove {name} --agent claude{}` takes it out there (for Claude Code too)",
            change.agent,
            other.display(),
            change
                .project
                .as_deref()
                .map(|p| crate::shell::path_flag("project", p))
                .unwrap_or_default()
        );
    }
    if change.agent != change.relay_agent && on {
        printer.note(format_args!(
            "note: {name} is in {}'s relay file, which the relay runs for {} too; {} runs it where its own relay is installed (`hook relay sync --agent claude`)",
            change.relay_agent, change.agent, change.relay_agent
        ));
    }
}

/// The trust `add`/`remove` wrote, and what each teammate does in a project.
fn trust(printer: &Printer, change: &GuardChange) {
    let trust = &change.trust;
    let Some(store) = &trust.store else {
        return;
    };
    let store = store.display();
    if let Some(key) = &trust.guard {
        say!(
            printer,
            "{store}: trusted {} ({key}), as `hook trust` does",
            change.guard
        );
    }
    for key in &trust.carried {
        say!(
            printer,
            "{store}: trusted {key} again under its new key (it moved; nothing of it changed)"
        );
    }
    if !trust.removed.is_empty() {
        say!(
            printer,
            "{store}: took out the trust record{} of {} (no hook has that key now)",
            plural(trust.removed.len()),
            trust.removed.join(", ")
        );
    }
    for (key, why) in &trust.failed {
        say_err!(
            printer,
            "warning: {key} could not be trusted, so it does not run: {why}"
        );
    }
    if let (true, Some(_), Some(dialect)) = (trust.per_machine, &trust.guard, change.dialect) {
        let flags = format!("--dialect {dialect} --project .");
        let commands = if dialect.rules().config().trust_state_in_config() {
            format!("`hook relay sync {flags} --trust` and `hook trust {flags} --relay --all`")
        } else {
            format!("`hook trust {flags} --relay --all`")
        };
        say_err!(
            printer,
            "note: a teammate who pulls this gets {} in the project's relay file; their relay runs it once they trust it on their own machine (their session says so at its start until then): {commands}, in the project's folder",
            change.guard
        );
    }
}

/// One flagged call of a backtest, as a `--json` line.
pub(crate) fn flagged_json(printer: &Printer, flagged: &Flagged) {
    if let Ok(line) = serde_json::to_string(flagged) {
        printer.exact_line(&line);
    }
}

/// How `hook guard add` is run again without `--dry-run`, for the backtest's last line.
pub(crate) struct AddAgain<'a> {
    pub(crate) name: &'static str,
    pub(crate) agent: &'static str,
    pub(crate) sets: &'a [String],
    pub(crate) project: Option<&'a Path>,
}

/// The backtest: each call the guard would block (time, session, call, reason), the calls it
/// could not read, the bad lines, and the totals; with `json`, the totals as the last line.
pub(crate) fn backtest(
    printer: &Printer,
    found: &Backtest,
    json: bool,
    again: Option<&AddAgain<'_>>,
) {
    if json {
        let summary = json!({
            "kind": "summary",
            "guard": found.guard,
            "sessions": found.sessions,
            "calls": found.calls,
            "would_block": found.blocked.len(),
            "unreadable": found.unreadable.len(),
            "bad_lines": found.bad_lines.len(),
        });
        printer.exact_line(&summary.to_string());
        return;
    }
    if let Some(places) = &found.none_in {
        say_err!(printer, "warning: no recorded sessions found {places}");
    }
    say!(
        printer,
        "{} over {} session{} ({} tool call{}): would block {}, could not read {}, {} bad line{}",
        found.guard,
        found.sessions,
        plural(found.sessions),
        found.calls,
        plural(found.calls),
        found.blocked.len(),
        found.unreadable.len(),
        found.bad_lines.len(),
        plural(found.bad_lines.len())
    );
    if !found.blocked.is_empty() {
        say!(printer);
        say!(printer, "Would block:");
        flagged(printer, &found.blocked);
    }
    if !found.unreadable.is_empty() {
        say!(printer);
        say!(
            printer,
            "Could not read (let through unless --set block-unreadable=true):"
        );
        flagged(printer, &found.unreadable);
    }
    if !found.bad_lines.is_empty() {
        say!(printer);
        say!(printer, "Bad lines (not read):");
        for bad in found.bad_lines.iter().take(20) {
            say!(printer, "  {}:{}: {}", bad.file, bad.line, bad.detail);
        }
        if found.bad_lines.len() > 20 {
            say!(printer, "  ... and {} more", found.bad_lines.len() - 20);
        }
    }
    say!(printer);
    let mut next = String::from("Nothing was run or written.");
    if let Some(again) = again {
        let mut command = format!("hook guard add {} --agent {}", again.name, again.agent);
        for set in again.sets {
            command.push_str(&format!(" --set {}", quote(set)));
        }
        if let Some(project) = again.project {
            command.push_str(&crate::shell::path_flag("project", project));
        }
        next.push_str(&format!(" To switch it on: {command}"));
    }
    say!(printer, "{next}");
}

/// Flagged calls, a call a line with its reason under it.
fn flagged(printer: &Printer, calls: &[Flagged]) {
    for call in calls {
        let time = call.time.as_deref().unwrap_or("(no time)");
        say!(
            printer,
            "  {time}  session {}  {}:{}",
            call.session,
            call.file,
            call.line
        );
        say!(printer, "    {}", call.call);
        say!(printer, "    {}", call.reason);
    }
}
