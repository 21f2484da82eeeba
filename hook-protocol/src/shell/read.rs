//! What a command line runs: for each simple command, its assignments, the wrappers it is run
//! through, its program and arguments, and — when the program is an interpreter, `cd` or
//! `eval` — the script it is given, the folder it goes to, or the command string it runs (read
//! again, bounded). One reading, used by hook-trust (which files a hook runs), `hook doctor`
//! (which programs and scripts to check) and hook-config's `if` rules (which words a
//! `Bash(...)` pattern is matched against), so they never disagree about what runs.
//!
//! It reads text only: it never looks at the filesystem, expands a variable or runs anything.
//! Where a caller needs the filesystem (is this word a folder? is it on `PATH`?) it decides
//! from the words given here.

use super::{Word, simple_commands};

/// Precommand wrappers: programs and builtins that run the command after them (their own
/// `-options` and `NAME=value`s skipped), each with why it is one. One list for every
/// reader: where trust, doctor and the `if` rules used to keep different lists, this is their
/// union (trust covers more files, doctor checks more programs, a rule matches more often,
/// which only makes a guard run, never allows anything).
const WRAPPERS: &[(&str, &str)] = &[
    ("env", "runs its command with a changed environment"),
    ("exec", "replaces the shell with its command"),
    ("command", "runs its command, skipping functions"),
    ("builtin", "runs a shell builtin"),
    ("nohup", "runs its command immune to hangups"),
    ("nice", "runs its command at another priority"),
    ("time", "runs its command and reports its time"),
    ("sudo", "runs its command as another user"),
    ("xargs", "runs its command with arguments read from stdin"),
];

/// The wrappers that are shell builtins or keywords, never looked up on `PATH`.
const BUILTIN_WRAPPERS: &[&str] = &["exec", "command", "builtin", "time"];

/// Shells whose `-c` string is a command line, read like the hook's own (fish's syntax is
/// not POSIX, but its simple commands read alike).
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish"];

/// Other programs that run a script named after them (Python's and Node's names are matched
/// by [`interpreter_of`]).
const OTHER_INTERPRETERS: &[&str] = &["deno", "bun", "ruby", "perl", "php", "pwsh"];

/// Words skipped at the start of a command: the shell's reserved words.
const RESERVED: &[&str] = &[
    "!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac",
];

/// Words that start a header (`for x in a b`), not a command.
const HEADERS: &[&str] = &["for", "select", "case"];

/// How deep `-c` strings and `eval` are read again.
pub const MAX_INLINE_DEPTH: usize = 4;

/// How many wrappers in a row are looked through.
const MAX_WRAPPERS: usize = 8;

/// What kind of interpreter a command's program is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Interpreter {
    /// A POSIX-like shell (`sh`, `bash`, `zsh`...): a script, or a `-c` string.
    Shell,
    /// Python (`python`, `python3`, `python3.12`, `pypy3`): a script, a folder, or `-m module`.
    Python,
    /// Node (`node`, `nodejs`): a script or a folder.
    Node,
    /// Another program that runs the script named after it (`ruby`, `perl`, `deno`...).
    Other,
}

/// One simple command of a command line, read: see [`read_command`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommandParts {
    /// The `NAME=value` words before it (after reserved words such as `if`).
    pub assignments: Vec<Word>,
    /// Each wrapper it runs through, in order, with its own options and the assignments after
    /// it (`["env", "-i", "X=1"]`).
    pub wrappers: Vec<Vec<Word>>,
    /// The program that runs: the first word after the assignments and wrappers.
    pub program: Word,
    /// The words after the program.
    pub args: Vec<Word>,
    /// The program's kind, when it is an interpreter (matched by file name: `/bin/bash` too).
    pub interpreter: Option<Interpreter>,
    /// The script an interpreter is given: its first argument that is not an option (nor an
    /// option's value); `None` when it runs a string (`-c`, `-e`), a module or stdin.
    pub script: Option<Word>,
    /// The module `python -m MODULE` runs.
    pub module: Option<Word>,
    /// The program is `cd` or `pushd`: later commands run in another folder.
    pub changes_dir: bool,
    /// The folder `cd`/`pushd` goes to (its first argument that is not an option); `None`
    /// with [`CommandParts::changes_dir`] is `cd` alone (home).
    pub cd_target: Option<Word>,
    /// The string a shell's `-c` runs, or `eval`'s words joined by spaces, as text (for a
    /// caller that reads it again itself, e.g. for its input redirections' targets).
    pub inline_text: Option<String>,
    /// The commands of [`CommandParts::inline_text`], read the same way, up to
    /// [`MAX_INLINE_DEPTH`] levels.
    pub inline: Vec<CommandParts>,
}

impl CommandParts {
    /// The words from the `level`th wrapper on (0: all of them, [`CommandParts::wrappers`]'
    /// length: the program and its arguments), as the command would run without the wrappers
    /// before it.
    pub fn words_from(&self, level: usize) -> Vec<&Word> {
        self.wrappers
            .iter()
            .skip(level)
            .flatten()
            .chain(std::iter::once(&self.program))
            .chain(&self.args)
            .collect()
    }

