//! [`Output`]: what a `hook` command did, with assertions that show the command and the scene;
//! [`Runner`]: how a suite runs `hook`.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// A finished command: its exit status and output, the command line that ran it and, where a
/// scene was given, the scene's tree. Its fields are those of [`std::process::Output`], so a
/// test reads `out.status`, `out.stdout` and `out.stderr` either way.
#[derive(Debug)]
#[non_exhaustive]
pub struct Output {
    /// The exit status.
    pub status: ExitStatus,
    /// What it printed on stdout.
    pub stdout: Vec<u8>,
    /// What it printed on stderr.
    pub stderr: Vec<u8>,
    /// The command line, shell-like, for failure messages.
    pub command: String,
    /// The scene's tree when it ran ([`crate::Scene::tree`]), or "".
    pub tree: String,
}

impl Output {
    /// `out` of `command` (its words), with `tree` for failure messages.
    pub fn new(command: &[OsString], out: std::process::Output, tree: String) -> Output {
        let command = command
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        Output {
            status: out.status,
            stdout: out.stdout,
            stderr: out.stderr,
            command,
            tree,
        }
    }

    /// stdout as text, lossily.
    pub fn stdout_text(&self) -> String {
        crate::fs::text(&self.stdout)
    }

    /// stderr as text, lossily.
    pub fn stderr_text(&self) -> String {
        crate::fs::text(&self.stderr)
    }

    /// Asserts the command exited 0; returns `self` for further reading.
    ///
    /// # Panics
    /// Otherwise, with [`Output::report`].
    #[track_caller]
    pub fn success(&self) -> &Output {
        if !self.status.success() {
            panic!("expected success\n{}", self.report());
        }
        self
    }

    /// Asserts the command exited with `code`.
    ///
    /// # Panics
    /// Otherwise, with [`Output::report`].
    #[track_caller]
    pub fn code(&self, code: i32) -> &Output {
        if self.status.code() != Some(code) {
            panic!("expected exit {code}\n{}", self.report());
        }
        self
    }

    /// Asserts stdout contains `needle`.
    ///
    /// # Panics
    /// Otherwise, with [`Output::report`].
    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Output {
        if !self.stdout_text().contains(needle) {
            panic!("expected stdout to contain {needle:?}\n{}", self.report());
        }
        self
    }

    /// Asserts stderr contains `needle`.
    ///
    /// # Panics
    /// Otherwise, with [`Output::report`].
    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Output {
        if !self.stderr_text().contains(needle) {
            panic!("expected stderr to contain {needle:?}\n{}", self.report());
        }
        self
    }

    /// The command line, exit status, both outputs and the scene's tree, as a failed
    /// assertion prints them.
    pub fn report(&self) -> String {
        let tree = if self.tree.is_empty() {
            "(no scene)".to_owned()
        } else {
            self.tree.clone()
        };
        format!(
            "command: {}\nstatus: {}\n--- stdout\n{}\n--- stderr\n{}\n--- scene\n{tree}",
            self.command,
            self.status,
            self.stdout_text(),
            self.stderr_text(),
        )
    }
}

/// A finished command as the readers of [`crate::read`] take it: the kit's [`Output`] or a
/// [`std::process::Output`] a test got from its own [`Command`].
pub trait Finished {
    /// The exit code, `None` when a signal ended it.
    fn exit_code(&self) -> Option<i32>;
    /// What it printed on stdout.
    fn out(&self) -> &[u8];
    /// What it printed on stderr.
    fn err(&self) -> &[u8];
}

impl Finished for Output {
    fn exit_code(&self) -> Option<i32> {
        self.status.code()
    }
    fn out(&self) -> &[u8] {
        &self.stdout
    }
    fn err(&self) -> &[u8] {
        &self.stderr
    }
}

impl Finished for std::process::Output {
    fn exit_code(&self) -> Option<i32> {
        self.status.code()
    }
    fn out(&self) -> &[u8] {
        &self.stdout
    }
    fn err(&self) -> &[u8] {
        &self.stderr
    }
}

/// How a suite runs `hook`: [`Spawn`] starts the binary; hook-cli's in-process suite
/// dispatches the command line in its own process.
pub trait Runner {
    /// `hook args` with `stdin`.
    fn run(&self, args: &[&str], stdin: &[u8]) -> Output;
}

/// Runs a binary as a child process: in `dir`, with `env` set and the agents' variables of the
/// environment running the tests removed.
#[derive(Debug, Clone)]
pub struct Spawn {
    program: PathBuf,
    dir: Option<PathBuf>,
    env: Vec<(OsString, OsString)>,
    scene: Option<PathBuf>,
}

