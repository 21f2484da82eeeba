//! verboo `http` handlers: the event JSON POSTed to a URL, the reply read like a command's stdout.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::command::OUTPUT_CAP;

/// Why an HTTP request of the engine (an `http` hook, or [`OpenAiCompatibleClient`]) got no
/// usable reply.
///
/// `Display` is the whole sentence the engine puts in the run's `error`, the cause's text
/// included; [`std::error::Error::source`] gives the client's error where there is one, a
/// [`TransportError`] (`is_connect()`, `is_timeout()`...).
///
/// [`OpenAiCompatibleClient`]: crate::OpenAiCompatibleClient
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The HTTP client could not be set up (e.g. no usable root certificates).
    #[error("cannot set up the HTTP client: {source}")]
    Setup {
        /// The HTTP client's error.
        #[source]
        source: TransportError,
    },
    /// No reply: the request could not be built (a bad URL or header), the connection was
    /// refused or failed (DNS, TLS), or it broke before the reply's head arrived. The text says
    /// which; so does the source (`is_builder()`, `is_connect()`).
    #[error("{}", transport_text(url, source))]
    Transport {
        /// The URL requested.
        url: String,
        /// The HTTP client's error.
        #[source]
        source: TransportError,
    },
    /// The reply's body could not be read to its end (the connection broke).
    #[error("{source}")]
    Body {
        /// The URL requested.
        url: String,
        /// The HTTP client's error.
        #[source]
        source: TransportError,
    },
    /// A reply whose status is not 2xx (redirects are not followed): it decides nothing.
    #[error("{url} answered HTTP {}{}", status_text(*status), body_text(body))]
    Status {
        /// The URL requested.
        url: String,
        /// The status code.
        status: u16,
        /// The start of the reply's body (at most 200 characters, trimmed), for the message.
        body: String,
    },
    /// The reply's body is larger than the cap; nothing in it is used.
    #[error("the reply body went over {cap} bytes; nothing in it is used")]
    TooLarge {
        /// The URL requested.
        url: String,
        /// The cap ([`OUTPUT_CAP`]).
        cap: usize,
    },
    /// No whole reply within the limit; the request was dropped.
    #[error("timed out after {} s; the request was dropped", limit.as_secs_f64())]
    TimedOut {
        /// The URL requested.
        url: String,
        /// The handler's timeout.
        limit: Duration,
    },
}

