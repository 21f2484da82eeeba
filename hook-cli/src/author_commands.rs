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

use crate::ui::terminal::{errln, outln, print_exact, println_exact};

use crate::args::parse_dialect;
use crate::ops::input::known_event;

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
    if let Some(agent) = agent_owning(dialect, file) {
        // The agent reads this file itself: a handler type only this engine runs would make
        // it ignore (Claude Code) or refuse (Codex) the whole file, and every setting in it.
        let foreign: Vec<_> = hooks
            .hooks
            .iter()
            .filter(|hook| hook.config.handler_type == hook_protocol::HandlerType::Native)
            .collect();
        for hook in &foreign {
            errln!(
                "error: {}:{}:{}: a `native` {} handler in {}'s own settings: {} does not run native handlers and would ignore or refuse this whole file (every other hook and setting in it with it). Put native hooks in the relay's file (`{}/hook-relay/{}`) and let {} call `hook relay` (`hook relay install --dialect {dialect} --move` moves them)",
                file.display(),
                hook.position.line,
                hook.position.column,
                hook.event,
                agent.name,
                agent.name,
                agent.home_dir,
                agent.config_file,
                agent.name,
            );
        }
        if !foreign.is_empty() {
            return Ok(ExitCode::FAILURE);
        }
    }
    outln!(
        "{}: valid {dialect} hooks configuration ({} handlers)",
        file.display(),
        hooks.hooks.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The agent that reads `file` itself, when it is that agent's own settings file (under its
/// folder, `.claude` or `.codex`, or the folder its variable names), not the relay's.
fn agent_owning(dialect: Dialect, file: &Path) -> Option<hook_protocol::RelayAgent> {
    let agent = *dialect.rules().relay()?;
    let file = file.canonicalize().ok()?;
    let parent = file.parent()?;
    let named = file.file_name()?.to_str()?;
    let settings_file =
        named == agent.config_file || named.replace(".local.", ".") == agent.config_file;
    let in_home = parent.file_name().is_some_and(|d| d == agent.home_dir)
        || std::env::var_os(agent.home_env)
            .filter(|v| !v.is_empty())
            .and_then(|home| Path::new(&home).canonicalize().ok())
            .is_some_and(|home| home == parent);
    (settings_file && in_home).then_some(agent)
}

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// The dialect the hook speaks.
    #[arg(long, value_parser = parse_dialect)]
    dialect: Dialect,
    /// The event the hook is meant for.
    #[arg(long, required_unless_present = "expectations")]
    event: Option<String>,
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
    /// Fail (exit 1) on warnings too: output fields the agent ignores (wuu, verboo), such as a
    /// misspelt `permisionDecision`.
    #[arg(long)]
    strict: bool,
    /// Test a native plugin (a `cdylib` built with hook-sdk's `export_native!`) instead of a
    /// command: the library is loaded in this process and called on each case.
    #[arg(long, value_name = "LIBRARY", conflicts_with = "command")]
    native: Option<PathBuf>,
    /// The hook's command and arguments.
    #[arg(last = true, required_unless_present_any = ["native", "expectations"], num_args = 1..)]
    command: Vec<String>,
    /// Check the expectations file (default: `<project>/.claude/hook-expectations.toml`,
    /// `.lime/…`, `.wuu/…`) against the configured hooks instead: a pass/fail table, exit 1 on
    /// a failed case.
    #[arg(long, value_name = "FILE", num_args = 0..=1,
        conflicts_with_all = ["native", "command", "input", "tool"])]
    expectations: Option<Option<PathBuf>>,
    /// With --expectations: the project directory (default: the current directory).
    #[arg(long, value_name = "DIR", requires = "expectations")]
    project: Option<PathBuf>,
    /// With --expectations: replaces the dialect's home.
    #[arg(long, value_name = "DIR", requires = "expectations")]
    home: Option<PathBuf>,
    /// With --expectations: the hooks `hook relay` runs instead of the agent's own.
    #[arg(long, requires = "expectations")]
    relay: bool,
    /// With --expectations: run the cases through the project's own hooks only (its project
    /// and local files); the user's, managed and plugin hooks are left out. What `hook
    /// doctor` does with a project's expectations file unless given `--all-hooks`.
    #[arg(long, requires = "expectations")]
    project_hooks_only: bool,
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
    /// The fields `hook test` added to a partial `--input` (required fields it lacked).
    filled: Vec<String>,
}

