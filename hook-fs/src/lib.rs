//! The hook engine's safe filesystem: the one place its crates open, create and lock the files
//! a hostile project, hook or other process could have replaced.
//!
//! An internal component of the hook engine (as `uv-fs` is uv's and `gix-fs` gitoxide's):
//! `hook-config`, `hook-trust`, `hook-exec` and the `hook` command open their private files,
//! their locks and the files they read back through these functions, so each rule below is
//! written, hardened and tested once. Its API follows what those crates need.
//!
//! - **Private folders** ([`private_folder`]): created 0700 when missing; an existing one is
//!   used only if it is a real directory (not a symlink), owned by the effective user, and not
//!   writable by group or others. [`create_private_temp_dir`] makes a new one of a random name.
//! - **Private files** ([`create_new_private`], [`open_private_append`]): 0600, a final symlink
//!   never followed (`O_NOFOLLOW`), opened `O_NONBLOCK | O_NOCTTY` so a FIFO or a terminal
//!   planted in their place never blocks the open nor becomes the controlling terminal, then
//!   checked through the open descriptor (`fstat`) to be a regular file.
//! - **Locks** ([`open_lock`]): a lock file opened as a private file, then an exclusive
//!   `flock`/`LockFileEx` taken as the caller's [`LockPolicy`] says: at once or not at all
//!   ([`LockPolicy::Immediate`]: the answer path of a front end never waits), or retried until
//!   a deadline ([`LockPolicy::Wait`]). There is no unbounded blocking lock here.
//! - **Reads** ([`open_regular`], [`read_capped`], [`Lines`]): a regular file opened without
//!   blocking, read to a cap or line by line with a cap on each line, so `/dev/zero`, a FIFO or
//!   a 400 MiB file costs at most the cap.
//! - **Identity** ([`FileStamp`]): device, inode, size, modification and status-change times,
//!   and whether the file has *settled* (its last change is old enough that a change in the same
//!   clock tick cannot hide behind the stamp).
//! - **Digests** ([`sha256_capped`], [`digest_file`]): SHA-256 streamed under a cap.
//! - **Durability** ([`sync_dir`]): a folder synced after a rename into it.
//!
//! Folders, files and locks fail with [`FsError`], which names the path and the fix; reads with
//! [`ReadError`], whose text reads after the path the caller names. What a configuration file
//! must be beyond this (its owner, UTF-8, its size) is `hook-config`'s `read_config_text`.
//!
//! # Example
//!
//! ```
//! use hook_fs::{Links, LockPolicy, ReadError, open_lock, open_regular, private_folder, read_capped};
//! use std::io::Write;
//!
//! let home = tempfile::tempdir()?;
//! let state = home.path().join("state");
//! private_folder(&state)?; // created 0700
//!
//! // One writer at a time: a second lock, taken at once, is refused while this one is held.
//! let lock = open_lock(&state.join("journal.lock"), LockPolicy::Immediate)?;
//! assert!(open_lock(&state.join("journal.lock"), LockPolicy::Immediate).is_err());
//!
//! let mut journal = hook_fs::open_private_append(&state.join("journal.jsonl"))?;
//! journal.write_all(b"{\"event\":\"Stop\"}\n")?;
//! drop(lock);
//!
//! // Read back under a cap: 64 bytes is enough, 8 is refused without reading the rest.
//! let (file, meta) = open_regular(&state.join("journal.jsonl"), Links::Refuse)?;
//! assert_eq!(read_capped(file, &meta, 64, "a journal")?.len(), 17);
//! let (file, meta) = open_regular(&state.join("journal.jsonl"), Links::Refuse)?;
//! assert!(matches!(read_capped(file, &meta, 8, "a journal"), Err(ReadError::TooLarge { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Limitations
//!
//! - On Windows the mode bits, the owner check and `O_NOFOLLOW` do not exist: the files are
//!   opened as the platform allows and still checked to be regular files; [`FileStamp::of`] is
//!   `None` there and [`sync_dir`] does nothing.
//! - The checks are on the final component: a folder higher up the path that another user can
//!   write is not looked at (`hook-config`'s `read_config_text` checks a managed file's folder).
//! - [`LockPolicy::Wait`] polls (at most 20 ms between tries): a lock is not handed over the
//!   moment it is released.

mod digest;
mod error;
mod lines;
mod lock;
mod private;
mod read;
mod stamp;

pub use digest::{Digested, digest_file, sha256_capped};
pub use error::{FsError, ReadError};
pub use lines::{Line, Lines};
pub use lock::{FileLock, LockPolicy, open_lock};
#[cfg(unix)]
pub use private::effective_uid;
pub use private::{
    create_folders_0700, create_new_private, create_private_temp_dir, open_append,
    open_private_append, private_folder, sync_dir,
};
pub use read::{Links, kind_of, open_regular, read_capped};
pub use stamp::FileStamp;
