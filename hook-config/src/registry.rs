//! The merged handlers of one dialect and their per-event index: selecting the handlers of an
//! event quickly, and the broken entries to report with them.

use std::borrow::Cow;
use std::collections::HashMap;

use hook_protocol::{Dialect, Event, HandlerType, MatchTarget, Source, UntargetedMatcher};
use regex::RegexSet;
use serde_json::Value;

use crate::handler::Handler;
use crate::matcher::Matcher;
use crate::rule::PermissionRule;

/// The merged handlers of one dialect, indexed by event for [`Registry::select`].
///
/// Built once by [`load`](crate::load()); immutable and `Send + Sync`, so one registry serves every event of a
/// session.
#[derive(Debug)]
pub struct Registry {
    pub(crate) dialect: Dialect,
    pub(crate) handlers: Vec<Handler>,
    pub(crate) broken: Vec<Broken>,
    pub(crate) compiled: Vec<Compiled>,
    pub(crate) events: HashMap<Event, EventIndex>,
    /// Tool name → the other names that mean the same tool (both directions of the aliases).
    pub(crate) aliases: HashMap<String, Vec<String>>,
}

/// A handler, group, event list, file or plugin that could not be read. It never runs; the
/// engine reports it, for each event it may have been on, in `runs` as `skipped: invalid`
/// ([`Registry::broken_for`]), while every other handler runs: one broken handler, group or
/// file is skipped with a diagnostic while everything else runs.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Broken {
    /// A key for the report: `<layer>:<where>:<Event>:<matcher>:invalid@<line>:<col>`, with
    /// `*` for the event when the whole file or plugin could not be read. Never trusted or
    /// stored: a broken handler has no identity to trust.
    pub key: String,
    /// Where it was configured.
    pub source: Source,
    /// Its event; `None` when the whole file (or its `hooks`, or a plugin) could not be read,
    /// so it is reported on every event.
    pub event: Option<Event>,
    /// Its matcher as written, when it was read.
    pub matcher: Option<String>,
    /// Its type, when it was read.
    pub handler_type: Option<HandlerType>,
    /// What is wrong, with the file and `line:col` of each problem.
    pub error: String,
    /// [`OnFailure::Block`](crate::OnFailure::Block) when a handler in it asked to block when
    /// it cannot run, read leniently (any `onFailure` but `continue`, in any case; in a file
    /// that does not parse, any such word in its text): a guard that cannot be read is a guard
    /// that cannot run, and the typo that broke it must not also switch off its fail-closed
    /// setting. The engine then blocks the events it is reported on that can block.
    pub on_failure: Option<crate::OnFailure>,
    /// The compiled matcher, when it compiled (a handler broken under a matcher that does not
    /// match is not reported for that call).
    pub(crate) compiled: Option<Matcher>,
}

#[derive(Debug)]
pub(crate) struct Compiled {
    pub(crate) rule: Option<PermissionRule>,
    /// verboo: equal for identical handlers, which run once per event.
    pub(crate) identity: u32,
}

#[derive(Debug)]
pub(crate) struct EventIndex {
    target: MatchTarget,
    /// Handlers whose matcher matches everything (or is ignored on this event).
    always: Vec<u32>,
    /// Exact names (wuu: lowercase) → handlers.
    exact: HashMap<String, Vec<u32>>,
    /// One pattern per distinct regex matcher...
    regex: Option<RegexSet>,
    /// ...and the handlers of each pattern.
    regex_handlers: Vec<Vec<u32>>,
    /// The patterns one by one, only when the set went over the `regex` size limit.
    fallback: Vec<regex::Regex>,
}

