//! Combining the results of every handler of one event into one [`Outcome`], per dialect.
//!
//! The rules:
//! - **decision**: the most restrictive wins: block (deny) > defer > ask > allow. On
//!   `PreToolUse` and `PermissionRequest` the reason is the first one in configuration order of
//!   the handlers that gave the winning decision (Claude Code 2.1 and Codex 0.169 both show the
//!   model one reason); elsewhere every such reason is kept, in order, joined by a blank line
//!   (Codex joins `Stop` continuation prompts so).
//! - **`UserPromptSubmit` block or stop**: the prompt is dropped; every `additionalContext` is
//!   dropped with it unless the dialect's rule
//!   ([`dropped_prompt_keeps_context`](hook_protocol::OutputRules::dropped_prompt_keeps_context))
//!   keeps it for the session's next turn (lime, as Codex; verboo drops it, as Claude Code).
//! - **verboo `Stop`/`SubagentStop` context**: `additionalContext` continues the agent like a
//!   block: the decision is `block` and the context is what the model gets next (Claude Code 2.1
//!   takes another turn with it); the engine's stop-loop cap
//!   ([`EngineOptions::stop_loop_cap`](crate::EngineOptions::stop_loop_cap), 8 as in Claude
//!   Code) counts these continuations like blocks.
//! - **updated input**: the last rewrite in configuration order wins (deterministic, whatever
//!   order the handlers finished in); a blocked call is not rewritten.
//! - **additional context**: every handler's, in configuration order, joined by a blank line.
//! - **stop**: any handler's `continue: false` sets `stop`; on `Stop` and `SubagentStop` it beats a
//!   block ("keep going"), which is dropped.
//! - **system messages**: every handler's, in order, then one line per handler that failed, so a
//!   failure always reaches the user.
//!
//! wuu's serial chain (stop at the first block or error, each rewrite feeding the next hook) is
//! the engine's part: by the time results reach here, the chain has already stopped.

use hook_protocol::{Decision, Dialect, Event, HookContext, Outcome, Response, Run, RunStatus};
use serde_json::Value;

/// One handler's part of an event: its `runs` entry and, if it ran and was read, its response.
#[derive(Debug, Clone)]
pub(crate) struct Finished {
    /// The entry for the outcome's `runs`.
    pub(crate) run: Run,
    /// What the handler asked for, if it ran and its output was read.
    pub(crate) response: Option<Response>,
}

/// Combines handler results, given in configuration order, into the outcome of `event`.
pub(crate) fn combine(dialect: Dialect, event: Event, finished: Vec<Finished>) -> Outcome {
    let mut outcome = Outcome::new(dialect, event);
    let mut winner = Decision::Continue;
    let mut reasons: Vec<String> = Vec::new();
    let mut contexts: Vec<HookContext> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut rewrite = None;
    let mut classifier: Vec<String> = Vec::new();

    for Finished { run, response } in finished {
        if let Some(response) = response {
            classifier.extend(response.classifier_context.filter(|c| !c.is_empty()));
            outcome.suppress_original_prompt |= response.suppress_original_prompt;
            for (name, value) in response.carried {
                match (outcome.carried.get_mut(&name), value) {
                    // Every hook's paths are watched.
                    (Some(Value::Array(paths)), Value::Array(more)) if name == "watchPaths" => {
                        for path in more {
                            if !paths.contains(&path) {
                                paths.push(path);
                            }
                        }
                    }
                    (_, value) => {
                        outcome.carried.insert(name, value);
                    }
                }
            }
            if let Some(decision) = response.decision.filter(|d| *d != Decision::Continue) {
                if decision > winner {
                    winner = decision;
                    reasons.clear();
                }
                if decision == winner
                    && let Some(reason) = response.reason.filter(|r| !reasons.contains(r))
                {
                    reasons.push(reason);
                }
            }
            if let Some(updated) = response.updated_input {
                rewrite = Some(updated);
            }
            contexts.extend(
                (response.additional_context.filter(|c| !c.is_empty()))
                    .map(|text| HookContext::new(run.key.clone(), text)),
            );
            if let Some(stop) = response.stop {
                outcome.stop = true;
                if outcome.stop_reason.is_none() {
                    outcome.stop_reason = stop.reason;
                }
            }
            outcome.system_messages.extend(response.system_message);
        }
        if matches!(run.status, RunStatus::Failed | RunStatus::TimedOut)
            && let Some(error) = &run.error
        {
            failures.push(format!("hook {} failed: {error}", run.key));
        }
        outcome.runs.push(run);
    }

    let stop_event = matches!(outcome.event, Event::Stop | Event::SubagentStop);
    if dialect.rules().output().stop_context_blocks() && stop_event && !contexts.is_empty() {
        winner = Decision::Block;
    }
    if outcome.stop && winner == Decision::Block && stop_event {
        winner = Decision::Continue;
        reasons.clear();
    }
    if (winner == Decision::Block || outcome.stop)
        && outcome.event == Event::UserPromptSubmit
        && !dialect.rules().output().dropped_prompt_keeps_context()
    {
        contexts.clear();
    }
    if matches!(outcome.event, Event::PreToolUse | Event::PermissionRequest) {
        reasons.truncate(1);
    }
    outcome.decision = winner;
    outcome.reason = (!reasons.is_empty()).then(|| reasons.join("\n\n"));
    if winner != Decision::Block {
        outcome.updated_input = rewrite;
    }
    outcome.additional_context = (!contexts.is_empty()).then(|| {
        let texts: Vec<&str> = contexts.iter().map(|c| c.text.as_str()).collect();
        texts.join("\n\n")
    });
    outcome.additional_contexts = contexts;
    if !classifier.is_empty() {
        let joined = classifier.join("\n\n");
        let cut = hook_protocol::text::cut_utf16(&joined, hook_protocol::CLASSIFIER_CONTEXT_LIMIT);
        if cut.len() < joined.len() {
            outcome.system_messages.push(format!(
                "classifierContext is over its {} UTF-16 units: it was cut",
                hook_protocol::CLASSIFIER_CONTEXT_LIMIT
            ));
        }
        outcome.classifier_context = Some(cut.to_owned());
    }
    outcome.system_messages.extend(failures);
    outcome
}

