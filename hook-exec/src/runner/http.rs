//! verboo `http` handlers (feature `http`): the event JSON POSTed to the handler's URL (see
//! [`crate::http`] for the request itself); a 2xx body is read like a command's stdout.

use hook_config::Handler;
use hook_protocol::{Event, interpret};

use super::{base_run, failed, millis, read_result, timed_out_with};
use crate::combine::Finished;
use crate::engine::Engine;
use crate::http::{HttpCall, HttpError, interpolate_headers};
use crate::payload::Payload;

impl Engine {
    /// The HTTP client, set up on first use.
    pub(crate) fn http_client(&self) -> Result<&reqwest::Client, &HttpError> {
        self.http.get_or_init(crate::http::client).as_ref()
    }

    /// verboo `http`: POSTs the event JSON; a 2xx body is read like a command's stdout.
    pub(crate) async fn run_http_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
    ) -> Finished {
        let mut entry = base_run(handler);
        let Some(url) = handler.config.url.as_deref() else {
            return failed(entry, "the http handler has no `url`".to_owned());
        };
        let client = match self.http_client() {
            Ok(client) => client,
            Err(error) => return failed(entry, error.to_string()),
        };
        let allowed = handler.config.allowed_env_vars.as_deref().unwrap_or(&[]);
        let headers = interpolate_headers(
            handler.config.headers.as_ref(),
            allowed,
            |name| std::env::var(name).ok(),
            &mut entry.warnings,
        );
        let call = HttpCall {
            url,
            headers,
            // reqwest takes the body by value: one copy of the shared bytes.
            body: value.bytes().to_vec(),
            timeout: handler.timeout,
        };
        let (end, took) = crate::http::post(client, call).await;
        entry.duration_ms = Some(millis(took));
        match end {
            Ok(body) => {
                let result = interpret(self.dialect(), event, Some(0), &body, b"");
                read_result(self.dialect(), &self.options, handler, entry, result)
            }
            // The error's text is the run's: "timed out after ..." included.
            Err(error @ HttpError::TimedOut { .. }) => timed_out_with(entry, error.to_string()),
            Err(error) => failed(entry, error.to_string()),
        }
    }
}
