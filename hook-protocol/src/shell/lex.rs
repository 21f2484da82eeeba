//! The lexer under every reading of a command line ([`super::simple_commands`],
//! [`super::words`], [`super::redirections`], [`super::read_command`]): one pass over the
//! bytes that cuts them into simple commands, each with its words, its redirections and
//! whether it reads the output of the command before it through a pipe.
//!
//! Command substitutions (`$(…)`, backquotes) and process substitutions (`<(…)`, `>(…)`),
//! outside quotes or inside double quotes, are commands of their own, each in its own
//! group; the word holding one keeps the substitution's text as written (`$(echo ~)`).
//! Here-documents' bodies are taken out of the command flow and kept with their
//! redirection; an unquoted body's substitutions are commands too. Linear in the length of
//! the command: no recursion but for here-document bodies, which is bounded.

use std::collections::HashMap;

use super::syntax::{is_assignment, is_reserved};
use super::{Redirection, Word};

/// How deep here-document bodies inside substitutions inside bodies are read for their
/// substitutions (deeper bodies are kept as text only).
const MAX_BODY_DEPTH: usize = 4;

/// How deep function bodies nest as bodies (a deeper one's commands are its enclosing body's),
/// so that callers walking [`super::CommandParts::inline`] stay shallow.
const MAX_BODIES: usize = 16;

/// How deep substitutions are read: a deeper `$(`, backquote or `<(` is text, and the command
/// is not complete (each level copies its text into the word holding it, so the work stays
/// linear in the length of the command times this).
const MAX_FRAMES: usize = 64;

/// One simple command as cut from the text.
#[derive(Debug, Default)]
pub(super) struct Lexeme {
    /// Its words, redirections' operators and targets taken out.
    pub(super) words: Vec<Word>,
    /// Its redirections, in order; a here-document's with its body.
    pub(super) redirections: Vec<Redirection>,
    /// It follows a `|` or `|&`: its standard input is the output of the command before it in
    /// its group.
    pub(super) piped: bool,
    /// The list it belongs to: 0 for the command line itself, one number per substitution
    /// and here-document body.
    pub(super) group: usize,
    /// It is a function definition's header, `NAME ()` or `function NAME`: its last word is
    /// the name; the commands of its body (a `{ …; }` group after it) are in this group.
    pub(super) body: Option<usize>,
}

/// A command line, lexed.
#[derive(Debug)]
pub(super) struct Lexed {
    /// Its simple commands in the order they end (a substitution's before the command
    /// holding it), empty ones left out.
    pub(super) commands: Vec<Lexeme>,
    /// It ends outside any quote, substitution and line continuation.
    pub(super) complete: bool,
}

/// Lexes `command`; with `keep_targets`, input redirections' targets (`< file`) are also
/// words of their command.
pub(super) fn lex(command: &str, keep_targets: bool) -> Lexed {
    let mut lexer = Lexer::new(keep_targets, 0);
    lexer.run(command.as_bytes());
    Lexed {
        commands: lexer.commands,
        complete: lexer.complete,
    }
}

/// The quoting the bytes of a level are read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Quote {
    /// Outside quotes.
    #[default]
    None,
    /// Inside `"…"`.
    Double,
    /// An unquoted here-document's body: like double quotes, but `"` is a plain character and
    /// nothing closes it.
    Body,
}

/// What closes a substitution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    /// `)`, of `$(` or `<(`/`>(`.
    Paren,
    /// A backquote.
    Backquote,
}

/// The state of one nesting level: the command line itself, or one substitution.
#[derive(Debug, Default)]
struct Level {
    words: Vec<Word>,
    redirections: Vec<Redirection>,
    raw: Vec<u8>,
    plain: Vec<u8>,
    in_word: bool,
    /// The next word is a redirection's target.
    skip_target: bool,
    /// The pending target is an input redirection's (`< file`): a file the command reads.
    target_is_input: bool,
    /// The operator of the pending redirection.
    operator: Option<String>,
    quote: Quote,
    /// Subshell parentheses open at this level: their `)` ends a command, not the level.
    parens: usize,
    /// A `|` was read: the next command of this level reads the one before.
    piped: bool,
    /// The command read is a function definition's header.
    function: bool,
    /// A function's header was read: a `{` starting the next command opens its body, whose
    /// commands go in this group.
    pending_body: Option<usize>,
    /// The function bodies open at this level, innermost last.
    bodies: Vec<Body>,
    group: usize,
    /// The number of the command being read at this level.
    serial: usize,
}

impl Level {
    fn new(group: usize, serial: usize) -> Level {
        Level {
            group,
            serial,
            ..Level::default()
        }
    }
}

