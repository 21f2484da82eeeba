//! `hook relay`: the engine inside an agent that calls it as its one hook.
//!
//! The agent (Claude Code for verboo, Codex for lime) sends one event on stdin; the relay loads
//! its own hooks (the `hook-relay` folders, apart from the agent's own entries so nothing runs
//! twice), dispatches them with trust, and answers in the agent's own wire format
//! ([`agent_reply`]). Choices:
//!
//! - **Every field goes where the event's output schema has it**; what the event cannot carry
//!   (context on an event without `additionalContext`, say) is said on stderr and, where the
//!   event has one, in `systemMessage`; context that has nowhere to go joins a block's reason.
//! - **A block** is written as the event's JSON field (`permissionDecision: "deny"`,
//!   `hookSpecificOutput.decision.behavior: "deny"`, `decision: "block"`) when the dialect's
//!   reader (the engine's, checked against the real agents) reads it back as a block; otherwise
//!   as exit code 2 with the reason on stderr, which both agents read as a block where one is
//!   possible.
//! - **Skipped hooks** (untrusted, modified, invalid) are named in `systemMessage` and on
//!   stderr with the command that lets them run: never silently left out.
//! - **The relay's own failures** (no event, unreadable input) exit 1: both agents show that
//!   to the user and go on, as for any broken hook.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_exec::Hooks;
use hook_protocol::{
    Decision, Dialect, Event, HandlerResult, Outcome, RunStatus, SchemaKind, SkipReason,
    input_from_value, interpret,
};
use serde_json::{Map, Value};

use crate::engine_commands::{Location, drive};
use crate::terminal::{errln, println_exact};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct RelayArgs {
    #[command(subcommand)]
    action: Option<RelayAction>,
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = crate::parse_dialect, required = true)]
    dialect: Option<Dialect>,
    /// The project directory (default: `CLAUDE_PROJECT_DIR`, else the event's `cwd`).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces the dialect's home (~/.claude, ~/.lime or their variables).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
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
    if dialect.rules().relay.is_none() {
        bail!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime); {dialect} agents embed the engine"
        );
    }
    let (bytes, origin) = crate::read_input(None, "the event JSON", "stdin")?;
    let value: Value =
        serde_json::from_slice(&bytes).with_context(|| format!("{origin} is not valid JSON"))?;
    if value
        .get("hook_event_name")
        .and_then(Value::as_str)
        .is_none()
    {
        bail!("the event has no `hook_event_name`: hook relay reads the event the agent sends");
    }
    let project = match args.project {
        Some(project) => project,
        None => (dialect.rules().project_dir_env)
            .and_then(std::env::var_os)
            .map(PathBuf::from)
            .or_else(|| value.get("cwd").and_then(Value::as_str).map(PathBuf::from))
            .context("the event has no `cwd`: pass --project DIR")?,
    };
    let location = Location {
        dialect,
        project: Some(project),
        home: args.home,
        relay: true,
    };
    let input = input_from_value(dialect, value).context("invalid event input")?;
    let hooks: Hooks = location.hooks()?;
    drive(&location, hooks, &input, |outcome| {
        let reply = agent_reply(outcome);
        for line in &reply.stderr {
            errln!("hook relay: {line}");
        }
        if let Some(stdout) = &reply.stdout {
            println_exact(&serde_json::to_string(stdout)?);
        }
        Ok(ExitCode::from(reply.exit_code))
    })
}

/// What the relay answers the agent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AgentReply {
    /// The JSON to print on stdout; `None` prints nothing.
    pub(crate) stdout: Option<Value>,
    /// Lines for stderr: skipped hooks, what the event cannot carry; with exit code 2, the
    /// reason of the block (what the agent gives the model).
    pub(crate) stderr: Vec<String>,
    /// 0, or 2 when the block is carried by the exit code.
    pub(crate) exit_code: u8,
}

/// The properties an event's output schema allows: top level, and in `hookSpecificOutput`.
struct Allowed {
    top: Vec<String>,
    specific: Vec<String>,
}

