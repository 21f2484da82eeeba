//! A shell command read for secrets: every program it runs ([`crate::command`]: through
//! wrappers, `-c` strings, `find -exec`, `$(…)` and backquotes inside double quotes too,
//! here-documents a shell reads, pipelines and lists) with the paths its arguments and
//! redirections name, each in the folder its command runs in (after the `cd`s before it), and
//! the paths handed over at run time (`echo ~/.ssh/id_rsa | xargs cat`, `for f in ~/.ssh/*`).

use hook_sdk::shell::Redirection;

use super::Hit;
use super::locations::{Found, Places};
use crate::args::{self, Options};
use crate::command::{self, Invocation, Reading};
use crate::paths;

/// How deep the scripts `ssh` is given in here-documents are read again.
const MAX_DEPTH: usize = 4;

/// Programs that show or change no file's content: they name paths (`ls ~/.ssh`,
/// `test -f .env`, `chmod 600 ~/.ssh/id_rsa`) or print their words (`echo .env >> .gitignore`).
const NAMES_ONLY: &[&str] = &[
    "ls", "ll", "dir", "exa", "eza", "lsd", "tree", "stat", "test", "[", "[[", "file", "du", "df",
    "wc", "realpath", "readlink", "dirname", "basename", "chmod", "chown", "chgrp", "mkdir",
    "touch", "cd", "pushd", "popd", "echo", "printf", "which", "type", "whereis", "getfacl",
    "lsattr", "true", "false", ":",
];

/// Programs that use a key or credential file without printing it (`ssh-add`, `ssh-keygen`
/// never show a private key).
const KEY_USERS: &[&str] = &["ssh-add", "ssh-keygen", "ssh-agent"];

/// Options whose value is a credential file the program uses without showing it.
const USES: &[(&str, &[&str])] = &[
    ("ssh", &["-i", "-F"]),
    ("scp", &["-i", "-F"]),
    ("sftp", &["-i", "-F"]),
    ("autossh", &["-i", "-F"]),
    ("ssh-copy-id", &["-i"]),
    ("kubectl", &["--kubeconfig"]),
    ("helm", &["--kubeconfig"]),
    ("npm", &["--userconfig"]),
    ("pnpm", &["--userconfig"]),
    ("twine", &["--config-file"]),
    // A key it generates (`openssl genrsa -out key.pem`) is written, never shown.
    ("openssl", &["-out", "-keyout"]),
];

/// Programs that read or send the files they are given: a path they get at run time
/// (`xargs cat`, `cat "$f"`) is checked against the paths the command names elsewhere.
const READERS: &[&str] = &[
    "cat", "tac", "less", "more", "most", "head", "tail", "nl", "bat", "batcat", "grep", "egrep",
    "fgrep", "zgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk", "nawk", "cut", "sort",
    "uniq", "tr", "paste", "column", "fold", "strings", "od", "xxd", "hexdump", "hd", "base64",
    "base32", "basenc", "openssl", "gpg", "cp", "mv", "scp", "rsync", "tar", "zip", "gzip",
    "bzip2", "xz", "zstd", "7z", "curl", "wget", "nc", "ncat", "socat", "jq", "yq", "diff", "cmp",
    "vim", "vi", "nvim", "nano", "emacs", "code", "source", ".", "tee", "dd", "install", "python",
    "python3", "node", "ruby", "perl",
];

/// Programs that copy or pack folders, with the flag that makes them recursive (`None`:
/// always).
const COPIERS: &[(&str, Option<char>)] = &[
    ("cp", Some('r')),
    ("scp", Some('r')),
    ("zip", Some('r')),
    ("rsync", None),
    ("tar", None),
    ("7z", None),
    ("7za", None),
];

