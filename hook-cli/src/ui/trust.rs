//! What trust looks like to a user: the trust commands' results, the trust part of a `hook list`
//! line, and the warnings `hook run` prints for hooks trust kept from running (how a refusal
//! names the command that lets a hook run is [`crate::ops::trust::refusal_phrasing`]: the
//! engine carries it into the outcome the agent reads).

use hook_config::Handler;
use hook_protocol::{Outcome, SkipReason};
use hook_trust::{TrustStatus, TrustView};

use crate::ops::trust::{Changed, link_target};

use super::{Printer, say, say_err};

/// A trust command's result: hooks left alone, warnings, what changed, the store written.
pub(crate) fn changed(printer: &Printer, changed: &Changed) {
    for line in &changed.left {
        say!(printer, "{line}");
    }
    for warning in &changed.warnings {
        say_err!(printer, "warning: {warning}");
    }
    if changed.changed.is_empty() {
        say!(printer, "nothing to change");
    }
    for line in &changed.changed {
        say!(printer, "{line}");
    }
    printer.note(format_args!("store: {}", changed.store.display()));
    say_if_link(printer, &changed.store);
}

/// Says so when `path`, a file a command wrote, is a symbolic link: what was written is the
/// file it leads to.
pub(crate) fn say_if_link(printer: &Printer, path: &std::path::Path) {
    if let Some(target) = link_target(path) {
        printer.note(format_args!(
            "note: {} is a symbolic link: written through it to {}",
            path.display(),
            target.display()
        ));
    }
}

/// The one-line warnings `hook run` prints for what trust or a settings switch kept from
/// running.
pub(crate) fn skip_warnings(view: &TrustView, outcome: &Outcome) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(error) = view.store_error() {
        warnings.push(format!(
            "warning: {error}; every hook that needs trust is treated as untrusted"
        ));
    }
    for run in &outcome.runs {
        if matches!(
            run.skip_reason,
            Some(
                SkipReason::Untrusted
                    | SkipReason::Modified
                    | SkipReason::Disabled
                    | SkipReason::DisabledBySettings
            )
        ) {
            // The refusal names the hook already (`hook KEY is not trusted: ...`): the key is
            // said once, beside the command that pastes it.
            let warning = match run.error.as_deref() {
                Some(why) if why.contains(run.key.as_str()) => format!("warning: skipped: {why}"),
                Some(why) => format!("warning: skipped {}: {why}", run.key),
                None => format!("warning: skipped {}: not trusted", run.key),
            };
            warnings.push(warning);
        }
    }
    warnings
}

/// The trust part of a `hook list` line (`trusted, enabled`), and the lines under it that show
/// what changed since a modified hook was trusted.
pub(crate) fn list_lines(view: &TrustView, handler: &Handler) -> (String, Vec<String>) {
    let trust = view.evaluate(handler);
    let enabled = if trust.enabled { "enabled" } else { "disabled" };
    let files = trust
        .files_phrase()
        .filter(|_| trust.status == TrustStatus::Modified);
    let label = match &files {
        Some(files) => format!("{} ({files}), {enabled}", trust.status),
        None => format!("{}, {enabled}", trust.status),
    };
    let mut details = Vec::new();
    if trust.status == TrustStatus::Modified
        && trust.trusted_hash.as_deref() != Some(trust.hash.as_str())
    {
        details.push(format!(
            "      modified: trusted {}, now {}",
            trust.trusted_hash.as_deref().unwrap_or(""),
            trust.hash
        ));
        if let Some(old) = &trust.trusted_command {
            details.push(format!("      was: {old}"));
            details.push(format!("      now: {}", trust.command));
        }
    }
    (label, details)
}
