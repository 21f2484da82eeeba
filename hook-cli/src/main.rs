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
//! # Agents
//!
//! Every command that takes a dialect takes the agent instead: `--agent claude` (or
//! `claude-code`: Claude Code, dialect verboo), `--agent codex` (Codex CLI, dialect lime) or
//! `--agent wuu`; `--agent codex` reads the hooks `hook relay` runs for Codex, as `--dialect
//! lime --relay` (lime's own `~/.lime` files are not Codex's). Without `--agent` or
//! `--dialect`: `hook log` and `hook stats` read every agent's journal, with an agent column;
//! `hook relay status` shows every agent the relay speaks for; `hook list`, `hook doctor` and
//! `hook replay` take the one agent whose hook files are here and say so on stderr (several or
//! none: an error naming the agents); every other command asks for one, since it runs or
//! changes something (`run`, `trust`, `untrust`, `enable`, `disable`, the relay's `install`,
//! `sync`, `uninstall`, `hook guard add` and `remove`) or reads a format the files cannot tell (`validate`, `schema`, `test`,
//! `hook relay` itself). The choices and their reasons are in `ops::agents`.
//!
//! `hook guard` (list, test, add, remove, run: the ready-made guards of `hook-guards`, in the
//! relay's own files; see `ops::guard`): `hook guard list` shows every agent; `hook guard test`
//! exits 1 when a case of the guard's table fails; `hook guard run` is a hook, which exits 2
//! (failing closed) on an event or a guard it cannot read; `hook relay` and `hook run` answer a
//! guard's entry in their own process.
//!
//! `hook relay status` exits 0 when every relay hook can guard, or when there is nothing to
//! guard (no relay hooks, no entries); 1 when something stops a guard (see
//! `ops::relay::status`).
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
//! # Start-up
//!
//! `hook relay` and `hook run` are started once per event, so their start is the engine's cost
//! for an agent: both parse only their own arguments (not the whole command tree; `--help`
//! takes the full parse, so help reads the same), and on glibc Linux the unwinder is linked in
//! (`build.rs`) so no `libgcc_s.so.1` is loaded. Kept on purpose although each costs a start
//! (measured in BENCHMARKS.md, "Where a start goes"): one binary for every command (a separate
//! relay binary saved 1 %), `fork` for a hook (so `PR_SET_PDEATHSIG` can be set; `posix_spawn`
//! cannot), std's own `main` (it reopens closed standard streams and ignores SIGPIPE).
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
//!   trust records of those entries are written only with `--trust` (see `ops::relay::install`).
//! - Prompt and agent hooks use the OpenAI-compatible endpoint in `HOOK_MODEL_URL` (with
//!   `HOOK_MODEL_API_KEY`, `HOOK_MODEL`); there is no built-in MCP client, so `mcp_tool` hooks
//!   are skipped as `no_client` here.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod args;
mod commands;
mod ops;
mod shell;
mod ui;

#[cfg(test)]
mod tests;

use ops::input::Stdin;
use ui::terminal::Terminal;
use ui::{Printer, Status};

/// Inspect and check agent lifecycle hooks (Claude Code, Codex CLI, wuu; dialects verboo, lime,
/// wuu).
#[derive(Debug, Parser)]
#[command(name = "hook", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    output: args::OutputArgs,
}

