//! `hook replay`: the configured hooks run against real session history, before they are
//! switched on.
//!
//! The transcripts the agents keep (Claude Code: [`claude`], verboo; Codex CLI: [`codex`],
//! lime) are read line by line ([`lines`]: a cap on each line, bad lines counted with
//! `file:line`, never an abort) and rebuilt, per session and in order, into the events the agent
//! would have sent its hooks. Each selected event is dispatched through the engine with its full
//! rules (matchers, `if`, trust, the dialect's combining); the tool itself never runs. The
//! results are summed up in [`report`].
//!
//! Choices:
//! - *One file is one session*, replayed in order; sessions run concurrently, at most `--jobs`
//!   at a time, on one thread (hooks are processes: the thread only waits for them).
//! - *Engines*: built like [`hook_exec::Hooks::load`] does (configuration, trust store, trust
//!   gate with `hook trust`'s wording), but assembled here so that `--only KEY` (a gate that
//!   refuses every other hook; those runs are left out of the report) and
//!   `--trust-all-for-replay` (every hook runs, as if trusted) can wrap the gate. Untrusted hooks
//!   are otherwise reported as skipped, never run.
//! - *`--config FILE`*: the file is the user layer of an empty temporary home (so a lime file's
//!   own `[hooks.state]` trust records apply, and keys read `user:...` as in the real home); no
//!   project, managed or plugin layer is read. `--compare OTHER` builds a second engine the same
//!   way and dispatches every event through both.
//! - *Side effects*: lime's over-limit context goes to a temporary folder, not the home's
//!   `hook-context`. Async hooks are collected at the end of each session. PostToolUse and Stop
//!   are not replayed unless asked for (`--events`), since their hooks often act (format, log,
//!   notify).
//! - *After a block*: once a replayed PreToolUse blocks a call, that call's PermissionRequest
//!   and PostToolUse are not dispatched (the agent would not have sent them); they are counted.
//! - *`cwd`*: a recorded working directory that no longer exists (an old checkout, a temporary
//!   folder) is replaced by the project directory, since a command hook runs there; counted.

use std::collections::{BTreeMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_config::{Environment, Gate, Handler, LoadOptions};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::{Dialect, Event, Outcome, SkipReason, input_from_value};
use serde_json::{Map, Value};

use crate::engine_commands::Location;
use crate::ui::terminal::errln;

mod claude;
mod codex;
mod lines;
mod report;

use lines::{BadKind, BadLine, Line};
use report::{Report, SessionLog};

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    location: crate::args::LocationArgs,
    /// Transcript files or folders (searched for `*.jsonl`). Default: the current project's
    /// sessions, where the agent keeps them (`~/.claude/projects/<project>/`, or the rollouts
    /// under `$CODEX_HOME/sessions/` whose `cwd` is the project).
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Replay through the hooks of this one file (the dialect's user-file format) instead of
    /// the discovered configuration.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Replay both configurations (the one above and this file) and show only the events whose
    /// outcome differs.
    #[arg(long, value_name = "OTHER_CONFIG")]
    compare: Option<PathBuf>,
    /// Run only the hook with this key (repeatable; keys as `hook list` shows them).
    #[arg(long, value_name = "KEY")]
    only: Vec<String>,
    /// Run hooks that need trust and lack it (project, plugin, every lime hook) as if trusted.
    #[arg(long)]
    trust_all_for_replay: bool,
    /// The events to dispatch, comma-separated (default: the events whose hooks decide).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "PreToolUse,PermissionRequest,UserPromptSubmit"
    )]
    events: Vec<String>,
    /// How many sessions are replayed at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// JSON Lines on stdout: one object per event, per bad line, then the summary (schema:
    /// `hook replay --dialect D --schema`).
    #[arg(long)]
    json: bool,
    /// Lines longer than this are skipped and counted as bad.
    #[arg(long, value_name = "BYTES", default_value_t = lines::DEFAULT_MAX_LINE)]
    max_line_bytes: usize,
    /// How many events whose outcome is not `continue` the text report lists (most recent
    /// first; every one is counted).
    #[arg(long, default_value_t = 50)]
    limit: usize,
    /// Print the JSON Schema of one `--json` line and exit.
    #[arg(long)]
    schema: bool,
    /// Read the transcripts and rebuild their events, but run no hook: what the history holds
    /// and which lines are bad (and the parse rate).
    #[arg(long)]
    dry_run: bool,
}