/// How a search or text program reads its arguments: the first operand is its pattern or
/// script unless an option gives one.
struct Script {
    /// Short options taking a value.
    valued: &'static str,
    /// Short options whose value is the pattern (`-e`).
    pattern: &'static str,
    /// Short options whose value is a file it reads (`-f`).
    file: &'static str,
    /// Short options whose value is a glob of the files it searches (`rg -g`).
    include: &'static str,
    /// Long options taking a value.
    valued_long: &'static [&'static str],
    /// Long options whose value is the pattern.
    pattern_long: &'static [&'static str],
    /// Long options whose value is a file it reads.
    file_long: &'static [&'static str],
    /// Long options whose value is a glob of the files it searches.
    include_long: &'static [&'static str],
    /// Whether it reads folders recursively: always, or with `-r`/`-R`/`--recursive`.
    recursive: Option<bool>,
}

const GREP: Script = Script {
    valued: "ABCmdD",
    pattern: "e",
    file: "f",
    include: "",
    valued_long: &[
        "context",
        "after-context",
        "before-context",
        "max-count",
        "directories",
        "devices",
        "label",
        "binary-files",
        "exclude",
        "exclude-dir",
        "exclude-from",
    ],
    pattern_long: &["regexp"],
    file_long: &["file"],
    include_long: &["include"],
    recursive: Some(false),
};

const RG: Script = Script {
    valued: "ABCmjMEtTr",
    pattern: "e",
    file: "f",
    include: "g",
    valued_long: &[
        "context",
        "after-context",
        "before-context",
        "max-count",
        "threads",
        "max-columns",
        "encoding",
        "type",
        "type-not",
        "max-depth",
        "sort",
        "sortr",
        "replace",
        "pre",
        "pre-glob",
        "ignore-file",
    ],
    pattern_long: &["regexp"],
    file_long: &["file"],
    include_long: &["glob", "iglob"],
    recursive: Some(true),
};

const AG: Script = Script {
    valued: "ABCmGg",
    pattern: "",
    file: "",
    include: "",
    valued_long: &["context", "after", "before", "max-count", "depth"],
    pattern_long: &[],
    file_long: &[],
    include_long: &[],
    recursive: Some(true),
};

const SED: Script = Script {
    valued: "l",
    pattern: "e",
    file: "f",
    include: "",
    valued_long: &["line-length"],
    pattern_long: &["expression"],
    file_long: &["file"],
    include_long: &[],
    recursive: None,
};

const AWK: Script = Script {
    valued: "vF",
    pattern: "",
    file: "f",
    include: "",
    valued_long: &["assign", "field-separator"],
    pattern_long: &[],
    file_long: &["file"],
    include_long: &[],
    recursive: None,
};

/// The script reading of a program, if it has one.
fn script_of(program: &str) -> Option<&'static Script> {
    Some(match program {
        "grep" | "egrep" | "fgrep" | "zgrep" => &GREP,
        "rg" => &RG,
        "ag" | "ack" => &AG,
        "sed" | "gsed" => &SED,
        "awk" | "gawk" | "mawk" | "nawk" => &AWK,
        _ => return None,
    })
}

/// What a command line shows so far, across its programs.
#[derive(Default)]
struct Scene {
    /// A secret a program names without opening it (`echo ~/.ssh/id_rsa`, `ls ~/.ssh`).
    mention: Option<(String, Found)>,
    /// A reader whose files are known only at run time (`xargs cat`, `cat "$f"`).
    dynamic: Option<String>,
}

/// Reads `command` (blocks with the first [`Hit`]); `Ok` with why part of it cannot be read,
/// if so.
pub(super) fn check(command: &str, places: &Places<'_>) -> Result<Option<String>, Hit> {
    let mut scene = Scene::default();
    let unreadable = walk(command, places, 0, &mut scene)?;
    if let (Some((word, found)), Some(reader)) = (scene.mention, scene.dynamic) {
        return Err(Hit::path(
            format!("`{reader}`"),
            "reads files named at run time, among them",
            &word,
            found,
        ));
    }
    Ok(unreadable)
}

