//! The `hook` command: inspect and check agent lifecycle hooks for wuu, verboo and lime.
//!
//! **Owns**: the command line, and everything the workspace prints. The libraries return values
//! and errors; this crate turns them into text, JSON and exit codes.
//!
//! **Never**: implements protocol, configuration or execution rules itself: it calls the
//! libraries, so the CLI and an embedding agent always agree.
//!
//! # Example
//!
//! ```text
//! $ hook schema --dialect lime --event Stop --kind output
//! $ echo '{"decision":"block"}' | hook validate --dialect lime --event Stop
//! ```
//!
//! Exit codes: 0 success (for `validate`, the output is valid); 1 invalid output, bad input or
//! an error (one line on stderr says what and where); 2 usage errors.
//!
//! `hook validate --config` on Claude Code's or Codex's own settings file (under `.claude` or
//! `.codex`, or the folder `CLAUDE_CONFIG_DIR`/`CODEX_HOME` names; not the relay's `hook-relay`
//! files) fails on a `native` handler, with its line and column: that agent does not run native
//! handlers and would ignore (Claude Code) or refuse (Codex) the whole file with it.
//!
//! `hook validate` warns (on stderr, and in `--json` as `warnings`) on the fields a wuu or
//! verboo output has that its dialect does not define, each at its JSON pointer with the closest
//! known field when one is close (`permisionDecision`: did you mean `permissionDecision`?). Those
//! agents ignore such fields, so they are not errors and the exit code stays 0; but a misspelt
//! field is a decision lost without a word, hence the warning, and `--strict` makes warnings
//! fail. lime rejects unknown fields: there they are errors. Without `--event`, the event is
//! the output's `hookSpecificOutput.hookEventName`.
//!
//! # Limitations
//!
//! - `hook run` prints `statusMessage`s before dispatching (when stderr is a terminal), not as
//!   each handler starts: the engine reports no progress yet.
//! - Async hooks started by `hook run` are cancelled when it exits: their results are for an
//!   embedding agent that lives longer than one event.
//! - SIGINT, SIGTERM and SIGHUP (Ctrl-C in a terminal) to `hook run` kill the process group of
//!   every hook still running, then `hook run` exits 128 + the signal number without printing an
//!   outcome. A SIGKILL cannot be caught: on Linux each hook's shell gets SIGKILL with it
//!   (`PR_SET_PDEATHSIG`), but the shell's own children keep running; on other systems nothing
//!   is killed. Processes that left a hook's group (`setsid`) are never reached. `hook run` is
//!   deliberately not a child subreaper: a hook's leftover children would become its own, and
//!   the reaping of a hook's group (a wait on the whole group) would then wait for them, turning
//!   a hook that left a background child into a timeout.
//! - A native hook that times out cannot be stopped: `hook run` reports it `timed_out` and
//!   exits without waiting for its thread.
//! - lime side files (context over `additionalContextLimit`) go to `<home>/hook-context`, a
//!   private folder (0700, files 0600) where side files older than 7 days, and beyond the newest
//!   100, are removed as new ones are written.
//! - An agent calls `hook relay`, not `hook run`: the relay answers in the agent's own format,
//!   fails closed (an event it cannot evaluate is a block where the event can block) and never
//!   waits for async hooks. `hook run` prints the engine's outcome for people and scripts, exits 1
//!   on bad input, and waits for its async hooks (stdout closed first).
//! - `hook relay` answers the agent once every hook is done: it does not stream per-hook
//!   progress to the agent (neither agent has a way to show it); what its async hooks print
//!   reaches no one (they run in a process of their own after the answer). Its install edits
//!   only the relay's own entries in the agent's settings, every other byte kept; Codex's own
//!   trust records of those entries are written only with `--trust` (see `relay_install`).
//! - Prompt and agent hooks use the OpenAI-compatible endpoint in `HOOK_MODEL_URL` (with
//!   `HOOK_MODEL_API_KEY`, `HOOK_MODEL`); there is no built-in MCP client, so `mcp_tool` hooks
//!   are skipped as `no_client` here.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use hook_protocol::{
    Dialect, SchemaKind, ValidateError, output, schema, unknown_output_fields, validate_output,
};

