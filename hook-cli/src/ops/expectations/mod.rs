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
//! `<project>/.wuu/…` (wuu); for the relay, in the relay's project folder beside the agent
//! (`<project>/.claude/hook-relay/…`, `<project>/.codex/hook-relay/…`:
//! [`hook_config::Discovery::project_state_dir`]), which is where a Codex user keeps it. Without
//! `--relay`, the first that exists of the dialect's and the relay's is read (their cases run
//! through both sets of hooks either way); with `--relay`, the relay's, else the one in the
//! dialect's project folder, which earlier versions read (a warning says where to move it when
//! that folder is not the agent's own, `.lime` for Codex). Its JSON Schema is
//! `hook-cli/schemas/hook-expectations.schema.json`.
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

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use hook_config::Diagnostic;
use hook_exec::combine_outcomes;
use hook_trust::Refusal;
use serde::{Deserialize, Serialize};

use super::dispatch::prepare;
use super::location::Location;
use super::program::{ProgramRun, run_program};
use gate::project_hooks_engine;
use judge::{build_input, judge};

mod file;
mod gate;
mod judge;

pub(crate) use crate::ops::location::with_relay;
pub(crate) use file::default_file;

/// How refusals are worded for the hooks of one location (the command names its flags).
pub(crate) type Phrasing = dyn Fn(&Location) -> Box<dyn Fn(&Refusal) -> String + Send + Sync>;

/// The file's name, in the dialect's project folder.
pub(crate) const FILE_NAME: &str = "hook-expectations.toml";

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExpectationsFile {
    #[serde(default)]
    pub(crate) case: Vec<Case>,
}

/// What a case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Expect {
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
pub(crate) struct Case {
    pub(crate) name: Option<String>,
    pub(crate) event: String,
    pub(crate) tool: Option<String>,
    #[serde(default)]
    pub(crate) input: Option<toml::Table>,
    pub(crate) expect: Expect,
    pub(crate) reason_contains: Option<String>,
    pub(crate) context_contains: Option<String>,
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

/// Which hooks an expectations file's cases run through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every configured hook (`hook test --expectations`, `hook doctor --all-hooks`).
    AllHooks,
    /// The project's own hooks only (its project and local files): a project's file never
    /// chooses the events and inputs the user's own hooks get (`hook doctor`'s default).
    ProjectHooks,
}

/// An expectations file checked.
#[derive(Debug)]
pub(crate) struct Checked {
    /// The file.
    pub(crate) file: PathBuf,
    /// Each case's result, in file order.
    pub(crate) results: Vec<CaseResult>,
    /// The diagnostics of the configurations the cases ran through.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// `hook test --expectations [FILE]`: `file` (default: the project's, which must exist) run
/// through the hooks `scope` says.
pub(crate) fn check(
    location: &Location,
    file: Option<&Path>,
    scope: Scope,
    phrasing: &Phrasing,
) -> Result<Checked> {
    let mut diagnostics = Vec::new();
    let file = if let Some(file) = file {
        file.to_owned()
    } else {
        let project = location.project_dir()?;
        let found = default_file(location, &project);
        if !found.file.is_file() {
            let places: Vec<String> = found
                .places
                .iter()
                .map(|place| place.display().to_string())
                .collect();
            bail!(
                "no expectations file at {}: write one (see `hook test --help`) or name it",
                places.join(" or ")
            );
        }
        diagnostics.extend(found.warning);
        found.file
    };
    let results = run(location, &file, scope, phrasing, &mut diagnostics)?;
    Ok(Checked {
        file,
        results,
        diagnostics,
    })
}

/// Runs every case of `file` through the hooks of `location` (those `scope` says).
pub(crate) fn run(
    location: &Location,
    file: &Path,
    scope: Scope,
    phrasing: &Phrasing,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<CaseResult>> {
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
                let (hooks, moved) = location.hooks()?;
                diagnostics.extend(moved.diagnostics());
                diagnostics.extend(hooks.diagnostics().iter().cloned());
                all_hooks.push(prepare(
                    hooks,
                    hook_exec::EngineOptions::default(),
                    phrasing(location),
                ));
            }
            Scope::ProjectHooks => {
                project_engines.push(project_hooks_engine(location, phrasing, diagnostics)?);
            }
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
        let combined = combine_outcomes(input.dialect(), input.event(), outcomes);
        results.push(judge(name, case, &combined));
    }
    Ok(results)
}

/// The largest expectations file read: 1 MiB.
const MAX_EXPECTATIONS_BYTES: u64 = 1024 * 1024;

