//! What `hook list` prints: every handler by event, with its matcher, source, key and trust
//! (the review before `hook trust`), or the same as JSON. Hooks their agent runs without asking
//! for trust (Claude Code's own, under `--agent claude`: [`crate::ops::agents::runs_unasked`])
//! say so instead of a trust status, and the listing points to the relay's hooks.

use hook_config::Handler;
use hook_trust::TrustView;

use super::{Printer, say, trust::list_lines};
use crate::ops::agents::RelayHooks;

/// Who decides whether the listed hooks run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Gate {
    /// The engine's trust (`hook trust`): `hook run`, the relay, wuu agents.
    Trust,
    /// The agent named, which runs them without asking (its title: `Claude Code`).
    Agent(&'static str),
}

/// The handlers as JSON: each with its `trust` (status, enabled, hashes, trusted command), and
/// `trust_gated`: whether that trust decides if it runs (false for hooks their agent runs
/// without asking, whose `trust` is then the engine's record alone).
pub(crate) fn json(
    printer: &Printer,
    view: &TrustView,
    handlers: &[&Handler],
    gate: Gate,
) -> anyhow::Result<()> {
    let mut rows = Vec::with_capacity(handlers.len());
    for handler in handlers {
        let mut row = serde_json::to_value(handler)?;
        if let Some(object) = row.as_object_mut() {
            object.insert(
                "trust".into(),
                serde_json::to_value(view.evaluate(handler))?,
            );
            object.insert("trust_gated".into(), matches!(gate, Gate::Trust).into());
        }
        rows.push(row);
    }
    printer.exact_line(&serde_json::to_string_pretty(&rows)?);
    Ok(())
}

/// The handlers in text: an event's name, then a line a handler (and, for a modified one, what
/// changed). Every line is escaped: this listing is the review before `hook trust`, so a
/// command must not be able to hide itself or fake a row.
pub(crate) fn text(printer: &Printer, view: &TrustView, handlers: &[&Handler], gate: Gate) {
    let mut last_event = None;
    for handler in handlers {
        if last_event != Some(&handler.event) {
            say!(printer, "{}", handler.event);
            last_event = Some(&handler.event);
        }
        let matcher = handler
            .matcher
            .as_deref()
            .filter(|m| !m.is_empty())
            .unwrap_or("*");
        let source = match &handler.source.plugin {
            Some(plugin) => format!("plugin {}@{}", plugin.name, plugin.version),
            None => handler.source.layer.to_string(),
        };
        let suppressed = if handler.suppressed.is_some() {
            "  (suppressed)"
        } else {
            ""
        };
        let (trust, details) = match gate {
            Gate::Trust => list_lines(view, handler),
            // The engine's trust record would say "untrusted" of a hook the agent runs anyway.
            Gate::Agent(agent) => (format!("runs ({agent} does not ask for trust)"), Vec::new()),
        };
        // A guard that fails closed says so: its failures block the event.
        let on_failure = match handler.config.on_failure {
            Some(hook_config::OnFailure::Block) => "; onFailure block",
            _ => "",
        };
        say!(
            printer,
            "  [{matcher}] {} {}  ({source}; key {}; {trust}{on_failure}){suppressed}",
            handler.config.handler_type,
            handler.config.summary(),
            handler.key
        );
        for line in details {
            say!(printer, "{line}");
        }
    }
}

/// The last line of a listing of an agent's own hooks: the relay's hooks, which the relay runs
/// for the same agent with the engine's trust, and the command that lists them (`command`).
pub(crate) fn relay_pointer(printer: &Printer, relay: RelayHooks, command: &str) {
    let hooks = if relay.count == 1 { "hook" } else { "hooks" };
    let need_trust = match relay.need_trust {
        0 => String::new(),
        n => format!(", {n} not trusted yet"),
    };
    say!(
        printer,
        "and {} relay {hooks} (run by `hook relay`, with the engine's trust{need_trust}): `{command}`",
        relay.count
    );
}
