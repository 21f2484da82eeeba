//! `hook relay`: the engine inside an agent that calls it as its one hook.
//!
//! The agent (Claude Code for verboo, Codex for lime) sends one event on stdin; the relay loads
//! its own hooks (the `hook-relay` folders, apart from the agent's own entries so nothing runs
//! twice), dispatches them with trust, and answers in the agent's own wire format
//! ([`agent_reply`], by `hook_protocol::write::agent_reply`, which holds the rules of the
//! answer below: where each field goes, the read-back, exit code 2). Choices:
//!
//! - **It fails closed.** Both agents read a hook's exit 1, a crash or a timeout as "hook error,
//!   go ahead", so a relay that guards must never end that way on an event it could not
//!   evaluate. Whatever keeps the event from being evaluated — stdin unreadable, not JSON, over
//!   64 MiB or empty; no event name, or another one than the entry's `--event`; a field the
//!   engine needs (`cwd`, and what the matchers test) missing or of the wrong type; a `cwd` that
//!   is not a directory; a configuration that cannot be loaded; SIGINT, SIGTERM or SIGHUP
//!   before the answer; a panic — is answered as a **block** on every event that can block:
//!   exit 2 with the reason on stderr (both agents' block there, whatever the event's JSON), and
//!   the event's JSON block form on stdout too where it has one (both agents ignore stdout beside
//!   exit 2). On an event that cannot block, the failure is said in `systemMessage` and on
//!   stderr, exit 0. With no event known at all (garbage on stdin and no `--event`), exit 2.
//!   A `Stop` or `SubagentStop` that cannot be read therefore keeps the agent working, with the
//!   reason: the rule is the same on every event that can block.
//! - **What the agents really send is read** ([`read_agent_event`]): lone surrogate escapes,
//!   nesting past 128 levels, fields a newer or older agent adds or leaves out. The hooks get
//!   the agent's bytes as they were sent ([`hook_exec::Engine::dispatch_bytes`]); only the
//!   fields the engine needs must make sense.
//! - **A broken relay file is not such a failure**: its handlers are left out on their own
//!   (`invalid`), the others run, and the user is told on every event, so a project's file
//!   cannot make the agent refuse everything.
//! - **The answer is never held**: `async` hooks are not run by the process that answers. It
//!   starts this program again (`--async-waiter`, hidden) in a session of its own with the
//!   event on stdin ([`hook_exec::detach`]); that process runs only the event's async hooks,
//!   each bounded by its own timeout, and outlives the relay. The agent waits only for the
//!   answer. What an async hook prints has no one to go to (Claude Code would show it on the
//!   next turn): a limitation.
//! - **Every field goes where the event's output schema has it**; what the event cannot carry
//!   (context on an event without `additionalContext`, say) is said on stderr and, where the
//!   event has one, in `systemMessage`; context that has nowhere to go joins a block's reason.
//! - **A block** is written as the event's JSON field (`permissionDecision: "deny"`,
//!   `hookSpecificOutput.decision.behavior: "deny"`, `decision: "block"`) when the dialect's
//!   reader (the engine's, checked against the real agents) reads it back as a block; otherwise
//!   as exit code 2 with the reason on stderr, which both agents read as a block where one is
//!   possible.
//! - **Skipped hooks** (untrusted, modified, invalid) are named in `systemMessage` and on
//!   stderr with the command that lets them run: never silently left out. On `SessionStart`,
//!   every relay hook of any event that waits for trust is announced at the top of the
//!   session, not only on the event it would have guarded.
//! - **`systemMessage` is shown on the agent's screen**: its control characters and
//!   bidirectional overrides are escaped as everything `hook` prints for a person.
//! - **`CLAUDE_ENV_FILE`**: what the relay's hooks write to theirs (the engine gives each
//!   dispatch a private one) is appended to the agent's own file, on a line of its own, never
//!   through a symlink and never waiting on a FIFO; where the agent gave none, or it cannot be
//!   written, `systemMessage` says the environment was not kept.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_exec::{AsyncHandlers, EngineOptions, Hooks};
use hook_protocol::write::{self, AgentReply};
use hook_protocol::{Decision, Dialect, Event, EventInput, Outcome, RunStatus, read_agent_event};
use hook_trust::TrustStatus;

