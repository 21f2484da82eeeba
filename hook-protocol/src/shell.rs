//! A small, quote-aware reader of POSIX shell command lines: where a command's simple commands
//! and words are. It reads; it never expands variables, globs or aliases, and never runs
//! anything.
//!
//! [`read_command`] reads what each simple command runs (its wrappers, program, script, `cd`
//! target and `-c` string): the one reading hook-config's `if` permission rules
//! (`Bash(git push*)`), the trust crate (the files a command hook names) and `hook doctor`
//! share. Re-exported as `hook_sdk::shell` so hook authors use it too, instead of splitting a
//! command on spaces.
//!
//! # Limitations
//!
//! - Expansions (`$VAR`, `$(...)`, globs) stay as written in [`Word::plain`]; a caller that
//!   needs a value expands the variables it knows.
//! - Here-document bodies are read as commands; aliases and functions are unknown.

mod read;

pub use read::{
    CommandParts, Interpreter, MAX_INLINE_DEPTH, is_assignment, read_command, read_simple_command,
};

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
/// target word) removed. Linear in the length of `command`.
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
    lex(command, false).commands
}

/// Every word of `command`, in order, across all its simple commands, with the targets of
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
    lex(command, true).commands.into_iter().flatten().collect()
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
    lex(command, false).redirections
}

struct Lexed {
    commands: Vec<Vec<Word>>,
    redirections: Vec<Redirection>,
}

fn lex(command: &str, keep_targets: bool) -> Lexed {
    let bytes = command.as_bytes();
    let mut lexer = Lexer {
        keep_targets,
        ..Lexer::default()
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match b {
            b' ' | b'\t' | b'\r' => {
                lexer.end_word();
                i += 1;
            }
            b'\\' => match next {
                // A line continuation joins the two lines.
                Some(b'\n') => i += 2,
                Some(c) => {
                    lexer.push_raw(&[b, c]);
                    lexer.push_plain(&[c]);
                    i += 2;
                }
                None => {
                    lexer.push_raw(&[b]);
                    i += 1;
                }
            },
            b'\'' => {
                let end = bytes[i + 1..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map_or(bytes.len(), |p| i + 1 + p);
                lexer.push_raw(&bytes[i..(end + 1).min(bytes.len())]);
                lexer.push_plain(&bytes[i + 1..end]);
                i = end + 1;
            }
            b'"' => {
                lexer.push_raw(b"\"");
                lexer.in_word = true;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        let c = bytes[i + 1];
                        lexer.push_raw(&[b'\\', c]);
                        if !matches!(c, b'"' | b'\\' | b'$' | b'`' | b'\n') {
                            lexer.push_plain(b"\\");
                        }
                        if c != b'\n' {
                            lexer.push_plain(&[c]);
                        }
                        i += 2;
                    } else {
                        lexer.push_raw(&bytes[i..=i]);
                        lexer.push_plain(&bytes[i..=i]);
                        i += 1;
                    }
                }
                if i < bytes.len() {
                    lexer.push_raw(b"\"");
                }
                i += 1;
            }
            b'#' if !lexer.in_word => {
                i = bytes[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(bytes.len(), |p| i + p);
            }
            b'\n' | b';' | b'(' | b')' | b'`' => {
                lexer.end_command();
                i += 1;
            }
            b'|' => {
                lexer.end_command();
                i += if matches!(next, Some(b'|' | b'&')) {
                    2
                } else {
                    1
                };
            }
            b'&' if next == Some(b'>') => {
                // `&>file`, `&>>file`: a redirection, not a separator.
                lexer.end_word();
                let appends = bytes.get(i + 2) == Some(&b'>');
                i += if appends { 3 } else { 2 };
                lexer.skip_target = true;
                lexer.target_is_input = false;
                lexer.operator = Some(if appends { "&>>" } else { "&>" }.to_owned());
            }
            b'&' => {
                lexer.end_command();
                i += if next == Some(b'&') { 2 } else { 1 };
            }
            b'<' | b'>' => {
                // An fd number (`2>`) or `{var}` right before the operator belongs to it.
                let fd = lexer.in_word
                    && lexer.raw.len() == lexer.plain.len()
                    && (lexer.raw.iter().all(u8::is_ascii_digit)
                        || (lexer.raw.first() == Some(&b'{') && lexer.raw.last() == Some(&b'}')));
                if fd {
                    lexer.discard_word();
                } else {
                    lexer.end_word();
                }
                let start = i;
                i += 1;
                while i < bytes.len()
                    && i - start < 3
                    && matches!(bytes[i], b'<' | b'>' | b'&' | b'|')
                {
                    i += 1;
                }
                if &bytes[start..i] == b"<<" && bytes.get(i) == Some(&b'-') {
                    i += 1;
                }
                // `<(...)` and `>(...)`: the process substitution is a command of its own.
                lexer.skip_target = bytes.get(i) != Some(&b'(');
                lexer.target_is_input = &bytes[start..i] == b"<";
                // The operator bytes are ASCII, so the slice is on character boundaries.
                lexer.operator = lexer
                    .skip_target
                    .then(|| String::from_utf8_lossy(&bytes[start..i]).into_owned());
            }
            _ => {
                lexer.push_raw(&bytes[i..=i]);
                lexer.push_plain(&bytes[i..=i]);
                i += 1;
            }
        }
    }
    lexer.end_command();
    Lexed {
        commands: lexer.commands,
        redirections: lexer.redirections,
    }
}

#[derive(Default)]
struct Lexer {
    commands: Vec<Vec<Word>>,
    words: Vec<Word>,
    raw: Vec<u8>,
    plain: Vec<u8>,
    in_word: bool,
    /// The next word is a redirection's target.
    skip_target: bool,
    /// The pending target is an input redirection's (`< file`): a file the command reads.
    target_is_input: bool,
    /// Keep input redirections' targets as words.
    keep_targets: bool,
    /// The operator of the pending redirection.
    operator: Option<String>,
    redirections: Vec<Redirection>,
}

impl Lexer {
    fn push_raw(&mut self, bytes: &[u8]) {
        self.raw.extend_from_slice(bytes);
        self.in_word = true;
    }

    fn push_plain(&mut self, bytes: &[u8]) {
        self.plain.extend_from_slice(bytes);
        self.in_word = true;
    }

    fn discard_word(&mut self) {
        self.raw.clear();
        self.plain.clear();
        self.in_word = false;
    }

    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        if self.skip_target
            && let Some(operator) = self.operator.take()
        {
            self.redirections.push(Redirection {
                operator,
                target: Word {
                    raw: String::from_utf8_lossy(&self.raw).into_owned(),
                    plain: String::from_utf8_lossy(&self.plain).into_owned(),
                },
            });
        }
        if self.skip_target && !(self.keep_targets && self.target_is_input) {
            self.skip_target = false;
        } else {
            self.skip_target = false;
            // Cut only at ASCII bytes, so both are valid UTF-8; lossy is never lossy here.
            self.words.push(Word {
                raw: String::from_utf8_lossy(&self.raw).into_owned(),
                plain: String::from_utf8_lossy(&self.plain).into_owned(),
            });
        }
        self.discard_word();
    }

    fn end_command(&mut self) {
        self.end_word();
        self.skip_target = false;
        self.operator = None;
        if !self.words.is_empty() {
            self.commands.push(std::mem::take(&mut self.words));
        }
    }
}
