//! lime's `additionalContextLimit`: context over the limit reaches the model as a head and tail
//! preview plus the path of a side file that holds the whole text.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Side files older than this are removed when a new one is written: 7 days.
pub(crate) const SIDE_FILE_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// At most this many side files are kept in the folder (the newest): 100.
pub(crate) const SIDE_FILE_MAX_COUNT: usize = 100;

/// Why a side file could not be written.
///
/// # Side files
///
/// Side files hold what a hook printed, which may be private: they live in a private folder of
/// the user's (`hook run` uses `<state>/hook-context`, in the state folder of
/// [`Discovery::state_dir`](hook_config::Discovery::state_dir)), never in a shared one such as
/// `/tmp`.
/// The folder of verboo's `CLAUDE_ENV_FILE` follows the same rules.
///
/// - **Folder**: created with mode 0700 when missing. An existing folder is used only if it is a
///   real directory (not a symlink), owned by the user the engine runs as, and not writable by
///   group or others; anything else is refused with this error saying how to fix it.
/// - **Files**: created new (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600), so a name planted in
///   advance, a symlink included, is never followed or overwritten; names carry the handler's
///   key, the process id, the time and a counter.
/// - **Retention**: each time a side file is written, side files (`*.txt` regular files) of the
///   folder older than 7 days are removed, then the oldest beyond the newest
///   100. The bound is the engine's choice: the model reads a
///   side file in the turn that produced it, not a week later.
/// - **No folder** (`EngineOptions::side_file_dir` is `None`, the default for embedders): no
///   side file is written; the preview says the middle of the text was dropped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SideFileError {
    /// The folder is a symbolic link: it could send the file anywhere.
    #[error(
        "the private folder {path} is a symbolic link; remove it (a private folder is created in its place)"
    )]
    Symlink {
        /// The folder.
        path: PathBuf,
    },
    /// The path exists and is not a directory.
    #[error("the private folder {path} is not a directory; remove or rename it")]
    NotADirectory {
        /// The folder.
        path: PathBuf,
    },
    /// The folder belongs to another user.
    #[error(
        "the private folder {path} belongs to user {owner}, not to you; remove it (a private folder is created in its place)"
    )]
    ForeignOwner {
        /// The folder.
        path: PathBuf,
        /// Its owner's uid.
        owner: u32,
    },
    /// Group or others may write to the folder.
    #[error(
        "the private folder {path} is writable by group or others (mode {mode:o}); run `chmod 700 {path}`"
    )]
    Writable {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The folder could not be created or inspected.
    #[error("the private folder {path} cannot be created or read: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file could not be created or written.
    #[error("the side file {path} cannot be written: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why (an existing file or symlink of that name is `AlreadyExists`).
        #[source]
        source: std::io::Error,
    },
}

/// `text` if it fits in `limit` characters (0 turns the limit off); otherwise a preview of the
/// first and last `limit / 2` characters around a note naming the side file written under
/// `dir` (or, with no `dir`, saying the middle was dropped). An error when the side file cannot
/// be written.
///
/// # Errors
///
/// The reason, when the side file cannot be written (the folder is unsafe or not writable).
pub(crate) fn limit_context(
    text: &str,
    limit: u64,
    dir: Option<&Path>,
    key: &str,
) -> Result<String, SideFileError> {
    let length = text.chars().count();
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if limit == 0 || length <= limit {
        return Ok(text.to_owned());
    }
    let half = limit / 2;
    let omitted = length - 2 * half;
    let note = match dir {
        Some(dir) => {
            let path = write_side_file(dir, &side_file_name(key), text)?;
            format!(
                "[... {omitted} of {length} characters omitted; the whole text is in {} ...]",
                path.display()
            )
        }
        None => format!("[... {omitted} of {length} characters omitted and not kept ...]"),
    };
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(length - half).collect();
    Ok(format!("{head}\n{note}\n{tail}"))
}

/// Writes `text` to a new file `name` in the private folder `dir` (created 0700 if missing),
/// then applies the retention bound. Never follows or overwrites an existing name.
///
/// # Errors
///
/// [`SideFileError`] when the folder is unsafe (a symlink, not the user's, writable by others)
/// or the file cannot be created or written.
pub(crate) fn write_side_file(
    dir: &Path,
    name: &str,
    text: &str,
) -> Result<PathBuf, SideFileError> {
    private_folder(dir)?;
    let path = dir.join(name);
    let write_error = |source| SideFileError::Write {
        path: path.clone(),
        source,
    };
    let mut file = create_new_private(&path).map_err(write_error)?;
    file.write_all(text.as_bytes()).map_err(write_error)?;
    sweep(dir, &path);
    Ok(path)
}

