//! Writing a [`Response`] the way one dialect requires, for one event.
//!
//! Everything is written as one JSON object with exit code 0 (a block too): every dialect reads
//! a block from JSON where a block is expressible. What a dialect cannot express is a
//! [`RenderError`] naming the dialect, the event and what to use instead.

use std::fmt;

use hook_protocol::{Decision, Dialect, Event, FieldCase};
use serde_json::{Map, Value, json};

use crate::Response;

/// A response the dialect cannot express on this event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderError {
    /// The dialect.
    pub dialect: Dialect,
    /// The event.
    pub event: String,
    /// What cannot be expressed and what to use instead.
    pub message: String,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the response cannot be written for {} {}: {}",
            self.dialect, self.event, self.message
        )
    }
}

impl std::error::Error for RenderError {}

/// What a strict dialect (lime, as Codex CLI 0.169 reads it) refuses that verboo would take: such
/// an output would be a failed run, so it is not written.
fn strict_refusal(
    event: &Event,
    response: &Response,
    decision: Option<Decision>,
) -> Option<&'static str> {
    let stop = response.stop.is_some();
    match event {
        Event::PreToolUse if decision == Some(Decision::Ask) => {
            Some(if response.updated_input.is_some() {
                "lime has no `ask` on PreToolUse: rewrite with no decision (`Response::rewrite`: lime still asks where it would have), or deny"
            } else {
                "lime has no `ask` on PreToolUse: deny, or give no decision"
            })
        }
        Event::PreToolUse | Event::PermissionRequest if stop => {
            Some("lime takes no `continue: false` on tool calls: deny (or block) the call instead")
        }
        Event::PostToolUse if stop => {
            Some("lime reads `continue: false` on PostToolUse as feedback for the model: use block")
        }
        Event::SubagentStart if stop => Some("lime ignores `continue: false` on SubagentStart"),
        Event::PreToolUse | Event::PermissionRequest | Event::PostToolUse
            if response.suppress_output =>
        {
            Some("lime takes no `suppressOutput` on tool calls")
        }
        _ => None,
    }
}

