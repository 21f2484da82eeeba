//! `hook trust --review`: every hook that needs trust, what it runs and what changed since it
//! was trusted (unified diffs against the private copies `hook trust` keeps), then trust /
//! skip / quit per hook on a terminal, or the same review as JSON.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use anyhow::{Result, bail};
use hook_trust::{
    Candidate, FileChange, FileTrust, TrustStatus, TrustView, TrustedCopies, Uncovered, identity,
    store_for,
};
use serde::Serialize;
use serde_json::Value;

use crate::engine_commands::Location;
use crate::ui::terminal::{outln, println_exact};

/// One hook under review, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Item {
    key: String,
    event: String,
    matcher: String,
    layer: String,
    /// The file that declares it (or the plugin).
    source: String,
    status: TrustStatus,
    enabled: bool,
    command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted_command: Option<String>,
    hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted_hash: Option<String>,
    /// The unified diff of the normalized configuration, trusted against now, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    config_diff: Option<String>,
    /// Why there is no configuration diff although the hash changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    config_note: Option<String>,
    files: Vec<ReviewedFile>,
    /// Words that leave the project or plugin through a symbolic link: not covered, so the
    /// hook cannot be trusted as it is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    uncovered: Vec<Uncovered>,
}

#[derive(Debug, Serialize)]
struct ReviewedFile {
    #[serde(flatten)]
    file: FileTrust,
    /// The unified diff of the file, trusted against now (changed files with a kept copy;
    /// added and not-recorded files against nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    /// Why no diff is shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// `hook trust --review [--json]`.
pub(crate) fn review(location: &Location, json: bool) -> Result<ExitCode> {
    let loaded = location.load()?;
    crate::engine_commands::print_diagnostics(&loaded.diagnostics);
    let view = TrustView::for_discovery(&loaded.discovery);
    if let Some(error) = view.store_error() {
        bail!("{error}");
    }
    let copies = TrustedCopies::in_home(&loaded.discovery.home);
    let policy = view.policy();
    // Each file is read once: its digest, the diff shown and what a trust records and copies
    // all come from those bytes.
    // The bytes are let go once the hook's diff is made: one hook's files at a time.
    let mut pending: Vec<Candidate<'_>> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    for handler in loaded.registry.handlers() {
        if !policy.needs_trust(handler.source.layer) {
            continue;
        }
        let mut candidate = view.candidate_read(handler);
        if !matches!(
            candidate.trust().status,
            TrustStatus::Untrusted | TrustStatus::Modified
        ) {
            continue;
        }
        items.push(item(&view, &copies, &candidate));
        candidate.forget_contents();
        pending.push(candidate);
    }
    if json {
        println_exact(&serde_json::to_string_pretty(&serde_json::json!({
            "dialect": location.dialect.to_string(),
            "hooks": items,
        }))?);
        return Ok(ExitCode::SUCCESS);
    }
    if items.is_empty() {
        outln!("every hook that needs trust has it: nothing to review");
        return Ok(ExitCode::SUCCESS);
    }
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        let flags = crate::ui::hints::location_flags(location);
        bail!(
            "hook trust --review asks about each hook, and needs a terminal for it; read the review with `hook trust --dialect {}{flags} --review --json`, then trust hooks by key (`hook trust --dialect {}{flags} KEY...`) or all of them (`--all`)",
            location.dialect,
            location.dialect
        );
    }
    let store = store_for(location.dialect, &loaded.discovery.home);
    let (mut trusted, mut skipped) = (0, 0);
    let mut answers = std::io::stdin().lock();
    for (index, (item, candidate)) in items.iter().zip(&pending).enumerate() {
        show(index + 1, items.len(), item);
        match ask(&mut answers)? {
            Answer::Trust => {
                // The bytes shown are the bytes trusted: the digests and copies come from the
                // one read the diff was made of.
                match view.trust(store.as_ref(), std::slice::from_ref(candidate)) {
                    Ok(done) => {
                        for warning in &done.copy_warnings {
                            outln!("warning: {warning}");
                        }
                        for granted in &done.granted {
                            outln!("trusted {}", granted.describe());
                        }
                        trusted += 1;
                    }
                    Err(hook_trust::GrantError::Store(error)) => return Err(error.into()),
                    Err(error) => {
                        outln!("not trusted: {error}");
                        skipped += 1;
                    }
                }
            }
            Answer::Skip => {
                outln!("skipped {}", item.key);
                skipped += 1;
            }
            Answer::Quit => break,
        }
    }
    let left = items.len() - trusted - skipped;
    outln!("{trusted} trusted, {skipped} skipped, {left} not reviewed");
    outln!("store: {}", store.location().display());
    crate::trust_commands::say_if_link(store.location());
    Ok(ExitCode::SUCCESS)
}

enum Answer {
    Trust,
    Skip,
    Quit,
}

/// Asks until the answer is one of t, s, q (end of input quits).
fn ask(input: &mut impl BufRead) -> Result<Answer> {
    loop {
        crate::ui::terminal::print_exact("trust this hook? [t]rust / [s]kip / [q]uit: ");
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            outln!();
            return Ok(Answer::Quit);
        }
        match line.trim() {
            "t" | "trust" => return Ok(Answer::Trust),
            "s" | "skip" => return Ok(Answer::Skip),
            "q" | "quit" => return Ok(Answer::Quit),
            _ => outln!("answer t, s or q"),
        }
    }
}