mod args;
mod author_commands;
mod commands;
mod doctor_command;
mod engine_commands;
mod expectations;
mod journal_commands;
mod new_command;
mod ops;
mod relay_command;
mod relay_install;
mod trust_commands;
mod trust_review;
mod ui;

use args::parse_dialect;
use ops::input::{known_event, read_input};
use ui::exit::error_chain;
use ui::{Printer, Status, Verbosity, errln, outln};

/// Inspect and check agent lifecycle hooks (wuu, verboo, lime).
#[derive(Debug, Parser)]
#[command(name = "hook", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Print only results, warnings and errors: no notes (backups, what to run next).
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print details too: an error's causes each on a line of its own.
    #[arg(long, short, global = true)]
    verbose: bool,
}

const EXIT_CODES: &str = "Exit codes: 0 success, 1 invalid output or an error, 2 usage error.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the JSON Schema of an event's input or output, or of the outcome.
    #[command(
        after_help = "Examples:\n  hook schema --dialect lime --event PreToolUse --kind output\n  hook schema --outcome\n  hook schema --all --out schemas/"
    )]
    Schema(SchemaArgs),
    /// Dispatch one event through every discovered hook and print the outcome JSON.
    #[command(
        after_help = "Examples:\n  hook run --dialect lime --event PreToolUse --home examples/demo/lime-home --project examples/demo --input examples/demo/events/lime-pre-tool-use.json\n  echo '{...}' | hook run --dialect verboo --event Stop\n\nFor people and scripts: agents call `hook relay` (it answers in their format and fails closed). Exit 0 whatever the hooks decided; 1 on bad input. A broken handler or file is reported and skipped (runs: skipped, invalid); the rest runs. With async hooks, stdout closes once the outcome is out and the command exits when they are done."
    )]
    Run(engine_commands::RunArgs),
    /// List every discovered hook by event and matcher, with its source and key.
    #[command(
        after_help = "Examples:\n  hook list --dialect verboo\n  hook list --dialect lime --json"
    )]
    List(engine_commands::ListArgs),
    /// Trust hooks as they are now, so they may run (lime: every non-managed hook; wuu and
    /// verboo: project, local and plugin hooks).
    #[command(
        after_help = "Examples:\n  hook trust --dialect lime 'user:config.toml:PreToolUse:Bash:0'\n  hook trust --dialect verboo --all\n\nReview a hook (`hook list`) before trusting it: a trusted hook runs with your rights."
    )]
    Trust(trust_commands::KeysArgs),
    /// Take trust away from hooks (their disabled state stays).
    #[command(
        after_help = "Examples:\n  hook untrust --dialect lime 'user:config.toml:Stop::0'\n  hook untrust --dialect wuu --all"
    )]
    Untrust(trust_commands::KeysArgs),
    /// Enable disabled hooks (their trust stays).
    #[command(after_help = "Examples:\n  hook enable --dialect lime 'user:config.toml:Stop::0'")]
    Enable(trust_commands::KeysArgs),
    /// Disable hooks: they are skipped, and keep their trust. Managed hooks cannot be disabled.
    #[command(after_help = "Examples:\n  hook disable --dialect verboo --all")]
    Disable(trust_commands::KeysArgs),
    /// Check one hook output against its dialect's schema for an event.
    #[command(
        after_help = "Examples:\n  hook validate --dialect lime --event Stop out.json other.json\n  ./my-hook < event.json | hook validate --dialect verboo --event PreToolUse\n  hook validate --dialect verboo --strict out.json\n\nFields wuu and verboo do not define are ignored by those agents: they are warnings (on stderr, with the closest known field), not errors, unless --strict. Without --event, the event is the output's hookSpecificOutput.hookEventName. With --json, an error before the check (empty stdin, an unreadable file, an unknown event) is a report too, valid: false, exit 1."
    )]
    Validate(ValidateArgs),
    /// Run a hook through the verification matrix: a minimal event, your input, another tool,
    /// another event; report what it decided and whether its output is valid.
    #[command(
        after_help = "Examples:\n  hook test --dialect lime --event PreToolUse --tool Bash -- python3 check.py\n  hook test --dialect verboo --event Stop --timeout 5 --json -- ./stop-hook\n  hook test --dialect verboo --expectations\n\nExit 1 when the hook hangs, cannot run, fails on a minimal event or prints invalid output. With --expectations [FILE] (default <project>/.claude/hook-expectations.toml, .lime/, .wuu/): each [[case]] (event, tool, a partial input, expect = block|allow|ask|defer|rewrite|context|stop, reason_contains, context_contains) runs through the configured hooks; exit 1 on a failed case."
    )]
    Test(author_commands::TestArgs),
    /// Translate a hooks configuration to another dialect; warnings name what has no equivalent.
    #[command(
        after_help = "Examples:\n  hook convert --from verboo --to lime .claude/settings.json > config.toml\n  hook convert --from lime --to wuu ~/.lime/config.toml"
    )]
    Convert(author_commands::ConvertArgs),
    /// Scaffold a typed Rust hook crate on hook-sdk, with a test and config snippets.
    #[command(
        after_help = "Examples:\n  hook new block-secrets\n  hook new my-hook --dialect lime --path hooks/my-hook"
    )]
    New(new_command::NewArgs),
    /// Run the relay's hooks for Claude Code (verboo) or Codex (lime), which call it as their
    /// one hook: the event on stdin, the agent's own hook output on stdout.
    #[command(
        after_help = "Examples:\n  echo '{\"hook_event_name\":\"PreToolUse\",...}' | hook relay --dialect verboo --event PreToolUse\n\nThe relay's hooks: ~/.claude/hook-relay/ and <project>/.claude/hook-relay/ (verboo), $CODEX_HOME/hook-relay/ (~/.codex) and <project>/.codex/hook-relay/ (lime); list, trust and validate them with --relay. Exit 0 with JSON; 2 for a block the event only takes by exit code, and for every event the relay cannot evaluate where the event can block (it fails closed); agents call this, not `hook run`."
    )]
    Relay(relay_command::RelayArgs),
    /// Show the journal: what the hooks did, newest first, one line a dispatch.
    #[command(
        after_help = "Examples:\n  hook log --dialect verboo\n  hook log --dialect lime --status failed --since 2h\n  hook log --dialect verboo --hook 'user:settings.json:PreToolUse:Bash:0' --json\n  hook log --dialect verboo --follow\n\n`hook run` and `hook relay` record every dispatch in <home>/hook-journal/ (HOOK_JOURNAL=off turns it off): the tool and a summary of the input (the command or path, cut), never the whole input; per hook its status, exit code, duration and stderr's first and last bytes."
    )]
    Log(journal_commands::LogArgs),
    /// Per hook over a window: runs, blocks, failures, time-outs, skips, durations, and flags
    /// for hooks that need a look.
    #[command(
        after_help = "Examples:\n  hook stats --dialect verboo --since 7d\n  hook stats --dialect lime --slow-ms 500 --json\n\nFlags: always fails; never matched; always exit 0 with no output on a blocking event (a guard that may have stopped guarding); slow (p95 over --slow-ms)."
    )]
    Stats(journal_commands::StatsArgs),
    /// Check every configured hook in the environment the agent gives it: programs on the
    /// agent's PATH, scripts, interpreters, matchers, timeouts, trust, expectations.
    #[command(
        after_help = "Examples:\n  hook doctor --dialect verboo\n  hook doctor --dialect lime --project . --json\n  hook doctor --dialect verboo --path /usr/bin:/bin\n  hook doctor --dialect verboo --all-hooks\n\nThe PATH checked is the agent's, as hook relay last recorded it in the journal (else --path, else this shell's). Each finding: severity, the hook's key, file:line:col and a fix. Runs <project>/.claude/hook-expectations.toml (.lime/, .wuu/) when it exists, through the project's own hooks only (its project and local files): a project never chooses what your own hooks run on; --all-hooks runs the file through every hook, yours included. Exit 1 on an error."
    )]
    Doctor(doctor_command::DoctorArgs),
    /// Run the configured hooks against recorded sessions (Claude Code transcripts, Codex
    /// rollouts) and report what they would have done; the tools never run.
    #[command(
        after_help = "Examples:\n  hook replay --dialect verboo\n  hook replay --dialect lime ~/.codex/sessions/2026/ --events PreToolUse --json\n  hook replay --dialect verboo --config guard.json --compare guard-v2.json\n\nPostToolUse and Stop hooks are replayed only with --events, since they may act (format, log, notify). Untrusted hooks are reported, not run, unless --trust-all-for-replay."
    )]
    Replay(commands::replay::ReplayArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  hook completions bash > ~/.local/share/bash-completion/completions/hook"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
struct SchemaArgs {
    /// The dialect: wuu, verboo or lime.
    #[arg(long, value_parser = parse_dialect, required_unless_present_any = ["outcome", "all"])]
    dialect: Option<Dialect>,
    /// The event, e.g. PreToolUse.
    #[arg(long, required_unless_present_any = ["outcome", "all"])]
    event: Option<String>,
    /// Which side of the hook.
    #[arg(long, value_enum, default_value = "output")]
    kind: Kind,
    /// Print the schema of `hook run`'s outcome instead.
    #[arg(long, conflicts_with_all = ["dialect", "event"])]
    outcome: bool,
    /// Write every schema (each dialect's events, and the outcome) under --out instead.
    #[arg(long, requires = "out", conflicts_with_all = ["dialect", "event", "outcome"])]
    all: bool,
    /// The folder --all writes to (`<dialect>/<Event>.<kind>.schema.json`).
    #[arg(long, value_name = "DIR", requires = "all")]
    out: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    /// What the hook reads on stdin.
    Input,
    /// What the hook prints on stdout.
    Output,
}

#[derive(Debug, Args)]
struct ValidateArgs {
    /// The dialect: wuu, verboo or lime.
    #[arg(long, value_parser = parse_dialect)]
    dialect: Dialect,
    /// The event the output answers, e.g. PreToolUse; when absent, the output's
    /// `hookSpecificOutput.hookEventName`.
    #[arg(long)]
    event: Option<String>,
    /// Check a hooks configuration file instead (diagnostics with file:line:col).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["event", "files"])]
    config: Option<PathBuf>,
    /// The outputs to check, each in turn; stdin when absent or `-`.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print the verdict as JSON: `valid`, `errors` with `pointer` (RFC 6901: "" is the whole
    /// output), `message`, `hint`, and `warnings` with `pointer`, `field`, `suggestion`,
    /// `message`; with several files, one compact object per line.
    #[arg(long, conflicts_with = "config")]
    json: bool,
    /// Fail (exit 1) on warnings too: fields the agent ignores (wuu, verboo).
    #[arg(long, conflicts_with = "config")]
    strict: bool,
}

/// `hook relay ...`, parsed as `hook` would parse it (usage errors exit 2, which the agents
/// read as a block where the event can block), with only the relay's arguments built.
fn relay_main() -> ExitCode {
    use clap::{Args as _, FromArgMatches as _};
    let command = relay_command::RelayArgs::augment_args(
        clap::Command::new("hook relay")
            .bin_name("hook relay")
            .about("Run the relay's hooks for Claude Code (verboo) or Codex (lime)"),
    );
    let matches = command.get_matches_from(std::env::args_os().skip(1));
    let args = match relay_command::RelayArgs::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(error) => error.exit(),
    };
    finish(
        &Printer::new(Verbosity::Normal),
        relay_command::relay(args).map(Status::Legacy),
    )
}

