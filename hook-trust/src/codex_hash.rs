//! Codex's own hook-trust records: `[hooks.state."<key>"] trusted_hash = "sha256:..."` in the
//! user's `config.toml`, as Codex CLI 0.169 writes them when a hook is trusted in `/hooks`.
//! Beside the seed's hash ([`crate::trust_hash`]), which stays the one this crate's stores
//! record: this recipe is Codex's, used for the records a tool writes in Codex's own config
//! (`hook relay install --trust`) and to read which hooks Codex trusts (`--move`).
//!
//! Read from `codex-rs/hooks/src/engine/discovery.rs` (`command_hook_hash`) and
//! `codex-rs/config` (`version_for_toml`), `codex-rs/hooks/src/lib.rs` (`hook_key`):
//!
//! - **key**: `<config file path>:<event label>:<group index>:<handler index>`, the event label
//!   in snake_case (`pre_tool_use`), indexes from 0 within the file's groups of that event and
//!   the group's handlers;
//! - **hash**: `sha256:` + hex SHA-256 of the compact JSON, keys sorted, of the identity
//!   `{"event_name": label, "matcher": m, "hooks": [{"type": "command", "command": c,
//!   "timeout": t, "async": a, "statusMessage": s, "additionalContextLimit": l}]}` with
//!   `matcher`, `statusMessage` and `additionalContextLimit` left out when absent (the identity
//!   goes through TOML, which drops them); `matcher` only on events whose matcher Codex uses
//!   (where the dialect matches on something); `timeout` the one in force (600 when unset, at
//!   least 1).
//!
//! Checked against the real Codex 0.169.1 by the `hook-cli` test
//! `the_real_codex_trusts_the_entries_install_trusted_and_move_keeps_its_trust`: `codex
//! app-server`'s `hooks/list` reports the entries `install --trust` recorded as `trusted`, with
//! the same key and `currentHash`, and a hook trusted with Codex's own `currentHash` (a
//! `statusMessage` and a `timeout` included) is recognised as trusted by `--move`. The test runs
//! when the Codex that `cargo xtask conformance` installs is in `target/conformance/npm`, and
//! says it skipped otherwise. `additionalContextLimit` (0.169.1), an `async` hook, a `0`
//! timeout and a matcher on `UserPromptSubmit` were compared by hand with `hooks/list`'s
//! `currentHash` the same way.

use std::collections::BTreeMap;

use serde_json::Value;
use sha2::{Digest, Sha256};

use hook_protocol::{Dialect, Event, MatchTarget};

/// A Codex command hook, as the identity Codex hashes needs it. Built with
/// [`CodexHook::new`] and the `with_` methods.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodexHook<'a> {
    /// The event it is configured on.
    pub event: &'a Event,
    /// Its group's matcher, as written.
    pub matcher: Option<&'a str>,
    /// The command.
    pub command: &'a str,
    /// The timeout as written, in seconds; `None` is Codex's default (600).
    pub timeout: Option<i64>,
    /// `async = true`.
    pub is_async: bool,
    /// `statusMessage`, as written.
    pub status_message: Option<&'a str>,
    /// `additionalContextLimit`, as written.
    pub additional_context_limit: Option<i64>,
}

impl<'a> CodexHook<'a> {
    /// The command hook `command` on `event`: no matcher, timeout, status message or context
    /// limit, not async.
    pub fn new(event: &'a Event, command: &'a str) -> Self {
        CodexHook {
            event,
            matcher: None,
            command,
            timeout: None,
            is_async: false,
            status_message: None,
            additional_context_limit: None,
        }
    }

    /// With its group's matcher.
    #[must_use]
    pub fn with_matcher(mut self, matcher: Option<&'a str>) -> Self {
        self.matcher = matcher;
        self
    }

    /// With the timeout as written (seconds).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<i64>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Async or not.
    #[must_use]
    pub fn with_async(mut self, is_async: bool) -> Self {
        self.is_async = is_async;
        self
    }

    /// With its `statusMessage`.
    #[must_use]
    pub fn with_status_message(mut self, status_message: Option<&'a str>) -> Self {
        self.status_message = status_message;
        self
    }

    /// With its `additionalContextLimit`.
    #[must_use]
    pub fn with_additional_context_limit(mut self, limit: Option<i64>) -> Self {
        self.additional_context_limit = limit;
        self
    }
}

/// The event's label in Codex's keys and hashes: `PreToolUse` → `pre_tool_use`.
fn event_label(event: &Event) -> String {
    let mut label = String::new();
    for (i, c) in event.as_str().chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                label.push('_');
            }
            label.push(c.to_ascii_lowercase());
        } else {
            label.push(c);
        }
    }
    label
}

