//! The clients an embedding agent plugs into the engine: a [`ModelClient`] for `prompt` and
//! `agent` handlers and an [`McpClient`] for `mcp_tool` handlers, plus
//! [`OpenAiCompatibleClient`], the model client the `hook` command uses.
//!
//! Both traits return boxed futures so they stay object-safe (`Arc<dyn ModelClient>`) without a
//! macro crate; an implementation writes `Box::pin(async move { ... })`.

use std::time::Duration;

use hook_protocol::HandlerType;
use serde_json::Value;
#[cfg(feature = "http")]
use serde_json::json;

#[cfg(feature = "http")]
use crate::http::read_capped_body;

/// A boxed, sendable future: what the client traits return (`futures`' own alias).
pub use futures::future::BoxFuture;

/// One question for a model, from a `prompt` or `agent` handler.
///
/// `#[non_exhaustive]`: the engine builds it; a client reads it, and a field may be added.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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

impl ModelRequest {
    /// A `kind` question (`Prompt` or `Agent`) asking `prompt` within `timeout`, with the
    /// answer format as its system instruction and the client's default model.
    pub fn new(kind: HandlerType, prompt: impl Into<String>, timeout: Duration) -> Self {
        ModelRequest {
            kind,
            system: ANSWER_FORMAT.to_owned(),
            prompt: prompt.into(),
            model: None,
            timeout,
        }
    }

    /// The same request for the model `model`.
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }
}

/// A cause an embedder's client attaches to its error.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a model could not answer: what a [`ModelClient`] returns.
///
/// A client of the embedder's builds one with [`ModelError::new`] (or
/// [`ModelError::with_source`] to chain the cause); [`OpenAiCompatibleClient`] tells an HTTP
/// failure ([`ModelError::Http`]: no connection, a status, a timeout) from a reply it cannot read
/// ([`ModelError::NotJson`], [`ModelError::NoContent`]). `Display` is the whole sentence, the cause's text included (the
/// engine puts it in the run's `error`); `source()` gives the cause.
///
/// [`OpenAiCompatibleClient`]: crate::OpenAiCompatibleClient
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The HTTP exchange with the endpoint failed (feature `http`).
    #[cfg(feature = "http")]
    #[error("{}", model_http_text(endpoint, source))]
    Http {
        /// The URL the request went to.
        endpoint: String,
        /// What failed: [`HttpError::Transport`](crate::HttpError::Transport) (refused,
        /// unreachable, reqwest's own timeout), [`HttpError::Status`](crate::HttpError::Status),
        /// a body too large...
        #[source]
        source: crate::HttpError,
    },
    /// The endpoint answered 2xx with a body that is not JSON.
    #[error("{endpoint} did not answer JSON: {source}")]
    NotJson {
        /// The URL the request went to.
        endpoint: String,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// The endpoint answered JSON without the answer's text (`choices[0].message.content`).
    #[error("{endpoint}'s reply has no choices[0].message.content")]
    NoContent {
        /// The URL the request went to.
        endpoint: String,
    },
    /// Any other failure, as a client of the embedder's reports it.
    #[error("{message}")]
    Client {
        /// What went wrong, in one sentence.
        message: String,
        /// The cause, when the client gave one.
        #[source]
        source: Option<BoxError>,
    },
}

impl ModelError {
    /// A [`ModelError::Client`] with this message and no cause.
    pub fn new(message: impl Into<String>) -> Self {
        ModelError::Client {
            message: message.into(),
            source: None,
        }
    }

    /// A [`ModelError::Client`] with this message and its cause (kept as the error's
    /// `source()`; the message should say what the cause means for the request).
    pub fn with_source(message: impl Into<String>, source: impl Into<BoxError>) -> Self {
        ModelError::Client {
            message: message.into(),
            source: Some(source.into()),
        }
    }
}

