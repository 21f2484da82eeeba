//! `hook guard`: the ready-made guards of `hook-guards` (`dangerous-commands`, `secrets`,
//! `protected-paths`) in the agents' words.
//!
//! - **The entry** a guard is switched on with is one command handler in the relay's own hook
//!   files (Claude Code's `hook-relay/settings.json`, Codex's `hook-relay/config.toml`, of the
//!   user or a project): `<hook> guard run NAME [--set KEY=VALUE]...` on `PreToolUse`, with the
//!   guard's matcher in the agent's tool names ([`GuardLine`], [`relay_file`] writes and takes
//!   it out).
//! - **The hook**: `hook guard run NAME` reads the event on stdin and answers through
//!   [`hook_sdk::process`] ([`run`]); the relay (and `hook run`) answer the same line in their
//!   own process, with the same function and options ([`in_process`]), so the answer is byte
//!   for byte the one the process prints.
//! - **Where each guard is on** ([`list`]), **its case table** (hook-guards' own, run in both
//!   shapes) and **the backtest** ([`backtest`]: the agent's recorded sessions through the
//!   guard, nothing run, nothing written).

pub(crate) mod backtest;
pub(crate) mod in_process;
pub(crate) mod list;
pub(crate) mod relay_file;
pub(crate) mod run;

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use hook_guards::{BUILTINS, Builtin, Settings};
use hook_protocol::Dialect;

/// The guard named `name`, or an error listing every guard.
///
/// # Errors
///
/// When no built-in guard has that name.
pub(crate) fn named(name: &str) -> Result<&'static Builtin> {
    hook_guards::builtin(name).ok_or_else(|| {
        anyhow!(
            "there is no guard `{name}`: the guards are {} (`hook guard list` shows what each blocks)",
            every_guard()
        )
    })
}

