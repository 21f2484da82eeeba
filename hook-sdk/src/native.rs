//! The native plugin ABI: a hook built as a `cdylib` and called in-process by `hook-exec`.
//!
//! [`export_native!`](crate::export_native) defines three C symbols in the plugin:
//!
//! | symbol | signature | does |
//! |---|---|---|
//! | `hook_sdk_abi_version` | `extern "C" fn() -> *const c_char` | the ABI version, a NUL-terminated semver string ([`ABI_VERSION`]) |
//! | `hook_sdk_call` | `unsafe extern "C" fn(input: *const u8, input_len: usize, dialect: *const u8, dialect_len: usize, out: *mut NativeOutput) -> i32` | runs the hook on the event JSON; `dialect` is `wuu`, `verboo`, `lime` or empty (infer); fills `out`; returns 0, or non-zero when `out` could not be filled |
//! | `hook_sdk_free` | `unsafe extern "C" fn(out: *mut NativeOutput)` | frees the buffers of `out`, which the plugin allocated |
//!
//! The ABI (the [`NativeOutput`] struct, the version and the symbol names) is defined once, in
//! [`hook_protocol::native_abi`], and re-exported here; `hook-exec`'s loader uses the same
//! definition. The loader accepts a plugin whose ABI version is semver-compatible with its own
//! (`^plugin` matches the loader's version: same major, loader at least as new). Panics never
//! cross the boundary: the handler's are reported like the executable's (exit 1, message on
//! stderr), and any other, including one while evaluating `export_native!`'s handler or options
//! expressions, is caught in `hook_sdk_call` and reported the same way. Plugins must be built
//! with `panic = "unwind"` (the default), or a panic aborts the agent.

// The one module of the SDK that crosses a C boundary: raw buffers in, raw buffers out.
#![allow(unsafe_code)]

use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

use hook_protocol::Dialect;

use crate::Handler;
use crate::run::{Options, process};

pub use hook_protocol::native_abi::{
    ABI_VERSION, ABI_VERSION_C, NativeOutput, SYMBOL_CALL, SYMBOL_FREE, SYMBOL_VERSION,
};

/// Runs `handler` for `hook_sdk_call`; see the module docs.
///
/// # Safety
///
/// `input` must point to `input_len` readable bytes (or be null with length 0), likewise
/// `dialect`, and `out` must point to a writable [`NativeOutput`].
// Support for `export_native!`, which expands in the hook crate: public, not API.
#[doc(hidden)]
pub unsafe fn call<H: Handler>(
    handler: &H,
    options: &Options,
    input: *const u8,
    input_len: usize,
    dialect: *const u8,
    dialect_len: usize,
    out: *mut NativeOutput,
) -> i32 {
    if out.is_null() || (input.is_null() && input_len != 0) {
        return 1;
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller guarantees `input` points to `input_len` bytes (checked non-null
        // above unless the length is 0).
        let input = unsafe { bytes(input, input_len) };
        // SAFETY: as above, for `dialect`.
        let dialect = unsafe { bytes(dialect, dialect_len) };
        let mut options = options.clone();
        if !dialect.is_empty() {
            match std::str::from_utf8(dialect)
                .ok()
                .and_then(|d| d.parse::<Dialect>().ok())
            {
                Some(dialect) => options.dialect = Some(dialect),
                None => {
                    return crate::run::Emitted {
                        stdout: Vec::new(),
                        stderr: b"native hook: unknown dialect from the loader\n".to_vec(),
                        exit_code: 1,
                    };
                }
            }
        }
        process(handler, input, &options).emitted
    }));
    let emitted = outcome.unwrap_or_else(|payload| crate::run::Emitted {
        stdout: Vec::new(),
        stderr: format!(
            "native hook panicked: {}\n",
            crate::run::panic_message(&*payload)
        )
        .into_bytes(),
        exit_code: 1,
    });
    let (stdout_ptr, stdout_len, stdout_cap) = into_raw(emitted.stdout);
    let (stderr_ptr, stderr_len, stderr_cap) = into_raw(emitted.stderr);
    let output = NativeOutput {
        stdout_ptr,
        stdout_len,
        stdout_cap,
        stderr_ptr,
        stderr_len,
        stderr_cap,
        exit_code: emitted.exit_code,
    };
    // SAFETY: `out` is non-null (checked above) and the caller guarantees it is writable.
    unsafe { out.write(output) };
    0
}