/// The expectations file's text: a regular file (a FIFO or a device is refused without
/// blocking), at most [`MAX_EXPECTATIONS_BYTES`], UTF-8 (`hook_fs`).
fn read_expectations(file: &Path) -> Result<String> {
    let shown = file.display();
    let (opened, meta) = hook_fs::open_regular(file, hook_fs::Links::Follow)
        .with_context(|| format!("cannot read the expectations file {shown}"))?;
    let bytes = hook_fs::read_capped(
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

/// How long `hook test` may take in [`run_with_path`]: each case is bounded by its hooks'
/// timeouts, so this only ends a `hook test` that itself never ends.
const EXPECTATIONS_TIMEOUT: Duration = Duration::from_secs(3600);

/// The most read of the report `hook test --json` prints in [`run_with_path`].
const EXPECTATIONS_OUTPUT_CAP: usize = 64 * 1024 * 1024;

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
    let project = location.project_dir()?;
    let mut args: Vec<OsString> = vec![
        "test".into(),
        "--dialect".into(),
        location.dialect.to_string().into(),
        "--expectations".into(),
        file.into(),
        "--json".into(),
        "--project".into(),
        project.clone().into(),
    ];
    if let Some(home) = &location.home {
        args.extend(["--home".into(), home.into()]);
    }
    if location.relay {
        args.push("--relay".into());
    }
    if scope == Scope::ProjectHooks {
        args.push("--project-hooks-only".into());
    }
    let out = run_program(ProgramRun {
        program: &exe,
        args,
        env: vec![("PATH".to_owned(), path.to_owned())],
        cwd: &project,
        timeout: EXPECTATIONS_TIMEOUT,
        output_cap: EXPECTATIONS_OUTPUT_CAP,
    })
    .context("cannot run the expectations")?;
    if let Err(error) = &out.end {
        bail!("the expectations did not run: {error}");
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::verboo_guard;
    use hook_protocol::Dialect;

    const CASES: &str = r#"
[[case]]
name = "blocks rm -rf"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "rm -rf /" } }
expect = "block"
reason_contains = "rm -rf"

[[case]]
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "ls" } }
expect = "allow"
"#;

    fn phrasing(_: &Location) -> Box<dyn Fn(&Refusal) -> String + Send + Sync> {
        Box::new(|refusal: &Refusal| refusal.to_string())
    }

    fn passed(checked: &Checked) -> Vec<(&str, bool)> {
        checked
            .results
            .iter()
            .map(|r| (r.name.as_str(), r.passed))
            .collect()
    }

    #[test]
    fn cases_run_through_the_hooks_as_trust_lets_them() {
        let scene = verboo_guard();
        scene.write("project/.claude/hook-expectations.toml", CASES);
        let location = scene.location(Dialect::Verboo, ".claude");
        let checked = check(&location, None, Scope::AllHooks, &phrasing).unwrap();
        // Untrusted, the guard is skipped: the agent would let rm -rf through too.
        assert_eq!(
            passed(&checked),
            [("blocks rm -rf", false), ("case 2", true)]
        );
        let loaded = location.load().unwrap();
        let all = crate::ops::trust::Selection {
            keys: Vec::new(),
            all: true,
        };
        crate::ops::trust::apply(crate::ops::trust::Action::Trust, &loaded, &all).unwrap();
        let checked = check(&location, None, Scope::AllHooks, &phrasing).unwrap();
        assert_eq!(
            passed(&checked),
            [("blocks rm -rf", true), ("case 2", true)]
        );
        assert_eq!(
            checked.file,
            scene.path("project/.claude/hook-expectations.toml")
        );
    }

    #[test]
    fn a_projects_cases_run_only_through_its_own_hooks_when_asked() {
        let scene = verboo_guard();
        // The user's own hook blocks every Bash call; the project's file expects `ls` to pass.
        scene.write(
            "home/.claude/settings.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo mine >&2; exit 2"}]}]}}"#,
        );
        let file = scene.write("project/cases.toml", CASES);
        let location = scene.location(Dialect::Verboo, ".claude");
        let all = check(&location, Some(&file), Scope::AllHooks, &phrasing).unwrap();
        assert_eq!(passed(&all)[1], ("case 2", false));
        let own = check(&location, Some(&file), Scope::ProjectHooks, &phrasing).unwrap();
        assert_eq!(passed(&own)[1], ("case 2", true));
    }

    #[test]
    fn a_missing_or_broken_file_is_an_error_naming_it() {
        let scene = verboo_guard();
        let location = scene.location(Dialect::Verboo, ".claude");
        let missing = check(&location, None, Scope::AllHooks, &phrasing).unwrap_err();
        assert!(
            scene.shown(&missing.to_string()).starts_with(
                "no expectations file at [ROOT]/project/.claude/hook-expectations.toml"
            ),
            "{missing}"
        );
        let file = scene.write("project/bad.toml", "[[case]]\nevent = 3\n");
        let broken = check(&location, Some(&file), Scope::AllHooks, &phrasing).unwrap_err();
        assert_eq!(
            scene.shown(&broken.to_string()),
            "[ROOT]/project/bad.toml is not a valid expectations file at line 2, column 9: invalid type: integer `3`, expected a string"
        );
        let empty = scene.write("project/empty.toml", "");
        let none = check(&location, Some(&empty), Scope::AllHooks, &phrasing).unwrap_err();
        assert!(none.to_string().ends_with("has no [[case]]"), "{none}");
    }
}
