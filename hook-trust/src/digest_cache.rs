//! Digests of the large files hooks run, remembered by the file's identity so a run need not
//! hash a megabyte script again.
//!
//! Trust reads every file a hook runs on every run (`crate::files`). For a script of a few
//! kilobytes that costs less than the noise of starting a process; a 1 MB script cost about
//! 0.5 ms a run, a tenth of a one-hook `hook run` (BENCHMARKS.md). Files of at least
//! [`CACHED_FROM_BYTES`] are therefore looked up here first, in `<home>/hook-trusted/digests.json`,
//! by (device, inode, size, modification time, status-change time), all to the nanosecond.
//!
//! Why that is safe: any write to a file, a `chmod`, a rename over it or a `touch -d` that sets
//! its modification time back changes its status-change time (ctime), which no unprivileged
//! call can set; a replaced file has a new inode or a new ctime. The one gap is a change in the
//! same clock tick as the hashing (the kernel's timestamps are coarse), so a digest is kept
//! only for a file whose ctime is at least [`FileStamp::SETTLE`] (2 s) older than the hashing (git's
//! "racy clean" rule). Someone who can set the clock or write the user's home can also write
//! the trust store itself, so the cache adds no way in. The cache file is read with the trust
//! store's rules (owned by the user, not writable by others) and written 0600 in the copies'
//! 0700 folder; a cache that cannot be read, or an entry that does not match, only costs a
//! hash. Windows has no inode numbers here: nothing is cached there.

use std::collections::BTreeMap;
use std::fs::Metadata;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use hook_fs::FileStamp;
use serde::{Deserialize, Serialize};

use crate::copies::COPIES_DIR;
use crate::hash::HASH_PREFIX;

/// The cache's file in the copies' folder (`<home>/hook-trusted/`).
pub(crate) const CACHE_FILE: &str = "digests.json";

/// Files smaller than this (256 KiB) are hashed on every run: reading the cache would cost
/// about as much.
pub(crate) const CACHED_FROM_BYTES: u64 = 256 * 1024;

/// The most files remembered; past it the first paths in order are forgotten.
const MAX_ENTRIES: usize = 256;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    /// Serialised with the field names of the cache's earlier `Stamp` (`dev`, `ino`, `size`,
    /// `mtime`, `mtime_ns`, `ctime`, `ctime_ns`): an existing cache file still reads.
    stamp: FileStamp,
    sha256: String,
}

/// The digests remembered in one home, read on first use.
#[derive(Debug)]
pub(crate) struct DigestCache {
    file: PathBuf,
    entries: Mutex<Option<BTreeMap<String, Entry>>>,
}

impl DigestCache {
    /// The cache of the home `home` (the folder of its trust store).
    pub(crate) fn in_home(home: &Path) -> DigestCache {
        DigestCache {
            file: home.join(COPIES_DIR).join(CACHE_FILE),
            entries: Mutex::new(None),
        }
    }

    /// The remembered digest (`sha256:<hex>`) of the file `path` whose open descriptor's
    /// metadata is `meta`, when every part of its stamp matches.
    pub(crate) fn get(&self, path: &Path, meta: &Metadata) -> Option<String> {
        if meta.len() < CACHED_FROM_BYTES {
            return None;
        }
        let stamp = FileStamp::of(meta)?;
        let key = path.to_str()?;
        let mut entries = self.entries.lock().ok()?;
        let entries = entries.get_or_insert_with(|| self.read());
        let entry = entries.get(key)?;
        (entry.stamp == stamp && is_digest(&entry.sha256)).then(|| entry.sha256.clone())
    }

    /// Remembers `digest` for `path`, hashed between `before` and `after` (the descriptor's
    /// metadata), if the file did not change meanwhile and had settled (see the module docs).
    pub(crate) fn put(&self, path: &Path, before: &Metadata, after: &Metadata, digest: &str) {
        self.put_at(path, before, after, digest, SystemTime::now());
    }

