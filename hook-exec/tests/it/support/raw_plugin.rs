//! Native plugins for the tests, compiled once per test binary with `rustc` alone (no
//! dependency, so a build takes a second): each implements the ABI of
//! `hook_protocol::native_abi` by hand and answers with a fixed exit code and stderr.
//!
//! Shared by `hook-exec`'s and `hook-trust`'s tests (the latter include this file by path).
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// What a test plugin answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Answer {
    /// Its exit code.
    pub exit_code: i32,
    /// Its stderr.
    pub stderr: &'static str,
    /// The stdout length it reports (its stdout buffer is 4 bytes): a lie when over 4.
    pub stdout_len: usize,
}

impl Answer {
    /// Exit 0, stderr `stderr`, no stdout.
    pub const fn ok(stderr: &'static str) -> Answer {
        Answer {
            exit_code: 0,
            stderr,
            stdout_len: 0,
        }
    }

    /// Exit 2 (a block), stderr `stderr`.
    pub const fn block(stderr: &'static str) -> Answer {
        Answer {
            exit_code: 2,
            stderr,
            stdout_len: 0,
        }
    }
}

/// The path of the compiled plugin giving `answer` (built on first use, then reused). Copy it
/// where a test needs it.
pub fn raw_plugin(answer: Answer) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<Answer, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(&answer) {
        return path.clone();
    }
    let path = compile(answer);
    built.insert(answer, path.clone());
    path
}

fn compile(answer: Answer) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "raw-plugins-{}-{}",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_CRATE_NAME"),
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let label: String = answer
        .stderr
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b.to_ascii_lowercase())
            } else {
                'x'
            }
        })
        .collect();
    let name = format!("hook{}x{label}x{}", answer.exit_code, answer.stdout_len);
    let source = format!(
        r#"
use std::ffi::c_char;
#[repr(C)]
pub struct NativeOutput {{
    stdout_ptr: *mut u8, stdout_len: usize, stdout_cap: usize,
    stderr_ptr: *mut u8, stderr_len: usize, stderr_cap: usize,
    exit_code: i32,
}}
static STDOUT: [u8; 4] = *b"    ";
static STDERR: &[u8] = {stderr:?}.as_bytes();
#[unsafe(no_mangle)]
pub extern "C" fn hook_sdk_abi_version() -> *const c_char {{ c"1.0.0".as_ptr() }}
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hook_sdk_call(
    _input: *const u8, _input_len: usize, _dialect: *const u8, _dialect_len: usize,
    out: *mut NativeOutput,
) -> i32 {{
    let output = NativeOutput {{
        stdout_ptr: STDOUT.as_ptr() as *mut u8, stdout_len: {stdout_len}, stdout_cap: 0,
        stderr_ptr: STDERR.as_ptr() as *mut u8, stderr_len: STDERR.len(), stderr_cap: 0,
        exit_code: {exit_code},
    }};
    unsafe {{ out.write(output) }};
    0
}}
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hook_sdk_free(_out: *mut NativeOutput) {{}}
"#,
        stderr = answer.stderr,
        stdout_len = answer.stdout_len,
        exit_code = answer.exit_code,
    );
    build(&dir, &name, &source)
}

/// A plugin named `name` that reports ABI version `abi` and whose `hook_sdk_call` runs `body`
/// (Rust statements ending in the `i32` status it returns; it never fills `out`). For the
/// failures a well-behaved plugin never shows: a foreign ABI, a refusal, a call that hangs.
pub fn custom_plugin(name: &str, abi: &str, body: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "raw-plugins-{}-{}",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_CRATE_NAME"),
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let source = format!(
        r#"
use std::ffi::{{c_char, c_void}};
#[unsafe(no_mangle)]
pub extern "C" fn hook_sdk_abi_version() -> *const c_char {{ c"{abi}".as_ptr() }}
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hook_sdk_call(
    _input: *const u8, _input_len: usize, _dialect: *const u8, _dialect_len: usize,
    _out: *mut c_void,
) -> i32 {{
    {body}
}}
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hook_sdk_free(_out: *mut c_void) {{}}
"#
    );
    build(&dir, name, &source)
}

/// Compiles `source` into the library `name` in `dir`.
fn build(dir: &Path, name: &str, source: &str) -> PathBuf {
    // Source, objects and the partial library in a folder of this process: rustc writes its
    // objects beside the output, and test runners that start a process per test (nextest)
    // build the same plugin at once.
    let work = dir.join(format!("build-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let src = work.join(format!("{name}.rs"));
    std::fs::write(&src, source).unwrap();
    let out = dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    // Built under a temporary name, then renamed: a reader never sees half a library.
    let partial = work.join(format!("{name}.partial"));
    let status = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "cdylib",
            "--crate-name",
        ])
        .arg(name)
        .args(["-C", "debuginfo=0", "-C", "strip=debuginfo", "-o"])
        .arg(&partial)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success(), "compiling the test plugin {name} failed");
    std::fs::rename(&partial, &out).unwrap();
    out
}
