//! What a command line runs: for each simple command, its assignments, the wrappers it is run
//! through, its program and arguments, its redirections, the command whose output it reads
//! through a pipe, and — when the program is an interpreter, `cd`, `eval` or `find -exec` —
//! the script it is given, the folder it goes to, or the commands it runs (read again,
//! bounded). One reading, used by hook-trust (which files a hook runs), `hook doctor` (which
//! programs and scripts to check), hook-config's `if` rules (which words a `Bash(...)` pattern
//! is matched against) and hook-guards' built-in guards (what a tool call's command would do),
//! so they never disagree about what runs.
//!
//! It reads text only: it never looks at the filesystem, expands a variable or runs anything.
//! Where a caller needs the filesystem (is this word a folder? is it on `PATH`?) it decides
//! from the words given here.

use std::collections::HashMap;

use super::syntax::{HEADERS, RESERVED, is_assignment};
use super::{Redirection, Word, lex};

/// A precommand wrapper: a program or builtin that runs the command after its own options
/// (and `NAME=value`s), and its own leading operands.
struct Wrapper {
    name: &'static str,
    /// Its short options that take a value: the rest of the word, or the next word when the
    /// letter ends it (`sudo -u USER`, `sudo -Eu USER`, `sudo -uUSER`).
    short_values: &'static str,
    /// Its long options that take the next word as their value when written without `=`
    /// (`sudo --user USER`).
    long_values: &'static [&'static str],
    /// How many operands of its own come before the command (`timeout 5 CMD`'s duration).
    operands: usize,
}

impl Wrapper {
    const fn new(name: &'static str) -> Wrapper {
        Wrapper {
            name,
            short_values: "",
            long_values: &[],
            operands: 0,
        }
    }