fn main() -> ExitCode {
    // `hook relay` is started by the agent for every event it relays: it parses only its own
    // arguments, without building the whole command tree first.
    if std::env::args_os().nth(1).is_some_and(|a| a == "relay") {
        return relay_main();
    }
    let cli = Cli::parse();
    let verbosity = match (cli.quiet, cli.verbose) {
        (true, _) => Verbosity::Quiet,
        (_, true) => Verbosity::Verbose,
        _ => Verbosity::Normal,
    };
    let printer = Printer::new(verbosity);
    let result = match cli.command {
        Command::Schema(args) => schema_command(args),
        Command::Validate(args) => validate_command(args),
        Command::Run(args) => engine_commands::run(args),
        Command::List(args) => engine_commands::list(args),
        Command::Trust(args) => trust_commands::run(trust_commands::Action::Trust, args),
        Command::Untrust(args) => trust_commands::run(trust_commands::Action::Untrust, args),
        Command::Enable(args) => trust_commands::run(trust_commands::Action::Enable, args),
        Command::Disable(args) => trust_commands::run(trust_commands::Action::Disable, args),
        Command::Test(args) => author_commands::test(args),
        Command::Relay(args) => relay_command::relay(args),
        Command::Log(args) => journal_commands::log(args),
        Command::Stats(args) => journal_commands::stats(args),
        Command::Doctor(args) => doctor_command::doctor(args),
        Command::Replay(args) => return finish(&printer, commands::replay::exec(args, &printer)),
        Command::Convert(args) => author_commands::convert(args),
        Command::New(args) => new_command::new(args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "hook", &mut script);
            ui::terminal::print_exact(&String::from_utf8_lossy(&script));
            Ok(ExitCode::SUCCESS)
        }
    };
    finish(&printer, result.map(Status::Legacy))
}