/// An event rebuilt from a transcript, before it is dispatched.
pub(crate) struct Rebuilt {
    line: u64,
    time: Option<String>,
    value: Map<String, Value>,
    /// The tool call it belongs to (PreToolUse, PermissionRequest, PostToolUse...).
    call: Option<String>,
}

impl Rebuilt {
    pub(crate) fn new(
        line: u64,
        time: Option<String>,
        value: Map<String, Value>,
        call: Option<String>,
    ) -> Self {
        Rebuilt {
            line,
            time,
            value,
            call,
        }
    }
}

/// What a format reader produces from one entry: events, and lines it could not use.
pub(crate) struct Sink {
    file: String,
    events: Vec<Rebuilt>,
    bad: Vec<BadLine>,
}

impl Sink {
    pub(crate) fn event(&mut self, event: Rebuilt) {
        self.events.push(event);
    }

    fn bad(&mut self, line: u64, kind: BadKind, detail: impl Into<String>) {
        self.bad.push(BadLine {
            file: self.file.clone(),
            line,
            kind,
            detail: detail.into(),
        });
    }

    pub(crate) fn invalid(&mut self, line: u64, detail: &str) {
        self.bad(line, BadKind::Invalid, detail);
    }

    pub(crate) fn unknown(&mut self, line: u64, kind: &str) {
        let shown: String = kind.chars().take(80).collect();
        self.bad(line, BadKind::UnknownType, format!("entry type `{shown}`"));
    }
}

/// The fields every event of a session carries, as both agents send them: `session_id`,
/// `transcript_path`, `cwd`, `hook_event_name`.
pub(crate) fn event_base(
    event: &str,
    session_id: &str,
    transcript: &str,
    cwd: &str,
) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("session_id".into(), session_id.into());
    object.insert("transcript_path".into(), transcript.into());
    object.insert("cwd".into(), cwd.into());
    object.insert("hook_event_name".into(), event.into());
    object
}

/// One agent's transcript format: entries in, events out.
pub(crate) trait Format {
    /// Reads one entry (a JSON object) at `line`.
    fn entry(&mut self, line: u64, entry: &Value, sink: &mut Sink);
    /// The file ended.
    fn finish(&mut self, sink: &mut Sink);
    /// The session's id, once read.
    fn session_id(&self) -> &str;
}

/// Only the hooks `--only` names run; every other one is refused (and left out of the report).
struct OnlyGate {
    keys: HashSet<String>,
    inner: Box<dyn Gate>,
}

/// The message `OnlyGate` refuses with; the report leaves those runs out.
const NOT_SELECTED: &str = "not selected by --only";

impl Gate for OnlyGate {
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)> {
        if !self.keys.is_empty() && !self.keys.contains(&handler.key) {
            return Some((SkipReason::Disabled, NOT_SELECTED.to_owned()));
        }
        self.inner.check(handler)
    }

    fn check_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<(SkipReason, String)> {
        if !self.keys.is_empty() && !self.keys.contains(&handler.key) {
            return Some((SkipReason::Disabled, NOT_SELECTED.to_owned()));
        }
        self.inner.check_native(handler, library_sha256)
    }
}

/// What every session's replay shares.
struct Shared<'a> {
    dialect: Dialect,
    engines: Vec<Engine>,
    events: HashSet<Event>,
    project: PathBuf,
    max_line: usize,
    dry_run: bool,
    json: bool,
    bytes_read: &'a AtomicUsize,
    progress: Option<&'a indicatif::ProgressBar>,
}

