//! `hook trust`, `hook untrust`, `hook enable`, `hook disable`, and the trust that `hook run`
//! and `hook list` show.

use std::collections::BTreeSet;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use hook_config::Handler;
use hook_protocol::{Layer, SkipReason};
use hook_trust::{Refusal, TrustStatus, TrustView, check_keys, store_for};

use crate::ui::hints::location_flags;
use crate::ui::quote::shell_quote;
use crate::ui::terminal::{errln, outln};

use crate::engine_commands::Location;

/// The hooks a trust command changes.
#[derive(Debug, Args)]
pub(crate) struct KeysArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// The hooks' keys, as `hook list` shows them.
    #[arg(
        value_name = "KEY",
        required_unless_present_any = ["all", "review"],
        conflicts_with_all = ["all", "review"]
    )]
    pub(crate) keys: Vec<String>,
    /// Every hook: for `trust`, every one that needs trust and lacks it; for `untrust`, every
    /// trusted one; for `enable`/`disable`, every non-managed one.
    #[arg(long, conflicts_with = "review")]
    all: bool,
    /// `trust` only: walk every hook that needs trust, showing its source, command, the files
    /// it runs and, for a modified hook, what changed since it was trusted (unified diffs);
    /// on a terminal, ask trust / skip / quit for each.
    #[arg(long)]
    pub(crate) review: bool,
    /// With `--review`: print the review as JSON and change nothing.
    #[arg(long, requires = "review")]
    pub(crate) json: bool,
}

/// What a trust command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Trust,
    Untrust,
    Enable,
    Disable,
}

/// The engine's gate, whose messages name the trust commands with this `--home`/`--project`.
/// How `hook run` words a refusal: the reason and the command, with this `--home`/`--project`,
/// that lets the hook run.
pub(crate) fn refusal_phrasing(
    location: &Location,
) -> impl Fn(&Refusal) -> String + Send + Sync + 'static {
    let extra = location_flags(location);
    let trust = format!("hook trust --dialect {}{extra}", location.dialect);
    let enable = format!("hook enable --dialect {}{extra}", location.dialect);
    move |refusal| refusal_message(refusal, &trust, &enable)
}

/// What `hook run` says of a hook trust kept from running: why (the [`Refusal`]'s sentence)
/// and the command that lets it run, `trust` or `enable` followed by the quoted key.
fn refusal_message(refusal: &Refusal, trust: &str, enable: &str) -> String {
    let key = shell_quote(&refusal.trust.key);
    match refusal.reason {
        SkipReason::Disabled => format!("{refusal}: run `{enable} {key}` to enable it"),
        _ => format!("{refusal}: review it, then run `{trust} {key}`"),
    }
}

/// The one-line warnings `hook run` prints for what trust or a settings switch kept from
/// running.
pub(crate) fn skip_warnings(view: &TrustView, outcome: &hook_protocol::Outcome) -> Vec<String> {
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
            let why = run.error.as_deref().unwrap_or("not trusted");
            warnings.push(format!("warning: skipped {}: {why}", run.key));
        }
    }
    warnings
}

/// `hook trust`, `hook untrust`, `hook enable`, `hook disable`.
pub(crate) fn run(action: Action, args: KeysArgs) -> Result<ExitCode> {
    if args.review {
        if action != Action::Trust {
            bail!("--review goes with `hook trust` only");
        }
        return crate::trust_review::review(&args.location.location(), args.json);
    }
    let loaded = args.location.location().load()?;
    crate::engine_commands::print_diagnostics(&loaded.diagnostics);
    let dialect = args.location.dialect;
    let view = TrustView::for_discovery(&loaded.discovery);
    if let Some(error) = view.store_error() {
        bail!("{error}");
    }
    let store = store_for(dialect, &loaded.discovery.home);
    let handlers = loaded.registry.handlers();
    let records = view.records().cloned().unwrap_or_default();
    let policy = view.policy();

    // Keys a command may name: every loaded hook, and for untrust/enable the stale records of
    // hooks that are gone.
    let mut known: BTreeSet<&str> = handlers.iter().map(|h| h.key.as_str()).collect();
    if matches!(action, Action::Untrust | Action::Enable) {
        known.extend(records.keys().map(String::as_str));
    }
    check_keys(&args.keys, known.iter().copied())?;
    let named: Vec<&str> = if args.all {
        match action {
            Action::Trust => handlers
                .iter()
                .filter(|h| policy.needs_trust(h.source.layer))
                .filter(|h| view.evaluate(h).status != TrustStatus::Trusted)
                .map(|h| h.key.as_str())
                .collect(),
            Action::Untrust => records
                .iter()
                .filter(|(_, r)| r.trusted_hash.is_some())
                .map(|(k, _)| k.as_str())
                .collect(),
            Action::Enable | Action::Disable => handlers
                .iter()
                .filter(|h| h.source.layer != Layer::Managed)
                .map(|h| h.key.as_str())
                .collect(),
        }
    } else {
        args.keys.iter().map(String::as_str).collect()
    };
    let find = |key: &str| handlers.iter().find(|h| h.key == key);
    let mut changed: Vec<String> = Vec::new();
    match action {
        Action::Trust => {
            let mut candidates = Vec::new();
            for key in dedup(&named) {
                let Some(handler) = find(key) else { continue };
                if !policy.needs_trust(handler.source.layer) {
                    outln!(
                        "{key}: {} hooks need no trust",
                        handler.source.layer.as_str()
                    );
                    continue;
                }
                candidates.push(view.candidate(handler));
            }
            // The one way trust is written: the hashes with the files' digests, and copies.
            let trusted = view.trust(store.as_ref(), &candidates)?;
            for warning in &trusted.copy_warnings {
                errln!("warning: {warning}");
            }
            changed.extend(
                trusted
                    .granted
                    .iter()
                    .map(|g| format!("trusted {}", g.describe())),
            );
        }
        Action::Untrust => {
            let keys: Vec<String> = dedup(&named).into_iter().map(str::to_owned).collect();
            changed.extend(keys.iter().map(|k| format!("untrusted {k}")));
            if !keys.is_empty() {
                store.remove_trust(&keys)?;
            }
        }
        Action::Enable | Action::Disable => {
            let enable = action == Action::Enable;
            let mut keys = Vec::new();
            for key in dedup(&named) {
                if find(key).is_some_and(|h| h.source.layer == Layer::Managed) {
                    outln!("{key}: managed hooks cannot be disabled or enabled");
                    continue;
                }
                keys.push(key.to_owned());
                let verb = if enable { "enabled" } else { "disabled" };
                changed.push(format!("{verb} {key}"));
            }
            if !keys.is_empty() {
                store.set_enabled(&keys, enable)?;
            }
        }
    }
    if changed.is_empty() {
        outln!("nothing to change");
    }
    for line in changed {
        outln!("{line}");
    }
    outln!("store: {}", store.location().display());
    say_if_link(store.location());
    Ok(ExitCode::SUCCESS)
}

/// Says so when `path`, a file a command wrote, is a symbolic link (lime's `config.toml` kept
/// by a dotfile manager): what was written is the file it leads to.
pub(crate) fn say_if_link(path: &std::path::Path) {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link && let Ok(target) = std::fs::canonicalize(path) {
        outln!(
            "note: {} is a symbolic link: written through it to {}",
            path.display(),
            target.display()
        );
    }
}

fn dedup<'a>(keys: &[&'a str]) -> Vec<&'a str> {
    let mut seen = BTreeSet::new();
    keys.iter().copied().filter(|k| seen.insert(*k)).collect()
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
