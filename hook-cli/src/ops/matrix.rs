//! `hook test`: one hook run through the verification matrix — a minimal event, the given input,
//! another tool, another event — each run judged: what it decided and whether its output is
//! valid.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use hook_exec::command::{CommandError, CommandSpec, run_command};
use hook_protocol::input::example_input;
use hook_protocol::{
    Decision, Dialect, Event, HandlerResult, MatchTarget, ValidateError, interpret, validate_output,
};
use serde_json::Value;

/// What to test: the hook (a command or a native library) and the matrix's parameters.
#[derive(Debug)]
pub(crate) struct Matrix {
    /// The dialect the hook speaks.
    pub(crate) dialect: Dialect,
    /// The event it is meant for.
    pub(crate) event: Event,
    /// The tool it is meant for (tool events).
    pub(crate) tool: Option<String>,
    /// An event JSON to run it on as well.
    pub(crate) input: Option<PathBuf>,
    /// The bound on each run.
    pub(crate) timeout: Duration,
    /// The command line (`/bin/sh -c`), when the hook is a command.
    pub(crate) command: String,
    /// The library, when the hook is a native plugin.
    pub(crate) native: Option<PathBuf>,
}

/// Runs every case of `matrix`; a report a run.
pub(crate) fn run(matrix: &Matrix) -> Result<Vec<Report>> {
    let dialect = matrix.dialect;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let cwd_text = cwd.display().to_string();
    if let Some(library) = &matrix.native {
        if !library.exists() {
            bail!(
                "native library {} does not exist: build it first (`cargo build` in the hook's crate)",
                library.display()
            );
        }
        // As the engine will read it: a regular file under the cap (`/dev/zero` is refused).
        hook_config::library::open_checked(library)?;
    }
    let cases = cases(
        dialect,
        &matrix.event,
        matrix.tool.as_deref(),
        &cwd_text,
        matrix.input.as_deref(),
    )?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut reports = Vec::new();
    for case in cases {
        let stdin = serde_json::to_vec(&case.input)?;
        let ran = match &matrix.native {
            Some(library) => runtime.block_on(run_native(library, dialect, &stdin, matrix.timeout)),
            None => {
                let mut spec = CommandSpec::new(&matrix.command, &cwd, matrix.timeout);
                spec.stdin = stdin.into();
                spec.env = vec![
                    ("HOOK_DIALECT".into(), dialect.to_string()),
                    ("HOOK_EVENT".into(), case.event.to_string()),
                ];
                command_ran(
                    &runtime.block_on(run_command(&spec)),
                    matrix.timeout.as_secs_f64(),
                )
            }
        };
        reports.push(judge(dialect, &case, &ran));
    }
    Ok(reports)
}

/// One row of the verification matrix.
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) event: Event,
    pub(crate) input: Value,
    /// The fields `hook test` added to a partial `--input` (required fields it lacked).
    pub(crate) filled: Vec<String>,
}

/// How one case ran, from a command or a native library.
pub(crate) struct Ran {
    pub(crate) exit_code: Option<i32>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    pub(crate) duration: Duration,
    /// Why the run gave no output to judge (timed out, could not start...).
    pub(crate) failure: Option<String>,
}

/// What one run showed.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Report {
    pub(crate) case: &'static str,
    pub(crate) event: String,
    pub(crate) tool: Option<String>,
    pub(crate) exit_code: Option<i32>,
    pub(crate) duration_ms: u64,
    pub(crate) output: String,
    pub(crate) decision: String,
    /// The fields added to a partial `--input`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) filled: Vec<String>,
    /// The tool input the hook rewrote the call to.
    pub(crate) updated_input: Option<Value>,
    /// Context the hook added for the model.
    pub(crate) additional_context: Option<String>,
    /// Its message for the user.
    pub(crate) system_message: Option<String>,
    /// Its request that the agent stop, with the reason.
    pub(crate) stop: Option<String>,
    /// Fields of its output the dialect does not define (the agent ignores them), with the
    /// closest known field when one is close: as `hook validate` warns.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) warnings: Vec<String>,
    pub(crate) problem: Option<String>,
}