/// The output object of `response` for `event` in `dialect`.
///
/// # Errors
///
/// [`RenderError`] when the dialect cannot express the response on this event; its message
/// says what to use instead.
pub fn render(
    dialect: Dialect,
    event: &Event,
    response: &Response,
) -> Result<Map<String, Value>, RenderError> {
    let error = |message: String| RenderError {
        dialect,
        event: event.to_string(),
        message,
    };
    let can_block = event.block_effect(dialect).can_block();
    let decision = response.decision.filter(|d| *d != Decision::Continue);
    let reason = || {
        response
            .reason
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| "blocked by hook".to_owned())
    };
    if decision == Some(Decision::Block) && !can_block {
        return Err(error(format!(
            "{event} cannot block in {dialect}; answer with context or no decision"
        )));
    }
    if response.updated_input.is_some() && decision == Some(Decision::Block) {
        return Err(error(
            "a rewritten input with a block: the call is cancelled, so drop the rewrite".into(),
        ));
    }
    let rules = dialect.rules();
    if response.additional_context.is_some() && !rules.accepts_context(event) {
        let places: Vec<&Event> = rules
            .events
            .iter()
            .filter(|e| rules.accepts_context(e))
            .collect();
        let only = match places.as_slice() {
            [one] => format!(" ({dialect}: {one} only)"),
            _ => String::new(),
        };
        return Err(error(format!(
            "{dialect} takes no additional context on {event}{only}"
        )));
    }
    let mut out = Map::new();
    // The flat snake_case output (wuu): no `hookSpecificOutput`, no stop.
    if rules.field_case == FieldCase::Snake {
        match decision {
            None | Some(Decision::Allow | Decision::Continue) => {}
            Some(Decision::Block) => {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(reason()));
            }
            Some(Decision::Ask | Decision::Defer) => {
                return Err(error(
                    "wuu has no ask or defer: allow (no decision) or block".into(),
                ));
            }
        }
        if let Some(input) = &response.updated_input {
            if *event != Event::PreToolUse {
                return Err(error("wuu rewrites the input on PreToolUse only".into()));
            }
            out.insert("updated_input".into(), Value::Object(input.clone()));
        }
        if let Some(context) = &response.additional_context {
            out.insert("additional_context".into(), json!(context));
        }
        if response.stop.is_some() {
            return Err(error(
                "wuu has no \"stop the agent\" (its `continue: false` blocks): use block".into(),
            ));
        }
        if response.system_message.is_some() || response.suppress_output {
            return Err(error(
                "wuu has no system message or suppressed output: write to stderr instead".into(),
            ));
        }
        return Ok(out);
    }

    // The camelCase output with `hookSpecificOutput` (verboo, lime).
    let lime = rules.strict_output;
    if lime && let Some(refused) = strict_refusal(event, response, decision) {
        return Err(error(refused.into()));
    }
    let mut specific = Map::new();
    match event {
        Event::PreToolUse => {
            let permission = match decision {
                // lime writes every rewrite as an allow, which only rewrites (Codex still asks
                // where it would have); verboo takes `updatedInput` with no decision.
                None if lime && response.updated_input.is_some() => Some("allow"),
                None | Some(Decision::Continue) => None,
                // A lime allow only carries a rewrite (Codex refuses a bare one): without one,
                // letting the call go on is saying nothing.
                Some(Decision::Allow) if lime && response.updated_input.is_none() => None,
                Some(Decision::Allow) => Some("allow"),
                Some(Decision::Block) => Some("deny"),
                Some(Decision::Ask) => Some("ask"),
                Some(Decision::Defer) if lime => {
                    return Err(error(
                        "lime has no `defer`: use allow, deny or ask (or no decision)".into(),
                    ));
                }
                Some(Decision::Defer) => Some("defer"),
            };
            if let Some(permission) = permission {
                specific.insert("permissionDecision".into(), json!(permission));
                let reason = match decision {
                    Some(Decision::Block) => Some(reason()),
                    _ => response.reason.clone(),
                };
                if let Some(reason) = reason {
                    specific.insert("permissionDecisionReason".into(), json!(reason));
                }
            }
            if let Some(input) = &response.updated_input {
                specific.insert("updatedInput".into(), Value::Object(input.clone()));
            }
        }
        Event::PermissionRequest => {
            if response.updated_input.is_some() && (lime || decision != Some(Decision::Allow)) {
                return Err(error(if lime {
                    "lime accepts no rewritten input on PermissionRequest".into()
                } else {
                    "a rewritten input on PermissionRequest goes with an allow: use Response::rewrite_and_allow".into()
                }));
            }
            let decision = match decision {
                Some(Decision::Allow) => {
                    let mut d = Map::new();
                    d.insert("behavior".into(), json!("allow"));
                    if let Some(input) = &response.updated_input {
                        d.insert("updatedInput".into(), Value::Object(input.clone()));
                    }
                    Some(d)
                }
                Some(Decision::Block) => {
                    let mut d = Map::new();
                    d.insert("behavior".into(), json!("deny"));
                    d.insert("message".into(), json!(reason()));
                    Some(d)
                }
                // Asking the user is what happens when the hook gives no decision.
                None | Some(Decision::Continue | Decision::Ask) => None,
                Some(Decision::Defer) => {
                    return Err(error(
                        "PermissionRequest has no `defer`: give no decision to leave it to the user"
                            .into(),
                    ));
                }
            };
            if let Some(decision) = decision {
                specific.insert("decision".into(), Value::Object(decision));
            }
        }
        _ => {
            if response.updated_input.is_some() {
                return Err(error(
                    "the tool input can be rewritten on PreToolUse only".into(),
                ));
            }
            match decision {
                None | Some(Decision::Allow | Decision::Continue) => {}
                Some(Decision::Block) => {
                    out.insert("decision".into(), json!("block"));
                    out.insert("reason".into(), json!(reason()));
                }
                Some(Decision::Ask | Decision::Defer) => {
                    return Err(error(
                        "ask and defer are permission decisions of PreToolUse only".into(),
                    ));
                }
            }
        }
    }
    if let Some(context) = &response.additional_context {
        specific.insert("additionalContext".into(), json!(context));
    }
    if !specific.is_empty() {
        let mut tagged = Map::new();
        tagged.insert("hookEventName".into(), json!(event.as_str()));
        tagged.extend(specific);
        out.insert("hookSpecificOutput".into(), Value::Object(tagged));
    }
    if let Some(stop) = &response.stop {
        out.insert("continue".into(), json!(false));
        if let Some(reason) = &stop.reason {
            out.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(message) = &response.system_message {
        out.insert("systemMessage".into(), json!(message));
    }
    if response.suppress_output {
        out.insert("suppressOutput".into(), json!(true));
    }
    Ok(out)
}
