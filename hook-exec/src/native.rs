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

use std::collections::HashMap;
use std::ffi::CStr;
use std::fs::File;

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use hook_config::Handler;
use hook_protocol::Dialect;
use hook_protocol::native_abi::{CallFn, FreeFn, NativeOutput, VersionFn};

use crate::command::OUTPUT_CAP;

/// The native plugin ABI version this engine speaks ([`hook_protocol::native_abi::ABI_VERSION`],
/// which the SDK's plugins speak too).
pub const ABI_VERSION: &str = hook_protocol::native_abi::ABI_VERSION;

pub use hook_config::library::{LIBRARY_SIZE_CAP, LibraryError, library_digest};
use hook_config::library::{hash_into, open_checked};

/// The symbol names (libloading adds the NUL).
const SYMBOL_VERSION: &[u8] = hook_protocol::native_abi::SYMBOL_VERSION.as_bytes();
const SYMBOL_CALL: &[u8] = hook_protocol::native_abi::SYMBOL_CALL.as_bytes();
const SYMBOL_FREE: &[u8] = hook_protocol::native_abi::SYMBOL_FREE.as_bytes();

/// A library read once: its digest and the sealed copy it will be loaded from.
#[derive(Debug)]
pub(crate) struct OpenedLibrary {
    path: PathBuf,
    sha256: String,
    /// Linux: the sealed memory file holding exactly the hashed bytes. Elsewhere: `None`, and
    /// the library is loaded from `path`.
    image: Option<File>,
}

impl OpenedLibrary {
    /// The hex SHA-256 of the bytes that will be loaded.
    pub(crate) fn sha256(&self) -> &str {
        &self.sha256
    }
}

/// Reads the library of `handler` once (on the blocking pool): hashed while copied into a
/// sealed memory file (Linux).
pub(crate) async fn open(handler: &Handler) -> Result<OpenedLibrary, LibraryError> {
    let path = library_path(handler).ok_or(LibraryError::Missing)?;
    open_path(path).await
}

/// Reads the library at `path` once (on the blocking pool).
async fn open_path(path: PathBuf) -> Result<OpenedLibrary, LibraryError> {
    match tokio::task::spawn_blocking(move || open_blocking(path)).await {
        Ok(result) => result,
        Err(error) => Err(LibraryError::Read {
            path: PathBuf::new(),
            source: std::io::Error::other(error.to_string()),
        }),
    }
}

fn open_blocking(path: PathBuf) -> Result<OpenedLibrary, LibraryError> {
    let memory_error = |error| LibraryError::Memory {
        path: path.clone(),
        source: error,
    };
    let (file, metadata) = open_checked(&path)?;
    let identity = FileIdentity::of(&metadata);
    if let Some(sha256) = identity.as_ref().and_then(FileIdentity::loaded_digest) {
        // Unchanged since its bytes were hashed and loaded: those bytes are what runs.
        return Ok(OpenedLibrary {
            path,
            sha256,
            image: None,
        });
    }
    let started = std::time::SystemTime::now();
    #[cfg(target_os = "linux")]
    let (sha256, image) = {
        let mut image = memory_file().map_err(memory_error)?;
        let sha256 = hash_into(&file, &path, &mut image, memory_error)?;
        seal(&image).map_err(memory_error)?;
        (sha256, Some(image))
    };
    #[cfg(not(target_os = "linux"))]
    let (sha256, image) = (
        hash_into(&file, &path, &mut std::io::sink(), memory_error)?,
        None,
    );
    if let (Some(identity), Ok(after)) = (identity, file.metadata()) {
        identity.remember(&after, started, &sha256);
    }
    Ok(OpenedLibrary {
        path,
        sha256,
        image,
    })
}

/// What identifies a file's content without reading it: device, inode, size, and the
/// modification and status-change times (the latter set by the kernel on every change, never
/// by a user).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

