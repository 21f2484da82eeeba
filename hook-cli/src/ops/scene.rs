//! In-process tests' scenes: a temp home and project with real files, and the [`Location`]
//! that names them.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use hook_protocol::Dialect;

use super::location::Location;

/// A temp folder with `home/` and `project/`.
pub(crate) struct Scene {
    _dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
}

impl Scene {
    pub(crate) fn new() -> Scene {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        std::fs::create_dir_all(root.join("project")).unwrap();
        Scene { _dir: dir, root }
    }

    /// Writes `text` at `relative`, folders made; an executable when it starts with `#!`.
    pub(crate) fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        if text.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    }

    pub(crate) fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// The location of `dialect` with this scene's home (its agent folder) and project.
    pub(crate) fn location(&self, dialect: Dialect, home: &str) -> Location {
        Location {
            dialect,
            project: Some(self.project()),
            home: Some(self.root.join("home").join(home)),
            relay: false,
        }
    }

    /// `path` relative to the scene, for assertions that do not depend on the temp folder.
    pub(crate) fn shown(&self, text: &str) -> String {
        text.replace(&*self.root.to_string_lossy(), "[ROOT]")
    }

    /// The root, for paths built by hand.
    pub(crate) fn path(&self, relative: &str) -> PathBuf {
        Path::new(&self.root).join(relative)
    }
}

/// A verboo scene: a user hook (a Stop hook) and a project guard on Bash that blocks `rm -rf`
/// (its script in the project), not yet trusted.
pub(crate) fn verboo_guard() -> Scene {
    let scene = Scene::new();
    scene.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    scene.write(
        "project/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    scene.write(
        "project/guard.sh",
        "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }\nexit 0\n",
    );
    scene
}
