//! One session's replay: its transcript read as events ([`SessionEvents`]), each selected
//! event dispatched through every engine, all of it logged in a [`SessionLog`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hook_exec::Engine;
use hook_protocol::input::input_from_value;
use hook_protocol::{Dialect, Event, Outcome};
use serde_json::Value;

use super::Listener;
use super::events::SessionEvents;
use super::lines::{BadKind, BadLine};
use super::rebuild::Rebuilt;
use super::tally::SessionLog;

/// What every session's replay shares.
pub(super) struct Shared<'a> {
    pub(super) dialect: Dialect,
    pub(super) engines: Vec<Engine>,
    pub(super) events: HashSet<Event>,
    pub(super) project: PathBuf,
    pub(super) max_line: usize,
    pub(super) dry_run: bool,
    /// `--json`: each event and bad line goes to the listener as soon as it is known.
    pub(super) stream: bool,
    pub(super) bytes_read: &'a AtomicUsize,
    pub(super) listener: &'a dyn Listener,
}

/// Replays one transcript file: reads it, rebuilds and dispatches its events.
pub(super) async fn replay_file<'a>(context: &Shared<'a>, file: &Path) -> SessionLog<'a> {
    let shown = file.display().to_string();
    let listener = context.listener;
    let stream = context.stream.then_some(listener);
    let mut log = SessionLog::new(shown.clone(), context.engines.len(), stream);
    let mut blocked = HashSet::new();
    let mut session = SessionEvents::open(context.dialect, file, shown, context.max_line);
    while let Some(batch) = session.next_batch() {
        log.lines = session.line;
        context.bytes_read.fetch_add(
            usize::try_from(batch.read).unwrap_or(usize::MAX),
            Ordering::Relaxed,
        );
        listener.read(batch.read);
        log.add_bad(batch.bad);
        for event in batch.events {
            dispatch(context, event, session.session_id(), &mut blocked, &mut log).await;
        }
    }
    for engine in &context.engines {
        // Async hooks started by this session's events run to their end before it is reported.
        let _finished = engine.collect_async(session.session_id(), None).await;
    }
    log.session = session.session_id().to_owned();
    log.skipped = session.take_skipped();
    log
}

/// Dispatches one rebuilt event through every engine, if it is selected.
async fn dispatch(
    context: &Shared<'_>,
    mut event: Rebuilt,
    session: &str,
    blocked: &mut HashSet<String>,
    log: &mut SessionLog<'_>,
) {
    let name = event
        .value
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let kind = Event::from_name(&name);
    *log.rebuilt.entry(name.clone()).or_default() += 1;
    if context.dry_run || !context.events.contains(&kind) {
        return;
    }
    if kind != Event::PreToolUse
        && let Some(call) = &event.call
        && blocked.contains(call)
    {
        log.after_block += 1;
        return;
    }
    let cwd = event.value.get("cwd").and_then(Value::as_str).unwrap_or("");
    if cwd.is_empty() || !Path::new(cwd).is_dir() {
        event
            .value
            .insert("cwd".into(), context.project.display().to_string().into());
        log.cwd_replaced += 1;
    }
    let value = Value::Object(event.value);
    let input = match input_from_value(context.dialect, value.clone()) {
        Ok(input) => input,
        Err(error) => {
            let bad = BadLine {
                file: log.file.clone(),
                line: event.line,
                kind: BadKind::Invalid,
                detail: format!("{name}: {error}"),
            };
            log.add_bad([bad]);
            return;
        }
    };
    let mut outcomes: Vec<(Outcome, std::time::Duration)> = Vec::new();
    for engine in &context.engines {
        let started = Instant::now();
        let outcome = engine.dispatch(&input).await;
        outcomes.push((outcome, started.elapsed()));
    }
    if kind == Event::PreToolUse
        && let Some(call) = &event.call
        && outcomes
            .first()
            .is_some_and(|(o, _)| o.decision == hook_protocol::Decision::Block)
    {
        blocked.insert(call.clone());
    }
    log.record(session, event.line, event.time, &name, &value, outcomes);
}
