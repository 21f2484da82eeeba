//! `hook trust`, `hook untrust`, `hook enable`, `hook disable`: the trust store changed for the
//! hooks named by key (or `--all`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::{Result, bail};
use hook_config::Loaded;
use hook_protocol::{Layer, SkipReason};
use hook_trust::{Refusal, TrustStatus, TrustView, check_keys, store_for_discovery};

use super::location::Location;

/// What a trust command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Record the hooks' hashes (and their files' digests and copies).
    Trust,
    /// Take the records' trust away (the disabled state stays).
    Untrust,
    /// Enable disabled hooks (their trust stays).
    Enable,
    /// Disable hooks (their trust stays).
    Disable,
}

/// Which hooks: by key, or every one the action applies to.
#[derive(Debug)]
pub(crate) struct Selection {
    /// The keys, as `hook list` shows them.
    pub(crate) keys: Vec<String>,
    /// Every hook: for `trust`, every one that needs trust and lacks it; for `untrust`, every
    /// trusted one; for `enable`/`disable`, every non-managed one.
    pub(crate) all: bool,
}

/// What a trust command did, in order.
#[derive(Debug)]
pub(crate) struct Changed {
    /// Hooks named but left alone, and why (`KEY: user hooks need no trust`).
    pub(crate) left: Vec<String>,
    /// Warnings (a file whose copy could not be kept).
    pub(crate) warnings: Vec<String>,
    /// What changed, a line a hook (`trusted KEY (sha256:...)`).
    pub(crate) changed: Vec<String>,
    /// The trust store written.
    pub(crate) store: PathBuf,
}

/// Applies `action` to the hooks of `loaded` that `selection` names.
pub(crate) fn apply(action: Action, loaded: &Loaded, selection: &Selection) -> Result<Changed> {
    let view = TrustView::for_discovery(&loaded.discovery);
    if let Some(error) = view.store_error() {
        bail!("{error}");
    }
    let store = store_for_discovery(&loaded.discovery);
    let handlers = loaded.registry.handlers();
    let records = view.records().cloned().unwrap_or_default();
    let policy = view.policy();

    // Keys a command may name: every loaded hook, and for untrust/enable the stale records of
    // hooks that are gone.
    let mut known: BTreeSet<&str> = handlers.iter().map(|h| h.key.as_str()).collect();
    if matches!(action, Action::Untrust | Action::Enable) {
        known.extend(records.keys().map(String::as_str));
    }
    check_keys(&selection.keys, known.iter().copied())?;
    let named: Vec<&str> = if selection.all {
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
        selection.keys.iter().map(String::as_str).collect()
    };
    let find = |key: &str| handlers.iter().find(|h| h.key == key);
    let (mut left, mut warnings, mut changed) = (Vec::new(), Vec::new(), Vec::new());
    match action {
        Action::Trust => {
            let mut candidates = Vec::new();
            for key in dedup(&named) {
                let Some(handler) = find(key) else { continue };
                if !policy.needs_trust(handler.source.layer) {
                    left.push(format!(
                        "{key}: {} hooks need no trust",
                        handler.source.layer.as_str()
                    ));
                    continue;
                }
                candidates.push(view.candidate(handler));
            }
            // The one way trust is written: the hashes with the files' digests, and copies.
            let trusted = view.trust(store.as_ref(), &candidates)?;
            warnings.extend(trusted.copy_warnings.iter().map(ToString::to_string));
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
                    left.push(format!(
                        "{key}: managed hooks cannot be disabled or enabled"
                    ));
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
    Ok(Changed {
        left,
        warnings,
        changed,
        store: store.location().to_path_buf(),
    })
}

/// `keys` in order, each once.
fn dedup<'a>(keys: &[&'a str]) -> Vec<&'a str> {
    let mut seen = BTreeSet::new();
    keys.iter().copied().filter(|k| seen.insert(*k)).collect()
}