    /// Whether a wrapper only looks the program up (`command -v jq`, `command -V jq`): the
    /// program does not run, so a caller checking that it starts skips it.
    pub fn looks_up_only(&self) -> bool {
        self.wrappers.iter().any(|words| {
            words.first().is_some_and(|w| w.plain == "command")
                && words[1..].iter().any(|w| {
                    w.plain
                        .strip_prefix('-')
                        .is_some_and(|o| !o.starts_with('-') && o.contains(['v', 'V']))
                })
        })
    }

    /// The wrappers that are programs on `PATH` (`env`, `nohup`, `sudo`...), not shell
    /// builtins: what must be installed for the command to start.
    pub fn wrapper_programs(&self) -> impl Iterator<Item = &Word> {
        self.wrappers
            .iter()
            .filter_map(|words| words.first())
            .filter(|word| !BUILTIN_WRAPPERS.contains(&file_name(&word.plain)))
    }
}

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

/// Reads what `command` runs: one [`CommandParts`] per simple command that runs a program, in
/// order (a command of assignments only, and a `for`/`select`/`case` header, run none).
/// Reserved words (`if`, `then`, `!`, `{`...) and assignments before the program are
/// skipped, wrappers ([`CommandParts::wrappers`]) looked through; a shell's `-c` string and
/// `eval`'s words are read again into [`CommandParts::inline`].
///
/// ```
/// use hook_protocol::shell::{Interpreter, read_command};
/// let parts = read_command("cd hooks && A=1 nohup python3 -u check.py; bash -ec 'jq .'");
/// assert_eq!(parts[0].cd_target.as_ref().map(|w| w.plain.as_str()), Some("hooks"));
/// assert_eq!(parts[1].program.plain, "python3");
/// assert_eq!(parts[1].interpreter, Some(Interpreter::Python));
/// assert_eq!(parts[1].script.as_ref().map(|w| w.plain.as_str()), Some("check.py"));
/// assert_eq!(parts[2].inline[0].program.plain, "jq");
/// ```
pub fn read_command(command: &str) -> Vec<CommandParts> {
    read_at(command, 0)
}

/// [`read_command`] of one simple command's words (an item of
/// [`simple_commands`](super::simple_commands)): `None` when it runs no program. For a caller
/// that walks the simple commands itself (to follow `cd` across them all, headers included).
pub fn read_simple_command(words: Vec<Word>) -> Option<CommandParts> {
    read_simple(words, 0)
}

fn read_at(command: &str, depth: usize) -> Vec<CommandParts> {
    simple_commands(command)
        .into_iter()
        .filter_map(|words| read_simple(words, depth))
        .collect()
}

fn read_simple(words: Vec<Word>, depth: usize) -> Option<CommandParts> {
    let mut words = words.into_iter().peekable();
    let mut assignments = Vec::new();
    while let Some(first) = words.peek() {
        let unquoted = first.raw == first.plain;
        if unquoted && RESERVED.contains(&first.raw.as_str()) {
            words.next();
        } else if is_assignment(&first.raw) {
            assignments.extend(words.next());
        } else {
            break;
        }
    }
    let first = words.peek()?;
    if first.raw == first.plain && HEADERS.contains(&first.raw.as_str()) {
        return None;
    }
    let mut wrappers = Vec::new();
    let mut program = words.next()?;
    while wrappers.len() < MAX_WRAPPERS
        && WRAPPERS
            .iter()
            .any(|(name, _)| *name == file_name(&program.plain))
    {
        let mut wrapper = vec![program];
        // Assignments and reserved words are skipped after any wrapper too, as the `if`
        // rules always did (only `env` takes assignments, but reading `nohup A=1 x` as running
        // `x` errs toward running a guard and covering more files).
        while let Some(option) = words.peek() {
            let reserved = option.raw == option.plain && RESERVED.contains(&option.raw.as_str());
            if option.plain.starts_with('-') || is_assignment(&option.raw) || reserved {
                wrapper.extend(words.next());
            } else {
                break;
            }
        }
        wrappers.push(wrapper);
        match words.next() {
            Some(next) => program = next,
            // A wrapper alone (`exec 3>&1`, `command -v x`'s like): the wrapper runs.
            None => {
                let mut wrapper = wrappers.pop()?.into_iter();
                program = wrapper.next()?;
                let args: Vec<Word> = wrapper.collect();
                return Some(parts(assignments, wrappers, program, args, depth));
            }
        }
    }
    let args: Vec<Word> = words.collect();
    Some(parts(assignments, wrappers, program, args, depth))
}