/// Transitional: a command that still returns an exit code.
fn finish(printer: &Printer, result: Result<Status>) -> ExitCode {
    ui::exit::finish(printer, result)
}

fn schema_command(args: SchemaArgs) -> Result<ExitCode> {
    if let (true, Some(out)) = (args.all, &args.out) {
        let schemas = schema::all();
        for (relative, value) in &schemas {
            let path = out.join(relative);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            let mut text = serde_json::to_string_pretty(value)?;
            text.push('\n');
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        outln!("wrote {} schemas under {}", schemas.len(), out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let value = if args.outcome {
        schema::outcome_schema()
    } else {
        let (Some(dialect), Some(name)) = (args.dialect, args.event.as_deref()) else {
            bail!("give --dialect and --event, or --outcome");
        };
        let event = known_event(dialect, name)?;
        let kind = match args.kind {
            Kind::Input => SchemaKind::Input,
            Kind::Output => SchemaKind::Output,
        };
        schema::schema(dialect, &event, kind).context("every known event has a schema")?
    };
    ui::terminal::println_exact(&serde_json::to_string_pretty(&value)?);
    Ok(ExitCode::SUCCESS)
}

fn validate_command(args: ValidateArgs) -> Result<ExitCode> {
    if let Some(config) = &args.config {
        return author_commands::validate_config(args.dialect, config);
    }
    // Each file in turn; exit 1 when any fails.
    let files: Vec<Option<&std::path::Path>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().map(|f| Some(f.as_path())).collect()
    };
    let compact = files.len() > 1;
    let mut code = ExitCode::SUCCESS;
    for file in files {
        if validate_file_command(&args, file, compact)? != ExitCode::SUCCESS {
            code = ExitCode::FAILURE;
        }
    }
    Ok(code)
}

/// `hook validate` of one file (stdin for `None`); `compact` prints `--json` on one line.
fn validate_file_command(
    args: &ValidateArgs,
    file: Option<&std::path::Path>,
    compact: bool,
) -> Result<ExitCode> {
    if !args.json {
        return validate_output_command(args, file, compact);
    }
    // With --json, an error (empty stdin, an unreadable file, an unknown event) is a report of
    // the same shape on stdout, with the exit code of any other error.
    let name = file.map_or_else(|| "<stdin>".to_owned(), |file| file.display().to_string());
    let (dialect, event, strict) = (args.dialect, args.event.clone(), args.strict);
    validate_output_command(args, file, compact).or_else(|error| {
        let report = serde_json::json!({
            "file": name,
            "dialect": dialect,
            "event": event,
            "valid": false,
            "strict": strict,
            "errors": [{"pointer": "", "message": error_chain(&error), "hint": null}],
            "warnings": [],
        });
        print_report(&report, compact)?;
        Ok(ExitCode::FAILURE)
    })
}

/// A `--json` report: pretty, or on one line (several files).
fn print_report(report: &serde_json::Value, compact: bool) -> Result<()> {
    let text = if compact {
        serde_json::to_string(report)?
    } else {
        serde_json::to_string_pretty(report)?
    };
    ui::terminal::println_exact(&text);
    Ok(())
}

/// `hook validate` of one hook output.
fn validate_output_command(
    args: &ValidateArgs,
    file: Option<&std::path::Path>,
    compact: bool,
) -> Result<ExitCode> {
    let (bytes, origin) = read_input(file, "the hook output", "a FILE")?;
    // Parsed once here for the event and the warnings; `validate_output` reports a document
    // that is not JSON with its position.
    let parsed: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    let event = match (
        args.event.as_deref(),
        parsed.as_ref().and_then(output::named_event),
    ) {
        (Some(name), _) | (None, Some(name)) => known_event(args.dialect, name)?,
        (None, None) => bail!(
            "--event is required to check an output that names no \
             hookSpecificOutput.hookEventName"
        ),
    };
    let result = validate_output(args.dialect, &event, &bytes);
    let warnings = match &parsed {
        Some(value) => unknown_output_fields(args.dialect, &event, value)?,
        None => Vec::new(),
    };
    let failed = result.is_err() || (args.strict && !warnings.is_empty());
    let code = if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    };
    if args.json {
        let errors: Vec<serde_json::Value> = match &result {
            Ok(()) => Vec::new(),
            Err(ValidateError::Invalid { issues, .. }) => issues
                .iter()
                .map(|issue| {
                    serde_json::json!({
                        "pointer": issue.pointer,
                        "message": issue.message,
                        "hint": issue.hint,
                    })
                })
                .collect(),
            Err(error) => vec![serde_json::json!({
                "pointer": "",
                "message": error.to_string(),
                "hint": null,
            })],
        };
        let warnings: Vec<serde_json::Value> = warnings
            .iter()
            .map(|warning| {
                serde_json::json!({
                    "pointer": warning.pointer,
                    "field": warning.name,
                    "suggestion": warning.suggestion,
                    "message": warning.to_string(),
                })
            })
            .collect();
        let report = serde_json::json!({
            "file": origin,
            "dialect": args.dialect,
            "event": event,
            "valid": !failed,
            "strict": args.strict,
            "errors": errors,
            "warnings": warnings,
        });
        print_report(&report, compact)?;
        return Ok(code);
    }
    for warning in &warnings {
        errln!("warning: {warning}");
    }
    let dialect = args.dialect;
    match result {
        Ok(()) if failed => {
            outln!(
                "{origin}: invalid {dialect} {event} output: {} (--strict)",
                count(warnings.len(), "warning")
            );
        }
        Ok(()) if warnings.is_empty() => outln!("{origin}: valid {dialect} {event} output"),
        Ok(()) => outln!(
            "{origin}: valid {dialect} {event} output, with {} ({dialect} ignores unknown fields)",
            count(warnings.len(), "warning")
        ),
        Err(ValidateError::Invalid { issues, .. }) => {
            outln!("{origin}: invalid {dialect} {event} output");
            for issue in issues {
                outln!("  {issue}");
            }
        }
        Err(error) => outln!("{origin}: {error}"),
    }
    Ok(code)
}

/// `1 warning`, `2 warnings`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