impl Allowed {
    fn of(dialect: Dialect, event: &Event) -> Allowed {
        let Some(schema) = hook_protocol::schema::schema(dialect, event, SchemaKind::Output) else {
            return Allowed {
                top: Vec::new(),
                specific: Vec::new(),
            };
        };
        let names = |object: Option<&Value>| -> Vec<String> {
            object
                .and_then(|o| o.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default()
        };
        let top = names(Some(&schema));
        let specific_ref = schema
            .pointer("/properties/hookSpecificOutput")
            .and_then(|p| {
                p.get("$ref").or_else(|| {
                    p.get("anyOf")
                        .and_then(Value::as_array)
                        .and_then(|any| any.iter().find_map(|a| a.get("$ref")))
                })
            })
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .map(str::to_owned);
        let specific = specific_ref
            .and_then(|name| schema.get("$defs").and_then(|d| d.get(&name)).cloned())
            .map(|def| names(Some(&def)))
            .unwrap_or_default();
        Allowed { top, specific }
    }

    fn top(&self, name: &str) -> bool {
        self.top.iter().any(|n| n == name)
    }

    fn specific(&self, name: &str) -> bool {
        self.specific.iter().any(|n| n == name)
    }
}

/// The outcome of a relayed event as the agent's own hook output.
pub(crate) fn agent_reply(outcome: &Outcome) -> AgentReply {
    let dialect = outcome.dialect;
    let event = &outcome.event;
    let allowed = Allowed::of(dialect, event);
    // Skipped hooks go to the user in `systemMessage` (`drive` also warns on stderr).
    let skips = skip_notices(outcome);
    let mut notes: Vec<String> = Vec::new();
    let mut top = Map::new();
    let mut specific = Map::new();
    let blocked = outcome.decision == Decision::Block;
    let mut reason = outcome.reason.clone();

    // Context first: where it cannot go, a block's reason takes it.
    if let Some(context) = &outcome.additional_context {
        if allowed.specific("additionalContext") && !blocked {
            specific.insert("additionalContext".into(), context.clone().into());
        } else if blocked {
            reason = Some(match reason {
                Some(reason) => format!("{reason}\n\n{context}"),
                None => context.clone(),
            });
        } else {
            notes.push(format!(
                "{event} output has no `additionalContext`: the hooks' context was dropped ({context})"
            ));
        }
    }

    match outcome.decision {
        Decision::Continue => {}
        decision => {
            let word = permission_word(decision);
            let reason_text = reason
                .clone()
                .unwrap_or_else(|| "blocked by a hook".to_owned());
            if allowed.specific("permissionDecision") {
                specific.insert("permissionDecision".into(), word.into());
                if let Some(reason) = &reason {
                    specific.insert("permissionDecisionReason".into(), reason.clone().into());
                } else if blocked {
                    specific.insert("permissionDecisionReason".into(), reason_text.into());
                }
            } else if allowed.specific("decision")
                && matches!(decision, Decision::Allow | Decision::Block)
            {
                let mut choice = Map::new();
                let behavior = if blocked { "deny" } else { "allow" };
                choice.insert("behavior".into(), behavior.into());
                if blocked {
                    choice.insert("message".into(), reason_text.into());
                }
                specific.insert("decision".into(), Value::Object(choice));
            } else if blocked && allowed.top("decision") {
                top.insert("decision".into(), "block".into());
                top.insert("reason".into(), reason_text.into());
            } else if !blocked {
                notes.push(format!(
                    "{event} output cannot carry the decision `{word}`; the agent decides"
                ));
            }
        }
    }

    if let Some(updated) = &outcome.updated_input {
        if allowed.specific("updatedInput") {
            specific.insert("updatedInput".into(), updated.clone());
        } else if let Some(Value::Object(choice)) = specific.get_mut("decision") {
            choice.insert("updatedInput".into(), updated.clone());
        } else {
            notes.push(format!(
                "{event} output has no `updatedInput`: the rewrite was dropped"
            ));
        }
    }

    if outcome.stop {
        if allowed.top("continue") {
            top.insert("continue".into(), false.into());
            if let Some(why) = &outcome.stop_reason {
                top.insert("stopReason".into(), why.clone().into());
            }
        } else {
            notes.push(format!("{event} output cannot stop the agent"));
        }
    }

    if !specific.is_empty() {
        specific.insert("hookEventName".into(), event.as_str().into());
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }

    let mut stderr: Vec<String> = notes.clone();
    let mut messages: Vec<String> = outcome.system_messages.clone();
    messages.extend(skips);
    messages.extend(notes);
    if !messages.is_empty() && allowed.top("systemMessage") {
        top.insert("systemMessage".into(), messages.join("\n").into());
    }

    // The dialect's reader (the engine's, checked against the real agents) must accept the
    // output: what it refuses on this event (lime takes no `continue: false` on some) is
    // dropped, one piece at a time, and said on stderr.
    let read = |top: &Map<String, Value>| {
        (!top.is_empty()).then(|| {
            interpret(
                dialect,
                event,
                Some(0),
                Value::Object(top.clone()).to_string().as_bytes(),
                b"",
            )
        })
    };
    let mut droppable: Vec<(&[&str], &str)> = vec![(
        &["continue", "stopReason"],
        "the agent refuses `continue: false` here: the stop was dropped",
    )];
    if !blocked {
        droppable.push((
            &["/permissionDecision", "/permissionDecisionReason"],
            "the agent refuses this permission decision here: the agent decides",
        ));
    }
    droppable.extend([
        (
            &["/updatedInput", "/decision/updatedInput"][..],
            "the agent refuses `updatedInput` here: the rewrite was dropped",
        ),
        (
            &["/additionalContext"][..],
            "the agent refuses `additionalContext` here: the hooks' context was dropped",
        ),
        (
            &["systemMessage"][..],
            "the agent refuses `systemMessage` here: the message was dropped",
        ),
    ]);
    let mut read_back = read(&top);
    for (keys, note) in droppable {
        if !matches!(read_back, Some(HandlerResult::Failed(_))) {
            break;
        }
        let mut removed = false;
        for key in keys {
            if let Some(inner) = key.strip_prefix('/') {
                // A path inside `hookSpecificOutput` (`decision/updatedInput`).
                let (parents, last) = inner.rsplit_once('/').unwrap_or(("", inner));
                let mut object = top.get_mut("hookSpecificOutput");
                for parent in parents.split('/').filter(|p| !p.is_empty()) {
                    object = object.and_then(|o| o.get_mut(parent));
                }
                if let Some(Value::Object(object)) = object {
                    removed |= object.remove(last).is_some();
                }
            } else {
                removed |= top.remove(*key).is_some();
            }
        }
        if removed {
            stderr.push(format!("{event}: {note}"));
            read_back = read(&top);
        }
    }

    // What the reader takes but says has no effect on this event is said too.
    if let Some(HandlerResult::Response(response)) = &read_back {
        for warning in &response.warnings {
            stderr.push(format!("{event}: {warning}"));
        }
        if outcome.stop && response.stop.is_none() && response.decision != Some(Decision::Block) {
            stderr.push(format!("{event}: the agent does not stop on this event"));
        }
    }

    let mut reply = AgentReply {
        stdout: (!top.is_empty()).then_some(Value::Object(top)),
        stderr: Vec::new(),
        exit_code: 0,
    };
    // A block the reader does not take from JSON (or an output it still refuses) goes by the
    // exit code instead.
    let json_ok = match &read_back {
        None => !blocked,
        Some(HandlerResult::Response(response)) => {
            !blocked || response.decision == Some(Decision::Block)
        }
        Some(_) => false,
    };
    if !json_ok {
        let reason = reason.unwrap_or_else(|| "blocked by a hook".to_owned());
        if blocked {
            stderr.insert(0, reason);
            reply.stdout = None;
            reply.exit_code = 2;
        } else {
            stderr.push(format!(
                "{event}: the agent would refuse the combined output, so none is given ({read_back:?})"
            ));
            reply.stdout = None;
        }
    }
    reply.stderr = stderr;
    reply
}

/// `allow`, `ask`, `defer` or `deny`.
fn permission_word(decision: Decision) -> &'static str {
    match decision {
        Decision::Allow => "allow",
        Decision::Ask => "ask",
        Decision::Defer => "defer",
        Decision::Block | Decision::Continue => "deny",
    }
}

/// One line per hook that did not run because of trust, its state or a broken file.
fn skip_notices(outcome: &Outcome) -> Vec<String> {
    outcome
        .runs
        .iter()
        .filter(|run| {
            run.status == RunStatus::Skipped
                && matches!(
                    run.skip_reason,
                    Some(SkipReason::Untrusted | SkipReason::Modified | SkipReason::Invalid)
                )
        })
        // The run's error names the hook and the command that lets it run.
        .map(|run| {
            run.error
                .clone()
                .unwrap_or_else(|| format!("hook {} was skipped", run.key))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{HandlerType, Layer, Run, Source};
    use serde_json::json;

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
        if o.decision == Decision::Block {
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
