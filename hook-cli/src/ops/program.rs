//! Whether a file is a program a shell would start: what `hook doctor`, `hook relay status` and
//! `hook relay install` ask of a command's first word.

use std::path::Path;

/// Whether `path` is a regular file with an execute bit (on Unix; elsewhere, a regular file).
pub(crate) fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path).is_ok_and(|m| m.is_file())
    }
}
