//! `hook replay`: the configured hooks run against real session history, before they are
//! switched on.
//!
//! The transcripts the agents keep (Claude Code: [`claude`], verboo; Codex CLI: [`codex`],
//! lime) are read line by line ([`lines`]: a cap on each line, bad lines counted with
//! `file:line`, never an abort) and rebuilt, per session and in order, into the events the agent
//! would have sent its hooks. Each selected event is dispatched through the engine with its full
//! rules (matchers, `if`, trust, the dialect's combining); the tool itself never runs. The
//! results are summed up in [`tally`] into a [`ReplayReport`] for `ui` to print; with
//! `--json` each event and bad line is handed to the command's [`Listener`] as it is known
//! ([`report`] holds the JSON lines' types and their schema).
//!
//! Choices:
//! - *One file is one session*, replayed in order; sessions run concurrently, at most `--jobs`
//!   at a time, on one thread (hooks are processes: the thread only waits for them).
//! - *Engines* ([`engines`]): built like [`hook_exec::Hooks::load`] does (configuration, trust store, trust
//!   gate with `hook trust`'s wording), but assembled here so that `--only KEY` (a gate that
//!   refuses every other hook; those runs are left out of the report) and
//!   `--trust-all-for-replay` (every hook runs, as if trusted) can wrap the gate. Untrusted hooks
//!   are otherwise reported as skipped, never run.
//! - *The relay's entries* in the agent's settings never run, whatever the trust: the relay
//!   they start would take each replayed event for the agent's, record it in the relay's live
//!   journal and record this shell's `PATH` as the agent's. Each is named once in the report
//!   (`not_replayed` in `--json`) with `--relay`, which replays the relay's own hooks.
//! - *`--config FILE`*: the file is the user layer of an empty temporary home (so a lime file's
//!   own `[hooks.state]` trust records apply, and keys read `user:...` as in the real home); no
//!   project, managed or plugin layer is read. `--compare OTHER` builds a second engine the same
//!   way and dispatches every event through both.
//! - *Side effects*: nothing of the live state is written: no journal (the engine is given
//!   none, and the hooks it runs get `HOOK_JOURNAL=off`, so one that runs `hook` itself — a
//!   wrapper around the relay, a `hook run` — records nothing either), lime's over-limit context goes to a temporary folder, not the home's
//!   `hook-context`, and verboo's `CLAUDE_ENV_FILE` to the system's temporary folder (the
//!   engine's default), not `<state>/hook-env`. Async hooks run in this process and are
//!   collected at the end of each session (never the relay's detached waiter). PostToolUse and Stop
//!   are not replayed unless asked for (`--events`), since their hooks often act (format, log,
//!   notify).
//! - *After a block*: once a replayed PreToolUse blocks a call, that call's PermissionRequest
//!   and PostToolUse are not dispatched (the agent would not have sent them); they are counted.
//! - *`cwd`*: a recorded working directory that no longer exists (an old checkout, a temporary
//!   folder) is replaced by the project directory, since a command hook runs there; counted.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use hook_config::Diagnostic;
use hook_exec::Engine;
use hook_protocol::{Dialect, Event};

use crate::ops::location::Location;

mod claude;
mod codex;
mod engines;
pub(crate) mod events;
pub(crate) mod lines;
mod rebuild;
pub(crate) mod report;
mod session;
pub(crate) mod tally;

pub(crate) use report::{NotReplayed, ReportLine, schema_text};
pub(crate) use tally::ReplayReport;

use session::{Shared, replay_file};
use tally::Tally;

/// What to replay, and through what: `hook replay`'s options, without clap.
#[derive(Debug, Clone)]
pub(crate) struct ReplayOptions {
    /// The dialect, project, home and hooks (`--relay`) of the discovered configuration.
    pub(crate) location: Location,
    /// Transcript files or folders; empty: the current project's sessions where the agent
    /// keeps them.
    pub(crate) paths: Vec<PathBuf>,
    /// Replay through the hooks of this one file instead of the discovered configuration.
    pub(crate) config: Option<PathBuf>,
    /// A second configuration file every event is dispatched through too.
    pub(crate) compare: Option<PathBuf>,
    /// Run only the hooks with these keys (all when empty).
    pub(crate) only: Vec<String>,
    /// Run hooks that need trust and lack it as if trusted.
    pub(crate) trust_all_for_replay: bool,
    /// The names of the events to dispatch.
    pub(crate) events: Vec<String>,
    /// How many sessions are replayed at once (at least 1).
    pub(crate) jobs: u16,
    /// `--json`: each event and bad line goes to the [`Listener`] as soon as it is known, and
    /// the report keeps none of them.
    pub(crate) stream: bool,
    /// Lines longer than this are skipped and counted as bad.
    pub(crate) max_line_bytes: usize,
    /// How many notable events (and bad lines) the report keeps to list.
    pub(crate) limit: usize,
    /// Rebuild the events but dispatch none.
    pub(crate) dry_run: bool,
}

/// What the command hears while a replay runs: the `--json` lines as they are known, and the
/// progress (for a progress bar). Called from one thread.
pub(crate) trait Listener {
    /// One `--json` line (an event or a bad line), only with [`ReplayOptions::stream`].
    fn line(&self, line: &ReportLine);
    /// `bytes` more of the transcripts were read.
    fn read(&self, bytes: u64);
    /// `done` of `total` sessions are replayed.
    fn session_done(&self, done: usize, total: usize);
}

/// What the user should know before the replay starts, in the order it was found.
#[derive(Debug)]
pub(crate) enum Warning {
    /// A diagnostic of a configuration the replay loaded (an error or a warning).
    Config(Diagnostic),
    /// An `--only` key that no hook of a configuration has.
    UnknownOnlyKey(String),
    /// No transcript was found in these paths.
    NoTranscripts(Vec<PathBuf>),
}

