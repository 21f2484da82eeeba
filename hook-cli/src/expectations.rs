//! Expectations: what the configured hooks must decide, checked through the real hooks
//! (`hook test --expectations [FILE]`, and `hook doctor` when the file exists).
//!
//! A team writes down "our guard blocks `rm -rf /`", "the formatter adds no context to a
//! Read" beside its hooks, and runs them in CI, so a guard that stopped guarding (its `jq` gone,
//! a typo in its matcher) fails the build instead of allowing quietly.
//!
//! # The file
//!
//! `<project>/.claude/hook-expectations.toml` (verboo), `<project>/.lime/…` (lime),
//! `<project>/.wuu/…` (wuu); its JSON Schema is `hook-cli/schemas/hook-expectations.schema.json`.
//!
//! ```toml
//! [[case]]
//! name = "the guard blocks rm -rf"
//! event = "PreToolUse"
//! tool = "Bash"
//! input = { tool_input = { command = "rm -rf /" } }
//! expect = "block"
//! reason_contains = "rm -rf"
//!
//! [[case]]
//! name = "ls goes ahead"
//! event = "PreToolUse"
//! tool = "Bash"
//! input = { tool_input = { command = "ls" } }
//! expect = "allow"
//! ```
//!
//! - `event` (required): an event of the dialect. `tool`: the tool name (tool events).
//! - `input`: a partial event input; every required field it lacks is filled as `hook test`
//!   fills it (`hook_protocol::input::example_input`, `cwd` = the project).
//! - `expect` (required): `block` (the decision is block), `allow` (the action goes ahead:
//!   continue or allow), `ask`, `defer`, `rewrite` (a hook rewrote the tool input), `context`
//!   (a hook added context for the model), `stop` (a hook asked the agent to stop).
//! - `reason_contains`, `context_contains`: text the outcome's reason / context must hold.
//!
//! Cases run through the project's configured hooks as `hook run` runs them (trust gates them:
//! an untrusted guard is skipped, and a case expecting it to block fails, as it would in the
//! agent): the agent's own hooks and, for verboo and lime, the relay's too, combined as the
//! agent combines them (the strongest decision wins); `--relay` takes the relay's alone. The
//! expected outcome is judged on that combination; nothing is recorded in the journal.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_protocol::{Decision, Dialect, Layer, Outcome, RunStatus, input::example_input};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine_commands::{Location, prepare};
use crate::ops::input::known_event;

/// The file's name, in the dialect's project folder.
pub(crate) const FILE_NAME: &str = "hook-expectations.toml";

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectationsFile {
    #[serde(default)]
    case: Vec<Case>,
}

/// What a case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
enum Expect {
    Block,
    Allow,
    Ask,
    Defer,
    Rewrite,
    Context,
    Stop,
}

/// One case.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: Option<String>,
    event: String,
    tool: Option<String>,
    #[serde(default)]
    input: Option<toml::Table>,
    expect: Expect,
    reason_contains: Option<String>,
    context_contains: Option<String>,
}

/// How one case went.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct CaseResult {
    pub(crate) name: String,
    pub(crate) event: String,
    pub(crate) expected: String,
    pub(crate) got: String,
    pub(crate) passed: bool,
    /// Why it failed, with what the hooks did.
    pub(crate) problem: Option<String>,
}

/// The expectations file of `location`'s project, whether it exists or not.
pub(crate) fn default_file(location: &Location, project: &Path) -> PathBuf {
    project
        .join(location.dialect.rules().home_dir())
        .join(FILE_NAME)
}

/// Which hooks an expectations file's cases run through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every configured hook (`hook test --expectations`, `hook doctor --all-hooks`).
    AllHooks,
    /// The project's own hooks only (its project and local files): a project's file never
    /// chooses the events and inputs the user's own hooks get (`hook doctor`'s default).
    ProjectHooks,
}

/// Why a hook is left out under [`Scope::ProjectHooks`].
const NOT_THE_PROJECTS: &str = "not one of the project's own hooks: a project's expectations run only through its own hooks (`hook doctor --all-hooks` runs them through every hook)";

/// The project's own hooks pass on to the trust gate; every other one is refused.
struct ProjectHooksOnly {
    inner: hook_trust::TrustGate,
}

impl ProjectHooksOnly {
    fn refuses(handler: &hook_config::Handler) -> Option<(hook_protocol::SkipReason, String)> {
        (!matches!(handler.source.layer, Layer::Project | Layer::Local)).then(|| {
            (
                hook_protocol::SkipReason::Disabled,
                NOT_THE_PROJECTS.to_owned(),
            )
        })
    }
}

