//! Running a handler: from input bytes to the exact bytes and exit code a hook emits.

use std::io::{Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use hook_protocol::{Dialect, Event as EventName};
use serde_json::Value;

use crate::render::render;
use crate::{Event, Handler, Response};

/// The default cap on the input a hook accepts: 1 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 1024 * 1024;

/// How a hook reads its input and reports its failures.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The dialect, when known; otherwise `--dialect`, then `HOOK_DIALECT`, then inference
    /// from the input (see [`infer_dialect`]).
    pub dialect: Option<Dialect>,
    /// Inputs longer than this are refused with a message. Default 1 MiB.
    pub max_input_bytes: usize,
    /// When the hook fails (an error, a panic, an input it cannot read, a response the dialect
    /// cannot express), block instead of reporting a failure: exit 2 with the message on
    /// stderr. Default `false` (fail open: a failure the dialect reports, the action goes on).
    pub fail_closed: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dialect: None,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            fail_closed: false,
        }
    }
}

impl Options {
    /// Fail closed: a hook that fails blocks (exit 2, the message on stderr).
    pub fn fail_closed(mut self) -> Options {
        self.fail_closed = true;
        self
    }

    /// Uses this dialect, whatever the environment and the input say.
    pub fn with_dialect(mut self, dialect: Dialect) -> Options {
        self.dialect = Some(dialect);
        self
    }

    /// Refuses inputs longer than `bytes`.
    pub fn with_max_input_bytes(mut self, bytes: usize) -> Options {
        self.max_input_bytes = bytes;
        self
    }
}

/// What a hook process emits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Emitted {
    /// The bytes written to stdout.
    pub stdout: Vec<u8>,
    /// The bytes written to stderr.
    pub stderr: Vec<u8>,
    /// The exit code.
    pub exit_code: i32,
}

/// The result of running a handler on one input, in memory.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Processed {
    /// The dialect used, when it could be learned.
    pub dialect: Option<Dialect>,
    /// The event read, when the input could be read.
    pub event: Option<Event>,
    /// The handler's response, when it gave one.
    pub response: Option<Response>,
    /// The error, when the run failed (bad input, handler error or panic, inexpressible
    /// response).
    pub error: Option<String>,
    /// What the hook writes and its exit code.
    pub emitted: Emitted,
}

/// Guesses the dialect of an input from its fields, when neither `--dialect` nor
/// `HOOK_DIALECT` says.
///
/// 1. An event only one dialect knows decides (`Interrupt`: lime; `Setup`, `Notification`...:
///    verboo).
/// 2. lime: `turn_id`, a `null` `transcript_path`, or `model` on an event other than
///    `SessionStart` (lime sends `model` on every event, verboo only on `SessionStart`, wuu
///    never).
/// 3. No `transcript_path` (wuu inputs never carry one): lime if `model` is there, else wuu.
/// 4. Otherwise verboo. An ambiguous `SessionStart` (verboo's carries `model` too) is read as
///    verboo: set `HOOK_DIALECT` or `--dialect` to be sure.
pub fn infer_dialect(input: &Value) -> Option<Dialect> {
    let object = input.as_object()?;
    let name = object.get("hook_event_name")?.as_str()?;
    let event = EventName::from_name(name);
    let knowing: Vec<Dialect> = event.dialects();
    if let [only] = knowing.as_slice() {
        return Some(*only);
    }
    let has_model = object.contains_key("model");
    let lime = object.contains_key("turn_id")
        || object.get("transcript_path").is_some_and(Value::is_null)
        || (has_model && event != EventName::SessionStart);
    if !lime && !object.contains_key("transcript_path") {
        return Some(if has_model {
            Dialect::Lime
        } else {
            Dialect::Wuu
        });
    }
    Some(if lime { Dialect::Lime } else { Dialect::Verboo })
}

/// Runs `handler` on `bytes` in memory: the event is read, the handler called (a panic is
/// caught), and its response written the dialect's way. Never panics.
pub fn process<H: Handler + ?Sized>(handler: &H, bytes: &[u8], options: &Options) -> Processed {
    let mut processed = Processed {
        dialect: options.dialect,
        event: None,
        response: None,
        error: None,
        emitted: Emitted::default(),
    };
    let result = process_inner(handler, bytes, options, &mut processed);
    match result {
        Ok(stdout) => {
            processed.emitted = Emitted {
                stdout,
                stderr: Vec::new(),
                exit_code: 0,
            };
        }
        Err(message) => {
            processed.emitted = Emitted {
                stdout: Vec::new(),
                stderr: format!("{message}\n").into_bytes(),
                exit_code: if options.fail_closed { 2 } else { 1 },
            };
            processed.error = Some(message);
        }
    }
    processed
}

