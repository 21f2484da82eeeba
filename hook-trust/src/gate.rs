//! The engine's gate: trust and disabled state decide what runs.

use hook_config::Gate;
use hook_config::Handler;
use hook_protocol::SkipReason;

use crate::policy::{FixCommands, TrustView};

/// A [`hook_config::Gate`] that lets a handler run only if it is managed or trusted, and not
/// disabled; any other is skipped with `untrusted`, `modified` or `disabled` and a message
/// naming the command that lets it run.
///
/// ```
/// # use hook_protocol::Dialect;
/// # use hook_trust::{HashContext, Policy, TrustGate, TrustView, store_for};
/// let home = tempfile::tempdir()?;
/// let store = store_for(Dialect::Lime, home.path());
/// let view = TrustView::load(store.as_ref(), Policy::for_dialect(Dialect::Lime), HashContext::default());
/// let gate = TrustGate::new(view);
/// // let engine = hook_exec::Engine::new(registry).with_gate(gate);
/// # let _ = gate;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct TrustGate {
    view: TrustView,
    fix: FixCommands,
}

impl TrustGate {
    /// A gate over `view`, whose messages name `hook trust --dialect D KEY`.
    pub fn new(view: TrustView) -> Self {
        let fix = FixCommands::for_dialect(view.policy().dialect(), "");
        TrustGate { view, fix }
    }

    /// Names `fix` in skip messages instead.
    pub fn with_fix_commands(mut self, fix: FixCommands) -> Self {
        self.fix = fix;
        self
    }

    /// The trust this gate decides with.
    pub fn view(&self) -> &TrustView {
        &self.view
    }
}

impl Gate for TrustGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        self.view.skip_reason(handler, &self.fix)
    }

    /// Decides on the digest of the bytes the engine read and will load, never on a second
    /// read of the file.
    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        self.view
            .skip_reason_native(handler, library_sha256, &self.fix)
    }
}