    const fn values(self, short: &'static str, long: &'static [&'static str]) -> Wrapper {
        Wrapper {
            short_values: short,
            long_values: long,
            ..self
        }
    }

    const fn operands(self, operands: usize) -> Wrapper {
        Wrapper { operands, ..self }
    }

    /// Whether option `text` (`-u`, `-Eu`, `--user`) takes the next word as its value.
    fn takes_next(&self, text: &str) -> bool {
        if let Some(long) = text.strip_prefix("--") {
            return !long.contains('=') && self.long_values.contains(&long);
        }
        let letters = text.strip_prefix('-').unwrap_or(text);
        letters
            .char_indices()
            .find(|(_, c)| self.short_values.contains(*c))
            .is_some_and(|(at, c)| at + c.len_utf8() == letters.len())
    }
}

/// Precommand wrappers: programs and builtins that run the command after them, each with how
/// its own words are read. One list for every reader: where trust, doctor,
/// the `if` rules and the guards used to keep different lists, this is their union (trust
/// covers more files, doctor checks more programs, a rule matches more often, which only makes
/// a guard run, never allows anything; a guard sees the program that runs).
const WRAPPERS: &[Wrapper] = &[
    // Runs its command with a changed environment.
    Wrapper::new("env").values("uCS", &["unset", "chdir", "split-string"]),
    // Replaces the shell with its command.
    Wrapper::new("exec").values("a", &[]),
    // Runs its command, skipping functions.
    Wrapper::new("command"),
    // Runs a shell builtin.
    Wrapper::new("builtin"),
    // Runs its command immune to hangups.
    Wrapper::new("nohup"),
    // Runs its command at another priority.
    Wrapper::new("nice").values("n", &["adjustment"]),
    // Runs its command and reports its time.
    Wrapper::new("time").values("fo", &["format", "output"]),
    // Runs its command as another user.
    Wrapper::new("sudo").values(
        "CDgpRrtTUu",
        &[
            "close-from",
            "chdir",
            "group",
            "prompt",
            "chroot",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "user",
            "host",
        ],
    ),
    // Runs its command as another user.
    Wrapper::new("doas").values("uC", &[]),
    // Runs its command with arguments read from stdin.
    Wrapper::new("xargs").values(
        "aEILnPsd",
        &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
    ),
    // Runs its command with a time limit.
    Wrapper::new("timeout")
        .values("sk", &["signal", "kill-after"])
        .operands(1),
    // Runs its command with other stream buffers.
    Wrapper::new("stdbuf").values("ioe", &["input", "output", "error"]),
    // Runs its command at another I/O priority.
    Wrapper::new("ionice").values("cnpPu", &["class", "classdata", "pid", "pgid", "uid"]),
    // Runs its command at another scheduling priority.
    Wrapper::new("chrt")
        .values("TPD", &["sched-runtime", "sched-period", "sched-deadline"])
        .operands(1),
    // Runs its command on other CPUs.
    Wrapper::new("taskset").operands(1),
    // Runs the applet named after it.
    Wrapper::new("busybox"),
];

/// The wrappers that are shell builtins or keywords, never looked up on `PATH`.
const BUILTIN_WRAPPERS: &[&str] = &["exec", "command", "builtin", "time"];

/// Shells whose `-c` string is a command line, read like the hook's own (fish's syntax is
/// not POSIX, but its simple commands read alike).
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish"];

/// Other programs that run a script named after them (Python's and Node's names are matched
/// by [`interpreter_of`]).
const OTHER_INTERPRETERS: &[&str] = &["deno", "bun", "ruby", "perl", "php", "pwsh"];

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
    /// Each wrapper it runs through, in order, with its own options (and their values), the
    /// assignments after it and its own operands (`["env", "-i", "X=1"]`, `["sudo", "-u",
    /// "root"]`, `["timeout", "5"]`).
    pub wrappers: Vec<Vec<Word>>,
    /// The program that runs: the first word after the assignments and wrappers.
    pub program: Word,
    /// The words after the program.
    pub args: Vec<Word>,
    /// Its redirections, in order (a here-document's with its body). Empty from
    /// [`read_simple_command`], which is given words only.
    pub redirections: Vec<Redirection>,
    /// The index, in the same list ([`read_command`]'s, or [`CommandParts::inline`]'s), of the
    /// command whose output it reads through a pipe: `curl -s x | sh` gives `sh` `curl`'s (the
    /// last command before the `|` that runs a program: after a group or loop, its last).
    /// Always `None` from [`read_simple_command`], which sees one command.
    pub stdin_from: Option<usize>,
    /// The program's kind, when it is an interpreter (matched by file name: `/bin/bash` too).
    pub interpreter: Option<Interpreter>,
    /// The script an interpreter is given: its first argument that is not an option (nor an
    /// option's value); `None` when it runs a string (`-c`, `-e`), a module or stdin.
    pub script: Option<Word>,
    /// The interpreter runs the program it reads on standard input, whatever is piped or
    /// redirected into it: no script, string or module (`sh`, `bash -s x`, `python3 -`).
    pub script_from_stdin: bool,
    /// The module `python -m MODULE` runs.
    pub module: Option<Word>,
    /// It is the header of a function definition (`NAME () { …; }`, `function NAME { …; }`),
    /// read from the command line: it runs nothing; [`CommandParts::program`] is the name,
    /// and [`CommandParts::inline`] the body's commands. Always `false` from
    /// [`read_simple_command`].
    pub defines_function: bool,
    /// The program is `cd` or `pushd`: later commands run in another folder.
    pub changes_dir: bool,
    /// The folder `cd`/`pushd` goes to (its first argument that is not an option); `None`
    /// with [`CommandParts::changes_dir`] is `cd` alone (home).
    pub cd_target: Option<Word>,
    /// The command line it runs, as text (for a caller that reads it again itself, e.g. for
    /// its input redirections' targets): a shell's `-c` string, `eval`'s words joined by
    /// spaces, `env -S`'s string, or the here-document or here-string a shell reads as its
    /// script (`bash <<EOF`, `sh <<< "..."`, and through a pipe: `cat <<EOF | sh`).
    pub inline_text: Option<String>,
    /// The commands it runs itself, read the same way, up to [`MAX_INLINE_DEPTH`] levels:
    /// those of [`CommandParts::inline_text`], each command `find` runs (`-exec`, `-execdir`,
    /// `-ok`, `-okdir`, up to `;` or `+`), or a function definition's body.
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

/// Reads what `command` runs: one [`CommandParts`] per simple command that runs a program, in
/// order, a substitution's before the command holding it (a command of assignments only, and
/// a `for`/`select`/`case` header, run none).
/// Reserved words (`if`, `then`, `!`, `{`...) and assignments before the program are
/// skipped, wrappers ([`CommandParts::wrappers`]) looked through; a shell's `-c` string and
/// `eval`'s words, `find -exec`'s command and a here-document a shell reads as its script
/// are read again into [`CommandParts::inline`]; [`CommandParts::stdin_from`] says which
/// command another reads through a pipe.
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
    read_simple(words, Vec::new(), 0)
}

