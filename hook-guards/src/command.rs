//! What a command line runs: every program, wherever it sits — after `sudo`, `env`,
//! `command`, `xargs`, `timeout`...; in a `sh -c`/`bash -c` string, `eval` or a here-document
//! a shell reads; after `find -exec`; in `$(…)`, backquotes and `<(…)`; in each part of a
//! pipeline or list — with its arguments unquoted, every redirection, the folder `cd` left it
//! in and the command whose output it reads. The guards read this instead of the text, so
//! `rm -r -f`, `/bin/rm -fr`, `sudo -u root rm` and `bash -c 'rm -rf ~'` are the same `rm`.
//!
//! A walk over [`hook_sdk::shell::read_command`], the engine's one reading of what a command
//! runs (its wrappers, program, arguments and inner commands): this module keeps no list of
//! wrappers and lexes nothing itself. It never expands or runs anything.

use std::collections::HashMap;

use hook_sdk::shell::{self, CommandParts, Interpreter, MAX_INLINE_DEPTH, Redirection};

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
    /// Its arguments as written, quotes kept (`'~'`: a file named `~`, not the home folder).
    pub raw_args: Vec<String>,
    /// The wrappers it runs through, outermost first (`["sudo", "xargs"]`; `["find"]` for a
    /// `find -exec` command); those of a command running it are its [`Invocation::parent`]'s.
    pub through: Vec<String>,
    /// How deep it sits in `-c` strings, `eval`, here-documents and `find -exec` (0: the
    /// command line itself).
    pub depth: usize,
    /// The invocation (an index in [`Reading::invocations`]) whose inner command it is: the
    /// shell whose `-c` string, `eval` or `find -exec` runs it.
    pub parent: Option<usize>,
    /// The invocation (an index in [`Reading::invocations`]) whose output it reads through a
    /// pipe (`curl -s x | sh`: `sh`'s is `curl`'s).
    pub stdin_from: Option<usize>,
    /// Its redirections, in order (a here-document's with its body).
    pub redirections: Vec<Redirection>,
    /// The program is an interpreter (a shell, Python, Node...).
    pub interpreter: Option<Interpreter>,
    /// The script an interpreter is given (`sh install.sh`, `bash <(curl …)`), unquoted.
    pub script: Option<String>,
    /// The interpreter runs what it reads on standard input (`sh`, `bash -s`, `python3 -`).
    pub script_from_stdin: bool,
    /// The `cd`/`pushd` targets before it, in order, as [`Invocation::path_args`] reads them
    /// (`None`: `cd` alone, home; `-`: `cd -`, back to the folder before): the folder it runs
    /// in is the session's, moved through each. At most 32: past them, the last is `-`.
    pub cd: Vec<Option<String>>,
    /// It is a function definition's header (`bomb() {`): [`Invocation::program`] is the
    /// function's name, and nothing runs.
    pub defines_function: bool,
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
        operands(&self.args)
    }

    /// Its arguments as paths are read from them: unquoted, but a quoted `~` at the start
    /// stays a name (`'~'` and `"~/x"` become `./~` and `./~/x`), as the shell expands only an
    /// unquoted one.
    pub fn path_args(&self) -> Vec<String> {
        self.args
            .iter()
            .zip(&self.raw_args)
            .map(|(plain, raw)| path_word(raw, plain))
            .collect()
    }

    /// The operands of [`Invocation::path_args`].
    pub fn path_operands(&self) -> Vec<String> {
        operands(&self.path_args())
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
}

/// A word as a path is read from it: unquoted, but a quoted `~` at the start stays a name.
fn path_word(raw: &str, plain: &str) -> String {
    if plain.starts_with('~') && !raw.starts_with('~') {
        format!("./{plain}")
    } else {
        plain.to_owned()
    }
}

/// The arguments of `args` that are not options (everything after `--`).
fn operands(args: &[String]) -> Vec<&str> {
    let mut operands = Vec::new();
    let mut after_dashes = false;
    for arg in args {
        if after_dashes || !arg.starts_with('-') || arg == "-" {
            operands.push(arg.as_str());
        } else if arg == "--" {
            after_dashes = true;
        }
    }
    operands
}

/// What a command line runs, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reading {
    /// Every program it runs, a substitution's before the command holding it, an inner
    /// command (`-c`, `eval`, `find -exec`) right after the command running it.
    pub invocations: Vec<Invocation>,
    /// Every redirection, those of commands that run no program (`done < file`) and of
    /// `-c` strings, `eval` and here-documents a shell reads too.
    pub redirections: Vec<Redirection>,
    /// The words `for` and `select` loops go over (`~/.ssh/*` of `for f in ~/.ssh/*`),
    /// unquoted, those of inner command lines too: what the loops' bodies get at run time.
    pub loop_words: Vec<String>,
    /// The folders the line's commands run in, each as the `cd` targets leading there (as
    /// [`Invocation::cd`] reads them): the session's (`[]`) first, then one after each `cd`
    /// (the first 32).
    pub folders: Vec<Vec<Option<String>>>,
    /// Why part of it cannot be read (a program named by a variable...), if so.
    pub unreadable: Option<String>,
}