impl hook_config::Gate for ProjectHooksOnly {
    fn check(&self, handler: &hook_config::Handler) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check(handler))
    }

    fn check_at(
        &self,
        handler: &hook_config::Handler,
        place: &hook_config::RunPlace,
    ) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check_at(handler, place))
    }

    fn check_native(
        &self,
        handler: &hook_config::Handler,
        library_sha256: Option<&str>,
    ) -> Option<(hook_protocol::SkipReason, String)> {
        Self::refuses(handler).or_else(|| self.inner.check_native(handler, library_sha256))
    }
}

/// An engine over `location`'s hooks that runs only the project's own (trust still applies),
/// with the options [`hook_exec::Hooks`] would give it.
fn project_hooks_engine(location: &Location) -> Result<hook_exec::Engine> {
    let loaded = hook_config::load(&location.load_options()?)
        .context("cannot load the hook configuration")?;
    crate::engine_commands::print_diagnostics(&loaded.diagnostics);
    let discovery = &loaded.discovery;
    let gate = ProjectHooksOnly {
        inner: hook_trust::TrustGate::new(hook_trust::TrustView::for_discovery(discovery))
            .with_phrasing(crate::trust_commands::refusal_phrasing(location)),
    };
    let mut options = hook_exec::EngineOptions::default()
        .with_kill_on_parent_death(true)
        .with_side_file_dir(discovery.home.join("hook-context"))
        .with_env_file_dir(discovery.home.join("hook-env"));
    if let Some(project) = &discovery.project {
        options = options.with_project_dir(project);
    }
    let mut engine = hook_exec::Engine::new(loaded.registry)
        .with_options(options)
        .with_gate(gate);
    if let Some(client) = hook_exec::client::OpenAiCompatibleClient::from_env() {
        engine = engine.with_model_client(client);
    }
    Ok(engine)
}

/// Runs every case of `file` through the hooks of `location` (those `scope` says).
pub(crate) fn run(location: &Location, file: &Path, scope: Scope) -> Result<Vec<CaseResult>> {
    let text = read_expectations(file)?;
    let parsed: ExpectationsFile = toml::from_str(&text).map_err(|error| {
        // The message and position only: toml's own text quotes the file's lines, and the file
        // may link to one that must not be shown (a project's link to a private file).
        let at = error
            .span()
            .map(|span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
                format!(" at line {line}, column {column}")
            })
            .unwrap_or_default();
        let message = if links_out(file) {
            "(the file links out of its folder: its text is not shown)".to_owned()
        } else {
            first_line(error.message())
        };
        anyhow::anyhow!(
            "{} is not a valid expectations file{at}: {message}",
            file.display()
        )
    })?;
    if parsed.case.is_empty() {
        bail!("{} has no [[case]]", file.display());
    }
    let dialect = location.dialect;
    let project = location.project_dir()?;
    let cwd = project.display().to_string();
    let mut all_hooks = Vec::new();
    let mut project_engines = Vec::new();
    for location in &with_relay(location) {
        match scope {
            Scope::AllHooks => {
                let hooks = location.hooks()?;
                crate::engine_commands::print_diagnostics(hooks.diagnostics());
                all_hooks.push(prepare(
                    location,
                    hooks,
                    hook_exec::EngineOptions::default(),
                ));
            }
            Scope::ProjectHooks => project_engines.push(project_hooks_engine(location)?),
        }
    }
    let engines: Vec<&hook_exec::Engine> = all_hooks
        .iter()
        .map(hook_exec::Hooks::engine)
        .chain(project_engines.iter())
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut results = Vec::new();
    for (index, case) in parsed.case.iter().enumerate() {
        let name = case
            .name
            .clone()
            .unwrap_or_else(|| format!("case {}", index + 1));
        let input = build_input(dialect, case, &cwd)
            .with_context(|| format!("{}: {name}", file.display()))?;
        let mut outcomes = Vec::new();
        for engine in &engines {
            outcomes.push(runtime.block_on(engine.dispatch(&input)));
            engine.cancel_async(input.session_id());
        }
        results.push(judge(name, case, &merge(&input, outcomes)));
    }
    Ok(results)
}

/// The largest expectations file read: 1 MiB.
const MAX_EXPECTATIONS_BYTES: u64 = 1024 * 1024;

/// The expectations file's text: a regular file (a FIFO or a device is refused without
/// blocking), at most [`MAX_EXPECTATIONS_BYTES`], UTF-8 (`hook_config::fs`).
fn read_expectations(file: &Path) -> Result<String> {
    let shown = file.display();
    let (opened, meta) = hook_config::fs::open_regular(file, hook_config::fs::Links::Follow)
        .with_context(|| format!("cannot read the expectations file {shown}"))?;
    let bytes = hook_config::fs::read_capped(
        opened,
        &meta,
        MAX_EXPECTATIONS_BYTES,
        "an expectations file",
    )
    .with_context(|| format!("cannot read the expectations file {shown}"))?;
    String::from_utf8(bytes).map_err(|error| {
        anyhow::anyhow!(
            "the expectations file {shown} is not UTF-8 text (at byte {}); save it as UTF-8",
            error.utf8_error().valid_up_to()
        )
    })
}