    fn put_at(
        &self,
        path: &Path,
        before: &Metadata,
        after: &Metadata,
        digest: &str,
        now: SystemTime,
    ) {
        if before.len() < CACHED_FROM_BYTES || !is_digest(digest) {
            return;
        }
        let (Some(stamp), Some(again), Some(key)) =
            (FileStamp::of(before), FileStamp::of(after), path.to_str())
        else {
            return;
        };
        if stamp != again || !stamp.settled(now) {
            return;
        }
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        let entries = entries.get_or_insert_with(|| self.read());
        entries.insert(
            key.to_owned(),
            Entry {
                stamp,
                sha256: digest.to_owned(),
            },
        );
        while entries.len() > MAX_ENTRIES {
            entries.pop_first();
        }
        // Best effort: a cache that cannot be written only costs a hash next time.
        let _ = self.write(entries);
    }

    /// The cache file's entries; empty when it is missing or cannot be trusted or parsed.
    fn read(&self) -> BTreeMap<String, Entry> {
        hook_config::read_config_text(&self.file, hook_config::FileOwner::RootOrSelf)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes `entries` 0600 through a temporary file renamed into place, in the copies' folder
    /// (created 0700, or refused when it is not private).
    fn write(&self, entries: &BTreeMap<String, Entry>) -> std::io::Result<()> {
        let Some(dir) = self.file.parent() else {
            return Ok(());
        };
        let home = dir.parent().unwrap_or(dir);
        crate::copies::TrustedCopies::in_home(home)
            .ensure_dir()
            .map_err(std::io::Error::other)?;
        let text = serde_json::to_vec(entries).map_err(std::io::Error::other)?;
        let mut temp = tempfile::Builder::new()
            .prefix(".digests-")
            .tempfile_in(dir)?;
        temp.write_all(&text)?;
        temp.persist(&self.file).map_err(|error| error.error)?;
        Ok(())
    }
}

/// `sha256:` and 64 lowercase hex digits.
fn is_digest(text: &str) -> bool {
    text.strip_prefix(HASH_PREFIX).is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::Duration;

    use super::*;

    const DIGEST: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn big_file(dir: &Path, name: &str, fill: u8) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, vec![fill; CACHED_FROM_BYTES as usize]).unwrap();
        path
    }

    fn later() -> SystemTime {
        SystemTime::now() + Duration::from_secs(60)
    }

    #[test]
    fn a_settled_file_is_remembered_and_found_by_its_stamp_only() {
        let home = tempfile::tempdir().unwrap();
        let script = big_file(home.path(), "big.sh", b'a');
        let meta = std::fs::metadata(&script).unwrap();
        let cache = DigestCache::in_home(home.path());
        cache.put_at(&script, &meta, &meta, DIGEST, later());
        assert_eq!(cache.get(&script, &meta).as_deref(), Some(DIGEST));

        // A fresh reader of the same home finds it in the file, which is private.
        let again = DigestCache::in_home(home.path());
        assert_eq!(again.get(&script, &meta).as_deref(), Some(DIGEST));
        use std::os::unix::fs::PermissionsExt;
        let file = home.path().join(COPIES_DIR).join(CACHE_FILE);
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);

        // Rewritten (longer here; any write changes the ctime): not found.
        let mut bytes = vec![b'b'; CACHED_FROM_BYTES as usize];
        bytes.push(b'\n');
        std::fs::write(&script, bytes).unwrap();
        let changed = std::fs::metadata(&script).unwrap();
        assert_eq!(cache.get(&script, &changed), None);
        // Another path with the same bytes: not found either.
        let other = big_file(home.path(), "other.sh", b'a');
        assert_eq!(cache.get(&other, &std::fs::metadata(&other).unwrap()), None);
    }

    #[test]
    fn a_file_changed_while_hashed_or_just_changed_or_small_is_not_remembered() {
        let home = tempfile::tempdir().unwrap();
        let script = big_file(home.path(), "big.sh", b'a');
        let before = std::fs::metadata(&script).unwrap();
        let cache = DigestCache::in_home(home.path());

        // Changed in the tick it was hashed in: not settled.
        cache.put_at(&script, &before, &before, DIGEST, SystemTime::now());
        assert_eq!(cache.get(&script, &before), None);

        // Changed between the two looks.
        let other = big_file(home.path(), "other.sh", b'c');
        let after = std::fs::metadata(&other).unwrap();
        cache.put_at(&script, &before, &after, DIGEST, later());
        assert_eq!(cache.get(&script, &before), None);

        // Small files are always hashed.
        let small = home.path().join("small.sh");
        std::fs::write(&small, "exit 0\n").unwrap();
        let meta = std::fs::metadata(&small).unwrap();
        cache.put_at(&small, &meta, &meta, DIGEST, later());
        assert_eq!(cache.get(&small, &meta), None);
        assert!(!home.path().join(COPIES_DIR).join(CACHE_FILE).exists());
    }

    #[test]
    fn a_garbled_or_foreign_cache_is_ignored() {
        let home = tempfile::tempdir().unwrap();
        let script = big_file(home.path(), "big.sh", b'a');
        let meta = std::fs::metadata(&script).unwrap();
        let dir = home.path().join(COPIES_DIR);
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join(CACHE_FILE), "{not json").unwrap();
        let cache = DigestCache::in_home(home.path());
        assert_eq!(cache.get(&script, &meta), None);

        // A well-formed entry in a file others may write is not believed.
        let stamp = FileStamp::of(&meta).unwrap();
        let mut entries = BTreeMap::new();
        entries.insert(
            script.to_str().unwrap().to_owned(),
            Entry {
                stamp,
                sha256: DIGEST.to_owned(),
            },
        );
        std::fs::write(dir.join(CACHE_FILE), serde_json::to_vec(&entries).unwrap()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join(CACHE_FILE), std::fs::Permissions::from_mode(0o666))
            .unwrap();
        let cache = DigestCache::in_home(home.path());
        assert_eq!(cache.get(&script, &meta), None);
    }

    #[test]
    fn a_cache_file_in_the_earlier_stamp_format_still_reads() {
        use std::os::unix::fs::MetadataExt;
        let home = tempfile::tempdir().unwrap();
        let script = big_file(home.path(), "big.sh", b'a');
        let meta = std::fs::metadata(&script).unwrap();
        let dir = home.path().join(COPIES_DIR);
        hook_fs::private_folder(&dir).unwrap();
        // The cache's own `Stamp` wrote exactly these field names.
        let text = serde_json::json!({
            script.to_str().unwrap(): {
                "stamp": {
                    "dev": meta.dev(), "ino": MetadataExt::ino(&meta), "size": meta.size(),
                    "mtime": meta.mtime(), "mtime_ns": meta.mtime_nsec(),
                    "ctime": meta.ctime(), "ctime_ns": meta.ctime_nsec(),
                },
                "sha256": DIGEST,
            }
        });
        std::fs::write(dir.join(CACHE_FILE), text.to_string()).unwrap();
        let cache = DigestCache::in_home(home.path());
        assert_eq!(cache.get(&script, &meta).as_deref(), Some(DIGEST));
        // And what it writes now has the same shape.
        let other = big_file(home.path(), "other.sh", b'b');
        let other_meta = std::fs::metadata(&other).unwrap();
        cache.put_at(&other, &other_meta, &other_meta, DIGEST, later());
        let written: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(CACHE_FILE)).unwrap()).unwrap();
        assert_eq!(
            written[script.to_str().unwrap()],
            text[script.to_str().unwrap()]
        );
        let mut keys: Vec<_> = written[other.to_str().unwrap()]["stamp"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "ctime", "ctime_ns", "dev", "ino", "mtime", "mtime_ns", "size"
            ]
        );
    }
}