pub(crate) fn build_index(
    dialect: Dialect,
    handlers: &[Handler],
    matchers: &[Matcher],
) -> HashMap<Event, EventIndex> {
    struct Building {
        target: MatchTarget,
        always: Vec<u32>,
        exact: HashMap<String, Vec<u32>>,
        patterns: Vec<String>,
        pattern_ids: HashMap<String, usize>,
        regex_handlers: Vec<Vec<u32>>,
    }
    let mut building: HashMap<Event, Building> = HashMap::new();
    // Suppressed handlers are indexed too: `select_including_suppressed` reports them.
    for (i, (handler, matcher)) in handlers.iter().zip(matchers).enumerate() {
        let id = u32::try_from(i).unwrap_or(u32::MAX);
        let target = handler.event.match_target(dialect);
        let b = building
            .entry(handler.event.clone())
            .or_insert_with(|| Building {
                target,
                always: Vec::new(),
                exact: HashMap::new(),
                patterns: Vec::new(),
                pattern_ids: HashMap::new(),
                regex_handlers: Vec::new(),
            });
        if target == MatchTarget::Nothing {
            // verboo/lime ignore the matcher; a non-empty wuu matcher never matches.
            let ignored =
                dialect.rules().matching().untargeted_matcher() == UntargetedMatcher::Ignored;
            if ignored || matches!(matcher, Matcher::All) {
                b.always.push(id);
            }
            continue;
        }
        match matcher {
            Matcher::All => b.always.push(id),
            Matcher::NameIgnoreCase(name) => b.exact.entry(name.clone()).or_default().push(id),
            Matcher::Exact(names) => {
                for name in names {
                    let ids = b.exact.entry(name.clone()).or_default();
                    if ids.last() != Some(&id) {
                        ids.push(id);
                    }
                }
            }
            Matcher::Regex(regex) => {
                let pattern = regex.as_str().to_owned();
                let next = b.patterns.len();
                let p = *b.pattern_ids.entry(pattern.clone()).or_insert(next);
                if p == next {
                    b.patterns.push(pattern);
                    b.regex_handlers.push(Vec::new());
                }
                b.regex_handlers[p].push(id);
            }
        }
    }
    building
        .into_iter()
        .map(|(event, b)| {
            // Every pattern compiled alone already; the set only fails past its size limit, and
            // then the patterns are tried one by one (slower, never wrong).
            let (regex, fallback) = if b.patterns.is_empty() {
                (None, Vec::new())
            } else {
                match RegexSet::new(&b.patterns) {
                    Ok(set) => (Some(set), Vec::new()),
                    Err(_) => (
                        None,
                        b.patterns
                            .iter()
                            .filter_map(|p| regex::Regex::new(p).ok())
                            .collect(),
                    ),
                }
            };
            let index = EventIndex {
                target: b.target,
                always: b.always,
                exact: b.exact,
                regex,
                regex_handlers: b.regex_handlers,
                fallback,
            };
            (event, index)
        })
        .collect()
}

impl Registry {
    /// The dialect whose rules built this registry.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Every loaded handler in configuration order (managed, user, project, local, plugin,
    /// session; file order within a file), including suppressed ones, for listings.
    pub fn handlers(&self) -> &[Handler] {
        &self.handlers
    }

    /// Every handler, group, file or plugin that could not be read, in configuration order.
    pub fn broken(&self) -> &[Broken] {
        &self.broken
    }