/// Runs `body` (which evaluates `export_native!`'s handler and options, then [`call`]s) so that
/// no panic unwinds across the C ABI: a panic fills `out` like a panicking handler (exit 1,
/// `native hook panicked: ...` on stderr) and returns 0; a null `out` returns 1.
///
/// # Safety
///
/// `out` must be null or point to a writable [`NativeOutput`] that `body` has not filled (a
/// panic inside [`call`] is already caught there, so `body` panics only before filling it).
// Support for `export_native!`, which expands in the hook crate: public, not API.
#[doc(hidden)]
pub unsafe fn guarded(out: *mut NativeOutput, body: impl FnOnce() -> i32) -> i32 {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(status) => status,
        Err(payload) => {
            if out.is_null() {
                return 1;
            }
            let message = format!(
                "native hook panicked: {}\n",
                crate::run::panic_message(&*payload)
            );
            let (stderr_ptr, stderr_len, stderr_cap) = into_raw(message.into_bytes());
            let output = NativeOutput {
                stderr_ptr,
                stderr_len,
                stderr_cap,
                exit_code: 1,
                ..NativeOutput::empty()
            };
            // SAFETY: `out` is non-null (checked above) and the caller guarantees it is writable.
            unsafe { out.write(output) };
            0
        }
    }
}

/// Frees the buffers of an output filled by [`call`], for `hook_sdk_free`.
///
/// # Safety
///
/// `out` must be null or point to a [`NativeOutput`] filled by [`call`] of this same plugin
/// and not freed since.
// Support for `export_native!`, which expands in the hook crate: public, not API.
#[doc(hidden)]
pub unsafe fn free(out: *mut NativeOutput) {
    if out.is_null() {
        return;
    }
    // SAFETY: the caller guarantees `out` points to an output `call` filled.
    let output = unsafe { &mut *out };
    // SAFETY: the pointers, lengths and capacities come from `into_raw` of `Vec<u8>`s allocated
    // by this plugin's allocator, and are nulled below so they are freed once.
    unsafe {
        drop_raw(output.stdout_ptr, output.stdout_len, output.stdout_cap);
        drop_raw(output.stderr_ptr, output.stderr_len, output.stderr_cap);
    }
    *output = NativeOutput::empty();
}

unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `ptr` points to `len` readable bytes.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

fn into_raw(bytes: Vec<u8>) -> (*mut u8, usize, usize) {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    (bytes.as_mut_ptr(), bytes.len(), bytes.capacity())
}

unsafe fn drop_raw(ptr: *mut u8, len: usize, cap: usize) {
    if !ptr.is_null() {
        // SAFETY: the caller guarantees these are the parts of a leaked `Vec<u8>`.
        drop(unsafe { Vec::from_raw_parts(ptr, len, cap) });
    }
}

/// The version string, for `hook_sdk_abi_version`.
// Support for `export_native!`, which expands in the hook crate: public, not API.
#[doc(hidden)]
pub fn abi_version_ptr() -> *const c_char {
    ABI_VERSION_C.as_ptr()
}

/// Exports `handler` (a `fn(&Event) -> Response`, or any [`Handler`]) as a native plugin: put
/// it at the root of a crate built as a `cdylib` (with `panic = "unwind"`, the default), and
/// configure it as `{"type": "native", "library": "path/to/libname.so"}`.
///
/// ```ignore
/// fn handle(event: &hook_sdk::Event) -> hook_sdk::Response { hook_sdk::Response::none() }
/// hook_sdk::export_native!(handle);
/// // or, with options: hook_sdk::export_native!(handle, hook_sdk::Options::default().fail_closed());
/// ```
#[macro_export]
macro_rules! export_native {
    ($handler:expr) => {
        $crate::export_native!($handler, $crate::Options::default());
    };
    ($handler:expr, $options:expr) => {
        /// The native hook ABI version (see `hook_sdk::native`).
        #[allow(unsafe_code)] // A C symbol: `no_mangle` is how the loader finds it.
        #[unsafe(no_mangle)]
        pub extern "C" fn hook_sdk_abi_version() -> *const ::std::ffi::c_char {
            $crate::native::abi_version_ptr()
        }

        /// Runs the hook on one event (see `hook_sdk::native`).
        ///
        /// # Safety
        ///
        /// See `hook_sdk::native::call`.
        #[allow(unsafe_code)] // A C symbol called by the loader with raw buffers.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn hook_sdk_call(
            input: *const u8,
            input_len: usize,
            dialect: *const u8,
            dialect_len: usize,
            out: *mut $crate::native::NativeOutput,
        ) -> i32 {
            // The handler and options are evaluated inside `guarded`, so their panics are
            // caught too.
            let body = || {
                let options: $crate::Options = $options;
                // SAFETY: the loader passes buffers valid for the lengths given and a writable
                // output, as `hook_sdk::native::call` requires.
                unsafe {
                    $crate::native::call(
                        &$handler,
                        &options,
                        input,
                        input_len,
                        dialect,
                        dialect_len,
                        out,
                    )
                }
            };
            // SAFETY: the loader passes a writable output (or null), as `guarded` requires.
            unsafe { $crate::native::guarded(out, body) }
        }

        /// Frees an output of `hook_sdk_call` (see `hook_sdk::native`).
        ///
        /// # Safety
        ///
        /// See `hook_sdk::native::free`.
        #[allow(unsafe_code)] // A C symbol called by the loader with the output it was given.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn hook_sdk_free(out: *mut $crate::native::NativeOutput) {
            // SAFETY: the loader passes back an output this plugin filled, once.
            unsafe { $crate::native::free(out) }
        }
    };
}
