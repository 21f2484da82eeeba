//! The relay entries: which the relay hooks need ([`wanted_entries`]), the command each runs
//! ([`relay_command`], ending in [`MARKER`]), and how an entry is told from a user's own hook
//! ([`parse_relay`]).

#[cfg(test)]
use super::command::FAIL_CLOSED;
pub(crate) use super::command::{EntryLine, MARKER, RelayOf};
use crate::ops::relay::RelayScope;
use hook_config::{Broken, Handler};
use hook_protocol::{Dialect, Event, MatchTarget, RelayAgent};
use std::path::Path;

/// Seconds added to the longest wait of an entry's relay hooks for its timeout: the relay's own
/// start, trust checks and answer. An entry with no relay hook to wait for (the session entry
/// alone, only async or broken hooks on its event) gets these seconds alone.
pub(crate) const TIMEOUT_MARGIN: u64 = 5;

/// One relay entry the agent's file should have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) event: Event,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: u64,
    /// `"onFailure": "block"` on the entry: where the agent reads it
    /// ([`RelayAgent::on_failure`]) and the event can block (not on the events where Claude
    /// Code ignores it), so that a relay that cannot answer blocks the event.
    pub(crate) on_failure_block: bool,
}

/// Whether a relay that cannot answer must block `event`: it can block there, and a block is
/// not "keep working" (`Stop` and the like, where a relay that cannot start would never let
/// the agent stop; Claude Code ignores `onFailure` there for the same reason).
pub(crate) fn fails_closed(dialect: Dialect, event: &Event) -> bool {
    event.block_effect(dialect).can_block() && !hook_config::OnFailure::IGNORED_ON.contains(event)
}

/// The command of the relay entry of `event`: `program` (this `hook`, or `hook` found through
/// the agent's `PATH` in a project's shared settings) started as the relay of `scope`'s
/// hooks; with the `--home` install was given, so the relay reads the relay files install
/// read; with `--entry-timeout` the entry's own `timeout` (the relay then knows when the agent
/// would cut it short, and says so when a relay hook's timeout is longer); failing closed
/// ([`FAIL_CLOSED`](super::command::FAIL_CLOSED)) where the event can block.
pub(crate) fn relay_command(
    program: &Path,
    dialect: Dialect,
    event: &Event,
    home: Option<&Path>,
    scope: RelayScope,
    timeout: u64,
) -> String {
    EntryLine {
        program,
        of: RelayOf::Dialect(dialect),
        event: event.as_str(),
        fails_closed: fails_closed(dialect, event),
        home,
        scope,
        timeout,
    }
    .command()
}

/// A relay entry's command, read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EntryCommand {
    /// The relay hooks it starts the relay for: `None` for both scopes (an entry of an earlier
    /// version, without `--scope`).
    pub(crate) scope: Option<RelayScope>,
}

/// `command` read as a relay entry of `dialect`: exactly what `install` writes (a `hook`
/// program, by path or through `PATH`; `relay --dialect D --event E`, maybe `--home DIR`,
/// maybe `--scope S`, maybe `--entry-timeout SECS`, maybe `|| exit 2`; then the marker), or
/// an entry of an earlier version
/// (exactly `<path of hook> relay --dialect D`). `None` for anything else: a user's own hook
/// that merely ends like an entry (`my-wrapper relay --dialect D`, `rm -rf ~; hook relay ...
/// # marker`) is never taken for one, so install and uninstall never remove it.
pub(crate) fn parse_relay(command: &str, dialect: Dialect) -> Option<EntryCommand> {
    parse_relay_of(command, RelayOf::Dialect(dialect))
}