/// The runs of the matrix: a minimal event, the given input, another tool, another event.
fn cases(
    dialect: Dialect,
    event: &Event,
    tool: Option<&str>,
    cwd: &str,
    input: Option<&Path>,
) -> Result<Vec<Case>> {
    let example = |event: &Event, tool: Option<&str>| {
        example_input(dialect, event, cwd, tool).context("every known event has an example")
    };
    let mut cases = vec![Case {
        name: "minimal event",
        event: event.clone(),
        input: example(event, tool)?,
        filled: Vec::new(),
    }];
    if let Some(path) = input {
        let text =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let value: Value = serde_json::from_slice(&text)
            .with_context(|| format!("{} is not valid JSON", path.display()))?;
        let given = value
            .get("hook_event_name")
            .and_then(Value::as_str)
            .map_or_else(|| event.clone(), Event::from_name);
        let Value::Object(fields) = value else {
            bail!("{} must hold a JSON object (an event)", path.display());
        };
        let given_tool = fields.get("tool_name").and_then(Value::as_str).or(tool);
        let (input, filled) = fill(example(&given, given_tool)?, fields);
        cases.push(Case {
            name: "given input",
            event: given,
            input,
            filled,
        });
    }
    if event.match_target(dialect) == MatchTarget::ToolName {
        let other = if tool.is_some_and(|t| t.eq_ignore_ascii_case("read")) {
            "Grep"
        } else {
            "Read"
        };
        let other = dialect.rules().matching().tool_name(other).into_owned();
        cases.push(Case {
            name: "another tool",
            event: event.clone(),
            input: example(event, Some(&other))?,
            filled: Vec::new(),
        });
    }
    let other_event = dialect
        .events()
        .iter()
        .find(|e| *e != event && **e != Event::SessionEnd);
    if let Some(other_event) = other_event {
        cases.push(Case {
            name: "another event",
            event: other_event.clone(),
            input: example(other_event, None)?,
            filled: Vec::new(),
        });
    }
    Ok(cases)
}

/// `given` over the minimal event: the fields of `example` that `given` lacks are added, as the
/// SDK's test helpers do, and named (in order) so the report can say what was filled.
pub(crate) fn fill(example: Value, given: serde_json::Map<String, Value>) -> (Value, Vec<String>) {
    let Value::Object(mut input) = example else {
        return (Value::Object(given), Vec::new());
    };
    let filled = input
        .keys()
        .filter(|key| !given.contains_key(*key))
        .cloned()
        .collect();
    input.extend(given);
    (Value::Object(input), filled)
}

/// A command's run as `hook test` judges it.
fn command_ran(run: &hook_exec::command::CommandRun, timeout: f64) -> Ran {
    let failure = run.end.as_ref().err().map(|error| match error {
        CommandError::TimedOut { .. } => format!("timed out: still running after {timeout} s"),
        CommandError::Spawn { .. } | CommandError::NoWorkingDirectory { .. } => error.to_string(),
        CommandError::OutputTooLarge { stream, .. } => format!("{stream} is over 1 MiB"),
        CommandError::PipesHeldOpen { .. } => {
            "a process that left the hook's group kept its output open".into()
        }
        CommandError::OutputUnreadable { stream, source } => {
            format!("reading its {stream} failed part way ({source}): the output may be truncated")
        }
        // A way of failing a newer hook-exec knows: never taken as a clean exit.
        other => format!("the run did not end normally: {other}"),
    });
    Ran {
        exit_code: run.exit_code,
        stdout: run.stdout.clone(),
        stderr: run.stderr.clone(),
        duration: run.duration,
        failure,
    }
}

/// A native library's run on one case: loaded in this process and called, as the engine does.
async fn run_native(library: &Path, dialect: Dialect, stdin: &[u8], timeout: Duration) -> Ran {
    let started = std::time::Instant::now();
    match hook_exec::native::call_library(library, dialect, stdin, timeout).await {
        Ok(reply) => Ran {
            exit_code: Some(reply.exit_code),
            stdout: reply.stdout,
            stderr: reply.stderr,
            duration: started.elapsed(),
            failure: None,
        },
        Err(error) => Ran {
            exit_code: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            duration: started.elapsed(),
            failure: Some(error.to_string()),
        },
    }
}