/// Reads one command line (a script `ssh` is given is read again); what it names is gathered
/// in `scene` across them all.
fn walk(
    command: &str,
    places: &Places<'_>,
    depth: usize,
    scene: &mut Scene,
) -> Result<Option<String>, Hit> {
    let reading = command::read(command);
    let mut unreadable = reading.unreadable.clone();
    let mut folders = paths::Folders::new(places.call());
    for (index, invocation) in reading.invocations.iter().enumerate() {
        let folder = folders.known(&invocation.cd);
        let moved;
        let here = if folder == places.call().cwd {
            places
        } else {
            moved = places.in_folder(folder);
            &moved
        };
        one(&reading, index, here, scene)?;
        for redirection in &invocation.redirections {
            redirected(redirection, here)?;
        }
        // `ssh HOST <<EOF`: the remote shell runs the here-document, and what it prints
        // comes back into the session.
        if invocation.program == "ssh" && depth < MAX_DEPTH {
            for script in invocation.redirections.iter().filter_map(stdin_script) {
                if let Some(why) = walk(script, places, depth + 1, scene)? {
                    unreadable.get_or_insert(why);
                }
            }
        }
    }
    // A redirection of a command that runs no program (`done < ~/.netrc`) is read in every
    // folder the line goes to.
    let folders = paths::known_folders(&reading.folders, places.call());
    for redirection in reading.loose_redirections() {
        for folder in &folders {
            redirected(redirection, &places.in_folder(folder))?;
        }
    }
    for word in &reading.loop_words {
        mention(scene, places, word);
    }
    Ok(unreadable)
}

/// Blocks a redirection from or to a secret.
fn redirected(redirection: &Redirection, places: &Places<'_>) -> Result<(), Hit> {
    let verb = if redirection.reads_file() {
        "reads"
    } else if redirection.writes_file() {
        "writes"
    } else {
        return Ok(());
    };
    let word = &redirection.target.plain;
    match places.secret(word) {
        Some(found) => Err(Hit::path(
            format!("a `{}` redirection", redirection.operator),
            verb,
            word,
            found,
        )),
        None => Ok(()),
    }
}

/// The text a redirection gives a command on its standard input: a here-document's body or a
/// here-string.
fn stdin_script(redirection: &Redirection) -> Option<&str> {
    match redirection.operator.as_str() {
        "<<" | "<<-" => redirection.body.as_deref(),
        "<<<" => Some(&redirection.target.plain),
        _ => None,
    }
}

/// Checks the program `reading.invocations[index]` runs.
fn one(reading: &Reading, index: usize, places: &Places<'_>, scene: &mut Scene) -> Result<(), Hit> {
    let invocation = &reading.invocations[index];
    let program = invocation.program.as_str();
    // A program run by its path (`$(echo ~)/.ssh/id_rsa` reads as one) names that path.
    mention(scene, places, &invocation.written);
    if READERS.contains(&program)
        && (invocation.through.iter().any(|w| w == "xargs")
            || invocation.operands().iter().any(|word| {
                word.contains(['$', '`']) && paths::absolute(word, places.call()).is_none()
            }))
    {
        scene.dynamic.get_or_insert_with(|| program.to_owned());
    }
    if NAMES_ONLY.contains(&program) {
        for arg in &invocation.args {
            for word in candidates(arg) {
                mention(scene, places, word);
            }
        }
        return Ok(());
    }
    if KEY_USERS.contains(&program) {
        return Ok(());
    }
    match program {
        "find" => {
            let runs = reading
                .run_by(index)
                .map(|inner| inner.program.as_str())
                .find(|inner| !NAMES_ONLY.contains(inner));
            return find(invocation, runs, places, scene);
        }
        "git" => return git(invocation, places, scene),
        _ => {}
    }
    if let Some(script) = script_of(program) {
        return scripted(invocation, script, places);
    }
    if let Some(code) = code_of(invocation) {
        for word in code_paths(code) {
            if let Some(found) = places.secret(word) {
                return Err(Hit::path(
                    format!("`{program}`'s code"),
                    "opens",
                    word,
                    found,
                ));
            }
        }
    }
    generic(invocation, places)
}

