//! `hook relay`: the answer to one agent event (the agent calls it as its one hook), and its
//! subcommands `install`, `uninstall` and `sync` (the relay's entries in the agent's settings)
//! and `status` (is it guarding).
//! What the answer does and why is in [`crate::ops::relay::answer`].

mod install;
mod status;
mod sync;
mod uninstall;

use std::cell::RefCell;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hook_protocol::{Dialect, Event};

use crate::args::{DIALECT, RELAY_AGENT, RELAY_EVENT, RelayAgentArg};
use crate::ops::input::Stdin;
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::caller_of;
use crate::ops::relay::agents::translated::Caller;
use crate::ops::relay::answer::{self, AnswerOptions};
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct RelayArgs {
    #[command(subcommand)]
    action: Option<RelayAction>,
    /// The agent's dialect: verboo (Claude Code) or lime (Codex).
    #[arg(
        long,
        value_parser = DIALECT,
        hide_possible_values = true,
        required_unless_present = "agent"
    )]
    dialect: Option<Dialect>,
    /// The agent, instead of its dialect: claude (or claude-code: Claude Code) or codex (Codex
    /// CLI); or an agent that runs guards written for Claude Code, whose events the relay
    /// translates: qwen (Qwen Code), gemini (Gemini CLI) or copilot (Copilot CLI).
    #[arg(
        long,
        value_parser = RELAY_AGENT,
        hide_possible_values = true,
        conflicts_with = "dialect"
    )]
    agent: Option<RelayAgentArg>,
    /// The event this relay entry was installed for: the relay then knows how to answer even
    /// when the agent's input cannot be read, and refuses an input naming another event.
    #[arg(
        long,
        value_name = "NAME",
        value_parser = RELAY_EVENT,
        hide_possible_values = true
    )]
    event: Option<String>,
    /// The project directory (default: `CLAUDE_PROJECT_DIR`, else the event's `cwd`).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces the dialect's home (~/.claude, ~/.lime or their variables); the relay's trust
    /// records and journal are then kept in it, not beside the agent.
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Run only the relay hooks of one scope: `user` (the relay's user file) or `project` (the
    /// project's relay files). `hook relay install` writes each scope's entries with their
    /// scope, so that an agent running the entries of both on one call runs each relay hook
    /// once. Without it, both.
    #[arg(long, value_name = "SCOPE", value_parser = parse_scope)]
    scope: Option<RelayScope>,
    /// Internal: run only the event's `async` hooks, to their end (the process the relay
    /// starts for them, which outlives it).
    #[arg(long, hide = true)]
    async_waiter: bool,
    /// The timeout, in seconds, the agent's entry gives this relay (`hook relay install`
    /// writes it): a relay hook whose own timeout is longer would be cut short by the agent,
    /// and the relay says so once per session.
    #[arg(long, value_name = "SECS", hide = true)]
    entry_timeout: Option<u64>,
    /// Replaces Claude Code's home (`CLAUDE_CONFIG_DIR`, else `~/.claude`) for the Claude Code
    /// guards Codex's relay runs beside its own relay hooks.
    #[arg(long, value_name = "DIR", hide = true)]
    claude_home: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
enum RelayAction {
    /// Write the relay's entries into the agent's own settings: one per event that has relay
    /// hooks (idempotent); `--move` moves the hooks already there into the relay's file.
    #[command(
        after_help = "Examples:\n  hook relay install --dialect verboo\n  hook relay install --dialect lime --project . --move\n  hook relay install --agent gemini"
    )]
    Install(install::InstallArgs),
    /// Take the relay entries out of the agent's settings and give back what install took.
    ///
    /// The hooks `--move` took go back where they came from (byte for byte when the file is
    /// unchanged since), and for Codex the trust records `install --trust` wrote are taken
    /// out; every other byte stays as it is.
    #[command(after_help = "Examples:\n  hook relay uninstall --dialect verboo")]
    Uninstall(uninstall::UninstallArgs),
    /// Rewrite the relay entries from the relay files as they are now: run it after editing a
    /// relay file, or after a `git pull` that changed a project's relay file.
    #[command(
        after_help = "Examples:\n  hook relay sync --dialect verboo\n  hook relay sync --dialect lime --project . --trust"
    )]
    Sync(sync::SyncArgs),
    /// Whether the relay is guarding, for each agent: its entries in the agent's settings
    /// (user and project, events and matchers), the program they start and whether it runs,
    /// each relay hook with its trust, last run and result, and what stops a guard.
    #[command(
        after_help = "Examples:\n  hook relay status\n  hook relay status --agent claude --project .\n  hook relay status --agent codex --json\n\nExit 0 when every relay hook can guard (or there is nothing to guard); 1 when something stops one: an untrusted or modified hook, a hook no entry reaches, relay hooks with no entry, a program the entries start that does not run, a broken relay file or handler, a hook whose latest runs failed."
    )]
    Status(status::StatusArgs),
}

/// `--scope`'s value.
fn parse_scope(value: &str) -> Result<RelayScope, String> {
    RelayScope::from_name(value)
        .ok_or_else(|| format!("expected `user` or `project`, found `{value}`"))
}

