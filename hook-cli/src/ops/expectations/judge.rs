//! One case: its event built, and how it went judged against what it expects.

use anyhow::{Context, Result};
use hook_protocol::{Decision, Dialect, Outcome, RunStatus, input::example_input};
use serde_json::Value;

use super::{Case, CaseResult, Expect};
use crate::ops::input::known_event;

/// The event of `case`: its partial input over the dialect's example, `cwd` the project.
pub(super) fn build_input(
    dialect: Dialect,
    case: &Case,
    cwd: &str,
) -> Result<hook_protocol::input::EventInput> {
    let event = known_event(dialect, &case.event)?;
    let tool = case.tool.clone().or_else(|| {
        case.input
            .as_ref()
            .and_then(|i| i.get("tool_name"))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    });
    let example = example_input(dialect, &event, cwd, tool.as_deref())
        .context("every known event has an example")?;
    let given: serde_json::Map<String, Value> = match &case.input {
        Some(table) => match serde_json::to_value(table)? {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        },
        None => serde_json::Map::new(),
    };
    let (mut value, _) = crate::ops::matrix::fill(example, given);
    if let (Some(tool), Some(object)) = (tool, value.as_object_mut()) {
        object.insert("tool_name".into(), tool.into());
    }
    hook_protocol::input::input_from_value(dialect, value)
        .context("the case's input is not a valid event")
}

/// The decision as the file names it.
fn decision_word(decision: Decision) -> &'static str {
    match decision {
        Decision::Continue => "continue",
        Decision::Allow => "allow",
        Decision::Ask => "ask",
        Decision::Defer => "defer",
        Decision::Block => "block",
    }
}

/// How `case` went, given the combined outcome of every hook it ran through.
pub(super) fn judge(name: String, case: &Case, outcome: &Outcome) -> CaseResult {
    let mut got = decision_word(outcome.decision).to_owned();
    if outcome.updated_input.is_some() {
        got.push_str(", rewrite");
    }
    if outcome.additional_context.is_some() {
        got.push_str(", context");
    }
    if outcome.stop {
        got.push_str(", stop");
    }
    let expected = serde_json::to_value(case.expect)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut problems = Vec::new();
    let met = match case.expect {
        Expect::Block => outcome.decision == Decision::Block,
        Expect::Allow => matches!(outcome.decision, Decision::Continue | Decision::Allow),
        Expect::Ask => outcome.decision == Decision::Ask,
        Expect::Defer => outcome.decision == Decision::Defer,
        Expect::Rewrite => outcome.updated_input.is_some(),
        Expect::Context => outcome.additional_context.is_some(),
        Expect::Stop => outcome.stop,
    };
    if !met {
        problems.push(format!("expected {expected}, got {got}"));
    }
    if let Some(text) = &case.reason_contains {
        let reason = outcome.reason.as_deref().unwrap_or("");
        if !reason.contains(text.as_str()) {
            problems.push(format!("the reason {reason:?} does not contain {text:?}"));
        }
    }
    if let Some(text) = &case.context_contains {
        let context = outcome.additional_context.as_deref().unwrap_or("");
        if !context.contains(text.as_str()) {
            problems.push(format!("the context {context:?} does not contain {text:?}"));
        }
    }
    let problem = (!problems.is_empty()).then(|| {
        let runs: Vec<String> = outcome
            .runs
            .iter()
            .map(|run| {
                let status = serde_json::to_value(run.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                let mut text = format!("{} {status}", run.key);
                if let Some(code) = run.exit_code {
                    text.push_str(&format!(" exit {code}"));
                }
                if matches!(
                    run.status,
                    RunStatus::Failed | RunStatus::TimedOut | RunStatus::Skipped
                ) && let Some(error) = &run.error
                {
                    text.push_str(&format!(" ({error})"));
                }
                text
            })
            .collect();
        let hooks = if runs.is_empty() {
            "no hook matched".to_owned()
        } else {
            format!("hooks: {}", runs.join("; "))
        };
        format!("{}; {hooks}", problems.join("; "))
    });
    CaseResult {
        name,
        event: case.event.clone(),
        expected,
        got,
        passed: problem.is_none(),
        problem,
    }
}