/// Every guard's name, comma-separated.
pub(crate) fn every_guard() -> String {
    BUILTINS
        .iter()
        .map(|guard| guard.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `guard`'s settings from `--set KEY=VALUE`s, or an error that names its options.
///
/// # Errors
///
/// As [`Settings::parse`]: not `KEY=VALUE`, an option the guard does not have, a flag that is
/// not `true`/`false`.
pub(crate) fn settings(guard: &'static Builtin, sets: &[String]) -> Result<Settings> {
    Settings::parse(guard, sets).map_err(|error| anyhow!("{error}"))
}

/// The command line of a guard's entry: `program guard run NAME`, the options that differ from
/// the defaults as `--set KEY=VALUE` (in the guard's order), with `--dialect` when given.
#[derive(Debug, Clone)]
pub(crate) struct GuardLine {
    /// The `hook` it starts: an absolute path (user scope), or `hook` through `PATH`.
    pub(crate) program: PathBuf,
    /// The guard.
    pub(crate) guard: &'static Builtin,
    /// Its options as `KEY=VALUE`, in the order written.
    pub(crate) sets: Vec<String>,
    /// `--dialect D`, when the line names one.
    pub(crate) dialect: Option<Dialect>,
}

impl PartialEq for GuardLine {
    fn eq(&self, other: &GuardLine) -> bool {
        self.program == other.program
            && self.guard.name == other.guard.name
            && self.sets == other.sets
            && self.dialect == other.dialect
    }
}

impl GuardLine {
    /// The line that runs `guard` with `settings` (only what differs from the defaults).
    pub(crate) fn new(program: &Path, guard: &'static Builtin, settings: &Settings) -> GuardLine {
        GuardLine {
            program: program.to_owned(),
            guard,
            sets: settings.changed(guard),
            dialect: None,
        }
    }

    /// The command, each word quoted for a shell where it needs to be.
    pub(crate) fn command(&self) -> String {
        let mut words = vec![
            self.program.display().to_string(),
            "guard".to_owned(),
            "run".to_owned(),
            self.guard.name.to_owned(),
        ];
        for set in &self.sets {
            words.push("--set".to_owned());
            words.push(set.clone());
        }
        if let Some(dialect) = self.dialect {
            words.push("--dialect".to_owned());
            words.push(dialect.to_string());
        }
        crate::shell::join(&words)
    }

    /// The guard's settings this line gives.
    ///
    /// # Errors
    ///
    /// As [`settings`].
    pub(crate) fn settings(&self) -> Result<Settings> {
        settings(self.guard, &self.sets)
    }

    /// `command` read as a guard's line: exactly one simple command, no redirection, every
    /// word plain or quoted as [`GuardLine::command`] writes it (no expansion, glob or
    /// operator the shell would act on), `hook guard run NAME` with a `hook` program (by its
    /// file name) and a known guard, then only `--set KEY=VALUE` and `--dialect D`. `None`
    /// for anything else: a line the shell would read differently is left to the shell.
    pub(crate) fn parse(command: &str) -> Option<GuardLine> {
        // Every command handler of every dispatch is asked: a line without the word is none,
        // known before lexing it.
        if !command.contains("guard") {
            return None;
        }
        let commands = hook_protocol::shell::simple_commands(command);
        let [words] = commands.as_slice() else {
            return None;
        };
        if !hook_protocol::shell::redirections(command).is_empty() {
            return None;
        }
        let raw: Vec<&str> = words.iter().map(|w| w.raw.as_str()).collect();
        if command.trim() != raw.join(" ") || !raw.iter().all(|word| literal(word)) {
            return None;
        }
        let plain: Vec<&str> = words.iter().map(|w| w.plain.as_str()).collect();
        let [program, "guard", "run", name, rest @ ..] = plain.as_slice() else {
            return None;
        };
        if Path::new(program).file_name().is_none_or(|n| n != "hook") && !is_this_program(program) {
            return None;
        }
        let mut line = GuardLine {
            program: PathBuf::from(program),
            guard: hook_guards::builtin(name)?,
            sets: Vec::new(),
            dialect: None,
        };
        let mut rest = rest.iter();
        while let Some(flag) = rest.next() {
            match *flag {
                "--set" => line.sets.push((*rest.next()?).to_owned()),
                "--dialect" => line.dialect = Some(rest.next()?.parse().ok()?),
                flag => match flag.strip_prefix("--set=") {
                    Some(set) => line.sets.push(set.to_owned()),
                    None => line.dialect = Some(flag.strip_prefix("--dialect=")?.parse().ok()?),
                },
            }
        }
        Some(line)
    }
}

/// Whether `word` (as written) is read by the shell as itself: plain characters that are no
/// shell syntax, or one single-quoted string (no expansion happens inside).
fn literal(word: &str) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=,:+@%".contains(c);
    if word.chars().all(plain) && !word.is_empty() {
        return true;
    }
    word.len() >= 2
        && word.starts_with('\'')
        && word.ends_with('\'')
        && !word[1..word.len() - 1].contains('\'')
}

/// Whether `program` is this executable's own path.
fn is_this_program(program: &str) -> bool {
    std::env::current_exe().is_ok_and(|exe| exe == Path::new(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guard_line_reads_back_and_anything_the_shell_would_read_otherwise_does_not() {
        let guard = named("dangerous-commands").expect("a guard");
        let settings = settings(
            guard,
            &[
                "protected-branches=main,release".to_owned(),
                "allowed-paths=/tmp/my build".to_owned(),
            ],
        )
        .expect("valid options");
        let line = GuardLine::new(Path::new("/opt/my tools/hook"), guard, &settings);
        let command = line.command();
        assert_eq!(
            command,
            "'/opt/my tools/hook' guard run dangerous-commands --set 'protected-branches=main,release' --set 'allowed-paths=/tmp/my build'"
        );
        assert_eq!(GuardLine::parse(&command), Some(line));
        let read = |command: &str| GuardLine::parse(command).map(|l| (l.sets, l.dialect));
        assert_eq!(
            read("hook guard run secrets --dialect lime --set=allowed-paths=x"),
            Some((vec!["allowed-paths=x".to_owned()], Some(Dialect::Lime)))
        );
        for other in [
            "hook guard run no-such-guard",
            "hook guard run secrets; rm -rf /",
            "hook guard run secrets && true",
            "hook guard run secrets | tee log",
            "hook guard run secrets > out",
            "hook guard run secrets --set \"$X\"",
            "hook guard run secrets --set `x`",
            "hook guard run secrets --set a*",
            "hook guard run secrets --other",
            "hook guard run secrets --set",
            "my-hook guard run secrets",
            "hook relay --dialect verboo",
            "hook guard run secrets # a comment",
            "hook  guard run secrets",
        ] {
            assert_eq!(GuardLine::parse(other), None, "{other}");
        }
    }
}
