//! A relay entry's command as parts: whose relay it starts ([`RelayOf`]: `--dialect D`, or
//! `--agent NAME` for an agent whose events the relay translates) and the line written
//! ([`EntryLine`]). Which entries are wanted, and how a command is read back, are in
//! [`super::entries`].

use crate::ops::relay::RelayScope;
use hook_protocol::Dialect;
use std::path::Path;

/// The shell comment that ends every command `hook relay install` writes.
pub(crate) const MARKER: &str = "# hook-relay-install";

/// What ends the command of an entry on an event that must fail closed ([`fails_closed`](super::entries::fails_closed)): a
/// relay that cannot even start (`hook` moved, not on the agent's `PATH`: the shell's exit
/// 127) or dies without answering blocks the event, with the shell's message, in every agent
/// and version (Codex has no `onFailure`; Claude Code before 2.1.332 ignores it). The relay
/// itself answers 0 or 2 there. `||` is read alike by sh, bash, zsh and fish.
pub(crate) const FAIL_CLOSED: &str = "|| exit 2";

/// Whose relay an entry's command starts, as the command names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RelayOf {
    /// `--dialect D`: Claude Code's relay (verboo) or Codex's (lime).
    Dialect(Dialect),
    /// `--agent NAME`: the relay of an agent whose events it translates into Claude Code's
    /// (Qwen Code, Gemini CLI, Copilot CLI), by its usual name (`qwen`).
    Agent(&'static str),
}

impl RelayOf {
    /// The flag and the value the command names it by (`--dialect`, `verboo`).
    pub(crate) fn words(self) -> (&'static str, String) {
        match self {
            RelayOf::Dialect(dialect) => ("--dialect", dialect.to_string()),
            RelayOf::Agent(name) => ("--agent", name.to_owned()),
        }
    }

    /// Whether `command` starts this agent's relay from an entry written by hand, without the
    /// marker (`hook relay --agent qwen --event PreToolUse ... || exit 2`, as the README gave
    /// it before install wrote them): the user's own, which install leaves, and says so, as the
    /// agent then starts the relay twice. Never for a dialect's relay.
    pub(crate) fn by_hand(self, command: &str) -> bool {
        let RelayOf::Agent(name) = self else {
            return false;
        };
        if command.trim_end().ends_with(MARKER) {
            return false;
        }
        let Some(words) = shlex::split(command) else {
            return false;
        };
        let is_hook = words
            .first()
            .is_some_and(|program| Path::new(program).file_name().is_some_and(|n| n == "hook"));
        is_hook
            && words.get(1..4)
                == Some(&["relay".to_owned(), "--agent".to_owned(), name.to_owned()][..])
    }

    /// `--dialect verboo`, `--agent qwen`: how a command line names this relay.
    pub(crate) fn flags(self) -> String {
        let (flag, name) = self.words();
        format!("{flag} {name}")
    }
}

/// The parts of a relay entry's command ([`EntryLine::command`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryLine<'a> {
    /// The `hook` it starts: a path, or `hook` found through the agent's `PATH`.
    pub(crate) program: &'a Path,
    /// Whose relay.
    pub(crate) of: RelayOf,
    /// The event, as the agent names it (`--event`).
    pub(crate) event: &'a str,
    /// Whether it ends in [`FAIL_CLOSED`] ([`fails_closed`](super::entries::fails_closed) of the relay hooks' event).
    pub(crate) fails_closed: bool,
    /// The `--home` install was given.
    pub(crate) home: Option<&'a Path>,
    /// Whose relay hooks it starts the relay for.
    pub(crate) scope: RelayScope,
    /// The entry's own timeout, in seconds (`--entry-timeout`).
    pub(crate) timeout: u64,
}