use crate::engine_commands::{Location, Signals, prepare};
use crate::ui::terminal::{errln, println_exact};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct RelayArgs {
    #[command(subcommand)]
    action: Option<RelayAction>,
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = crate::args::parse_dialect, required = true)]
    dialect: Option<Dialect>,
    /// The event this relay entry was installed for: the relay then knows how to answer even
    /// when the agent's input cannot be read, and refuses an input naming another event.
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// The project directory (default: `CLAUDE_PROJECT_DIR`, else the event's `cwd`).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces the dialect's home (~/.claude, ~/.lime or their variables).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Internal: run only the event's `async` hooks, to their end (the process the relay
    /// starts for them, which outlives it).
    #[arg(long, hide = true)]
    async_waiter: bool,
}

#[derive(Debug, clap::Subcommand)]
enum RelayAction {
    /// Write the relay's entries into the agent's own settings: one per event that has relay
    /// hooks (idempotent); `--move` moves the hooks already there into the relay's file.
    #[command(
        after_help = "Examples:\n  hook relay install --dialect verboo\n  hook relay install --dialect lime --project . --move"
    )]
    Install(crate::relay_install::InstallArgs),
    /// Take the relay entries out of the agent's settings, and nothing else.
    #[command(after_help = "Examples:\n  hook relay uninstall --dialect verboo")]
    Uninstall(crate::relay_install::UninstallArgs),
    /// Rewrite the relay entries from the relay files as they are now: run it after editing a
    /// relay file, or after a `git pull` that changed a project's relay file.
    #[command(
        after_help = "Examples:\n  hook relay sync --dialect verboo\n  hook relay sync --dialect lime --project . --trust"
    )]
    Sync(crate::relay_install::SyncArgs),
}

/// The variable through which Claude Code gives the hooks of some events a file of
/// environment for the session (the engine gives its own hooks one of its own; the relay
/// appends what they wrote to the agent's).
const AGENT_ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// `hook relay`: one event from the agent in, the agent's own hook output out.
pub(crate) fn relay(args: RelayArgs) -> Result<ExitCode> {
    match args.action {
        Some(RelayAction::Install(install)) => return crate::relay_install::install(install),
        Some(RelayAction::Uninstall(uninstall)) => {
            return crate::relay_install::uninstall(uninstall);
        }
        Some(RelayAction::Sync(sync)) => return crate::relay_install::sync(sync),
        None => {}
    }
    let dialect = args.dialect.context("--dialect is required")?;
    if dialect.rules().relay().is_none() {
        bail!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime); {dialect} agents embed the engine"
        );
    }
    // From here on the agent reads our answer: whatever keeps the event from being evaluated
    // (its input, the configuration, a signal, a bug) answers as a block where the event can
    // block, never as the "hook error, go ahead" of an exit 1 or a crash.
    let expected = args.event.as_deref().map(Event::from_name);
    let known = std::cell::RefCell::new(expected.clone());
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        relay_event(&args, dialect, expected.as_ref(), &known)
    }));
    let event = known.into_inner();
    Ok(match answered {
        Ok(Ok(code)) => code,
        Ok(Err(error)) => fail_closed(dialect, event.as_ref(), &format!("{error:#}")),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            fail_closed(
                dialect,
                event.as_ref(),
                &format!("internal error (a bug in hook: {what})"),
            )
        }
    })
}

/// Reads, evaluates and answers one event; `known` learns the event as soon as it is known.
fn relay_event(
    args: &RelayArgs,
    dialect: Dialect,
    expected: Option<&Event>,
    known: &std::cell::RefCell<Option<Event>>,
) -> Result<ExitCode> {
    // One thread: every hook is started (and, on a signal, killed) from this one. Signals are
    // listened for before anything else, so a SIGTERM while the input is read is answered.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let signals = {
        let _entered = runtime.enter();
        Signals::listen().context("cannot listen for signals")?
    };
    let answered = answer(args, dialect, expected, known, &runtime, signals);
    // Every hook the dispatch started is gone with it; a native call that timed out keeps a
    // thread that cannot be stopped and must not keep the agent waiting.
    runtime.shutdown_background();
    answered
}

