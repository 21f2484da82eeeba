//! [`hook_output`]: a hook's answer as the object it prints.

use serde_json::{Map, Value, json};

use super::{Answer, OutputForm, WriteError};
use crate::{Decision, Dialect, Event};

/// The output object of `answer` for `event` in `dialect`: what a hook prints on stdout, with
/// exit code 0 (a block too: every dialect reads a block from JSON where a block is
/// expressible).
///
/// # Errors
///
/// [`WriteError`] when the dialect cannot express the answer on this event; its message says
/// what to use instead.
pub fn hook_output(
    dialect: Dialect,
    event: &Event,
    answer: &Answer,
) -> Result<Map<String, Value>, WriteError> {
    let error = |message: String| WriteError {
        dialect,
        event: event.to_string(),
        message,
    };
    let can_block = event.block_effect(dialect).can_block();
    let decision = answer.decision.filter(|d| *d != Decision::Continue);
    if decision == Some(Decision::Block) && !can_block {
        return Err(error(format!(
            "{event} cannot block in {dialect}; answer with context or no decision"
        )));
    }
    if answer.updated_input.is_some() && decision == Some(Decision::Block) {
        return Err(error(
            "a rewritten input with a block: the call is cancelled, so drop the rewrite".into(),
        ));
    }
    let rules = dialect.rules();
    if answer.additional_context.is_some() && !rules.output().accepts_context(event) {
        let places: Vec<&Event> = rules
            .events()
            .iter()
            .filter(|e| rules.output().accepts_context(e))
            .collect();
        let only = match places.as_slice() {
            [one] => format!(" ({dialect}: {one} only)"),
            _ => String::new(),
        };
        return Err(error(format!(
            "{dialect} takes no additional context on {event}{only}"
        )));
    }
    let write = &rules.write;
    if let Some(refused) = (write.refuse)(event, answer, decision) {
        return Err(error(refused.into()));
    }
    match write.form {
        OutputForm::Flat => Ok(flat(answer, decision)),
        OutputForm::Tagged => tagged(event, answer, decision, write.rewrite_is_allow)
            .map_err(|message| error(message.into())),
    }
}

/// `permissionDecision` and its reason (a block's always has one).
fn insert_permission(
    specific: &mut Map<String, Value>,
    permission: &str,
    answer: &Answer,
    decision: Option<Decision>,
) {
    specific.insert("permissionDecision".into(), json!(permission));
    let reason = match decision {
        Some(Decision::Block) => Some(block_reason(answer)),
        _ => answer.reason.clone(),
    };
    if let Some(reason) = reason {
        specific.insert("permissionDecisionReason".into(), json!(reason));
    }
}

/// A block's reason: the answer's, or a default where it gave none (or a blank one).
fn block_reason(answer: &Answer) -> String {
    answer
        .reason
        .clone()
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| "blocked by hook".to_owned())
}

/// The flat snake_case output (wuu), of an answer its dialect has not refused.
fn flat(answer: &Answer, decision: Option<Decision>) -> Map<String, Value> {
    let mut out = Map::new();
    if decision == Some(Decision::Block) {
        out.insert("decision".into(), json!("block"));
        out.insert("reason".into(), json!(block_reason(answer)));
    }
    if let Some(input) = &answer.updated_input {
        out.insert("updated_input".into(), Value::Object(input.clone()));
    }
    if let Some(context) = &answer.additional_context {
        out.insert("additional_context".into(), json!(context));
    }
    out
}

/// The camelCase output with `hookSpecificOutput` (verboo, lime), of an answer its dialect has
/// not refused; `Err` is what no tagged dialect can write.
fn tagged(
    event: &Event,
    answer: &Answer,
    decision: Option<Decision>,
    rewrite_is_allow: bool,
) -> Result<Map<String, Value>, &'static str> {
    let mut out = Map::new();
    let mut specific = Map::new();
    match event {
        Event::PreToolUse => {
            let permission = match decision {
                // A rewrite is an allow where the dialect writes it so, which only rewrites;
                // elsewhere `updatedInput` goes with no decision.
                None if rewrite_is_allow && answer.updated_input.is_some() => Some("allow"),
                None | Some(Decision::Continue) => None,
                // There, an allow only carries a rewrite: without one, letting the call go on
                // is saying nothing.
                Some(Decision::Allow) if rewrite_is_allow && answer.updated_input.is_none() => None,
                Some(Decision::Allow) => Some("allow"),
                Some(Decision::Block) => Some("deny"),
                Some(Decision::Ask) => Some("ask"),
                Some(Decision::Defer) => Some("defer"),
            };
            if let Some(permission) = permission {
                insert_permission(&mut specific, permission, answer, decision);
            }
            if let Some(input) = &answer.updated_input {
                specific.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        Event::PreModelSwitch => {
            if answer.updated_input.is_some() {
                return Err("the tool input can be rewritten on PreToolUse only");
            }
            let permission = match decision {
                None | Some(Decision::Continue) => None,
                Some(Decision::Allow) => Some("allow"),
                Some(Decision::Block) => Some("deny"),
                Some(Decision::Ask) => Some("ask"),
                Some(Decision::Defer) => {
                    return Err("PreModelSwitch has no `defer`: give no decision to let it go on");
                }
            };
            if let Some(permission) = permission {
                insert_permission(&mut specific, permission, answer, decision);
            }
        }
        Event::PermissionRequest => {
            if answer.updated_input.is_some() && decision != Some(Decision::Allow) {
                return Err(
                    "a rewritten input on PermissionRequest goes with an allow: use Response::rewrite_and_allow",
                );
            }
            let decision = match decision {
                Some(Decision::Allow) => {
                    let mut d = Map::new();
                    d.insert("behavior".into(), json!("allow"));
                    if let Some(input) = &answer.updated_input {
                        d.insert("updatedInput".into(), Value::Object(input.clone()));
                    }
                    Some(d)
                }
                Some(Decision::Block) => {
                    let mut d = Map::new();
                    d.insert("behavior".into(), json!("deny"));
                    d.insert("message".into(), json!(block_reason(answer)));
                    Some(d)
                }
                // Asking the user is what happens when the hook gives no decision.
                None | Some(Decision::Continue | Decision::Ask) => None,
                Some(Decision::Defer) => {
                    return Err(
                        "PermissionRequest has no `defer`: give no decision to leave it to the user",
                    );
                }
            };
            if let Some(decision) = decision {
                specific.insert("decision".into(), Value::Object(decision));
            }
        }
        _ => {
            if answer.updated_input.is_some() {
                return Err("the tool input can be rewritten on PreToolUse only");
            }
            match decision {
                None | Some(Decision::Allow | Decision::Continue) => {}
                Some(Decision::Block) => {
                    out.insert("decision".into(), json!("block"));
                    out.insert("reason".into(), json!(block_reason(answer)));
                }
                Some(Decision::Ask | Decision::Defer) => {
                    return Err("ask and defer are permission decisions of PreToolUse only");
                }
            }
        }
    }
    if let Some(context) = &answer.additional_context {
        specific.insert("additionalContext".into(), json!(context));
    }
    if !specific.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), json!(event.as_str()));
        with_name.extend(specific);
        out.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    if answer.stop {
        out.insert("continue".into(), json!(false));
        if let Some(reason) = &answer.stop_reason {
            out.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(message) = &answer.system_message {
        out.insert("systemMessage".into(), json!(message));
    }
    if answer.suppress_output {
        out.insert("suppressOutput".into(), json!(true));
    }
    Ok(out)
}