/// Whether Codex keeps the matcher of `event` (it drops it where there is nothing to match).
fn uses_matcher(dialect: Dialect, event: &Event) -> bool {
    event.match_target(dialect) != MatchTarget::Nothing
}

/// The key of Codex's trust record of handler `handler` of group `group` of `event` in
/// `config_file` (the file's absolute path, as Codex names it).
///
/// ```
/// use hook_protocol::Event;
/// assert_eq!(
///     hook_trust::codex_trust_key("/h/.codex/config.toml", &Event::PreToolUse, 2, 0),
///     "/h/.codex/config.toml:pre_tool_use:2:0"
/// );
/// ```
pub fn codex_trust_key(config_file: &str, event: &Event, group: usize, handler: usize) -> String {
    format!("{config_file}:{}:{group}:{handler}", event_label(event))
}

/// The trust hash Codex computes for `hook` (`dialect`'s matcher rules say on which events the
/// matcher counts), `sha256:` and 64 hex digits.
pub fn codex_trust_hash(dialect: Dialect, hook: &CodexHook<'_>) -> String {
    // BTreeMaps: keys sorted whatever serde_json's features, as Codex's canonical form.
    let mut handler = BTreeMap::<&str, Value>::new();
    handler.insert("type", "command".into());
    handler.insert("command", hook.command.into());
    handler.insert("timeout", hook.timeout.unwrap_or(600).max(1).into());
    handler.insert("async", hook.is_async.into());
    if let Some(status) = hook.status_message {
        handler.insert("statusMessage", status.into());
    }
    if let Some(limit) = hook.additional_context_limit {
        handler.insert("additionalContextLimit", limit.into());
    }
    let mut identity = BTreeMap::<&str, Value>::new();
    identity.insert("event_name", event_label(hook.event).into());
    if let Some(matcher) = hook.matcher.filter(|_| uses_matcher(dialect, hook.event)) {
        identity.insert("matcher", matcher.into());
    }
    let handlers = serde_json::to_value([handler]).unwrap_or(Value::Null);
    identity.insert("hooks", handlers);
    let canonical = serde_json::to_string(&identity).unwrap_or_default();
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(canonical.as_bytes()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_codex_snake_case() {
        assert_eq!(event_label(&Event::PreToolUse), "pre_tool_use");
        assert_eq!(event_label(&Event::SessionStart), "session_start");
        assert_eq!(event_label(&Event::Stop), "stop");
    }

    #[test]
    fn the_identity_is_the_sorted_compact_json_codex_hashes() {
        let hook = CodexHook::new(&Event::PreToolUse, "echo hi").with_matcher(Some("Bash"));
        let expected = r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hi","timeout":600,"type":"command"}],"matcher":"Bash"}"#;
        assert_eq!(
            codex_trust_hash(Dialect::Lime, &hook),
            format!(
                "sha256:{}",
                hex::encode(Sha256::digest(expected.as_bytes()))
            )
        );
        // Codex drops the matcher of an event it does not match on.
        let stop = CodexHook {
            event: &Event::Stop,
            ..hook.clone()
        };
        let without = CodexHook {
            event: &Event::Stop,
            matcher: None,
            ..hook
        };
        assert_eq!(
            codex_trust_hash(Dialect::Lime, &stop),
            codex_trust_hash(Dialect::Lime, &without)
        );
        assert_eq!(
            codex_trust_key("/h/.codex/config.toml", &Event::PreToolUse, 2, 0),
            "/h/.codex/config.toml:pre_tool_use:2:0"
        );
    }

    #[test]
    fn every_field_of_the_identity_counts() {
        let base = CodexHook::new(&Event::PreToolUse, "echo hi");
        let variants = [
            base.clone().with_timeout(Some(5)),
            base.clone().with_async(true),
            base.clone().with_status_message(Some("checking")),
            base.clone().with_additional_context_limit(Some(100)),
            base.clone().with_matcher(Some("Bash")),
        ];
        let plain = codex_trust_hash(Dialect::Lime, &base);
        for variant in &variants {
            assert_ne!(
                codex_trust_hash(Dialect::Lime, variant),
                plain,
                "{variant:?}"
            );
        }
        // The timeout in force: unset is 600, 0 is at least 1.
        assert_eq!(
            codex_trust_hash(Dialect::Lime, &base.clone().with_timeout(Some(600))),
            plain
        );
        assert_eq!(
            codex_trust_hash(Dialect::Lime, &base.clone().with_timeout(Some(0))),
            codex_trust_hash(Dialect::Lime, &base.with_timeout(Some(1)))
        );
    }
}