/// [`relay_event`] once the runtime and the signal listeners are up.
fn answer(
    args: &RelayArgs,
    dialect: Dialect,
    expected: Option<&Event>,
    known: &std::cell::RefCell<Option<Event>>,
    runtime: &tokio::runtime::Runtime,
    signals: Signals,
) -> Result<ExitCode> {
    let bytes = read_event_bytes()?;
    let agent_event = match read_agent_event(dialect, &bytes, expected) {
        Ok(event) => event,
        Err(error) => {
            // An entry and an event that disagree are answered as the one that can block
            // (a typo in `--event` must not let a guard's event through).
            if let hook_protocol::InputError::EventMismatch { found, .. } = &error {
                let found = Event::from_name(found);
                if found.block_effect(dialect).can_block() {
                    *known.borrow_mut() = Some(found);
                }
            }
            // Answer in the event's own form when its name, at least, can be read.
            if known.borrow().is_none() {
                *known.borrow_mut() = serde_json::from_slice::<serde_json::Value>(&bytes)
                    .ok()
                    .and_then(|v| v.get("hook_event_name")?.as_str().map(Event::from_name));
            }
            return Err(error).context("cannot read the event the agent sent");
        }
    };
    let input = agent_event.input;
    *known.borrow_mut() = Some(input.event());
    for note in &agent_event.tolerated {
        errln!("hook relay: {note}");
    }
    if !std::path::Path::new(input.cwd()).is_dir() {
        // A hook that cannot start there would be an error the agent lets through.
        bail!(
            "the event's cwd {} is not a directory: no hook can run there",
            input.cwd()
        );
    }
    let project = match &args.project {
        Some(project) => project.clone(),
        None => dialect
            .rules()
            .project_dir_env()
            .and_then(std::env::var_os)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(input.cwd())),
    };
    let location = Location {
        dialect,
        project: Some(project),
        home: args.home.clone(),
        relay: true,
    };
    let hooks: Hooks = location.hooks()?;
    crate::engine_commands::print_diagnostics(hooks.diagnostics());
    let handling = if args.async_waiter {
        AsyncHandlers::Only
    } else {
        AsyncHandlers::Deferred
    };
    let hooks = prepare(
        &location,
        hooks,
        EngineOptions::default().with_async_handlers(handling),
    );
    let bytes: Arc<[u8]> = bytes.into();
    let session_id = input.session_id().to_owned();
    let dispatched = runtime.block_on(async {
        let signal = signals.received();
        tokio::pin!(signal);
        let engine = hooks.engine();
        let outcome = tokio::select! {
            outcome = engine.dispatch_bytes(&input, Arc::clone(&bytes)) => outcome,
            // Dropping the dispatch kills every hook group still running.
            (name, _) = &mut signal => return Err(anyhow::anyhow!("{name} received before the hooks were done")),
        };
        if args.async_waiter {
            // Bounded by each hook's own timeout; no one is waiting for an answer.
            tokio::select! {
                _ = engine.collect_async(&session_id, None) => {}
                _ = &mut signal => {}
            }
            return Ok(None);
        }
        Ok(Some(outcome))
    });
    let Some(mut outcome) = dispatched? else {
        return Ok(ExitCode::SUCCESS);
    };
    for warning in crate::trust_commands::skip_warnings(hooks.trust(), &outcome) {
        errln!("{warning}");
    }
    if input.event() == Event::SessionStart {
        // Said at the top of every session, not only on the event a guard would have guarded:
        // relay hooks waiting for trust, and relay hooks no agent entry starts the relay for.
        let unreached = crate::relay_install::unreached_relay_hooks(
            dialect,
            location.project.as_deref(),
            location.home.as_deref(),
        );
        if !unreached.is_empty() {
            outcome.system_messages.insert(
                0,
                format!(
                    "hook relay: {} relay hook(s) will not run: {}",
                    unreached.len(),
                    unreached.join("; ")
                ),
            );
        }
        if let Some(announcement) = untrusted_relay_hooks(&hooks, &location) {
            outcome.system_messages.insert(0, announcement);
        }
    }
    // A newer agent's event: its relay hooks ran, and a block is answered as exit 2, which the
    // agent applies where the event can block (`BlockEffect::Unknown`). Said on screen, and on
    // stderr after the reason of a block (what the agent gives the model comes first).
    let unknown =
        (!dialect.rules().knows(&input.event())).then(|| unknown_event_note(&input.event()));
    if let Some(note) = &unknown {
        outcome.system_messages.push(note.clone());
    }
    if let Some(env) = outcome.session_env.take() {
        outcome.system_messages.push(forward_session_env(&env));
    }
    if outcome
        .runs
        .iter()
        .any(|run| run.status == RunStatus::Async)
    {
        // Started before the answer, so that a waiter that cannot start is said in it.
        if let Err(error) = runtime.block_on(start_async_waiter(args, dialect, &input, &bytes)) {
            outcome.system_messages.push(format!(
                "hook relay: the async hooks did not run: {error:#}"
            ));
        }
    }
    let reply = agent_reply(&outcome);
    for line in &reply.stderr {
        errln!("hook relay: {line}");
    }
    if let Some(note) = &unknown {
        errln!("{note}");
    }
    if let Some(stdout) = &reply.stdout {
        println_exact(&serde_json::to_string(stdout)?);
    }
    // After the answer is written, flushed and its stream closed (a reader waiting for the end
    // of stdout has it): the journal can never hold it.
    crate::ui::terminal::close_stdout();
    let home = &hooks.discovery().home;
    let code = Some(reply.exit_code);
    if let Some(warning) = crate::ops::journal::record("relay", home, &input, &outcome, code) {
        errln!("{warning}");
    }
    Ok(ExitCode::from(reply.exit_code))
}