/// Makes sure `dir` is a private folder of the user's, creating it (0700) when missing (the
/// folder of side files, of the journal and of `CLAUDE_ENV_FILE`, see `crate::env_file`):
/// `hook_fs::private_folder`, its error said as a [`SideFileError`].
pub(crate) fn private_folder(dir: &Path) -> Result<(), SideFileError> {
    use hook_fs::FsError;
    hook_fs::private_folder(dir).map_err(|error| match error {
        FsError::Symlink { path } => SideFileError::Symlink { path },
        FsError::NotADirectory { path } => SideFileError::NotADirectory { path },
        FsError::ForeignOwner { path, owner } => SideFileError::ForeignOwner { path, owner },
        FsError::Writable { path, mode } => SideFileError::Writable { path, mode },
        FsError::Io { path, source, .. } => SideFileError::Folder { path, source },
        other => SideFileError::Folder {
            path: dir.to_owned(),
            source: std::io::Error::other(other),
        },
    })
}

/// A new private file (`hook_fs::create_new_private`), its error as an I/O error.
pub(crate) fn create_new_private(path: &Path) -> std::io::Result<std::fs::File> {
    hook_fs::create_new_private(path).map_err(|error| match error {
        hook_fs::FsError::Io { source, .. } => source,
        other => std::io::Error::other(other),
    })
}

