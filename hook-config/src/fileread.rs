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
//! The managed layer is also checked for ownership ([`FileOwner`]): the administrator's policy
//! is honoured only from a file owned by root and not group- or world-writable, in a folder
//! owned by root and not group- or world-writable either (a 0777 `/etc/lime` would let anyone
//! remove or swap the policy file).
//!
//! Opening and the capped read are `hook-fs`'s ([`hook_fs::open_regular`],
//! [`hook_fs::read_capped`]); what a configuration file must be beyond a regular file under a
//! cap (UTF-8, its owner, its folder) is this module's. [`read_config_text`] is public for the
//! engine's other files that a hostile process could replace: `hook-trust` reads its stores
//! with it and [`FileOwner::RootOrSelf`].

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use hook_fs::{Links, ReadError, open_regular, read_capped};

use crate::diagnostic::{Diagnostic, LineIndex, Pos};

/// The largest configuration file read: 8 MiB.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Who must own a file (and its folder) for it to be honoured. Closed on purpose: a new kind of
/// owner is a new security rule every caller must choose knowingly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOwner {
    /// Anyone: user, project, local and plugin files (trust decides whether their hooks run).
    Anyone,
    /// The managed file at its fixed system path: root, and not group- or world-writable.
    Root,
    /// A managed file the embedder named through the API, or a trust store: root or the
    /// effective user (the embedder vouches for the path; the tests of any user need it), and
    /// not group- or world-writable; its folder likewise.
    RootOrSelf,
}

/// Why a file was not read. Its text reads after the file's name (`<path> is a FIFO, ...`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileReadError {
    /// The operating system refused (missing, permission denied...).
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    /// A directory, FIFO, device or socket (or, opened without following links, a symlink).
    #[error("is {kind}, not a regular file: it must be a regular file; replace it with one")]
    NotRegular {
        /// What it is.
        kind: &'static str,
    },
    /// Over the cap ([`MAX_FILE_BYTES`] for a configuration file).
    #[error("is {size} bytes, over the {cap}-byte ({}) limit of {what}; make it smaller", mib(*cap))]
    TooLarge {
        /// Its size (at least the cap plus one when it grew while being read).
        size: u64,
        /// The cap.
        cap: u64,
        /// What kind of file has this cap (`a configuration file`).
        what: &'static str,
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
    /// A file with an owner rule (a managed policy, a trust store) owned by someone else.
    #[error(
        "is owned by uid {uid}, not by root{also}: another user could change it (`sudo chown root` it)"
    )]
    NotRootOwned {
        /// The owner.
        uid: u32,
        /// `" or by you"` when the effective user is allowed too.
        also: &'static str,
    },
    /// A file with an owner rule that others can write.
    #[error(
        "is writable by its group or by everyone (mode {mode:o}): others could change it (`chmod go-w` it)"
    )]
    Writable {
        /// Its permission bits.
        mode: u32,
    },
    /// The folder of a file that must be owned by root (or you) is another user's, or others
    /// can write it: they could remove or replace the file.
    #[error(
        "is in the folder {}, which {problem}: whoever can write that folder can remove or replace the file (`sudo chown root {} && sudo chmod go-w {}`, or use a folder of your own)", folder.display(), folder.display(), folder.display()
    )]
    UnsafeFolder {
        /// The folder.
        folder: PathBuf,
        /// `is owned by uid N` or `is writable by its group or by everyone (mode 777)`.
        problem: String,
    },
}

/// `8 MiB` (or `1.5 MiB`) for a cap in bytes.
fn mib(cap: u64) -> String {
    let whole = cap / (1024 * 1024);
    if whole * 1024 * 1024 == cap {
        format!("{whole} MiB")
    } else {
        format!("{cap} bytes")
    }
}

impl FileReadError {
    /// The same failure of `hook-fs`'s open or capped read, with the same text. A function, not
    /// a `From`: a public impl would put `hook-fs` in this crate's API.
    pub(crate) fn from_read(error: ReadError) -> Self {
        match error {
            ReadError::Io(source) => FileReadError::Io(source),
            ReadError::NotRegular { kind } => FileReadError::NotRegular { kind },
            ReadError::TooLarge { size, cap, what } => FileReadError::TooLarge { size, cap, what },
            // `ReadError` is non-exhaustive: a new failure keeps its text.
            other => FileReadError::Io(std::io::Error::other(other)),
        }
    }