/// What the relay says of an event this version does not know.
fn unknown_event_note(event: &Event) -> String {
    format!(
        "hook relay: {event} is an event hook {} does not know (a newer agent's): its relay hooks ran, and a block from any of them is answered with exit 2, which the agent applies where it can; upgrade hook to read the event's own fields",
        env!("CARGO_PKG_VERSION")
    )
}

/// The relay hooks, of any event, that will not run until trusted (new or changed since they
/// were), as one message naming each and the commands that review and trust them.
fn untrusted_relay_hooks(hooks: &Hooks, location: &Location) -> Option<String> {
    let view = hooks.trust();
    let waiting: Vec<String> = hooks
        .engine()
        .registry()
        .handlers()
        .iter()
        .filter_map(|handler| {
            let status = view.evaluate(handler).status;
            matches!(status, TrustStatus::Untrusted | TrustStatus::Modified).then(|| {
                format!(
                    "{} on {} ({status}): {}",
                    handler.key,
                    handler.event,
                    handler.config.summary()
                )
            })
        })
        .collect();
    if waiting.is_empty() {
        return None;
    }
    let flags = crate::ui::hints::location_flags(location);
    Some(format!(
        "hook relay: {} relay hook(s) will not run until you trust them: {}. Review them with `hook list --dialect {}{flags}` and trust them with `hook trust --dialect {}{flags} KEY` (or `--all`)",
        waiting.len(),
        waiting.join("; "),
        location.dialect,
        location.dialect,
    ))
}

/// The agent's stdin, whole and bounded.
fn read_event_bytes() -> Result<Vec<u8>> {
    let bytes = crate::ops::input::read_bounded(std::io::stdin().lock(), "the event on stdin")?;
    if bytes.trim_ascii().is_empty() {
        bail!("stdin is empty: the agent sent no event");
    }
    Ok(bytes)
}

/// Starts this program again as the waiter of the event's `async` hooks (`--async-waiter`), in a
/// session of its own, with the event on its stdin; it outlives the relay.
async fn start_async_waiter(
    args: &RelayArgs,
    dialect: Dialect,
    input: &EventInput,
    bytes: &[u8],
) -> Result<()> {
    let program = std::env::current_exe().context("cannot find this program's path")?;
    let mut argv: Vec<std::ffi::OsString> = vec![
        "relay".into(),
        "--dialect".into(),
        dialect.to_string().into(),
        "--event".into(),
        input.event().as_str().into(),
        "--async-waiter".into(),
    ];
    if let Some(project) = &args.project {
        argv.extend(["--project".into(), project.clone().into_os_string()]);
    }
    if let Some(home) = &args.home {
        argv.extend(["--home".into(), home.clone().into_os_string()]);
    }
    let argv: Vec<&std::ffi::OsStr> = argv.iter().map(|a| a.as_os_str()).collect();
    hook_exec::detach::spawn_detached(&program, &argv, bytes).await?;
    Ok(())
}