/// How one case ran, from a command or a native library.
struct Ran {
    exit_code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    duration: Duration,
    /// Why the run gave no output to judge (timed out, could not start...).
    failure: Option<String>,
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
    /// The fields added to a partial `--input`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    filled: Vec<String>,
    /// The tool input the hook rewrote the call to.
    updated_input: Option<Value>,
    /// Context the hook added for the model.
    additional_context: Option<String>,
    /// Its message for the user.
    system_message: Option<String>,
    /// Its request that the agent stop, with the reason.
    stop: Option<String>,
    /// Fields of its output the dialect does not define (the agent ignores them), with the
    /// closest known field when one is close: as `hook validate` warns.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
    problem: Option<String>,
}

/// `hook test`: the verification every author should run, automated.
pub(crate) fn test(args: TestArgs) -> Result<ExitCode> {
    if let Some(file) = &args.expectations {
        let location = crate::engine_commands::Location {
            dialect: args.dialect,
            project: args.project.clone(),
            home: args.home.clone(),
            relay: args.relay,
        };
        let scope = if args.project_hooks_only {
            crate::expectations::Scope::ProjectHooks
        } else {
            crate::expectations::Scope::AllHooks
        };
        return crate::expectations::command(&location, file.as_deref(), scope, args.json);
    }
    let dialect = args.dialect;
    let event = known_event(dialect, args.event.as_deref().unwrap_or_default())?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let cwd_text = cwd.display().to_string();
    let command = shell_join(&args.command);
    if let Some(library) = &args.native {
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
    let timeout = Duration::from_secs_f64(args.timeout);
    for case in cases {
        let stdin = serde_json::to_vec(&case.input)?;
        let ran = match &args.native {
            Some(library) => runtime.block_on(run_native(library, dialect, &stdin, timeout)),
            None => {
                let mut spec = CommandSpec::new(&command, &cwd, timeout);
                spec.stdin = stdin.into();
                spec.env = vec![
                    ("HOOK_DIALECT".into(), dialect.to_string()),
                    ("HOOK_EVENT".into(), case.event.to_string()),
                ];
                command_ran(&runtime.block_on(run_command(&spec)), args.timeout)
            }
        };
        reports.push(judge(dialect, &case, &ran));
    }

    let warned = reports.iter().any(|r| !r.warnings.is_empty());
    let failed = reports.iter().any(|r| r.problem.is_some()) || (args.strict && warned);
    if args.json {
        println_exact(&serde_json::to_string_pretty(
            &json!({"ok": !failed, "strict": args.strict, "runs": reports}),
        )?);
    } else {
        print_table(&reports);
        for report in &reports {
            for warning in &report.warnings {
                errln!("warning: {} ({}): {warning}", report.case, report.event);
            }
        }
        let verdict = if failed && reports.iter().all(|r| r.problem.is_none()) {
            "FAILED: the hook's output has fields the agent ignores (--strict; see warnings above)"
        } else if failed {
            "FAILED: the hook misbehaved (see problems above)"
        } else if warned {
            "ok, with warnings: fields the agent ignores (see above; --strict fails on them)"
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
        let other = dialect.rules().tool_name(other).into_owned();
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
    let structured = dialect.rules().reads_as_json(stdout);
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
        if !r.filled.is_empty() {
            outln!("  filled in (absent from --input): {}", r.filled.join(", "));
        }
        if let Some(input) = &r.updated_input {
            outln!("  rewrites the input to: {input}");
        }
        if let Some(context) = &r.additional_context {
            outln!("  adds context: {context}");
        }
        if let Some(message) = &r.system_message {
            outln!("  tells the user: {message}");
        }
        if let Some(reason) = &r.stop {
            outln!("  stops the agent: {reason}");
        }
        if let Some(problem) = &r.problem {
            outln!("  problem: {problem}");
        }
    }
}

/// The command line as one `/bin/sh -c` string, each argument quoted when it needs to be.
fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|word| crate::ui::quote::shell_quote(word))
        .collect::<Vec<_>>()
        .join(" ")
}
