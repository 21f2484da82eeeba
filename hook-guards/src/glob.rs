//! Shell globs of one path component (`*`, `?`, `[...]`), as every guard compares them: whether
//! a glob matches a name ([`Compare::matches`]), whether two globs could name the same file
//! ([`Compare::meet`]: a word written in a call and a pattern of a guard's table or options),
//! and whether every name a word matches is matched by a pattern ([`within`]).
//!
//! The work is bounded: a comparison visits each pair of positions of the two at most twice
//! (no backtracking blow-up), and [`Compare::meet`] does not compare a component needing more
//! characters than a file name holds ([`NAME_MAX`]): it names no file.

/// The most characters a file name holds (255 on Linux and macOS; characters are counted,
/// not bytes, which only lets a few longer words through).
pub(crate) const NAME_MAX: usize = 255;

/// One element of a glob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// A character that must be there.
    Literal(char),
    /// `?`: any one character.
    One,
    /// A `[...]` class: any one character, a leading `.` too (POSIX leaves it open whether a
    /// class may match one; the guards err on the side of a match).
    Class,
    /// `*`: any run of characters.
    Any,
}

/// Whether `text` holds a glob character (`*`, `?`, `[`).
pub(crate) fn is_glob(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// Whether a glob word is too wide to name a file by itself: it has no letter or digit
/// (`*`, `*.*`, `?`), so it matches every name in its folder.
pub(crate) fn is_wide(word: &str) -> bool {
    is_glob(word) && !word.chars().any(char::is_alphanumeric)
}

/// Whether `glob` needs more characters than a file name holds: it names no file.
pub(crate) fn too_long(glob: &str) -> bool {
    glob.len() > NAME_MAX
        && glob.chars().filter(|c| *c != '*').nth(NAME_MAX).is_some()
        && tokens(glob, true)
            .into_iter()
            .filter(|t| *t != Token::Any)
            .nth(NAME_MAX)
            .is_some()
}

/// `text` read as a glob, or as literal characters when `glob` is false. An unclosed `[` is a
/// literal; a class counts as any one character (wider than it is: the guards err on the side
/// of a match); `**` is `*`.
fn tokens(text: &str, glob: bool) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        index += 1;
        if !glob {
            out.push(Token::Literal(c));
            continue;
        }
        match c {
            '*' if out.last() == Some(&Token::Any) => {}
            '*' => out.push(Token::Any),
            '?' => out.push(Token::One),
            '[' => match chars[index..].iter().skip(1).position(|&c| c == ']') {
                Some(end) => {
                    out.push(Token::Class);
                    index += end + 2;
                }
                None => out.push(Token::Literal('[')),
            },
            c => out.push(Token::Literal(c)),
        }
    }
    out
}

/// How a guard compares names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Compare {
    /// ASCII case is ignored (a case-insensitive filesystem writes `.GIT/config` to
    /// `.git/config`).
    pub(crate) fold_case: bool,
    /// A wildcard of the word (`*`, `?`) does not match a leading `.`, as in the shell (`*`
    /// does not name `.env`); `find -name`'s globs and a table's patterns match it.
    pub(crate) shell_dots: bool,
}

impl Compare {
    /// Names as written, the shell's rule for leading dots.
    pub(crate) const EXACT: Compare = Compare {
        fold_case: false,
        shell_dots: true,
    };

    fn same(self, a: char, b: char) -> bool {
        a == b || (self.fold_case && a.eq_ignore_ascii_case(&b))
    }

    /// Whether the name `name` (literal: its `*` is a character; any text, a branch name
    /// too) matches glob `pattern`. Linear in the name times the pattern.
    pub(crate) fn matches(self, pattern: &str, name: &str) -> bool {
        if !is_glob(pattern) {
            return pattern.len() == name.len()
                && pattern
                    .chars()
                    .zip(name.chars())
                    .all(|(a, b)| self.same(a, b));
        }
        self.search(&tokens(name, false), &tokens(pattern, true))
    }

    /// Whether some file name matches both `word` (a component as written in a call: with
    /// [`Compare::shell_dots`], its wildcards do not match a leading `.`) and `pattern` (a
    /// component of a guard's table or of the user's options).
    pub(crate) fn meet(self, word: &str, pattern: &str) -> bool {
        if too_long(word) || too_long(pattern) {
            return false;
        }
        if !is_glob(word) {
            return self.matches(pattern, word);
        }
        self.search(&tokens(word, true), &tokens(pattern, true))
    }

