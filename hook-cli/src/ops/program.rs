//! Programs as `hook` meets them: whether a file is a program a shell would start (what `hook
//! doctor`, `hook relay status` and `hook relay install` ask of a command's first word), and
//! running one, which goes through hook-exec's command runner like a hook: hook-exec is the
//! only crate that starts processes (ARCHITECTURE.md, "Invariants").

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use hook_exec::command::{CommandRun, CommandSpec, run_command};

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

/// How one program is run by [`run_program`].
pub(crate) struct ProgramRun<'a> {
    /// The program, started by its path.
    pub(crate) program: &'a Path,
    /// Its arguments.
    pub(crate) args: Vec<OsString>,
    /// Variables set for it, over this process's environment.
    pub(crate) env: Vec<(String, String)>,
    /// The folder it starts in.
    pub(crate) cwd: &'a Path,
    /// How long it may run before its whole process group is killed.
    pub(crate) timeout: Duration,
    /// The most read of each of its stdout and stderr: past it the run is an error.
    pub(crate) output_cap: usize,
}

/// Runs `run` to its end through hook-exec's runner (stdin empty, output capped, the process
/// group killed at the timeout). An error when the program or an argument is not UTF-8 (the
/// runner takes a shell command) or no runtime could be made; how the program itself ended,
/// started or not, is in the [`CommandRun`].
pub(crate) fn run_program(run: ProgramRun<'_>) -> Result<CommandRun> {
    let words = std::iter::once(run.program.as_os_str())
        .chain(run.args.iter().map(OsString::as_os_str))
        .map(|word| match word.to_str() {
            Some(word) => Ok(word.to_owned()),
            None => bail!(
                "{} is not UTF-8: use a path that is",
                Path::new(word).display()
            ),
        })
        .collect::<Result<Vec<_>>>()?;
    let mut spec = CommandSpec::new(crate::shell::join(&words), run.cwd, run.timeout);
    spec.env = run.env;
    spec.output_cap = run.output_cap;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start an async runtime")?;
    Ok(runtime.block_on(run_command(&spec)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::Duration;

    use hook_exec::command::CommandError;

    use super::{ProgramRun, run_program};
    use crate::ops::scene::Scene;

    fn run(
        program: &std::path::Path,
        args: &[&str],
        timeout: Duration,
    ) -> hook_exec::command::CommandRun {
        run_program(ProgramRun {
            program,
            args: args.iter().map(Into::into).collect(),
            env: vec![("GREETING".to_owned(), "it's me".to_owned())],
            cwd: std::path::Path::new("/"),
            timeout,
            output_cap: 64,
        })
        .unwrap()
    }

    #[test]
    fn a_program_gets_its_arguments_word_for_word_and_is_bounded_in_time_and_output() {
        let scene = Scene::new();
        let tool = scene.write(
            "bin/my tool",
            "#!/bin/sh\nprintf '%s|' \"$@\" \"$GREETING\"\n",
        );
        let said = run(&tool, &["a b", "$HOME", "'q'"], Duration::from_secs(30));
        assert!(said.end.is_ok(), "{:?}", said.end);
        assert_eq!(said.exit_code, Some(0));
        assert_eq!(
            String::from_utf8_lossy(&said.stdout),
            "a b|$HOME|'q'|it's me|"
        );

        let chatty = scene.write("bin/chatty", "#!/bin/sh\nhead -c 100000 /dev/zero\n");
        let chatty = run(&chatty, &[], Duration::from_secs(30));
        assert!(
            matches!(
                chatty.end,
                Err(CommandError::OutputTooLarge {
                    stream: "stdout",
                    cap: 64
                })
            ),
            "{:?}",
            chatty.end
        );

        let stuck = scene.write("bin/stuck", "#!/bin/sh\nsleep 600\n");
        let stuck = run(&stuck, &[], Duration::from_millis(300));
        assert!(
            matches!(stuck.end, Err(CommandError::TimedOut { .. })),
            "{:?}",
            stuck.end
        );
    }
}
