//! The files a shell command writes: its output redirections, and the operands of the
//! programs that write, delete, move or link files (`tee`, `sed -i`, `cp`, `mv`, `rm`,
//! `truncate`, `dd of=`, `find -delete`, `git rm`...), wherever they run ([`crate::command`]:
//! after `sudo`, `env`, `xargs`; in `sh -c` strings, `$(…)`, `find -exec`; in each part of a
//! pipeline or list). Each path is read in the folder its command runs in, after the `cd`s
//! before it ([`crate::paths::known_folder`], [`crate::paths::locate`]).

use std::path::{Path, PathBuf};

use hook_sdk::shell::Redirection;

use crate::Call;
use crate::args::{self, Options};
use crate::command::{self, Invocation, file_name};
use crate::glob;
use crate::paths::{self, Located};

use super::rules::Reach;

/// One file a call writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    /// The path, absolute; with `tail_only`, only its known end (`$DIR/.git/x` gives
    /// `/.git/x`).
    pub(super) path: PathBuf,
    /// The path is the end of one known only when the command runs.
    pub(super) tail_only: bool,
    /// How far the write reaches.
    pub(super) reach: Reach,
    /// What writes it, as the start of a sentence (`` `rm` deletes ``).
    pub(super) verb: String,
}

/// A file a program's arguments name, before it is located.
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

    /// The file an output redirection writes.
    fn redirection(redirection: &Redirection) -> Raw {
        let verb = format!("a `{}` redirection writes", redirection.operator);
        Raw::new(redirection.target.plain.clone(), Reach::Exact, verb)
    }
}

/// The files `command` writes, and why part of it cannot be read, if so.
pub(super) fn of_command(command: &str, call: &Call<'_>) -> (Vec<Target>, Option<String>) {
    let reading = command::read(command);
    let mut targets = Vec::new();
    let mut folders = paths::Folders::new(call);
    for (index, invocation) in reading.invocations.iter().enumerate() {
        let folder = folders.known(&invocation.cd);
        let inner: Vec<&Invocation> = reading.run_by(index).collect();
        let mut raws = writes(&invocation.program, &invocation.args, &inner);
        raws.extend(
            invocation
                .redirections
                .iter()
                .filter(|r| r.writes_file())
                .map(Raw::redirection),
        );
        targets.extend(
            raws.into_iter()
                .filter_map(|raw| resolve(raw, folder, call)),
        );
    }
    // A redirection of a command that runs no program (`> .git/config` alone) is read in
    // every folder the command goes to.
    let folders = paths::known_folders(&reading.folders, call);
    for redirection in reading.loose_redirections() {
        if redirection.writes_file() {
            for folder in &folders {
                targets.extend(resolve(Raw::redirection(redirection), folder, call));
            }
        }
    }
    (targets, reading.unreadable)
}

/// `raw` as a target: its path read in `folder`, or only its known end when it holds an
/// expansion (`None` when nothing of it is known).
fn resolve(raw: Raw, folder: &Path, call: &Call<'_>) -> Option<Target> {
    if raw.word.is_empty() {
        return None;
    }
    // A shell glob in the last component (`rm *.lock`, `rm -rf .git*`, not `rm -rf
    // target/*`): what it could match.
    let name = file_name(&raw.word);
    let reach = if matches!(raw.reach, Reach::Exact | Reach::Holds(None))
        && glob::is_glob(name)
        && name.chars().any(|c| c != '*')
    {
        Reach::Glob(false)
    } else {
        raw.reach
    };
    let (path, tail_only) = match paths::locate(&raw.word, folder, call)? {
        Located::Path(path) => (path, false),
        Located::Tail(parts) => (
            parts.iter().fold(PathBuf::from("/"), |p, c| p.join(c)),
            true,
        ),
    };
    Some(Target {
        path,
        tail_only,
        reach,
        verb: raw.verb,
    })
}

