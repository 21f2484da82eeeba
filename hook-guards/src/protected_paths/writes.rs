//! The files a shell command writes: its output redirections, and the operands of the
//! programs that write, delete, move or link files (`tee`, `sed -i`, `cp`, `mv`, `rm`,
//! `truncate`, `dd of=`, `find -delete`, `git rm`...), wherever they run (after `sudo`,
//! `env`, `xargs`; in `sh -c` strings, `$(…)`, `find -exec`; in each part of a pipeline or
//! list). Each path is read against the folder the command is in at that point (`cd` is
//! followed).

use std::path::{Path, PathBuf};

use crate::command::{self, file_name};
use crate::{Call, paths};

use super::rules::Reach;

/// One file a call writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    /// The path, absolute; with `tail_only`, only what follows an expansion (`$DIR/.git/x`
    /// gives `/.git/x`).
    pub(super) path: PathBuf,
    /// The path is the end of one known only when the command runs.
    pub(super) tail_only: bool,
    /// How far the write reaches.
    pub(super) reach: Reach,
    /// What writes it, as the start of a sentence (`` `rm` deletes ``).
    pub(super) verb: String,
}

/// A file a program's arguments name, before it is made absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Raw {
    word: String,
    reach: Reach,
    verb: String,
}

impl Raw {
    fn new(word: impl Into<String>, reach: Reach, verb: impl Into<String>) -> Raw {
        Raw {
            word: word.into(),
            reach,
            verb: verb.into(),
        }
    }
}

/// How many folders a command's `cd`s are followed into (redirections are read against each).
const MAX_FOLDERS: usize = 16;

/// The files `command` writes, and why part of it cannot be read, if so.
pub(super) fn of_command(command: &str, call: &Call<'_>) -> (Vec<Target>, Option<String>) {
    let reading = command::read(command);
    let mut folder = call.cwd.to_path_buf();
    let mut folders = vec![folder.clone()];
    let mut targets = Vec::new();
    for invocation in &reading.invocations {
        if matches!(invocation.program.as_str(), "cd" | "pushd") {
            let next = match invocation.operands().first() {
                None => call.home.map(Path::to_path_buf),
                Some(&"-") => None,
                Some(word) => absolute(word, &folder, call),
            };
            if let Some(next) = next {
                if !folders.contains(&next) && folders.len() < MAX_FOLDERS {
                    folders.push(next.clone());
                }
                folder = next;
            }
            continue;
        }
        for raw in writes(&invocation.program, &invocation.args, true) {
            targets.extend(resolve(raw, &folder, call));
        }
    }
    // A redirection is not tied to its command here: it is read against every folder the
    // command goes to.
    for redirection in reading.redirections.iter().filter(|r| r.writes_file()) {
        for folder in &folders {
            let verb = format!("a `{}` redirection writes", redirection.operator);
            let raw = Raw::new(redirection.target.plain.clone(), Reach::Exact, verb);
            targets.extend(resolve(raw, folder, call));
        }
    }
    (targets, reading.unreadable)
}

/// `word` made absolute against `folder`.
fn absolute(word: &str, folder: &Path, call: &Call<'_>) -> Option<PathBuf> {
    paths::absolute(
        word,
        &Call {
            tool: call.tool,
            cwd: folder,
            home: call.home,
        },
    )
}

/// `raw` as a target: its path made absolute against `folder`, or, when it holds an
/// expansion, what follows the last one (`None` when nothing does).
fn resolve(raw: Raw, folder: &Path, call: &Call<'_>) -> Option<Target> {
    if raw.word.is_empty() {
        return None;
    }
    // A shell glob in the last component (`rm *.lock`, `rm -rf .git*`, not `rm -rf
    // target/*`): what it could match.
    let name = file_name(&raw.word);
    let reach = if matches!(raw.reach, Reach::Exact | Reach::Holds(None))
        && name.contains(['*', '?'])
        && name.chars().any(|c| c != '*')
    {
        Reach::Glob(false)
    } else {
        raw.reach
    };
    if let Some(path) = absolute(&raw.word, folder, call) {
        return Some(Target {
            path,
            tail_only: false,
            reach,
            verb: raw.verb,
        });
    }
    let parts: Vec<&str> = raw.word.split('/').collect();
    let last_unknown = parts
        .iter()
        .rposition(|part| part.contains(['$', '`']) || part.starts_with('~'))?;
    let tail = &parts[last_unknown + 1..];
    if tail.iter().all(|part| part.is_empty()) || tail.contains(&"..") {
        return None;
    }
    Some(Target {
        path: paths::normal(&Path::new("/").join(tail.join("/"))),
        tail_only: true,
        reach,
        verb: raw.verb,
    })
}