impl HttpError {
    /// The status code, for [`HttpError::Status`].
    pub fn status(&self) -> Option<u16> {
        match self {
            HttpError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// The HTTP client's error (reqwest's), kept behind this crate's own type so the client can be
/// upgraded without changing [`HttpError`]: what it says, and what kind of failure it was.
///
/// `Display` is the client's message; [`std::error::Error::source`] is the client's own cause
/// (an io or TLS error...), when it has one.
#[derive(Debug)]
pub struct TransportError(reqwest::Error);

impl TransportError {
    /// The request could not be built (a bad URL or header).
    pub fn is_builder(&self) -> bool {
        self.0.is_builder()
    }

    /// The connection could not be made (refused, DNS, TLS).
    pub fn is_connect(&self) -> bool {
        self.0.is_connect()
    }

    /// The client's own time limit ran out.
    pub fn is_timeout(&self) -> bool {
        self.0.is_timeout()
    }

    /// Reading or writing a body failed.
    pub fn is_body(&self) -> bool {
        self.0.is_body()
    }
}

impl TransportError {
    pub(crate) fn new(error: reqwest::Error) -> TransportError {
        TransportError(error)
    }
}

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for TransportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

fn transport_text(url: &str, error: &TransportError) -> String {
    if error.is_builder() {
        format!("invalid request to {url}: {error}")
    } else if error.is_connect() {
        format!("cannot connect to {url}: {error}")
    } else {
        format!("request to {url} failed: {error}")
    }
}

/// `404 Not Found`, as `reqwest::StatusCode` shows it.
fn status_text(code: u16) -> String {
    reqwest::StatusCode::from_u16(code).map_or_else(|_| code.to_string(), |s| s.to_string())
}

fn body_text(body: &str) -> String {
    if body.is_empty() {
        String::new()
    } else {
        format!(": {body}")
    }
}

/// The HTTP client of the engine and of [`OpenAiCompatibleClient`](crate::OpenAiCompatibleClient).
pub(crate) fn client() -> Result<reqwest::Client, HttpError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|source| HttpError::Setup {
            source: TransportError::new(source),
        })
}

/// Reads a response body, failing past [`OUTPUT_CAP`].
pub(crate) async fn read_capped_body(
    url: &str,
    mut response: reqwest::Response,
) -> Result<Vec<u8>, HttpError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|source| HttpError::Body {
        url: url.to_owned(),
        source: TransportError::new(source),
    })? {
        if body.len() + chunk.len() > OUTPUT_CAP {
            return Err(HttpError::TooLarge {
                url: url.to_owned(),
                cap: OUTPUT_CAP,
            });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// One request of an HTTP hook.
#[derive(Debug)]
pub(crate) struct HttpCall<'a> {
    pub(crate) url: &'a str,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) timeout: Duration,
}

/// POSTs `body` (the event JSON) to `url` with `headers` as one verboo `http` hook does
/// (redirects not followed, the reply's body capped at [`OUTPUT_CAP`], the whole exchange
/// under `timeout`) and returns a 2xx reply's body: what the engine reads as the hook's stdout.
///
/// Each call sets up its own HTTP client; the engine keeps one for its life.
///
/// # Errors
///
/// An [`HttpError`]: [`HttpError::Transport`] when there is no reply (refused, unreachable, a
/// bad URL), [`HttpError::Status`] for a reply that is not 2xx, [`HttpError::TooLarge`],
/// [`HttpError::Body`], or [`HttpError::TimedOut`] past `timeout`.
///
/// # What is sent, what is read
///
/// - The request is `POST <url>` with `Content-Type: application/json` and the event JSON as the
///   body, plus the handler's `headers`. Redirects are not followed (a 3xx is "any other status").
/// - A header value may name environment variables as `$VAR` or `${VAR}`; only those listed in
///   `allowedEnvVars` are expanded, every other one becomes the empty string and the run gets a
///   warning saying so (a hook config never reads the agent's secrets by accident).
/// - A 2xx reply's body is read like the stdout of a command that exited 0; any other status, a
///   connection error or a body over [`OUTPUT_CAP`] is a non-blocking
///   error (the run fails and decides nothing); running out of time is `timed_out`. Each is an
///   [`HttpError`] variant.
pub async fn post_hook(
    url: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
    timeout: Duration,
) -> Result<Vec<u8>, HttpError> {
    let client = client()?;
    let call = HttpCall {
        url,
        headers: headers.to_vec(),
        body,
        timeout,
    };
    post(&client, call).await.0
}

/// POSTs the call and reads the reply: a 2xx reply's whole body, or why there is none; and how
/// long it took.
pub(crate) async fn post(
    client: &reqwest::Client,
    call: HttpCall<'_>,
) -> (Result<Vec<u8>, HttpError>, Duration) {
    let started = Instant::now();
    let url = call.url;
    let exchange = async {
        let mut request = client
            .post(url)
            .header("content-type", "application/json")
            .body(call.body);
        for (name, value) in &call.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let response = request
            .send()
            .await
            .map_err(|source| HttpError::Transport {
                url: url.to_owned(),
                source: TransportError::new(source),
            })?;
        let status = response.status();
        let body = read_capped_body(url, response).await?;
        if status.is_success() {
            Ok(body)
        } else {
            let text = String::from_utf8_lossy(&body);
            Err(HttpError::Status {
                url: url.to_owned(),
                status: status.as_u16(),
                body: text.trim().chars().take(200).collect(),
            })
        }
    };
    let end = match tokio::time::timeout(call.timeout, exchange).await {
        Ok(end) => end,
        Err(_) => Err(HttpError::TimedOut {
            url: url.to_owned(),
            limit: call.timeout,
        }),
    };
    (end, started.elapsed())
}

/// The handler's headers with `$VAR`/`${VAR}` expanded for the names in `allowed` only, looked
/// up with `lookup`; a warning for every variable left empty.
pub(crate) fn interpolate_headers(
    headers: Option<&BTreeMap<String, String>>,
    allowed: &[String],
    lookup: impl Fn(&str) -> Option<String>,
    warnings: &mut Vec<String>,
) -> Vec<(String, String)> {
    let Some(headers) = headers else {
        return Vec::new();
    };
    headers
        .iter()
        .map(|(name, value)| {
            let expanded = interpolate(value, |var| {
                if !allowed.iter().any(|a| a == var) {
                    warnings.push(format!(
                        "header `{name}`: ${var} is not in allowedEnvVars, so it was left empty"
                    ));
                    return String::new();
                }
                lookup(var).unwrap_or_else(|| {
                    warnings.push(format!(
                        "header `{name}`: ${var} is not set, so it was left empty"
                    ));
                    String::new()
                })
            });
            (name.clone(), expanded)
        })
        .collect()
}

/// Replaces `$NAME` and `${NAME}` (`NAME` = letters, digits, `_`, not starting with a digit)
/// with `value(NAME)`; any other `$` is kept as written.
fn interpolate(text: &str, mut value: impl FnMut(&str) -> String) -> String {
    let is_start = |c: char| c.is_ascii_alphabetic() || c == '_';
    let is_part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(braced) = after.strip_prefix('{')
            && let Some(end) = braced.find('}')
            && braced[..end].starts_with(is_start)
            && braced[..end].chars().all(is_part)
        {
            out.push_str(&value(&braced[..end]));
            rest = &braced[end + 1..];
        } else if after.starts_with(is_start) {
            let end = after.find(|c: char| !is_part(c)).unwrap_or(after.len());
            out.push_str(&value(&after[..end]));
            rest = &after[end..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allowed_variables_are_expanded_and_the_rest_say_so() {
        let headers = BTreeMap::from([
            ("Authorization".to_owned(), "Bearer ${TOKEN}".to_owned()),
            (
                "X-Mixed".to_owned(),
                "$USER-$SECRET-${MISSING}-$-$1".to_owned(),
            ),
        ]);
        let allowed = ["TOKEN".to_owned(), "USER".to_owned(), "MISSING".to_owned()];
        let lookup = |name: &str| match name {
            "TOKEN" => Some("t0k".to_owned()),
            "USER" => Some("ann".to_owned()),
            "SECRET" => Some("leaked".to_owned()),
            _ => None,
        };
        let mut warnings = Vec::new();
        let out = interpolate_headers(Some(&headers), &allowed, lookup, &mut warnings);
        assert_eq!(
            out,
            [
                ("Authorization".to_owned(), "Bearer t0k".to_owned()),
                ("X-Mixed".to_owned(), "ann---$-$1".to_owned()),
            ]
        );
        assert_eq!(
            warnings,
            [
                "header `X-Mixed`: $SECRET is not in allowedEnvVars, so it was left empty",
                "header `X-Mixed`: $MISSING is not set, so it was left empty",
            ]
        );
    }
}
