//! The `hook` program the relay entries start: where it is and whether it runs.

use std::path::Path;
use std::time::{Duration, Instant};

use super::{AgentStatus, Problem, Program};
use crate::ops::program::is_executable;

/// How long the program of an entry has to answer `--version`.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

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
    use std::io::Read as _;
    let mut child = std::process::Command::new(path)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot be started ({error})"))?;
    let started = Instant::now();
    let exit = loop {
        match child.try_wait() {
            Ok(Some(exit)) => break exit,
            Ok(None) if started.elapsed() < VERSION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "does not answer `--version` within {} s",
                    VERSION_TIMEOUT.as_secs()
                ));
            }
        }
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        // A version is one short line: the rest is not read.
        let _ = stdout.by_ref().take(4096).read_to_string(&mut out);
    }
    if !exit.success() {
        return Err(match exit.code() {
            Some(code) => format!("exits {code} on `--version`"),
            None => "is killed by a signal on `--version`".to_owned(),
        });
    }
    Ok(out.lines().next().unwrap_or_default().trim().to_owned())
}
