//! What a command line runs: every program, wherever it sits — after `sudo`, `env`,
//! `command`, `xargs`, `timeout`...; in a `sh -c`/`bash -c` string or `eval`; after
//! `find -exec`; in `$(…)` and backticks; in each part of a pipeline or list — with its
//! arguments unquoted, and every redirection. The guards read this instead of the text, so
//! `rm -r -f`, `/bin/rm -fr`, `sudo rm` and `bash -c 'rm -rf ~'` are the same `rm`.
//!
//! Built on [`hook_sdk::shell`], the engine's one shell reader: it never expands or runs
//! anything.

use hook_sdk::shell::{self, Redirection, Word};

/// How deep `-c` strings, `eval` and `find -exec` are read.
const MAX_DEPTH: usize = 6;

/// Wrappers: programs that run the command after their options, each with its options that
/// take a value (`sudo -u USER`), and how many leading operands are theirs (`timeout 5`).
const WRAPPERS: &[(&str, &[&str], usize)] = &[
    (
        "sudo",
        &[
            "-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R",
        ],
        0,
    ),
    ("doas", &["-u", "-C"], 0),
    ("env", &["-u", "-C", "-S", "--unset", "--chdir"], 0),
    ("command", &[], 0),
    ("builtin", &[], 0),
    ("exec", &["-a"], 0),
    ("nohup", &[], 0),
    ("nice", &["-n"], 0),
    ("ionice", &["-c", "-n", "-p"], 0),
    ("time", &["-f", "-o"], 0),
    ("timeout", &["-s", "-k", "--signal", "--kill-after"], 1),
    ("stdbuf", &["-i", "-o", "-e"], 0),
    ("chrt", &[], 1),
    ("taskset", &[], 1),
    (
        "xargs",
        &[
            "-n",
            "-I",
            "-L",
            "-P",
            "-s",
            "-d",
            "-E",
            "-a",
            "--max-args",
            "--replace",
            "--max-lines",
            "--max-procs",
            "--delimiter",
            "--arg-file",
        ],
        0,
    ),
];

/// Shells whose `-c` string is a command line.
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish"];

/// One program a command line runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Invocation {
    /// The program's file name (`rm` for `/bin/rm`).
    pub program: String,
    /// The program as written, unquoted (`/bin/rm`).
    pub written: String,
    /// Its arguments, unquoted (expansions as written).
    pub args: Vec<String>,
    /// The wrappers it runs through, outermost first (`["sudo", "xargs"]`).
    pub through: Vec<String>,
    /// How deep it sits in `-c` strings, `eval` and `find -exec` (0: the command line itself).
    pub depth: usize,
}

impl Invocation {
    /// Whether it runs as another user (through `sudo` or `doas`).
    pub fn elevated(&self) -> bool {
        self.through.iter().any(|w| w == "sudo" || w == "doas")
    }

    /// Its short options merged and split alike: for `-rf`, `-r -f`, each letter once.
    pub fn short_flags(&self) -> Vec<char> {
        let mut flags: Vec<char> = Vec::new();
        for arg in self.args.iter().take_while(|a| *a != "--") {
            if let Some(letters) = arg.strip_prefix('-')
                && !letters.starts_with('-')
            {
                for letter in letters.chars().filter(char::is_ascii_alphabetic) {
                    if !flags.contains(&letter) {
                        flags.push(letter);
                    }
                }
            }
        }
        flags
    }

    /// Whether it has long option `--name` (or `--name=...`).
    pub fn has_long(&self, name: &str) -> bool {
        self.args.iter().take_while(|a| *a != "--").any(|arg| {
            arg.strip_prefix("--")
                .is_some_and(|rest| rest == name || rest.starts_with(&format!("{name}=")))
        })
    }

    /// Its operands: the arguments that are not options (everything after `--`).
    pub fn operands(&self) -> Vec<&str> {
        let mut operands = Vec::new();
        let mut after_dashes = false;
        for arg in &self.args {
            if after_dashes || !arg.starts_with('-') || arg == "-" {
                operands.push(arg.as_str());
            } else if arg == "--" {
                after_dashes = true;
            }
        }
        operands
    }
}

/// What a command line runs, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reading {
    /// Every program it runs, in order of appearance.
    pub invocations: Vec<Invocation>,
    /// Every redirection, in `-c` strings too.
    pub redirections: Vec<Redirection>,
    /// Why part of it cannot be read (a program named by a variable...), if so.
    pub unreadable: Option<String>,
}

/// Reads `command`.
pub fn read(command: &str) -> Reading {
    let mut reading = Reading::default();
    read_into(command, 0, &mut reading);
    reading
}

