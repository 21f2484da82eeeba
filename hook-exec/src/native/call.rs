//! Calling a loaded plugin: the ABI's call, the output caps, the plugin freeing its buffers.

use hook_protocol::Dialect;
use hook_protocol::native_abi::NativeOutput;

use super::load::load;
use super::{NativeError, NativeReply, OpenedLibrary};
use crate::command::OUTPUT_CAP;

/// Loads (once) and calls the plugin; runs on a blocking thread.
pub(super) fn call(
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
