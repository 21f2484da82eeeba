//! Snapshot filters as data: what varies between runs (times, durations, the version, temp
//! paths) and the token it becomes. The whole-output snapshots and any other suite use the
//! same lists, so a snapshot reads the same whichever suite wrote it.

use std::path::Path;

/// (pattern, replacement) pairs, applied in order: regular expressions as insta's `filters`
/// setting takes them.
pub const VARYING: &[(&str, &str)] = &[
    // RFC 3339 times and dates (the journal, stats windows, backups).
    (
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?",
        "[TIME]",
    ),
    (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?Z?", "[TIME]"),
    (r"\b\d{2}-\d{2} \d{2}:\d{2}\b", "[WHEN]"),
    (r"\b\d{8}T\d{6}(\.\d+)?Z?\b", "[STAMP]"),
    (r"\b\d{2}:\d{2}:\d{2}\b", "[CLOCK]"),
    // Durations: `12ms`, `1.2 s`, `"duration_ms": 12`.
    (r"\b\d+(\.\d+)? ?(ms|µs|s)\b", "[DURATION]"),
    (
        r#""(duration_ms|p50_ms|p95_ms|max_ms|mean_ms|elapsed_ms|pid)": \d+(\.\d+)?"#,
        "\"$1\": \"[N]\"",
    ),
    (
        r#""(duration_ms|p50_ms|p95_ms|max_ms|mean_ms|elapsed_ms|pid)":\d+(\.\d+)?"#,
        "\"$1\":\"[N]\"",
    ),
    (
        r#""(seconds|events_per_second)": ?\d+(\.\d+)?(e-?\d+)?"#,
        "\"$1\":\"[N]\"",
    ),
    (r"hook \d+\.\d+\.\d+", "hook [VERSION]"),
    // `hook relay`'s state of a file is named after the hash of its (temp) path.
    (r"(/install/[^/\s]+)-[0-9a-f]{12}/", "$1-[HASH]/"),
];

/// [`VARYING`] as the owned pairs insta's `filters` setting takes.
pub fn varying() -> Vec<(&'static str, &'static str)> {
    VARYING.to_vec()
}

/// Literal path filters: each (path, token) replaced in order, the longer paths first so a
/// path under another is not cut in two.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    pairs: Vec<(String, &'static str)>,
}

impl Paths {
    /// No paths yet.
    pub fn new() -> Paths {
        Paths::default()
    }

    /// Adds `path` (as given and, where it resolves, canonical) as `token`.
    #[must_use]
    pub fn with(mut self, path: &Path, token: &'static str) -> Paths {
        if let Ok(canonical) = path.canonicalize() {
            self.pairs
                .push((canonical.to_string_lossy().into_owned(), token));
        }
        self.pairs
            .push((path.to_string_lossy().into_owned(), token));
        self.pairs
            .sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
        self
    }

    /// `text` with every path replaced by its token.
    pub fn apply(&self, text: &str) -> String {
        self.pairs
            .iter()
            .filter(|(path, _)| !path.is_empty())
            .fold(text.to_owned(), |text, (path, token)| {
                text.replace(path, token)
            })
    }
}

/// `text` with runs of spaces and of box-drawing rules collapsed: a table whose column widths
/// follow a duration (`3ms` or `13ms`) snapshots the same either way.
///
/// # Panics
/// Never: the patterns are constant and valid.
pub fn loose(text: &str) -> String {
    let spaces = regex::Regex::new(" {2,}").expect("a valid pattern");
    let rules = regex::Regex::new("([─═])+").expect("a valid pattern");
    let text = spaces.replace_all(text, "  ");
    rules.replace_all(&text, "$1").into_owned()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Paths, VARYING, loose};

    /// insta compiles the patterns only when a snapshot is taken: a broken one would fail
    /// there, far from here.
    #[test]
    fn every_varying_pattern_compiles_and_replaces_what_it_names() {
        let cases = [
            ("at 2026-12-06T19:30:59.123Z", "at [TIME]"),
            ("took 12ms", "took [DURATION]"),
            (r#""duration_ms": 40"#, r#""duration_ms": "[N]""#),
            ("hook 0.1.0", "hook [VERSION]"),
            ("/install/abc-0123456789ab/x", "/install/abc-[HASH]/x"),
        ];
        for (text, want) in cases {
            let got = VARYING.iter().fold(text.to_owned(), |text, (pattern, to)| {
                let pattern = regex::Regex::new(pattern).expect("a valid pattern");
                pattern.replace_all(&text, *to).into_owned()
            });
            assert_eq!(got, want, "{text}");
        }
    }

    /// A path under another is replaced whole, not cut by the shorter one first.
    #[test]
    fn the_longer_path_is_replaced_first() {
        let paths = Paths::new()
            .with(Path::new("/no/such/root"), "[ROOT]")
            .with(Path::new("/no/such/root/bin/hook"), "[HOOK]");
        assert_eq!(
            paths.apply("/no/such/root/bin/hook ran in /no/such/root/project"),
            "[HOOK] ran in [ROOT]/project"
        );
    }

    #[test]
    fn loose_collapses_spaces_and_rules() {
        assert_eq!(loose("a    b ──── c"), "a  b ─ c");
    }
}