const EXIT_CODES: &str = "Exit codes: 0 success, 1 invalid output or an error, 2 usage error.";

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the JSON Schema of an event's input or output, or of the outcome.
    #[command(
        after_help = "Examples:\n  hook schema --dialect lime --event PreToolUse --kind output\n  hook schema --outcome\n  hook schema --all --out schemas/"
    )]
    Schema(commands::schema::SchemaArgs),
    /// Dispatch one event through every discovered hook and print the outcome JSON.
    #[command(
        after_help = "Examples:\n  hook run --dialect lime --event PreToolUse --home examples/demo/lime-home --project examples/demo --input examples/demo/events/lime-pre-tool-use.json\n  echo '{...}' | hook run --agent claude --event Stop\n\nFor people and scripts: agents call `hook relay` (it answers in their format and fails closed). Exit 0 whatever the hooks decided; 1 on bad input. A broken handler or file is reported and skipped (runs: skipped, invalid); the rest runs. With async hooks, stdout closes once the outcome is out and the command exits when they are done."
    )]
    Run(commands::run::RunArgs),
    /// List every discovered hook by event and matcher, with its source and key.
    #[command(
        after_help = "Examples:\n  hook list --agent claude\n  hook list --agent codex --json\n  hook list\n\n--agent codex lists the hooks `hook relay` runs for Codex (~/.codex/hook-relay/); --agent claude Claude Code's own settings (--relay: the relay's). Without --agent or --dialect: the one agent whose hook files are here (said on stderr); with several, name one."
    )]
    List(commands::list::ListArgs),
    /// Trust hooks as they are now, so they may run (lime: every non-managed hook; wuu and
    /// verboo: project, local and plugin hooks).
    #[command(
        after_help = "Examples:\n  hook trust --dialect lime 'user:config.toml:PreToolUse:Bash:0'\n  hook trust --agent claude --all\n  hook trust --agent codex --review\n\nReview a hook (`hook list`) before trusting it: a trusted hook runs with your rights."
    )]
    Trust(args::KeysArgs),
    /// Take trust away from hooks (their disabled state stays).
    #[command(
        after_help = "Examples:\n  hook untrust --dialect lime 'user:config.toml:Stop::0'\n  hook untrust --dialect wuu --all"
    )]
    Untrust(args::KeysArgs),
    /// Enable disabled hooks (their trust stays).
    #[command(after_help = "Examples:\n  hook enable --dialect lime 'user:config.toml:Stop::0'")]
    Enable(args::KeysArgs),
    /// Disable hooks: they are skipped, and keep their trust. Managed hooks cannot be disabled.
    #[command(after_help = "Examples:\n  hook disable --dialect verboo --all")]
    Disable(args::KeysArgs),
    /// Check one hook output against its dialect's schema for an event.
    #[command(
        after_help = "Examples:\n  hook validate --dialect lime --event Stop out.json other.json\n  ./my-hook < event.json | hook validate --dialect verboo --event PreToolUse\n  hook validate --dialect verboo --strict out.json\n\nFields wuu and verboo do not define are ignored by those agents: they are warnings (on stderr, with the closest known field), not errors, unless --strict. Without --event, the event is the output's hookSpecificOutput.hookEventName. With --json, an error before the check (empty stdin, an unreadable file, an unknown event) is a report too, valid: false, exit 1."
    )]
    Validate(commands::validate::ValidateArgs),
    /// Run a hook through the verification matrix: a minimal event, your input, another tool,
    /// another event; report what it decided and whether its output is valid.
    #[command(
        after_help = "Examples:\n  hook test --dialect lime --event PreToolUse --tool Bash -- python3 check.py\n  hook test --dialect verboo --event Stop --timeout 5 --json -- ./stop-hook\n  hook test --dialect verboo --expectations\n\nExit 1 when the hook hangs, cannot run, fails on a minimal event or prints invalid output. With --expectations [FILE] (default <project>/.claude/hook-expectations.toml, .lime/, .wuu/, or the relay's .claude/hook-relay/, .codex/hook-relay/): each [[case]] (event, tool, a partial input, expect = block|allow|ask|defer|rewrite|context|stop, reason_contains, context_contains) runs through the configured hooks; exit 1 on a failed case."
    )]
    Test(commands::test::TestArgs),
    /// Translate a hooks configuration to another dialect; warnings name what has no equivalent.
    #[command(
        after_help = "Examples:\n  hook convert --from verboo --to lime .claude/settings.json > config.toml\n  hook convert --from lime --to wuu ~/.lime/config.toml\n  hook convert --agent claude --to codex .claude/settings.json\n\nFILE's format is named by --from (a dialect or an agent), --agent or --dialect; --to takes a dialect or an agent."
    )]
    Convert(commands::convert::ConvertArgs),
    /// Scaffold a typed Rust hook crate on hook-sdk, with a test and config snippets.
    #[command(
        after_help = "Examples:\n  hook new block-secrets\n  hook new my-hook --dialect lime --path hooks/my-hook"
    )]
    New(commands::new::NewArgs),
    /// Run the relay's hooks for Claude Code (--agent claude, dialect verboo) or Codex (--agent
    /// codex, dialect lime), which call it as their one hook: the event on stdin, the agent's
    /// own hook output on stdout; `hook relay status`: is it guarding.
    #[command(
        after_help = "Examples:\n  echo '{\"hook_event_name\":\"PreToolUse\",...}' | hook relay --dialect verboo --event PreToolUse\n  hook relay status\n\nThe relay's hooks: ~/.claude/hook-relay/ and <project>/.claude/hook-relay/ (verboo), $CODEX_HOME/hook-relay/ (~/.codex) and <project>/.codex/hook-relay/ (lime); list, trust and validate them with --relay. Exit 0 with JSON; 2 for a block the event only takes by exit code, and for every event the relay cannot evaluate where the event can block (it fails closed); agents call this, not `hook run`."
    )]
    Relay(commands::relay::RelayArgs),
    /// Show the journal of every agent (Claude Code, Codex, wuu) or one: what the hooks did,
    /// newest first, one line a dispatch.
    #[command(
        after_help = "Examples:\n  hook log\n  hook log --agent codex --status failed --since 2h\n  hook log --agent claude --hook 'user:settings.json:PreToolUse:Bash:0' --json\n  hook log --follow\n\nWithout --agent or --dialect: every agent's journal, each line naming its agent. `hook run` records every dispatch in <home>/hook-journal/, `hook relay` in the relay's folder beside the agent (~/.claude/hook-relay/hook-journal/, $CODEX_HOME/hook-relay/hook-journal/; with --home, <home>/hook-journal/), and hook log reads both (HOOK_JOURNAL=off turns recording off): the tool and a summary of the input (the command or path, cut), never the whole input; per hook its status, exit code, duration and stderr's first and last bytes."
    )]
    Log(commands::log::LogArgs),
    /// Per hook of every agent (Claude Code, Codex, wuu) or one, over a window: runs, blocks,
    /// failures, time-outs, skips, durations, and flags for hooks that need a look.
    #[command(
        after_help = "Examples:\n  hook stats --since 7d\n  hook stats --agent codex --slow-ms 500 --json\n\nWithout --agent or --dialect: every agent's hooks and journal, with an agent column. Flags: always fails; never matched; always exit 0 with no output on a blocking event (a guard that may have stopped guarding); slow (p95 over --slow-ms)."
    )]
    Stats(commands::stats::StatsArgs),
    /// Check every configured hook of an agent (Claude Code, Codex, wuu) in the environment the
    /// agent gives it: programs on the agent's PATH, scripts, interpreters, matchers,
    /// timeouts, trust, expectations.
    #[command(
        after_help = "Examples:\n  hook doctor --agent claude\n  hook doctor --agent codex --project . --json\n  hook doctor --agent claude --path /usr/bin:/bin\n  hook doctor --agent claude --all-hooks\n\nWithout --agent or --dialect: the one agent whose hook files are here (said on stderr). The PATH checked is the agent's, as hook relay last recorded it in the journal (else --path, else this shell's). Each finding: severity, the hook's key, file:line:col and a fix. Runs <project>/.claude/hook-expectations.toml (.lime/, .wuu/; else the relay's, .claude/hook-relay/, .codex/hook-relay/) when it exists, through the project's own hooks only (its project and local files): a project never chooses what your own hooks run on; --all-hooks runs the file through every hook, yours included. Exit 1 on an error."
    )]
    Doctor(commands::doctor::DoctorArgs),
    /// Run the configured hooks against recorded sessions (Claude Code transcripts with
    /// --agent claude, Codex rollouts with --agent codex) and report what they would have
    /// done; the tools never run.
    #[command(
        after_help = "Examples:\n  hook replay --agent claude\n  hook replay --agent codex ~/.codex/sessions/2026/ --events PreToolUse --json\n  hook replay --agent claude --config guard.json --compare guard-v2.json\n\nWithout --agent or --dialect: the one agent whose hook files are here (said on stderr). PostToolUse and Stop hooks are replayed only with --events, since they may act (format, log, notify). Untrusted hooks are reported, not run, unless --trust-all-for-replay."
    )]
    Replay(commands::replay::ReplayArgs),
    /// Ready-made guards (dangerous-commands, secrets, protected-paths): list, test, add one
    /// for Claude Code or Codex (try it on your recorded sessions first: --dry-run), remove.
    #[command(
        after_help = "Examples:\n  hook guard list\n  hook guard test dangerous-commands\n  hook guard add dangerous-commands --agent claude --dry-run\n  hook guard add dangerous-commands --agent claude\n  hook guard remove dangerous-commands --agent claude"
    )]
    Guard(commands::guard::GuardArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  hook completions bash > ~/.local/share/bash-completion/completions/hook"
    )]
    Completions(commands::completions::CompletionsArgs),
    /// Print the manual page of hook (roff), or write one per command into a folder.
    #[command(
        after_help = "Examples:\n  hook man | man -l -\n  hook man --out ~/.local/share/man/man1\n\nThe npm package and the wheel install these pages: man hook, man hook-relay-install."
    )]
    Man(commands::man::ManArgs),
}

