//! `hook doctor`'s checks of each configured hook as configured: the configuration's own
//! diagnostics, matchers, timeouts and trust, which is not asked of hooks their agent runs
//! without asking (Claude Code's own, under `--agent claude`); its command line is
//! [`super::command`]'s.

use hook_config::{Handler, Matcher};
use hook_protocol::{Dialect, Event, HandlerType, MatchTarget};
use hook_trust::TrustStatus;

use super::command::{Add, Env, check_command, check_project_var};
use super::{Finding, Fix, Severity};
use crate::ops::location::Location;

/// A `SessionEnd` hook that may take longer than this is a warning where the dialect sets no
/// maximum: the agent is closing.
const SESSION_END_SECONDS: f64 = 5.0;

/// Every finding of one loaded configuration (the agent's or the relay's); the command lines
/// too with `commands` (the relay's are [`super::guards`]' to check). With `unasked`, the agent
/// runs these hooks without asking ([`crate::ops::agents::untrusted_by_agent`]): the engine's
/// trust and its enabled switch, which it never reads, are not findings.
pub(super) fn check_loaded(
    location: &Location,
    loaded: &hook_config::Loaded,
    env: &Env,
    commands: bool,
    unasked: bool,
    findings: &mut Vec<Finding>,
) {
    let dialect = location.dialect;
    for diagnostic in &loaded.diagnostics {
        let mut location_text = diagnostic.path.clone();
        if let Some(line) = diagnostic.line {
            location_text.push_str(&format!(":{line}"));
            if let Some(column) = diagnostic.column {
                location_text.push_str(&format!(":{column}"));
            }
        }
        findings.push(Finding {
            severity: match diagnostic.severity {
                hook_config::Severity::Error => Severity::Error,
                hook_config::Severity::Warning => Severity::Warning,
            },
            key: "-".into(),
            location: location_text,
            message: diagnostic.message.clone(),
            fix: Some(Fix::Say(
                "edit the file (`hook validate --config FILE` checks it)".into(),
            )),
        });
    }
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let handlers = loaded.registry.handlers();
    for handler in handlers {
        let mut add = |severity: Severity, message: String, fix: Option<Fix>| {
            findings.push(Finding {
                severity,
                key: handler.key.clone(),
                location: where_configured(handler),
                message,
                fix,
            });
        };
        // A relay entry's program is checked with the relay's entries (`super::relay`), for
        // both agents' settings.
        let relay_entry = handler
            .config
            .command
            .as_deref()
            .is_some_and(|c| crate::ops::relay::is_relay_entry(c, dialect));
        if commands && handler.config.handler_type == HandlerType::Command && !relay_entry {
            check_command(handler, env, &mut add);
            check_project_var(handler, dialect, unasked, &mut add);
        }
        check_matcher(handler, dialect, &mut add);
        // A relay entry's timeout is its relay hooks' plus 5 s, written by `hook relay install`
        // and `sync`: the relay hooks' own timeouts are checked (and fixed) where they are.
        if !relay_entry {
            check_timeout(handler, dialect, &mut add);
        }
        if unasked {
            continue;
        }
        let trust = view.evaluate(handler);
        match trust.status {
            // The agent starts its relay entries itself, without the engine's trust; what the
            // relay then runs is gated by the relay's own trust, checked with its hooks.
            TrustStatus::Untrusted | TrustStatus::Modified if relay_entry => {}
            TrustStatus::Untrusted | TrustStatus::Modified => add(
                Severity::Warning,
                format!("it will not run: {}", trust_word(trust.status)),
                Some(Fix::Trust {
                    location: location.clone(),
                    key: handler.key.clone(),
                }),
            ),
            _ => {}
        }
        if !trust.enabled {
            add(
                Severity::Info,
                "it is disabled".into(),
                Some(Fix::Enable {
                    location: location.clone(),
                    key: handler.key.clone(),
                }),
            );
        }
    }
}

fn trust_word(status: TrustStatus) -> &'static str {
    match status {
        TrustStatus::Untrusted => "it has never been trusted",
        TrustStatus::Modified => "it changed since it was trusted",
        _ => "",
    }
}

/// `file:line:col` of a handler, or its file, or its layer.
pub(super) fn where_configured(handler: &Handler) -> String {
    let file = handler
        .source
        .path
        .clone()
        .unwrap_or_else(|| handler.source.layer.to_string());
    match &handler.position {
        Some(pos) => format!("{file}:{}:{}", pos.line, pos.column),
        None => file,
    }
}

/// Every agent's tools (`MatchingRules::known_tools`), in their canonical spelling; the first
/// ones (Claude Code's) are named in the fix.
fn agents_tools() -> impl Iterator<Item = &'static str> {
    Dialect::ALL
        .into_iter()
        .flat_map(|dialect| dialect.rules().matching().known_tools().iter().copied())
}

/// A matcher on a tool event that matches none of the agents' tools. Any agent's tool counts:
/// the lists are never complete, so only a matcher that fits none is worth a warning.
fn check_matcher(handler: &Handler, dialect: Dialect, add: &mut Add<'_>) {
    if handler.event.match_target(dialect) != MatchTarget::ToolName {
        return;
    }
    let Ok(matcher) = Matcher::compile(dialect, handler.matcher.as_deref()) else {
        // An invalid matcher is a diagnostic already.
        return;
    };
    let raw = handler.matcher.as_deref().unwrap_or("");
    if raw.contains("mcp") {
        return;
    }
    let rules = dialect.rules();
    let matches_one =
        agents_tools().any(|tool| matcher.is_match(&rules.matching().tool_name(tool)));
    if !matches_one {
        let named: Vec<&str> = agents_tools().take(8).collect();
        add(
            Severity::Warning,
            format!("its matcher `{raw}` matches none of the agents' tools: it may never run"),
            Some(Fix::Say(format!(
                "check the tool's spelling (case matters): {}",
                named.join(", ")
            ))),
        );
    }
}

fn check_timeout(handler: &Handler, dialect: Dialect, add: &mut Add<'_>) {
    let (_, max) =
        hook_config::timeout_limits(dialect, &handler.event, handler.config.handler_type);
    let written = handler.config.timeout;
    let effective = handler.timeout.as_secs_f64();
    if let (Some(max), Some(written)) = (max, written)
        && written > max
    {
        add(
            Severity::Error,
            format!(
                "its timeout of {written} s is longer than {} allows ({max} s): it is cut at {max} s",
                handler.event
            ),
            Some(Fix::Say(format!("set `timeout` to at most {max}"))),
        );
    } else if handler.event == Event::SessionEnd && effective > SESSION_END_SECONDS {
        add(
            Severity::Warning,
            format!(
                "SessionEnd hook may take {effective} s: the agent is closing and may not wait that long"
            ),
            Some(Fix::Say(format!(
                "set `timeout` to a few seconds (at most {SESSION_END_SECONDS})"
            ))),
        );
    }
}