fn read_at(command: &str, depth: usize) -> Vec<CommandParts> {
    // The command line's list (`None`) and each function body's (by its group).
    let mut lists: HashMap<Option<usize>, Vec<CommandParts>> = HashMap::new();
    // Each group's (the command line's, each substitution's and body's) last command that
    // runs one, as an index in its list.
    let mut last_run: HashMap<usize, usize> = HashMap::new();
    // Each function header: its list, its index there, its body's group.
    let mut headers: Vec<(Option<usize>, usize, usize)> = Vec::new();
    for lexeme in lex::lex(command, false).commands {
        let list_key = headers
            .iter()
            .any(|&(.., body)| body == lexeme.group)
            .then_some(lexeme.group);
        let source = lexeme
            .piped
            .then(|| last_run.get(&lexeme.group).copied())
            .flatten();
        let parts = match lexeme.body {
            Some(_) => lexeme.words.into_iter().last().map(definition),
            None => read_simple(lexeme.words, lexeme.redirections, depth),
        };
        if let Some(mut parts) = parts {
            parts.stdin_from = source;
            let list = lists.entry(list_key).or_default();
            // A shell reading its script on stdin from a command given a here-document or
            // here-string (`cat <<EOF | sh`) runs that text, as if it were its own.
            if parts.interpreter == Some(Interpreter::Shell)
                && parts.script_from_stdin
                && parts.inline_text.is_none()
                && let Some(text) = source
                    .and_then(|k| list.get(k))
                    .and_then(|from| stdin_text(&from.redirections))
            {
                if depth < MAX_INLINE_DEPTH {
                    parts.inline = read_at(&text, depth + 1);
                }
                parts.inline_text = Some(text);
            }
            if let Some(body) = lexeme.body {
                headers.push((list_key, list.len(), body));
            }
            last_run.insert(lexeme.group, list.len());
            list.push(parts);
        }
    }
    // Inner bodies first, so each is in its list before that list moves into its header.
    for (list_key, index, body) in headers.into_iter().rev() {
        let commands = lists.remove(&Some(body)).unwrap_or_default();
        if let Some(header) = lists
            .get_mut(&list_key)
            .and_then(|list| list.get_mut(index))
        {
            header.inline = commands;
        }
    }
    lists.remove(&None).unwrap_or_default()
}

fn read_simple(
    words: Vec<Word>,
    redirections: Vec<Redirection>,
    depth: usize,
) -> Option<CommandParts> {
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
        && let Some(wrapper) = WRAPPERS
            .iter()
            .find(|wrapper| wrapper.name == file_name(&program.plain))
    {
        let mut own = vec![program];
        // Assignments and reserved words are skipped after any wrapper too, as the `if`
        // rules always did (only `env` takes assignments, but reading `nohup A=1 x` as running
        // `x` errs toward running a guard and covering more files).
        let mut options = true;
        while let Some(option) = words.peek() {
            let text = option.plain.as_str();
            let reserved = option.raw == option.plain && RESERVED.contains(&option.raw.as_str());
            if options && text.starts_with('-') {
                options = text != "--";
                let takes_next = wrapper.takes_next(text);
                own.extend(words.next());
                if takes_next {
                    own.extend(words.next());
                }
            } else if is_assignment(&option.raw) || reserved {
                own.extend(words.next());
            } else {
                break;
            }
        }
        own.extend(words.by_ref().take(wrapper.operands));
        wrappers.push(own);
        match words.next() {
            Some(next) => program = next,
            // A wrapper alone (`exec 3>&1`, `command -v x`'s like): the wrapper runs.
            None => {
                let mut wrapper = wrappers.pop()?.into_iter();
                program = wrapper.next()?;
                let args: Vec<Word> = wrapper.collect();
                return Some(parts(
                    assignments,
                    wrappers,
                    (program, args),
                    redirections,
                    depth,
                ));
            }
        }
    }
    let args: Vec<Word> = words.collect();
    Some(parts(
        assignments,
        wrappers,
        (program, args),
        redirections,
        depth,
    ))
}

