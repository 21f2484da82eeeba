//! The C ABI of native (`type = "native"`) hooks, defined once for both sides: `hook-sdk`'s
//! `export_native!` implements it in a plugin, `hook-exec` calls it. Types and names only (no
//! I/O, no `unsafe`).
//!
//! | symbol | signature | does |
//! |---|---|---|
//! | [`SYMBOL_VERSION`] | [`VersionFn`] | the ABI version, a NUL-terminated semver string ([`ABI_VERSION`]) |
//! | [`SYMBOL_CALL`] | [`CallFn`] | runs the hook on the event JSON; `dialect` is `wuu`, `verboo`, `lime` or empty (infer); fills the [`NativeOutput`]; returns 0, or non-zero when it could not be filled |
//! | [`SYMBOL_FREE`] | [`FreeFn`] | frees the buffers of a [`NativeOutput`], which the plugin allocated |
//!
//! A loader accepts a plugin whose ABI version is semver-compatible with its own (`^plugin`
//! matches the loader's version: same major, loader at least as new).

use std::ffi::{CStr, c_char};

/// The version of the ABI below.
pub const ABI_VERSION: &str = "1.0.0";

/// [`ABI_VERSION`], NUL-terminated, as `hook_sdk_abi_version` returns it.
pub const ABI_VERSION_C: &CStr = c"1.0.0";

/// The name of the version symbol.
pub const SYMBOL_VERSION: &str = "hook_sdk_abi_version";
/// The name of the call symbol.
pub const SYMBOL_CALL: &str = "hook_sdk_call";
/// The name of the free symbol.
pub const SYMBOL_FREE: &str = "hook_sdk_free";

/// `hook_sdk_abi_version`: a pointer to a static NUL-terminated semver string.
pub type VersionFn = unsafe extern "C" fn() -> *const c_char;

/// `hook_sdk_call(input, input_len, dialect, dialect_len, out)`: 0 when `out` was filled.
pub type CallFn =
    unsafe extern "C" fn(*const u8, usize, *const u8, usize, *mut NativeOutput) -> i32;

/// `hook_sdk_free(out)`: frees what `hook_sdk_call` put in `out`.
pub type FreeFn = unsafe extern "C" fn(*mut NativeOutput);

/// What a native hook emits, in buffers owned by the plugin until `hook_sdk_free`.
///
/// Closed on purpose (not `#[non_exhaustive]`): its layout is the ABI; a field is a new major
/// [`ABI_VERSION`], and plugins build it.
#[repr(C)]
#[derive(Debug)]
pub struct NativeOutput {
    /// stdout bytes.
    pub stdout_ptr: *mut u8,
    /// stdout length.
    pub stdout_len: usize,
    /// stdout allocation capacity (the plugin's business).
    pub stdout_cap: usize,
    /// stderr bytes.
    pub stderr_ptr: *mut u8,
    /// stderr length.
    pub stderr_len: usize,
    /// stderr allocation capacity (the plugin's business).
    pub stderr_cap: usize,
    /// The exit code the executable would have had.
    pub exit_code: i32,
}

impl NativeOutput {
    /// An output with no buffers.
    pub const fn empty() -> NativeOutput {
        NativeOutput {
            stdout_ptr: std::ptr::null_mut(),
            stdout_len: 0,
            stdout_cap: 0,
            stderr_ptr: std::ptr::null_mut(),
            stderr_len: 0,
            stderr_cap: 0,
            exit_code: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_version_is_the_version() {
        assert_eq!(ABI_VERSION_C.to_str(), Ok(ABI_VERSION));
    }
}