/// A replay ready to run: its engines built, its transcripts found.
pub(crate) struct Prepared {
    options: ReplayOptions,
    engines: Vec<Engine>,
    events: HashSet<Event>,
    project: PathBuf,
    /// The transcript files, sorted by path.
    pub(crate) files: Vec<PathBuf>,
    /// Their total size, in bytes (for a progress bar).
    pub(crate) total_bytes: u64,
    /// What to tell the user before the replay runs.
    pub(crate) warnings: Vec<Warning>,
    /// The hooks the engines leave out (the relay's entries), for the report.
    not_replayed: Vec<NotReplayed>,
    /// lime's over-limit context during the replay, and the temporary homes of `--config` and
    /// `--compare`: removed when the replay is done.
    side_files: tempfile::TempDir,
    temporary: Vec<tempfile::TempDir>,
}

/// Whether `dialect`'s agent keeps sessions a replay reads.
///
/// # Errors
///
/// For wuu, which keeps no transcripts.
pub(crate) fn check_dialect(dialect: Dialect) -> Result<()> {
    // The transcript format is the agent's, so per dialect by nature.
    if dialect == Dialect::Wuu {
        bail!(
            "wuu keeps no session transcripts: replay reads Claude Code's (--dialect verboo) \
             or Codex's (--dialect lime)"
        );
    }
    Ok(())
}

/// Checks the options, builds the engines and finds the transcripts.
///
/// # Errors
///
/// wuu (it keeps no transcripts), an unknown event, a project or home that does not exist, a
/// configuration that cannot be read or loaded, transcripts that cannot be listed.
pub(crate) fn prepare(options: ReplayOptions) -> Result<Prepared> {
    let dialect = options.location.dialect;
    check_dialect(dialect)?;
    let mut events = HashSet::new();
    for name in &options.events {
        events.insert(crate::ops::input::known_event(dialect, name.trim())?);
    }
    let project = match &options.location.project {
        Some(dir) => dir
            .canonicalize()
            .with_context(|| format!("project directory {} does not exist", dir.display()))?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let side_files = tempfile::tempdir().context("cannot create a temporary folder")?;
    let mut temporary = Vec::new();
    let mut warnings = Vec::new();
    let (engine, mut not_replayed) = match &options.config {
        Some(file) => engines::engine_for_file(
            &options,
            file,
            &project,
            side_files.path(),
            &mut temporary,
            &mut warnings,
        )?,
        None => engines::engine(
            &options,
            engines::load_options(&options.location, &project)?,
            side_files.path(),
            &project,
            &mut warnings,
        )?,
    };
    let mut engines = vec![engine];
    if let Some(other) = &options.compare {
        let (engine, left_out) = engines::engine_for_file(
            &options,
            other,
            &project,
            side_files.path(),
            &mut temporary,
            &mut warnings,
        )?;
        engines.push(engine);
        not_replayed.extend(left_out.into_iter().map(|entry| NotReplayed {
            compared: true,
            ..entry
        }));
    }
    let paths = if options.paths.is_empty() {
        default_paths(dialect, &options.location, &project)?
    } else {
        options.paths.clone()
    };
    // Where the agent keeps sessions may not exist yet (a warning below); a path the user gave
    // must.
    let existing: Vec<PathBuf> = if options.paths.is_empty() {
        paths.iter().filter(|path| path.exists()).cloned().collect()
    } else {
        paths.clone()
    };
    let files = lines::transcript_files(&existing).context("cannot list the transcripts")?;
    if files.is_empty() {
        warnings.push(Warning::NoTranscripts(paths));
    }
    let total_bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    Ok(Prepared {
        options,
        engines,
        events,
        project,
        files,
        total_bytes,
        warnings,
        not_replayed,
        side_files,
        temporary,
    })
}

/// Replays every session of `prepared`, at most `jobs` at a time on one thread, telling
/// `listener` as it goes; the finished report.
///
/// # Errors
///
/// When the async runtime cannot start.
pub(crate) fn run(prepared: Prepared, listener: &dyn Listener) -> Result<ReplayReport> {
    let Prepared {
        options,
        engines,
        events,
        project,
        files,
        not_replayed,
        side_files,
        temporary,
        ..
    } = prepared;
    let bytes_read = AtomicUsize::new(0);
    let context = Shared {
        dialect: options.location.dialect,
        engines,
        events,
        project,
        max_line: options.max_line_bytes,
        dry_run: options.dry_run,
        stream: options.stream,
        bytes_read: &bytes_read,
        listener,
    };
    let tally = Mutex::new(Tally::new(
        options.location.dialect,
        options.compare.is_some(),
        options.limit,
    ));
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    runtime.block_on(async {
        let workers = (0..usize::from(options.jobs).min(files.len().max(1))).map(|_| async {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(index) else { break };
                let log = replay_file(&context, file).await;
                if let Ok(mut tally) = tally.lock() {
                    tally.add(log);
                }
                let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                listener.session_done(done, files.len());
            }
        });
        futures::future::join_all(workers).await;
    });
    drop(temporary);
    drop(side_files);
    let tally = tally
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a replay worker panicked"))?;
    let mut report = tally.finish(
        files.len(),
        bytes_read.load(Ordering::Relaxed) as u64,
        started.elapsed(),
    );
    report.summary.not_replayed = not_replayed;
    Ok(report)
}

/// The current project's sessions where the agent keeps them.
///
/// # Errors
///
/// When `HOME` is not set (and no home was given).
pub(crate) fn default_paths(
    dialect: Dialect,
    location: &Location,
    project: &Path,
) -> Result<Vec<PathBuf>> {
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

#[cfg(test)]
pub(crate) mod tests;
