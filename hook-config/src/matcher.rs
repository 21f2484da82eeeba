//! Matchers: which match values (tool names, session sources...) a handler applies to.

use hook_protocol::{Dialect, MatcherStyle};
use regex::Regex;

/// A compiled `matcher`.
///
/// - wuu: `""` and `"*"` match everything; anything else is one tool name compared exactly but
///   case-insensitively (no lists, no globs).
/// - verboo and lime: absent, `""` and `"*"` match everything; a matcher made only of
///   `[A-Za-z0-9_-]` and `|` is an exact, case-sensitive list of names (`Write|Edit`); anything
///   else is an unanchored regular expression (`regex` crate syntax; `^Bash$` to anchor).
///
/// Whether the event has a match value at all is the registry's business: on events whose
/// [`hook_protocol::MatchTarget`] is `Nothing`, verboo and lime ignore the matcher and a non-empty
/// wuu matcher never matches.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Matcher {
    /// Matches every value.
    All,
    /// wuu: matches this tool name compared case-insensitively (stored lowercase).
    NameIgnoreCase(String),
    /// verboo and lime: matches one of these names exactly, case-sensitively.
    Exact(Vec<String>),
    /// Matches where the regular expression finds a match anywhere in the value.
    Regex(Regex),
}

/// A matcher that could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatcherError {
    /// The matcher is neither a name list nor a valid regular expression.
    #[error("invalid regex in matcher `{pattern}`: {message}")]
    Regex {
        /// The matcher as written.
        pattern: String,
        /// What the regex parser said (its last line, e.g. `unclosed group`).
        message: String,
    },
}

impl Matcher {
    /// Compiles `raw` (the `matcher` field; `None` when absent) by `dialect`'s rules.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when `raw` is not a valid regular expression (verboo, lime).
    pub fn compile(dialect: Dialect, raw: Option<&str>) -> Result<Matcher, MatcherError> {
        let raw = raw.unwrap_or("");
        if raw.is_empty() || raw == "*" {
            return Ok(Matcher::All);
        }
        if dialect.rules().matching().matcher_style() == MatcherStyle::NameIgnoreCase {
            return Ok(Matcher::NameIgnoreCase(raw.to_lowercase()));
        }
        if is_name_list(raw) {
            let names = raw
                .split('|')
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>();
            return Ok(if names.is_empty() {
                Matcher::All
            } else {
                Matcher::Exact(names)
            });
        }
        Regex::new(raw)
            .map(Matcher::Regex)
            .map_err(|error| MatcherError::Regex {
                pattern: raw.to_owned(),
                message: regex_message(&error),
            })
    }

    /// Whether this matcher matches `value`.
    pub fn is_match(&self, value: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::NameIgnoreCase(name) => value.to_lowercase() == *name,
            Matcher::Exact(names) => names.iter().any(|n| n == value),
            Matcher::Regex(regex) => regex.is_match(value),
        }
    }
}

/// Whether `raw` is only name characters and `|`.
pub(crate) fn is_name_list(raw: &str) -> bool {
    raw.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '|'))
}

/// The useful last line of a `regex` error (`regex parse error: ... error: unclosed group`).
fn regex_message(error: &regex::Error) -> String {
    let text = error.to_string();
    let last = text.lines().last().unwrap_or(&text).trim();
    last.strip_prefix("error: ").unwrap_or(last).to_owned()
}
