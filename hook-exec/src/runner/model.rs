//! `prompt` and `agent` handlers: the question goes to the embedder's [`ModelClient`]; the
//! model's `{"ok": bool, "reason": ...}` is read as the hook's output.
//!
//! [`ModelClient`]: crate::ModelClient

use std::time::Duration;

use hook_config::Handler;
use hook_protocol::{Event, SkipReason, interpret};
use serde_json::Value;

use super::{base_run, failed, millis, read_result, skipped, timed_out};
use crate::client::{ANSWER_FORMAT, ModelError, ModelRequest};
use crate::combine::Finished;
use crate::engine::Engine;
use crate::payload::Payload;

impl Engine {
    /// `prompt` and `agent`: asks the model client; `ok: false` blocks.
    pub(crate) async fn run_model_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
    ) -> Finished {
        let dialect = self.dialect();
        let mut entry = base_run(handler);
        let fails_open = dialect.rules().agent().model_hooks_fail_open();
        let Some(client) = &self.model else {
            if fails_open {
                let why = format!(
                    "no model client: {dialect} prompt hooks fail open, so this one allows"
                );
                return skipped(handler, SkipReason::NoClient, why);
            }
            let why = "no model client is configured for prompt and agent hooks";
            return skipped(handler, SkipReason::NoClient, why.to_owned());
        };
        let template = handler.config.prompt.as_deref().unwrap_or("");
        let arguments = String::from_utf8_lossy(value.bytes());
        let prompt = if template.contains("$ARGUMENTS") {
            template.replace("$ARGUMENTS", &arguments)
        } else {
            format!("{template}\n\n{arguments}")
        };
        let request = ModelRequest {
            kind: handler.config.handler_type,
            system: ANSWER_FORMAT.to_owned(),
            prompt,
            model: handler.config.model.clone(),
            timeout: handler.timeout,
        };
        let started = std::time::Instant::now();
        let reply = tokio::time::timeout(handler.timeout, client.complete(request)).await;
        entry.duration_ms = Some(millis(started.elapsed()));
        let verdict = match reply {
            Ok(Ok(text)) => parse_verdict(&text),
            Ok(Err(source)) => Err(PromptError::Request { source }),
            Err(_) => Err(PromptError::TimedOut {
                limit: handler.timeout,
            }),
        };
        let output = match verdict {
            Ok(None) => "{}".to_owned(),
            Ok(Some(reason)) => {
                serde_json::json!({"decision": "block", "reason": reason}).to_string()
            }
            Err(error) if fails_open => {
                entry.warnings.push(format!(
                    "{error}; {dialect} prompt hooks fail open, so this one allowed"
                ));
                "{}".to_owned()
            }
            Err(error @ PromptError::TimedOut { .. }) => {
                return timed_out(entry, handler.timeout, &error.to_string());
            }
            Err(error) => return failed(entry, error.to_string()),
        };
        let result = interpret(dialect, event, Some(0), output.as_bytes(), b"");
        read_result(dialect, &self.options, handler, entry, result)
    }
}

/// Why a `prompt` or `agent` handler got no verdict (its text is the run's `error`, or wuu's
/// warning).
#[derive(Debug, thiserror::Error)]
pub(crate) enum PromptError {
    /// The client failed.
    #[error("the model request failed: {source}")]
    Request {
        #[source]
        source: ModelError,
    },
    /// No answer within the handler's timeout.
    #[error("the model did not answer within {} s", limit.as_secs_f64())]
    TimedOut { limit: Duration },
    /// The answer is not the verdict object.
    #[error("the model's reply is not {{\"ok\": bool, \"reason\": ...}}: `{shown}`")]
    Unparsable {
        /// The start of the reply (200 characters).
        shown: String,
    },
}

/// A model's `{"ok": bool, "reason": "..."}`: `Ok(None)` lets the action go, `Ok(Some(reason))`
/// blocks it; `Err` when the reply is not that object. A reply wrapped in a Markdown code fence
/// or in a sentence is read from its first `{` to its last `}`.
fn parse_verdict(reply: &str) -> Result<Option<String>, PromptError> {
    let unparsable = || PromptError::Unparsable {
        shown: reply.trim().chars().take(200).collect(),
    };
    let start = reply.find('{').ok_or_else(unparsable)?;
    let end = reply.rfind('}').ok_or_else(unparsable)?;
    let object: Value = reply
        .get(start..=end)
        .and_then(|json| serde_json::from_str(json).ok())
        .ok_or_else(unparsable)?;
    let ok = object
        .get("ok")
        .and_then(Value::as_bool)
        .ok_or_else(unparsable)?;
    if ok {
        return Ok(None);
    }
    let reason = object
        .get("reason")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .unwrap_or("the model said no (it gave no reason)");
    Ok(Some(reason.to_owned()))
}
