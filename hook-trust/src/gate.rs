//! The engine's gate: trust and disabled state decide what runs.

use hook_config::Gate;
use hook_config::{Handler, RunPlace};
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
/// A handler's trust hash is taken once per hook key for the gate's life (the handler does
/// not change; a different handler under the same key, from a reloaded registry, is hashed
/// anew): a long-lived engine does not re-hash its hooks' configuration on every event. The
/// files a hook runs are read on every run ([`Gate::check_at`], from where it runs), and a
/// native library is judged on the digest of the bytes the engine read.
#[derive(Clone)]
pub struct TrustGate {
    view: TrustView,
    phrase: Arc<Phrase>,
    decided: Arc<Mutex<HashMap<String, Decided>>>,
}

/// A handler and its trust hash.
type Decided = (Handler, String);

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

impl TrustGate {
    /// `handler`'s trust hash, taken once per key.
    fn hash(&self, handler: &Handler) -> String {
        // A poisoned map only means another thread panicked mid-insert: its entries are whole.
        let cached = self
            .decided
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&handler.key)
            .filter(|(seen, _)| seen == handler)
            .map(|(_, hash)| hash.clone());
        if let Some(hash) = cached {
            return hash;
        }
        let hash = self.view.hash(handler);
        self.decided
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(handler.key.clone(), (handler.clone(), hash.clone()));
        hash
    }

    fn decide(
        &self,
        handler: &Handler,
        place: &RunPlace,
        library: Option<Option<&str>>,
    ) -> Option<(SkipReason, String)> {
        if handler.source.layer != hook_protocol::Layer::Managed
            && !self.view.policy().needs_trust(handler.source.layer)
            && self
                .view
                .records()
                .is_some_and(|r| !r.contains_key(&handler.key))
        {
            // Trusted as written and not disabled: nothing to read.
            return None;
        }
        let trust = self
            .view
            .evaluate_hashed(handler, self.hash(handler), place, library);
        let refusal = self.view.refusal_of(trust)?;
        Some((refusal.reason, (self.phrase)(&refusal)))
    }
}

impl Gate for TrustGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        if handler.config.handler_type == HandlerType::Native {
            // Read the library now: it may change under the same handler.
            let refusal = self.view.refusal(handler)?;
            return Some((refusal.reason, (self.phrase)(&refusal)));
        }
        self.decide(handler, &self.view.place(), None)
    }

    /// Reads the files the command names from `place`, on every run: a script edited while a
    /// long-lived engine runs is `modified` on its next run.
    fn check_at(&self, handler: &Handler, place: &RunPlace) -> Option<(SkipReason, String)> {
        if handler.config.handler_type == HandlerType::Native {
            return self.check(handler);
        }
        self.decide(handler, place, None)
    }

    /// Decides on the digest of the bytes the engine read and will load, never on a second
    /// read of the file.
    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        self.decide(handler, &self.view.place(), Some(library_sha256))
    }
}
