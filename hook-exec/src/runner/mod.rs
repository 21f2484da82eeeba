//! The runners: one file per handler type, each turning one handler into its part of the
//! outcome (a [`Finished`]), and the helpers they share to build `runs` entries.

mod command;
#[cfg(feature = "http")]
mod http;
mod mcp;
mod model;
mod native;

use std::time::Duration;

use hook_config::Handler;
use hook_protocol::{Dialect, HandlerResult, Response, Run, RunStatus, SkipReason};

use crate::combine::Finished;
use crate::context::limit_context;
use crate::engine::EngineOptions;

pub(crate) use command::run_command_handler;

pub(crate) fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

pub(crate) fn base_run(handler: &Handler) -> Run {
    Run::new(
        handler.key.clone(),
        handler.source.clone(),
        handler.config.handler_type,
    )
}

pub(crate) fn skipped(handler: &Handler, reason: SkipReason, why: String) -> Finished {
    let mut run = base_run(handler);
    run.status = RunStatus::Skipped;
    run.skip_reason = Some(reason);
    run.error = Some(why);
    Finished {
        run,
        response: None,
    }
}

/// Turns an interpreted result into the handler's part of the outcome.
pub(crate) fn read_result(
    dialect: Dialect,
    options: &EngineOptions,
    handler: &Handler,
    mut entry: Run,
    result: HandlerResult,
) -> Finished {
    entry.status = result.status();
    entry.error = result.error();
    let response = match result {
        HandlerResult::Response(mut response) => {
            apply_context_limit(dialect, options, handler, &mut response);
            entry.warnings.append(&mut response.warnings);
            Some(response)
        }
        HandlerResult::NonBlockingError { .. } | HandlerResult::Failed(_) => None,
    };
    Finished {
        run: entry,
        response,
    }
}

/// lime: context over the handler's `additionalContextLimit` becomes a preview and a side file.
pub(crate) fn apply_context_limit(
    dialect: Dialect,
    options: &EngineOptions,
    handler: &Handler,
    response: &mut Response,
) {
    let Some(default) = dialect.rules().output().context_limit() else {
        return;
    };
    let limit = handler.config.additional_context_limit.unwrap_or(default);
    if let Some(context) = response.additional_context.take() {
        match limit_context(
            &context,
            limit,
            options.side_file_dir.as_deref(),
            &handler.key,
        ) {
            Ok(text) => response.additional_context = Some(text),
            Err(error) => {
                response.warnings.push(format!(
                    "additionalContext is over its limit of {limit} characters but {error}; the whole text is kept"
                ));
                response.additional_context = Some(context);
            }
        }
    }
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

pub(crate) fn failed(mut run: Run, error: String) -> Finished {
    run.status = RunStatus::Failed;
    run.error = Some(error);
    Finished {
        run,
        response: None,
    }
}

pub(crate) fn timed_out(run: Run, timeout: Duration, what: &str) -> Finished {
    timed_out_with(run, format!("timed out after {}; {what}", seconds(timeout)))
}

/// A `timed_out` entry whose error is `error` (a typed error's text).
pub(crate) fn timed_out_with(mut run: Run, error: String) -> Finished {
    run.status = RunStatus::TimedOut;
    run.error = Some(error);
    Finished {
        run,
        response: None,
    }
}

/// Built without the `http` feature: an http handler is skipped, and says why.
#[cfg(not(feature = "http"))]
impl crate::engine::Engine {
    pub(crate) async fn run_http_handler(
        &self,
        _event: &hook_protocol::Event,
        handler: &Handler,
        _value: &crate::payload::Payload,
    ) -> Finished {
        skipped(handler, SkipReason::Unsupported, NO_HTTP.to_owned())
    }
}

/// Why an http handler does not run in an engine built without the `http` feature.
#[cfg(not(feature = "http"))]
pub(crate) const NO_HTTP: &str = "this engine was built without the `http` feature of hook-exec, so http handlers do not run; enable it (it is on by default) to run them";