impl Reading {
    /// The invocations the one at `index` runs itself: those of its `-c` string, `eval`
    /// words, the here-document it reads as a script, its `find -exec` commands (not those
    /// they run in turn).
    pub fn run_by(&self, index: usize) -> impl Iterator<Item = &Invocation> {
        let depth = self.invocations.get(index).map_or(0, |i| i.depth);
        // They come right after it, with what they run in turn: the deeper ones.
        self.invocations
            .iter()
            .skip(index + 1)
            .take_while(move |invocation| invocation.depth > depth)
            .filter(move |invocation| invocation.parent == Some(index))
    }

    /// The redirections of commands that run no program (`done < ~/.netrc`, `> /dev/sda`):
    /// those of [`Reading::redirections`] no invocation holds, which may be in any of
    /// [`Reading::folders`].
    pub fn loose_redirections(&self) -> Vec<&Redirection> {
        fn key(r: &Redirection) -> (&str, &str, Option<&str>) {
            (&r.operator, &r.target.raw, r.body.as_deref())
        }
        let mut held: HashMap<_, usize> = HashMap::new();
        for redirection in self.invocations.iter().flat_map(|i| &i.redirections) {
            *held.entry(key(redirection)).or_default() += 1;
        }
        self.redirections
            .iter()
            .filter(|redirection| match held.get_mut(&key(redirection)) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            })
            .collect()
    }
}

/// Reads `command`.
pub fn read(command: &str) -> Reading {
    let mut reading = Reading::default();
    if !shell::is_complete(command) {
        reading.unreadable = Some("a quote or `$(…)` is not closed".to_owned());
    }
    // Every redirection of the line, those of commands that run no program too (`done <
    // file`, `> /dev/sda`), and every loop's words; an inner command line's are added where
    // it is read.
    reading.redirections = shell::redirections(command);
    reading.loop_words = loop_words(command);
    reading.folders.push(Vec::new());
    let scope = Scope {
        through: Vec::new(),
        cd: Vec::new(),
        parent: None,
        depth: 0,
    };
    walk(&shell::read_command(command), &scope, &mut reading);
    reading
}

/// How many `cd` targets an invocation keeps ([`Invocation::cd`]), and how many folders a
/// reading lists ([`Reading::folders`], after the session's): each invocation holds its own
/// copy, so a line of thousands of `cd`s stays linear.
const MAX_CD: usize = 32;

/// Where a list of commands runs.
struct Scope {
    through: Vec<String>,
    cd: Vec<Option<String>>,
    parent: Option<usize>,
    depth: usize,
}

fn walk(list: &[CommandParts], scope: &Scope, reading: &mut Reading) {
    let mut cd = scope.cd.clone();
    // The invocation each item of `list` became, for the pipes between them.
    let mut index_of: Vec<usize> = Vec::with_capacity(list.len());
    for parts in list {
        let mut through = scope.through.clone();
        through.extend(
            parts
                .wrappers
                .iter()
                .filter_map(|words| words.first())
                .map(|word| file_name(&word.plain).to_owned()),
        );
        let written = parts.program.plain.clone();
        if !parts.defines_function
            && (written.is_empty() || written.starts_with('$') || written.contains('`'))
        {
            reading.unreadable.get_or_insert_with(|| {
                format!("the program `{written}` is named by an expansion, known only when it runs")
            });
        }
        let program = file_name(&written).to_owned();
        let index = reading.invocations.len();
        index_of.push(index);
        reading.invocations.push(Invocation {
            written,
            args: parts.args.iter().map(|w| w.plain.clone()).collect(),
            raw_args: parts.args.iter().map(|w| w.raw.clone()).collect(),
            through,
            depth: scope.depth,
            parent: scope.parent,
            stdin_from: parts.stdin_from.and_then(|i| index_of.get(i).copied()),
            redirections: parts.redirections.clone(),
            interpreter: parts.interpreter,
            script: parts.script.as_ref().map(|w| w.plain.clone()),
            script_from_stdin: parts.script_from_stdin,
            cd: cd.clone(),
            defines_function: parts.defines_function,
            program: program.clone(),
        });
        let runs_more = parts.inline_text.is_some()
            || (program == "find" && parts.args.iter().any(|a| a.plain.starts_with("-exec")));
        if runs_more && parts.inline.is_empty() && scope.depth >= MAX_INLINE_DEPTH {
            reading.unreadable.get_or_insert_with(|| {
                format!("commands nested more than {MAX_INLINE_DEPTH} levels deep")
            });
        }
        if !parts.inline.is_empty() {
            // A `-c` string's, `eval`'s, a here-document's (a function's body is this line's).
            if let Some(text) = &parts.inline_text {
                reading.redirections.extend(shell::redirections(text));
                reading.loop_words.extend(loop_words(text));
            }
            let inner = Scope {
                through: if program == "find" {
                    vec![program]
                } else {
                    Vec::new()
                },
                cd: cd.clone(),
                parent: Some(index),
                depth: scope.depth + 1,
            };
            walk(&parts.inline, &inner, reading);
        }
        if parts.changes_dir {
            let target = match &parts.cd_target {
                Some(word) => Some(path_word(&word.raw, &word.plain)),
                // `cd -`: back to the folder before, known only when it runs.
                None if parts.args.iter().any(|a| a.plain == "-") => Some("-".to_owned()),
                None => None,
            };
            if cd.len() < MAX_CD {
                cd.push(target);
            } else {
                // Past the bound the folder is not followed: known only when it runs.
                cd[MAX_CD - 1] = Some("-".to_owned());
            }
            if reading.folders.len() <= MAX_CD {
                reading.folders.push(cd.clone());
            }
        }
    }
}