fn read_into(command: &str, depth: usize, reading: &mut Reading) {
    if depth > MAX_DEPTH {
        reading
            .unreadable
            .get_or_insert_with(|| format!("commands nested more than {MAX_DEPTH} levels deep"));
        return;
    }
    if has_open_quote(command) {
        reading
            .unreadable
            .get_or_insert_with(|| "a quote is not closed".to_owned());
    }
    reading.redirections.extend(shell::redirections(command));
    for words in shell::simple_commands(command) {
        let Some(parts) = shell::read_simple_command(words) else {
            continue;
        };
        let words: Vec<String> = parts
            .words_from(0)
            .into_iter()
            .map(|w: &Word| w.plain.clone())
            .collect();
        read_words(&words, Vec::new(), depth, reading);
    }
}

/// Reads one simple command's words (assignments and reserved words already skipped).
fn read_words(words: &[String], mut through: Vec<String>, depth: usize, reading: &mut Reading) {
    let mut rest = words;
    while let Some((first, after)) = rest.split_first() {
        let name = file_name(first);
        let Some((_, valued, operands)) = WRAPPERS.iter().find(|(w, ..)| *w == name) else {
            break;
        };
        through.push(name.to_owned());
        let mut index = 0;
        while let Some(word) = after.get(index) {
            if word == "--" {
                index += 1;
                break;
            }
            let is_option = word.starts_with('-') && word.len() > 1;
            if is_option {
                index += if valued.contains(&word.as_str()) {
                    2
                } else {
                    1
                };
            } else if name == "env" && word.contains('=') {
                index += 1;
            } else {
                break;
            }
        }
        index += operands;
        rest = after.get(index..).unwrap_or(&[]);
    }
    let Some((program, args)) = rest.split_first() else {
        return;
    };
    if program.starts_with('$') || program.contains('`') || program.is_empty() {
        reading.unreadable.get_or_insert_with(|| {
            format!("the program `{program}` is named by an expansion, known only when it runs")
        });
    }
    let name = file_name(program).to_owned();
    reading.invocations.push(Invocation {
        program: name.clone(),
        written: program.clone(),
        args: args.to_vec(),
        through: through.clone(),
        depth,
    });
    if SHELLS.contains(&name.as_str()) {
        if let Some(text) = shell_inline(args) {
            read_into(text, depth + 1, reading);
        }
    } else if name == "eval" {
        read_into(&args.join(" "), depth + 1, reading);
    } else if name == "find" {
        let mut index = 0;
        while index < args.len() {
            if matches!(
                args[index].as_str(),
                "-exec" | "-execdir" | "-ok" | "-okdir"
            ) {
                let end = args[index + 1..]
                    .iter()
                    .position(|a| a == ";" || a == "+")
                    .map_or(args.len(), |p| index + 1 + p);
                let mut inner = through.clone();
                inner.push("find".to_owned());
                if depth < MAX_DEPTH {
                    read_words(&args[index + 1..end], inner, depth + 1, reading);
                }
                index = end;
            }
            index += 1;
        }
    }
}

/// A shell's `-c` string (`-c`, `-ec`, `-lc`...).
fn shell_inline(args: &[String]) -> Option<&str> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg.starts_with("--") {
            continue;
        }
        match arg.strip_prefix('-') {
            Some(letters) if letters.contains('c') => return iter.next().map(String::as_str),
            Some(_) => {}
            None => return None,
        }
    }
    None
}

/// Whether `command` ends inside a quote.
fn has_open_quote(command: &str) -> bool {
    let mut single = false;
    let mut double = false;
    let mut escaped = false;
    for c in command.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
    }
    single || double
}

/// The last `/`-separated part of `word`.
pub fn file_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn every_form_of_one_program_reads_as_it() {
        for command in [
            "rm -rf ~",
            "rm -r -f ~",
            "/bin/rm -fr ~",
            "sudo -u root rm -rf ~",
            "env A=1 rm -rf ~",
            "bash -c 'rm -rf ~'",
            "echo $(rm -rf ~)",
            "find ~ -exec rm -rf {} +",
            "ls | xargs -n 1 rm -rf",
            "true && timeout 5 nice -n 3 rm -rf ~",
        ] {
            let reading = read(command);
            let rm = reading
                .invocations
                .iter()
                .find(|i| i.program == "rm")
                .unwrap_or_else(|| panic!("{command}: no rm in {reading:?}"));
            assert!(rm.short_flags().contains(&'r'), "{command}: {rm:?}");
        }
    }

    #[test]
    fn a_program_named_by_a_variable_is_unreadable() {
        assert!(read("$RM -rf /").unreadable.is_some());
        assert!(read("echo 'open").unreadable.is_some());
        assert!(read("rm -rf ./build").unreadable.is_none());
    }
}