/// How an HTTP failure of the model client reads.
#[cfg(feature = "http")]
fn model_http_text(endpoint: &str, error: &crate::HttpError) -> String {
    use crate::HttpError;
    match error {
        HttpError::Transport { source, .. } => format!("cannot reach {endpoint}: {source}"),
        HttpError::Body { .. } | HttpError::TooLarge { .. } => {
            format!("reading the reply of {endpoint}: {error}")
        }
        other => other.to_string(),
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

/// Why an MCP tool call failed: what an [`McpClient`] returns.
///
/// The variant says whose failure it was: the server (unknown, not connected, gone), the tool
/// (unknown, refused the arguments, failed), or the protocol (a malformed message, a transport
/// error). Build one with [`McpError::server`], [`McpError::tool`] or [`McpError::protocol`]
/// ([`McpError::new`] when the client cannot tell), and chain a cause with
/// [`McpError::with_source`]. `Display` is the message (the engine puts it in the run's
/// `error` after "the MCP tool call failed: ").
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The server: unknown, not connected or not approved, gone.
    #[error("{message}")]
    Server {
        /// The server the handler names.
        server: String,
        /// What went wrong, in one sentence.
        message: String,
        /// The cause, when the client gave one.
        #[source]
        source: Option<BoxError>,
    },
    /// The tool: unknown, refused the arguments, failed.
    #[error("{message}")]
    Tool {
        /// The server the handler names.
        server: String,
        /// The tool the handler names.
        tool: String,
        /// What went wrong, in one sentence.
        message: String,
        /// The cause, when the client gave one.
        #[source]
        source: Option<BoxError>,
    },
    /// The protocol: a malformed message or a broken transport.
    #[error("{message}")]
    Protocol {
        /// What went wrong, in one sentence.
        message: String,
        /// The cause, when the client gave one.
        #[source]
        source: Option<BoxError>,
    },
    /// A failure the client does not classify.
    #[error("{message}")]
    Other {
        /// What went wrong, in one sentence.
        message: String,
        /// The cause, when the client gave one.
        #[source]
        source: Option<BoxError>,
    },
}

impl McpError {
    /// An [`McpError::Other`] with this message: a failure the client does not classify.
    pub fn new(message: impl Into<String>) -> Self {
        McpError::Other {
            message: message.into(),
            source: None,
        }
    }

    /// An [`McpError::Server`]: `server` is unknown, not connected, not approved or gone.
    pub fn server(server: impl Into<String>, message: impl Into<String>) -> Self {
        McpError::Server {
            server: server.into(),
            message: message.into(),
            source: None,
        }
    }

    /// An [`McpError::Tool`]: `tool` of `server` is unknown, refused the arguments or failed.
    pub fn tool(
        server: impl Into<String>,
        tool: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        McpError::Tool {
            server: server.into(),
            tool: tool.into(),
            message: message.into(),
            source: None,
        }
    }

    /// An [`McpError::Protocol`]: a malformed message or a broken transport.
    pub fn protocol(message: impl Into<String>) -> Self {
        McpError::Protocol {
            message: message.into(),
            source: None,
        }
    }

    /// This error with `cause` as its `source()`.
    #[must_use]
    pub fn with_source(mut self, cause: impl Into<BoxError>) -> Self {
        let slot = match &mut self {
            McpError::Server { source, .. }
            | McpError::Tool { source, .. }
            | McpError::Protocol { source, .. }
            | McpError::Other { source, .. } => source,
        };
        *slot = Some(cause.into());
        self
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

/// A [`ModelClient`] for an OpenAI-compatible chat completions endpoint (feature `http`).
///
/// [`OpenAiCompatibleClient::from_env`] reads:
/// - `HOOK_MODEL_URL`: the API base (`http://127.0.0.1:8080/v1`); requests go to
///   `<base>/chat/completions` unless the URL already ends with `/chat/completions`;
/// - `HOOK_MODEL_API_KEY` (optional): sent as `Authorization: Bearer <key>`;
/// - `HOOK_MODEL` (optional): the model when the handler names none (else `default`).
///
/// Each request is one system message (the request's `system`) and one user message (the prompt), at
/// temperature 0; the reply is `choices[0].message.content`.
#[cfg(feature = "http")]
#[derive(Clone)]
pub struct OpenAiCompatibleClient {
    endpoint: String,
    api_key: Option<String>,
    default_model: String,
    /// The HTTP client, or why it could not be set up (reported by every request).
    http: std::sync::Arc<Result<reqwest::Client, crate::HttpError>>,
}

#[cfg(feature = "http")]
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

#[cfg(feature = "http")]
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
            http: std::sync::Arc::new(crate::http::client()),
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
        let endpoint = &self.endpoint;
        let http_error = |source| ModelError::Http {
            endpoint: endpoint.clone(),
            source,
        };
        let http = match self.http.as_ref() {
            Ok(http) => http,
            // The setup failed once; every request reports it again.
            Err(error) => return Err(ModelError::new(error.to_string())),
        };
        let mut post = http
            .post(endpoint)
            .timeout(request.timeout)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(key) = &self.api_key {
            post = post.bearer_auth(key);
        }
        let response = post.send().await.map_err(|source| {
            http_error(crate::HttpError::Transport {
                url: endpoint.clone(),
                source: crate::http::TransportError::new(source),
            })
        })?;
        let status = response.status();
        let body = read_capped_body(endpoint, response)
            .await
            .map_err(http_error)?;
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body);
            return Err(http_error(crate::HttpError::Status {
                url: endpoint.clone(),
                status: status.as_u16(),
                body: text.trim().chars().take(200).collect(),
            }));
        }
        let reply: Value = serde_json::from_slice(&body).map_err(|source| ModelError::NotJson {
            endpoint: endpoint.clone(),
            source,
        })?;
        reply
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| ModelError::NoContent {
                endpoint: endpoint.clone(),
            })
    }
}

#[cfg(feature = "http")]
impl ModelClient for OpenAiCompatibleClient {
    fn complete(&self, request: ModelRequest) -> BoxFuture<'_, Result<String, ModelError>> {
        Box::pin(self.ask(request))
    }
}
