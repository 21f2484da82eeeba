//! Helpers shared by the integration tests: real files in temporary folders.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use hook_config::{Environment, Handler, LoadOptions, Loaded, load};
use hook_protocol::Dialect;

/// Writes `text` to `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create test folder");
    }
    std::fs::write(&path, text).expect("write test file");
    path
}

/// Loads with `options`, failing the test if loading could not start.
pub fn load_ok(options: &LoadOptions) -> Loaded {
    load(options).expect("load")
}

/// Options for `dialect` with only a home override and a project.
pub fn options(dialect: Dialect, home: &Path, project: &Path) -> LoadOptions {
    LoadOptions::new(dialect, Environment::empty())
        .with_home(home)
        .with_project(project)
        .without_managed()
}

/// Every diagnostic, displayed.
pub fn shown(loaded: &Loaded) -> Vec<String> {
    loaded.diagnostics.iter().map(ToString::to_string).collect()
}

/// What each handler runs.
pub fn summaries<'a>(handlers: impl IntoIterator<Item = &'a Handler>) -> Vec<String> {
    handlers.into_iter().map(|h| h.config.summary()).collect()
}

/// Loads one file of `dialect` (the user layer) from `text`; returns the load and the path.
pub fn load_user_file(dialect: Dialect, text: &str) -> (tempfile::TempDir, PathBuf, Loaded) {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = match dialect {
        Dialect::Wuu => "config.json",
        Dialect::Verboo => "settings.json",
        Dialect::Lime => "config.toml",
    };
    let path = write(dir.path(), &format!("home/{name}"), text);
    let project = dir.path().join("project");
    // Never reads the machine's real managed file (`options` has no managed layer).
    let options = options(dialect, &dir.path().join("home"), &project);
    let loaded = load_ok(&options);
    (dir, path, loaded)
}