/// Whether `file` resolves outside the folder it is named in (a link out).
fn links_out(file: &Path) -> bool {
    let folder = file.parent().unwrap_or(Path::new("."));
    match (std::fs::canonicalize(file), std::fs::canonicalize(folder)) {
        (Ok(real), Ok(folder)) => !real.starts_with(folder),
        _ => true,
    }
}

/// The first line of a message, cut to 200 characters (what a parser says of a value may
/// quote it).
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

/// [`run`] in a process of its own whose hooks get `path` as `PATH` (the agent's, for
/// `hook doctor`): a guard whose `jq` the agent does not have fails its cases there as it
/// fails in the agent.
pub(crate) fn run_with_path(
    location: &Location,
    file: &Path,
    path: &str,
    scope: Scope,
) -> Result<Vec<CaseResult>> {
    let exe = std::env::current_exe().context("cannot find the hook program itself")?;
    let mut command = std::process::Command::new(exe);
    command
        .arg("test")
        .arg("--dialect")
        .arg(location.dialect.to_string())
        .arg("--expectations")
        .arg(file)
        .arg("--json")
        .arg("--project")
        .arg(location.project_dir()?);
    if let Some(home) = &location.home {
        command.arg("--home").arg(home);
    }
    if location.relay {
        command.arg("--relay");
    }
    if scope == Scope::ProjectHooks {
        command.arg("--project-hooks-only");
    }
    let out = command
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .context("cannot run the expectations")?;
    #[derive(Deserialize)]
    struct Report {
        cases: Vec<CaseResult>,
    }
    match serde_json::from_slice::<Report>(&out.stdout) {
        Ok(report) => Ok(report.cases),
        Err(_) => bail!(
            "the expectations did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ),
    }
}

/// `location`, and where the dialect has a relay and `location` is not already the relay's,
/// the relay's too: the agent runs both its own hooks and the relay's.
pub(crate) fn with_relay(location: &Location) -> Vec<Location> {
    let mut all = vec![Location {
        dialect: location.dialect,
        project: location.project.clone(),
        home: location.home.clone(),
        relay: location.relay,
    }];
    if !location.relay && location.dialect.rules().relay().is_some() {
        all.push(Location {
            dialect: location.dialect,
            project: location.project.clone(),
            home: location.home.clone(),
            relay: true,
        });
    }
    all
}

/// The outcomes of the agent's own hooks and the relay's as the agent combines them: the
/// strongest decision (block over defer over ask over allow), the last rewrite, every context,
/// message and run. With no outcome at all, `input`'s event with no decision.
fn merge(input: &hook_protocol::EventInput, outcomes: Vec<Outcome>) -> Outcome {
    let mut outcomes = outcomes.into_iter();
    let Some(mut merged) = outcomes.next() else {
        return Outcome::new(input.dialect(), input.event());
    };
    for outcome in outcomes {
        if outcome.decision > merged.decision {
            merged.decision = outcome.decision;
            merged.reason = outcome.reason;
        }
        if outcome.updated_input.is_some() {
            merged.updated_input = outcome.updated_input;
        }
        merged.additional_context = match (merged.additional_context, outcome.additional_context) {
            (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
            (a, b) => a.or(b),
        };
        merged.stop |= outcome.stop;
        merged.stop_reason = merged.stop_reason.or(outcome.stop_reason);
        merged.system_messages.extend(outcome.system_messages);
        merged.runs.extend(outcome.runs);
    }
    merged
}

fn build_input(dialect: Dialect, case: &Case, cwd: &str) -> Result<hook_protocol::EventInput> {
    let event = known_event(dialect, &case.event)?;
    let tool = case.tool.clone().or_else(|| {
        case.input
            .as_ref()
            .and_then(|i| i.get("tool_name"))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    });
    let example = example_input(dialect, &event, cwd, tool.as_deref())
        .context("every known event has an example")?;
    let given: serde_json::Map<String, Value> = match &case.input {
        Some(table) => match serde_json::to_value(table)? {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        },
        None => serde_json::Map::new(),
    };
    let (mut value, _) = crate::author_commands::fill(example, given);
    if let (Some(tool), Some(object)) = (tool, value.as_object_mut()) {
        object.insert("tool_name".into(), tool.into());
    }
    hook_protocol::input_from_value(dialect, value).context("the case's input is not a valid event")
}

fn decision_word(decision: Decision) -> &'static str {
    match decision {
        Decision::Continue => "continue",
        Decision::Allow => "allow",
        Decision::Ask => "ask",
        Decision::Defer => "defer",
        Decision::Block => "block",
    }
}

fn judge(name: String, case: &Case, outcome: &Outcome) -> CaseResult {
    let mut got = decision_word(outcome.decision).to_owned();
    if outcome.updated_input.is_some() {
        got.push_str(", rewrite");
    }
    if outcome.additional_context.is_some() {
        got.push_str(", context");
    }
    if outcome.stop {
        got.push_str(", stop");
    }
    let expected = serde_json::to_value(case.expect)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut problems = Vec::new();
    let met = match case.expect {
        Expect::Block => outcome.decision == Decision::Block,
        Expect::Allow => matches!(outcome.decision, Decision::Continue | Decision::Allow),
        Expect::Ask => outcome.decision == Decision::Ask,
        Expect::Defer => outcome.decision == Decision::Defer,
        Expect::Rewrite => outcome.updated_input.is_some(),
        Expect::Context => outcome.additional_context.is_some(),
        Expect::Stop => outcome.stop,
    };
    if !met {
        problems.push(format!("expected {expected}, got {got}"));
    }
    if let Some(text) = &case.reason_contains {
        let reason = outcome.reason.as_deref().unwrap_or("");
        if !reason.contains(text.as_str()) {
            problems.push(format!("the reason {reason:?} does not contain {text:?}"));
        }
    }
    if let Some(text) = &case.context_contains {
        let context = outcome.additional_context.as_deref().unwrap_or("");
        if !context.contains(text.as_str()) {
            problems.push(format!("the context {context:?} does not contain {text:?}"));
        }
    }
    let problem = (!problems.is_empty()).then(|| {
        let runs: Vec<String> = outcome
            .runs
            .iter()
            .map(|run| {
                let status = serde_json::to_value(run.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                let mut text = format!("{} {status}", run.key);
                if let Some(code) = run.exit_code {
                    text.push_str(&format!(" exit {code}"));
                }
                if matches!(
                    run.status,
                    RunStatus::Failed | RunStatus::TimedOut | RunStatus::Skipped
                ) && let Some(error) = &run.error
                {
                    text.push_str(&format!(" ({error})"));
                }
                text
            })
            .collect();
        let hooks = if runs.is_empty() {
            "no hook matched".to_owned()
        } else {
            format!("hooks: {}", runs.join("; "))
        };
        format!("{}; {hooks}", problems.join("; "))
    });
    CaseResult {
        name,
        event: case.event.clone(),
        expected,
        got,
        passed: problem.is_none(),
        problem,
    }
}

/// `hook test --expectations [FILE]`: every case, a table (or JSON), exit 1 on a failure.
pub(crate) fn command(
    location: &Location,
    file: Option<&Path>,
    scope: Scope,
    json: bool,
) -> Result<std::process::ExitCode> {
    let file = if let Some(file) = file {
        file.to_owned()
    } else {
        let project = location.project_dir()?;
        let file = default_file(location, &project);
        if !file.is_file() {
            bail!(
                "no expectations file at {}: write one (see `hook test --help`) or name it",
                file.display()
            );
        }
        file
    };
    let results = run(location, &file, scope)?;
    let failed = results.iter().any(|r| !r.passed);
    if json {
        crate::ui::terminal::println_exact(&serde_json::to_string_pretty(&serde_json::json!({
            "file": file,
            "ok": !failed,
            "cases": results,
        }))?);
    } else {
        print(&results);
    }
    Ok(if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    })
}

/// The results as a table on stdout, each failure's problem under it.
pub(crate) fn print(results: &[CaseResult]) {
    use comfy_table::{Table, presets};
    let style = crate::ui::Printer::new(crate::ui::Verbosity::Normal);
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_BORDERS_ONLY)
        .set_header(["case", "event", "expected", "got", "result"]);
    crate::ui::table::fit(&mut table);
    for result in results {
        table.add_row([
            crate::ui::terminal::one_line(&result.name).into_owned(),
            crate::ui::terminal::one_line(&result.event).into_owned(),
            result.expected.clone(),
            result.got.clone(),
            if result.passed { "pass" } else { "FAIL" }.to_owned(),
        ]);
    }
    crate::ui::terminal::print_exact(&format!("{table}\n"));
    for result in results.iter().filter(|r| !r.passed) {
        if let Some(problem) = &result.problem {
            crate::ui::terminal::print_exact(&format!(
                "{} {}: {}\n",
                style.paint("31", "FAIL"),
                style.paint("1", &result.name),
                crate::ui::terminal::one_line(problem)
            ));
        }
    }
    let failed = results.iter().filter(|r| !r.passed).count();
    crate::ui::terminal::outln!(
        "{} of {} expectation(s) met",
        results.len() - failed,
        results.len()
    );
}