    /// A search over pairs of positions (i, j) in each glob, and whether a character was read
    /// yet (a shell wildcard may not read a leading `.`).
    fn search(self, word: &[Token], pattern: &[Token]) -> bool {
        // The common case without the search: a literal name against `*` and `?`.
        if let Some(quick) = self.wildcard(word, pattern) {
            return quick;
        }
        let width = pattern.len() + 1;
        let mut seen = vec![false; (word.len() + 1) * width * 2];
        let mut stack = vec![(0usize, 0usize, false)];
        while let Some((i, j, started)) = stack.pop() {
            let slot = (i * width + j) * 2 + usize::from(started);
            if std::mem::replace(&mut seen[slot], true) {
                continue;
            }
            let (w, p) = (word.get(i).copied(), pattern.get(j).copied());
            if w.is_none() && p.is_none() {
                return true;
            }
            // A `*` may read nothing.
            if w == Some(Token::Any) {
                stack.push((i + 1, j, started));
            }
            if p == Some(Token::Any) {
                stack.push((i, j + 1, started));
            }
            // Or both read one character.
            let (Some(w), Some(p)) = (w, p) else {
                continue;
            };
            let fits = match (w, p) {
                (Token::Literal(a), Token::Literal(b)) => self.same(a, b),
                (Token::Literal(_), _) => true,
                (Token::One | Token::Any, Token::Literal(c)) => {
                    started || !self.shell_dots || c != '.'
                }
                _ => true,
            };
            if fits {
                let next_i = if w == Token::Any { i } else { i + 1 };
                let next_j = if p == Token::Any { j } else { j + 1 };
                stack.push((next_i, next_j, true));
            }
        }
        false
    }