/// Removes side files older than [`SIDE_FILE_MAX_AGE`], then the oldest beyond
/// [`SIDE_FILE_MAX_COUNT`]; `keep` (the file just written) always stays. Best effort: a file
/// that cannot be inspected or removed is left alone.
fn sweep(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    let mut files: Vec<(SystemTime, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path == keep || path.extension().is_none_or(|ext| ext != "txt") {
            continue;
        }
        // `DirEntry::metadata` does not follow symlinks: only regular files are side files.
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        if !metadata.is_file() {
            continue;
        }
        let modified = metadata.modified().unwrap_or(now);
        let age = now.duration_since(modified).unwrap_or(Duration::ZERO);
        if age > SIDE_FILE_MAX_AGE {
            let _ = std::fs::remove_file(&path);
        } else {
            files.push((modified, path));
        }
    }
    // The file just written counts towards the bound.
    let room = SIDE_FILE_MAX_COUNT.saturating_sub(1);
    if files.len() > room {
        files.sort();
        let excess = files.len() - room;
        for (_, path) in files.into_iter().take(excess) {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn side_file_name(key: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let safe: String = key
        .chars()
        .take(100)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{safe}-{}-{nanos}-{count}.txt", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_and_a_zero_limit_pass_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let dir = Some(dir.path());
        assert_eq!(limit_context("héllo", 5, dir, "k").unwrap(), "héllo");
        assert_eq!(
            limit_context(&"x".repeat(50), 0, dir, "k").unwrap(),
            "x".repeat(50)
        );
    }

    #[test]
    fn long_text_becomes_a_preview_and_a_side_file() {
        let dir = tempfile::tempdir().unwrap();
        let side = dir.path().join("hook-context");
        let text = format!("{}{}{}", "a".repeat(10), "é".repeat(30), "z".repeat(10));
        let preview = limit_context(&text, 20, Some(&side), "user:config.toml:Stop::0").unwrap();
        assert!(preview.starts_with(&"a".repeat(10)));
        assert!(preview.ends_with(&"z".repeat(10)));
        assert!(preview.contains("[... 30 of 50 characters omitted; the whole text is in "));
        let file = std::fs::read_dir(&side)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        assert!(preview.contains(&file.display().to_string()));
        assert_eq!(std::fs::read_to_string(file).unwrap(), text);
    }

    #[test]
    fn without_a_folder_the_preview_says_the_middle_is_dropped() {
        let text = "x".repeat(100);
        let preview = limit_context(&text, 20, None, "k").unwrap();
        assert_eq!(
            preview,
            format!(
                "{}\n[... 80 of 100 characters omitted and not kept ...]\n{}",
                "x".repeat(10),
                "x".repeat(10)
            )
        );
    }

    /// What a side-file folder or name planted by someone else cannot make the engine do
    /// (moved from the integration tests when `context` became private).
    #[cfg(unix)]
    mod planted {
        use std::os::unix::fs::PermissionsExt;
        use std::path::Path;
        use std::time::{Duration, SystemTime};

        use super::super::*;
        use hook_test_support::fs::{file_names, mode};

        #[test]
        fn a_folder_that_is_a_symlink_is_refused_and_nothing_lands_at_its_target() {
            let dir = tempfile::tempdir().unwrap();
            let elsewhere = dir.path().join("elsewhere");
            std::fs::create_dir(&elsewhere).unwrap();
            std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o700)).unwrap();
            let side = dir.path().join("hook-context");
            std::os::unix::fs::symlink(&elsewhere, &side).unwrap();

            let error = limit_context(&"x".repeat(50), 10, Some(&side), "k").unwrap_err();
            assert!(matches!(error, SideFileError::Symlink { .. }), "{error}");
            assert!(error.to_string().contains("is a symbolic link"), "{error}");
            assert!(file_names(&elsewhere).is_empty());
        }

        #[test]
        fn a_side_file_name_planted_as_a_symlink_is_never_followed() {
            let dir = tempfile::tempdir().unwrap();
            let side = dir.path().join("hook-context");
            let target = dir.path().join("victim");
            std::fs::write(&target, "precious").unwrap();
            write_side_file(&side, "first.txt", "one").unwrap();
            std::os::unix::fs::symlink(&target, side.join("planted.txt")).unwrap();

            let error = write_side_file(&side, "planted.txt", "attack").unwrap_err();
            let SideFileError::Write { path, source } = &error else {
                panic!("{error}");
            };
            assert_eq!(path, &side.join("planted.txt"));
            assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists);
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        }

        #[test]
        fn a_folder_writable_by_others_or_not_a_directory_is_refused() {
            let dir = tempfile::tempdir().unwrap();
            let side = dir.path().join("hook-context");
            std::fs::create_dir(&side).unwrap();
            for writable in [0o770, 0o777, 0o722] {
                std::fs::set_permissions(&side, std::fs::Permissions::from_mode(writable)).unwrap();
                let error = write_side_file(&side, "a.txt", "text").unwrap_err();
                assert!(
                    matches!(error, SideFileError::Writable { mode, .. } if mode == writable),
                    "{writable:o}: {error}"
                );
                assert!(error.to_string().contains("chmod 700"), "{error}");
            }
            // Readable by others is not a risk: the files themselves are 0600.
            std::fs::set_permissions(&side, std::fs::Permissions::from_mode(0o755)).unwrap();
            write_side_file(&side, "a.txt", "text").unwrap();
            assert_eq!(mode(&side.join("a.txt")), 0o600);

            let file = dir.path().join("plain");
            std::fs::write(&file, "").unwrap();
            let error = write_side_file(&file, "a.txt", "text").unwrap_err();
            assert!(
                matches!(error, SideFileError::NotADirectory { .. }),
                "{error}"
            );
        }

        /// A side file `name` whose modification time is `age` ago.
        fn old_file(dir: &Path, name: &str, age: Duration) {
            let path = dir.join(name);
            std::fs::write(&path, name).unwrap();
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(SystemTime::now() - age).unwrap();
        }

        #[test]
        fn files_past_the_age_or_count_bound_are_removed_when_a_new_one_is_written() {
            let dir = tempfile::tempdir().unwrap();
            let side = dir.path().join("hook-context");
            write_side_file(&side, "first.txt", "first").unwrap();

            // Too old: removed.
            old_file(
                &side,
                "stale.txt",
                SIDE_FILE_MAX_AGE + Duration::from_secs(3600),
            );
            // Not a side file: left alone, old or not.
            old_file(&side, "notes.md", SIDE_FILE_MAX_AGE * 2);
            // The count bound: the oldest go first.
            for i in 0..SIDE_FILE_MAX_COUNT + 5 {
                let age = Duration::from_secs(3600 * (1 + i as u64));
                old_file(&side, &format!("n{i:03}.txt"), age);
            }
            write_side_file(&side, "new.txt", "new").unwrap();

            let kept = file_names(&side);
            assert!(!kept.contains(&"stale.txt".to_owned()));
            assert!(kept.contains(&"notes.md".to_owned()));
            assert!(kept.contains(&"new.txt".to_owned()));
            assert!(kept.contains(&"first.txt".to_owned()), "the newest stay");
            let side_files = kept.iter().filter(|n| n.ends_with(".txt")).count();
            assert_eq!(side_files, SIDE_FILE_MAX_COUNT);
            // n000 (1 h old) to n097 stay with first.txt and new.txt; n098 to n104 (the oldest) go.
            assert!(kept.contains(&"n097.txt".to_owned()));
            assert!(!kept.contains(&"n098.txt".to_owned()));
        }

        #[test]
        fn a_folder_of_another_user_is_refused() {
            let dir = tempfile::tempdir().unwrap();
            let side = dir.path().join("hook-context");
            std::fs::create_dir(&side).unwrap();
            std::fs::set_permissions(&side, std::fs::Permissions::from_mode(0o700)).unwrap();
            // Only root can give a folder away: elsewhere this case cannot be set up.
            let nobody = 65534;
            if std::os::unix::fs::chown(&side, Some(nobody), Some(nobody)).is_err() {
                return;
            }
            let error = write_side_file(&side, "a.txt", "text").unwrap_err();
            assert!(
                matches!(error, SideFileError::ForeignOwner { owner, .. } if owner == nobody),
                "{error}"
            );
            assert!(file_names(&side).is_empty());
        }
    }
}