/// Prints one hook's review (every line escaped: a diff is the project's text).
fn show(number: usize, total: usize, item: &Item) {
    outln!();
    outln!("hook {number} of {total}: {} ({})", item.key, item.status);
    outln!("  source:  {} ({})", item.source, item.layer);
    outln!("  event:   {} [{}]", item.event, item.matcher);
    outln!("  command: {}", item.command);
    if let Some(old) = &item.trusted_command
        && *old != item.command
    {
        outln!("  was:     {old}");
    }
    if item.files.is_empty() {
        outln!("  files:   none inside the project or plugin");
    }
    for file in &item.files {
        outln!(
            "  file:    {} ({})",
            file.file.path.display(),
            file.file.change
        );
    }
    for word in &item.uncovered {
        outln!("  not covered: {} {}", word.word, word.why);
    }
    if let Some(diff) = &item.config_diff {
        outln!("  configuration, trusted -> now:");
        for line in diff.lines() {
            outln!("    {line}");
        }
    } else if let Some(note) = &item.config_note {
        outln!("  configuration: {note}");
    }
    for file in &item.files {
        if let Some(diff) = &file.diff {
            outln!("  {}:", file.file.path.display());
            for line in diff.lines() {
                outln!("    {line}");
            }
        } else if let Some(note) = &file.note {
            outln!("  {}: {note}", file.file.path.display());
        }
    }
}

fn item(view: &TrustView, copies: &TrustedCopies, candidate: &Candidate<'_>) -> Item {
    let (handler, trust) = (candidate.handler(), candidate.trust());
    let source = match (&handler.source.plugin, &handler.source.path) {
        (Some(plugin), _) => format!("plugin {}@{}", plugin.name, plugin.version),
        (None, Some(path)) => path.clone(),
        (None, None) => handler.source.layer.to_string(),
    };
    let now = pretty(&identity(view.policy().dialect(), handler, view.context()));
    let (config_diff, config_note) = match &trust.trusted_hash {
        Some(old) if *old != trust.hash => match copies.read(old) {
            Some(bytes) => {
                let before = serde_json::from_slice::<Value>(&bytes)
                    .map(|v| pretty(&v))
                    .unwrap_or_default();
                (Some(diff(&before, &now, "trusted", "now")), None)
            }
            None => (
                None,
                Some("changed; no copy of the trusted configuration is kept (trusted before copies were kept, or pruned)".to_owned()),
            ),
        },
        _ => (None, None),
    };
    let files = trust
        .files
        .iter()
        .map(|file| reviewed_file(copies, file, candidate.contents(&file.path)))
        .collect();
    Item {
        key: trust.key.clone(),
        event: handler.event.to_string(),
        matcher: handler.matcher.clone().unwrap_or_default(),
        layer: handler.source.layer.to_string(),
        source,
        status: trust.status,
        enabled: trust.enabled,
        command: trust.command.clone(),
        trusted_command: trust.trusted_command.clone(),
        hash: trust.hash.clone(),
        trusted_hash: trust.trusted_hash.clone(),
        config_diff,
        config_note,
        files,
        uncovered: trust.uncovered.clone(),
    }
}

/// One file's review; `now` is the bytes its digest was taken of (read once, for the review).
fn reviewed_file(copies: &TrustedCopies, file: &FileTrust, now: Option<&[u8]>) -> ReviewedFile {
    let label = file.path.display().to_string();
    let (diff, note) = match file.change {
        FileChange::Unchanged => (None, None),
        FileChange::Unreadable => (None, file.problem.clone()),
        FileChange::Removed => (None, Some("removed since it was trusted".to_owned())),
        FileChange::Changed => {
            let old = file.trusted_sha256.as_deref().and_then(|d| copies.read(d));
            match (old, now) {
                (Some(old), Some(new)) => (
                    Some(diff(
                        &shown(&old),
                        &shown(new),
                        &format!("{label} (trusted)"),
                        &format!("{label} (now)"),
                    )),
                    binary_note(&old, new),
                ),
                (None, _) => (
                    None,
                    Some("changed; no copy of the trusted file is kept".to_owned()),
                ),
                (_, None) => (None, Some("changed; it could not be read".to_owned())),
            }
        }
        FileChange::Added | FileChange::NotRecorded => match now {
            Some(new) => (
                Some(diff(
                    "",
                    &shown(new),
                    "(nothing trusted)",
                    &format!("{label} (now)"),
                )),
                binary_note(&[], new),
            ),
            None => (None, Some("it could not be read".to_owned())),
        },
        _ => (None, None),
    };
    ReviewedFile {
        file: file.clone(),
        diff,
        note,
    }
}

/// `bytes` as text for a diff: UTF-8 as it is, every other byte as `\xNN` (so one Latin-1
/// byte never hides the diff; the terminal escapes control characters again when printing).
fn shown(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    text
}

/// Says that bytes are shown escaped, when either side is not UTF-8.
fn binary_note(old: &[u8], new: &[u8]) -> Option<String> {
    (std::str::from_utf8(old).is_err() || std::str::from_utf8(new).is_err())
        .then(|| "not UTF-8: bytes that are not UTF-8 are shown as \\xNN".to_owned())
}

/// A unified diff of `old` and `new`: every changed line (a review that cut the diff could
/// hide what it was meant to show).
fn diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}
