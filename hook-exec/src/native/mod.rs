//! `type = "native"` handlers: in-process plugins built with `hook-sdk`'s `export_native!`.
//!
//! A plugin is a shared library exporting the C ABI `hook-sdk` documents (`hook_sdk::native`):
//! `hook_sdk_abi_version` (a NUL-terminated semver string), `hook_sdk_call` (event JSON and
//! dialect in, stdout/stderr buffers and an exit code out) and `hook_sdk_free` (the plugin frees
//! its own buffers). The output is read exactly like a command hook's, by
//! `hook_protocol::interpret`.
//!
//! - **Resolving**: the library's path is [`hook_config::Handler::library_path`], resolved once
//!   at load (relative to the plugin folder or the folder of the file that declares it), never
//!   to the event's `cwd`; `hook-trust` hashes that same path.
//! - **Reading** ([`library_digest`], and the engine before every native run): the path must
//!   name a regular file (a FIFO, a device such as `/dev/zero` or a folder is refused without
//!   blocking: it is opened non-blocking, then checked on the open file) of at most
//!   [`LIBRARY_SIZE_CAP`] (256 MiB) bytes; it is hashed (SHA-256) as it streams, never held
//!   whole in the process's memory.
//! - **The bytes hashed are the bytes loaded** (Linux): the engine reads the library once,
//!   streaming it into a sealed anonymous memory file (`memfd_create`, sealed against every
//!   change) while hashing it; the engine's [`Gate`](crate::Gate) decides on that digest
//!   ([`Gate::check_native`](crate::Gate::check_native)), and the library is then loaded from
//!   the memory file (`/proc/self/fd/N`), never from the path again. So replacing the file after
//!   the check runs nothing unreviewed. Other systems: the file is hashed, then loaded by path;
//!   a file replaced between the two is loaded unverified (documented limit).
//! - **Loading**: once per content (the SHA-256): a library whose bytes were loaded before is
//!   not loaded again; a library is never unloaded (code of a plugin may still run on a
//!   timed-out call), and its memory file stays open for the life of the process (the dynamic
//!   loader recognises a loaded library by its path name and by its device and inode, which a
//!   closed and reused descriptor could give to another library). A load that fails is not
//!   cached, so a fixed library is picked up by the next dispatch. A long-lived engine does not
//!   read an already loaded library again while the file is unchanged: same device, inode,
//!   size, modification and status-change times (the latter set by the kernel on any change),
//!   remembered only when the file had not changed for 2 s before it was read; any change, or
//!   a replacement, reads and hashes it again, so a plugin rebuilt during a session runs its
//!   new code at the next dispatch (and is judged by the gate on its new bytes). Other
//!   systems load by path, where the loader would hand back the old code: a library whose
//!   bytes changed since the process loaded that path is refused
//!   ([`NativeError::ChangedSinceLoaded`]: restart the agent). A library loaded from memory
//!   has no folder of its own: dependencies it finds through `$ORIGIN` are not found (the SDK's
//!   plugins have none).
//! - **Version**: the plugin's ABI version ([`hook_protocol::native_abi`], the one definition
//!   the SDK exports too) must be semver-compatible with [`ABI_VERSION`]: `^plugin` must match
//!   the engine's version (same major; the engine at least as new).
//! - **Calls** run on tokio's blocking pool under the handler's timeout. A call that times out
//!   cannot be killed: it finishes on its thread and its result is dropped.
//! - **Output caps** are those of command hooks: over 1 MiB on stdout or stderr fails the run;
//!   the lengths the plugin reports are checked before a byte is copied.

// The one module of the engine that loads and calls foreign code.
#![allow(unsafe_code)]

mod call;
mod error;
mod library;
mod load;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hook_config::Handler;
use hook_protocol::Dialect;

pub use error::{LoaderError, NativeError};
use library::open_path;
pub(crate) use library::{OpenedLibrary, open};

/// The native plugin ABI version this engine speaks ([`hook_protocol::native_abi::ABI_VERSION`],
/// which the SDK's plugins speak too).
pub const ABI_VERSION: &str = hook_protocol::native_abi::ABI_VERSION;

pub use hook_config::library::{LIBRARY_SIZE_CAP, LibraryError, library_digest};

/// What a native plugin answered: what a hook executable would have printed and exited with.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NativeReply {
    /// The exit code the hook executable would have had.
    pub exit_code: i32,
    /// Its stdout.
    pub stdout: Vec<u8>,
    /// Its stderr.
    pub stderr: Vec<u8>,
}

/// Reads, loads (once per content, as the engine does) and calls the native plugin at `path`
/// with the event JSON `input`, on tokio's blocking pool, under `timeout`.
///
/// This asks no [`Gate`](crate::Gate): it is what the engine does once the gate approved the
/// library. Check the library first ([`library_digest`] and your trust) if it may not be yours.
///
/// # Errors
///
/// A [`NativeError`]: the file cannot be read ([`NativeError::Library`]) or loaded
/// ([`NativeError::Load`]), its ABI is missing or incompatible, the call failed, panicked or
/// timed out, or its output is over the cap.
pub async fn call_library(
    path: &Path,
    dialect: Dialect,
    input: &[u8],
    timeout: Duration,
) -> Result<NativeReply, NativeError> {
    let library = open_path(path.to_owned()).await;
    call_under(library, dialect, input.into(), timeout).await
}

/// Runs a native handler on the event `value`, on the blocking pool, under its timeout:
/// loads `library` (what [`open`] read, and the gate approved) and calls it with the event
/// JSON `input` (serialized once per dispatch). Returns how long
/// it took too.
pub(crate) async fn run(
    dialect: Dialect,
    handler: &Handler,
    library: Result<OpenedLibrary, LibraryError>,
    input: &Arc<[u8]>,
) -> (Result<NativeReply, NativeError>, Duration) {
    let started = Instant::now();
    let end = call_under(library, dialect, Arc::clone(input), handler.timeout).await;
    (end, started.elapsed())
}

async fn call_under(
    library: Result<OpenedLibrary, LibraryError>,
    dialect: Dialect,
    input: Arc<[u8]>,
    timeout: Duration,
) -> Result<NativeReply, NativeError> {
    let library = library?;
    let task = tokio::task::spawn_blocking(move || call::call(library, dialect, &input));
    match tokio::time::timeout(timeout, task).await {
        Ok(Ok(end)) => end,
        Ok(Err(source)) => Err(NativeError::Panicked { source }),
        Err(_) => Err(NativeError::TimedOut { limit: timeout }),
    }
}

/// The library's path ([`Handler::library`]; a handler built by hand without a resolved path
/// resolves against the current directory).
fn library_path(handler: &Handler) -> Option<PathBuf> {
    handler.library(Path::new("."))
}
