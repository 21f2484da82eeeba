//! `native` handlers: the in-process plugin the engine read (and the gate approved) is loaded
//! and called; its answer is read like a command hook's exit code, stdout and stderr.

use hook_config::Handler;
use hook_protocol::{Event, interpret};

use super::{base_run, failed, millis, read_result, timed_out_with};
use crate::combine::Finished;
use crate::engine::Engine;
use crate::native::{LibraryError, NativeError, OpenedLibrary};
use crate::payload::Payload;

impl Engine {
    /// `native`: calls the plugin `library` holds (read once, before the gate).
    pub(crate) async fn run_native_handler(
        &self,
        event: &Event,
        handler: &Handler,
        library: Option<Result<OpenedLibrary, LibraryError>>,
        value: &Payload,
    ) -> Finished {
        let dialect = self.dialect();
        let mut entry = base_run(handler);
        let library = library.unwrap_or(Err(LibraryError::Missing));
        let (end, took) = crate::native::run(dialect, handler, library, value.bytes()).await;
        entry.duration_ms = Some(millis(took));
        match end {
            Ok(reply) => {
                entry.exit_code = Some(reply.exit_code);
                entry.set_stderr(&reply.stderr);
                let result = interpret(
                    dialect,
                    event,
                    Some(reply.exit_code),
                    &reply.stdout,
                    &reply.stderr,
                );
                read_result(dialect, &self.options, handler, entry, result)
            }
            // The error's text is the run's: "timed out after ..." included.
            Err(error @ NativeError::TimedOut { .. }) => timed_out_with(entry, error.to_string()),
            Err(error) => failed(entry, error.to_string()),
        }
    }
}