/// Any other program: each argument that names a secret blocks it, but the values of
/// [`USES`]' options; a recursive copy of a folder above a secret too.
fn generic(invocation: &Invocation, places: &Places<'_>) -> Result<(), Hit> {
    let program = invocation.program.as_str();
    let uses = USES
        .iter()
        .find(|(p, _)| *p == program)
        .map_or(&[][..], |(_, options)| *options);
    let mut skip = false;
    for arg in &invocation.args {
        if std::mem::take(&mut skip) {
            continue;
        }
        let option = arg
            .split_once('=')
            .map_or(arg.as_str(), |(option, _)| option);
        if uses.contains(&option) {
            skip = !arg.contains('=');
            continue;
        }
        for word in candidates(arg) {
            if let Some(found) = places.secret(word) {
                return Err(Hit::path(format!("`{program}`"), "opens", word, found));
            }
        }
    }
    let recursive = COPIERS
        .iter()
        .find(|(p, _)| *p == program)
        .is_some_and(|(_, flag)| {
            flag.is_none_or(|flag| {
                let flags = invocation.short_flags();
                flags.contains(&flag)
                    || flags.contains(&flag.to_ascii_uppercase())
                    || (program == "cp" && flags.contains(&'a'))
                    || invocation.has_long("recursive")
                    || invocation.has_long("archive")
            })
        });
    if recursive {
        for word in invocation.operands() {
            if let Some(found) = places.inside(word) {
                return Err(Hit::inside(format!("`{program}`"), "copies", word, found));
            }
        }
    }
    Ok(())
}

/// A search or text program ([`Script`]): its pattern or script skipped, its `-f` files, the
/// globs of files it searches and its file operands checked; a recursive search of a folder
/// above a secret blocked.
fn scripted(invocation: &Invocation, script: &Script, places: &Places<'_>) -> Result<(), Hit> {
    let program = invocation.program.as_str();
    let valued = [script.valued, script.pattern, script.file, script.include].concat();
    let long = [
        script.valued_long,
        script.pattern_long,
        script.file_long,
        script.include_long,
    ]
    .concat();
    let read = Options::read(&invocation.args, &valued, "", &long);
    let recursive = script.recursive == Some(true)
        || (script.recursive.is_some()
            && read.any_of("rR", &["recursive", "dereference-recursive"]));
    let pattern_given = read.any_of(script.pattern, script.pattern_long)
        || read.any_of(script.file, script.file_long);
    let files: Vec<&str> = read.values_of(script.file, script.file_long).collect();
    let globs: Vec<&str> = read
        .values_of(script.include, script.include_long)
        .collect();
    let mut operands = read.operands.clone();
    if !pattern_given && !operands.is_empty() {
        operands.remove(0);
    }
    for word in files.iter().chain(&operands) {
        if let Some(found) = places.secret(word) {
            return Err(Hit::path(format!("`{program}`"), "reads", word, found));
        }
    }
    for glob in &globs {
        if !glob.starts_with('!')
            && let Some(found) = places.secret_pattern(glob)
        {
            return Err(Hit::path(format!("`{program}`"), "searches", glob, found));
        }
    }
    if recursive {
        let folders = if operands.is_empty() {
            vec!["."]
        } else {
            operands
        };
        for word in folders {
            if let Some(found) = places.inside(word) {
                return Err(Hit::inside(format!("`{program}`"), "searches", word, found));
            }
        }
    }
    Ok(())
}

/// `find`: its start folders and name patterns are a mention, or, when it runs a program
/// that reads what it finds (`runs`, the first of its `-exec` commands that is not
/// [`NAMES_ONLY`]), what that program opens.
fn find(
    invocation: &Invocation,
    runs: Option<&str>,
    places: &Places<'_>,
    scene: &mut Scene,
) -> Result<(), Hit> {
    let (starts, expression) = args::find(&invocation.args);
    let patterns = expression.windows(2).filter_map(|pair| {
        matches!(
            pair[0].as_str(),
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"
        )
        .then_some(pair[1].as_str())
    });
    let starts = starts.into_iter().filter_map(|word| {
        let found = places.secret(word).map(|found| (found, false));
        found
            .or_else(|| places.inside(word).map(|found| (found, true)))
            .map(|(found, inside)| (word, found, inside))
    });
    let patterns = patterns.filter_map(|pattern| {
        places
            .secret_pattern(pattern)
            .map(|found| (pattern, found, false))
    });
    for (word, found, inside) in starts.chain(patterns) {
        match runs {
            Some(run) => {
                let by = format!("`find -exec {run}`");
                return Err(if inside {
                    Hit::inside(by, "opens", word, found)
                } else {
                    Hit::path(by, "opens", word, found)
                });
            }
            None => mention_found(scene, word, found),
        }
    }
    Ok(())
}