/// A function body being read.
#[derive(Debug)]
struct Body {
    /// The group of the commands around the definition.
    outer_group: usize,
    /// The `{` groups open in it, its own included.
    braces: usize,
}

/// A level left to read a substitution, and where the substitution starts.
#[derive(Debug)]
struct Frame {
    outer: Level,
    close: Close,
    start: usize,
}

/// A here-document whose body is still to come.
#[derive(Debug)]
struct PendingBody {
    delimiter: String,
    /// The delimiter is quoted: the body is text, nothing in it runs.
    quoted: bool,
    /// `<<-`: leading tabs are stripped.
    strip_tabs: bool,
    /// The number of the command holding the redirection.
    serial: usize,
    /// The redirection's index in its command.
    redirection: usize,
}

#[derive(Debug)]
struct Lexer {
    keep_targets: bool,
    /// How deep in here-document bodies this lexer reads.
    depth: usize,
    level: Level,
    frames: Vec<Frame>,
    commands: Vec<Lexeme>,
    /// The last group number given.
    groups: usize,
    /// The last command number given.
    serials: usize,
    /// The lexeme each ended command's number became.
    lexemes: HashMap<usize, usize>,
    bodies: Vec<PendingBody>,
    complete: bool,
}

impl Lexer {
    fn new(keep_targets: bool, depth: usize) -> Lexer {
        Lexer {
            keep_targets,
            depth,
            level: Level::default(),
            frames: Vec::new(),
            commands: Vec::new(),
            groups: 0,
            serials: 0,
            lexemes: HashMap::new(),
            bodies: Vec::new(),
            complete: true,
        }
    }