/// A program's options and operands, read with the options that take a value.
#[derive(Debug, Default)]
struct Parsed {
    /// Each option (`-i`, `--in-place`) with its value, if it has one.
    options: Vec<(String, Option<String>)>,
    /// The other arguments.
    operands: Vec<String>,
}

impl Parsed {
    /// Reads `args`: `valued` short options take the rest of their cluster or the next
    /// argument, `attached` ones the rest of their cluster only (`sed -i.bak`), `long` ones
    /// `--name=value` or the next argument.
    fn read(args: &[String], valued: &str, attached: &str, long: &[&str]) -> Parsed {
        let mut parsed = Parsed::default();
        let mut index = 0;
        while let Some(arg) = args.get(index) {
            index += 1;
            if arg == "--" {
                parsed.operands.extend(args[index..].iter().cloned());
                break;
            }
            if let Some(name) = arg.strip_prefix("--") {
                let (name, value) = match name.split_once('=') {
                    Some((name, value)) => (name, Some(value.to_owned())),
                    None if long.contains(&name) => {
                        index += 1;
                        (name, args.get(index - 1).cloned())
                    }
                    None => (name, None),
                };
                parsed.options.push((format!("--{name}"), value));
            } else if let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.is_empty()) {
                for (at, letter) in cluster.char_indices() {
                    let rest = &cluster[at + letter.len_utf8()..];
                    if valued.contains(letter) {
                        let value = if rest.is_empty() {
                            index += 1;
                            args.get(index - 1).cloned()
                        } else {
                            Some(rest.to_owned())
                        };
                        parsed.options.push((format!("-{letter}"), value));
                        break;
                    }
                    if attached.contains(letter) {
                        parsed
                            .options
                            .push((format!("-{letter}"), Some(rest.to_owned())));
                        break;
                    }
                    parsed.options.push((format!("-{letter}"), None));
                }
            } else {
                parsed.operands.push(arg.clone());
            }
        }
        parsed
    }

    fn has(&self, names: &[&str]) -> bool {
        self.options
            .iter()
            .any(|(name, _)| names.contains(&name.as_str()))
    }

    fn values<'a>(&'a self, names: &'a [&str]) -> impl Iterator<Item = &'a str> {
        self.options
            .iter()
            .filter(move |(name, _)| names.contains(&name.as_str()))
            .filter_map(|(_, value)| value.as_deref())
    }

    /// The operands but the first when no option in `given` gave it (`sed SCRIPT FILE...`).
    fn files_after_script(&self, given: &[&str]) -> &[String] {
        if self.has(given) {
            &self.operands
        } else {
            self.operands.get(1..).unwrap_or(&[])
        }
    }
}