/// `command` read as a relay entry of `of` ([`parse_relay`]; a translated agent's entry is
/// `relay --agent NAME --event E ...` with the marker, and has no earlier version's form).
pub(crate) fn parse_relay_of(command: &str, of: RelayOf) -> Option<EntryCommand> {
    let (flag, name) = of.words();
    let (words, marked) = match command.strip_suffix(&format!(" {MARKER}")) {
        Some(rest) => (shlex::split(rest)?, true),
        None => (shlex::split(command)?, false),
    };
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let (program, args) = words.split_first()?;
    let is_hook = Path::new(program)
        .file_name()
        .is_some_and(|name| name == "hook");
    if !is_hook {
        return None;
    }
    if !marked {
        let earlier = matches!(of, RelayOf::Dialect(_))
            && matches!(args, ["relay", f, d] if *f == flag && *d == name);
        return earlier.then_some(EntryCommand { scope: None });
    }
    let ["relay", f, d, "--event", _, rest @ ..] = args else {
        return None;
    };
    if *f != flag || *d != name {
        return None;
    }
    let rest = match rest {
        ["--home", _, rest @ ..] => rest,
        rest => rest,
    };
    let (scope, rest) = match rest {
        ["--scope", scope, rest @ ..] => (Some(RelayScope::from_name(scope)?), rest),
        rest => (None, rest),
    };
    // The entry's own timeout, for the relay (an earlier version's entry has none).
    let rest = match rest {
        ["--entry-timeout", secs, rest @ ..] => {
            secs.parse::<u64>().ok()?;
            rest
        }
        rest => rest,
    };
    match rest {
        [] | ["||", "exit", "2"] => Some(EntryCommand { scope }),
        _ => None,
    }
}

/// Whether `command` is a relay entry of `dialect` ([`parse_relay`]).
pub(crate) fn is_relay(command: &str, dialect: Dialect) -> bool {
    parse_relay(command, dialect).is_some()
}

/// Whether `command` is a relay entry of `of` ([`parse_relay_of`]).
pub(crate) fn is_relay_of(command: &str, of: RelayOf) -> bool {
    parse_relay_of(command, of).is_some()
}

/// Whether `matcher` matches everything (absent, empty or `*`).
pub(crate) fn matches_all(matcher: Option<&str>) -> bool {
    matcher.is_none_or(|m| m.is_empty() || m == "*")
}

/// The union of `matchers` in the agent's syntax (`None`: everything).
pub(crate) fn union_matcher<'m>(
    matchers: impl IntoIterator<Item = Option<&'m str>>,
) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut regexes: Vec<&str> = Vec::new();
    for matcher in matchers {
        if matches_all(matcher) {
            return None;
        }
        let matcher = matcher.unwrap_or_default();
        if is_name_list(matcher) {
            for name in matcher.split('|').filter(|n| !n.is_empty()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        } else if !regexes.contains(&matcher) {
            regexes.push(matcher);
        }
    }
    if regexes.is_empty() {
        return (!names.is_empty()).then(|| names.join("|"));
    }
    let mut parts = Vec::new();
    if !names.is_empty() {
        parts.push(format!("^(?:{})$", names.join("|")));
    }
    parts.extend(regexes.iter().map(|r| format!("(?:{r})")));
    Some(parts.join("|"))
}

/// A matcher both agents compare as exact names (`Bash`, `Edit|Write`).
pub(crate) fn is_name_list(matcher: &str) -> bool {
    matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
}

/// The timeouts in force of the `hooks` the relay waits for: each its own `timeout` or else
/// the agent's default for its type on its event ([`hook_config::timeout_limits`]: 600 s for a
/// command, 30 s for a Claude Code prompt hook...); `async` hooks (the relay answers without
/// them) and hooks a setting keeps from running are left out.
pub(crate) fn waited_for(hooks: &[&Handler]) -> Vec<std::time::Duration> {
    hooks
        .iter()
        .filter(|h| !h.config.is_async && h.suppressed.is_none())
        .map(|h| h.timeout)
        .collect()
}

/// The timeout, in seconds, `install` and `sync` give the relay entry of `event` in `dialect`
/// when the relay hooks it runs there have the timeouts `guards` ([`waited_for`]): the longest
/// (rounded up to a second; none: 0) plus [`TIMEOUT_MARGIN`], and never more than the agent
/// lets a command hook have on `event` ([`hook_config::timeout_limits`]; an entry asking more
/// would be cut there anyway). An entry whose `timeout` is below this no longer covers its
/// relay hooks: the agent would kill the relay before a hook's own timeout, and `sync` writes
/// this value again.
pub(crate) fn entry_timeout(
    dialect: Dialect,
    event: &Event,
    guards: &[std::time::Duration],
) -> u64 {
    let longest = guards
        .iter()
        .map(|t| t.as_secs() + u64::from(t.subsec_nanos() > 0))
        .max()
        .unwrap_or(0);
    let wanted = longest.saturating_add(TIMEOUT_MARGIN);
    let bound = hook_config::timeout_limits(dialect, event, hook_protocol::HandlerType::Command)
        .1
        .and_then(|max| std::time::Duration::try_from_secs_f64(max).ok())
        .map(|max| max.as_secs());
    bound.map_or(wanted, |max| wanted.min(max))
}

