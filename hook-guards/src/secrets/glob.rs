//! Shell globs (`*`, `?`, `[...]`) of one path component: whether a word as written could name
//! the same file as a pattern of the guard's table ([`meet`]), and whether every name a word
//! matches is one of the table's exceptions ([`within`]).
//!
//! The work is bounded: a component longer than [`MAX_COMPONENT`] bytes (no file system
//! allows one) matches nothing, and [`meet`] visits each pair of positions at most twice.

/// The longest component compared (file systems cap a name at 255 bytes).
const MAX_COMPONENT: usize = 1024;

/// One element of a glob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// A character that must be there.
    Literal(char),
    /// `?`: any one character.
    One,
    /// A `[...]` class: any one character, a leading `.` too (POSIX leaves it open whether a
    /// class may match one; the guard errs on the side of a match).
    Class,
    /// `*`: any run of characters.
    Any,
}

/// Whether `text` holds a glob character (`*`, `?`, `[`).
pub(super) fn is_glob(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b'*' | b'?' | b'['))
}

/// `text` read as a glob, or as literal characters when `glob` is false. An unclosed `[` is a
/// literal; a class counts as any one character (wider than it is: the guard errs on the side
/// of a match).
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

/// Whether some file name matches both `word` (a component as written in a call: a shell
/// glob, whose wildcards do not match a leading `.`) and `pattern` (a component of the
/// guard's table or of the user's `extra-paths`, a glob without that rule).
pub(super) fn meet(word: &str, pattern: &str) -> bool {
    if word.len() > MAX_COMPONENT || pattern.len() > MAX_COMPONENT {
        return false;
    }
    // The common cases, without the search: a literal word against a literal pattern, or
    // against an ASCII pattern of `*` and `?`.
    if !is_glob(word) {
        if !is_glob(pattern) {
            return word == pattern;
        }
        if !pattern.contains('[') && pattern.is_ascii() && word.is_ascii() {
            return wildcard(pattern.as_bytes(), word.as_bytes());
        }
    }
    let word = tokens(word, is_glob(word));
    let pattern = tokens(pattern, true);
    // States (i, j, started): positions in each glob, and whether a character was read yet
    // (a shell wildcard may not read a leading `.`). A search over the product of the two.
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
            (Token::Literal(a), Token::Literal(b)) => a == b,
            (Token::Literal(_), _) => true,
            (Token::One | Token::Any, Token::Literal(c)) => started || c != '.',
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

/// Whether ASCII `text` matches the pattern of `*` and `?`: the greedy match that goes back
/// to the last `*` on a mismatch, at most `text.len()` times per `*`.
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((at, from)) => {
                    p = at + 1;
                    t = from + 1;
                    star = Some((at, from + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// Whether every name `word` can match is matched by `exception`: a literal word the exception
/// matches, or a glob word ending in the literal tail of a `*TAIL` exception (`id_*.pub` and
/// `*.pub`).
pub(super) fn within(word: &str, exception: &str) -> bool {
    if !is_glob(word) {
        return meet(word, exception);
    }
    exception
        .strip_prefix('*')
        .is_some_and(|tail| !tail.is_empty() && !is_glob(tail) && word.ends_with(tail))
}

/// Whether a glob word is too wide to name a file by itself: it has no letter or digit
/// (`*`, `*.*`, `?`), so it matches every name in its folder.
pub(super) fn is_wide(word: &str) -> bool {
    is_glob(word) && !word.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::{is_wide, meet, wildcard, within};

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
            ("google-chrome-beta", "google-chrome*", true),
        ] {
            assert_eq!(meet(word, pattern), expected, "{word} / {pattern}");
        }
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
    fn the_quick_paths_agree_with_the_search() {
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
            let quick = wildcard(pattern.as_bytes(), text.as_bytes());
            assert_eq!(meet(text, pattern), quick, "{pattern} / {text}");
            // The search, forced by a `[x]` class standing for the text's first character.
            if let Some(first) = text.chars().next() {
                let classed = format!("[{first}]{}", &text[first.len_utf8()..]);
                assert_eq!(meet(&classed, pattern), quick, "{pattern} / {classed}");
            }
        }
    }

    #[test]
    fn long_components_are_bounded() {
        let long = "*a".repeat(2000);
        assert!(!meet(&long, "*"));
        let fit = "*a".repeat(400);
        assert!(meet(&fit, "*"));
    }
}