/// Every file `program` writes with `args`. `exec`: whether `find -exec` is read (not in a
/// `find`'s own `-exec`).
fn writes(program: &str, args: &[String], exec: bool) -> Vec<Raw> {
    let each = |files: &[String], reach: Reach, verb: &str| -> Vec<Raw> {
        files
            .iter()
            .map(|file| Raw::new(file.clone(), reach.clone(), verb))
            .collect()
    };
    match program {
        "tee" | "sponge" => {
            let parsed = Parsed::read(args, "", "", &[]);
            each(
                &parsed.operands,
                Reach::Exact,
                &format!("`{program}` writes"),
            )
        }
        "rm" => {
            let parsed = Parsed::read(args, "", "", &[]);
            let reach = if parsed.has(&["-r", "-R", "--recursive"]) {
                Reach::Holds(None)
            } else {
                Reach::Exact
            };
            each(&parsed.operands, reach, "`rm` deletes")
        }
        "unlink" | "rmdir" => {
            let parsed = Parsed::read(args, "", "", &[]);
            each(
                &parsed.operands,
                Reach::Exact,
                &format!("`{program}` deletes"),
            )
        }
        "shred" => {
            let parsed = Parsed::read(args, "ns", "", &["iterations", "size", "random-source"]);
            each(&parsed.operands, Reach::Exact, "`shred` overwrites")
        }
        "truncate" => {
            let parsed = Parsed::read(args, "sr", "", &["size", "reference"]);
            each(&parsed.operands, Reach::Exact, "`truncate` rewrites")
        }
        "touch" => {
            let parsed = Parsed::read(args, "dtr", "", &["date", "reference"]);
            each(&parsed.operands, Reach::Exact, "`touch` writes")
        }
        "mkdir" => {
            let parsed = Parsed::read(args, "m", "", &["mode"]);
            each(&parsed.operands, Reach::Exact, "`mkdir` creates")
        }
        "chmod" => {
            let parsed = Parsed::read(args, "", "", &["reference"]);
            // `chmod -x FILE`: the mode reads as options; otherwise it is the first operand.
            let mode_as_option = parsed
                .options
                .iter()
                .any(|(name, _)| name.len() == 2 && name.ends_with(['r', 'w', 'x', 'X', 's', 't']));
            let files = if mode_as_option {
                &parsed.operands[..]
            } else {
                parsed.files_after_script(&["--reference"])
            };
            each(files, Reach::Exact, "`chmod` changes the mode of")
        }
        "chown" | "chgrp" => {
            let parsed = Parsed::read(args, "", "", &["reference"]);
            let files = parsed.files_after_script(&["--reference"]);
            each(
                files,
                Reach::Exact,
                &format!("`{program}` changes the owner of"),
            )
        }
        "dd" => args
            .iter()
            .filter_map(|arg| arg.strip_prefix("of="))
            .map(|file| Raw::new(file, Reach::Exact, "`dd` writes"))
            .collect(),
        "sed" => {
            let parsed = Parsed::read(args, "efl", "i", &["expression", "file", "line-length"]);
            if !parsed.has(&["-i", "--in-place"]) {
                return Vec::new();
            }
            let files = parsed.files_after_script(&["-e", "-f", "--expression", "--file"]);
            each(files, Reach::Exact, "`sed -i` edits")
        }
        "perl" | "ruby" => {
            let parsed = Parsed::read(args, "eEMmrICF", "il0xdDTWK", &[]);
            if !parsed.has(&["-i"]) {
                return Vec::new();
            }
            let files = parsed.files_after_script(&["-e", "-E"]);
            each(files, Reach::Exact, &format!("`{program} -i` edits"))
        }
        "awk" | "gawk" => {
            let parsed = Parsed::read(args, "fvFieEl", "", &["include", "file", "source"]);
            let in_place = parsed
                .values(&["-i", "--include"])
                .any(|value| matches!(value, "inplace" | "inplace.awk"));
            if !in_place {
                return Vec::new();
            }
            let files: Vec<String> = parsed
                .files_after_script(&["-f", "-e", "-E", "--file", "--source"])
                .iter()
                .filter(|file| !file.contains('='))
                .cloned()
                .collect();
            each(&files, Reach::Exact, "`awk -i inplace` edits")
        }
        "ed" | "ex" | "vi" | "vim" | "nvim" | "nano" | "emacs" => {
            let parsed = Parsed::read(args, "cSuUTiWwsq", "", &["cmd", "eval"]);
            let files: Vec<String> = parsed
                .operands
                .iter()
                .filter(|file| !file.starts_with('+'))
                .cloned()
                .collect();
            each(&files, Reach::Exact, &format!("`{program}` edits"))
        }
        "patch" => {
            let parsed = Parsed::read(
                args,
                "BDFgioprVYzd",
                "",
                &["input", "output", "strip", "directory"],
            );
            let mut files: Vec<String> = parsed.operands.first().cloned().into_iter().collect();
            files.extend(parsed.values(&["-o", "--output"]).map(str::to_owned));
            each(&files, Reach::Exact, "`patch` writes")
        }
        "curl" => {
            let parsed = Parsed::read(args, "odHXuAebcDFKmrTwxyYzECPQtU", "", &["output"]);
            let files: Vec<String> = parsed
                .values(&["-o", "--output"])
                .map(str::to_owned)
                .collect();
            each(&files, Reach::Exact, "`curl -o` writes")
        }
        "wget" => {
            let parsed = Parsed::read(args, "OoaPeUtTwQlAR", "", &["output-document"]);
            let files: Vec<String> = parsed
                .values(&["-O", "-o", "-a", "--output-document"])
                .filter(|file| *file != "-")
                .map(str::to_owned)
                .collect();
            each(&files, Reach::Exact, "`wget` writes")
        }
        "cp" | "mv" | "ln" | "install" | "rsync" => copies(program, args),
        "find" => find(args, exec),
        "git" => git(args),
        _ => Vec::new(),
    }
}

