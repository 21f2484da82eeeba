//! Private folders and files: created 0700 and 0600, never through a symlink, never blocking
//! on a FIFO, checked through the open descriptor to be what they should be.

use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::FsError;
use crate::read::kind_of;

/// Makes sure `dir` is a private folder of the effective user's, creating it (and missing
/// parents) with mode 0700 when missing.
///
/// # Errors
///
/// [`FsError::Symlink`], [`FsError::NotADirectory`], [`FsError::ForeignOwner`] or
/// [`FsError::Writable`] when an existing folder is not private; [`FsError::Io`] when it cannot
/// be created or inspected.
pub fn private_folder(dir: &Path) -> Result<(), FsError> {
    let metadata = match std::fs::symlink_metadata(dir) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            create_folders_0700(dir)?;
            std::fs::symlink_metadata(dir).map_err(|e| FsError::io(dir, "inspect the folder", e))?
        }
        Err(error) => return Err(FsError::io(dir, "inspect the folder", error)),
    };
    if metadata.file_type().is_symlink() {
        return Err(FsError::Symlink {
            path: dir.to_owned(),
        });
    }
    if !metadata.is_dir() {
        return Err(FsError::NotADirectory {
            path: dir.to_owned(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.uid() != effective_uid() {
            return Err(FsError::ForeignOwner {
                path: dir.to_owned(),
                owner: metadata.uid(),
            });
        }
        let mode = metadata.mode() & 0o7777;
        if mode & 0o022 != 0 {
            return Err(FsError::Writable {
                path: dir.to_owned(),
                mode,
            });
        }
    }
    Ok(())
}

/// Creates a new folder with a random name starting with `prefix` in `parent` (the system's
/// temporary folder when `None`), mode 0700, removed with its contents when the returned value
/// is dropped. `mkdir` never follows a link, and the name is new: nothing planted in advance
/// is used.
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created.
pub fn create_private_temp_dir(
    parent: Option<&Path>,
    prefix: &str,
) -> Result<tempfile::TempDir, FsError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix);
    // `tempfile`'s default mode for folders is 0777 less the umask.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    match parent {
        Some(parent) => builder
            .tempdir_in(parent)
            .map_err(|e| FsError::io(parent, "create a folder in", e)),
        None => builder
            .tempdir()
            .map_err(|e| FsError::io(&std::env::temp_dir(), "create a folder in", e)),
    }
}

/// Creates the folder `dir` and each missing parent with mode 0700 (Unix): the one place the
/// workspace makes a folder for private files. A folder that already exists is left as it is
/// (a link to one is followed: a home a dotfile manager keeps elsewhere); when it must be
/// private, use [`private_folder`], which checks it too.
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created (`AlreadyExists` when the path is a file).
pub fn create_folders_0700(dir: &Path) -> Result<(), FsError> {
    create_dir_0700(dir).map_err(|e| FsError::io(dir, "create the folder", e))
}

fn create_dir_0700(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the new file `path` for writing, mode 0600: an existing name (a symlink included)
/// is never followed or overwritten (`O_CREAT | O_EXCL | O_NOFOLLOW`).
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created (`AlreadyExists` for any existing name).
pub fn create_new_private(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    private_flags(&mut options);
    options
        .open(path)
        .map_err(|e| FsError::io(path, "create", e))
}

/// Opens `path` for appending, creating it 0600 when missing, without following a final
/// symlink and without blocking on a FIFO; then checks it is a regular file. Each `write` to
/// it lands at the end (`O_APPEND`), so concurrent writers each add whole writes.
///
/// # Errors
///
/// [`FsError::Symlink`] for a symbolic link, [`FsError::NotRegular`] for a FIFO, device,
/// socket or directory, [`FsError::Io`] when it cannot be opened.
pub fn open_private_append(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    private_flags(&mut options);
    open_checked(&options, path)
}

/// Opens the existing file `path` for reading and appending (a file another program gave this
/// one to add to, such as an agent's environment file), without following a final symlink and
/// without blocking on a FIFO; then checks it is a regular file. Never creates it.
///
/// # Errors
///
/// As [`open_private_append`] (`NotFound` in [`FsError::Io`] when it does not exist).
pub fn open_append(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.read(true).append(true);
    private_flags(&mut options);
    open_checked(&options, path)
}

/// Opens (creating it 0600) the private file `path` for writing without truncating it, with the
/// same checks as [`open_private_append`]: the lock files.
pub(crate) fn open_private_write(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    private_flags(&mut options);
    open_checked(&options, path)
}

fn private_flags(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(not(unix))]
    let _ = options;
}

fn open_checked(options: &OpenOptions, path: &Path) -> Result<File, FsError> {
    let file = match options.open(path) {
        Ok(file) => file,
        #[cfg(unix)]
        Err(error) if matches!(error.raw_os_error(), Some(libc::ELOOP | libc::EMLINK)) => {
            return Err(FsError::Symlink {
                path: path.to_owned(),
            });
        }
        // A FIFO without a reader refuses a non-blocking open for writing.
        #[cfg(unix)]
        Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
            return Err(FsError::NotRegular {
                path: path.to_owned(),
                kind: "a FIFO or a device",
            });
        }
        Err(error) => return Err(FsError::io(path, "open", error)),
    };
    let metadata = file
        .metadata()
        .map_err(|e| FsError::io(path, "inspect", e))?;
    if !metadata.is_file() {
        return Err(FsError::NotRegular {
            path: path.to_owned(),
            kind: kind_of(&metadata),
        });
    }
    Ok(file)
}

/// Makes the renames and creations in the folder `dir` durable (`fsync` of the folder, Unix);
/// best effort, as after an atomic replace: a folder that cannot be opened or synced is left
/// as it is (Windows syncs nothing here).
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The effective user id of this process: who owns what it creates, and whom a private folder
/// or a config file must belong to.
#[cfg(unix)]
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LockPolicy, open_lock};

    #[test]
    fn a_private_folder_is_made_0700_and_an_unsafe_one_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let private = dir.path().join("a/b");
        private_folder(&private).expect("created");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&private)
                .expect("exists")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
            std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o777))
                .expect("chmod");
            assert!(matches!(
                private_folder(&private),
                Err(FsError::Writable { .. })
            ));
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&private, &link).expect("a link");
            let error = private_folder(&link).expect_err("a link is refused");
            assert!(matches!(error, FsError::Symlink { .. }), "{error}");
            assert!(error.to_string().contains("symbolic link"));
        }
    }

    #[cfg(unix)]
    #[test]
    fn private_files_refuse_links_and_fifos_without_blocking() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("target");
        std::fs::write(&target, "x").expect("written");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).expect("a link");
        assert!(matches!(
            open_private_append(&link),
            Err(FsError::Symlink { .. })
        ));
        assert!(create_new_private(&link).is_err());
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let error = open_private_append(&fifo).expect_err("a FIFO is refused");
        assert!(matches!(error, FsError::NotRegular { .. }), "{error}");
        let error = open_lock(&fifo, LockPolicy::Immediate).expect_err("refused");
        assert!(matches!(error, FsError::NotRegular { .. }), "{error}");
        let file = dir.path().join("file");
        open_private_append(&file).expect("created");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file)
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_folder_is_synced_and_a_missing_one_ignored() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        sync_dir(dir.path());
        sync_dir(&dir.path().join("missing"));
    }
}
