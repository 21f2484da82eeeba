//! `hook run` and `hook list`: the commands that load a configuration.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_config::Handler;
use hook_exec::Hooks;
use hook_protocol::input_from_value;
use serde_json::Value;

use crate::ops::input::known_event;
use crate::ui::terminal::{errln, outln, println_exact};

pub(crate) use crate::ops::location::Location;

/// Each diagnostic on its own stderr line, labelled `error:` or `warning:`.
pub(crate) fn print_diagnostics(diagnostics: &[hook_config::Diagnostic]) {
    crate::ui::diagnostics::print(
        &crate::ui::Printer::new(crate::ui::Verbosity::Normal),
        diagnostics,
    );
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// The event to dispatch, e.g. PreToolUse.
    #[arg(long)]
    event: String,
    /// The event JSON (default: stdin). `hook_event_name` and `cwd` are filled in when absent.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
}

/// `hook run`: dispatch one event through every discovered hook and print the outcome.
pub(crate) fn run(args: RunArgs) -> Result<ExitCode> {
    let (input, bytes) = run_input(&args)?;
    // A broken handler, group or file was reported above and is in the outcome's `runs` as
    // `skipped: invalid`; everything else runs (one typo never switches off the other hooks).
    let hooks = args.location.location().hooks()?;
    print_diagnostics(hooks.diagnostics());
    drive(&args.location.location(), hooks, &input, bytes, |outcome| {
        println_exact(&serde_json::to_string_pretty(outcome)?);
        Ok(ExitCode::SUCCESS)
    })
}

/// `hook run`'s event: the input with `hook_event_name` and `cwd` filled in when absent, and,
/// when it holds what a real agent sends but serde_json will not read (a lone surrogate
/// escape, nesting past 128 levels), the bytes as given, for the hooks (read as `hook relay`
/// reads them).
fn run_input(args: &RunArgs) -> Result<(hook_protocol::EventInput, Option<std::sync::Arc<[u8]>>)> {
    let dialect = args.location.dialect;
    let event = known_event(dialect, &args.event)?;
    let (bytes, origin) =
        crate::ops::input::read_input(args.input.as_deref(), "the event JSON", "--input FILE")?;
    let mut value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(error) => {
            let Ok(agent_event) = hook_protocol::read_agent_event(dialect, &bytes, Some(&event))
            else {
                return Err(error).with_context(|| format!("{origin} is not valid JSON"));
            };
            for note in &agent_event.tolerated {
                errln!("warning: {note}");
            }
            return Ok((agent_event.input, Some(bytes.into())));
        }
    };
    let object = value
        .as_object_mut()
        .context("the event input must be a JSON object")?;
    match object.get("hook_event_name").and_then(Value::as_str) {
        None => {
            object.insert("hook_event_name".into(), event.as_str().into());
        }
        Some(name) if name != event.as_str() => {
            bail!("the input's hook_event_name is `{name}` but --event is `{event}`");
        }
        Some(_) => {}
    }
    if !object.contains_key("cwd") {
        let project = args.location.location().project_dir()?;
        object.insert("cwd".into(), project.display().to_string().into());
    }
    let input = input_from_value(dialect, value).context("invalid event input")?;
    Ok((input, None))
}

/// `hooks` as `hook run` and `hook relay` run them: `options` with hooks killed when this
/// thread ends, refusals naming the command that lets a hook run (with `location`'s flags), and
/// the model client of `HOOK_MODEL_URL`.
pub(crate) fn prepare(
    location: &Location,
    hooks: Hooks,
    options: hook_exec::EngineOptions,
) -> Hooks {
    // Hooks start on this thread (a current-thread runtime), which lives until the process
    // exits: a SIGKILL of `hook` takes their shells down too (Linux).
    let options = options.with_kill_on_parent_death(true);
    // Trust decides what may run; each skip is also a warning on stderr naming the command
    // that lets the hook run.
    let mut hooks = hooks
        .with_engine_options(options)
        .with_refusal_phrasing(crate::trust_commands::refusal_phrasing(location));
    // Prompt and agent hooks ask the OpenAI-compatible endpoint named by HOOK_MODEL_URL; with
    // none set, each dialect's rule applies (wuu allows and says so; verboo skips: no_client).
    if let Some(client) = hook_exec::client::OpenAiCompatibleClient::from_env() {
        hooks = hooks.with_model_client(client);
    }
    hooks
}

