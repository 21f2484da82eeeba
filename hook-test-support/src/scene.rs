//! [`Scene`]: a temp folder laid out as a user's machine.

use std::path::{Path, PathBuf};

/// A temp folder with a home (`home/`), the agents' homes under it, and a project
/// (`project/`); deleted when dropped. Its root is canonical, so a path a command prints
/// (resolved) and one the test builds are the same text.
#[derive(Debug)]
pub struct Scene {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Default for Scene {
    fn default() -> Self {
        Self::new()
    }
}

impl Scene {
    /// A new scene with `home/` and `project/` made.
    ///
    /// # Panics
    /// When the temp folder cannot be made.
    pub fn new() -> Scene {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("cannot make a temp folder: {e}"));
        let root = dir
            .path()
            .canonicalize()
            .unwrap_or_else(|e| panic!("cannot resolve {}: {e}", dir.path().display()));
        for folder in ["home", "project"] {
            let path = root.join(folder);
            std::fs::create_dir_all(&path)
                .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
        }
        Scene { _dir: dir, root }
    }

    /// The scene's root (the temp folder).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `HOME`.
    pub fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    /// The project the commands run in.
    pub fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// The home of the agent speaking `dialect` under [`Scene::home`], as the agents place it:
    /// Claude Code's (`verboo`) `~/.claude`, Codex's (`lime`) `~/.codex`.
    ///
    /// # Panics
    /// For a dialect with no agent home.
    pub fn agent_home(&self, dialect: &str) -> PathBuf {
        match dialect {
            "verboo" => self.home().join(".claude"),
            "lime" => self.home().join(".codex"),
            other => panic!("no agent home for dialect `{other}`: use verboo or lime"),
        }
    }

    /// `COMMAND --dialect DIALECT --home HOME --project PROJECT ARGS` on this scene.
    pub fn located(&self, command: &str, dialect: &str, args: &[&str]) -> Vec<String> {
        let mut all = crate::args::located(command, dialect, &self.home(), &self.project());
        all.extend(args.iter().map(|a| (*a).to_owned()));
        all
    }

    /// `relative` under the root.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Writes `text` at `relative` (under the root), folders made.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path(relative);
        crate::fs::write(&path, text);
        path
    }

    /// Writes an executable script at `relative`.
    pub fn script(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.path(relative);
        crate::fs::script(&path, text);
        path
    }

    /// The file at `relative` as text.
    pub fn read(&self, relative: &str) -> String {
        crate::fs::read(&self.path(relative))
    }

    /// Every file and folder under the root, one relative path a line, sorted (folders end
    /// in `/`): what a failed assertion prints so the reader sees what the command saw.
    pub fn tree(&self) -> String {
        tree(&self.root)
    }
}

/// Every entry under `root`, relative, sorted, one a line (folders end in `/`).
pub(crate) fn tree(root: &Path) -> String {
    let mut lines = Vec::new();
    walk(root, root, &mut lines);
    lines.sort();
    lines.join("\n")
}

/// Adds the entries under `dir` (relative to `root`) to `lines`; links are not followed.
fn walk(root: &Path, dir: &Path, lines: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let relative = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            lines.push(format!("{relative}/"));
            walk(root, &path, lines);
        } else {
            lines.push(relative);
        }
    }
}