    /// A literal `name` against a pattern of literals, `?` and `*`: the greedy match that goes
    /// back to the last `*` on a mismatch, at most `name.len()` times per `*`. `None` for
    /// other globs.
    fn wildcard(self, name: &[Token], pattern: &[Token]) -> Option<bool> {
        let name: Vec<char> = name
            .iter()
            .map(|t| match t {
                Token::Literal(c) => Some(*c),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if pattern.contains(&Token::Class) {
            return None;
        }
        let (mut p, mut t) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while t < name.len() {
            match pattern.get(p) {
                Some(Token::Any) => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(Token::One) => {
                    p += 1;
                    t += 1;
                }
                Some(Token::Literal(c)) if self.same(*c, name[t]) => {
                    p += 1;
                    t += 1;
                }
                _ => match star {
                    Some((at, from)) => {
                        p = at + 1;
                        t = from + 1;
                        star = Some((at, from + 1));
                    }
                    None => return Some(false),
                },
            }
        }
        Some(pattern[p..].iter().all(|t| *t == Token::Any))
    }
}

/// Whether every name `word` can match is matched by `exception` ([`Compare::EXACT`]): a
/// literal word the exception matches, or a glob word ending in the literal tail of a `*TAIL`
/// exception (`id_*.pub` and `*.pub`).
pub(crate) fn within(word: &str, exception: &str) -> bool {
    if !is_glob(word) {
        return Compare::EXACT.matches(exception, word);
    }
    exception
        .strip_prefix('*')
        .is_some_and(|tail| !tail.is_empty() && !is_glob(tail) && word.ends_with(tail))
}

#[cfg(test)]
mod tests {
    use super::{Compare, is_wide, within};

    const FOLD: Compare = Compare {
        fold_case: true,
        shell_dots: false,
    };

    #[test]
    fn words_meet_patterns_they_could_name() {
        for (word, pattern, expected) in [
            (".env", ".env", true),
            (".env", ".env.*", false),
            (".env.local", ".env.*", true),
            (".env*", ".env", true),
            (".e?v", ".env", true),
            ("*", ".env", false),
            ("*", "id_rsa", true),
            ("*.rs", "*.key", false),
            ("*.key", "*.key", true),
            ("*.pem", "*-key.pem", true),
            ("cert.pem", "*-key.pem", false),
            ("monkey.pem", "*-key.pem", false),
            (".[s]sh", ".ssh", true),
            ("[.]env", ".env", true),
            ("[ab", "[ab", true),
            ("id_*", "id_rsa", true),
            ("*.pub", "id_rsa", false),
            ("Chrome", "Chrome", true),
            ("chrome", "Chrome", false),
            ("google-chrome-beta", "google-chrome*", true),
        ] {
            assert_eq!(
                Compare::EXACT.meet(word, pattern),
                expected,
                "{word} / {pattern}"
            );
        }
    }

    #[test]
    fn names_match_globs_case_folded_where_asked() {
        const EXACT: Compare = Compare::EXACT;
        for (compare, pattern, name, expected) in [
            (FOLD, "*.pem", "server.PEM", true),
            (FOLD, "Cargo.lock", "cargo.lock", true),
            (EXACT, "Cargo.lock", "cargo.lock", false),
            (FOLD, "a*b*c", "aXbYbZc", true),
            (FOLD, "*.pem", "server.pem.txt", false),
            (FOLD, "?", "", false),
            (FOLD, "Cargo.loc[k]", "Cargo.lock", true),
            // A name's `*` is a character.
            (FOLD, "a", "*", false),
            // Branch patterns (dangerous-commands' `protected-branches`).
            (EXACT, "main", "main2", false),
            (EXACT, "main", "Main", false),
            (EXACT, "release/*", "release/1.2", true),
            (EXACT, "release/*", "releases", false),
            (EXACT, "*", "anything", true),
            (EXACT, "refs/heads/*", "refs/heads/main", true),
            (EXACT, "a*b*c", "aXbY", false),
        ] {
            let got = compare.matches(pattern, name);
            assert_eq!(got, expected, "{compare:?}: {pattern} / {name}");
        }
        // No blow-up on many stars.
        assert!(!FOLD.matches(&"*a".repeat(200), &"a".repeat(199)));
    }

    #[test]
    fn two_globs_meet_when_one_name_matches_both() {
        assert!(FOLD.meet("*.lock", "Cargo.lock"));
        assert!(FOLD.meet("*.yml", "ci*"));
        assert!(FOLD.meet("a?c", "*b*"));
        assert!(!FOLD.meet("*.rs", "prod.yml"));
        assert!(!FOLD.meet("a*", "b*"));
        assert!(FOLD.meet("**a", "a*"));
        assert!(!FOLD.meet("a", "*b?"));
        assert!(FOLD.meet("", "**"));
        assert!(!FOLD.meet("", "?"));
        // `find`'s globs match a leading dot, the shell's do not.
        assert!(FOLD.meet("*.yml", ".travis.yml"));
        assert!(!Compare::EXACT.meet("*.yml", ".travis.yml"));
    }

    #[test]
    fn a_glob_is_within_an_exception_only_when_every_name_it_matches_is() {
        assert!(within("id_rsa.pub", "*.pub"));
        assert!(within("*.pub", "*.pub"));
        assert!(within("known_hosts", "known_hosts"));
        assert!(!within("id_*", "*.pub"));
        assert!(!within("known_*", "known_hosts"));
        assert!(!within("id_rsa", "*.pub"));
        assert!(is_wide("*") && is_wide("*.*") && !is_wide("*.key") && !is_wide("src"));
    }

    #[test]
    fn the_quick_path_agrees_with_the_search() {
        for (pattern, text) in [
            ("*.env", "prod.env"),
            ("*.env", ".env"),
            (".env.*", ".env"),
            ("google-chrome*", "google-chrome-beta"),
            ("*key*.pem", "monkey.pem"),
            ("a*b*c", "aXbYbZc"),
            ("a*b*c", "aXbYbZ"),
            ("?d_rsa", "id_rsa"),
            ("*", ""),
        ] {
            let quick = Compare::EXACT.matches(pattern, text);
            // The search, forced by a `[x]` class standing for the text's first character.
            if let Some(first) = text.chars().next() {
                let classed = format!("[{first}]{}", &text[first.len_utf8()..]);
                assert_eq!(
                    Compare::EXACT.meet(&classed, pattern),
                    quick,
                    "{pattern} / {classed}"
                );
            }
        }
    }

    #[test]
    fn globs_longer_than_a_name_match_nothing() {
        let long = "*a".repeat(2000);
        assert!(!Compare::EXACT.meet(&long, "*"));
        assert!(!FOLD.meet(&"a".repeat(300), "*"));
        // A branch name is no component: any length matches.
        assert!(FOLD.matches("release/*", &format!("release/{}", "a".repeat(300))));
        let fit = "*a".repeat(200);
        assert!(Compare::EXACT.meet(&fit, "*"));
        assert!(!FOLD.meet(&"?".repeat(50_000), "*"));
    }
}
