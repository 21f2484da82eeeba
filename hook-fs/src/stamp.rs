//! File stamps: what identifies a file's content without reading it.

use std::fs::Metadata;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// What identifies a file's content without reading it: device, inode, size, modification and
/// status-change times to the nanosecond. Any write, `chmod`, rename over the file or `touch`
/// changes the status-change time, which no unprivileged call can set; a replaced file has a
/// new inode. Serialized with the field names `dev`, `ino`, `size`, `mtime`, `mtime_ns`,
/// `ctime`, `ctime_ns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileStamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: i64,
    mtime_ns: i64,
    ctime: i64,
    ctime_ns: i64,
}

impl FileStamp {
    /// A stamp's last change must be at least this old for the stamp to stand for the content
    /// ([`settled`](Self::settled)): 2 s (git's "racy clean" rule for coarse timestamps).
    pub const SETTLE: Duration = Duration::from_secs(2);

    /// The stamp of the file whose metadata is `meta` (take it from the open descriptor);
    /// `None` where the platform has no inode numbers (Windows).
    pub fn of(meta: &Metadata) -> Option<FileStamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileStamp {
                dev: meta.dev(),
                ino: meta.ino(),
                size: meta.size(),
                mtime: meta.mtime(),
                mtime_ns: meta.mtime_nsec(),
                ctime: meta.ctime(),
                ctime_ns: meta.ctime_nsec(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }

    /// The stamp of the file at `path`, following links; `None` when it cannot be read.
    pub fn of_path(path: &Path) -> Option<FileStamp> {
        std::fs::metadata(path).ok().as_ref().and_then(Self::of)
    }

    /// Whether `other` is the same file (device and inode), whatever its content.
    pub fn same_file(&self, other: &FileStamp) -> bool {
        self.dev == other.dev && self.ino == other.ino
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The device and inode numbers.
    pub fn identity(&self) -> (u64, u64) {
        (self.dev, self.ino)
    }

    /// Whether the file's last change is at least [`SETTLE`](Self::SETTLE) before `now`, so
    /// a later change in the same clock tick cannot leave the stamp unchanged.
    pub fn settled(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Ok(changed) = u64::try_from(self.ctime) else {
            return false;
        };
        changed.saturating_add(Self::SETTLE.as_secs()) <= now.as_secs()
    }
}
