//! `agent_reply`: a dispatched event's outcome as an agent's own hook output.
//!
//! What `hook relay` answers Claude Code (verboo) and Codex (lime). Every field goes where the
//! event's output schema has it; what the event cannot carry is said on stderr and, where the
//! event has one, in `systemMessage`; context that has nowhere to go joins a block's reason.
//! The dialect's reader ([`interpret()`](crate::interpret())), checked against the real agents,
//! must read the reply back: what it refuses is dropped one piece at a time and said, and a
//! block it does not take from JSON goes by exit code 2 with the reason on stderr.

use serde_json::{Map, Value};

use crate::interpret;
use crate::schema::SchemaKind;
use crate::{Decision, Dialect, Event, HandlerResult, Outcome, RunStatus, SkipReason};

/// What an agent is answered for one event: its stdout, stderr and exit code.
///
/// `#[non_exhaustive]`: a field may be added in a minor release; it is built by
/// [`agent_reply`] only.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AgentReply {
    /// The JSON to print on stdout; `None` prints nothing.
    pub stdout: Option<Value>,
    /// Lines for stderr: skipped hooks, what the event cannot carry; with exit code 2, the
    /// reason of the block (what the agent gives the model) first.
    pub stderr: Vec<String>,
    /// 0, or 2 when the block is carried by the exit code.
    pub exit_code: u8,
}

/// The properties an event's output schema allows: top level, and in `hookSpecificOutput`.
struct Allowed {
    top: Vec<String>,
    specific: Vec<String>,
}

impl Allowed {
    fn of(dialect: Dialect, event: &Event) -> Allowed {
        let Some(schema) = crate::schema::schema(dialect, event, SchemaKind::Output) else {
            // An event the dialect does not know has no schema: the common fields every event
            // of both agents has are given (Claude Code takes them anywhere; every output
            // schema Codex publishes has them, strict as it is), so a newer agent's event
            // still gets a hook's stop and message; a block goes by exit code 2
            // (`BlockEffect::Unknown`).
            let top = ["systemMessage", "continue", "stopReason"]
                .map(str::to_owned)
                .to_vec();
            return Allowed {
                top,
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

/// The outcome of a dispatched event as the agent's own hook output (what `hook relay`
/// answers): `for_screen` turns each line of `systemMessage`, which the agent shows on its
/// screen, into what may be shown there (`hook-cli` escapes control characters and
/// bidirectional overrides, one message a line).
///
/// The reply validates against the event's output schema, and the dialect's reader reads it
/// back as the outcome's decision, rewrite, context and stop, or says on stderr what it
/// dropped.
pub fn agent_reply(outcome: &Outcome, for_screen: impl Fn(&str) -> String) -> AgentReply {
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

    // Context first: where it cannot go, a block's reason takes it. A dropped prompt's context
    // the dialect keeps for the next turn (lime, as Codex) goes beside the block, where Codex
    // reads it.
    let keeps_context = *event == Event::UserPromptSubmit
        && dialect.rules().output().dropped_prompt_keeps_context();
    if let Some(context) = &outcome.additional_context {
        if allowed.specific("additionalContext") && (!blocked || keeps_context) {
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

    // The fields the engine carries for the agent without acting on them itself.
    let carried = [
        (
            "classifierContext",
            outcome.classifier_context.clone().map(Value::from),
        ),
        (
            "suppressOriginalPrompt",
            outcome
                .suppress_original_prompt
                .then_some(Value::Bool(true)),
        ),
    ];
    let carried = carried.into_iter().chain(
        outcome
            .carried
            .iter()
            .map(|(name, value)| (name.as_str(), Some(value.clone()))),
    );
    for (name, value) in carried {
        let Some(value) = value else { continue };
        if allowed.specific(name) {
            specific.insert(name.into(), value);
        } else if allowed.top(name) {
            top.insert(name.into(), value);
        } else {
            notes.push(format!(
                "{event} output has no `{name}`: the hooks' `{name}` was dropped"
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
        // Only `PreToolUse` applies a rewrite (`PreSkillShellCommand` has the field, and reads
        // any value as a block).
        if allowed.specific("updatedInput") && *event == Event::PreToolUse {
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
        // Shown on the agent's screen: control characters escaped as everything `hook` prints
        // for a person, one message a line.
        let lines: Vec<String> = messages.iter().map(|m| for_screen(m)).collect();
        top.insert("systemMessage".into(), lines.join("\n").into());
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

/// One line per hook that did not run for a reason that is not deliberate
/// ([`SkipReason::is_deliberate`]): trust, its state, a broken file, a type that cannot run
/// here, and any reason a later version adds.
fn skip_notices(outcome: &Outcome) -> Vec<String> {
    outcome
        .runs
        .iter()
        .filter(|run| {
            run.status == RunStatus::Skipped
                && !run.skip_reason.is_some_and(SkipReason::is_deliberate)
        })
        // The run's error names the hook and the command that lets it run.
        .map(|run| {
            run.error
                .clone()
                .unwrap_or_else(|| format!("hook {} was skipped", run.key))
        })
        .collect()
}