fn parts(
    assignments: Vec<Word>,
    wrappers: Vec<Vec<Word>>,
    (program, args): (Word, Vec<Word>),
    redirections: Vec<Redirection>,
    depth: usize,
) -> CommandParts {
    let name = file_name(&program.plain);
    let interpreter = interpreter_of(name);
    let mut parts = CommandParts {
        assignments,
        wrappers,
        interpreter,
        script: None,
        script_from_stdin: false,
        module: None,
        defines_function: false,
        changes_dir: false,
        cd_target: None,
        inline_text: None,
        inline: Vec::new(),
        program: program.clone(),
        args: Vec::new(),
        redirections,
        stdin_from: None,
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
        // `env -S 'CMD ARGS'` (left to it as a wrapper alone): the string is split into the
        // command.
        ("env", _) => parts.inline_text = env_split_string(&args),
        ("find", _) if depth < MAX_INLINE_DEPTH => {
            parts.inline = find_commands(&args)
                .filter_map(|words| read_simple(words.to_vec(), Vec::new(), depth + 1))
                .collect();
        }
        (_, Some(Interpreter::Shell)) => match shell_operand(&args) {
            Some(Operand::Inline(text)) => parts.inline_text = Some(text.to_owned()),
            Some(Operand::Script(word)) => parts.script = Some(word.clone()),
            Some(Operand::Stdin) | None => {
                parts.script_from_stdin = true;
                parts.inline_text = stdin_text(&parts.redirections);
            }
            Some(Operand::Code | Operand::Module(_)) => {}
        },
        (_, Some(Interpreter::Python)) => match python_operand(&args) {
            Some(Operand::Script(word)) => parts.script = Some(word.clone()),
            Some(Operand::Module(word)) => parts.module = Some(word),
            Some(Operand::Stdin) | None => parts.script_from_stdin = true,
            Some(Operand::Code | Operand::Inline(_)) => {}
        },
        (_, Some(Interpreter::Node)) => match node_operand(&args) {
            Some(Operand::Script(word)) => parts.script = Some(word.clone()),
            Some(Operand::Stdin) | None => parts.script_from_stdin = true,
            Some(_) => {}
        },
        (_, Some(_)) => {
            parts.script = args.iter().find(|a| !a.plain.starts_with('-')).cloned();
            parts.script_from_stdin = parts.script.is_none();
        }
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

/// The header of a function named `name`.
fn definition(name: Word) -> CommandParts {
    CommandParts {
        assignments: Vec::new(),
        wrappers: Vec::new(),
        program: name,
        args: Vec::new(),
        redirections: Vec::new(),
        stdin_from: None,
        interpreter: None,
        script: None,
        script_from_stdin: false,
        module: None,
        defines_function: true,
        changes_dir: false,
        cd_target: None,
        inline_text: None,
        inline: Vec::new(),
    }
}

/// The string `env -S STRING` (`-SSTRING`, `--split-string=STRING`) splits into its command,
/// with the words after it.
fn env_split_string(args: &[Word]) -> Option<String> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.plain.as_str();
        let string = match text {
            "-S" | "--split-string" => iter.next().map(|w| w.plain.clone())?,
            _ if text.starts_with("--split-string=") => text["--split-string=".len()..].to_owned(),
            _ if text.starts_with("-S") => text[2..].to_owned(),
            _ => continue,
        };
        let rest: Vec<&str> = iter.map(|w| w.raw.as_str()).collect();
        return Some(if rest.is_empty() {
            string
        } else {
            format!("{string} {}", rest.join(" "))
        });
    }
    None
}

/// The commands `find`'s arguments run: the words after each `-exec`, `-execdir`, `-ok` or
/// `-okdir`, up to `;` or `+` (or the end).
fn find_commands(args: &[Word]) -> impl Iterator<Item = &[Word]> {
    let mut rest = args;
    std::iter::from_fn(move || {
        let start = rest
            .iter()
            .position(|w| matches!(w.plain.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))?
            + 1;
        let after = rest.get(start..).unwrap_or_default();
        let end = after
            .iter()
            .position(|w| w.plain == ";" || w.plain == "+")
            .unwrap_or(after.len());
        let (command, next) = after.split_at(end);
        rest = next;
        Some(command)
    })
}

/// What a shell reading its script on stdin is given by its redirections: the last
/// here-document's body or here-string.
fn stdin_text(redirections: &[Redirection]) -> Option<String> {
    redirections
        .iter()
        .rev()
        .find_map(|redirection| match redirection.operator.as_str() {
            "<<" | "<<-" => redirection.body.clone(),
            "<<<" => Some(redirection.target.plain.clone()),
            _ => None,
        })
}

/// What an interpreter's arguments give it to run.
enum Operand<'w> {
    /// A script (or folder) named by this word.
    Script(&'w Word),
    /// A command string, of a shell's `-c`.
    Inline(&'w str),
    /// A Python module (`-m pkg.mod`; for `-mpkg`, the word after `-m`).
    Module(Word),
    /// Code given inline in another language: no file.
    Code,
    /// The program is read on standard input (`-`, a shell's `-s`).
    Stdin,
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
            // `-s`: the words after are the script's arguments, the script is stdin.
            if text.starts_with('-') && text[1..].contains('s') {
                return Some(Operand::Stdin);
            }
            if text[1..].contains(['o', 'O']) {
                iter.next();
            }
            continue;
        }
        if text == "-" {
            return Some(Operand::Stdin);
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
            "-c" => return Some(Operand::Code),
            "-" => return Some(Operand::Stdin),
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
            "-" => return Some(Operand::Stdin),
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
