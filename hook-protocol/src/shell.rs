//! A small, quote-aware reader of POSIX shell command lines: where a command's simple commands
//! and words are. It reads; it never expands variables, globs or aliases, and never runs
//! anything.
//!
//! [`read_command`] reads what each simple command runs (its wrappers, program, script, `cd`
//! target, `-c` string, `find -exec` command, and what it reads through a pipe): the one
//! reading hook-config's `if` permission rules (`Bash(git push*)`), the trust crate (the files
//! a command hook names), `hook doctor` and hook-guards' built-in guards share. Re-exported as
//! `hook_sdk::shell` so hook authors use it too, instead of splitting a command on spaces.
//!
//! Command substitutions (`$(…)`, backquotes, also inside double quotes) and process
//! substitutions (`<(…)`) are simple commands of their own; the word holding one keeps its
//! text as written. Here-document bodies are text kept with their redirection
//! ([`Redirection::body`]), not commands, but for the substitutions of an unquoted body and a
//! body a shell reads as its script (`bash <<EOF`, `cat <<EOF | sh`, see
//! [`CommandParts::inline`]). The words a `for` loop goes over are no command's: see
//! [`loop_words`].
//!
//! # Limitations
//!
//! - Expansions (`$VAR`, `$(...)`, globs) stay as written in [`Word::plain`]; a caller that
//!   needs a value expands the variables it knows.
//! - Aliases and functions are unknown; `case` patterns' `)` inside a `$(…)` end it early.

mod lex;
mod read;
mod syntax;

pub use read::{CommandParts, Interpreter, MAX_INLINE_DEPTH, read_command, read_simple_command};
pub use syntax::is_assignment;

use syntax::RESERVED;

/// One word of a simple command: as written (quotes kept) and unquoted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Word {
    /// The word as written, quotes and backslashes kept (`"$HOME"/x.sh`).
    pub raw: String,
    /// The word unquoted (`$HOME/x.sh`); expansions are left as written.
    pub plain: String,
}

/// Cuts `command` into simple commands: their words, with redirections (the operator and its
/// target word) removed. A substitution's commands come before the command holding it (they
/// run first), which keeps its text as one word. Linear in the length of `command`.
///
/// ```
/// let commands = hook_protocol::shell::simple_commands("cd x && GIT=1 git 'push' 2>&1 >log");
/// let plain: Vec<Vec<&str>> = commands
///     .iter()
///     .map(|words| words.iter().map(|w| w.plain.as_str()).collect())
///     .collect();
/// assert_eq!(plain, [vec!["cd", "x"], vec!["GIT=1", "git", "push"]]);
/// ```
pub fn simple_commands(command: &str) -> Vec<Vec<Word>> {
    lex::lex(command, false)
        .commands
        .into_iter()
        .map(|lexeme| lexeme.words)
        .filter(|words| !words.is_empty())
        .collect()
}

/// The words each `for` or `select` loop of `command` goes over, in order: what its body
/// gets in the loop's variable at run time (`for f in ~/.ssh/*; do cat "$f"; done` gives
/// `~/.ssh/*`). A loop without `in` (over `"$@"`) gives none; the loops of a `-c` string are
/// its own (read its text again).
///
/// ```
/// let line = "for f in a \"b c\"; do while x; do for g in $(ls d); do :; done; done; done";
/// let words = hook_protocol::shell::loop_words(line);
/// let plain: Vec<&str> = words.iter().map(|w| w.plain.as_str()).collect();
/// assert_eq!(plain, ["a", "b c", "$(ls d)"]);
/// ```
pub fn loop_words(command: &str) -> Vec<Word> {
    let unquoted = |word: &Word, text: &str| word.raw == word.plain && word.raw == text;
    lex::lex(command, false)
        .commands
        .into_iter()
        .flat_map(|lexeme| {
            let mut words = lexeme
                .words
                .into_iter()
                .skip_while(|w| w.raw == w.plain && RESERVED.contains(&w.raw.as_str()));
            let header = words
                .next()
                .is_some_and(|w| unquoted(&w, "for") || unquoted(&w, "select"));
            let listed = header && words.nth(1).is_some_and(|w| unquoted(&w, "in"));
            words.take_while(move |_| listed)
        })
        .collect()
}