fn main() -> ExitCode {
    // The commands an agent starts on every event (`hook relay`, and `hook run` for an agent
    // that embeds nothing) parse only their own arguments, without building the whole command
    // tree first; asking for help takes the full parse, so the help reads the same either way.
    let first = std::env::args_os().nth(1);
    let asks_help = || {
        std::env::args_os()
            .skip(2)
            .any(|arg| arg == "-h" || arg == "--help")
    };
    match first.as_ref().and_then(|first| first.to_str()) {
        Some("relay") if !asks_help() => {
            let (args, printer) = parse_alone::<commands::relay::RelayArgs>("hook relay");
            ui::exit::finish(
                &printer,
                commands::relay::exec(args, &printer, Stdin::process()),
            )
        }
        Some("run") if !asks_help() => {
            let (args, printer) = parse_alone::<commands::run::RunArgs>("hook run");
            ui::exit::finish(
                &printer,
                commands::run::exec(args, &printer, Stdin::process()),
            )
        }
        _ => execute(Cli::parse()),
    }
}

/// `hook COMMAND ...` (`name`) parsed with only `A`'s arguments and the output flags built, and
/// the printer they ask for; a usage error exits 2 as with the full parse (the agents read it
/// as a block where the event can block).
fn parse_alone<A: clap::Args + clap::FromArgMatches>(name: &'static str) -> (A, Printer) {
    use clap::{Args as _, FromArgMatches as _};
    let built =
        args::OutputArgs::augment_args(A::augment_args(clap::Command::new(name).bin_name(name)));
    let matches = built.get_matches_from(std::env::args_os().skip(1));
    let parsed = A::from_arg_matches(&matches)
        .and_then(|args| args::OutputArgs::from_arg_matches(&matches).map(|output| (args, output)));
    match parsed {
        Ok((args, output)) => {
            let printer = Printer::new(output.verbosity(), Terminal::process(), output.color);
            (args, printer)
        }
        Err(error) => error.exit(),
    }
}