/// `cp`, `mv`, `ln`, `install`, `rsync`: the destination, and each source's name in it when
/// it is a folder; `mv` also moves its sources away, and a link to a protected path is a way
/// to write it.
fn copies(program: &str, args: &[String]) -> Vec<Raw> {
    let (valued, long): (&str, &[&str]) = match program {
        "install" => (
            "mogtS",
            &["mode", "owner", "group", "target-directory", "suffix"],
        ),
        "rsync" => ("efBT", &["rsh", "filter", "exclude", "include"]),
        _ => ("tS", &["target-directory", "suffix"]),
    };
    let parsed = Parsed::read(args, valued, "", long);
    let verb = format!("`{program}` writes");
    if program == "install" && parsed.has(&["-d", "--directory"]) {
        return parsed
            .operands
            .iter()
            .map(|dir| Raw::new(dir.clone(), Reach::Exact, "`install -d` creates"))
            .collect();
    }
    let no_folder = program != "rsync" && parsed.has(&["-T", "--no-target-directory"]);
    let target = if program == "rsync" {
        None
    } else {
        parsed.values(&["-t", "--target-directory"]).next()
    };
    let (destination, sources, folder): (String, &[String], bool) = match target {
        Some(dir) => (dir.to_owned(), &parsed.operands, true),
        None => match parsed.operands.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                (last.clone(), rest, rest.len() > 1 || names_folder(last))
            }
            Some(_) if program == "ln" => (".".to_owned(), &parsed.operands, true),
            _ => return Vec::new(),
        },
    };
    let mut raws = vec![Raw::new(destination.clone(), Reach::Exact, verb.clone())];
    if folder && !no_folder {
        for source in sources {
            let name = file_name(source.trim_end_matches('/'));
            // A source's name, when it is one (not `src/`, whose content is copied, nor
            // `*.json`, whose names are not known).
            if !matches!(name, "" | "." | "..")
                && !source.ends_with('/')
                && !name.contains(['*', '?'])
            {
                let inside = format!("{}/{name}", destination.trim_end_matches('/'));
                raws.push(Raw::new(inside, Reach::Exact, verb.clone()));
            }
        }
    }
    match program {
        "mv" => raws.extend(
            sources
                .iter()
                .map(|source| Raw::new(source.clone(), Reach::Holds(None), "`mv` moves away")),
        ),
        "ln" => raws.extend(
            sources
                .iter()
                .map(|source| Raw::new(source.clone(), Reach::Exact, "`ln` links to")),
        ),
        _ => {}
    }
    raws
}

/// Whether a destination is certainly a folder as written: a trailing `/`, `.`, `..`, `~`.
fn names_folder(word: &str) -> bool {
    word.ends_with('/')
        || matches!(file_name(word), "." | "..")
        || matches!(word, "~" | "$HOME" | "${HOME}")
}

