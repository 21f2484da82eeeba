//! Files as the tests write and read them: folders made, failures naming the path.

use std::path::{Path, PathBuf};

/// Writes `text` at `path`, its folders made.
///
/// # Panics
/// When the folders or the file cannot be written (the message names the path).
pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", parent.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Writes `text` at `root/relative`, folders made; returns the path.
pub fn write_at(root: &Path, relative: &str, text: &str) -> PathBuf {
    let path = root.join(relative);
    write(&path, text);
    path
}

/// Writes `text` at `path` (folders made) and makes it executable by its owner and others.
///
/// # Panics
/// When the file cannot be written or its mode set.
pub fn script(path: &Path, text: &str) {
    write(path, text);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("cannot make {} executable: {e}", path.display()));
    }
}

/// The file at `path` as text.
///
/// # Panics
/// When it cannot be read or is not UTF-8 (the message names the path).
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Bytes as text, lossily (what a process printed).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The workspace's root (where `examples/` and `tests/fixtures/` are).
///
/// # Panics
/// Never: the kit's own folder is one below the root.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("hook-test-support is a folder of the workspace root")
}

/// The permission bits of `path` itself (a link is not followed).
#[cfg(unix)]
pub fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::symlink_metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The names in folder `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
