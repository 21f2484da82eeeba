//! Async (background) handlers: started by `dispatch`, collected later, per session and turn.

use std::sync::{Arc, Mutex, MutexGuard};

use hook_protocol::{Event, Run, RunStatus};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// The result of one async handler, delivered by
/// [`Engine::collect_async`](crate::Engine::collect_async).
///
/// An async handler can never block, approve, rewrite or stop the agent: what it may still
/// deliver is context for the model and a message for the user. Every other field it printed is
/// dropped, with a warning in `run.warnings`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AsyncResult {
    /// The session whose event started the handler.
    pub session_id: String,
    /// The turn whose event started it (`turn_id` of the input), when the event had one.
    pub turn_id: Option<String>,
    /// The event that started it.
    pub event: Event,
    /// How it ran: `ok`, `failed` or `timed_out` (never `async` or `blocked`), with its exit
    /// code, duration, error and warnings.
    pub run: Run,
    /// Context for the model (lime's `additionalContextLimit` already applied).
    pub additional_context: Option<String>,
    /// A message for the user.
    pub system_message: Option<String>,
}

/// One task still owned by the engine.
struct Pending {
    session_id: String,
    turn_id: Option<String>,
    event: Event,
    run: Run,
    handle: JoinHandle<AsyncResult>,
}

/// The engine's background tasks and the semaphore that bounds them.
pub(crate) struct Background {
    permits: Arc<Semaphore>,
    pending: Mutex<Vec<Pending>>,
}

impl Background {
    pub(crate) fn new(max_concurrent: usize) -> Self {
        Background {
            permits: Arc::new(Semaphore::new(max_concurrent.max(1))),
            pending: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn permits(&self) -> Arc<Semaphore> {
        Arc::clone(&self.permits)
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps `handle` until it is collected or cancelled.
    pub(crate) fn add(
        &self,
        session_id: &str,
        turn_id: Option<String>,
        event: Event,
        run: Run,
        handle: JoinHandle<AsyncResult>,
    ) {
        self.lock().push(Pending {
            session_id: session_id.to_owned(),
            turn_id,
            event,
            run,
            handle,
        });
    }

    /// Takes out the tasks of `session_id` (and `turn_id`, when given); with `finished_only`,
    /// only those already done.
    fn take(&self, session_id: &str, turn_id: Option<&str>, finished_only: bool) -> Vec<Pending> {
        let mut pending = self.lock();
        let (taken, kept) = std::mem::take(&mut *pending).into_iter().partition(|p| {
            p.session_id == session_id
                && turn_id.is_none_or(|t| p.turn_id.as_deref() == Some(t))
                && (!finished_only || p.handle.is_finished())
        });
        *pending = kept;
        taken
    }

    pub(crate) async fn collect(
        &self,
        session_id: &str,
        turn_id: Option<&str>,
        finished_only: bool,
    ) -> Vec<AsyncResult> {
        let mut results = Vec::new();
        for task in self.take(session_id, turn_id, finished_only) {
            let Pending {
                session_id,
                turn_id,
                event,
                mut run,
                handle,
            } = task;
            match handle.await {
                Ok(result) => results.push(result),
                Err(error) => {
                    run.status = RunStatus::Failed;
                    run.error = Some(if error.is_cancelled() {
                        "the background run was cancelled".to_owned()
                    } else {
                        "the background run panicked".to_owned()
                    });
                    results.push(AsyncResult {
                        session_id,
                        turn_id,
                        event,
                        run,
                        additional_context: None,
                        system_message: None,
                    });
                }
            }
        }
        results
    }

    /// Aborts every task of `session_id` (killing their hooks); returns how many there were.
    pub(crate) fn cancel(&self, session_id: &str) -> usize {
        let cancelled = self.take(session_id, None, false);
        for task in &cancelled {
            task.handle.abort();
        }
        cancelled.len()
    }

    /// How many tasks of `session_id` are not collected yet.
    pub(crate) fn count(&self, session_id: &str) -> usize {
        self.lock()
            .iter()
            .filter(|p| p.session_id == session_id)
            .count()
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        for task in self.lock().iter() {
            task.handle.abort();
        }
    }
}