/// Every file `program` writes with `args`; `inner`: the commands it runs itself (`find
/// -exec`'s).
fn writes(program: &str, args: &[String], inner: &[&Invocation]) -> Vec<Raw> {
    let each = |files: &[&str], reach: Reach, verb: &str| -> Vec<Raw> {
        files
            .iter()
            .map(|file| Raw::new(*file, reach.clone(), verb))
            .collect()
    };
    match program {
        "tee" | "sponge" => {
            let read = Options::read(args, "", "", &[]);
            each(&read.operands, Reach::Exact, &format!("`{program}` writes"))
        }
        "rm" => {
            let read = Options::read(args, "", "", &[]);
            let reach = if read.any_of("rR", &["recursive"]) {
                Reach::Holds(None)
            } else {
                Reach::Exact
            };
            each(&read.operands, reach, "`rm` deletes")
        }
        "unlink" | "rmdir" => {
            let read = Options::read(args, "", "", &[]);
            each(
                &read.operands,
                Reach::Exact,
                &format!("`{program}` deletes"),
            )
        }
        "shred" => {
            let read = Options::read(args, "ns", "", &["iterations", "size", "random-source"]);
            each(&read.operands, Reach::Exact, "`shred` overwrites")
        }
        "truncate" => {
            let read = Options::read(args, "sr", "", &["size", "reference"]);
            each(&read.operands, Reach::Exact, "`truncate` rewrites")
        }
        "touch" => {
            let read = Options::read(args, "dtr", "", &["date", "reference"]);
            each(&read.operands, Reach::Exact, "`touch` writes")
        }
        "mkdir" => {
            let read = Options::read(args, "m", "", &["mode"]);
            each(&read.operands, Reach::Exact, "`mkdir` creates")
        }
        "chmod" => {
            let read = Options::read(args, "", "", &["reference"]);
            // `chmod -x FILE`: the mode reads as options; otherwise it is the first operand.
            let mode_as_option = read.any_of("rwxXst", &[]);
            let files = if mode_as_option {
                &read.operands[..]
            } else {
                read.after_script("", &["reference"])
            };
            each(files, Reach::Exact, "`chmod` changes the mode of")
        }
        "chown" | "chgrp" => {
            let read = Options::read(args, "", "", &["reference"]);
            let files = read.after_script("", &["reference"]);
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
            let read = Options::read(args, "efl", "i", &["expression", "file", "line-length"]);
            if !read.any_of("i", &["in-place"]) {
                return Vec::new();
            }
            let files = read.after_script("ef", &["expression", "file"]);
            each(files, Reach::Exact, "`sed -i` edits")
        }
        "perl" | "ruby" => {
            let read = Options::read(args, "eEMmrICF", "il0xdDTWK", &[]);
            if !read.any_of("i", &[]) {
                return Vec::new();
            }
            let files = read.after_script("eE", &[]);
            each(files, Reach::Exact, &format!("`{program} -i` edits"))
        }
        "awk" | "gawk" => {
            let read = Options::read(args, "fvFieEl", "", &["include", "file", "source"]);
            let in_place = read
                .values_of("i", &["include"])
                .any(|value| matches!(value, "inplace" | "inplace.awk"));
            if !in_place {
                return Vec::new();
            }
            let files: Vec<&str> = read
                .after_script("feE", &["file", "source"])
                .iter()
                .filter(|file| !file.contains('='))
                .copied()
                .collect();
            each(&files, Reach::Exact, "`awk -i inplace` edits")
        }
        "ed" | "ex" | "vi" | "vim" | "nvim" | "nano" | "emacs" => {
            let read = Options::read(args, "cSuUTiWwsq", "", &["cmd", "eval"]);
            let files: Vec<&str> = read
                .operands
                .iter()
                .filter(|file| !file.starts_with('+'))
                .copied()
                .collect();
            each(&files, Reach::Exact, &format!("`{program}` edits"))
        }
        "patch" => {
            let read = Options::read(
                args,
                "BDFgioprVYzd",
                "",
                &["input", "output", "strip", "directory"],
            );
            let mut files: Vec<&str> = read.operands.first().copied().into_iter().collect();
            files.extend(read.values_of("o", &["output"]));
            each(&files, Reach::Exact, "`patch` writes")
        }
        "curl" => {
            let read = Options::read(args, "odHXuAebcDFKmrTwxyYzECPQtU", "", &["output"]);
            let files: Vec<&str> = read.values_of("o", &["output"]).collect();
            each(&files, Reach::Exact, "`curl -o` writes")
        }
        "wget" => {
            let read = Options::read(args, "OoaPeUtTwQlAR", "", &["output-document"]);
            let files: Vec<&str> = read
                .values_of("Ooa", &["output-document"])
                .filter(|file| *file != "-")
                .collect();
            each(&files, Reach::Exact, "`wget` writes")
        }
        "cp" | "mv" | "ln" | "install" | "rsync" => copies(program, args),
        "find" => find(args, inner),
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
    let read = Options::read(args, valued, "", long);
    let verb = format!("`{program}` writes");
    if program == "install" && read.any_of("d", &["directory"]) {
        return read
            .operands
            .iter()
            .map(|dir| Raw::new(*dir, Reach::Exact, "`install -d` creates"))
            .collect();
    }
    let no_folder = program != "rsync" && read.any_of("T", &["no-target-directory"]);
    let target = if program == "rsync" {
        None
    } else {
        read.values_of("t", &["target-directory"]).next()
    };
    let (destination, sources, folder): (&str, &[&str], bool) = match target {
        Some(dir) => (dir, &read.operands, true),
        None => match read.operands.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                (last, rest, rest.len() > 1 || names_folder(last))
            }
            Some(_) if program == "ln" => (".", &read.operands, true),
            _ => return Vec::new(),
        },
    };
    let mut raws = vec![Raw::new(destination, Reach::Exact, verb.clone())];
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
                .map(|source| Raw::new(*source, Reach::Holds(None), "`mv` moves away")),
        ),
        "ln" => raws.extend(
            sources
                .iter()
                .map(|source| Raw::new(*source, Reach::Exact, "`ln` links to")),
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
/// writes the files it finds (`inner`, its `-exec` commands: `sed -i … {} +`), what it finds:
/// its starting folders, narrowed by its `-name` and `-path` filters.
fn find(args: &[String], inner: &[&Invocation]) -> Vec<Raw> {
    let (starts, expression) = args::find(args);
    let mut raws = Vec::new();
    let mut names = Vec::new();
    let mut path_filters = Vec::new();
    let mut verb = None;
    let mut rest = expression.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-delete" => verb = Some("`find -delete` deletes".to_owned()),
            "-name" | "-iname" => names.extend(rest.next()),
            "-path" | "-ipath" | "-wholename" | "-iwholename" => path_filters.extend(rest.next()),
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                if let Some(file) = rest.next() {
                    raws.push(Raw::new(file, Reach::Exact, "`find -fprint` writes"));
                }
            }
            // The command it runs is read as one of its own (`inner`).
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                for word in rest.by_ref() {
                    if matches!(word.as_str(), ";" | "+") {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    for command in inner {
        let found = writes(&command.program, &command.args, &[])
            .into_iter()
            .find(|raw| raw.word == "{}");
        if let Some(found) = found {
            verb = Some(format!(
                "`find -exec {}` {}",
                command.program,
                verb_tail(&found.verb)
            ));
        }
    }
    let Some(verb) = verb else {
        return raws;
    };
    for start in starts {
        if names.is_empty() && path_filters.is_empty() {
            raws.push(Raw::new(start, Reach::Holds(None), verb.clone()));
        }
        for name in &names {
            let filter = Reach::Holds(Some((*name).clone()));
            raws.push(Raw::new(start, filter, verb.clone()));
            let inside = format!("{}/{name}", start.trim_end_matches('/'));
            raws.push(Raw::new(inside, Reach::Glob(true), verb.clone()));
        }
    }
    raws.extend(
        path_filters
            .into_iter()
            .map(|filter| Raw::new(filter.clone(), Reach::Glob(true), verb.clone())),
    );
    raws
}

/// The verb of a sentence start (`` `rm` deletes `` gives `deletes`).
fn verb_tail(verb: &str) -> &str {
    verb.rsplit_once("` ").map_or(verb, |(_, tail)| tail)
}

/// `git rm` and `git mv` (the other git commands write through git itself: `commit`,
/// `checkout`, `restore`... are not read), in the folder `git -C DIR` goes to.
fn git(args: &[String]) -> Vec<Raw> {
    let Some(git) = args::git(args) else {
        return Vec::new();
    };
    // `-C a -C b`: `a/b`; an absolute one starts over.
    let folder = git.folders.iter().fold(String::new(), |folder, next| {
        if folder.is_empty() || next.starts_with(['/', '~', '$']) {
            (*next).to_owned()
        } else {
            format!("{}/{next}", folder.trim_end_matches('/'))
        }
    });
    let in_folder = |word: &str| {
        if folder.is_empty() || word.starts_with(['/', '~', '$']) {
            word.to_owned()
        } else {
            format!("{}/{word}", folder.trim_end_matches('/'))
        }
    };
    let read = Options::read(git.args, "", "", &[]);
    match git.subcommand {
        "rm" if !read.any_of("", &["cached"]) => {
            let reach = if read.any_of("r", &[]) {
                Reach::Holds(None)
            } else {
                Reach::Exact
            };
            read.operands
                .iter()
                .map(|file| Raw::new(in_folder(file), reach.clone(), "`git rm` deletes"))
                .collect()
        }
        "mv" => {
            let Some((destination, sources)) = read.operands.split_last() else {
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
    use hook_sdk::Tool;

    use super::{of_command, writes};
    use crate::table::PROJECT;
    use crate::testing::{self, words};

    fn files(program: &str, line: &str) -> Vec<String> {
        writes(program, &words(line), &[])
            .into_iter()
            .map(|raw| raw.word)
            .collect()
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
            ("git", "-C sub -C deeper rm f", &["sub/deeper/f"]),
            ("git", "rm --cached f", &[]),
            ("git", "commit -am x", &[]),
            ("find", ". -name x -print", &[]),
            ("find", "d -fprint out", &["out"]),
            ("find", "target -delete", &["target"]),
        ] {
            assert_eq!(files(program, line), expected, "{program} {line}");
        }
    }

    #[test]
    fn find_writes_what_it_finds_only_through_a_writer() {
        let tool = Tool::Other(serde_json::Value::Null);
        let call = testing::call(&tool);
        let paths = |command: &str| -> Vec<String> {
            of_command(command, &call)
                .0
                .into_iter()
                .map(|target| target.path.display().to_string())
                .collect()
        };
        assert!(paths("find . -name '*.rs' -exec grep x {} +").is_empty());
        let written = paths("find . -name '*.rs' -exec sudo sed -i s/a/b/ {} +");
        for expected in [PROJECT.to_owned(), format!("{PROJECT}/*.rs")] {
            assert!(written.contains(&expected), "{expected} in {written:?}");
        }
        let copied = paths("find . -exec cp {} /tmp/ ';'");
        assert!(!copied.iter().any(|p| p == PROJECT), "{copied:?}");
    }
}