/// The words `command`'s loops go over, unquoted.
fn loop_words(command: &str) -> Vec<String> {
    shell::loop_words(command)
        .into_iter()
        .map(|word| word.plain)
        .collect()
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
            "echo \"`rm -rf ~`\"",
            "find ~ -exec rm -rf {} +",
            "ls | xargs -n 1 rm -rf",
            "true && timeout 5 nice -n 3 rm -rf ~",
            "bash <<'EOF'\nrm -rf ~\nEOF",
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
    fn inner_commands_know_who_runs_them_and_pipes_join_them() {
        let reading = read("cd /tmp && sudo bash -c 'curl -s x | sh'; cd; ls");
        let names: Vec<&str> = reading
            .invocations
            .iter()
            .map(|i| i.program.as_str())
            .collect();
        assert_eq!(names, ["cd", "bash", "curl", "sh", "cd", "ls"]);
        let sh = &reading.invocations[3];
        assert_eq!((sh.parent, sh.stdin_from, sh.depth), (Some(1), Some(2), 1));
        assert!(reading.invocations[1].elevated() && sh.script_from_stdin);
        assert_eq!(sh.cd, [Some("/tmp".to_owned())]);
        assert_eq!(reading.invocations[5].cd, [Some("/tmp".to_owned()), None]);
        assert_eq!(reading.folders.len(), 3);
        assert_eq!(read("cd - && ls").invocations[1].cd, [Some("-".to_owned())]);
        // Thousands of `cd`s: each invocation keeps a bounded list, the last unknown.
        let many = read(&"cd a; ".repeat(20_000));
        let last = many.invocations.last().expect("a cd");
        assert_eq!(last.cd.len(), 32);
        assert_eq!(last.cd.last(), Some(&Some("-".to_owned())));
        assert_eq!(many.folders.len(), 33);
    }

    #[test]
    fn loop_words_loose_redirections_and_inner_commands_are_kept() {
        let reading = read(
            "for f in ~/.ssh/*; do cat \"$f\" >> out; done < list; bash -c 'for g in a; do :; done'; find . -exec cat {} +",
        );
        assert_eq!(reading.loop_words, ["~/.ssh/*", "a"]);
        let loose: Vec<&str> = reading
            .loose_redirections()
            .iter()
            .map(|r| r.target.plain.as_str())
            .collect();
        assert_eq!(loose, ["list"]);
        let find = reading
            .invocations
            .iter()
            .position(|i| i.program == "find")
            .expect("find");
        let inner: Vec<&str> = reading.run_by(find).map(|i| i.program.as_str()).collect();
        assert_eq!(inner, ["cat"]);
    }

    #[test]
    fn a_program_named_by_a_variable_is_unreadable() {
        assert!(read("$RM -rf /").unreadable.is_some());
        assert!(read("echo 'open").unreadable.is_some());
        assert!(read("rm -rf ./build").unreadable.is_none());
        assert!(
            read("git commit -m \"$(cat <<'EOF'\nIt's done\nEOF\n)\"")
                .unreadable
                .is_none()
        );
        let deep = (0..8).fold("rm -rf ~".to_owned(), |inner, _| {
            format!("sh -c '{}'", inner.replace('\'', r"'\''"))
        });
        assert!(read(&deep).unreadable.is_some());
    }
}