/// `hook replay`.
pub(crate) fn replay(args: ReplayArgs) -> Result<ExitCode> {
    if args.schema {
        crate::ui::terminal::println_exact(&report::schema_text()?);
        return Ok(ExitCode::SUCCESS);
    }
    let dialect = args.location.dialect;
    // The transcript format is the agent's, so per dialect by nature.
    if dialect == Dialect::Wuu {
        bail!(
            "wuu keeps no session transcripts: replay reads Claude Code's (--dialect verboo) \
             or Codex's (--dialect lime)"
        );
    }
    let mut events = HashSet::new();
    for name in &args.events {
        events.insert(crate::ops::input::known_event(dialect, name.trim())?);
    }
    let project = match &args.location.project {
        Some(dir) => dir
            .canonicalize()
            .with_context(|| format!("project directory {} does not exist", dir.display()))?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let side_files = tempfile::tempdir().context("cannot create a temporary folder")?;
    let mut temporary = Vec::new();
    let mut engines = vec![match &args.config {
        Some(file) => engine_for_file(&args, file, &project, side_files.path(), &mut temporary)?,
        None => engine(
            &args,
            load_options(&args.location.location(), &project)?,
            side_files.path(),
            &project,
        )?,
    }];
    if let Some(other) = &args.compare {
        engines.push(engine_for_file(
            &args,
            other,
            &project,
            side_files.path(),
            &mut temporary,
        )?);
    }
    let paths = if args.paths.is_empty() {
        default_paths(dialect, &args.location.location(), &project)?
    } else {
        args.paths.clone()
    };
    let files = lines::transcript_files(&paths).context("cannot list the transcripts")?;
    if files.is_empty() {
        errln!(
            "warning: no transcripts found in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let total: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let progress = (std::io::stderr().is_terminal() && total > 0).then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {bytes}/{total_bytes} {msg} ({elapsed}, {eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let bytes_read = AtomicUsize::new(0);
    let context = Shared {
        dialect,
        engines,
        events,
        project,
        max_line: args.max_line_bytes,
        dry_run: args.dry_run,
        json: args.json,
        bytes_read: &bytes_read,
        progress: progress.as_ref(),
    };
    let report = Mutex::new(Report::new(
        dialect,
        args.compare.is_some(),
        args.json,
        args.limit,
    ));
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    runtime.block_on(async {
        let workers = (0..usize::from(args.jobs).min(files.len().max(1))).map(|_| async {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(index) else { break };
                let log = replay_file(&context, file).await;
                if let Ok(mut report) = report.lock() {
                    report.add(log);
                }
                let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(bar) = &progress {
                    bar.set_message(format!("{done}/{} sessions", files.len()));
                }
            }
        });
        futures::future::join_all(workers).await;
    });
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    drop(temporary);
    let mut report = report
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a replay worker panicked"))?;
    report.finish(
        files.len(),
        bytes_read.load(Ordering::Relaxed) as u64,
        started.elapsed(),
    );
    report.print()?;
    Ok(ExitCode::SUCCESS)
}

/// The engine of `options`, gated as described in the module docs.
fn engine(
    args: &ReplayArgs,
    options: LoadOptions,
    side_files: &Path,
    project: &Path,
) -> Result<Engine> {
    let loaded = hook_config::load(&options).context("cannot load the hook configuration")?;
    for diagnostic in &loaded.diagnostics {
        let label = match diagnostic.severity {
            hook_config::Severity::Error => "error",
            hook_config::Severity::Warning => "warning",
        };
        errln!("{label}: {diagnostic}");
    }
    let inner: Box<dyn Gate> = if args.trust_all_for_replay {
        Box::new(hook_config::AllowAll)
    } else {
        let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
        Box::new(hook_trust::TrustGate::new(view).with_phrasing(
            crate::trust_commands::refusal_phrasing(&args.location.location()),
        ))
    };
    let known: HashSet<&str> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| h.key.as_str())
        .collect();
    for key in &args.only {
        if !known.contains(key.as_str()) {
            errln!("warning: --only {key}: no hook has this key (see `hook list`)");
        }
    }
    let gate = OnlyGate {
        keys: args.only.iter().cloned().collect(),
        inner,
    };
    let options = EngineOptions::default()
        .with_project_dir(project)
        .with_side_file_dir(side_files)
        .with_kill_on_parent_death(true);
    let mut engine = Engine::new(loaded.registry)
        .with_options(options)
        .with_gate(gate);
    if let Some(client) = hook_exec::client::OpenAiCompatibleClient::from_env() {
        engine = engine.with_model_client(client);
    }
    Ok(engine)
}

/// The engine of one config file, read as the user file of an empty temporary home.
fn engine_for_file(
    args: &ReplayArgs,
    file: &Path,
    project: &Path,
    side_files: &Path,
    temporary: &mut Vec<tempfile::TempDir>,
) -> Result<Engine> {
    let text = hook_config::read_config_text(file, hook_config::FileOwner::Anyone)
        .map_err(|error| anyhow::anyhow!("{} {error}", file.display()))?;
    let home = tempfile::tempdir().context("cannot create a temporary folder")?;
    let empty_project = tempfile::tempdir().context("cannot create a temporary folder")?;
    let options = LoadOptions::new(args.location.dialect, Environment::from_process())
        .with_home(home.path())
        .with_project(empty_project.path())
        .without_managed();
    let discovery = hook_config::discover(&options).context("cannot place the config file")?;
    let user = discovery
        .user_file()
        .context("this dialect has no user file")?
        .to_owned();
    std::fs::write(&user, text).with_context(|| format!("cannot write {}", user.display()))?;
    let engine = engine(args, options, side_files, project)?;
    temporary.push(home);
    temporary.push(empty_project);
    Ok(engine)
}

/// The options `hook run` loads with (`--home`, `--relay`), for `project`.
fn load_options(location: &Location, project: &Path) -> Result<LoadOptions> {
    let mut options =
        LoadOptions::new(location.dialect, Environment::from_process()).with_project(project);
    if let Some(home) = &location.home {
        let home = home
            .canonicalize()
            .with_context(|| format!("home directory {} does not exist", home.display()))?;
        options = options.with_home(home);
    }
    if location.relay {
        options = options.for_relay();
    }
    Ok(options)
}

/// The current project's sessions where the agent keeps them.
fn default_paths(dialect: Dialect, location: &Location, project: &Path) -> Result<Vec<PathBuf>> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if dialect == Dialect::Verboo {
        let claude = match &location.home {
            Some(home) => home.clone(),
            None => home.context("HOME is not set")?.join(".claude"),
        };
        // Claude Code names a project's folder after its path, every character that is not a
        // letter or a digit made `-`.
        let name: String = project
            .display()
            .to_string()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        return Ok(vec![claude.join("projects").join(name)]);
    }
    let codex = match std::env::var_os("CODEX_HOME") {
        Some(dir) => PathBuf::from(dir),
        None => home.context("HOME is not set")?.join(".codex"),
    };
    let all = lines::transcript_files(&[codex.join("sessions")]).unwrap_or_default();
    let wanted = project.display().to_string();
    Ok(all
        .into_iter()
        .filter(|file| {
            lines::first_line(file, 1024 * 1024)
                .and_then(|line| codex::session_cwd(&line))
                .is_some_and(|cwd| cwd == wanted)
        })
        .collect())
}