/// Runs `input` through `hooks` as `hook run` does: trust gates each hook (its
/// refusals name the command that lets it run, with `location`'s flags), a skip is a warning
/// on stderr, SIGINT/SIGTERM/SIGHUP kill every running hook and exit 128 + n. `report` writes
/// the outcome and says the exit code; async hooks then run to their end, after stdout closes.
/// `bytes`, when given, are what the hooks get on stdin instead of `input` serialized (the event
/// as an agent sent it).
pub(crate) fn drive(
    location: &Location,
    hooks: Hooks,
    input: &hook_protocol::EventInput,
    bytes: Option<std::sync::Arc<[u8]>>,
    report: impl FnOnce(&hook_protocol::Outcome) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let hooks = prepare(location, hooks, hook_exec::EngineOptions::default());
    let home = hooks.discovery().home.clone();
    let view = hooks.trust().clone();
    let engine = hooks.engine();
    if std::io::stderr().is_terminal() {
        // The status messages of the handlers the engine will start, shown before they run.
        for handler in engine.preview(input) {
            if let Some(message) = handler.config.status_message.as_deref() {
                errln!("{message}");
            }
        }
    }
    // One thread: every hook is started (and, on a signal, killed) from this one, and dropping
    // the runtime drops every task at once, on this thread.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let session_id = input.session_id().to_owned();
    let ended = runtime.block_on(async {
        // Listen before the first hook starts, so no signal finds a hook without its killer.
        let signals = Signals::listen().context("cannot listen for signals")?;
        let signal = signals.received();
        tokio::pin!(signal);
        let outcome = tokio::select! {
            outcome = async {
                match bytes {
                    Some(bytes) => engine.dispatch_bytes(input, bytes).await,
                    None => engine.dispatch(input).await,
                }
            } => outcome,
            // Dropping the dispatch (the other branch) kills every hook group still running.
            signal = &mut signal => return Ok::<_, anyhow::Error>(Err(signal)),
        };
        for warning in crate::trust_commands::skip_warnings(&view, &outcome) {
            errln!("{warning}");
        }
        let code = report(&outcome)?;
        // After the outcome is written: the journal can never hold it.
        if let Some(warning) = crate::ops::journal::record("run", &home, input, &outcome, None) {
            errln!("{warning}");
        }
        if engine.pending_async(&session_id) == 0 {
            return Ok(Ok(code));
        }
        // The outcome is complete: the caller reads it up to the end of stdout now. Async
        // hooks still run to their end or their own timeout; their results have no one to go
        // to but stderr, where a failure is reported.
        crate::ui::terminal::close_stdout();
        tokio::select! {
            results = engine.collect_async(&session_id, None) => {
                for result in results {
                    if let Some(error) = &result.run.error {
                        errln!("async hook {} {}: {error}", result.run.key, status_word(result.run.status));
                    }
                }
                Ok(Ok(code))
            }
            // Dropping the collection, then the engine, kills every async group still running.
            signal = &mut signal => Ok(Err(signal)),
        }
    });
    // Anything still running (after a signal) is cancelled: dropping the engine aborts its
    // tasks, and the runtime drops them (killing their groups) without waiting for a native
    // call that timed out: its thread cannot be stopped and must not keep `hook run` alive.
    drop(hooks);
    runtime.shutdown_background();
    match ended? {
        Ok(code) => Ok(code),
        Err((name, number)) => {
            errln!("hook: {name} received; every running hook was killed");
            Ok(ExitCode::from(128 + number))
        }
    }
}

fn status_word(status: hook_protocol::RunStatus) -> &'static str {
    match status {
        hook_protocol::RunStatus::TimedOut => "timed out",
        _ => "failed",
    }
}

