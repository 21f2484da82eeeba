//! [`NativeError`], and [`LoaderError`], the dynamic loader's error behind a type of this crate.

use std::path::PathBuf;
use std::time::Duration;

use hook_config::library::LibraryError;

#[cfg(doc)]
use super::ABI_VERSION;
#[cfg(doc)]
use crate::command::OUTPUT_CAP;

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
        source: LoaderError,
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
        source: LoaderError,
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

/// The dynamic loader's error (the library cannot be loaded, or lacks a symbol), kept behind
/// this crate's own type so the loader crate can change without changing [`NativeError`].
///
/// `Display` is the loader's message; [`std::error::Error::source`] is the loader's own cause,
/// when it has one.
#[derive(Debug)]
pub struct LoaderError(libloading::Error);

impl LoaderError {
    pub(super) fn new(error: libloading::Error) -> LoaderError {
        LoaderError(error)
    }
}

impl std::fmt::Display for LoaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for LoaderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}
