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

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A temp folder with a home (`HOME`) and a project; every command runs with `HOME` there, in
/// the project, with no agent variable of the environment running the tests.
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

    pub(crate) fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    pub(crate) fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// Writes `text` at `relative` (under the scene's root), folders made.
    pub(crate) fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Writes an executable script at `relative`.
    pub(crate) fn script(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.write(relative, text);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The file at `relative`, filtered as command output is.
    pub(crate) fn read(&self, relative: &str) -> String {
        self.filter(&std::fs::read_to_string(self.root.join(relative)).unwrap())
    }

    /// `hook args` with `stdin`: the exit code, stdout and stderr as one text, filtered.
    pub(crate) fn run(&self, args: &[&str], stdin: &str) -> String {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("LIME_HOME")
            .env_remove("WUU_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_ENV_FILE")
            .env_remove("HOOK_JOURNAL")
            .env_remove("HOOK_MODEL_URL")
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(stdin.as_bytes());
        drop(pipe);
        let out = child.wait_with_output().unwrap();
        let code = out
            .status
            .code()
            .map_or_else(|| "signal".to_owned(), |c| c.to_string());
        let text = format!(
            "exit: {code}\n--- stdout\n{}--- stderr\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        self.filter(&text)
    }

    /// The scene's paths as `[ROOT]`, the binary as `[HOOK]`.
    fn filter(&self, text: &str) -> String {
        let hook = Path::new(env!("CARGO_BIN_EXE_hook"));
        let hook = hook.canonicalize().unwrap_or_else(|_| hook.to_path_buf());
        text.replace(&*hook.to_string_lossy(), "[HOOK]")
            .replace(env!("CARGO_BIN_EXE_hook"), "[HOOK]")
            .replace(&*self.root.to_string_lossy(), "[ROOT]")
    }
}

/// Snapshots `$output` under `$name` with times, durations and the version filtered.
macro_rules! snap {
    ($name:expr, $output:expr) => {
        insta::with_settings!({
            prepend_module_to_snapshot => false,
            snapshot_suffix => "",
            omit_expression => true,
            filters => vec![
                // RFC 3339 times and dates (the journal, stats windows, backups).
                (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?", "[TIME]"),
                (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?Z?", "[TIME]"),
                (r"\b\d{2}-\d{2} \d{2}:\d{2}\b", "[WHEN]"),
                (r"\b\d{8}T\d{6}(\.\d+)?Z?\b", "[STAMP]"),
                (r"\b\d{2}:\d{2}:\d{2}\b", "[CLOCK]"),
                // Durations: `12ms`, `1.2 s`, `"duration_ms": 12`.
                (r"\b\d+(\.\d+)? ?(ms|µs|s)\b", "[DURATION]"),
                (r#""(duration_ms|p50_ms|p95_ms|max_ms|mean_ms|elapsed_ms|pid)": \d+(\.\d+)?"#, "\"$1\": \"[N]\""),
                (r#""(duration_ms|p50_ms|p95_ms|max_ms|mean_ms|elapsed_ms|pid)":\d+(\.\d+)?"#, "\"$1\":\"[N]\""),
                (r#""(seconds|events_per_second)": ?\d+(\.\d+)?(e-?\d+)?"#, "\"$1\":\"[N]\""),
                (r"hook \d+\.\d+\.\d+", "hook [VERSION]"),
                // `hook relay`'s state of a file is named after the hash of its (temp) path.
                (r"(/install/[^/\s]+)-[0-9a-f]{12}/", "$1-[HASH]/"),
            ],
        }, {
            insta::assert_snapshot!($name, $output);
        });
    };
}

/// `text` with runs of spaces and of box-drawing rules collapsed: a table whose column widths
/// follow a duration (`3ms` or `13ms`) snapshots the same either way.
pub(crate) fn loose(text: &str) -> String {
    let spaces = regex::Regex::new(" {2,}").unwrap();
    let rules = regex::Regex::new("([─═])+").unwrap();
    let text = spaces.replace_all(text, "  ");
    rules.replace_all(&text, "$1").into_owned()
}

mod author;
mod errors;
mod inspect;
mod relay;
mod replay;
