//! verboo `http` handlers: the event JSON POSTed to a URL, the reply read like a command's stdout.
//!
//! - The request is `POST <url>` with `Content-Type: application/json` and the event JSON as the
//!   body, plus the handler's `headers`. Redirects are not followed (a 3xx is "any other status").
//! - A header value may name environment variables as `$VAR` or `${VAR}`; only those listed in
//!   `allowedEnvVars` are expanded, every other one becomes the empty string and the run gets a
//!   warning saying so (a hook config never reads the agent's secrets by accident).
//! - A 2xx reply's body is read like the stdout of a command that exited 0; any other status, a
//!   connection error or a body over [`OUTPUT_CAP`](crate::command::OUTPUT_CAP) is a non-blocking
//!   error (the run fails and decides nothing); running out of time is `timed_out`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::command::OUTPUT_CAP;

/// The HTTP client of the engine and of [`OpenAiCompatibleClient`](crate::OpenAiCompatibleClient).
pub(crate) fn client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("cannot set up the HTTP client: {e}"))
}

/// Reads a response body, failing past [`OUTPUT_CAP`].
pub(crate) async fn read_capped_body(mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        if body.len() + chunk.len() > OUTPUT_CAP {
            return Err(format!(
                "the reply body went over {OUTPUT_CAP} bytes; nothing in it is used"
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// How an HTTP hook's request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HttpEnd {
    /// A 2xx reply and its whole body.
    Success(Vec<u8>),
    /// Anything that makes no decision: another status, a connection error, a body too large.
    Failed(String),
    /// No complete reply within the timeout.
    TimedOut,
}

/// One request of an HTTP hook.
#[derive(Debug)]
pub(crate) struct HttpCall<'a> {
    pub(crate) url: &'a str,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) timeout: Duration,
}

/// POSTs the call and reads the reply; returns how it ended and how long it took.
pub(crate) async fn post(client: &reqwest::Client, call: HttpCall<'_>) -> (HttpEnd, Duration) {
    let started = Instant::now();
    let exchange = async {
        let mut request = client
            .post(call.url)
            .header("content-type", "application/json")
            .body(call.body);
        for (name, value) in &call.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let response = request.send().await.map_err(|e| describe(&e, call.url))?;
        let status = response.status();
        let body = read_capped_body(response).await?;
        if status.is_success() {
            Ok(body)
        } else {
            let text = String::from_utf8_lossy(&body);
            let text = text.trim();
            let shown: String = text.chars().take(200).collect();
            Err(if shown.is_empty() {
                format!("{} answered HTTP {status}", call.url)
            } else {
                format!("{} answered HTTP {status}: {shown}", call.url)
            })
        }
    };
    let end = match tokio::time::timeout(call.timeout, exchange).await {
        Ok(Ok(body)) => HttpEnd::Success(body),
        Ok(Err(error)) => HttpEnd::Failed(error),
        Err(_) => HttpEnd::TimedOut,
    };
    (end, started.elapsed())
}

fn describe(error: &reqwest::Error, url: &str) -> String {
    if error.is_builder() {
        format!("invalid request to {url}: {error}")
    } else if error.is_connect() {
        format!("cannot connect to {url}: {error}")
    } else {
        format!("request to {url} failed: {error}")
    }
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
