//! The relay entries: which the relay hooks need ([`wanted_entries`]), the command each runs
//! ([`relay_command`], ending in [`MARKER`]), and how an entry is told from a user's own hook
//! ([`is_relay`]).

use super::*;

/// The shell comment that ends every command `hook relay install` writes.
pub(crate) const MARKER: &str = "# hook-relay-install";

/// Seconds added to the largest hook timeout of an event for its entry's timeout: the relay's
/// own start and answer.
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

/// The command of the relay entry of `event`: `program` (this `hook`) started as the relay;
/// with the `--home` install was given, so the relay reads the relay files install read.
pub(super) fn relay_command(
    program: &Path,
    dialect: Dialect,
    event: &Event,
    home: Option<&Path>,
) -> String {
    let home = home
        .map(|home| {
            format!(
                " --home {}",
                crate::shell::quote(&home.display().to_string())
            )
        })
        .unwrap_or_default();
    format!(
        "{} relay --dialect {dialect} --event {}{home} {MARKER}",
        crate::shell::quote(&program.display().to_string()),
        event.as_str()
    )
}

/// Whether `command` is a relay entry of `dialect`: exactly what `install` writes (this
/// program's path, `relay --dialect D --event E`, maybe `--home DIR`, then the marker), or an
/// entry of an earlier version (exactly `<path of hook> relay --dialect D`). The program must
/// be a `hook` binary and nothing else may be in the command: a user's own hook that merely
/// ends like an entry (`my-wrapper relay --dialect D`, `rm -rf ~; hook relay ... # marker`) is
/// never taken for one, so install and uninstall never remove it.
pub(crate) fn is_relay(command: &str, dialect: Dialect) -> bool {
    let dialect = dialect.to_string();
    let (words, marked) = match command.strip_suffix(&format!(" {MARKER}")) {
        Some(rest) => (shlex::split(rest), true),
        None => (shlex::split(command), false),
    };
    let Some(words) = words else { return false };
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    let is_hook = Path::new(program)
        .file_name()
        .is_some_and(|name| name == "hook");
    if !is_hook {
        return false;
    }
    if marked {
        matches!(
            args,
            ["relay", "--dialect", d, "--event", _]
                | ["relay", "--dialect", d, "--event", _, "--home", _]
                if *d == dialect
        )
    } else {
        matches!(args, ["relay", "--dialect", d] if *d == dialect)
    }
}

/// Whether `matcher` matches everything (absent, empty or `*`).
pub(super) fn matches_all(matcher: Option<&str>) -> bool {
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
pub(super) fn is_name_list(matcher: &str) -> bool {
    matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
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
        let longest = hooks
            .iter()
            .map(|h| h.timeout.as_secs() + u64::from(h.timeout.subsec_nanos() > 0))
            .chain(broken_here.then_some(agent.default_timeout))
            .max()
            .unwrap_or(agent.default_timeout);
        let on_failure_block = agent.on_failure
            && event.block_effect(dialect).can_block()
            && !hook_config::OnFailure::IGNORED_ON.contains(event);
        wanted.push(Wanted {
            event: event.clone(),
            matcher,
            timeout: longest + TIMEOUT_MARGIN,
            on_failure_block,
        });
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(!is_relay(mine, Dialect::Lime), "{mine}");
        }
    }
}