/// Where `path`, a file a command wrote, leads when it is a symbolic link (lime's `config.toml`
/// kept by a dotfile manager): what was written is the file it leads to.
pub(crate) fn link_target(path: &std::path::Path) -> Option<PathBuf> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        std::fs::canonicalize(path).ok()
    } else {
        None
    }
}

/// How `hook run` words a refusal: the reason and the command, with this `--home`/`--project`,
/// that lets the hook run.
pub(crate) fn refusal_phrasing(
    location: &Location,
) -> impl Fn(&Refusal) -> String + Send + Sync + 'static {
    let extra = location.flags();
    let trust = format!("hook trust --dialect {}{extra}", location.dialect);
    let enable = format!("hook enable --dialect {}{extra}", location.dialect);
    move |refusal| refusal_message(refusal, &trust, &enable)
}

/// What `hook run` says of a hook trust kept from running: why (the [`Refusal`]'s sentence)
/// and the command that lets it run, `trust` or `enable` followed by the quoted key.
fn refusal_message(refusal: &Refusal, trust: &str, enable: &str) -> String {
    let key = crate::shell::quote(&refusal.trust.key);
    match refusal.reason {
        SkipReason::Disabled => format!("{refusal}: run `{enable} {key}` to enable it"),
        _ => format!("{refusal}: review it, then run `{trust} {key}`"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::verboo_guard;
    use hook_protocol::Dialect;

    const GUARD: &str = "project:[ROOT]/project/.claude/settings.json:PreToolUse:Bash:0";

    #[test]
    fn each_action_changes_what_it_says_and_leaves_the_rest() {
        let scene = verboo_guard();
        let location = scene.location(Dialect::Verboo, ".claude");
        let all = Selection {
            keys: Vec::new(),
            all: true,
        };
        let user = Selection {
            keys: vec!["user:settings.json:Stop::0".to_owned()],
            all: false,
        };
        // (action, selection, hooks left alone, lines changed): in order, on one store.
        let table: &[(Action, &Selection, &[&str], &[String])] = &[
            (
                Action::Trust,
                &user,
                &["user:settings.json:Stop::0: user hooks need no trust"],
                &[],
            ),
            (Action::Trust, &all, &[], &[format!("trusted {GUARD}")]),
            (Action::Trust, &all, &[], &[]),
            (
                Action::Disable,
                &all,
                &[],
                &[
                    "disabled user:settings.json:Stop::0".to_owned(),
                    format!("disabled {GUARD}"),
                ],
            ),
            (
                Action::Enable,
                &user,
                &[],
                &["enabled user:settings.json:Stop::0".to_owned()],
            ),
            (Action::Untrust, &all, &[], &[format!("untrusted {GUARD}")]),
        ];
        for (action, selection, left, changed) in table {
            let loaded = location.load().unwrap();
            let done = apply(*action, &loaded, selection).unwrap();
            let shown: Vec<String> = done
                .changed
                .iter()
                .map(|line| {
                    // `trusted KEY (sha256:...) and the files it runs: ...`: the key is enough.
                    let line = scene.shown(line);
                    line.split(" (sha256").next().unwrap_or_default().to_owned()
                })
                .collect();
            assert_eq!(shown, *changed, "{action:?}");
            assert_eq!(done.left, *left, "{action:?}");
            assert_eq!(done.store, scene.path("home/.claude/hook-trust.json"));
        }
    }

    #[test]
    fn an_unknown_key_is_refused_and_nothing_is_written() {
        let scene = verboo_guard();
        let loaded = scene.location(Dialect::Verboo, ".claude").load().unwrap();
        let error = apply(
            Action::Trust,
            &loaded,
            &Selection {
                keys: vec!["project:nope:Stop::0".to_owned()],
                all: false,
            },
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("project:nope:Stop::0"),
            "{error}"
        );
        assert!(!scene.path("home/.claude/hook-trust.json").exists());
    }
}
