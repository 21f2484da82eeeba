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
    let mut here = call.cwd.to_path_buf();
    for target in cd {
        here = match target.as_deref() {
            None => call.home?.to_path_buf(),
            Some("-") => return None,
            Some(word) => absolute(
                word,
                &Call {
                    cwd: &here,
                    ..*call
                },
            )?,
        };
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
    let here = folder(cd, call)?;
    absolute(
        word,
        &Call {
            cwd: &here,
            ..*call
        },
    )
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

    use super::{absolute, absolute_after};
    use crate::Call;

    #[test]
    fn words_become_absolute_paths() {
        let tool = Tool::Other(serde_json::Value::Null);
        let call = Call {
            tool: &tool,
            cwd: Path::new("/home/dev/project"),
            home: Some(Path::new("/home/dev")),
        };
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
}
