//! `type = "native"` handlers: in-process plugins built with `hook-sdk`'s `export_native!`.
//!
//! A plugin is a shared library exporting the C ABI `hook-sdk` documents (`hook_sdk::native`):
//! `hook_sdk_abi_version` (a NUL-terminated semver string), `hook_sdk_call` (event JSON and
//! dialect in, stdout/stderr buffers and an exit code out) and `hook_sdk_free` (the plugin frees
//! its own buffers). The output is read exactly like a command hook's, by
//! `hook_protocol::interpret`.
//!
//! - **Loading**: once per canonical path, with libloading, in the process; a library is never
//!   unloaded (code of a plugin may still run on a timed-out call). A load that fails is not
//!   cached, so a fixed library is picked up by the next dispatch.
//! - **Version**: the plugin's ABI version must be semver-compatible with [`ABI_VERSION`]:
//!   `^plugin` must match the engine's version (same major; the engine at least as new).
//! - **Calls** run on tokio's blocking pool under the handler's timeout. A call that times out
//!   cannot be killed: it finishes on its thread and its result is dropped.
//! - **Paths**: `${PLUGIN_ROOT}` is expanded; a relative `library` is resolved against the
//!   plugin folder for plugin handlers, else the event's `cwd`.
//! - **Output caps** are those of command hooks: over 1 MiB on stdout or stderr fails the run.

// The one module of the engine that loads and calls foreign code.
#![allow(unsafe_code)]

use std::collections::HashMap;
use std::ffi::{CStr, c_char};
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use hook_config::Handler;
use hook_protocol::Dialect;
use serde_json::Value;

use crate::command::OUTPUT_CAP;

/// The native plugin ABI version this engine speaks (`hook_sdk::native::ABI_VERSION`).
pub const ABI_VERSION: &str = "1.0.0";

const SYMBOL_VERSION: &[u8] = b"hook_sdk_abi_version\0";
const SYMBOL_CALL: &[u8] = b"hook_sdk_call\0";
const SYMBOL_FREE: &[u8] = b"hook_sdk_free\0";

/// `hook_sdk::native::NativeOutput`, field for field.
#[repr(C)]
struct RawOutput {
    stdout_ptr: *mut u8,
    stdout_len: usize,
    stdout_cap: usize,
    stderr_ptr: *mut u8,
    stderr_len: usize,
    stderr_cap: usize,
    exit_code: i32,
}

type VersionFn = unsafe extern "C" fn() -> *const c_char;
type CallFn = unsafe extern "C" fn(*const u8, usize, *const u8, usize, *mut RawOutput) -> i32;
type FreeFn = unsafe extern "C" fn(*mut RawOutput);

/// The entry points of a loaded plugin; valid for the life of the process (never unloaded).
#[derive(Clone, Copy)]
struct Plugin {
    call: CallFn,
    free: FreeFn,
}

static PLUGINS: LazyLock<Mutex<HashMap<PathBuf, Plugin>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// How a native call ended.
#[derive(Debug)]
pub(crate) enum NativeEnd {
    /// The plugin answered.
    Exited {
        /// The exit code the hook executable would have had.
        exit_code: i32,
        /// Its stdout.
        stdout: Vec<u8>,
        /// Its stderr.
        stderr: Vec<u8>,
    },
    /// The library could not be loaded or called; why.
    Failed(String),
    /// The call did not return within the handler's timeout.
    TimedOut,
}

/// Runs a native handler on the event `value`, on the blocking pool, under its timeout.
pub(crate) async fn run(
    dialect: Dialect,
    handler: &Handler,
    value: &Value,
) -> (NativeEnd, Duration) {
    let started = Instant::now();
    let Some(path) = library_path(handler, value) else {
        let end = NativeEnd::Failed("the native handler has no `library`".to_owned());
        return (end, started.elapsed());
    };
    let input = match serde_json::to_vec(value) {
        Ok(input) => input,
        Err(error) => return (NativeEnd::Failed(error.to_string()), started.elapsed()),
    };
    let task = tokio::task::spawn_blocking(move || call(&path, dialect, &input));
    let end = match tokio::time::timeout(handler.timeout, task).await {
        Ok(Ok(end)) => end,
        Ok(Err(error)) => NativeEnd::Failed(format!("the native call did not finish: {error}")),
        Err(_) => NativeEnd::TimedOut,
    };
    (end, started.elapsed())
}

/// The library's path: `${PLUGIN_ROOT}` expanded, relative paths resolved.
fn library_path(handler: &Handler, value: &Value) -> Option<PathBuf> {
    let written = handler.config.library.as_deref()?;
    let expanded = match &handler.plugin_root {
        Some(root) => {
            let root = root.display().to_string();
            written
                .replace("${PLUGIN_ROOT}", &root)
                .replace("${CLAUDE_PLUGIN_ROOT}", &root)
        }
        None => written.to_owned(),
    };
    let path = PathBuf::from(expanded);
    if path.is_absolute() {
        return Some(path);
    }
    let base = match &handler.plugin_root {
        Some(root) => root.clone(),
        None => PathBuf::from(value.get("cwd").and_then(Value::as_str).unwrap_or(".")),
    };
    Some(base.join(path))
}

