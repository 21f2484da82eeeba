//! The shell's words that are syntax, not commands: reserved words, headers, assignments.
//! Shared by the lexer (function headers, arrays) and the reader (what a command runs).

/// Words skipped at the start of a command: the shell's reserved words.
pub(super) const RESERVED: &[&str] = &[
    "!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac",
];

/// Whether `word` (as written) is one of the shell's reserved words skipped at the start of a
/// command, or a header's (`for`, `case`...).
pub(super) fn is_reserved(word: &str) -> bool {
    RESERVED.contains(&word) || HEADERS.contains(&word) || word == "function" || word == "in"
}

/// Words that start a header (`for x in a b`), not a command.
pub(super) const HEADERS: &[&str] = &["for", "select", "case"];

/// Whether `word` (as written, quotes kept) is a `NAME=value` or `NAME+=value` assignment: a
/// name of ASCII letters, digits and `_`, not starting with a digit, unquoted.
///
/// ```
/// use hook_protocol::shell::is_assignment;
/// assert!(is_assignment("GIT_TRACE=1"));
/// assert!(is_assignment("PATH+=:/x"));
/// assert!(!is_assignment("1A=x"));
/// assert!(!is_assignment("'A'=x")); // a quoted name: the shell runs a program `A=x`
/// assert!(!is_assignment("--flag=x"));
/// ```
pub fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let name = name.strip_suffix('+').unwrap_or(name);
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
