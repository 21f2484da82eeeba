//! Reading one configuration file from disk, bounded, the same way for every file the loader
//! reads (user, project, local, managed, `plugin.json`, plugin `hooks.json`) and for
//! [`crate::read_hooks_file`] (`hook validate --config`, `hook convert`).
//!
//! Hostile input: a configuration file must be a regular file after following
//! symlinks, of at most [`MAX_FILE_BYTES`], and UTF-8 text. The file is opened first (on Unix
//! with `O_NONBLOCK | O_NOCTTY`, so a FIFO never blocks the open and a terminal never becomes
//! the controlling one), then checked through the opened descriptor (`fstat`, no race with a
//! swapped path), then read through a reader that stops past the cap, so `/dev/zero`, a FIFO,
//! a growing file or a huge file are refused without reading them.
//!
//! The managed layer is also checked for ownership ([`Owner`]): the administrator's policy is
//! honoured only from a file owned by root and not group- or world-writable.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

use crate::diagnostic::{Diagnostic, LineIndex, Pos};

/// The largest configuration file read: 8 MiB.
pub(crate) const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Who must own a file for it to be honoured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// Anyone: user, project, local and plugin files (trust decides whether their hooks run).
    Anyone,
    /// The managed file at its fixed system path: root, and not group- or world-writable.
    Root,
    /// A managed file the embedder named through the API: root or the effective user (the
    /// embedder vouches for the path; the tests of any user need it), and not group- or
    /// world-writable.
    RootOrSelf,
}

/// Why a configuration file was not read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The operating system refused (missing, permission denied...).
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    /// A directory, FIFO, device or socket.
    #[error(
        "is {kind}, not a regular file: a configuration file must be a regular file (after following symlinks); replace it with one"
    )]
    NotRegular {
        /// What it is.
        kind: &'static str,
    },
    /// Over [`MAX_FILE_BYTES`].
    #[error(
        "is {size} bytes, over the {MAX_FILE_BYTES}-byte (8 MiB) limit of a configuration file; make it smaller"
    )]
    TooLarge {
        /// Its size (at least the cap plus one when it grew while being read).
        size: u64,
    },
    /// Not UTF-8.
    #[error("is not UTF-8 text ({source}); save it as UTF-8")]
    NotUtf8 {
        /// The first invalid byte.
        pos: Pos,
        /// The decoder's reason.
        #[source]
        source: std::str::Utf8Error,
    },
    /// A managed file owned by someone who is not allowed to set the policy.
    #[error(
        "is owned by uid {uid}, not by root{also}: a managed policy must be owned by root (`sudo chown root` it)"
    )]
    NotRootOwned {
        /// The owner.
        uid: u32,
        /// `" or by you"` when the effective user is allowed too.
        also: &'static str,
    },
    /// A managed file others can write.
    #[error(
        "is writable by its group or by everyone (mode {mode:o}): a managed policy must not be (`sudo chmod go-w` it)"
    )]
    Writable {
        /// Its permission bits.
        mode: u32,
    },
}

impl ReadError {
    /// Whether the file simply does not exist (an empty layer, not a problem).
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }

    /// Where in the file the problem is, when it is inside the text.
    pub(crate) fn pos(&self) -> Option<Pos> {
        match self {
            ReadError::NotUtf8 { pos, .. } => Some(*pos),
            _ => None,
        }
    }

    /// This error as a diagnostic of `path`, followed by `consequence` (`file skipped`...).
    pub(crate) fn diagnostic(&self, path: &Path, consequence: &str) -> Diagnostic {
        let mut message = self.to_string();
        if let ReadError::Io(_) = self {
            // "cannot read: ..." already reads well.
        } else {
            message = format!("the file {message}");
        }
        Diagnostic::error(
            path.display().to_string(),
            self.pos(),
            format!("{message}; {consequence}"),
        )
    }
}

/// Reads the configuration file at `path` as text, bounded and checked (see the module docs).
pub(crate) fn read_config_text(path: &Path, owner: Owner) -> Result<String, ReadError> {
    let file = open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            kind: kind_of(&meta),
        });
    }
    check_owner(&meta, owner)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { size: meta.len() });
    }
    let capacity = usize::try_from(meta.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { size: read });
    }
    String::from_utf8(bytes).map_err(|error| {
        let source = error.utf8_error();
        let valid = source.valid_up_to();
        let prefix = std::str::from_utf8(&error.as_bytes()[..valid])
            .expect("the bytes before valid_up_to are valid UTF-8");
        ReadError::NotUtf8 {
            pos: LineIndex::new(prefix).pos(valid),
            source,
        }
    })
}

/// Opens for reading without blocking on a FIFO and without acquiring a terminal.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

fn kind_of(meta: &Metadata) -> &'static str {
    let file_type = meta.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(unix)]
fn check_owner(meta: &Metadata, owner: Owner) -> Result<(), ReadError> {
    use std::os::unix::fs::MetadataExt;
    let also = match owner {
        Owner::Anyone => return Ok(()),
        Owner::Root => "",
        Owner::RootOrSelf => " or by you",
    };
    let uid = meta.uid();
    let allowed = uid == 0 || (owner == Owner::RootOrSelf && uid == effective_uid());
    if !allowed {
        return Err(ReadError::NotRootOwned { uid, also });
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(ReadError::Writable { mode });
    }
    Ok(())
}

/// Windows has no uid or mode bits: the managed file's folder ACLs are the administrator's.
#[cfg(not(unix))]
fn check_owner(_meta: &Metadata, _owner: Owner) -> Result<(), ReadError> {
    Ok(())
}

#[cfg(unix)]
fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}