/// Replays one transcript file: reads it, rebuilds and dispatches its events.
async fn replay_file(context: &Shared<'_>, file: &Path) -> SessionLog {
    let shown = file.display().to_string();
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
    let transcript = absolute.display().to_string();
    let mut format: Box<dyn Format> = if context.dialect == Dialect::Verboo {
        Box::new(claude::Claude::new(transcript))
    } else {
        Box::new(codex::Codex::new(transcript))
    };
    let mut sink = Sink {
        file: shown.clone(),
        events: Vec::new(),
        bad: Vec::new(),
    };
    let mut log = SessionLog::new(shown, context.engines.len(), context.json);
    let mut blocked = HashSet::new();
    let mut lines = match lines::open(file, context.max_line) {
        Ok(lines) => lines,
        Err(error) => {
            sink.bad(0, BadKind::Unreadable, error.to_string());
            log.add_bad(sink.bad.drain(..));
            return log;
        }
    };
    let mut counted = 0u64;
    loop {
        let mut ended = false;
        match lines.next_line() {
            Err(error) => {
                let at = log.lines + 1;
                sink.bad(at, BadKind::Unreadable, error.to_string());
                ended = true;
            }
            Ok(None) => ended = true,
            Ok(Some((number, Line::TooLong { bytes }))) => {
                log.lines = number;
                sink.bad(
                    number,
                    BadKind::TooLong,
                    format!(
                        "{bytes} bytes, over the {}-byte cap (--max-line-bytes)",
                        context.max_line
                    ),
                );
            }
            Ok(Some((number, Line::Text { bytes, last }))) => {
                log.lines = number;
                if !bytes.iter().all(u8::is_ascii_whitespace) {
                    match lines::parse_json(bytes) {
                        Ok(entry) if entry.is_object() => format.entry(number, &entry, &mut sink),
                        Ok(_) => sink.bad(number, BadKind::Corrupt, "not a JSON object"),
                        Err(error) => {
                            let kind = if last && error.is_eof() {
                                BadKind::Truncated
                            } else {
                                BadKind::Corrupt
                            };
                            sink.bad(number, kind, error.to_string());
                        }
                    }
                }
            }
        }
        if ended {
            format.finish(&mut sink);
        }
        let read = lines.bytes() - counted;
        counted = lines.bytes();
        context.bytes_read.fetch_add(
            usize::try_from(read).unwrap_or(usize::MAX),
            Ordering::Relaxed,
        );
        if let Some(bar) = context.progress {
            bar.inc(read);
        }
        log.add_bad(sink.bad.drain(..));
        let events = std::mem::take(&mut sink.events);
        for event in events {
            dispatch(context, event, format.session_id(), &mut blocked, &mut log).await;
        }
        if ended {
            break;
        }
    }
    for engine in &context.engines {
        // Async hooks started by this session's events run to their end before it is reported.
        let _finished = engine.collect_async(format.session_id(), None).await;
    }
    log.session = format.session_id().to_owned();
    log
}

