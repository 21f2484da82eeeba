//! What `hook relay install`, `sync` and `uninstall` print: their reports
//! ([`crate::ops::relay::install`]), line by line in the order the work was done. The relay's
//! answer to an agent is in [`super::answer`].

use std::path::Path;

use crate::ops::relay::install::{
    CodexTrust, Edited, Entries, FoundKind, GivenBack, InstallReport, MoveReport, NPM_PACKAGE,
    Portable, RelayOutcome, ScopeNames, SyncReport, ThroughLink, UninstallReport, Uninstalled,
};

use crate::shell::quote as shell_quote;
use crate::ui::{Printer, say, say_err};

/// `hook relay install`: the move (with `--move`), then the sync.
pub(crate) fn install(printer: &Printer, report: &InstallReport) {
    if let Some(moved) = &report.moved {
        move_hooks(printer, moved);
    }
    sync(printer, &report.sync);
}

/// `--move`.
fn move_hooks(printer: &Printer, report: &MoveReport) {
    let scope = &report.scope;
    let file = scope.file.display();
    through_link(printer, report.agent_link.as_ref());
    if report.no_file {
        say!(printer, "{file}: no such file; nothing to move");
    }
    for (event, library) in &report.relative_libraries {
        say_err!(
            printer,
            "warning: a moved {event} hook loads `{library}`, a path relative to the file that declares it: it now resolves against the relay file's folder; make it absolute if the library is not there"
        );
    }
    if report.nothing_to_move {
        say!(printer, "{file}: no hooks of its own to move");
    }
    through_link(printer, report.relay_link.as_ref());
    backup(printer, report.backup.as_deref());
    if let Some((count, relay_file)) = &report.moved_to {
        say!(
            printer,
            "moved {count} hook{} of {file} to {}",
            if *count == 1 { "" } else { "s" },
            relay_file.display()
        );
    }
    for warning in &report.copy_warnings {
        say_err!(printer, "warning: {warning}");
    }
    for (key, why) in &report.not_trusted {
        say!(
            printer,
            "{key}: not trusted, it will not run: {why} (`hook trust {} --relay {}`)",
            flags(scope),
            shell_quote(key)
        );
    }
    if let Some(trusted) = &report.trusted {
        say!(
            printer,
            "trusted {} moved hook{} in the relay's store ({}): {} was running {}",
            trusted.granted.len(),
            crate::ui::plural(trusted.granted.len()),
            trusted.store.display(),
            scope.agent,
            if trusted.granted.len() == 1 {
                "it"
            } else {
                "them"
            }
        );
        for granted in &trusted.granted {
            say!(printer, "  trusted {}", granted.describe());
        }
        crate::ui::trust::say_if_link(printer, &trusted.store);
    }
    if let Some((count, relay_file)) = &report.moved_to
        && scope.project.is_some()
    {
        // The lead's store trusts what moved; a teammate's does not, and the relay runs a
        // project's hooks only once the user trusted them on that machine.
        // Run in the project's folder of each teammate's clone, with their own home.
        let flags = format!("--dialect {} --project .", scope.dialect);
        let commands = if scope.dialect.rules().config().trust_state_in_config() {
            format!(
                "The commands each runs: `hook relay sync {flags} --trust` ({} runs a project's entries only once trusted) and `hook trust {flags} --relay --all`",
                scope.agent
            )
        } else {
            format!("The one command each runs: `hook trust {flags} --relay --all`")
        };
        say_err!(
            printer,
            "warning: teammates who pull this get the {count} moved hook{} in {}: their relay runs them only once each of them trusts them on their own machine; until then the session tells them so at its start and `hook relay status` exits 1. {commands}, in the project's folder",
            if *count == 1 { "" } else { "s" },
            relay_file.display(),
        );
    }
    for key in &report.waiting {
        say!(
            printer,
            "{key}: {} had not trusted it; it will not run until `hook trust {} --relay {}`",
            scope.agent,
            flags(scope),
            shell_quote(key)
        );
    }
}

