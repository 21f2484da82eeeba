//! `hook guard run NAME`: a guard as a hook, its answer made by [`hook_sdk::process`] from the
//! event's bytes. The process ([`answer`] on its stdin) and the relay answering the same entry
//! in its own process ([`super::in_process`]) call the same function with the same options, so
//! the answer is the same bytes and exit code.

use std::io::Read;
use std::path::PathBuf;

use hook_guards::{Builtin, Guard, Settings};
use hook_protocol::Dialect;
use hook_sdk::{Emitted, Options};

/// How a guard reads its input: fail closed (an event it cannot read, or any failure, blocks
/// where the event can block: exit 2 with the message on stderr), up to the largest event the
/// relay accepts from an agent.
pub(crate) fn options(dialect: Option<Dialect>) -> Options {
    Options::default()
        .fail_closed()
        .with_max_input_bytes(hook_protocol::input::MAX_AGENT_EVENT_BYTES)
        .with_dialect_if(dialect)
}

/// [`Options::with_dialect`] when there is one.
trait WithDialectIf {
    fn with_dialect_if(self, dialect: Option<Dialect>) -> Self;
}

impl WithDialectIf for Options {
    fn with_dialect_if(self, dialect: Option<Dialect>) -> Self {
        match dialect {
            Some(dialect) => self.with_dialect(dialect),
            None => self,
        }
    }
}

/// The dialect a guard reads its event in, as `hook_sdk::run` chooses it: the line's
/// `--dialect`, else `HOOK_DIALECT` (`hook_dialect`, which the engine sets for every hook),
/// else none (inferred from the input).
///
/// # Errors
///
/// When `HOOK_DIALECT` names no dialect: the message the guard fails with.
pub(crate) fn dialect(
    flag: Option<Dialect>,
    hook_dialect: Option<&str>,
) -> Result<Option<Dialect>, String> {
    if flag.is_some() {
        return Ok(flag);
    }
    match hook_dialect {
        Some(value) if !value.is_empty() => value
            .parse()
            .map(Some)
            .map_err(|error| format!("HOOK_DIALECT: {error}")),
        _ => Ok(None),
    }
}

/// The home folder a guard expands `~` and `$HOME` to: `HOME` (`home`) when set.
pub(crate) fn home(home: Option<String>) -> Option<PathBuf> {
    home.filter(|home| !home.is_empty()).map(PathBuf::from)
}

/// What `guard` with `settings` answers `input`: the agent's hook output on stdout, a failure's
/// message on stderr, the exit code.
pub(crate) fn answer(
    guard: &'static Builtin,
    settings: Settings,
    dialect: Result<Option<Dialect>, String>,
    home: Option<PathBuf>,
    input: &[u8],
) -> Emitted {
    let guard = Guard::new(guard, settings, home);
    match dialect {
        Ok(dialect) => hook_sdk::process(&guard, input, &options(dialect)).emitted,
        Err(message) => failure(message),
    }
}

/// What the process answers when it cannot read its stdin.
pub(crate) fn unreadable_input(error: &std::io::Error) -> Emitted {
    failure(format!("hook input cannot be read: {error}"))
}

/// A failure, fail closed: exit 2 with the message on stderr, as `hook_sdk::process` fails.
fn failure(message: String) -> Emitted {
    let mut emitted = Emitted::default();
    emitted.stderr = format!("{message}\n").into_bytes();
    emitted.exit_code = 2;
    emitted
}

/// All of `reader` up to one byte past the largest input a guard reads (so that
/// `hook_sdk::process` refuses a larger one with its own message).
///
/// # Errors
///
/// When it cannot be read.
pub(crate) fn read_input(reader: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let limit = u64::try_from(hook_protocol::input::MAX_AGENT_EVENT_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    let mut bytes = Vec::new();
    reader.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}