/// The entries `handlers` (the relay hooks of the scope) need. A broken relay handler
/// (`broken`, left out by the relay, which tells the user) keeps an entry on its event, with
/// no matcher, so the relay still starts there and says so.
pub(crate) fn wanted_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    handlers: &[&Handler],
    broken: &[Broken],
    with_session: bool,
) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    if handlers.is_empty() && broken.is_empty() && !with_session {
        return wanted;
    }
    for event in agent.events {
        let hooks: Vec<&Handler> = handlers
            .iter()
            .copied()
            .filter(|h| &h.event == event)
            .collect();
        let broken_here = broken.iter().any(|b| b.event.as_ref() == Some(event));
        let session = with_session && event == agent.session_event;
        if hooks.is_empty() && !broken_here && !session {
            continue;
        }
        let matcher =
            if session || broken_here || event.match_target(dialect) == MatchTarget::Nothing {
                None
            } else {
                union_matcher(hooks.iter().map(|h| h.matcher.as_deref()))
            };
        wanted.push(Wanted {
            event: event.clone(),
            matcher,
            timeout: entry_timeout(dialect, event, &waited_for(&hooks)),
            on_failure_block: agent.on_failure && fails_closed(dialect, event),
        });
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::relay::read::reach::entry_reaches;
    use hook_config::Matcher;
    use std::time::Duration;

    #[test]
    fn matchers_unite_in_the_agents_syntax() {
        let table: &[(&[Option<&str>], Option<&str>)] = &[
            (&[Some("Bash")], Some("Bash")),
            (
                &[Some("Bash"), Some("Edit|Write"), Some("Bash")],
                Some("Bash|Edit|Write"),
            ),
            (&[Some("Bash"), None], None),
            (&[Some("Bash"), Some("*")], None),
            (&[Some("")], None),
            (
                &[Some("Bash"), Some("mcp__.*")],
                Some("^(?:Bash)$|(?:mcp__.*)"),
            ),
            (&[Some("^Read$"), Some("Gr.p")], Some("(?:^Read$)|(?:Gr.p)")),
        ];
        for (matchers, expected) in table {
            assert_eq!(
                union_matcher(matchers.iter().copied()).as_deref(),
                *expected,
                "{matchers:?}"
            );
        }
    }

    #[test]
    fn a_union_reaches_exactly_its_hooks() {
        let union = union_matcher([Some("Bash"), Some("mcp__.*")]);
        let entry = union.as_deref();
        assert!(entry_reaches(Dialect::Verboo, entry, Some("Bash")));
        assert!(entry_reaches(Dialect::Verboo, entry, Some("mcp__.*")));
        assert!(!entry_reaches(Dialect::Verboo, entry, Some("Read")));
        assert!(!entry_reaches(Dialect::Verboo, entry, None));
        // The exact part stays exact: `Bashful` is not `Bash`.
        let compiled = Matcher::compile(Dialect::Verboo, entry).unwrap_or(Matcher::All);
        assert!(!compiled.is_match("Bashful"));
        assert!(compiled.is_match("mcp__x__y"));
    }

    #[test]
    fn an_entrys_timeout_covers_its_longest_guard_within_the_agents_bound() {
        let secs = Duration::from_secs;
        let table: &[(Dialect, Event, &[Duration], u64)] = &[
            // No guard to wait for: the margin alone.
            (Dialect::Verboo, Event::SessionStart, &[], TIMEOUT_MARGIN),
            (
                Dialect::Verboo,
                Event::PreToolUse,
                &[secs(10), secs(300)],
                300 + TIMEOUT_MARGIN,
            ),
            // A part of a second is a whole one: the entry never cuts a guard short.
            (
                Dialect::Lime,
                Event::PreToolUse,
                &[Duration::from_millis(20_250)],
                21 + TIMEOUT_MARGIN,
            ),
            // Codex gives a hook at most 3 s on `SessionEnd`: an entry asking more gets that.
            (Dialect::Lime, Event::SessionEnd, &[secs(1)], 3),
        ];
        for (dialect, event, guards, expected) in table {
            assert_eq!(
                entry_timeout(*dialect, event, guards),
                *expected,
                "{dialect} {event:?} {guards:?}"
            );
        }
    }

    #[test]
    fn only_the_marker_or_an_old_entry_is_the_relay() {
        assert!(is_relay(
            "'/bin/hook' relay --dialect lime --event Stop # hook-relay-install",
            Dialect::Lime
        ));
        assert!(is_relay("/x/hook relay --dialect lime", Dialect::Lime));
        assert!(!is_relay("/x/hook relay --dialect verboo", Dialect::Lime));
        assert!(!is_relay("./guard.sh # hook-relay-install", Dialect::Lime));
        assert!(!is_relay(
            "/x/hook relay --dialect lime --event Stop",
            Dialect::Lime
        ));
        assert!(is_relay(
            "/x/hook relay --dialect lime --event Stop --home '/my home' # hook-relay-install",
            Dialect::Lime
        ));
        // A user's own hook that only ends like an entry is never one.
        for mine in [
            "my-wrapper relay --dialect lime",
            "sh -c 'x' relay --dialect lime",
            "rm -rf ~; /x/hook relay --dialect lime",
            "curl x | sh; /x/hook relay --dialect lime --event Stop # hook-relay-install",
            "/x/hook relay --dialect lime --event Stop --force # hook-relay-install",
            "./not-hook relay --dialect lime --event Stop # hook-relay-install",
            "hook relay --dialect lime --event Stop --scope all # hook-relay-install",
            "hook relay --dialect lime --event Stop --scope user || rm -rf ~ # hook-relay-install",
            "hook relay --dialect lime --event Stop || exit 2 --scope user # hook-relay-install",
            "hook relay --dialect lime --event Stop || exit 2",
        ] {
            assert!(!is_relay(mine, Dialect::Lime), "{mine}");
        }
    }

    #[test]
    fn the_entries_commands_read_back_with_their_scope() {
        for scope in [RelayScope::User, RelayScope::Project] {
            for event in [Event::PreToolUse, Event::Stop, Event::SessionStart] {
                for home in [None, Some(Path::new("/my home"))] {
                    let program = match scope {
                        RelayScope::User => Path::new("/opt/bin/hook"),
                        RelayScope::Project => Path::new("hook"),
                    };
                    let command = relay_command(program, Dialect::Lime, &event, home, scope, 25);
                    assert_eq!(
                        parse_relay(&command, Dialect::Lime),
                        Some(EntryCommand { scope: Some(scope) }),
                        "{command}"
                    );
                    // Only where the event can block, and not where a block keeps the agent
                    // working.
                    assert_eq!(
                        command.contains(FAIL_CLOSED),
                        event == Event::PreToolUse,
                        "{command}"
                    );
                }
            }
        }
        // A project's entries name no path: `hook` is found through the agent's PATH.
        assert_eq!(
            relay_command(
                Path::new("hook"),
                Dialect::Verboo,
                &Event::PreToolUse,
                None,
                RelayScope::Project,
                605
            ),
            "hook relay --dialect verboo --event PreToolUse --scope project --entry-timeout 605 || exit 2 # hook-relay-install"
        );
        // Entries of earlier versions are still entries: without `--scope` (they run both
        // scopes) and without `--entry-timeout` (the relay does not know its entry's timeout).
        for (old, scope) in [
            (
                "/x/hook relay --dialect lime --event Stop # hook-relay-install",
                None,
            ),
            (
                "hook relay --dialect lime --event PreToolUse --scope project || exit 2 # hook-relay-install",
                Some(RelayScope::Project),
            ),
        ] {
            assert_eq!(
                parse_relay(old, Dialect::Lime),
                Some(EntryCommand { scope }),
                "{old}"
            );
        }
        // Only a number of seconds, and only in its place.
        for not_ours in [
            "hook relay --dialect lime --event Stop --scope user --entry-timeout soon # hook-relay-install",
            "hook relay --dialect lime --event Stop --scope user --entry-timeout # hook-relay-install",
            "hook relay --dialect lime --event Stop --entry-timeout 5 --scope user # hook-relay-install",
            "hook relay --dialect lime --event Stop --scope user --entry-timeout 5 || exit 2 --entry-timeout 5 # hook-relay-install",
        ] {
            assert!(!is_relay(not_ours, Dialect::Lime), "{not_ours}");
        }
    }
}
