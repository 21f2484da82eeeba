//! Capped reads: a regular file opened without blocking and checked through its descriptor,
//! then read to a cap, so `/dev/zero`, a FIFO or a file that grows while it is read costs at
//! most the cap.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

use crate::ReadError;

/// Whether [`open_regular`] follows a symbolic link at the end of the path. Closed on purpose:
/// there are two ways to open a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Follow it (configuration files: dotfile managers link them).
    Follow,
    /// Refuse it (`O_NOFOLLOW`): for a file the engine made and a hook may have replaced.
    /// Unix only: Windows follows it (its target must still be a regular file).
    Refuse,
}

/// Opens `path` for reading without blocking on a FIFO (`O_NONBLOCK`), without acquiring a
/// terminal (`O_NOCTTY`) and, with [`Links::Refuse`], without following a final symlink
/// (`O_NOFOLLOW`); then checks through the open descriptor (`fstat`, no race with a swapped
/// path) that it is a regular file. Returns the file and that metadata.
///
/// # Errors
///
/// [`ReadError::Io`] when it cannot be opened, [`ReadError::NotRegular`] for a
/// directory, FIFO, device, socket or (with [`Links::Refuse`]) a symlink.
pub fn open_regular(path: &Path, links: Links) -> Result<(File, Metadata), ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if links == Links::Refuse {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    // Windows has no `O_NOFOLLOW`: there the link is followed (see `Links::Refuse`).
    #[cfg(not(unix))]
    let _ = links;
    let file = match options.open(path) {
        Ok(file) => file,
        // A final symlink under `O_NOFOLLOW`: `ELOOP` (Linux, macOS), `EMLINK` (FreeBSD).
        #[cfg(unix)]
        Err(error)
            if links == Links::Refuse
                && matches!(error.raw_os_error(), Some(libc::ELOOP | libc::EMLINK)) =>
        {
            return Err(ReadError::NotRegular {
                kind: "a symbolic link",
            });
        }
        Err(error) => return Err(ReadError::Io(error)),
    };
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            kind: kind_of(&meta),
        });
    }
    Ok((file, meta))
}

/// Reads `file` (opened by [`open_regular`], `meta` its metadata) to its end, refusing more
/// than `cap` bytes without reading past `cap + 1`, even when the file grows while it is read.
/// `what` names the kind of file in the error (`a configuration file`).
///
/// # Errors
///
/// [`ReadError::TooLarge`] over the cap, [`ReadError::Io`] when reading fails.
pub fn read_capped(
    file: File,
    meta: &Metadata,
    cap: u64,
    what: &'static str,
) -> Result<Vec<u8>, ReadError> {
    if meta.len() > cap {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            cap,
            what,
        });
    }
    let capacity = usize::try_from(meta.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > cap {
        return Err(ReadError::TooLarge {
            size: read,
            cap,
            what,
        });
    }
    Ok(bytes)
}

/// What a path is when it is not a regular file (`a FIFO`, `a character device`...), read
/// from its metadata; `not a regular file` for anything else unusual.
pub fn kind_of(meta: &Metadata) -> &'static str {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What `open_regular` then `read_capped` (cap 10) make of each kind of path: read, or refused
    /// with the message a caller shows after the path, without blocking or reading past the cap.
    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_under_the_cap_is_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let small = dir.path().join("small");
        std::fs::write(&small, "abc").expect("written");
        let large = dir.path().join("large");
        std::fs::write(&large, "x".repeat(11)).expect("written");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&small, &link).expect("a link");
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let read = |path: &Path, links: Links| -> Result<Vec<u8>, ReadError> {
            let (file, meta) = open_regular(path, links)?;
            read_capped(file, &meta, 10, "a test file")
        };
        let cases: [(&Path, Links, Result<&str, &str>); 8] = [
            (&small, Links::Follow, Ok("abc")),
            (&small, Links::Refuse, Ok("abc")),
            (&link, Links::Follow, Ok("abc")),
            (
                &link,
                Links::Refuse,
                Err(
                    "is a symbolic link, not a regular file: it must be a regular file; replace it with one",
                ),
            ),
            (
                &fifo,
                Links::Follow,
                Err(
                    "is a FIFO, not a regular file: it must be a regular file; replace it with one",
                ),
            ),
            (
                dir.path(),
                Links::Follow,
                Err(
                    "is a directory, not a regular file: it must be a regular file; replace it with one",
                ),
            ),
            (
                &large,
                Links::Follow,
                Err(
                    "is 11 bytes, over the 10-byte (10 bytes) limit of a test file; make it smaller",
                ),
            ),
            (
                Path::new("/dev/zero"),
                Links::Follow,
                Err(
                    "is a character device, not a regular file: it must be a regular file; replace it with one",
                ),
            ),
        ];
        for (path, links, expected) in cases {
            let got = read(path, links)
                .map(|bytes| String::from_utf8(bytes).expect("UTF-8"))
                .map_err(|error| error.to_string());
            assert_eq!(
                got.as_deref().map_err(String::as_str),
                expected,
                "{} with {links:?}",
                path.display()
            );
        }
        let missing = read(&dir.path().join("missing"), Links::Follow).expect_err("missing");
        assert!(missing.is_not_found(), "{missing}");
    }
}
