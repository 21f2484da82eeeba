//! The `hook` program the relay entries start: where it is and whether it runs.

use std::path::Path;
use std::time::Duration;

use hook_exec::command::CommandError;

use super::{AgentStatus, Problem, Program};
use crate::ops::program::{ProgramRun, is_executable, run_program};

/// How long the program of an entry has to answer `--version`.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// The most read of what a program prints on `--version` (a version is one short line).
const VERSION_OUTPUT_CAP: usize = 64 * 1024;

/// The program an entry's command starts: its first shell word.
pub(super) fn program_word(command: &str) -> String {
    shlex::split(command)
        .and_then(|words| words.into_iter().next())
        .unwrap_or_else(|| command.to_owned())
}

/// Each distinct program of the entries: found, executable, answering `--version`.
pub(super) fn check_programs(status: &mut AgentStatus, project: &Path, agent_path: Option<&str>) {
    let mut seen: Vec<String> = Vec::new();
    for file in &status.settings {
        for entry in &file.entries {
            if !seen.contains(&entry.program) {
                seen.push(entry.program.clone());
            }
        }
    }
    for program in seen {
        let checked = check_program(&program, project, agent_path);
        if let Some(problem) = &checked.problem {
            status.problems.push(Problem::new(
                format!(
                    "the relay entries start `{program}`, which {problem}: {} cannot start the relay, so no relay hook runs",
                    status.title
                ),
                Some(format!(
                    "rewrite the entries with the `hook` you want them to start: `/path/to/hook relay sync --agent {}` (and `--project DIR` for each project installed in)",
                    status.agent
                )),
            ));
        }
        status.programs.push(checked);
    }
}

/// Where `program` is and whether it runs.
pub(super) fn check_program(program: &str, project: &Path, agent_path: Option<&str>) -> Program {
    let mut checked = Program {
        program: program.to_owned(),
        path: None,
        version: None,
        problem: None,
    };
    let found = if program.contains('/') {
        Some(project.join(program)).filter(|path| path.exists())
    } else {
        let path_var = agent_path
            .map(std::ffi::OsString::from)
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        std::env::split_paths(&path_var)
            .map(|dir| project.join(dir).join(program))
            .find(|path| is_executable(path))
    };
    let Some(path) = found else {
        checked.problem = Some(if program.contains('/') {
            "does not exist".to_owned()
        } else if agent_path.is_some() {
            "is not on the agent's PATH (as the relay last recorded it)".to_owned()
        } else {
            "is not on this shell's PATH (no PATH of the agent recorded yet)".to_owned()
        });
        return checked;
    };
    checked.path = Some(path.clone());
    if !is_executable(&path) {
        checked.problem = Some("is not an executable file".to_owned());
        return checked;
    }
    match version_of(&path) {
        Ok(version) => checked.version = Some(version),
        Err(why) => checked.problem = Some(why),
    }
    checked
}

/// The first line `path --version` prints, or why there is none.
fn version_of(path: &Path) -> std::result::Result<String, String> {
    let run = run_program(ProgramRun {
        program: path,
        args: vec!["--version".into()],
        env: Vec::new(),
        cwd: Path::new("/"),
        timeout: VERSION_TIMEOUT,
        output_cap: VERSION_OUTPUT_CAP,
    })
    .map_err(|error| format!("cannot be started ({error:#})"))?;
    match run.end {
        Ok(()) => {}
        Err(CommandError::TimedOut { .. }) => {
            return Err(format!(
                "does not answer `--version` within {} s",
                VERSION_TIMEOUT.as_secs()
            ));
        }
        Err(CommandError::OutputTooLarge { .. }) => {
            return Err(format!(
                "prints more than {} KiB on `--version`",
                VERSION_OUTPUT_CAP / 1024
            ));
        }
        Err(error) => return Err(format!("cannot be started ({error})")),
    }
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    // What the shell or the program said, when it said why (a missing interpreter, say).
    let said = match stderr.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => format!(": {line}"),
        _ => String::new(),
    };
    match run.exit_code {
        Some(0) => Ok(stdout.lines().next().unwrap_or_default().trim().to_owned()),
        Some(code) => Err(format!("exits {code} on `--version`{said}")),
        None => Err(format!("is killed by a signal on `--version`{said}")),
    }
}
