//! Paths as a guard reads them: the word as written made absolute against the session's
//! working directory and the home folder, `.` and `..` folded lexically (the filesystem is
//! never read, so symlinks are not followed).

use std::path::{Component, Path, PathBuf};

use crate::Call;

/// `word` (unquoted, as a command or a tool gives it) as an absolute, lexically normal path:
/// `~`, `~/x`, `$HOME`, `${HOME}` expand to the home folder (none known: `None`), a relative
/// path is read against the working directory. `None` for a word that still holds an
/// expansion (`$DIR/x`, `~other`): where it points is known only when it runs.
pub(crate) fn absolute(word: &str, call: &Call<'_>) -> Option<PathBuf> {
    let home_relative = ["~", "$HOME", "${HOME}"].iter().find_map(|prefix| {
        let rest = word.strip_prefix(prefix)?;
        (rest.is_empty() || rest.starts_with('/')).then_some(rest)
    });
    let path = match home_relative {
        Some(rest) => call.home?.join(rest.trim_start_matches('/')),
        None if word.contains('$') || word.starts_with('~') || word.contains('`') => return None,
        None => call.cwd.join(word),
    };
    Some(normal(&path))
}

/// The folder a command runs in: the session's, moved through each `cd` target before it
/// (`None` in the list: `cd` alone, home). `None` when one goes somewhere known only when it
/// runs (`cd "$DIR"`, `cd -`, `cd` with no home known).
pub(crate) fn folder(cd: &[Option<String>], call: &Call<'_>) -> Option<PathBuf> {
    follow(cd, call, false)
}

/// The folder a command runs in as far as it is known: [`folder`], but a `cd` to a folder
/// known only when it runs (`cd "$DIR"`, `cd -`) is passed over, so what follows it is read
/// in the folder before it (for a guard that errs toward blocking: `cd ~/.aws && cd "$X" &&
/// cat credentials` reads `~/.aws/credentials`).
pub(crate) fn known_folder(cd: &[Option<String>], call: &Call<'_>) -> PathBuf {
    follow(cd, call, true).unwrap_or_else(|| call.cwd.to_path_buf())
}

/// [`known_folder`] of one invocation after another, the last kept: the commands of a line
/// mostly share their `cd`s.
pub(crate) struct Folders<'c> {
    call: Call<'c>,
    last: Option<(Vec<Option<String>>, PathBuf)>,
}

impl<'c> Folders<'c> {
    /// No folder read yet, for `call`.
    pub(crate) fn new(call: &Call<'c>) -> Folders<'c> {
        Folders {
            call: *call,
            last: None,
        }
    }

    /// The [`known_folder`] the `cd` targets `cd` lead to.
    pub(crate) fn known(&mut self, cd: &[Option<String>]) -> &Path {
        if self.last.as_ref().is_none_or(|(last, _)| last != cd) {
            self.last = Some((cd.to_vec(), known_folder(cd, &self.call)));
        }
        self.last
            .as_ref()
            .map_or(self.call.cwd, |(_, folder)| folder)
    }
}

/// How many folders [`known_folders`] gives at the most.
const MAX_FOLDERS: usize = 16;

/// The distinct [`known_folder`]s of `lists` (a line's [`crate::command::Reading::folders`]),
/// the first [`MAX_FOLDERS`]: where a redirection of a command that runs no program (`done <
/// file`) may be.
pub(crate) fn known_folders(lists: &[Vec<Option<String>>], call: &Call<'_>) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = Vec::new();
    for cd in lists {
        let folder = known_folder(cd, call);
        if !folders.contains(&folder) {
            folders.push(folder);
        }
        if folders.len() == MAX_FOLDERS {
            break;
        }
    }
    folders
}

/// The folder the `cd` targets `cd` lead to from the session's; with `lenient`, those going
/// somewhere unknown are passed over.
fn follow(cd: &[Option<String>], call: &Call<'_>, lenient: bool) -> Option<PathBuf> {
    let mut here = call.cwd.to_path_buf();
    for target in cd {
        let next = match target.as_deref() {
            None => call.home.map(Path::to_path_buf),
            Some("-") => None,
            Some(word) => absolute_in(word, &here, call),
        };
        match next {
            Some(next) => here = next,
            None if lenient => {}
            None => return None,
        }
    }
    Some(here)
}

/// `word` as an absolute path read in the folder the `cd` targets `cd` lead to (see
/// [`folder`] and [`absolute`]).
pub(crate) fn absolute_after(
    word: &str,
    cd: &[Option<String>],
    call: &Call<'_>,
) -> Option<PathBuf> {
    absolute_in(word, &folder(cd, call)?, call)
}

/// `word` as an absolute path read in `folder` (see [`absolute`]).
fn absolute_in(word: &str, folder: &Path, call: &Call<'_>) -> Option<PathBuf> {
    absolute(
        word,
        &Call {
            cwd: folder,
            ..*call
        },
    )
}

/// Where a word written in a call points, as far as a guard can know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Located {
    /// The whole path, absolute and lexically normal.
    Path(PathBuf),
    /// Only its last components, those after an expansion, `.` and `..` folded
    /// (`$DIR/.git/config` gives `.git` and `config`): the path ends with them.
    Tail(Vec<String>),
}