/// Loads (once) and calls the plugin; runs on a blocking thread.
fn call(path: &Path, dialect: Dialect, input: &[u8]) -> NativeEnd {
    let plugin = match load(path) {
        Ok(plugin) => plugin,
        Err(error) => return NativeEnd::Failed(error),
    };
    let mut out = RawOutput {
        stdout_ptr: std::ptr::null_mut(),
        stdout_len: 0,
        stdout_cap: 0,
        stderr_ptr: std::ptr::null_mut(),
        stderr_len: 0,
        stderr_cap: 0,
        exit_code: 0,
    };
    let dialect = dialect.as_str().as_bytes();
    // SAFETY: `call` has the signature `load` checked the ABI version for; the input and
    // dialect buffers are valid for their lengths and `out` is a writable `RawOutput`, the
    // `#[repr(C)]` twin of the SDK's `NativeOutput`.
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
        return NativeEnd::Failed(format!(
            "the native hook {} could not answer (status {status})",
            path.display()
        ));
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
    for (name, bytes) in [("stdout", &stdout), ("stderr", &stderr)] {
        if bytes.len() > OUTPUT_CAP {
            return NativeEnd::Failed(format!(
                "{name} went over {OUTPUT_CAP} bytes; nothing it printed is used"
            ));
        }
    }
    NativeEnd::Exited {
        exit_code,
        stdout,
        stderr,
    }
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

/// The plugin at `path`, loaded and checked on first use.
fn load(path: &Path) -> Result<Plugin, String> {
    let key = path.canonicalize().map_err(|error| {
        format!(
            "native library {} cannot be opened: {error}",
            path.display()
        )
    })?;
    let mut plugins = PLUGINS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(plugin) = plugins.get(&key) {
        return Ok(*plugin);
    }
    let shown = key.display();
    // SAFETY: loading a library runs its initializers. Native handlers are trusted code, like
    // command hooks (the trust gate decided before this runs); this is the documented contract.
    let library = unsafe { libloading::Library::new(&key) }
        .map_err(|error| format!("native library {shown} cannot be loaded: {error}"))?;
    // A library is never unloaded: its functions may still run on a timed-out call's thread.
    let library: &'static libloading::Library = Box::leak(Box::new(library));
    let symbol_error = |name: &[u8], error: libloading::Error| {
        let name = String::from_utf8_lossy(&name[..name.len() - 1]).into_owned();
        format!(
            "native library {shown} lacks the symbol `{name}` ({error}): build it with `hook_sdk::export_native!`"
        )
    };
    // SAFETY: the symbol is declared with the SDK's signature for it; a library that exports
    // the name with another type breaks the ABI contract its version promises.
    let version: VersionFn = unsafe { library.get::<VersionFn>(SYMBOL_VERSION) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_VERSION, error))?;
    // SAFETY: `hook_sdk_abi_version` returns a pointer to a static NUL-terminated string.
    let version_ptr = unsafe { version() };
    if version_ptr.is_null() {
        return Err(format!("native library {shown} gives no ABI version"));
    }
    // SAFETY: non-null, and a static NUL-terminated string per the ABI.
    let plugin_version = unsafe { CStr::from_ptr(version_ptr) }
        .to_string_lossy()
        .into_owned();
    check_version(&plugin_version).map_err(|why| format!("native library {shown}: {why}"))?;
    // SAFETY: as for the version symbol; the version check above says the types match.
    let call: CallFn = unsafe { library.get::<CallFn>(SYMBOL_CALL) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_CALL, error))?;
    // SAFETY: as above.
    let free: FreeFn = unsafe { library.get::<FreeFn>(SYMBOL_FREE) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_FREE, error))?;
    let plugin = Plugin { call, free };
    plugins.insert(key, plugin);
    Ok(plugin)
}

/// Whether a plugin speaking ABI `plugin` can be called by this engine.
fn check_version(plugin: &str) -> Result<(), String> {
    let parsed = semver::Version::parse(plugin)
        .map_err(|error| format!("ABI version `{plugin}` is not semver: {error}"))?;
    let ours = semver::Version::parse(ABI_VERSION).map_err(|error| error.to_string())?;
    let requirement = semver::VersionReq {
        comparators: vec![semver::Comparator {
            op: semver::Op::Caret,
            major: parsed.major,
            minor: Some(parsed.minor),
            patch: Some(parsed.patch),
            pre: parsed.pre.clone(),
        }],
    };
    if requirement.matches(&ours) {
        Ok(())
    } else {
        Err(format!(
            "ABI version {plugin} is not compatible with this engine's {ABI_VERSION}: rebuild the plugin with a hook-sdk of ABI {}.x",
            ours.major
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::check_version;

    #[test]
    fn versions_are_checked_with_semver() {
        assert!(check_version("1.0.0").is_ok());
        assert!(
            check_version("2.0.0")
                .unwrap_err()
                .contains("not compatible")
        );
        assert!(
            check_version("1.9.0")
                .unwrap_err()
                .contains("not compatible")
        );
        assert!(check_version("0.1.0").is_err());
        assert!(check_version("one").unwrap_err().contains("not semver"));
    }
}