/// The signals that interrupt `hook run` and `hook relay`: SIGINT, SIGTERM and SIGHUP (Ctrl-C on Windows).
pub(crate) struct Signals {
    #[cfg(unix)]
    streams: [(tokio::signal::unix::Signal, &'static str, u8); 3],
}

impl Signals {
    /// Starts listening; from now on these signals no longer end the process by themselves.
    pub(crate) fn listen() -> std::io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                streams: [
                    (signal(SignalKind::interrupt())?, "SIGINT", 2),
                    (signal(SignalKind::terminate())?, "SIGTERM", 15),
                    (signal(SignalKind::hangup())?, "SIGHUP", 1),
                ],
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Signals {})
        }
    }

    /// The first signal received: its name and number.
    pub(crate) async fn received(self) -> (&'static str, u8) {
        #[cfg(unix)]
        {
            let [(mut int, a, na), (mut term, b, nb), (mut hup, c, nc)] = self.streams;
            tokio::select! {
                _ = int.recv() => (a, na),
                _ = term.recv() => (b, nb),
                _ = hup.recv() => (c, nc),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            ("Ctrl-C", 2)
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// Print JSON: an array of handlers (key, event, matcher, config, timeout, source...), each
    /// with its `trust` (status, enabled, hash, trusted hash and command).
    #[arg(long)]
    json: bool,
    /// Exit 1 when the configuration has any diagnostic (error or warning); without it the
    /// diagnostics are printed and the listing exits 0.
    #[arg(long)]
    strict: bool,
}

/// `hook list`: every discovered handler by event, then matcher.
pub(crate) fn list(args: ListArgs) -> Result<ExitCode> {
    let loaded = args.location.location().load()?;
    print_diagnostics(&loaded.diagnostics);
    let mut handlers: Vec<&Handler> = loaded.registry.handlers().iter().collect();
    // By event, then matcher; configuration order within a group (the sort is stable).
    handlers.sort_by(|a, b| {
        (a.event.as_str(), a.matcher.as_deref()).cmp(&(b.event.as_str(), b.matcher.as_deref()))
    });
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    if let Some(error) = view.store_error() {
        errln!("warning: {error}; every hook that needs trust is listed as untrusted");
    }
    if args.location.relay {
        let project = loaded.discovery.project.as_deref();
        let home = args.location.home.as_deref();
        for line in
            crate::relay_install::unreached_relay_hooks(args.location.dialect, project, home)
        {
            errln!("warning: {line}");
        }
    }
    if args.json {
        // Each handler with its `trust`: status, enabled, hashes (and the trusted command).
        let mut rows = Vec::with_capacity(handlers.len());
        for handler in &handlers {
            let mut row = serde_json::to_value(handler)?;
            if let Some(object) = row.as_object_mut() {
                object.insert(
                    "trust".into(),
                    serde_json::to_value(view.evaluate(handler))?,
                );
            }
            rows.push(row);
        }
        println_exact(&serde_json::to_string_pretty(&rows)?);
    } else if handlers.is_empty() {
        outln!("no hooks configured for {}", args.location.dialect);
    } else {
        let mut last_event = None;
        for handler in &handlers {
            if last_event != Some(&handler.event) {
                outln!("{}", handler.event);
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
            let (trust, details) = crate::trust_commands::list_lines(&view, handler);
            // A guard that fails closed says so: its failures block the event.
            let on_failure = match handler.config.on_failure {
                Some(hook_config::OnFailure::Block) => "; onFailure block",
                _ => "",
            };
            // `outln!` escapes every control character: this listing is the review before
            // `hook trust`, so a command must not be able to hide itself or fake a row.
            outln!(
                "  [{matcher}] {} {}  ({source}; key {}; {trust}{on_failure}){suppressed}",
                handler.config.handler_type,
                handler.config.summary(),
                handler.key
            );
            for line in details {
                outln!("{line}");
            }
        }
    }
    // Diagnostics are always printed; only --strict turns them into a failure.
    let failed = args.strict && !loaded.diagnostics.is_empty();
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