    /// The broken entries to report for `event` with this match value: those of the event
    /// whose matcher matches or could not be read, and those of a whole file or plugin.
    pub fn broken_for<'a>(
        &'a self,
        event: &'a Event,
        match_value: Option<&str>,
    ) -> impl Iterator<Item = &'a Broken> + 'a {
        let target = event.match_target(self.dialect);
        let names: Vec<String> = self
            .names(target, match_value)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        self.broken
            .iter()
            .filter(move |broken| match &broken.event {
                None => true,
                Some(own) if own != event => false,
                Some(_) => match &broken.compiled {
                    Some(compiled) if target != MatchTarget::Nothing => {
                        names.iter().any(|name| compiled.is_match(name))
                    }
                    _ => true,
                },
            })
    }

    /// The handlers that run for `event`, in configuration order.
    ///
    /// `match_value` is the event's match value ([`MatchTarget::value_in`] of the input: the
    /// tool name, session source, compaction trigger...); `tool_input` is checked by verboo
    /// `if` rules. Suppressed handlers are never selected; verboo's identical handlers are
    /// returned once. Cost: hash lookups and one `RegexSet` pass per name, plus the matches.
    pub fn select<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
    ) -> impl Iterator<Item = &'a Handler> + 'a {
        self.matching(event, match_value, tool_input, false)
            .into_iter()
    }

    /// Like [`Registry::select`], plus the handlers a verboo switch suppressed
    /// ([`Handler::suppressed`] is set on those), in configuration order: what an engine
    /// reports in an outcome's `runs`, each suppressed handler as skipped with its reason
    /// (nothing is turned off silently). An embedder must never run a handler whose
    /// `suppressed` is set.
    pub fn select_including_suppressed<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
    ) -> impl Iterator<Item = &'a Handler> + 'a {
        self.matching(event, match_value, tool_input, true)
            .into_iter()
    }

    fn matching<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
        suppressed: bool,
    ) -> Vec<&'a Handler> {
        let mut out: Vec<&'a Handler> = Vec::new();
        let Some(index) = self.events.get(event) else {
            return out;
        };
        let names = self.names(index.target, match_value);
        let hits = self.hits(index, &names);
        let mut seen: Vec<(u32, bool)> = Vec::new();
        for id in hits {
            let i = id as usize;
            let (Some(handler), Some(compiled)) = (self.handlers.get(i), self.compiled.get(i))
            else {
                continue;
            };
            let is_suppressed = handler.suppressed.is_some();
            if is_suppressed && !suppressed {
                continue;
            }
            if let Some(rule) = &compiled.rule {
                let runs = index.target == MatchTarget::ToolName
                    && names.iter().any(|n| rule.matches(n, tool_input));
                if !runs {
                    continue;
                }
            }
            if self.dialect.rules().handlers().dedup_identical() {
                let identity = (compiled.identity, is_suppressed);
                if seen.contains(&identity) {
                    continue;
                }
                seen.push(identity);
            }
            out.push(handler);
        }
        out
    }

    /// Whether any `PreToolUse` handler's matcher matches `tool_name` (ignoring verboo `if`
    /// rules, which need the input, and verboo's switches: a `true` may still select nothing). Lets a wuu agent run
    /// only the calls that hooks may rewrite or block serially.
    pub fn any_pre_tool_use_matches(&self, tool_name: &str) -> bool {
        let Some(index) = self.events.get(&Event::PreToolUse) else {
            return false;
        };
        if !index.always.is_empty() {
            return true;
        }
        let names = self.names(index.target, Some(tool_name));
        names.iter().any(|name| {
            index.exact.contains_key(name.as_ref())
                || index.regex.as_ref().is_some_and(|set| set.is_match(name))
                || index.fallback.iter().any(|r| r.is_match(name))
        })
    }

    /// The value and its aliases (wuu: lowercase); nothing when the event has no match value.
    fn names<'v>(&self, target: MatchTarget, value: Option<&'v str>) -> Vec<Cow<'v, str>> {
        let Some(value) = value else {
            return Vec::new();
        };
        if target == MatchTarget::Nothing {
            return Vec::new();
        }
        let value: Cow<'v, str> = self.dialect.rules().matching().match_name(value);
        let mut names = vec![value];
        if target == MatchTarget::ToolName
            && let Some(aliases) = self.aliases.get(names[0].as_ref())
        {
            names.extend(aliases.iter().map(|a| Cow::Owned(a.clone())));
        }
        names
    }

    fn hits(&self, index: &EventIndex, names: &[Cow<'_, str>]) -> Vec<u32> {
        let mut hits = index.always.clone();
        for name in names {
            if let Some(ids) = index.exact.get(name.as_ref()) {
                hits.extend_from_slice(ids);
            }
            if let Some(set) = &index.regex {
                for p in set.matches(name).iter() {
                    if let Some(ids) = index.regex_handlers.get(p) {
                        hits.extend_from_slice(ids);
                    }
                }
            }
            for (p, regex) in index.fallback.iter().enumerate() {
                if regex.is_match(name)
                    && let Some(ids) = index.regex_handlers.get(p)
                {
                    hits.extend_from_slice(ids);
                }
            }
        }
        if hits.len() > index.always.len() {
            hits.sort_unstable();
            hits.dedup();
        }
        hits
    }
}