/// Digests of library files whose bytes were hashed, by their identity then.
static DIGESTS: LazyLock<Mutex<HashMap<FileIdentity, String>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// How long before a read a file must have last changed for its identity to be remembered:
/// a change within the same tick of the kernel's clock could keep the status-change time.
const SETTLED: Duration = Duration::from_secs(2);

impl FileIdentity {
    #[cfg(unix)]
    fn of(metadata: &std::fs::Metadata) -> Option<FileIdentity> {
        use std::os::unix::fs::MetadataExt;
        Some(FileIdentity {
            device: metadata.dev(),
            inode: metadata.ino(),
            size: metadata.size(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<FileIdentity> {
        None
    }

    /// The digest of this file's bytes, when they were hashed and loaded before and the file
    /// has not changed since.
    fn loaded_digest(&self) -> Option<String> {
        let digest = DIGESTS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(self)
            .cloned()?;
        let plugins = PLUGINS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        plugins.contains_key(&digest).then_some(digest)
    }

    /// Remembers `sha256` for this identity when the file was the same after the read
    /// (`after`) and had settled before it began (`started`); otherwise the next run reads it
    /// again.
    fn remember(self, after: &std::fs::Metadata, started: std::time::SystemTime, sha256: &str) {
        if FileIdentity::of(after).as_ref() != Some(&self) {
            return;
        }
        let Some(threshold) = started.checked_sub(SETTLED) else {
            return;
        };
        let Ok(threshold) = threshold.duration_since(std::time::UNIX_EPOCH) else {
            return;
        };
        let (seconds, nanos) = self.changed;
        let settled = u64::try_from(seconds).is_ok_and(|seconds| {
            Duration::new(seconds, u32::try_from(nanos).unwrap_or(0)) < threshold
        });
        if settled {
            DIGESTS
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .insert(self, sha256.to_owned());
        }
    }
}

/// An anonymous memory file that can be sealed (and mapped executable).
#[cfg(target_os = "linux")]
fn memory_file() -> std::io::Result<File> {
    use std::os::fd::FromRawFd;
    let name = c"hook-native-library";
    let flags = libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING;
    // SAFETY: `name` is a NUL-terminated string; `memfd_create` only reads it.
    let mut fd = unsafe { libc::memfd_create(name.as_ptr(), flags | libc::MFD_EXEC) };
    if fd < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
        // Kernels before 6.3 know no MFD_EXEC (their memory files are executable anyway).
        // SAFETY: as above.
        fd = unsafe { libc::memfd_create(name.as_ptr(), flags) };
    }
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` is a new descriptor this function owns and hands over.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Seals `file` against every change: no write, no resize, no new seal.
#[cfg(target_os = "linux")]
fn seal(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let seals = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
    // SAFETY: `fcntl(F_ADD_SEALS)` on a descriptor this process owns; no memory is passed.
    let status = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_ADD_SEALS, seals) };
    if status < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The entry points of a loaded plugin; valid for the life of the process (never unloaded).
#[derive(Clone, Copy)]
struct Plugin {
    call: CallFn,
    free: FreeFn,
}

/// Loaded plugins by the SHA-256 of their bytes.
static PLUGINS: LazyLock<Mutex<HashMap<String, Plugin>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The digest of the bytes each path was loaded with, for libraries loaded by path (systems
/// without memory files): the dynamic loader knows a library by its path, so another digest
/// under a loaded path cannot be loaded.
static LOADED_BY_PATH: LazyLock<Mutex<HashMap<PathBuf, String>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

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

/// Why a native handler gave no answer to read.
///
/// `Display` is the whole sentence the engine puts in the run's `error`, the cause's text
/// included; [`std::error::Error::source`] gives the cause itself (libloading's, semver's...).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NativeError {
    /// The library file could not be read (missing, not a regular file, too large...).
    #[error(transparent)]
    Library(#[from] LibraryError),
    /// The dynamic loader refused the file: not a library for this system, a missing
    /// dependency...
    #[error("native library {} cannot be loaded: {source}", path.display())]
    Load {
        /// The library's path.
        path: PathBuf,
        /// The loader's error.
        #[source]
        source: libloading::Error,
    },
    /// The library's bytes changed since this process loaded it from the same path, on a
    /// system where libraries are loaded by path (not Linux): the loader would hand back the
    /// old code while the gate judged the new bytes, so the run is refused.
    #[error(
        "native library {} changed since this process loaded it, and this system loads a library by its path (the old code would run): restart the agent to run the new build",
        path.display()
    )]
    ChangedSinceLoaded {
        /// The library's path.
        path: PathBuf,
    },
    /// The library lacks one of the ABI's symbols: it was not built with
    /// `hook_sdk::export_native!`.
    #[error(
        "native library {} lacks the symbol `{symbol}` ({source}): build it with `hook_sdk::export_native!`",
        path.display()
    )]
    MissingSymbol {
        /// The library's path.
        path: PathBuf,
        /// The symbol's name.
        symbol: String,
        /// The loader's error.
        #[source]
        source: libloading::Error,
    },
    /// The plugin's ABI version cannot be read (a null pointer, or not semver).
    #[error(
        "native library {}{}",
        path.display(),
        unreadable_version(version.as_deref(), source.as_ref())
    )]
    UnreadableVersion {
        /// The library's path.
        path: PathBuf,
        /// What it gave, when it gave something.
        version: Option<String>,
        /// Why that is not semver.
        #[source]
        source: Option<semver::Error>,
    },
    /// The plugin speaks an ABI this engine cannot call: rebuild it with a compatible hook-sdk.
    #[error(
        "native library {}: ABI version {plugin} is not compatible with this engine's {engine}: rebuild the plugin with a hook-sdk of ABI {}.x",
        path.display(),
        engine_major(engine)
    )]
    IncompatibleAbi {
        /// The library's path.
        path: PathBuf,
        /// The plugin's ABI version.
        plugin: String,
        /// The engine's ([`ABI_VERSION`]).
        engine: &'static str,
    },
    /// The plugin's call returned a non-zero status: it could not answer.
    #[error("the native hook {} could not answer (status {status})", path.display())]
    CallFailed {
        /// The library's path.
        path: PathBuf,
        /// The status it returned.
        status: i32,
    },
    /// The plugin reported more output than the cap on one stream; nothing it printed is used.
    #[error("{stream} went over {cap} bytes ({len}); nothing it printed is used")]
    OutputTooLarge {
        /// `"stdout"` or `"stderr"`.
        stream: &'static str,
        /// The length it reported.
        len: usize,
        /// The cap ([`OUTPUT_CAP`]).
        cap: usize,
    },
    /// The engine's thread running the call panicked (or was cancelled) before it returned.
    #[error("the native call did not finish: {source}")]
    Panicked {
        /// The task's error.
        #[source]
        source: tokio::task::JoinError,
    },
    /// The call did not return within the handler's timeout. It cannot be killed: it finishes
    /// on its own thread and its result is dropped.
    #[error(
        "timed out after {} s; the in-process call cannot be killed: it finishes on its own thread and its result is dropped",
        limit.as_secs_f64()
    )]
    TimedOut {
        /// The handler's timeout.
        limit: Duration,
    },
}

fn unreadable_version(version: Option<&str>, error: Option<&semver::Error>) -> String {
    match (version, error) {
        (Some(version), Some(error)) => format!(": ABI version `{version}` is not semver: {error}"),
        (Some(version), None) => format!(": ABI version `{version}` is not semver"),
        (None, _) => " gives no ABI version".to_owned(),
    }
}

fn engine_major(engine: &str) -> String {
    engine.split('.').next().unwrap_or(engine).to_owned()
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
    let task = tokio::task::spawn_blocking(move || call(library, dialect, &input));
    match tokio::time::timeout(timeout, task).await {
        Ok(Ok(end)) => end,
        Ok(Err(source)) => Err(NativeError::Panicked { source }),
        Err(_) => Err(NativeError::TimedOut { limit: timeout }),
    }
}

/// The library's path: [`Handler::library_path`], resolved at load; for a handler built by
/// hand without it, [`hook_config::resolve_library`] against its file or the current
/// directory.
fn library_path(handler: &Handler) -> Option<PathBuf> {
    if let Some(path) = &handler.library_path {
        return Some(path.clone());
    }
    hook_config::resolve_library(
        &handler.config,
        handler.source.path.as_deref().map(Path::new),
        handler.plugin_root.as_deref(),
        Path::new("."),
    )
}

/// Loads (once) and calls the plugin; runs on a blocking thread.
fn call(
    library: OpenedLibrary,
    dialect: Dialect,
    input: &[u8],
) -> Result<NativeReply, NativeError> {
    let path = library.path.clone();
    let plugin = load(library)?;
    let mut out = NativeOutput::empty();
    let dialect = dialect.as_str().as_bytes();
    // SAFETY: `call` has the signature `load` checked the ABI version for; the input and
    // dialect buffers are valid for their lengths and `out` is a writable `NativeOutput`, the
    // one definition the SDK's plugins use.
    let status = unsafe {
        (plugin.call)(
            input.as_ptr(),
            input.len(),
            dialect.as_ptr(),
            dialect.len(),
            &mut out,
        )
    };
    if status != 0 {
        return Err(NativeError::CallFailed { path, status });
    }
    // The lengths are checked before a byte is copied: a plugin that reports a huge length
    // costs nothing.
    let over = [("stdout", out.stdout_len), ("stderr", out.stderr_len)]
        .into_iter()
        .find(|(_, len)| *len > OUTPUT_CAP);
    if let Some((name, len)) = over {
        // SAFETY: `out` was filled by this plugin's `call` and is freed once, by the plugin.
        unsafe { (plugin.free)(&mut out) };
        return Err(NativeError::OutputTooLarge {
            stream: name,
            len,
            cap: OUTPUT_CAP,
        });
    }
    // SAFETY: on status 0 the plugin filled `out` with buffers of the lengths given, which
    // stay valid until `free` below.
    let (stdout, stderr) = unsafe {
        (
            copy(out.stdout_ptr, out.stdout_len),
            copy(out.stderr_ptr, out.stderr_len),
        )
    };
    let exit_code = out.exit_code;
    // SAFETY: `out` was filled by this plugin's `call` and is freed once, by the plugin.
    unsafe { (plugin.free)(&mut out) };
    Ok(NativeReply {
        exit_code,
        stdout,
        stderr,
    })
}

/// Copies `len` bytes from `ptr` (nothing when null).
///
/// # Safety
///
/// `ptr` must be null or point to `len` readable bytes.
unsafe fn copy(ptr: *const u8, len: usize) -> Vec<u8> {
    if ptr.is_null() || len == 0 {
        return Vec::new();
    }
    // SAFETY: the caller guarantees `ptr` points to `len` readable bytes.
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// The plugin of `library`'s bytes, loaded and checked on first use.
fn load(library: OpenedLibrary) -> Result<Plugin, NativeError> {
    let mut plugins = PLUGINS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(plugin) = plugins.get(&library.sha256) {
        return Ok(*plugin);
    }
    let path = library.path.clone();
    let load_path = match &library.image {
        Some(image) => image_path(image),
        None => {
            let mut by_path = LOADED_BY_PATH
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match by_path.get(&path) {
                Some(loaded) if *loaded != library.sha256 => {
                    return Err(NativeError::ChangedSinceLoaded { path });
                }
                _ => {
                    by_path.insert(path.clone(), library.sha256.clone());
                }
            }
            library.path.clone()
        }
    };
    // SAFETY: loading a library runs its initializers. Native handlers are trusted code, like
    // command hooks (the trust gate decided on these very bytes before this runs); this is the
    // documented contract.
    let loaded =
        unsafe { libloading::Library::new(&load_path) }.map_err(|source| NativeError::Load {
            path: path.clone(),
            source,
        })?;
    // A library is never unloaded: its functions may still run on a timed-out call's thread.
    let loaded: &'static libloading::Library = Box::leak(Box::new(loaded));
    // Its memory file stays open as long: the dynamic loader knows a loaded library by its
    // path name (`/proc/self/fd/N`) and by device and inode, which a closed descriptor would
    // let another library reuse.
    std::mem::forget(library.image);
    let symbol_error = |name: &[u8], source: libloading::Error| NativeError::MissingSymbol {
        path: path.clone(),
        symbol: String::from_utf8_lossy(name).into_owned(),
        source,
    };
    // SAFETY: the symbol is declared with the ABI's signature for it; a library that exports
    // the name with another type breaks the ABI contract its version promises.
    let version: VersionFn = unsafe { loaded.get::<VersionFn>(SYMBOL_VERSION) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_VERSION, error))?;
    // SAFETY: `hook_sdk_abi_version` returns a pointer to a static NUL-terminated string.
    let version_ptr = unsafe { version() };
    if version_ptr.is_null() {
        return Err(NativeError::UnreadableVersion {
            path,
            version: None,
            source: None,
        });
    }
    // SAFETY: non-null, and a static NUL-terminated string per the ABI.
    let plugin_version = unsafe { CStr::from_ptr(version_ptr) }
        .to_string_lossy()
        .into_owned();
    check_version(&path, &plugin_version)?;
    // SAFETY: as for the version symbol; the version check above says the types match.
    let call: CallFn = unsafe { loaded.get::<CallFn>(SYMBOL_CALL) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_CALL, error))?;
    // SAFETY: as above.
    let free: FreeFn = unsafe { loaded.get::<FreeFn>(SYMBOL_FREE) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_FREE, error))?;
    let plugin = Plugin { call, free };
    plugins.insert(library.sha256, plugin);
    Ok(plugin)
}

/// The path the dynamic loader opens a memory file by.
fn image_path(image: &File) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        PathBuf::from(format!("/proc/self/fd/{}", image.as_raw_fd()))
    }
    #[cfg(not(unix))]
    {
        let _ = image;
        PathBuf::new()
    }
}

/// Whether a plugin speaking ABI `plugin` can be called by this engine.
fn check_version(path: &Path, plugin: &str) -> Result<(), NativeError> {
    let parsed =
        semver::Version::parse(plugin).map_err(|source| NativeError::UnreadableVersion {
            path: path.to_owned(),
            version: Some(plugin.to_owned()),
            source: Some(source),
        })?;
    let ours = semver::Version::parse(ABI_VERSION).expect("ABI_VERSION is a semver version");
    // The plugin's version as a caret requirement (build metadata is not part of one).
    let mut caret = semver::Version::new(parsed.major, parsed.minor, parsed.patch);
    caret.pre = parsed.pre.clone();
    let requirement = semver::VersionReq::parse(&format!("^{caret}")).map_err(|source| {
        NativeError::UnreadableVersion {
            path: path.to_owned(),
            version: Some(plugin.to_owned()),
            source: Some(source),
        }
    })?;
    if requirement.matches(&ours) {
        Ok(())
    } else {
        Err(NativeError::IncompatibleAbi {
            path: path.to_owned(),
            plugin: plugin.to_owned(),
            engine: ABI_VERSION,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{NativeError, check_version};

    #[test]
    fn versions_are_checked_with_semver() {
        let path = Path::new("/lib/plugin.so");
        assert!(check_version(path, "1.0.0").is_ok());
        for newer in ["2.0.0", "1.9.0", "0.1.0"] {
            let error = check_version(path, newer).unwrap_err();
            assert!(
                matches!(&error, NativeError::IncompatibleAbi { plugin, .. } if plugin == newer),
                "{error:?}"
            );
            assert!(error.to_string().contains("not compatible"), "{error}");
        }
        let error = check_version(path, "one").unwrap_err();
        assert!(
            matches!(
                &error,
                NativeError::UnreadableVersion {
                    source: Some(_),
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "native library /lib/plugin.so: ABI version `one` is not semver: unexpected character 'o' while parsing major version number"
        );
    }
}