/// `git`: the subcommands that only name files (`status`, `rm`, `ls-files`...) mention them;
/// the others (`add`, `diff`, `show HEAD:.env`...) open them.
fn git(invocation: &Invocation, places: &Places<'_>, scene: &mut Scene) -> Result<(), Hit> {
    let Some(git) = args::git(&invocation.args) else {
        return Ok(());
    };
    let sub = git.subcommand;
    let shows_patch = git
        .args
        .iter()
        .any(|a| matches!(a.as_str(), "-p" | "-u" | "--patch") || a.starts_with("-L"));
    let names_only = matches!(
        sub,
        "status" | "rm" | "mv" | "check-ignore" | "check-attr" | "ls-files" | "update-index"
    ) || (sub == "log" && !shows_patch);
    for arg in git.args {
        // `HEAD:.env`, `main:config/.npmrc`: a file as a commit holds it.
        let in_commit = arg.split_once(':').map(|(_, path)| path);
        for word in in_commit.into_iter().chain(candidates(arg)) {
            if let Some(found) = places.secret(word) {
                if names_only {
                    mention_found(scene, word, found);
                } else {
                    return Err(Hit::path(format!("`git {sub}`"), "opens", word, found));
                }
            }
        }
    }
    Ok(())
}

/// The code an interpreter is given inline (`python -c CODE`, `node -e CODE`...).
fn code_of(invocation: &Invocation) -> Option<&str> {
    let program = invocation.program.as_str();
    let options: &[&str] = if program.starts_with("python") || program.starts_with("pypy") {
        &["-c"]
    } else {
        match program {
            "node" | "nodejs" | "bun" => &["-e", "-p", "--eval", "--print"],
            "ruby" => &["-e"],
            "perl" => &["-e", "-E"],
            "php" => &["-r"],
            "deno" => &["eval"],
            _ => return None,
        }
    };
    let at = invocation
        .args
        .iter()
        .position(|a| options.contains(&a.as_str()))?;
    invocation.args.get(at + 1).map(String::as_str)
}

/// The words of inline code that look like paths (`'~/.aws/credentials'`, `".env"`,
/// `'/.ssh/id_rsa'` of `HOME + '/.ssh/id_rsa'`).
fn code_paths(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| {
        !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '~' | '/' | '$' | '{' | '}' | '@'))
    })
    .filter(|word| word.starts_with(['.', '~', '/']) || word.starts_with("$HOME"))
}

/// The words of an argument that may be paths: the argument, the value of `--opt=VALUE` or
/// `if=VALUE`, each without curl's `@`. A word with spaces that does not start like a path
/// is text (a message, a command for `ssh`), not a path.
fn candidates(arg: &str) -> Vec<&str> {
    let mut words = Vec::new();
    if let Some((_, value)) = arg.split_once('=') {
        words.push(value);
    }
    if !arg.starts_with('-') {
        words.push(arg);
    }
    words
        .into_iter()
        .map(|word| word.strip_prefix('@').unwrap_or(word))
        .filter(|word| {
            !word.contains(char::is_whitespace) || word.starts_with(['/', '~', '.', '$'])
        })
        .collect()
}

/// Records `word` as a mention if it names a secret.
fn mention(scene: &mut Scene, places: &Places<'_>, word: &str) {
    if scene.mention.is_none()
        && let Some(found) = places.secret(word).or_else(|| places.inside(word))
    {
        scene.mention = Some((word.to_owned(), found));
    }
}

fn mention_found(scene: &mut Scene, word: &str, found: Found) {
    scene
        .mention
        .get_or_insert_with(|| (word.to_owned(), found));
}