/// `word` (unquoted) read in `folder`, the folder its command runs in: see [`Located`].
/// `None` when nothing of where it points is known (`"$OUT"`, `$DIR/..`).
pub(crate) fn locate(word: &str, folder: &Path, call: &Call<'_>) -> Option<Located> {
    if let Some(path) = absolute_in(word, folder, call) {
        return Some(Located::Path(path));
    }
    let parts: Vec<&str> = word.split('/').collect();
    let unknown = |part: &&str| part.contains(['$', '`']) || part.starts_with('~');
    let from = parts.iter().position(unknown).map_or(0, |at| at + 1);
    let mut tail: Vec<String> = Vec::new();
    for part in &parts[from..] {
        match *part {
            "" | "." => {}
            ".." => {
                tail.pop();
            }
            part => tail.push(part.to_owned()),
        }
    }
    (!tail.is_empty()).then_some(Located::Tail(tail))
}

/// The components of an absolute path, as text (the root dropped).
pub(crate) fn components(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|component| match component {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// `path` with `.` and `..` folded (`..` at the root stays at the root).
pub(crate) fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use hook_sdk::Tool;

    use super::{Located, absolute, absolute_after, known_folder, locate};
    use crate::testing;

    #[test]
    fn words_become_absolute_paths() {
        let tool = Tool::Other(serde_json::Value::Null);
        let call = testing::call(&tool);
        for (word, expected) in [
            ("~", Some("/home/dev")),
            ("~/", Some("/home/dev")),
            ("$HOME/.ssh", Some("/home/dev/.ssh")),
            ("${HOME}/x/../y", Some("/home/dev/y")),
            ("./build", Some("/home/dev/project/build")),
            ("../..", Some("/home")),
            ("/", Some("/")),
            ("/..", Some("/")),
            ("$DIR/x", None),
            ("~other", None),
        ] {
            assert_eq!(
                absolute(word, &call).as_deref(),
                expected.map(Path::new),
                "{word}"
            );
        }
        let cd = |targets: &[Option<&str>]| -> Vec<Option<String>> {
            targets.iter().map(|t| t.map(str::to_owned)).collect()
        };
        for (targets, expected) in [
            (cd(&[]), Some("/home/dev/project/x")),
            (cd(&[Some("..")]), Some("/home/dev/x")),
            (cd(&[Some("/tmp"), Some("a")]), Some("/tmp/a/x")),
            (cd(&[None]), Some("/home/dev/x")),
            (cd(&[Some("$DIR")]), None),
            (cd(&[Some("-")]), None),
        ] {
            assert_eq!(
                absolute_after("x", &targets, &call).as_deref(),
                expected.map(Path::new),
                "{targets:?}"
            );
        }
    }

    #[test]
    fn what_is_known_of_a_word_is_located() {
        let tool = Tool::Other(serde_json::Value::Null);
        let call = testing::call(&tool);
        let tail = |parts: &[&str]| {
            Some(Located::Tail(
                parts.iter().map(|p| (*p).to_owned()).collect(),
            ))
        };
        let sub = Path::new("/home/dev/project/sub");
        let path = |path: &str| Some(Located::Path(path.into()));
        for (word, expected) in [
            ("x", path("/home/dev/project/sub/x")),
            ("~/x", path("/home/dev/x")),
            ("/etc/x", path("/etc/x")),
            ("$ROOT/.git/config", tail(&[".git", "config"])),
            ("$D/.ssh/$KEY", tail(&[".ssh", "$KEY"])),
            ("$TMP/../log", tail(&["log"])),
            ("$X/a/../.git", tail(&[".git"])),
            ("$OUT", None),
            ("$OUT/..", None),
        ] {
            assert_eq!(locate(word, sub, &call), expected, "{word}");
        }
        let cd = |targets: &[Option<&str>]| -> Vec<Option<String>> {
            targets.iter().map(|t| t.map(str::to_owned)).collect()
        };
        for (targets, expected) in [
            (cd(&[Some("..")]), "/home/dev"),
            (cd(&[Some("/tmp"), Some("$DIR"), Some("a")]), "/tmp/a"),
            (cd(&[Some("~/.aws"), Some("-")]), "/home/dev/.aws"),
        ] {
            assert_eq!(
                known_folder(&targets, &call),
                Path::new(expected),
                "{targets:?}"
            );
        }
    }
}
