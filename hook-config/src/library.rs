//! Reading a native hook library the way the engine loads it and trust hashes it: one
//! implementation for both (`hook-exec` streams it into a sealed memory file while hashing;
//! `hook-trust` only hashes it), so what trust approves is what the engine loads.
//!
//! The path must name a regular file (a FIFO or a device is refused without being read or
//! waited for: it is opened `O_NONBLOCK | O_NOCTTY` and checked through the open descriptor)
//! of at most [`LIBRARY_SIZE_CAP`] bytes; it is hashed (SHA-256) as it streams, never held
//! whole in memory.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The largest native library read, hashed or loaded: 256 MiB (a release build of a hook is a
/// few MiB; the cap bounds what a project's `library` can make the engine read).
pub const LIBRARY_SIZE_CAP: u64 = 256 * 1024 * 1024;

/// A native library could not be read (nothing was loaded). Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LibraryError {
    /// The handler names no library.
    #[error("the native handler has no `library`: name the shared library built with hook-sdk")]
    Missing,
    /// The file cannot be opened (missing, not readable).
    #[error("native library {} cannot be opened: {source}; check the handler's `library` (relative paths are relative to the folder of the file that declares it, or the plugin folder)", path.display())]
    Open {
        /// The library's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not a regular file: a device, FIFO, socket or folder is never read.
    #[error("native library {} is not a regular file but a {kind}; `library` must name a shared library file", path.display())]
    NotRegular {
        /// The library's path.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// Larger than [`LIBRARY_SIZE_CAP`].
    #[error("native library {} is larger than the {} MiB cap (at least {size} bytes); a hook library is far smaller: check `library`", path.display(), LIBRARY_SIZE_CAP / (1024 * 1024))]
    TooLarge {
        /// The library's path.
        path: PathBuf,
        /// Its size (or how much was read before the cap).
        size: u64,
    },
    /// Reading failed midway.
    #[error("native library {} cannot be read: {source}", path.display())]
    Read {
        /// The library's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The in-memory copy the library is loaded from could not be made.
    #[error("native library {}: cannot copy it into memory to load it ({source}); the engine loads only the bytes it hashed", path.display())]
    Memory {
        /// The library's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The hex SHA-256 of the native library at `path`, read as the engine reads it before loading
/// it: a regular file of at most [`LIBRARY_SIZE_CAP`] bytes, streamed (never whole in memory);
/// a FIFO or a device is refused without being read or waited for.
///
/// # Errors
/// Every [`LibraryError`] but `Missing` and `Memory`: the file cannot be opened or read, is
/// not a regular file, or is over the cap.
///
/// ```
/// let error = hook_config::library::library_digest("/dev/zero".as_ref()).unwrap_err();
/// assert!(error.to_string().contains("not a regular file"), "{error}");
/// ```
pub fn library_digest(path: &Path) -> Result<String, LibraryError> {
    stream(path, &mut std::io::sink(), |error| LibraryError::Read {
        path: path.to_path_buf(),
        source: error,
    })
}

/// Opens `path` without blocking and checks, on the open file, that it is a regular file
/// under the cap.
///
/// # Errors
/// [`LibraryError::Open`], [`LibraryError::Read`] (no metadata), [`LibraryError::NotRegular`],
/// [`LibraryError::TooLarge`].
pub fn open_checked(path: &Path) -> Result<(File, std::fs::Metadata), LibraryError> {
    let (file, metadata) =
        hook_fs::open_regular(path, hook_fs::Links::Follow).map_err(|error| match error {
            hook_fs::ReadError::NotRegular { kind } => LibraryError::NotRegular {
                path: path.to_path_buf(),
                // `a FIFO` is said `but a FIFO` here, a directory `a folder`.
                kind: match kind {
                    "a directory" => "folder",
                    other => other.strip_prefix("a ").unwrap_or(other),
                },
            },
            hook_fs::ReadError::Io(source) => LibraryError::Open {
                path: path.to_path_buf(),
                source,
            },
            other => LibraryError::Open {
                path: path.to_path_buf(),
                source: std::io::Error::other(other),
            },
        })?;
    if metadata.len() > LIBRARY_SIZE_CAP {
        return Err(LibraryError::TooLarge {
            path: path.to_path_buf(),
            size: metadata.len(),
        });
    }
    Ok((file, metadata))
}

/// Opens `path` (see [`open_checked`]) and copies it to `sink` while hashing it; `sink_error`
/// wraps a failed write.
fn stream(
    path: &Path,
    sink: &mut impl Write,
    sink_error: impl Fn(std::io::Error) -> LibraryError,
) -> Result<String, LibraryError> {
    let (file, _) = open_checked(path)?;
    hash_into(&file, path, sink, sink_error)
}

/// Reads `file` to its end (at most the cap), hashing it and copying it to `sink`; returns the
/// hex SHA-256. The engine's loader copies into a sealed memory file, [`library_digest`] into
/// nothing: both hash the same way.
///
/// # Errors
/// [`LibraryError::Read`], [`LibraryError::TooLarge`] (the file grew past the cap), or what
/// `sink_error` makes of a failed write.
pub fn hash_into(
    file: &File,
    path: &Path,
    sink: &mut impl Write,
    sink_error: impl Fn(std::io::Error) -> LibraryError,
) -> Result<String, LibraryError> {
    // The cap holds even if the file grows while it is read.
    let mut reader = file.take(LIBRARY_SIZE_CAP + 1);
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total: u64 = 0;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(LibraryError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        total += n as u64;
        if total > LIBRARY_SIZE_CAP {
            return Err(LibraryError::TooLarge {
                path: path.to_path_buf(),
                size: total,
            });
        }
        let chunk = &buffer[..n];
        hasher.update(chunk);
        sink.write_all(chunk).map_err(&sink_error)?;
    }
    Ok(hex::encode(hasher.finalize()))
}
