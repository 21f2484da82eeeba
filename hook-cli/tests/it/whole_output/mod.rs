//! Whole-output tests: every line a command prints (stdout, stderr and the exit code), as a
//! snapshot under `snapshots/`. A fragment test (`contains(...)`) lets an output say two
//! contradictory things; a snapshot does not. Temp paths, times, durations and the version are
//! filtered, so the snapshots hold on any machine.
//!
//! To accept a changed output after reading its diff: `INSTA_UPDATE=always cargo nextest run -p
//! hook-cli whole_output`, then review `git diff hook-cli/tests/it/snapshots/`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::{Path, PathBuf};

use hook_test_support::filters::Paths;
use hook_test_support::{Runner as _, Spawn};

/// A kit [`hook_test_support::Scene`] whose commands run with `HOME` there, in the project,
/// with no agent variable of the environment running the tests; what they print is filtered
/// of the scene's paths and the binary's.
pub(crate) struct Scene {
    scene: hook_test_support::Scene,
    pub(crate) root: PathBuf,
}

impl Scene {
    pub(crate) fn new() -> Scene {
        let scene = hook_test_support::Scene::new();
        let root = scene.root().to_path_buf();
        Scene { scene, root }
    }

    pub(crate) fn project(&self) -> PathBuf {
        self.scene.project()
    }

    /// Writes `text` at `relative` (under the scene's root), folders made.
    pub(crate) fn write(&self, relative: &str, text: &str) -> PathBuf {
        self.scene.write(relative, text)
    }

    /// Writes an executable script at `relative`.
    pub(crate) fn script(&self, relative: &str, text: &str) -> PathBuf {
        self.scene.script(relative, text)
    }

    /// The file at `relative`, filtered as command output is.
    pub(crate) fn read(&self, relative: &str) -> String {
        self.filter(&self.scene.read(relative))
    }

    /// `hook args` with `stdin`: the exit code, stdout and stderr as one text, filtered.
    pub(crate) fn run(&self, args: &[&str], stdin: &str) -> String {
        let out = Spawn::new(env!("CARGO_BIN_EXE_hook"))
            .in_scene(&self.scene)
            .run(args, stdin.as_bytes());
        let code = out
            .status
            .code()
            .map_or_else(|| "signal".to_owned(), |c| c.to_string());
        let text = format!(
            "exit: {code}\n--- stdout\n{}--- stderr\n{}",
            out.stdout_text(),
            out.stderr_text()
        );
        self.filter(&text)
    }

    /// The scene's paths as `[ROOT]`, the binary as `[HOOK]`.
    fn filter(&self, text: &str) -> String {
        Paths::new()
            .with(Path::new(env!("CARGO_BIN_EXE_hook")), "[HOOK]")
            .with(&self.root, "[ROOT]")
            .apply(text)
    }
}

/// Snapshots `$output` under `$name` with times, durations and the version filtered.
macro_rules! snap {
    ($name:expr, $output:expr) => {
        insta::with_settings!({
            prepend_module_to_snapshot => false,
            snapshot_suffix => "",
            omit_expression => true,
            // Times, durations, the version and hashed temp paths: the kit's list.
            filters => hook_test_support::filters::varying(),
        }, {
            insta::assert_snapshot!($name, $output);
        });
    };
}

pub(crate) use hook_test_support::filters::loose;

mod agents;
mod author;
mod errors;
mod guard;
mod inspect;
mod relay;
mod replay;