/// Appends what the relay's hooks wrote for the session's environment to the agent's own
/// `CLAUDE_ENV_FILE`; returns the line that tells the user where it went (or why it did not).
fn forward_session_env(env: &str) -> String {
    let Some(path) = std::env::var_os(AGENT_ENV_FILE).filter(|p| !p.is_empty()) else {
        return format!(
            "hook relay: the hooks wrote environment for the session, but the agent gave no {AGENT_ENV_FILE} on this event: it was not kept"
        );
    };
    let path = PathBuf::from(path);
    match append_env(&path, env) {
        Ok(()) => format!(
            "hook relay: the hooks' environment was added to {AGENT_ENV_FILE} ({} bytes)",
            env.len()
        ),
        Err(error) => format!(
            "hook relay: the hooks' environment could not be added to {AGENT_ENV_FILE} {}: {error}",
            path.display()
        ),
    }
}

/// Appends `text` to the regular file at `path` (never through a symlink, never waiting on a
/// FIFO), on a line of its own.
fn append_env(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
    let mut file = hook_config::fs::open_append(path).map_err(|error| match error {
        hook_config::fs::FsError::Io { source, .. } => source,
        other => std::io::Error::other(other),
    })?;
    let mut separated = String::new();
    let length = file.seek(SeekFrom::End(0))?;
    if length > 0 {
        file.seek(SeekFrom::End(-1))?;
        let mut last = [0u8];
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            separated.push('\n');
        }
    }
    separated.push_str(text);
    if !separated.ends_with('\n') {
        separated.push('\n');
    }
    file.write_all(separated.as_bytes())
}

/// The answer when the event could not be evaluated: a block where the event can block
/// (exit 2 with the reason on stderr, which both agents read as a block there, and the event's
/// JSON block form on stdout too, which they ignore beside exit 2); elsewhere the failure said
/// in `systemMessage` and on stderr, exit 0. With no event known, exit 2 and stderr.
fn fail_closed(dialect: Dialect, event: Option<&Event>, why: &str) -> ExitCode {
    let Some(event) = event else {
        errln!("hook relay could not evaluate the event, so it is blocked: {why}");
        return ExitCode::from(2);
    };
    let mut outcome = Outcome::new(dialect, event.clone());
    if event.block_effect(dialect).can_block() {
        let reason =
            format!("hook relay could not evaluate this {event} event, so it is blocked: {why}");
        outcome.decision = Decision::Block;
        outcome.reason = Some(reason.clone());
        let reply = agent_reply(&outcome);
        errln!("{reason}");
        if let Some(stdout) = &reply.stdout {
            println_exact(&stdout.to_string());
        }
        return ExitCode::from(2);
    }
    let message =
        format!("hook relay could not evaluate this {event} event (it cannot block): {why}");
    errln!("{message}");
    outcome.system_messages.push(message);
    let reply = agent_reply(&outcome);
    if let Some(stdout) = &reply.stdout {
        println_exact(&stdout.to_string());
    }
    ExitCode::SUCCESS
}