fn parts(
    assignments: Vec<Word>,
    wrappers: Vec<Vec<Word>>,
    program: Word,
    args: Vec<Word>,
    depth: usize,
) -> CommandParts {
    let name = file_name(&program.plain);
    let interpreter = interpreter_of(name);
    let mut parts = CommandParts {
        assignments,
        wrappers,
        interpreter,
        script: None,
        module: None,
        changes_dir: false,
        cd_target: None,
        inline_text: None,
        inline: Vec::new(),
        program: program.clone(),
        args: Vec::new(),
    };
    match (name, interpreter) {
        ("cd" | "pushd", _) => {
            parts.changes_dir = true;
            parts.cd_target = args.iter().find(|a| !a.plain.starts_with('-')).cloned();
        }
        ("eval", _) => {
            let text: Vec<&str> = args.iter().map(|w| w.plain.as_str()).collect();
            parts.inline_text = Some(text.join(" "));
        }
        (_, Some(Interpreter::Shell)) => match shell_operand(&args) {
            Some(Operand::Inline(text)) => parts.inline_text = Some(text.to_owned()),
            Some(Operand::Script(word)) => parts.script = Some(word.clone()),
            _ => {}
        },
        (_, Some(Interpreter::Python)) => match python_operand(&args) {
            Some(Operand::Script(word)) => parts.script = Some(word.clone()),
            Some(Operand::Module(word)) => parts.module = Some(word),
            _ => {}
        },
        (_, Some(Interpreter::Node)) => {
            if let Some(Operand::Script(word)) = node_operand(&args) {
                parts.script = Some(word.clone());
            }
        }
        (_, Some(_)) => parts.script = args.iter().find(|a| !a.plain.starts_with('-')).cloned(),
        (_, None) => {}
    }
    if let Some(text) = &parts.inline_text
        && depth < MAX_INLINE_DEPTH
    {
        parts.inline = read_at(text, depth + 1);
    }
    parts.args = args;
    parts
}

/// What an interpreter's arguments give it to run.
enum Operand<'w> {
    /// A script (or folder) named by this word.
    Script(&'w Word),
    /// A command string, of a shell's `-c`.
    Inline(&'w str),
    /// A Python module (`-m pkg.mod`; for `-mpkg`, the word after `-m`).
    Module(Word),
    /// Code given inline in another language, or stdin: no file.
    Code,
}

/// A shell's operand: `-c STRING` (`-ec`, `-l -c` too), or its script (`-o OPT`/`+O OPT`
/// take a value).
fn shell_operand(args: &[Word]) -> Option<Operand<'_>> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.plain.as_str();
        if text == "--" {
            return iter.next().map(Operand::Script);
        }
        if text.starts_with("--") {
            continue;
        }
        if (text.starts_with('-') || text.starts_with('+')) && text.len() > 1 {
            if text.starts_with('-') && text[1..].contains('c') {
                return iter.next().map(|w| Operand::Inline(&w.plain));
            }
            if text[1..].contains(['o', 'O']) {
                iter.next();
            }
            continue;
        }
        if text == "-" {
            return Some(Operand::Code);
        }
        return Some(Operand::Script(arg));
    }
    None
}

/// Python's operand: `-m MODULE`, `-c CODE`, `-` (stdin) or the script or folder.
fn python_operand(args: &[Word]) -> Option<Operand<'_>> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.plain.as_str();
        if text == "-m" {
            return iter.next().cloned().map(Operand::Module);
        }
        if let Some(module) = text.strip_prefix("-m") {
            return Some(Operand::Module(Word {
                raw: module.to_owned(),
                plain: module.to_owned(),
            }));
        }
        match text {
            "-c" | "-" => return Some(Operand::Code),
            "--" => return iter.next().map(Operand::Script),
            "-W" | "-X" | "--check-hash-based-pycs" => {
                iter.next();
            }
            _ if text.starts_with("--") => {}
            // `-Ic CODE`: inline code.
            _ if text.starts_with('-') && text[1..].contains('c') => return Some(Operand::Code),
            _ if text.starts_with('-') => {}
            _ => return Some(Operand::Script(arg)),
        }
    }
    None
}

/// Node's operand: `-e`/`-p` code, or the script or folder (`-r MODULE` takes a value).
fn node_operand(args: &[Word]) -> Option<Operand<'_>> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.plain.as_str() {
            "-e" | "--eval" | "-p" | "--print" => return Some(Operand::Code),
            "-r" | "--require" | "--import" | "--loader" => {
                iter.next();
            }
            "--" => return iter.next().map(Operand::Script),
            text if text.starts_with('-') => {}
            _ => return Some(Operand::Script(arg)),
        }
    }
    None
}

/// The interpreter `name` (a program's file name) is, if any.
fn interpreter_of(name: &str) -> Option<Interpreter> {
    let python = name
        .strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"))
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'));
    if python {
        Some(Interpreter::Python)
    } else if SHELLS.contains(&name) {
        Some(Interpreter::Shell)
    } else if name == "node" || name == "nodejs" {
        Some(Interpreter::Node)
    } else if OTHER_INTERPRETERS.contains(&name) {
        Some(Interpreter::Other)
    } else {
        None
    }
}

/// The last `/`-separated part of `word` (`bash` for `/bin/bash`).
fn file_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
