//! Reading a library once: hashed while it streams into a sealed memory file (Linux), and the
//! identity of files already read, so an unchanged library is not read again.

use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

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