/// `find`: its `-fprint` files, and, when it deletes (`-delete`) or runs a program that
/// writes the files it finds (`-exec sed -i … {} +`), what it finds: its starting folders,
/// narrowed by its `-name` and `-path` filters.
fn find(args: &[String], exec: bool) -> Vec<Raw> {
    let mut index = 0;
    // Its own options before the starting points: `-H`, `-L`, `-P`, `-D opts`, `-O3`.
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-H" | "-L" | "-P" => index += 1,
            "-D" => index += 2,
            _ if arg.starts_with("-O") => index += 1,
            _ => break,
        }
    }
    let starts: Vec<&String> = args[index.min(args.len())..]
        .iter()
        .take_while(|arg| !arg.starts_with('-') && !matches!(arg.as_str(), "(" | "!" | ","))
        .collect();
    let mut raws = Vec::new();
    let mut names = Vec::new();
    let mut path_filters = Vec::new();
    let mut verb = None;
    let mut rest = args.iter().skip(index + starts.len());
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-delete" => verb = Some("`find -delete` deletes".to_owned()),
            "-name" | "-iname" => names.extend(rest.next().cloned()),
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                path_filters.extend(rest.next().cloned());
            }
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                if let Some(file) = rest.next() {
                    raws.push(Raw::new(
                        file.clone(),
                        Reach::Exact,
                        "`find -fprint` writes",
                    ));
                }
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let words: Vec<String> = rest
                    .by_ref()
                    .take_while(|word| !matches!(word.as_str(), ";" | "+"))
                    .cloned()
                    .collect();
                let words: Vec<&String> = words
                    .iter()
                    .skip_while(|word| {
                        matches!(
                            file_name(word),
                            "sudo" | "doas" | "env" | "command" | "nice"
                        )
                    })
                    .collect();
                if let Some((program, args)) = words.split_first()
                    && exec
                {
                    let program = file_name(program);
                    let args: Vec<String> = args.iter().map(|arg| (*arg).clone()).collect();
                    let found = writes(program, &args, false)
                        .into_iter()
                        .find(|raw| raw.word == "{}");
                    if let Some(found) = found {
                        verb = Some(format!("`find -exec {program}` {}", verb_tail(&found.verb)));
                    }
                }
            }
            _ => {}
        }
    }
    let Some(verb) = verb else {
        return raws;
    };
    let here = ".".to_owned();
    let starts = if starts.is_empty() {
        vec![&here]
    } else {
        starts
    };
    for start in starts {
        if names.is_empty() && path_filters.is_empty() {
            raws.push(Raw::new(start.clone(), Reach::Holds(None), verb.clone()));
        }
        for name in &names {
            let filter = Reach::Holds(Some(name.clone()));
            raws.push(Raw::new(start.clone(), filter, verb.clone()));
            let inside = format!("{}/{name}", start.trim_end_matches('/'));
            raws.push(Raw::new(inside, Reach::Glob(true), verb.clone()));
        }
    }
    raws.extend(
        path_filters
            .into_iter()
            .map(|filter| Raw::new(filter, Reach::Glob(true), verb.clone())),
    );
    raws
}

/// The verb of a sentence start (`` `rm` deletes `` gives `deletes`).
fn verb_tail(verb: &str) -> &str {
    verb.rsplit_once("` ").map_or(verb, |(_, tail)| tail)
}

