//! The clients an embedding agent plugs into the engine: a [`ModelClient`] for `prompt` and
//! `agent` handlers and an [`McpClient`] for `mcp_tool` handlers, plus
//! [`OpenAiCompatibleClient`], the model client the `hook` command uses.
//!
//! Both traits return boxed futures so they stay object-safe (`Arc<dyn ModelClient>`) without a
//! macro crate; an implementation writes `Box::pin(async move { ... })`.

use std::time::Duration;

use hook_protocol::HandlerType;
use serde_json::{Value, json};

use crate::http::read_capped_body;

/// A boxed, sendable future: what the client traits return (`futures`' own alias).
pub use futures::future::BoxFuture;

/// One question for a model, from a `prompt` or `agent` handler.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    /// `Prompt` (one quick answer) or `Agent` (a verifier that may take several steps: how many
    /// is the client's business).
    pub kind: HandlerType,
    /// The system instruction: the answer format ([`ANSWER_FORMAT`]). A client should send it
    /// as the system message, or before the prompt.
    pub system: String,
    /// The handler's `prompt` with `$ARGUMENTS` replaced by the event JSON.
    pub prompt: String,
    /// The handler's `model`, when it names one; the client's default otherwise.
    pub model: Option<String>,
    /// The handler's timeout. The engine enforces it too (dropping the future); a client may
    /// pass it on to its transport.
    pub timeout: Duration,
}

/// Why a model could not answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ModelError {
    /// What went wrong, in one sentence.
    pub message: String,
}

impl ModelError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ModelError {
            message: message.into(),
        }
    }
}

/// Asks a model a question and returns its text answer.
///
/// The model must answer `{"ok": true}` or `{"ok": false, "reason": "..."}` (the request's
/// `system` instruction says so); `ok: false` blocks. What the client sends over the wire is its
/// own business.
pub trait ModelClient: Send + Sync {
    /// Sends `request` and returns the model's reply text.
    fn complete(&self, request: ModelRequest) -> BoxFuture<'_, Result<String, ModelError>>;
}

/// Why an MCP tool call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct McpError {
    /// What went wrong, in one sentence (unknown server, tool error, transport...).
    pub message: String,
}

impl McpError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        McpError {
            message: message.into(),
        }
    }
}

/// Calls a tool on an MCP server the agent has **already connected and approved**.
///
/// The engine never starts a server, logs in to one, asks for approvals or runs further hooks
/// through this call: that is the embedder's contract to keep.
pub trait McpClient: Send + Sync {
    /// Calls `tool` on `server` with `arguments` (the handler's `input`, expanded) and returns
    /// the tool's result JSON (an MCP `CallToolResult`, or any JSON the client chooses).
    fn call_tool<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, McpError>>;
}

/// A [`ModelClient`] for an OpenAI-compatible chat completions endpoint.
///
/// [`OpenAiCompatibleClient::from_env`] reads:
/// - `HOOK_MODEL_URL`: the API base (`http://127.0.0.1:8080/v1`); requests go to
///   `<base>/chat/completions` unless the URL already ends with `/chat/completions`;
/// - `HOOK_MODEL_API_KEY` (optional): sent as `Authorization: Bearer <key>`;
/// - `HOOK_MODEL` (optional): the model when the handler names none (else `default`).
///
/// Each request is one system message (the request's `system`) and one user message (the prompt), at
/// temperature 0; the reply is `choices[0].message.content`.
#[derive(Clone)]
pub struct OpenAiCompatibleClient {
    endpoint: String,
    api_key: Option<String>,
    default_model: String,
    /// The HTTP client, or why it could not be set up (reported by every request).
    http: Result<reqwest::Client, String>,
}

impl std::fmt::Debug for OpenAiCompatibleClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiCompatibleClient")
            .field("endpoint", &self.endpoint)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("default_model", &self.default_model)
            .finish_non_exhaustive()
    }
}

/// The system instruction of every [`ModelRequest`]: the answer format.
pub const ANSWER_FORMAT: &str = "You check an action of an AI coding agent for a hook. Answer with \
one JSON object and nothing else: {\"ok\": true} to let it go ahead, or {\"ok\": false, \
\"reason\": \"why\"} to block it.";

impl OpenAiCompatibleClient {
    /// A client for the API at `base_url` (see the type's docs for how the endpoint is formed).
    pub fn new(
        base_url: impl Into<String>,
        api_key: Option<String>,
        default_model: impl Into<String>,
    ) -> Self {
        let base = base_url.into();
        let trimmed = base.trim_end_matches('/');
        let endpoint = if trimmed.ends_with("/chat/completions") {
            trimmed.to_owned()
        } else {
            format!("{trimmed}/chat/completions")
        };
        OpenAiCompatibleClient {
            endpoint,
            api_key: api_key.filter(|k| !k.is_empty()),
            default_model: default_model.into(),
            http: crate::http::client(),
        }
    }

    /// The client named by `HOOK_MODEL_URL`, `HOOK_MODEL_API_KEY` and `HOOK_MODEL`; `None` when
    /// `HOOK_MODEL_URL` is unset or empty.
    pub fn from_env() -> Option<Self> {
        let url = std::env::var("HOOK_MODEL_URL")
            .ok()
            .filter(|u| !u.is_empty())?;
        let key = std::env::var("HOOK_MODEL_API_KEY").ok();
        let model = std::env::var("HOOK_MODEL")
            .ok()
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "default".to_owned());
        Some(Self::new(url, key, model))
    }

    /// The URL requests are POSTed to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    async fn ask(&self, request: ModelRequest) -> Result<String, ModelError> {
        let model = request.model.unwrap_or_else(|| self.default_model.clone());
        let body = json!({
            "model": model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.prompt},
            ],
        });
        let http = self.http.as_ref().map_err(|e| ModelError::new(e.clone()))?;
        let mut post = http
            .post(&self.endpoint)
            .timeout(request.timeout)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(key) = &self.api_key {
            post = post.bearer_auth(key);
        }
        let response = post
            .send()
            .await
            .map_err(|e| ModelError::new(format!("cannot reach {}: {e}", self.endpoint)))?;
        let status = response.status();
        let body = read_capped_body(response)
            .await
            .map_err(|e| ModelError::new(format!("reading the reply of {}: {e}", self.endpoint)))?;
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body);
            return Err(ModelError::new(format!(
                "{} answered HTTP {status}: {}",
                self.endpoint,
                text.trim()
            )));
        }
        let reply: Value = serde_json::from_slice(&body)
            .map_err(|e| ModelError::new(format!("{} did not answer JSON: {e}", self.endpoint)))?;
        reply
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| {
                ModelError::new(format!(
                    "{}'s reply has no choices[0].message.content",
                    self.endpoint
                ))
            })
    }
}

impl ModelClient for OpenAiCompatibleClient {
    fn complete(&self, request: ModelRequest) -> BoxFuture<'_, Result<String, ModelError>> {
        Box::pin(self.ask(request))
    }
}