impl EntryLine<'_> {
    /// `<program> relay --dialect D --event E [--home DIR] --scope S --entry-timeout SECS
    /// [|| exit 2] # hook-relay-install` (`--agent NAME` for a translated agent's relay).
    pub(crate) fn command(&self) -> String {
        let home = self
            .home
            .map(|home| {
                format!(
                    " --home {}",
                    crate::shell::quote(&home.display().to_string())
                )
            })
            .unwrap_or_default();
        let closed = if self.fails_closed {
            format!(" {FAIL_CLOSED}")
        } else {
            String::new()
        };
        format!(
            "{} relay {} --event {}{home} --scope {} --entry-timeout {}{closed} {MARKER}",
            crate::shell::quote(&self.program.display().to_string()),
            self.of.flags(),
            self.event,
            self.scope.as_str(),
            self.timeout,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::relay::read::entries::{EntryCommand, is_relay, is_relay_of, parse_relay_of};

    #[test]
    fn a_translated_agents_entries_are_its_own_and_only_what_install_writes() {
        let qwen = RelayOf::Agent("qwen");
        for (program, scope) in [
            (Path::new("/opt/bin/hook"), RelayScope::User),
            (Path::new("hook"), RelayScope::Project),
        ] {
            for (event, closed) in [("BeforeTool", true), ("SessionStart", false)] {
                let command = EntryLine {
                    program,
                    of: qwen,
                    event,
                    fails_closed: closed,
                    home: Some(Path::new("/my home")),
                    scope,
                    timeout: 25,
                }
                .command();
                assert_eq!(
                    parse_relay_of(&command, qwen),
                    Some(EntryCommand { scope: Some(scope) }),
                    "{command}"
                );
                // Another agent's, and Claude Code's, are not this agent's.
                assert!(
                    !is_relay_of(&command, RelayOf::Agent("gemini")),
                    "{command}"
                );
                assert!(!is_relay(&command, Dialect::Verboo), "{command}");
            }
        }
        assert_eq!(
            EntryLine {
                program: Path::new("hook"),
                of: qwen,
                event: "PreToolUse",
                fails_closed: true,
                home: None,
                scope: RelayScope::Project,
                timeout: 30,
            }
            .command(),
            "hook relay --agent qwen --event PreToolUse --scope project --entry-timeout 30 || exit 2 # hook-relay-install"
        );
        // Claude Code's entries are not an agent's.
        assert!(!is_relay_of(
            "hook relay --dialect verboo --event PreToolUse --scope user # hook-relay-install",
            qwen
        ));
        // A hand-written entry (the README's before install wrote them) is the user's: it has
        // no marker; and a user's own hook that merely ends like an entry is never one.
        // The README's hand-written entries are told apart, to be named.
        assert!(qwen.by_hand("hook relay --agent qwen --event PreToolUse --scope user || exit 2"));
        assert!(qwen.by_hand("'/opt/x/hook' relay --agent qwen"));
        assert!(!qwen.by_hand("hook relay --agent gemini --event BeforeTool || exit 2"));
        assert!(!qwen.by_hand("my-hook relay --agent qwen --event PreToolUse"));
        assert!(
            !RelayOf::Dialect(Dialect::Verboo).by_hand("hook relay --dialect verboo --event Stop")
        );
        for mine in [
            "hook relay --agent qwen --event PreToolUse --scope user || exit 2",
            "/x/hook relay --agent qwen",
            "my-wrapper relay --agent qwen --event PreToolUse # hook-relay-install",
            "rm -rf ~; hook relay --agent qwen --event PreToolUse # hook-relay-install",
            "hook relay --agent qwen-code --event PreToolUse --scope user # hook-relay-install",
            "hook relay --agent qwen --event PreToolUse --scope user || rm -rf ~ # hook-relay-install",
            "hook relay --agent qwen --event PreToolUse --force # hook-relay-install",
            "hook relay --event PreToolUse --agent qwen # hook-relay-install",
        ] {
            assert!(!is_relay_of(mine, qwen), "{mine}");
        }
    }
}