/// The outcomes of several configurations the agent runs side by side for one event (its own
/// hooks and the relay's), combined as the agent combines its hooks: the strongest decision
/// (block over defer over ask over allow) with its reason, the last rewrite, every context
/// (joined by a blank line), message and run, `stop` when any stops (the first stop reason).
/// With no outcome at all, the outcome of `event` with no decision.
///
/// `hook test --expectations` judges the combination, since that is what the agent acts on.
pub fn combine_outcomes(dialect: Dialect, event: Event, outcomes: Vec<Outcome>) -> Outcome {
    let mut outcomes = outcomes.into_iter();
    let Some(mut combined) = outcomes.next() else {
        return Outcome::new(dialect, event);
    };
    for outcome in outcomes {
        if outcome.decision > combined.decision {
            combined.decision = outcome.decision;
            combined.reason = outcome.reason;
        }
        if outcome.updated_input.is_some() {
            combined.updated_input = outcome.updated_input;
        }
        combined.additional_context =
            match (combined.additional_context, outcome.additional_context) {
                (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
                (a, b) => a.or(b),
            };
        combined.stop |= outcome.stop;
        combined.stop_reason = combined.stop_reason.or(outcome.stop_reason);
        combined.system_messages.extend(outcome.system_messages);
        combined.runs.extend(outcome.runs);
    }
    combined
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{HandlerType, Layer, Source, StopRequest};
    use serde_json::json;

    fn finished(key: &str, status: RunStatus, response: Option<Response>) -> Finished {
        let mut run = Run::new(key, Source::new(Layer::User), HandlerType::Command);
        run.status = status;
        run.exit_code = Some(0);
        run.duration_ms = Some(1);
        run.error = (status == RunStatus::Failed).then(|| "exit 1".to_owned());
        Finished { run, response }
    }

    /// A response with the fields `edit` sets.
    fn response(edit: impl FnOnce(&mut Response)) -> Option<Response> {
        let mut response = Response::default();
        edit(&mut response);
        Some(response)
    }

    fn says(decision: Decision, reason: &str) -> Option<Response> {
        response(|r| {
            r.decision = Some(decision);
            r.reason = Some(reason.into());
        })
    }

    #[test]
    fn the_most_restrictive_decision_wins_whatever_the_order() {
        use Decision::*;
        let table: &[(&[Decision], Decision)] = &[
            (&[Allow, Ask], Ask),
            (&[Ask, Defer, Allow], Defer),
            (&[Allow, Block, Defer], Block),
            (&[Defer, Block], Block),
            (&[Allow], Allow),
            (&[], Continue),
        ];
        for (decisions, want) in table {
            let runs = decisions
                .iter()
                .enumerate()
                .map(|(i, d)| finished(&format!("h{i}"), RunStatus::Ok, says(*d, &format!("r{i}"))))
                .collect();
            let outcome = combine(Dialect::Verboo, Event::PreToolUse, runs);
            assert_eq!(outcome.decision, *want, "{decisions:?}");
        }
    }

    #[test]
    fn reasons_of_the_winning_decision_are_kept_in_order() {
        let outcome = combine(
            Dialect::Lime,
            Event::PermissionRequest,
            vec![
                finished("a", RunStatus::Blocked, says(Decision::Block, "first")),
                finished("b", RunStatus::Ok, says(Decision::Allow, "allowed")),
                finished("c", RunStatus::Blocked, says(Decision::Block, "second")),
            ],
        );
        assert_eq!(outcome.decision, Decision::Block);
        assert_eq!(outcome.reason.as_deref(), Some("first"));
    }

    #[test]
    fn reasons_per_event_first_on_tool_calls_all_on_stop() {
        let table = [
            (Event::PreToolUse, "first"),
            (Event::PermissionRequest, "first"),
            (Event::Stop, "first\n\nsecond"),
            (Event::SubagentStop, "first\n\nsecond"),
            (Event::PostToolUse, "first\n\nsecond"),
        ];
        for dialect in [Dialect::Verboo, Dialect::Lime] {
            for (event, want) in &table {
                let outcome = combine(
                    dialect,
                    event.clone(),
                    vec![
                        finished("a", RunStatus::Blocked, says(Decision::Block, "first")),
                        finished("b", RunStatus::Blocked, says(Decision::Block, "second")),
                    ],
                );
                assert_eq!(outcome.reason.as_deref(), Some(*want), "{dialect} {event}");
            }
        }
    }

    #[test]
    fn a_blocked_prompt_drops_every_context_in_verboo_and_keeps_it_in_lime() {
        for dialect in [Dialect::Verboo, Dialect::Lime] {
            let kept = dialect.rules().output().dropped_prompt_keeps_context();
            let context = response(|r| {
                r.additional_context = Some("ctx".into());
            });
            let outcome = combine(
                dialect,
                Event::UserPromptSubmit,
                vec![
                    finished("a", RunStatus::Ok, context.clone()),
                    finished("b", RunStatus::Blocked, says(Decision::Block, "no")),
                ],
            );
            assert_eq!(outcome.decision, Decision::Block);
            assert_eq!(
                outcome.additional_context.as_deref(),
                kept.then_some("ctx"),
                "{dialect}"
            );
            let outcome = combine(
                dialect,
                Event::UserPromptSubmit,
                vec![finished("a", RunStatus::Ok, context)],
            );
            assert_eq!(outcome.additional_context.as_deref(), Some("ctx"));
            // A stopped prompt is dropped too.
            let outcome = combine(
                dialect,
                Event::UserPromptSubmit,
                vec![finished(
                    "a",
                    RunStatus::Stopped,
                    response(|r| {
                        r.additional_context = Some("ctx".into());
                        r.stop = Some(StopRequest::new(None));
                    }),
                )],
            );
            assert!(outcome.stop);
            assert_eq!(
                outcome.additional_context.as_deref(),
                kept.then_some("ctx"),
                "{dialect}"
            );
        }
    }

    #[test]
    fn verboo_stop_context_continues_the_agent_lime_does_not() {
        let context = response(|r| {
            r.additional_context = Some("one more thing".into());
        });
        for (dialect, event, want) in [
            (Dialect::Verboo, Event::Stop, Decision::Block),
            (Dialect::Verboo, Event::SubagentStop, Decision::Block),
            (Dialect::Verboo, Event::PostToolUse, Decision::Continue),
            (Dialect::Lime, Event::Stop, Decision::Continue),
        ] {
            let outcome = combine(
                dialect,
                event.clone(),
                vec![finished("a", RunStatus::Ok, context.clone())],
            );
            assert_eq!(outcome.decision, want, "{dialect} {event}");
            assert_eq!(outcome.reason, None);
            assert_eq!(
                outcome.additional_context.as_deref(),
                Some("one more thing")
            );
        }
        // A stop still beats it.
        let outcome = combine(
            Dialect::Verboo,
            Event::Stop,
            vec![
                finished("a", RunStatus::Ok, context),
                finished(
                    "b",
                    RunStatus::Ok,
                    response(|r| {
                        r.stop = Some(StopRequest::new(None));
                    }),
                ),
            ],
        );
        assert_eq!(outcome.decision, Decision::Continue);
        assert!(outcome.stop);
    }

    #[test]
    fn the_last_rewrite_in_config_order_wins_and_context_accumulates() {
        let rewrite = |n: i32, context: &str| {
            response(|r| {
                r.updated_input = Some(json!({"n": n}));
                r.additional_context = Some(context.into());
            })
        };
        let outcome = combine(
            Dialect::Verboo,
            Event::PreToolUse,
            vec![
                finished("a", RunStatus::Ok, rewrite(1, "one")),
                finished("b", RunStatus::Failed, None),
                finished("c", RunStatus::Ok, rewrite(2, "two")),
            ],
        );
        assert_eq!(outcome.updated_input, Some(json!({"n": 2})));
        assert_eq!(outcome.additional_context.as_deref(), Some("one\n\ntwo"));
        assert_eq!(
            outcome.system_messages,
            vec!["hook b failed: exit 1".to_owned()]
        );
        assert_eq!(
            outcome
                .runs
                .iter()
                .map(|r| r.key.as_str())
                .collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn a_blocked_call_is_not_rewritten() {
        let outcome = combine(
            Dialect::Verboo,
            Event::PreToolUse,
            vec![
                finished(
                    "a",
                    RunStatus::Ok,
                    response(|r| {
                        r.updated_input = Some(json!({}));
                    }),
                ),
                finished("b", RunStatus::Blocked, says(Decision::Block, "no")),
            ],
        );
        assert_eq!(outcome.decision, Decision::Block);
        assert_eq!(outcome.updated_input, None);
    }

    #[test]
    fn stop_beats_a_block_on_stop_events_only() {
        let stop = response(|r| {
            r.stop = Some(StopRequest::new(Some("enough".into())));
        });
        for (event, want) in [
            (Event::Stop, Decision::Continue),
            (Event::SubagentStop, Decision::Continue),
            (Event::PreToolUse, Decision::Block),
        ] {
            let outcome = combine(
                Dialect::Lime,
                event.clone(),
                vec![
                    finished("a", RunStatus::Blocked, says(Decision::Block, "keep going")),
                    finished("b", RunStatus::Ok, stop.clone()),
                ],
            );
            assert!(outcome.stop);
            assert_eq!(outcome.stop_reason.as_deref(), Some("enough"));
            assert_eq!(outcome.decision, want, "{event}");
        }
    }

    /// Every hook's `classifierContext` is kept, joined, and cut to Claude Code's shared budget
    /// of 2,000 UTF-16 units (never inside a surrogate pair); `watchPaths` lists are joined,
    /// other carried fields are the last hook's.
    #[test]
    fn classifier_context_is_joined_and_cut_and_carried_fields_merge() {
        let long = "\u{1F600}".repeat(1500); // 3,000 UTF-16 units
        let finished = vec![
            finished(
                "a",
                RunStatus::Ok,
                response(|r| {
                    r.classifier_context = Some("first".into());
                    r.carried.insert("watchPaths".into(), json!(["/a"]));
                    r.carried.insert("sessionTitle".into(), json!("one"));
                }),
            ),
            finished(
                "b",
                RunStatus::Ok,
                response(|r| {
                    r.classifier_context = Some(long.clone());
                    r.carried.insert("watchPaths".into(), json!(["/b", "/a"]));
                    r.carried.insert("sessionTitle".into(), json!("two"));
                }),
            ),
        ];
        let outcome = combine(Dialect::Verboo, Event::PostToolUse, finished);
        let context = outcome.classifier_context.expect("classifier context");
        assert!(context.starts_with("first\n\n\u{1F600}"), "{context}");
        assert_eq!(
            context.encode_utf16().count(),
            2000 - 1,
            "an emoji is never split"
        );
        assert!(
            outcome
                .system_messages
                .iter()
                .any(|m| m.contains("it was cut"))
        );
        assert_eq!(outcome.carried["watchPaths"], json!(["/a", "/b"]));
        assert_eq!(outcome.carried["sessionTitle"], json!("two"));
    }

    #[test]
    fn outcomes_side_by_side_combine_as_the_agent_combines_its_hooks() {
        let event = Event::PreToolUse;
        let mut own = Outcome::new(Dialect::Verboo, event.clone());
        own.decision = Decision::Allow;
        own.reason = Some("fine".into());
        own.additional_context = Some("own".into());
        own.updated_input = Some(json!({"command": "ls -l"}));
        let mut relay = Outcome::new(Dialect::Verboo, event.clone());
        relay.decision = Decision::Block;
        relay.reason = Some("no".into());
        relay.additional_context = Some("relay".into());
        relay.system_messages.push("from the relay".into());
        let combined = combine_outcomes(Dialect::Verboo, event.clone(), vec![own, relay]);
        assert_eq!(combined.decision, Decision::Block);
        assert_eq!(combined.reason.as_deref(), Some("no"));
        assert_eq!(combined.additional_context.as_deref(), Some("own\n\nrelay"));
        assert_eq!(combined.updated_input, Some(json!({"command": "ls -l"})));
        assert_eq!(combined.system_messages, vec!["from the relay".to_owned()]);
        assert!(!combined.stop);

        let none = combine_outcomes(Dialect::Lime, Event::Stop, Vec::new());
        assert_eq!(none.decision, Decision::Continue);
        assert_eq!(none.event, Event::Stop);
    }
}
