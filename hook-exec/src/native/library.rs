//! Reading a library once: hashed while it streams into a sealed memory file (Linux), and the
//! identity of files already read, so an unchanged library is not read again.

use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use hook_config::Handler;
use hook_config::library::{LibraryError, hash_into, open_checked};

use super::library_path;
use super::load::PLUGINS;

/// A library read once: its digest and the sealed copy it will be loaded from.
#[derive(Debug)]
pub(crate) struct OpenedLibrary {
    pub(super) path: PathBuf,
    pub(super) sha256: String,
    /// Linux: the sealed memory file holding exactly the hashed bytes. Elsewhere: `None`, and
    /// the library is loaded from `path`.
    pub(super) image: Option<File>,
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
pub(super) async fn open_path(path: PathBuf) -> Result<OpenedLibrary, LibraryError> {
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
    if let Some(sha256) = identity.as_ref().and_then(loaded_digest) {
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
        remember(identity, &after, started, &sha256);
    }
    Ok(OpenedLibrary {
        path,
        sha256,
        image,
    })
}

/// What identifies a file's content without reading it: `hook_fs::FileStamp` (device,
/// inode, size, modification and status-change times).
type FileIdentity = hook_fs::FileStamp;

/// Digests of library files whose bytes were hashed, by their identity then.
static DIGESTS: LazyLock<Mutex<HashMap<FileIdentity, String>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The digest of the file of identity `identity`, when its bytes were hashed and loaded before
/// and it has not changed since.
fn loaded_digest(identity: &FileIdentity) -> Option<String> {
    let digest = DIGESTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(identity)
        .cloned()?;
    let plugins = PLUGINS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    plugins.contains_key(&digest).then_some(digest)
}

/// Remembers `sha256` for `identity` when the file was the same after the read (`after`) and
/// had settled before it began (`started`, see `FileStamp::settled`); otherwise the next run
/// reads it again.
fn remember(
    identity: FileIdentity,
    after: &std::fs::Metadata,
    started: std::time::SystemTime,
    sha256: &str,
) {
    if FileIdentity::of(after).as_ref() != Some(&identity) || !identity.settled(started) {
        return;
    }
    DIGESTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(identity, sha256.to_owned());
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