/// `hook relay`: one event from the agent in (on `stdin`), the agent's own hook output out (or
/// a subcommand).
pub(crate) fn exec(args: RelayArgs, printer: &Printer, stdin: Stdin) -> Result<Status> {
    match args.action {
        Some(RelayAction::Install(install)) => return install::exec(install, printer),
        Some(RelayAction::Uninstall(uninstall)) => return uninstall::exec(uninstall, printer),
        Some(RelayAction::Sync(sync)) => return sync::exec(sync, printer),
        Some(RelayAction::Status(status)) => return status::exec(status, printer),
        None => {}
    }
    let named = match args.agent {
        Some(RelayAgentArg::Translated(agent)) => Some(agent),
        _ => None,
    };
    let dialect = match (args.agent, args.dialect) {
        (Some(RelayAgentArg::Translated(agent)), _) => agent.dialect(),
        (Some(RelayAgentArg::Dialect(dialect)), _) | (None, Some(dialect)) => dialect,
        (None, None) => {
            anyhow::bail!(
                "give --agent (claude, codex, qwen, gemini, copilot) or --dialect (verboo, lime)"
            )
        }
    };
    answer::check_dialect(dialect)?;
    // Started as Claude Code's relay by another agent that runs Claude Code's entries (its
    // variable says which): answered as that agent reads it.
    let translated = named
        .map(|agent| (agent, Caller::Named))
        .or_else(|| caller_of(dialect).map(|agent| (agent, Caller::Detected)));
    // A named agent's `--event` is its own name; the answer's form is the Claude Code event's.
    let event = match translated {
        Some((agent, Caller::Named)) => args
            .event
            .as_deref()
            .and_then(|event| agent.claude_event(event))
            .map(Event::from_name),
        _ => args.event.as_deref().map(Event::from_name),
    };
    let options = AnswerOptions {
        dialect,
        translated,
        agent_event: translated.and(args.event.clone()),
        event,
        project: args.project,
        home: args.home,
        scope: args.scope,
        async_waiter: args.async_waiter,
        entry_timeout: args.entry_timeout,
        claude_home: args.claude_home,
    };
    // From here on the agent reads our answer: whatever keeps the event from being evaluated
    // (its input, the configuration, a signal, a bug) answers as a block where the event can
    // block, never as the "hook error, go ahead" of an exit 1 or a crash.
    let known = RefCell::new(options.event.clone());
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        answer_event(&options, printer, stdin, &known)
    }));
    let event = known.into_inner();
    let why = match answered {
        Ok(Ok(status)) => return Ok(status),
        Ok(Err(error)) => format!("{error:#}"),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            format!("internal error (a bug in hook: {what})")
        }
    };
    let failed = answer::fail_closed(dialect, event.as_ref(), &why);
    Ok(crate::ui::relay::answer::fail_closed(
        printer,
        &failed,
        translated.map(|(agent, _)| agent),
    ))
}

/// Reads, evaluates and answers one event; `known` learns the event as soon as it is known.
fn answer_event(
    options: &AnswerOptions,
    printer: &Printer,
    mut stdin: Stdin,
    known: &RefCell<Option<Event>>,
) -> Result<Status> {
    let mut runtime = answer::start()?;
    let answered = answer_on(options, printer, &mut stdin, known, &mut runtime);
    runtime.shut_down();
    answered
}

/// [`answer_event`] once the runtime and the signal listeners are up.
fn answer_on(
    options: &AnswerOptions,
    printer: &Printer,
    stdin: &mut Stdin,
    known: &RefCell<Option<Event>>,
    runtime: &mut answer::Runtime,
) -> Result<Status> {
    let received = answer::receive(options, answer::read_event_bytes(stdin)?, known)?;
    crate::ui::relay::answer::notes(printer, &received.tolerated);
    let location = answer::locate(options, &received)?;
    let phrasing = crate::ops::trust::refusal_phrasing(&location);
    let prepared = answer::prepare(options, location, phrasing)?;
    crate::ui::diagnostics::print(printer, &prepared.diagnostics());
    // Codex's relay runs the guards written for Claude Code too, after its own.
    let guards = answer::claude_guards::load(options, &received, prepared.project())?;
    if let Some(guards) = &guards {
        crate::ui::diagnostics::print(printer, &guards.prepared.diagnostics());
    }
    let Some((mut outcome, theirs)) =
        answer::dispatch(options, &prepared, &received, guards.as_ref(), runtime)?
    else {
        return Ok(Status::Success);
    };
    if let Some(theirs) = &theirs {
        answer::claude_guards::combine(&mut outcome, theirs);
    }
    let answer = answer::answer(options, &prepared, &received, outcome, runtime);
    let exit_code = crate::ui::relay::answer::answer(
        printer,
        &answer,
        prepared.trust(),
        options.translated.map(|(agent, _)| agent),
    )?;
    // After the answer is written, flushed and its stream closed: the journal can never hold it.
    let code = Some(exit_code);
    if let Some(warning) = crate::ops::journal::record(
        "relay",
        prepared.discovery(),
        received.input(),
        &answer.outcome,
        code,
        answer::agent_path(options),
        options.translated.map(|(agent, _)| agent.name()),
    ) {
        crate::ui::relay::answer::notes(printer, &[warning]);
    }
    if let (Some(guards), Some(theirs)) = (&guards, &theirs)
        && let Some(warning) = answer::claude_guards::journal(guards, theirs, exit_code)
    {
        crate::ui::relay::answer::notes(printer, &[warning]);
    }
    Ok(crate::ui::relay::answer::status(exit_code))
}