/// `git rm` and `git mv` (the other git commands write through git itself: `commit`,
/// `checkout`, `restore`... are not read), against `git -C DIR`'s folder.
fn git(args: &[String]) -> Vec<Raw> {
    let mut index = 0;
    let mut folder: Option<&str> = None;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-C" => {
                folder = args.get(index + 1).map(String::as_str);
                index += 2;
            }
            "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env" => index += 2,
            _ if arg.starts_with('-') => index += 1,
            _ => break,
        }
    }
    let Some((command, rest)) = args.get(index..).and_then(<[String]>::split_first) else {
        return Vec::new();
    };
    let in_folder = |word: &str| match folder {
        Some(folder) if !word.starts_with(['/', '~', '$']) => format!("{folder}/{word}"),
        _ => word.to_owned(),
    };
    let parsed = Parsed::read(rest, "", "", &[]);
    match command.as_str() {
        "rm" if !parsed.has(&["--cached"]) => {
            let reach = if parsed.has(&["-r"]) {
                Reach::Holds(None)
            } else {
                Reach::Exact
            };
            parsed
                .operands
                .iter()
                .map(|file| Raw::new(in_folder(file), reach.clone(), "`git rm` deletes"))
                .collect()
        }
        "mv" => {
            let Some((destination, sources)) = parsed.operands.split_last() else {
                return Vec::new();
            };
            let mut raws = vec![Raw::new(
                in_folder(destination),
                Reach::Exact,
                "`git mv` writes",
            )];
            if sources.len() > 1 || names_folder(destination) {
                raws.extend(sources.iter().map(|source| {
                    let inside = format!(
                        "{}/{}",
                        destination.trim_end_matches('/'),
                        file_name(source)
                    );
                    Raw::new(in_folder(&inside), Reach::Exact, "`git mv` writes")
                }));
            }
            raws.extend(sources.iter().map(|source| {
                Raw::new(in_folder(source), Reach::Holds(None), "`git mv` moves away")
            }));
            raws
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Parsed, writes};

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn files(program: &str, line: &str) -> Vec<String> {
        writes(program, &words(line), true)
            .into_iter()
            .map(|raw| raw.word)
            .collect()
    }

    #[test]
    fn options_with_values_are_not_files() {
        let parsed = Parsed::read(&words("-i.bak -e s/a/b/ -n x y"), "efl", "i", &[]);
        assert_eq!(parsed.operands, ["x", "y"]);
        assert!(parsed.has(&["-i"]));
        let parsed = Parsed::read(
            &words("-fsSLo out --output x u -- -z"),
            "o",
            "",
            &["output"],
        );
        assert_eq!(parsed.operands, ["u", "-z"]);
        assert_eq!(
            parsed.values(&["-o", "--output"]).collect::<Vec<_>>(),
            ["out", "x"]
        );
    }

    #[test]
    fn each_writer_names_the_files_it_writes() {
        for (program, line, expected) in [
            ("sed", "-i s/a/b/ f g", &["f", "g"][..]),
            ("sed", "-n 1p f", &[]),
            ("sed", "--in-place -e s/a/b/ f", &["f"]),
            ("perl", "-pi -e s/a/b/ f", &["f"]),
            ("perl", "-ne print f", &[]),
            ("awk", "-i inplace {print} f", &["f"]),
            ("chmod", "+x f", &["f"]),
            ("chmod", "-x f", &["f"]),
            ("chmod", "-R 755 d", &["d"]),
            ("chown", "dev:dev f", &["f"]),
            ("dd", "if=/dev/zero of=f bs=1", &["f"]),
            ("cp", "a b", &["b"]),
            ("cp", "a b/", &["b/", "b/a"]),
            ("cp", "a b c", &["c", "c/a", "c/b"]),
            ("cp", "-t d a", &["d", "d/a"]),
            ("mv", "a b", &["b", "a"]),
            ("ln", "-s t", &[".", "./t", "t"]),
            ("install", "-m 755 a b", &["b"]),
            ("install", "-d d e", &["d", "e"]),
            ("curl", "-fsSL u -o f", &["f"]),
            ("wget", "-qO- u", &[]),
            ("patch", "-p1 f p.diff", &["f"]),
            ("git", "-C sub rm f", &["sub/f"]),
            ("git", "rm --cached f", &[]),
            ("git", "commit -am x", &[]),
            ("find", ". -name x -print", &[]),
            ("find", "d -fprint out", &["out"]),
        ] {
            assert_eq!(files(program, line), expected, "{program} {line}");
        }
    }

    #[test]
    fn find_writes_what_it_finds_only_through_a_writer() {
        assert!(files("find", ". -name *.rs -exec grep x {} +").is_empty());
        assert_eq!(
            files("find", ". -name *.rs -exec sed -i s/a/b/ {} +"),
            [".", "./*.rs"]
        );
        assert_eq!(files("find", "target -delete"), ["target"]);
        assert!(files("find", ". -exec cp {} /tmp/ ;").is_empty());
    }
}