    fn run(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            i = if self.level.quote == Quote::None {
                self.unquoted(bytes, i)
            } else {
                self.quoted(bytes, i)
            };
        }
        while !self.frames.is_empty() {
            self.complete = false;
            self.close_frame(bytes, bytes.len());
        }
        match self.level.quote {
            Quote::Double => self.complete = false,
            // A body's text outside its substitutions is no command.
            Quote::Body => self.level.discard_word(),
            Quote::None => {}
        }
        self.end_command(false);
    }

    /// Reads the byte at `i` outside quotes; returns where to go on.
    fn unquoted(&mut self, bytes: &[u8], i: usize) -> usize {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match b {
            b' ' | b'\t' | b'\r' => {
                self.end_word();
                // `function NAME`: the header ends with the name.
                let words = &self.level.words;
                let keyword = words.len().checked_sub(2).map(|k| &words[k]);
                if keyword.is_some_and(|k| k.raw == "function") && self.function_header() {
                    self.level.function = true;
                    self.end_command(false);
                }
                i + 1
            }
            b'\\' => match next {
                // A line continuation joins the two lines.
                Some(b'\n') => i + 2,
                Some(c) => {
                    self.level.push_raw(&[b, c]);
                    self.level.push_plain(&[c]);
                    i + 2
                }
                None => {
                    self.complete = false;
                    self.level.push_raw(&[b]);
                    i + 1
                }
            },
            b'\'' => {
                let end = match bytes[i + 1..].iter().position(|&c| c == b'\'') {
                    Some(p) => i + 1 + p,
                    None => {
                        self.complete = false;
                        bytes.len()
                    }
                };
                self.level.push_raw(&bytes[i..(end + 1).min(bytes.len())]);
                self.level.push_plain(&bytes[i + 1..end]);
                end + 1
            }
            b'"' => {
                self.level.push_raw(b"\"");
                self.level.quote = Quote::Double;
                i + 1
            }
            b'$' if next == Some(b'(') => self.dollar_paren(bytes, i),
            b'#' if !self.level.in_word => bytes[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |p| i + p),
            b'`' => {
                if self
                    .frames
                    .last()
                    .is_some_and(|f| f.close == Close::Backquote)
                {
                    self.close_frame(bytes, i + 1);
                } else {
                    self.open_frame(Close::Backquote, bytes, i);
                }
                i + 1
            }
            // `NAME=(a b)`: an array's words, not a command.
            b'(' if self.level.in_word
                && self.level.raw.ends_with(b"=")
                && self.level.words.iter().all(|w| is_assignment(&w.raw))
                && is_assignment(&String::from_utf8_lossy(&self.level.raw)) =>
            {
                let end = array_end(bytes, i).unwrap_or_else(|| {
                    self.complete = false;
                    bytes.len()
                });
                self.level.push_raw(&bytes[i..end]);
                self.level.push_plain(&bytes[i..end]);
                end
            }
            b'(' => {
                // `NAME ()` (or `function NAME ()`): a function definition's header.
                let close = bytes[i + 1..]
                    .iter()
                    .position(|c| !matches!(c, b' ' | b'\t'))
                    .map(|p| i + 1 + p);
                if let Some(close) = close.filter(|&j| bytes[j] == b')') {
                    self.end_word();
                    if self.function_header() {
                        self.level.function = true;
                        self.end_command(false);
                        return close + 1;
                    }
                }
                self.level.parens += 1;
                self.end_command(false);
                i + 1
            }
            b')' => {
                if self.level.parens > 0 {
                    self.level.parens -= 1;
                    self.end_command(false);
                } else if self.frames.last().is_some_and(|f| f.close == Close::Paren) {
                    self.close_frame(bytes, i + 1);
                } else {
                    self.end_command(false);
                }
                i + 1
            }
            b'\n' => {
                self.end_command(false);
                self.read_bodies(bytes, i + 1)
            }
            b';' => {
                self.end_command(false);
                i + 1
            }
            b'|' => {
                // `|` and `|&` pipe; `||` is a list.
                self.end_command(next != Some(b'|'));
                i + if matches!(next, Some(b'|' | b'&')) {
                    2
                } else {
                    1
                }
            }
            b'&' if next == Some(b'>') => {
                // `&>file`, `&>>file`: a redirection, not a separator.
                self.end_word();
                let appends = bytes.get(i + 2) == Some(&b'>');
                self.level.skip_target = true;
                self.level.target_is_input = false;
                self.level.operator = Some(if appends { "&>>" } else { "&>" }.to_owned());
                i + if appends { 3 } else { 2 }
            }
            b'&' => {
                self.end_command(false);
                i + if next == Some(b'&') { 2 } else { 1 }
            }
            // `<(…)` and `>(…)`: a process substitution, a word of its own.
            b'<' | b'>' if next == Some(b'(') => {
                self.open_frame(Close::Paren, bytes, i);
                i + 2
            }
            b'<' | b'>' => self.operator(bytes, i),
            _ => {
                self.level.push_raw(&bytes[i..=i]);
                self.level.push_plain(&bytes[i..=i]);
                i + 1
            }
        }
    }

    /// Reads the byte at `i` inside double quotes or a here-document's body.
    fn quoted(&mut self, bytes: &[u8], i: usize) -> usize {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match b {
            b'"' if self.level.quote == Quote::Double => {
                self.level.push_raw(b"\"");
                self.level.quote = Quote::None;
                i + 1
            }
            b'\\' => {
                let Some(c) = next else {
                    self.level.push_raw(b"\\");
                    self.level.push_plain(b"\\");
                    return i + 1;
                };
                let escapes = matches!(c, b'\\' | b'$' | b'`' | b'\n')
                    || (c == b'"' && self.level.quote == Quote::Double);
                self.level.push_raw(&[b'\\', c]);
                if !escapes {
                    self.level.push_plain(b"\\");
                }
                if c != b'\n' {
                    self.level.push_plain(&[c]);
                }
                i + 2
            }
            b'$' if next == Some(b'(') => self.dollar_paren(bytes, i),
            b'`' => {
                self.open_frame(Close::Backquote, bytes, i);
                i + 1
            }
            _ => {
                self.level.push_raw(&bytes[i..=i]);
                self.level.push_plain(&bytes[i..=i]);
                i + 1
            }
        }
    }

    /// `$(` at `i`: a command substitution, or `$((…))`, an arithmetic expansion (text only).
    fn dollar_paren(&mut self, bytes: &[u8], i: usize) -> usize {
        if bytes.get(i + 2) == Some(&b'(')
            && let Some(end) = arithmetic_end(bytes, i)
        {
            self.level.push_raw(&bytes[i..end]);
            self.level.push_plain(&bytes[i..end]);
            return end;
        }
        self.open_frame(Close::Paren, bytes, i);
        i + 2
    }

    /// A redirection operator at `i` (`<`, `>>`, `2>&1`'s `>&`, `<<-`...).
    fn operator(&mut self, bytes: &[u8], i: usize) -> usize {
        // An fd number (`2>`) or `{var}` right before the operator belongs to it.
        let level = &mut self.level;
        let fd = level.in_word
            && level.raw.len() == level.plain.len()
            && (level.raw.iter().all(u8::is_ascii_digit)
                || (level.raw.first() == Some(&b'{') && level.raw.last() == Some(&b'}')));
        if fd {
            level.discard_word();
        } else {
            self.end_word();
        }
        let mut end = i + 1;
        while end < bytes.len() && end - i < 3 && matches!(bytes[end], b'<' | b'>' | b'&' | b'|') {
            end += 1;
        }
        if &bytes[i..end] == b"<<" && bytes.get(end) == Some(&b'-') {
            end += 1;
        }
        let level = &mut self.level;
        level.skip_target = true;
        level.target_is_input = &bytes[i..end] == b"<";
        // The operator bytes are ASCII, so the slice is on character boundaries.
        level.operator = Some(String::from_utf8_lossy(&bytes[i..end]).into_owned());
        end
    }

    /// Whether the words read of the command so far are a function's header: `NAME` or
    /// `function NAME` (after reserved words), unquoted, the name no assignment and no
    /// redirection pending.
    fn function_header(&self) -> bool {
        let words = &self.level.words;
        // After reserved words (`{ f() { …; }; }`, `then f() …`).
        let start = words
            .iter()
            .position(|w| w.raw != w.plain || !is_reserved(&w.raw) || w.raw == "function")
            .unwrap_or(words.len());
        let name = match &words[start..] {
            [name] => name,
            [keyword, name] if keyword.raw == "function" => name,
            _ => return false,
        };
        !self.level.skip_target
            && self.level.redirections.is_empty()
            && name.raw == name.plain
            && !name.raw.contains('=')
            && !is_reserved(&name.raw)
    }

    /// Starts reading a substitution that starts at `start` (too deep: its opening is text).
    fn open_frame(&mut self, close: Close, bytes: &[u8], start: usize) {
        if self.frames.len() >= MAX_FRAMES {
            self.complete = false;
            let length = if close == Close::Backquote { 1 } else { 2 };
            let opening = &bytes[start..(start + length).min(bytes.len())];
            self.level.push_raw(opening);
            self.level.push_plain(opening);
            return;
        }
        self.groups += 1;
        self.serials += 1;
        let outer = std::mem::replace(&mut self.level, Level::new(self.groups, self.serials));
        self.frames.push(Frame {
            outer,
            close,
            start,
        });
    }

    /// Ends the substitution read now, which ends before `end`: back to the word holding it,
    /// which gets the substitution's text.
    fn close_frame(&mut self, bytes: &[u8], end: usize) {
        self.level.quote = Quote::None;
        self.end_command(false);
        if let Some(frame) = self.frames.pop() {
            self.level = frame.outer;
            let text = &bytes[frame.start..end];
            self.level.push_raw(text);
            self.level.push_plain(text);
        }
    }

    fn end_word(&mut self) {
        let level = &mut self.level;
        if !level.in_word {
            return;
        }
        let word = Word {
            // Cut only at ASCII bytes, so both are valid UTF-8; lossy is never lossy here.
            raw: String::from_utf8_lossy(&level.raw).into_owned(),
            plain: String::from_utf8_lossy(&level.plain).into_owned(),
        };
        level.discard_word();
        let target = level.skip_target;
        level.skip_target = false;
        if !target && level.words.is_empty() && word.raw == word.plain {
            // A function's body: the `{ …; }` group after its header.
            if let Some(group) = level.pending_body.take()
                && word.raw == "{"
                && level.bodies.len() < MAX_BODIES
            {
                level.bodies.push(Body {
                    outer_group: level.group,
                    braces: 0,
                });
                level.group = group;
            }
            if let Some(body) = level.bodies.last_mut() {
                match word.raw.as_str() {
                    "{" => body.braces += 1,
                    "}" => body.braces = body.braces.saturating_sub(1),
                    _ => {}
                }
            }
        }
        if target && let Some(operator) = level.operator.take() {
            if operator == "<<" || operator == "<<-" {
                self.bodies.push(PendingBody {
                    delimiter: word.plain.clone(),
                    quoted: word.raw != word.plain,
                    strip_tabs: operator == "<<-",
                    serial: level.serial,
                    redirection: level.redirections.len(),
                });
            }
            level.redirections.push(Redirection {
                operator,
                target: word.clone(),
                body: None,
            });
        }
        if !target || (self.keep_targets && level.target_is_input) {
            level.words.push(word);
        }
    }

    /// Ends the command read now; `pipe`: it ended at a `|`, so the next reads its output.
    fn end_command(&mut self, pipe: bool) {
        self.end_word();
        let level = &mut self.level;
        level.skip_target = false;
        level.operator = None;
        if !level.words.is_empty() || !level.redirections.is_empty() {
            let index = self.commands.len();
            let body = std::mem::take(&mut level.function).then(|| {
                self.groups += 1;
                self.groups
            });
            self.commands.push(Lexeme {
                words: std::mem::take(&mut level.words),
                redirections: std::mem::take(&mut level.redirections),
                piped: std::mem::take(&mut level.piped),
                body,
                group: level.group,
            });
            level.pending_body = body;
            // The `}` closing a function's body ends it: back to the commands around it.
            if let Some(closed) = level.bodies.pop_if(|body| body.braces == 0) {
                level.group = closed.outer_group;
            }
            self.lexemes.insert(level.serial, index);
            self.serials += 1;
            level.serial = self.serials;
        }
        // An empty command (before `(`, after `)`, a newline after `|`) keeps a pending pipe.
        level.piped |= pipe;
    }

    /// Reads the bodies of the here-documents written on the line that ended before `i`;
    /// returns where the next line starts.
    fn read_bodies(&mut self, bytes: &[u8], mut i: usize) -> usize {
        for pending in std::mem::take(&mut self.bodies) {
            let (body, end) = body_at(bytes, i, &pending.delimiter, pending.strip_tabs);
            i = end;
            if !pending.quoted && self.depth < MAX_BODY_DEPTH {
                self.read_body_substitutions(&body);
            }
            if let Some(redirection) = self
                .lexemes
                .get(&pending.serial)
                .and_then(|&k| self.commands.get_mut(k))
                .and_then(|lexeme| lexeme.redirections.get_mut(pending.redirection))
            {
                redirection.body = Some(body);
            }
        }
        i
    }

    /// The commands of an unquoted here-document body's substitutions, each in a group of
    /// its own.
    fn read_body_substitutions(&mut self, body: &str) {
        let mut inner = Lexer::new(self.keep_targets, self.depth + 1);
        inner.level.quote = Quote::Body;
        inner.run(body.as_bytes());
        self.complete &= inner.complete;
        let base = self.groups + 1;
        self.groups = base + inner.groups;
        self.commands
            .extend(inner.commands.into_iter().map(|lexeme| Lexeme {
                group: lexeme.group + base,
                ..lexeme
            }));
    }
}

