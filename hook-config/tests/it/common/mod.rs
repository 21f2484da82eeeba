//! Helpers shared by the integration tests: real files in temporary folders.

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use hook_config::{Environment, Handler, LoadOptions, Loaded, load};
use hook_protocol::Dialect;
use hook_test_support::Scene;
use hook_test_support::events::user_file;

pub use hook_test_support::fs::write_at as write;

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
pub fn load_user_file(dialect: Dialect, text: &str) -> (Scene, PathBuf, Loaded) {
    let scene = Scene::new();
    let path = scene.write(&format!("home/{}", user_file(dialect)), text);
    // Never reads the machine's real managed file (`options` has no managed layer).
    let options = options(dialect, &scene.home(), &scene.project());
    let loaded = load_ok(&options);
    (scene, path, loaded)
}