    /// Whether the file simply does not exist (an empty layer, not a problem).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }

    /// Where in the file the problem is, when it is inside the text.
    pub(crate) fn pos(&self) -> Option<Pos> {
        match self {
            FileReadError::NotUtf8 { pos, .. } => Some(*pos),
            _ => None,
        }
    }

    /// This error as a diagnostic of `path`, followed by `consequence` (`file skipped`...).
    pub(crate) fn diagnostic(&self, path: &Path, consequence: &str) -> Diagnostic {
        let mut message = self.to_string();
        if let FileReadError::Io(_) = self {
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

/// Reads the configuration file at `path` as text, bounded and checked (see the module docs):
/// a regular file (symlinks followed) of at most [`MAX_FILE_BYTES`], UTF-8, owned as `owner`
/// requires.
///
/// # Errors
///
/// [`FileReadError`]: the file cannot be opened (`Io`, `NotFound` when missing), is not a
/// regular file, is too large, is not UTF-8, or its owner, mode or folder is not allowed.
pub fn read_config_text(path: &Path, owner: FileOwner) -> Result<String, FileReadError> {
    let (file, meta) = open_regular(path, Links::Follow).map_err(FileReadError::from_read)?;
    check_owner(&meta, owner)?;
    check_folder(path, owner)?;
    let bytes = read_capped(file, &meta, MAX_FILE_BYTES, "a configuration file")
        .map_err(FileReadError::from_read)?;
    String::from_utf8(bytes).map_err(|error| {
        let source = error.utf8_error();
        let valid = source.valid_up_to();
        let prefix = std::str::from_utf8(&error.as_bytes()[..valid])
            .expect("the bytes before valid_up_to are valid UTF-8");
        FileReadError::NotUtf8 {
            pos: LineIndex::new(prefix).pos(valid),
            source,
        }
    })
}

#[cfg(unix)]
fn check_owner(meta: &Metadata, owner: FileOwner) -> Result<(), FileReadError> {
    use std::os::unix::fs::MetadataExt;
    let also = match owner {
        FileOwner::Anyone => return Ok(()),
        FileOwner::Root => "",
        FileOwner::RootOrSelf => " or by you",
    };
    let uid = meta.uid();
    if !owner_allowed(uid, owner) {
        return Err(FileReadError::NotRootOwned { uid, also });
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(FileReadError::Writable { mode });
    }
    Ok(())
}

#[cfg(unix)]
fn owner_allowed(uid: u32, owner: FileOwner) -> bool {
    uid == 0 || (owner == FileOwner::RootOrSelf && uid == hook_fs::effective_uid())
}

/// The folder of a file with an owner rule follows the same rule: owned by root (or you), and
/// not writable by group or others (sticky or not), so nobody else can remove or swap the file.
/// When the path is a symlink, the folder of the link and the folder of the file it leads to
/// are both checked.
#[cfg(unix)]
fn check_folder(path: &Path, owner: FileOwner) -> Result<(), FileReadError> {
    if owner == FileOwner::Anyone {
        return Ok(());
    }
    check_one_folder(&folder_of(path), owner)?;
    if let Ok(real) = std::fs::canonicalize(path) {
        let real_folder = folder_of(&real);
        if real_folder != folder_of(path) {
            check_one_folder(&real_folder, owner)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(unix)]
fn check_one_folder(folder: &Path, owner: FileOwner) -> Result<(), FileReadError> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(folder).map_err(FileReadError::Io)?;
    let problem = if !owner_allowed(meta.uid(), owner) {
        format!("is owned by uid {}", meta.uid())
    } else if meta.mode() & 0o022 != 0 {
        format!(
            "is writable by its group or by everyone (mode {:o})",
            meta.mode() & 0o7777
        )
    } else {
        return Ok(());
    };
    Err(FileReadError::UnsafeFolder {
        folder: folder.to_path_buf(),
        problem,
    })
}

/// Windows has no uid or mode bits: the managed file's folder ACLs are the administrator's.
#[cfg(not(unix))]
fn check_owner(_meta: &Metadata, _owner: FileOwner) -> Result<(), FileReadError> {
    Ok(())
}

#[cfg(not(unix))]
fn check_folder(_path: &Path, _owner: FileOwner) -> Result<(), FileReadError> {
    Ok(())
}
