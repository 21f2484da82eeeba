//! `hook list`: every discovered hook by event and matcher, with its source, key and trust; for
//! an agent that runs its own hooks without asking (`--agent claude`), that instead of the
//! engine's trust, and a last line pointing to the relay's hooks (`--relay`), which the relay
//! trust-checks.

use anyhow::Result;
use clap::Args;
use hook_config::Handler;

use crate::args::FoundLocationArgs;
use crate::ops::agents;
use crate::ui::list::Gate;
use crate::ui::{Printer, Status, list as show, say, say_err};

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    location: FoundLocationArgs,
    /// Print JSON: an array of handlers (key, event, matcher, config, timeout, source...), each
    /// with its `trust` (status, enabled, hash, trusted hash and command) and `trust_gated`
    /// (false where the agent runs the hook without asking: Claude Code's own, --agent claude).
    #[arg(long)]
    json: bool,
    /// Exit 1 when the configuration has any diagnostic (error or warning); without it the
    /// diagnostics are printed and the listing exits 0.
    #[arg(long)]
    strict: bool,
}

/// `hook list`: every discovered handler by event, then matcher.
pub(crate) fn exec(args: ListArgs, printer: &Printer) -> Result<Status> {
    let location = args.location.location(printer)?;
    let loaded = location.load()?;
    crate::ui::diagnostics::print(printer, &loaded.diagnostics);
    let mut handlers: Vec<&Handler> = loaded.registry.handlers().iter().collect();
    // By event, then matcher; configuration order within a group (the sort is stable).
    handlers.sort_by(|a, b| {
        (a.event.as_str(), a.matcher.as_deref()).cmp(&(b.event.as_str(), b.matcher.as_deref()))
    });
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    // An agent named (`--agent`, or found with neither flag), not a dialect.
    let by_agent = args.location.which.dialect.is_none();
    let gate = if agents::untrusted_by_agent(by_agent, &location) {
        Gate::Agent(agents::title(location.dialect))
    } else {
        Gate::Trust
    };
    if let (Gate::Trust, Some(error)) = (gate, view.store_error()) {
        say_err!(
            printer,
            "warning: {error}; every hook that needs trust is listed as untrusted"
        );
    }
    if location.relay {
        let project = loaded.discovery.project.as_deref();
        let home = location.home.as_deref();
        for line in crate::ops::relay::unreached_relay_hooks(location.dialect, project, home) {
            say_err!(printer, "warning: {line}");
        }
    }
    if args.json {
        show::json(printer, &view, &handlers, gate)?;
    } else {
        if handlers.is_empty() {
            say!(printer, "no hooks configured for {}", location.dialect);
        } else {
            show::text(printer, &view, &handlers, gate);
        }
        // The agent runs the relay's hooks too, under the engine's trust: said, not mixed in.
        if let Gate::Agent(_) = gate {
            let command = format!(
                "hook list --agent {}{} --relay",
                agents::name(location.dialect),
                location.flags()
            );
            match agents::relay_hooks(&location) {
                Ok(relay) if relay.count > 0 => show::relay_pointer(printer, relay, &command),
                Ok(_) => {}
                // The agent's own hooks are listed all the same; the relay's say why.
                Err(error) => say_err!(
                    printer,
                    "warning: the relay's hooks cannot be read ({error:#}): `{command}` says more"
                ),
            }
        }
    }
    // Diagnostics are always printed; only --strict turns them into a failure.
    Ok(if args.strict && !loaded.diagnostics.is_empty() {
        Status::Failed
    } else {
        Status::Success
    })
}
