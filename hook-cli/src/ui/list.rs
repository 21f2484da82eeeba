//! What `hook list` prints: every handler by event, with its matcher, source, key and trust
//! (the review before `hook trust`), or the same as JSON.

use hook_config::Handler;
use hook_trust::TrustView;

use super::{Printer, say, trust::list_lines};

/// The handlers as JSON: each with its `trust` (status, enabled, hashes, trusted command).
pub(crate) fn json(
    printer: &Printer,
    view: &TrustView,
    handlers: &[&Handler],
) -> anyhow::Result<()> {
    let mut rows = Vec::with_capacity(handlers.len());
    for handler in handlers {
        let mut row = serde_json::to_value(handler)?;
        if let Some(object) = row.as_object_mut() {
            object.insert(
                "trust".into(),
                serde_json::to_value(view.evaluate(handler))?,
            );
        }
        rows.push(row);
    }
    printer.exact_line(&serde_json::to_string_pretty(&rows)?);
    Ok(())
}

/// The handlers in text: an event's name, then a line a handler (and, for a modified one, what
/// changed). Every line is escaped: this listing is the review before `hook trust`, so a
/// command must not be able to hide itself or fake a row.
pub(crate) fn text(printer: &Printer, view: &TrustView, handlers: &[&Handler]) {
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
        let (trust, details) = list_lines(view, handler);
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