fn process_inner<H: Handler + ?Sized>(
    handler: &H,
    bytes: &[u8],
    options: &Options,
    processed: &mut Processed,
) -> Result<Vec<u8>, String> {
    if bytes.len() > options.max_input_bytes {
        return Err(format!(
            "hook input refused: it is over the limit of {} bytes (raise Options::max_input_bytes to accept more)",
            options.max_input_bytes
        ));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|error| {
        format!(
            "hook input is not valid JSON at line {}, column {}: {}",
            error.line(),
            error.column(),
            crate::event::without_position(&error)
        )
    })?;
    let dialect = match options.dialect {
        Some(dialect) => dialect,
        None => infer_dialect(&value).ok_or_else(|| {
            "hook input has no `hook_event_name`, so its dialect cannot be inferred: set HOOK_DIALECT or pass --dialect".to_owned()
        })?,
    };
    processed.dialect = Some(dialect);
    let event = Event::from_value(dialect, value)
        .map_err(|error| format!("hook input cannot be read as {dialect}: {error}"))?;
    let name = event.name();
    let answer = catch_unwind(AssertUnwindSafe(|| handler.handle(&event)));
    processed.event = Some(event);
    let response = match answer {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => return Err(format!("hook error: {error}")),
        Err(payload) => return Err(format!("hook panicked: {}", panic_message(&*payload))),
    };
    let rendered = render(dialect, &name, &response);
    processed.response = Some(response);
    let object = rendered.map_err(|error| format!("hook error: {error}"))?;
    let mut stdout = serde_json::to_vec(&Value::Object(object))
        .map_err(|error| format!("hook error: the output does not serialize: {error}"))?;
    stdout.push(b'\n');
    Ok(stdout)
}

/// The message of a panic payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a non-text payload".to_owned()
    }
}

/// Runs `handler` as a hook process: reads stdin, writes the dialect's output, and exits with
/// the dialect's code. Use it as the whole of `main`:
///
/// ```no_run
/// fn handle(_event: &hook_sdk::Event) -> hook_sdk::Response {
///     hook_sdk::Response::none()
/// }
/// fn main() {
///     hook_sdk::run(handle)
/// }
/// ```
///
/// The dialect comes from `--dialect D` on the command line, else `HOOK_DIALECT` (set by the
/// engine), else the input ([`infer_dialect`]).
pub fn run<H: Handler>(handler: H) -> ! {
    run_with(handler, Options::default())
}

/// [`run`] with options: fail closed, a dialect, another input size cap.
pub fn run_with<H: Handler>(handler: H, mut options: Options) -> ! {
    // The SDK reports panics itself, on stderr, in the dialect's way.
    std::panic::set_hook(Box::new(|_| {}));
    let emitted = match environment_dialect(&options) {
        Ok(dialect) => {
            options.dialect = dialect;
            let mut bytes = Vec::new();
            let limit = u64::try_from(options.max_input_bytes)
                .unwrap_or(u64::MAX)
                .saturating_add(1);
            match std::io::stdin().lock().take(limit).read_to_end(&mut bytes) {
                Ok(_) => process(&handler, &bytes, &options).emitted,
                Err(error) => failure(&options, format!("hook input cannot be read: {error}")),
            }
        }
        Err(message) => failure(&options, message),
    };
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    // A closed pipe leaves nothing to report to.
    let _ = stdout
        .write_all(&emitted.stdout)
        .and_then(|()| stdout.flush());
    let _ = stderr
        .write_all(&emitted.stderr)
        .and_then(|()| stderr.flush());
    std::process::exit(emitted.exit_code)
}

fn failure(options: &Options, message: String) -> Emitted {
    Emitted {
        stdout: Vec::new(),
        stderr: format!("{message}\n").into_bytes(),
        exit_code: if options.fail_closed { 2 } else { 1 },
    }
}

/// `options.dialect`, else `--dialect`, else `HOOK_DIALECT`.
fn environment_dialect(options: &Options) -> Result<Option<Dialect>, String> {
    if options.dialect.is_some() {
        return Ok(options.dialect);
    }
    let mut args = std::env::args().skip(1);
    if let Some(arg) = args.next() {
        let value = if arg == "--dialect" {
            args.next()
                .ok_or_else(|| "--dialect needs a value: wuu, verboo or lime".to_owned())?
        } else if let Some(value) = arg.strip_prefix("--dialect=") {
            value.to_owned()
        } else {
            return Err(format!(
                "unknown argument `{arg}`: a hook takes only `--dialect wuu|verboo|lime`"
            ));
        };
        if let Some(extra) = args.next() {
            return Err(format!(
                "unknown argument `{extra}`: a hook takes only `--dialect wuu|verboo|lime`"
            ));
        }
        return value.parse().map(Some).map_err(|e| format!("{e}"));
    }
    match std::env::var("HOOK_DIALECT") {
        Ok(value) if !value.is_empty() => value
            .parse()
            .map(Some)
            .map_err(|e| format!("HOOK_DIALECT: {e}")),
        _ => Ok(None),
    }
}