/// Runs the command `cli` names on the process's own streams; its exit code.
fn execute(cli: Cli) -> ExitCode {
    let (printer, result) = dispatch(cli, Terminal::process(), Stdin::process());
    ui::exit::finish(&printer, result)
}

/// Runs the command `cli` names with the printer its flags ask for, writing to `terminal`;
/// the commands that read stdin read `stdin`.
fn dispatch(cli: Cli, terminal: Terminal, stdin: Stdin) -> (Printer, anyhow::Result<Status>) {
    let printer = Printer::new(cli.output.verbosity(), terminal, cli.output.color);
    let result = match cli.command {
        Command::Schema(args) => commands::schema::exec(args, &printer),
        Command::Validate(args) => commands::validate::exec(args, &printer, stdin),
        Command::Run(args) => commands::run::exec(args, &printer, stdin),
        Command::List(args) => commands::list::exec(args, &printer),
        Command::Trust(args) => commands::trust::exec(args, &printer, stdin),
        Command::Untrust(args) => commands::untrust::exec(args, &printer),
        Command::Enable(args) => commands::enable::exec(args, &printer),
        Command::Disable(args) => commands::disable::exec(args, &printer),
        Command::Test(args) => commands::test::exec(args, &printer),
        Command::Relay(args) => commands::relay::exec(args, &printer, stdin),
        Command::Log(args) => commands::log::exec(args, &printer),
        Command::Stats(args) => commands::stats::exec(args, &printer),
        Command::Doctor(args) => commands::doctor::exec(args, &printer),
        Command::Replay(args) => commands::replay::exec(args, &printer),
        Command::Guard(args) => commands::guard::exec(args, &printer, stdin),
        Command::Convert(args) => commands::convert::exec(args, &printer),
        Command::New(args) => commands::new::exec(args, &printer),
        Command::Completions(args) => {
            Ok(commands::completions::exec(args, Cli::command(), &printer))
        }
        Command::Man(args) => commands::man::exec(args, Cli::command(), &printer),
    };
    (printer, result)
}