/// The variables an agent or the engine reads: a test sets the ones it means, never inherits.
const AGENT_VARIABLES: &[&str] = &[
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "LIME_HOME",
    "WUU_HOME",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_ENV_FILE",
    "HOOK_JOURNAL",
    "HOOK_MODEL_URL",
    // Colours a pipe (`hook` honours it): a test's output is compared as text.
    "CLICOLOR_FORCE",
];

impl Spawn {
    /// Runs `program` (a test gets the `hook` binary as `env!("CARGO_BIN_EXE_hook")`).
    pub fn new(program: impl Into<PathBuf>) -> Spawn {
        Spawn {
            program: program.into(),
            dir: None,
            env: Vec::new(),
            scene: None,
        }
    }

    /// Runs in `scene`: `HOME` its home, in its project, `NO_COLOR` set; its tree goes into
    /// every failure message.
    #[must_use]
    pub fn in_scene(mut self, scene: &crate::Scene) -> Spawn {
        self.dir = Some(scene.project());
        self.scene = Some(scene.root().to_path_buf());
        self.env("HOME", scene.home()).env("NO_COLOR", "1")
    }

    /// Sets `name` to `value`.
    #[must_use]
    pub fn env(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> Spawn {
        self.env.push((name.into(), value.into()));
        self
    }

    /// Runs in `dir`.
    #[must_use]
    pub fn dir(mut self, dir: &Path) -> Spawn {
        self.dir = Some(dir.to_path_buf());
        self
    }
}

impl Runner for Spawn {
    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut command = Command::new(&self.program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for name in AGENT_VARIABLES {
            command.env_remove(name);
        }
        command.envs(self.env.iter().map(|(n, v)| (n, v)));
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.program.display()));
        if let Some(mut pipe) = child.stdin.take() {
            // A command that exits before reading all of stdin closes the pipe: not a failure.
            let _ = pipe.write_all(stdin);
        }
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("cannot wait for {}: {e}", self.program.display()));
        let words: Vec<OsString> = std::iter::once(self.program.clone().into_os_string())
            .chain(args.iter().map(OsString::from))
            .collect();
        let tree = self.scene.as_deref().map(tree_of).unwrap_or_default();
        Output::new(&words, out, tree)
    }
}

/// The tree under `root`, as [`crate::Scene::tree`] prints it.
fn tree_of(root: &Path) -> String {
    crate::scene::tree(root)
}

#[cfg(test)]
mod tests {
    use super::{Runner as _, Spawn};
    use crate::Scene;

    /// A failed assertion's message: what ripgrep's test helpers print, so the reader sees the
    /// command that ran, what it said and the files it saw without running it again.
    #[test]
    fn a_failed_assertion_shows_the_command_line_its_output_and_the_scenes_tree() {
        let scene = Scene::new();
        scene.write("project/notes.txt", "x");
        let out = Spawn::new("sh")
            .in_scene(&scene)
            .run(&["-c", "cat; echo said >&2; exit 3"], b"given");
        let failed = std::panic::catch_unwind(|| {
            out.success();
        })
        .expect_err("exit 3 is not a success");
        let message = failed
            .downcast_ref::<String>()
            .expect("the panic carries a formatted message");
        for part in [
            "expected success",
            "command: sh -c cat; echo said >&2; exit 3",
            "status: exit status: 3",
            "--- stdout\ngiven\n",
            "--- stderr\nsaid\n",
            "--- scene\nhome/\nproject/\nproject/notes.txt",
        ] {
            assert!(message.contains(part), "{part:?} missing from:\n{message}");
        }
    }

    /// The scene is where the command runs, and `HOME` is its home.
    #[test]
    fn a_spawned_command_runs_in_the_project_with_the_scenes_home() {
        let scene = Scene::new();
        let out = Spawn::new("sh")
            .in_scene(&scene)
            .run(&["-c", "pwd; echo \"$HOME\""], b"");
        out.success().stdout_has("project");
        let expected = format!(
            "{}\n{}\n",
            scene.project().display(),
            scene.home().display()
        );
        assert_eq!(out.stdout_text(), expected, "{}", out.report());
    }

    /// An assertion that holds returns the output for the next one, and says nothing.
    #[test]
    fn assertions_that_hold_chain() {
        let out = Spawn::new("sh").run(&["-c", "echo yes; echo no >&2; exit 4"], b"");
        out.code(4).stdout_has("yes").stderr_has("no");
    }
}