/// `hook relay sync` (and the second half of `install`).
pub(crate) fn sync(printer: &Printer, report: &SyncReport) {
    let Some(scope) = &report.scope else {
        return;
    };
    for diagnostic in &report.diagnostics {
        say_err!(printer, "warning: {diagnostic}");
    }
    portable(printer, report.portable.as_ref(), scope);
    if let Some(personal) = &report.personal_hooks_in_shared {
        say_err!(
            printer,
            "warning: the project's relay hooks are all personal (its relay settings.local.json), but their entries are in {}, which is shared: a teammate would get entries for hooks that are not theirs, and where their PATH has no `hook`, {} blocks every guarded event; to keep the entries yours too: `hook relay uninstall {flags}`, then `hook relay install {flags} --agent-config {}`",
            scope.file.display(),
            scope.agent,
            shell_quote(&personal.display().to_string()),
            flags = relay_flags(scope),
        );
    }
    if report.unreadable_relay_file {
        say_err!(
            printer,
            "warning: a relay file could not be read; the relay entries of events it may use are kept: fix it, then run `hook relay sync {}`",
            relay_flags(scope)
        );
    }
    for (event, keys) in &report.unguarded {
        for key in keys {
            say_err!(
                printer,
                "warning: {} has no event the relay reads as {event}: relay hook {key} does not guard it there (no entry starts the relay for it)",
                scope.agent
            );
        }
    }
    for event in &report.by_hand {
        say_err!(
            printer,
            "warning: {}: a {event} entry written by hand also starts `hook relay {}` (no `# hook-relay-install`): the relay's own entry does its job now, so remove yours, or {} starts the relay twice",
            scope.file.display(),
            scope.relay_flags,
            scope.agent
        );
    }
    edited(printer, &report.edit);
    let file = scope.file.display();
    match &report.entries {
        Some(Entries::NoRelayHooks { places, removed }) => say!(
            printer,
            "{file}: no relay hooks in {}, so no relay entries{}: add hooks there, then run `hook relay sync {}`",
            places
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" or "),
            removed_count(*removed),
            relay_flags(scope)
        ),
        Some(Entries::Written {
            wanted,
            added,
            removed,
            unchanged,
        }) => say!(
            printer,
            "{file}: relay entries for {} (added {added}, removed {removed}, unchanged {unchanged})",
            wanted
                .iter()
                .map(|w| match &w.matcher {
                    Some(m) => format!("{} [{m}]", w.event),
                    None => w.event.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Some(Entries::UpToDate) => say!(printer, "{file}: the relay entries are up to date"),
        None => {}
    }
    match &report.codex_trust {
        Some(CodexTrust::AlreadyTrusted { records, entries }) => say!(
            printer,
            "{}: Codex trusts the {entries} relay entries",
            records.display()
        ),
        Some(CodexTrust::Recorded { records, entries }) => {
            say!(
                printer,
                "{}: recorded Codex's trust of {entries} relay entries ([hooks.state]); nothing to do in /hooks",
                records.display()
            );
            crate::ui::trust::say_if_link(printer, records);
        }
        Some(CodexTrust::ToDo { entries, file }) => say!(
            printer,
            "Codex runs only hooks you trusted: start codex, type /hooks, and trust the {entries} `hook relay` entries of {} (or run this command again with --trust to record that trust now)",
            file.display()
        ),
        None => {}
    }
    if !report.untrusted.is_empty() {
        say!(
            printer,
            "{} relay hook{} will not run until you review and trust {}:",
            report.untrusted.len(),
            crate::ui::plural(report.untrusted.len()),
            if report.untrusted.len() == 1 {
                "it"
            } else {
                "them"
            }
        );
        for key in &report.untrusted {
            say!(
                printer,
                "  hook trust {} --relay {}",
                flags(scope),
                shell_quote(key)
            );
        }
    }
}

/// A project's entries start `hook` through the agent's `PATH`: whether this `PATH` finds one,
/// which, and what each event pays to start it when it is a script (npm's launcher).
fn portable(printer: &Printer, portable: Option<&Portable>, scope: &ScopeNames) {
    let Some(portable) = portable else {
        return;
    };
    let this = portable
        .this
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "this hook".to_owned());
    let start = "note: the project's entries start `hook` through the agent's PATH";
    match &portable.on_path {
        None => say_err!(
            printer,
            "warning: the project's entries start `hook` through the agent's PATH, and this PATH has none: until it does, {} blocks every guarded event (the entry cannot start); put the folder of {this} on PATH, or install hook there",
            scope.agent
        ),
        Some((found, FoundKind::NpmLauncher)) => printer.note(format_args!(
            "{start}: here that is {}, the Node launcher of the npm package {NPM_PACKAGE}, not its native binary (its install script did not run, as with --ignore-scripts, or could not put the binary in place): each event these entries relay starts Node first, about 70 ms, against a few ms for the binary; to fix: `npm rebuild -g {NPM_PACKAGE} --foreground-scripts` (it says why if it cannot), or install {NPM_PACKAGE} again with its install scripts on (not --ignore-scripts; an npm that asks: --allow-scripts={NPM_PACKAGE})",
            found.display()
        )),
        Some((found, FoundKind::Script)) => printer.note(format_args!(
            "{start}: here that is {}, a script, not the hook binary ({this}): each event these entries relay starts its interpreter first",
            found.display()
        )),
        Some((found, FoundKind::Binary)) => {
            let same = portable
                .this
                .as_ref()
                .is_some_and(|this| found.canonicalize().ok() == this.canonicalize().ok());
            if !same {
                printer.note(format_args!(
                    "{start}: here that is {}, not {this}",
                    found.display()
                ));
            }
        }
    }
}

/// `hook relay uninstall`.
pub(crate) fn uninstall(printer: &Printer, report: &UninstallReport) {
    edited(printer, &report.edit);
    let file = report.file.display();
    if let Some(given) = &report.given_back {
        given_back(printer, given);
    }
    if let Some((records, removed)) = &report.codex_records {
        say!(
            printer,
            "{}: took out {removed} of Codex's trust records that `hook relay install --trust` wrote ([hooks.state])",
            records.display()
        );
    }
    let more = report.given_back.is_some() || report.codex_records.is_some();
    match report.result {
        // The edit removed the file install had created, and said so.
        Some(Uninstalled::FileRemoved) | None => {}
        Some(Uninstalled::Removed(removed)) if more => {
            say!(printer, "{file}: removed {removed} relay entries");
        }
        Some(Uninstalled::Removed(removed)) => say!(
            printer,
            "{file}: removed {removed} relay entries; nothing else changed"
        ),
        Some(Uninstalled::NoEntries) if more => say!(printer, "{file}: no relay entries"),
        Some(Uninstalled::NoEntries) => {
            say!(printer, "{file}: no relay entries; nothing to uninstall");
        }
    }
    if let Some((other, command)) = &report.entries_elsewhere {
        say_err!(
            printer,
            "note: {} still holds relay entries, so the relay's hooks still run; to take them out too: `{command}`",
            other.display()
        );
    }
    for left in &report.left {
        if let Some(agent) = report.guest {
            say!(
                printer,
                "{} holds {} relay hook{}: {} no longer guard{} {agent} (Claude Code's own relay entries, where installed, still run {})",
                left.relay_file.display(),
                left.count,
                crate::ui::plural(left.count),
                if left.count == 1 { "it" } else { "they" },
                if left.count == 1 { "s" } else { "" },
                if left.count == 1 { "it" } else { "them" },
            );
            continue;
        }
        say_err!(
            printer,
            "warning: {} still holds {} relay hook{}, which no longer {} (the relay's entries are gone): move {} into {}, or run `hook relay install` again",
            left.relay_file.display(),
            left.count,
            crate::ui::plural(left.count),
            if left.count == 1 { "runs" } else { "run" },
            if left.count == 1 { "it" } else { "them" },
            left.agent_file.display()
        );
    }
}

/// The moved hooks put back.
fn given_back(printer: &Printer, given: &GivenBack) {
    let file = given.file.display();
    if given.exact {
        say!(
            printer,
            "{file}: put back as it was before `hook relay install --move`, byte for byte ({} moved hook{} back)",
            given.groups,
            crate::ui::plural(given.groups)
        );
    } else {
        say!(
            printer,
            "{file}: changed since `hook relay install --move`, so the {} moved hook{} {} added back to what is there, not restored byte for byte{}",
            given.groups,
            crate::ui::plural(given.groups),
            if given.groups == 1 { "was" } else { "were" },
            if given.already_there > 0 {
                format!(
                    " ({} {} there already)",
                    given.already_there,
                    if given.already_there == 1 {
                        "was"
                    } else {
                        "were"
                    }
                )
            } else {
                String::new()
            }
        );
    }
    for relay in &given.relay_files {
        let relay_file = relay.file.display();
        match &relay.outcome {
            RelayOutcome::Restored => {
                say!(
                    printer,
                    "{relay_file}: the moved hooks taken out (as it was before the move)"
                );
            }
            RelayOutcome::Removed => {
                say!(printer, "{relay_file}: removed (the move had created it)");
            }
            RelayOutcome::TookOut { taken, changed } => {
                say!(
                    printer,
                    "{relay_file}: took out {taken} moved hook{}",
                    crate::ui::plural(*taken)
                );
                for event in changed {
                    say_err!(
                        printer,
                        "warning: {relay_file}: a moved {event} hook was changed there since the move, so it stays there and no longer runs; the hook as it was is back in {file}"
                    );
                }
            }
            RelayOutcome::Gone => {}
        }
        if let Some(backup) = &relay.backup {
            printer.note(format_args!(
                "the relay file as it was: {}",
                backup.display()
            ));
        }
    }
}

/// What an edit of the agent's file did besides the entries.
fn edited(printer: &Printer, edit: &Edited) {
    through_link(printer, edit.through_link.as_ref());
    if let Some(path) = &edit.removed_created_file {
        say!(
            printer,
            "{}: removed (hook relay install had created it, and nothing else is in it)",
            path.display()
        );
    }
    backup(printer, edit.backup.as_deref());
}

/// A file written through a symbolic link.
pub(crate) fn through_link(printer: &Printer, link: Option<&ThroughLink>) {
    if let Some(link) = link {
        printer.note(format_args!(
            "note: {} is reached through a symbolic link: writing {}",
            link.path.display(),
            link.real.display()
        ));
    }
}

/// Where the agent's file was kept as it was.
pub(crate) fn backup(printer: &Printer, backup: Option<&Path>) {
    if let Some(backup) = backup {
        printer.note(format_args!("the file as it was: {}", backup.display()));
    }
}

/// ` (n removed)` when entries were removed.
fn removed_count(removed: usize) -> String {
    if removed > 0 {
        format!(" ({removed} removed)")
    } else {
        String::new()
    }
}

/// The flags naming this scope on a `hook relay install`, `sync` or `uninstall` command line
/// (`--agent qwen` for an agent whose events the relay translates).
fn relay_flags(scope: &ScopeNames) -> String {
    place_flags(scope, scope.relay_flags.clone())
}

/// The flags naming this scope's relay hooks on a `hook` command line (`hook trust`).
fn flags(scope: &ScopeNames) -> String {
    place_flags(scope, format!("--dialect {}", scope.dialect))
}

/// `agent` and this scope's `--project` and `--home`.
fn place_flags(scope: &ScopeNames, agent: String) -> String {
    let mut flags = agent;
    if let Some(project) = &scope.project {
        flags.push_str(&format!(
            " --project {}",
            shell_quote(&project.display().to_string())
        ));
    }
    if let Some(home) = &scope.home {
        flags.push_str(&format!(
            " --home {}",
            shell_quote(&home.display().to_string())
        ));
    }
    flags
}