/// The outcome of a relayed event as the agent's own hook output, by the protocol's writer
/// (`systemMessage` escaped as everything `hook` prints for a person).
pub(crate) fn agent_reply(outcome: &Outcome) -> AgentReply {
    write::agent_reply(outcome, |line| {
        crate::ui::terminal::one_line(line).into_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{HandlerResult, HandlerType, Layer, Run, SkipReason, Source, interpret};
    use serde_json::{Value, json};

    fn outcome(dialect: Dialect, event: &Event) -> Outcome {
        Outcome::new(dialect, event.clone())
    }

    /// Every relayed outcome, on every event of both agents, is an output the event's schema
    /// accepts and that the dialect's reader (the engine's, checked against the real agents)
    /// reads back as the same decision, rewrite, context and stop.
    #[test]
    fn every_reply_validates_and_reads_back_as_the_outcome() {
        for dialect in [Dialect::Verboo, Dialect::Lime] {
            for event in dialect.events() {
                for decision in [
                    Decision::Continue,
                    Decision::Allow,
                    Decision::Ask,
                    Decision::Defer,
                    Decision::Block,
                ] {
                    for (rewrite, context, stop) in [
                        (false, false, false),
                        (true, false, false),
                        (false, true, false),
                        (false, false, true),
                        (true, true, true),
                    ] {
                        let mut o = outcome(dialect, event);
                        o.decision = decision;
                        if decision != Decision::Continue {
                            o.reason = Some("because".into());
                        }
                        if rewrite {
                            o.updated_input = Some(json!({"command": "pnpm install"}));
                        }
                        if context {
                            o.additional_context = Some("ctx".into());
                        }
                        if stop {
                            o.stop = true;
                            o.stop_reason = Some("enough".into());
                        }
                        o.system_messages.push("note".into());
                        let mut skipped = Run::new(
                            "project:x:PreToolUse::0",
                            Source::new(Layer::Project),
                            HandlerType::Command,
                        );
                        skipped.status = RunStatus::Skipped;
                        skipped.skip_reason = Some(SkipReason::Untrusted);
                        skipped.error = Some("not trusted: run `hook trust`".into());
                        o.runs.push(skipped);
                        check(&o);
                    }
                }
            }
        }
    }

    /// A blocked lime prompt's context goes to Codex beside the block (Codex keeps it for the
    /// next turn); verboo's outcome has none to give.
    #[test]
    fn a_blocked_lime_prompt_hands_its_context_to_codex() {
        let mut o = outcome(Dialect::Lime, &Event::UserPromptSubmit);
        o.decision = Decision::Block;
        o.reason = Some("not now".into());
        o.additional_context = Some("ctx".into());
        let reply = agent_reply(&o);
        let stdout = reply.stdout.expect("a JSON reply");
        assert_eq!(stdout["decision"], "block", "{stdout}");
        assert_eq!(stdout["reason"], "not now");
        assert_eq!(stdout["hookSpecificOutput"]["additionalContext"], "ctx");
        let read = interpret(
            Dialect::Lime,
            &Event::UserPromptSubmit,
            Some(0),
            stdout.to_string().as_bytes(),
            b"",
        );
        let HandlerResult::Response(response) = read else {
            panic!("Codex would not read it: {read:?}")
        };
        assert_eq!(response.additional_context.as_deref(), Some("ctx"));
    }

    fn check(o: &Outcome) {
        let reply = agent_reply(o);
        let what = format!("{} {} {:?}: {reply:?}", o.dialect, o.event, o.decision);
        let message = reply
            .stdout
            .as_ref()
            .and_then(|out| out.get("systemMessage"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        assert!(
            reply.exit_code == 2 || message.contains("not trusted: run `hook trust`"),
            "skip not in systemMessage: {what}"
        );
        let stdout = reply
            .stdout
            .as_ref()
            .map(Value::to_string)
            .unwrap_or_default();
        if let Some(out) = &reply.stdout {
            hook_protocol::validate_output(o.dialect, &o.event, stdout.as_bytes())
                .unwrap_or_else(|e| panic!("invalid output {out}: {e} ({what})"));
        }
        let stderr = reply.stderr.join("\n");
        let read = interpret(
            o.dialect,
            &o.event,
            Some(i32::from(reply.exit_code)),
            stdout.as_bytes(),
            stderr.as_bytes(),
        );
        let HandlerResult::Response(response) = read else {
            if reply.exit_code == 2 {
                return; // an event where a block has no effect: the agent goes on
            }
            panic!("the agent would not read it: {read:?} ({what})");
        };
        let read_decision = response.decision.unwrap_or(Decision::Continue);
        // A skill's command cannot wait for approval: Claude Code reads `ask` and `defer` there
        // as a block.
        let waits = matches!(o.decision, Decision::Ask | Decision::Defer);
        if o.decision == Decision::Block || (o.event == Event::PreSkillShellCommand && waits) {
            assert_eq!(read_decision, Decision::Block, "{what}");
        } else if read_decision != Decision::Continue
            && !(o.stop && read_decision == Decision::Block)
        {
            // (Where `continue: false` is itself read as a block, the stop is what it says.)
            assert_eq!(read_decision, o.decision, "{what}");
        }
        if o.decision != Decision::Block && response.updated_input.is_some() {
            assert_eq!(response.updated_input, o.updated_input, "{what}");
        }
        if reply.exit_code == 0
            && o.stop
            && response.stop.is_none()
            && read_decision != Decision::Block
        {
            assert!(
                stderr.contains("cannot stop")
                    || stderr.contains("the stop was dropped")
                    || stderr.contains("does not stop"),
                "stop dropped silently: {what}"
            );
        }
        if o.additional_context.is_some()
            && o.decision != Decision::Block
            && response.additional_context.is_none()
        {
            assert!(
                stderr.contains("context was dropped"),
                "context dropped silently: {what}"
            );
        }
    }
}
