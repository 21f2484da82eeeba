//! Commands for hook authors: `hook test`, `hook convert`, `hook validate --config`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_exec::command::{CommandError, CommandSpec, run_command};
use hook_protocol::input::example_input;
use hook_protocol::{
    Decision, Dialect, Event, HandlerResult, MatchTarget, ValidateError, interpret, validate_output,
};
use serde_json::{Value, json};

use crate::terminal::{errln, outln, print_exact, println_exact};

use crate::{known_event, parse_dialect};

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The dialect of FILE.
    #[arg(long, value_parser = parse_dialect)]
    from: Dialect,
    /// The dialect to write.
    #[arg(long, value_parser = parse_dialect)]
    to: Dialect,
    /// A hooks configuration (JSON for wuu and verboo, TOML or JSON for lime).
    file: PathBuf,
}

/// `hook convert`: the target file on stdout, one warning per thing without an equivalent on
/// stderr.
pub(crate) fn convert(args: ConvertArgs) -> Result<ExitCode> {
    let hooks = read_config(args.from, &args.file)?;
    if hooks.has_errors() {
        // The diagnostics above say what and where; nothing is converted.
        return Ok(ExitCode::FAILURE);
    }
    let converted = hook_config::convert(args.from, args.to, &hooks.hooks);
    print_exact(&converted.text);
    for warning in &converted.warnings {
        errln!("warning: {warning}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a config file's hooks, printing its diagnostics on stderr.
fn read_config(dialect: Dialect, file: &Path) -> Result<hook_config::FileHooks> {
    if file.is_dir() {
        bail!(
            "{} is a directory: give the configuration file",
            file.display()
        );
    }
    let hooks = hook_config::read_hooks_file(dialect, file)?;
    for diagnostic in &hooks.diagnostics {
        let label = if diagnostic.is_error() {
            "error"
        } else {
            "warning"
        };
        errln!("{label}: {diagnostic}");
    }
    Ok(hooks)
}

/// `hook validate --config FILE`: diagnostics with file:line:col; exit 1 on any error.
///
/// The file is read exactly as the loader reads it (`hook_config::read_hooks_file`: a regular
/// file of at most 8 MiB, UTF-8, bounded nesting, 64-bit TOML integers), so a file `hook list`
/// or `hook run` would skip is never reported valid here.
pub(crate) fn validate_config(dialect: Dialect, file: &Path) -> Result<ExitCode> {
    let hooks = read_config(dialect, file)?;
    if hooks.has_errors() {
        return Ok(ExitCode::FAILURE);
    }
    outln!(
        "{}: valid {dialect} hooks configuration ({} handlers)",
        file.display(),
        hooks.hooks.len()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// The dialect the hook speaks.
    #[arg(long, value_parser = parse_dialect)]
    dialect: Dialect,
    /// The event the hook is meant for.
    #[arg(long)]
    event: String,
    /// The tool the hook is meant for (tool events).
    #[arg(long)]
    tool: Option<String>,
    /// An event JSON to run the hook on as well.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Bound on each run, in seconds (not the dialect's long default), at most a day.
    #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
    timeout: f64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// The hook's command and arguments.
    #[arg(last = true, required = true, num_args = 1..)]
    command: Vec<String>,
}

/// The longest `--timeout`: a day. A hook test that needs longer is not a test.
const MAX_TEST_TIMEOUT: f64 = 86_400.0;

/// `--timeout`: seconds, positive and at most [`MAX_TEST_TIMEOUT`] (so it always fits a
/// `Duration`).
fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds > 0.0 && seconds <= MAX_TEST_TIMEOUT {
        Ok(seconds)
    } else {
        Err(format!(
            "give a number of seconds above 0 and at most {MAX_TEST_TIMEOUT} (a day)"
        ))
    }
}

/// One row of the verification matrix.
struct Case {
    name: &'static str,
    event: Event,
    input: Value,
}

/// What one run showed.
#[derive(Debug, serde::Serialize)]
struct Report {
    case: &'static str,
    event: String,
    tool: Option<String>,
    exit_code: Option<i32>,
    duration_ms: u64,
    output: String,
    decision: String,
    problem: Option<String>,
}

/// `hook test`: the verification every author should run, automated.
pub(crate) fn test(args: TestArgs) -> Result<ExitCode> {
    let dialect = args.dialect;
    let event = known_event(dialect, &args.event)?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let cwd_text = cwd.display().to_string();
    let command = shell_join(&args.command);
    let cases = cases(
        dialect,
        &event,
        args.tool.as_deref(),
        &cwd_text,
        args.input.as_deref(),
    )?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut reports = Vec::new();
    for case in cases {
        let mut spec = CommandSpec::new(&command, &cwd, Duration::from_secs_f64(args.timeout));
        spec.stdin = serde_json::to_vec(&case.input)?.into();
        spec.env = vec![
            ("HOOK_DIALECT".into(), dialect.to_string()),
            ("HOOK_EVENT".into(), case.event.to_string()),
        ];
        let run = runtime.block_on(run_command(&spec));
        reports.push(judge(dialect, &case, &run, args.timeout));
    }

    let failed = reports.iter().any(|r| r.problem.is_some());
    if args.json {
        println_exact(&serde_json::to_string_pretty(
            &json!({"ok": !failed, "runs": reports}),
        )?);
    } else {
        print_table(&reports);
        let verdict = if failed {
            "FAILED: the hook misbehaved (see problems above)"
        } else {
            "ok"
        };
        outln!();
        outln!("{verdict}");
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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
        cases.push(Case {
            name: "given input",
            event: given,
            input: value,
        });
    }
    if event.match_target(dialect) == MatchTarget::ToolName {
        let other = if tool.is_some_and(|t| t.eq_ignore_ascii_case("read")) {
            "Grep"
        } else {
            "Read"
        };
        let other = dialect.rules().tool_name(other).into_owned();
        cases.push(Case {
            name: "another tool",
            event: event.clone(),
            input: example(event, Some(&other))?,
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
        });
    }
    Ok(cases)
}

fn judge(
    dialect: Dialect,
    case: &Case,
    run: &hook_exec::command::CommandRun,
    timeout: f64,
) -> Report {
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
        problem: None,
    };
    if let Err(error) = &run.end {
        report.problem = Some(match error {
            CommandError::TimedOut { .. } => {
                report.decision = "none".into();
                format!("timed out: still running after {timeout} s")
            }
            CommandError::Spawn { .. } | CommandError::NoWorkingDirectory { .. } => {
                error.to_string()
            }
            CommandError::OutputTooLarge { stream, .. } => format!("{stream} is over 1 MiB"),
            CommandError::PipesHeldOpen { .. } => {
                "a process that left the hook's group kept its output open".into()
            }
            CommandError::OutputUnreadable { stream, source } => format!(
                "reading its {stream} failed part way ({source}): the output may be truncated"
            ),
            // A way of failing a newer hook-exec knows: never taken as a clean exit.
            other => format!("the run did not end normally: {other}"),
        });
        return report;
    }
    if matches!(run.exit_code, Some(126 | 127)) {
        let stderr = String::from_utf8_lossy(&run.stderr).trim().to_owned();
        report.problem = Some(format!("the command could not be run ({stderr})"));
        return report;
    }
    let stdout = run.stdout.trim_ascii();
    let structured = dialect.rules().reads_as_json(stdout);
    report.output = if stdout.is_empty() {
        "empty".into()
    } else if !structured {
        "text".into()
    } else {
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
    if report.problem.is_none()
        && matches!(
            result,
            HandlerResult::Failed(_) | HandlerResult::NonBlockingError { .. }
        )
        && case.name == "minimal event"
    {
        report.problem = Some(format!(
            "the hook fails on a minimal valid {} event",
            case.event
        ));
    }
    report
}

fn print_table(reports: &[Report]) {
    outln!(
        "{:<14} {:<20} {:<8} {:>4} {:>7}  {:<10} decision",
        "case",
        "event",
        "tool",
        "exit",
        "ms",
        "output"
    );
    for r in reports {
        let exit = r.exit_code.map_or("-".to_owned(), |c| c.to_string());
        outln!(
            "{:<14} {:<20} {:<8} {:>4} {:>7}  {:<10} {}",
            r.case,
            r.event,
            r.tool.as_deref().unwrap_or("-"),
            exit,
            r.duration_ms,
            r.output,
            r.decision
        );
        if let Some(problem) = &r.problem {
            outln!("  problem: {problem}");
        }
    }
}

/// The command line as one `/bin/sh -c` string, each argument quoted when it needs to be.
fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|word| crate::trust_commands::shell_quote(word))
        .collect::<Vec<_>>()
        .join(" ")
}