/// What one run showed: its output, decision and, when it misbehaved, the problem.
fn judge(dialect: Dialect, case: &Case, run: &Ran) -> Report {
    let tool = case
        .input
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut report = Report {
        case: case.name,
        event: case.event.to_string(),
        tool,
        exit_code: run.exit_code,
        duration_ms: u64::try_from(run.duration.as_millis()).unwrap_or(u64::MAX),
        output: String::new(),
        decision: String::new(),
        filled: case.filled.clone(),
        updated_input: None,
        additional_context: None,
        system_message: None,
        stop: None,
        warnings: Vec::new(),
        problem: None,
    };
    if let Some(failure) = &run.failure {
        report.decision = "none".into();
        report.problem = Some(failure.clone());
        return report;
    }
    if matches!(run.exit_code, Some(126 | 127)) {
        let stderr = String::from_utf8_lossy(&run.stderr).trim().to_owned();
        report.problem = Some(format!("the command could not be run ({stderr})"));
        return report;
    }
    let stdout = run.stdout.trim_ascii();
    let structured = dialect.rules().output().reads_as_json(stdout);
    report.output = if stdout.is_empty() {
        "empty".into()
    } else if !structured {
        "text".into()
    } else {
        if let Ok(value) = serde_json::from_slice::<Value>(stdout) {
            report.warnings = hook_protocol::unknown_output_fields(dialect, &case.event, &value)
                .map(|fields| fields.iter().map(ToString::to_string).collect())
                .unwrap_or_default();
        }
        match validate_output(dialect, &case.event, stdout) {
            Ok(()) => "valid JSON".into(),
            Err(ValidateError::Invalid { issues, .. }) => {
                let first = issues.first().map(ToString::to_string).unwrap_or_default();
                report.problem = Some(format!("invalid output: {first}"));
                "invalid".into()
            }
            Err(error) => {
                report.problem = Some(format!("invalid output: {error}"));
                "invalid".into()
            }
        }
    };
    let result = interpret(
        dialect,
        &case.event,
        run.exit_code,
        &run.stdout,
        &run.stderr,
    );
    report.decision = match &result {
        HandlerResult::Response(response) => match response.decision {
            None | Some(Decision::Continue) => "continue".into(),
            Some(decision) => {
                let name = serde_json::to_value(decision)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                match &response.reason {
                    Some(reason) => format!("{name}: {reason}"),
                    None => name,
                }
            }
        },
        HandlerResult::NonBlockingError { message } => format!("error: {message}"),
        HandlerResult::Failed(failure) => format!("failed: {failure}"),
    };
    if let HandlerResult::Response(response) = &result {
        report.updated_input = response.updated_input.clone();
        report.additional_context = response.additional_context.clone();
        report.system_message = response.system_message.clone();
        report.stop = response.stop.as_ref().map(|stop| {
            stop.reason
                .clone()
                .unwrap_or_else(|| "(no reason)".to_owned())
        });
    }
    let failed = matches!(
        result,
        HandlerResult::Failed(_) | HandlerResult::NonBlockingError { .. }
    );
    if report.problem.is_none() && failed {
        // The two inputs the author chose must run cleanly; on another tool or event an error
        // may be the hook's way of saying "not for me".
        report.problem = match case.name {
            "minimal event" => Some(format!(
                "the hook fails on a minimal valid {} event",
                case.event
            )),
            "given input" => Some(format!(
                "the hook fails on the given input ({}): a hook that means to block exits 2 or prints a decision",
                match run.exit_code {
                    Some(code) => format!("exit {code}"),
                    None => "killed by a signal".to_owned(),
                }
            )),
            _ => None,
        };
    }
    report
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::Scene;

    fn matrix(scene: &Scene, command: &str, input: Option<PathBuf>) -> Matrix {
        let _ = scene;
        Matrix {
            dialect: Dialect::Verboo,
            event: Event::PreToolUse,
            tool: Some("Bash".into()),
            input,
            timeout: Duration::from_secs(20),
            command: command.into(),
            native: None,
        }
    }

    #[test]
    fn a_partial_input_is_filled_and_the_filled_fields_named() {
        let example = serde_json::json!({"a": 1, "b": 2, "c": 3});
        let given = serde_json::json!({"b": 20, "d": 4});
        let Value::Object(given) = given else {
            unreachable!()
        };
        let (value, filled) = fill(example, given);
        assert_eq!(value, serde_json::json!({"a": 1, "b": 20, "c": 3, "d": 4}));
        assert_eq!(filled, ["a", "c"]);
    }

    #[test]
    fn a_guard_runs_through_the_matrix_and_each_run_is_judged() {
        let scene = Scene::new();
        let guard = scene.write(
            "guard.sh",
            "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }\nexit 0\n",
        );
        let input = scene.write(
            "input.json",
            r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}"#,
        );
        let reports = run(&matrix(
            &scene,
            &crate::shell::quote(&guard.display().to_string()),
            Some(input),
        ))
        .unwrap();
        let seen: Vec<(&str, &str, Option<&str>, &str)> = reports
            .iter()
            .map(|r| {
                (
                    r.case,
                    r.event.as_str(),
                    r.tool.as_deref(),
                    r.decision.as_str(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("minimal event", "PreToolUse", Some("Bash"), "continue"),
                (
                    "given input",
                    "PreToolUse",
                    Some("Bash"),
                    "block: no rm -rf here"
                ),
                ("another tool", "PreToolUse", Some("Read"), "continue"),
                ("another event", "SessionStart", None, "continue"),
            ]
        );
        assert!(reports.iter().all(|r| r.problem.is_none()), "{reports:?}");
        assert!(
            reports[1].filled.contains(&"session_id".to_owned()),
            "{:?}",
            reports[1].filled
        );
    }

    #[test]
    fn a_hook_that_misbehaves_has_its_problem_said() {
        let scene = Scene::new();
        // (command, the problem of the minimal event's run)
        let table = [
            (
                "echo '{\"decision\": \"maybe\"}'",
                "invalid output: /decision",
            ),
            (
                "exit 1",
                "the hook fails on a minimal valid PreToolUse event",
            ),
            ("no-such-program-here", "the command could not be run"),
        ];
        for (command, problem) in table {
            let reports = run(&matrix(&scene, command, None)).unwrap();
            let found = reports[0].problem.as_deref().unwrap_or_default();
            assert!(found.starts_with(problem), "{command}: {found}");
        }
        let mut native = matrix(&scene, "", None);
        native.native = Some(scene.path("libnone.so"));
        let error = run(&native).unwrap_err();
        assert!(
            error.to_string().contains("does not exist: build it first"),
            "{error}"
        );
    }
}