/// Every word of `command`, across all its simple commands in [`simple_commands`]' order, with the targets of
/// input redirections (`sh < setup.sh` gives `sh` and `setup.sh`) but not those of output
/// redirections (`>> log`, `2>&1`, here-documents' delimiters): the files a command may run or
/// read, for a caller looking for them.
///
/// ```
/// let words = hook_protocol::shell::words("python3 \"$DIR\"/check.py < in.json 2>>err | tee log");
/// let plain: Vec<&str> = words.iter().map(|w| w.plain.as_str()).collect();
/// assert_eq!(plain, ["python3", "$DIR/check.py", "in.json", "tee", "log"]);
/// ```
pub fn words(command: &str) -> Vec<Word> {
    lex::lex(command, true)
        .commands
        .into_iter()
        .flat_map(|lexeme| lexeme.words)
        .collect()
}

/// One redirection of a command line: its operator and its target word.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Redirection {
    /// The operator as written, without the fd number before it (`>`, `>>`, `<`, `&>`, `>&`,
    /// `<<`, `<<-`, `<<<`, `>|`, `<>`).
    pub operator: String,
    /// The word after it: a file, an fd (`2>&1`'s `1`), a here-document's delimiter or a
    /// here-string.
    pub target: Word,
    /// A here-document's body (`<<`, `<<-`): its lines up to the delimiter's, each ending in a
    /// newline (`<<-`: leading tabs stripped), as written (not expanded).
    pub body: Option<String>,
}

impl Redirection {
    /// Whether the target is a file the command writes (`>`, `>>`, `>|`, `&>`, `<>`, and
    /// `>&` to a word that is not an fd number or `-`).
    pub fn writes_file(&self) -> bool {
        match self.operator.as_str() {
            ">" | ">>" | ">|" | "&>" | "&>>" | "<>" => true,
            ">&" => !self.names_fd(),
            _ => false,
        }
    }

    /// Whether the target is a file the command reads (`<`, `<>`, and `<&` to a word that is
    /// not an fd number or `-`).
    pub fn reads_file(&self) -> bool {
        match self.operator.as_str() {
            "<" | "<>" => true,
            "<&" => !self.names_fd(),
            _ => false,
        }
    }

    fn names_fd(&self) -> bool {
        let target = self.target.plain.trim_end_matches('-');
        target.is_empty() || target.bytes().all(|b| b.is_ascii_digit())
    }
}

/// Every redirection of `command`, in order, across all its simple commands (those of `-c`
/// strings are not read: the string is one word here).
///
/// ```
/// let found = hook_protocol::shell::redirections("cat < in 2>&1 >> .git/log | tee out");
/// let files: Vec<(&str, &str, bool)> = found
///     .iter()
///     .map(|r| (r.operator.as_str(), r.target.plain.as_str(), r.writes_file()))
///     .collect();
/// assert_eq!(files, [("<", "in", false), (">&", "1", false), (">>", ".git/log", true)]);
/// ```
pub fn redirections(command: &str) -> Vec<Redirection> {
    lex::lex(command, false)
        .commands
        .into_iter()
        .flat_map(|lexeme| lexeme.redirections)
        .collect()
}

/// Whether `command` ends outside any quote, `$(…)`, backquote or line continuation: a shell
/// given one that does not waits for more or fails (`echo 'open`).
///
/// ```
/// use hook_protocol::shell::is_complete;
/// assert!(is_complete("echo \"$(date)\" 'a'"));
/// assert!(!is_complete("echo 'open"));
/// assert!(!is_complete("echo $(date"));
/// ```
pub fn is_complete(command: &str) -> bool {
    lex::lex(command, false).complete
}