impl Level {
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
}

/// The body of a here-document starting at `start`: its lines up to the line that is
/// `delimiter` (leading tabs stripped with `strip_tabs`), or to the end; and where the line
/// after the delimiter starts.
fn body_at(bytes: &[u8], start: usize, delimiter: &str, strip_tabs: bool) -> (String, usize) {
    let mut body = Vec::new();
    let mut i = start;
    while i < bytes.len() {
        let end = bytes[i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(bytes.len(), |p| i + p);
        let mut line = &bytes[i..end];
        if strip_tabs {
            let tabs = line.iter().take_while(|&&c| c == b'\t').count();
            line = &line[tabs..];
        }
        let next = (end + 1).min(bytes.len());
        if line == delimiter.as_bytes() {
            return (String::from_utf8_lossy(&body).into_owned(), next);
        }
        body.extend_from_slice(line);
        body.push(b'\n');
        i = next;
        if end == bytes.len() {
            break;
        }
    }
    (String::from_utf8_lossy(&body).into_owned(), bytes.len())
}

/// Where `$((…))` starting at `start` ends, when it is an arithmetic expansion: its
/// parentheses close with `))` and its text reads as an expression (no two words in a row, no
/// quote, substitution or newline in it). `None` when it is a command substitution holding a
/// subshell (`$((cd x; ls) )`, `$(( git push ))`, which errs toward reading commands) or is not
/// closed. Stops at the first quote or substitution, so nested `$((` stay linear.
fn arithmetic_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_word = false;
    let mut after_word = false;
    for (j, &c) in bytes.iter().enumerate().skip(start + 1) {
        match c {
            b'(' | b')' => {
                in_word = false;
                after_word = false;
                if c == b'(' {
                    depth += 1;
                } else {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return (bytes[j - 1] == b')').then_some(j + 1);
                    }
                }
            }
            b'\'' | b'"' | b'`' | b'\n' => return None,
            b'$' if bytes.get(j + 1) == Some(&b'(') => return None,
            b' ' | b'\t' => in_word = false,
            _ if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'{' | b'}' | b'.') => {
                if !in_word {
                    if after_word {
                        return None;
                    }
                    in_word = true;
                    after_word = true;
                }
            }
            _ => {
                in_word = false;
                after_word = false;
            }
        }
    }
    None
}

/// Where the array `(…)` opening at `start` ends: after its `)`, quotes skipped; `None` when
/// it is not closed.
fn array_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut j = start + 1;
    while j < bytes.len() {
        match bytes[j] {
            b')' => return Some(j + 1),
            b'\\' => j += 1,
            quote @ (b'\'' | b'"') => {
                j += bytes[j + 1..].iter().position(|&c| c == quote)? + 1;
            }
            _ => {}
        }
        j += 1;
    }
    None
}
