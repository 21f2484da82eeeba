//! SHA-256 digests streamed under a cap.

use std::io::Read;
use std::path::Path;

use sha2::{Digest as _, Sha256};

use crate::{FileStamp, Links, ReadError, open_regular};

/// The lowercase hex SHA-256 of what `reader` yields and its length, streamed, refusing more than
/// `cap` bytes (`what` names the kind of file in the error).
///
/// # Errors
///
/// [`ReadError::TooLarge`] past the cap, [`ReadError::Io`] when reading fails.
pub fn sha256_capped(
    reader: impl Read,
    cap: u64,
    what: &'static str,
) -> Result<(String, u64), ReadError> {
    let mut reader = reader.take(cap.saturating_add(1));
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total: u64 = 0;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(ReadError::Io(error)),
        };
        total = total.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        if total > cap {
            return Err(ReadError::TooLarge {
                size: total,
                cap,
                what,
            });
        }
        hasher.update(&buffer[..n]);
    }
    Ok((hex::encode(hasher.finalize()), total))
}

/// The lowercase hex SHA-256 of the regular file at `path` (opened by [`open_regular`]),
/// streamed under `cap`, with the stamps of the open file before and after the read (equal
/// when nothing changed it meanwhile).
///
/// # Errors
///
/// The errors of [`open_regular`] and [`sha256_capped`]; [`ReadError::TooLarge`] at once
/// when the file's size is over the cap.
pub fn digest_file(
    path: &Path,
    links: Links,
    cap: u64,
    what: &'static str,
) -> Result<Digested, ReadError> {
    let (file, before) = open_regular(path, links)?;
    if before.len() > cap {
        return Err(ReadError::TooLarge {
            size: before.len(),
            cap,
            what,
        });
    }
    let (sha256, size) = sha256_capped(&file, cap, what)?;
    let after = file.metadata().map_err(ReadError::Io)?;
    Ok(Digested {
        sha256,
        size,
        before: FileStamp::of(&before),
        after: FileStamp::of(&after),
    })
}

/// What [`digest_file`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Digested {
    /// The lowercase hex SHA-256.
    pub sha256: String,
    /// The bytes hashed.
    pub size: u64,
    /// The open file's stamp before the read (`None` on Windows).
    pub before: Option<FileStamp>,
    /// The open file's stamp after the read.
    pub after: Option<FileStamp>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    #[test]
    fn stamps_and_digests() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("f");
        std::fs::write(&path, "abc").expect("written");
        let digested = digest_file(&path, Links::Follow, 10, "a test file").expect("hashed");
        assert_eq!(
            digested.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(digested.size, 3);
        assert_eq!(digested.before, digested.after);
        assert!(matches!(
            digest_file(&path, Links::Follow, 2, "a test file"),
            Err(ReadError::TooLarge { .. })
        ));
        #[cfg(unix)]
        {
            let stamp = FileStamp::of_path(&path).expect("a stamp");
            assert!(stamp.same_file(&stamp));
            assert_eq!(stamp.size(), 3);
            assert!(!stamp.settled(SystemTime::now() - Duration::from_secs(60)));
            assert!(stamp.settled(SystemTime::now() + Duration::from_secs(60)));
        }
    }
}