/// Dispatches one rebuilt event through every engine, if it is selected.
async fn dispatch(
    context: &Shared<'_>,
    mut event: Rebuilt,
    session: &str,
    blocked: &mut HashSet<String>,
    log: &mut SessionLog,
) {
    let name = event
        .value
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let kind = Event::from_name(&name);
    *log.rebuilt.entry(name.clone()).or_default() += 1;
    if context.dry_run || !context.events.contains(&kind) {
        return;
    }
    if kind != Event::PreToolUse
        && let Some(call) = &event.call
        && blocked.contains(call)
    {
        log.after_block += 1;
        return;
    }
    let cwd = event.value.get("cwd").and_then(Value::as_str).unwrap_or("");
    if cwd.is_empty() || !Path::new(cwd).is_dir() {
        event
            .value
            .insert("cwd".into(), context.project.display().to_string().into());
        log.cwd_replaced += 1;
    }
    let value = Value::Object(event.value);
    let input = match input_from_value(context.dialect, value.clone()) {
        Ok(input) => input,
        Err(error) => {
            let bad = BadLine {
                file: log.file.clone(),
                line: event.line,
                kind: BadKind::Invalid,
                detail: format!("{name}: {error}"),
            };
            log.add_bad([bad]);
            return;
        }
    };
    let mut outcomes: Vec<(Outcome, std::time::Duration)> = Vec::new();
    for engine in &context.engines {
        let started = Instant::now();
        let outcome = engine.dispatch(&input).await;
        outcomes.push((outcome, started.elapsed()));
    }
    if kind == Event::PreToolUse
        && let Some(call) = &event.call
        && outcomes
            .first()
            .is_some_and(|(o, _)| o.decision == hook_protocol::Decision::Block)
    {
        blocked.insert(call.clone());
    }
    log.record(session, event.line, event.time, &name, &value, outcomes);
}

/// Counts of rebuilt events by name, for the summary.
pub(crate) type Counts = BTreeMap<String, u64>;
