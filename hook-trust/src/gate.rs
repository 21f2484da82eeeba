//! The engine's gate: trust and disabled state decide what runs.

use hook_config::Gate;
use hook_config::Handler;
use hook_protocol::{HandlerType, SkipReason};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::policy::{Refusal, TrustView};

/// A [`hook_config::Gate`] that lets a handler run only if it is managed or trusted, and not
/// disabled; any other is skipped with `untrusted`, `modified` or `disabled` and a message
/// the caller words from the [`Refusal`] ([`TrustGate::with_phrasing`]).
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
///
/// The decision on a handler that runs no library is made once per hook key for the gate's life
/// (the view's records and the handler do not change; a different handler under the same key,
/// from a reloaded registry, is decided anew): a long-lived engine does not re-hash its hooks on
/// every event. Native handlers are decided on every run, on the digest of the bytes read.
#[derive(Clone)]
pub struct TrustGate {
    view: TrustView,
    phrase: Arc<Phrase>,
    decided: Arc<Mutex<HashMap<String, Decided>>>,
}

/// A handler and the gate's decision on it.
type Decided = (Handler, Option<(SkipReason, String)>);

/// How a [`TrustGate`] words a [`Refusal`] in the run's message.
type Phrase = dyn Fn(&Refusal) -> String + Send + Sync;

impl std::fmt::Debug for TrustGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrustGate")
            .field("view", &self.view)
            .finish_non_exhaustive()
    }
}

impl TrustGate {
    /// A gate over `view`, whose messages are the [`Refusal`]'s plain sentence.
    pub fn new(view: TrustView) -> Self {
        TrustGate {
            view,
            phrase: Arc::new(|refusal: &Refusal| refusal.to_string()),
            decided: Arc::default(),
        }
    }

    /// Words refusals with `phrase` instead (`hook-cli` names the command that lets the hook
    /// run, with its `--home`/`--project`).
    pub fn with_phrasing(
        mut self,
        phrase: impl Fn(&Refusal) -> String + Send + Sync + 'static,
    ) -> Self {
        self.phrase = Arc::new(phrase);
        self.decided = Arc::default();
        self
    }

    /// The trust this gate decides with.
    pub fn view(&self) -> &TrustView {
        &self.view
    }
}

impl Gate for TrustGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        if handler.config.handler_type == HandlerType::Native {
            // Its hash covers the library file, which may change under the same handler.
            let refusal = self.view.refusal(handler)?;
            return Some((refusal.reason, (self.phrase)(&refusal)));
        }
        // A poisoned map only means another thread panicked mid-insert: its entries are whole.
        let cached = |decided: &HashMap<String, Decided>| {
            decided
                .get(&handler.key)
                .filter(|(seen, _)| seen == handler)
                .map(|(_, decision)| decision.clone())
        };
        if let Some(decision) = cached(&self.decided.lock().unwrap_or_else(PoisonError::into_inner))
        {
            return decision;
        }
        let decision = self
            .view
            .refusal(handler)
            .map(|refusal| (refusal.reason, (self.phrase)(&refusal)));
        self.decided
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(handler.key.clone(), (handler.clone(), decision.clone()));
        decision
    }

    /// Decides on the digest of the bytes the engine read and will load, never on a second
    /// read of the file.
    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        let refusal = self.view.refusal_native(handler, library_sha256)?;
        Some((refusal.reason, (self.phrase)(&refusal)))
    }
}
