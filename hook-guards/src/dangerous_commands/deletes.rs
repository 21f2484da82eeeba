//! Recursive deletes (`rm -r`, `find -delete`, `find -exec rm -r`, `xargs rm -r`) and
//! recursive permission changes (`chmod -R 777`, `chown -R … /usr`).

use std::path::{Component, Path, PathBuf};

use crate::args;
use crate::command::Invocation;
use crate::paths;

use super::{Finding, Scene, shown};

/// `find`'s tests that narrow what it finds (`-type` does not: `find . -type f -delete`
/// still deletes every file).
const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-empty",
    "-newer",
    "-newermt",
    "-anewer",
    "-cnewer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-perm",
    "-links",
    "-inum",
    "-samefile",
    "-nouser",
    "-nogroup",
];

/// Where a delete reaches, against the project and the allowed paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Everything in the project.
    Project,
    /// A folder holding the project (`/`, the home folder...).
    HoldsProject,
    /// The home folder or a folder holding it, wherever the project is (a home under an
    /// allowed path, `/tmp/...`, is still the home).
    HoldsHome,
    /// Inside the project.
    Inside,
    /// Inside an allowed path.
    Allowed,
    /// Elsewhere.
    Outside,
}

/// One path a delete reaches: the word as written and the folder it is read in (the `cd`s
/// before it), whether a filter narrows what is deleted under it (`find -name`), and what
/// deletes it, for the reason.
struct Target<'a> {
    word: String,
    cd: &'a [Option<String>],
    narrowed: bool,
    verb: String,
}

pub(super) fn check(scene: &Scene<'_>, out: &mut Vec<Finding>) {
    for (index, invocation) in scene.reading.invocations.iter().enumerate() {
        match invocation.program.as_str() {
            "rm" if recursive(invocation) => {
                let targets = rm_targets(scene, index, invocation, out);
                judge_all(scene, &targets, out);
            }
            "find" if invocation.args.iter().any(|a| a == "-delete") => {
                let (starts, narrowed) = find_starts(invocation);
                let targets: Vec<Target<'_>> = starts
                    .into_iter()
                    .map(|word| Target {
                        word,
                        cd: &invocation.cd,
                        narrowed,
                        verb: "`find -delete`".to_owned(),
                    })
                    .collect();
                judge_all(scene, &targets, out);
            }
            "chmod" | "chown" | "chgrp" => permissions(scene, invocation, out),
            _ => {}
        }
    }
}

/// `rm -r`, `-R`, `--recursive`, however the flags are written.
fn recursive(invocation: &Invocation) -> bool {
    let flags = invocation.short_flags();
    flags.contains(&'r') || flags.contains(&'R') || invocation.has_long("recursive")
}

/// What an `rm -r` deletes: its operands, `find`'s starting folders for `{}` under `find
/// -exec`, and what `xargs` gives it from the command piped in.
fn rm_targets<'a>(
    scene: &'a Scene<'_>,
    index: usize,
    invocation: &'a Invocation,
    out: &mut Vec<Finding>,
) -> Vec<Target<'a>> {
    let invocations = &scene.reading.invocations;
    let through_xargs = invocation.through.iter().any(|w| w == "xargs");
    let mut targets = Vec::new();
    let plain = |word: &str, verb: &str| Target {
        word: word.to_owned(),
        cd: &invocation.cd,
        narrowed: false,
        verb: verb.to_owned(),
    };
    for operand in invocation.path_operands() {
        let operand = operand.as_str();
        if operand != "{}" {
            targets.push(plain(operand, "`rm -r`"));
            continue;
        }
        // `find … -exec rm -rf {} +`, also in a `sh -c` string `find` runs.
        let find = std::iter::successors(invocations[index].parent, |&p| invocations[p].parent)
            .map(|p| &invocations[p])
            .find(|i| i.program == "find");
        if let Some(find) = find {
            let (starts, narrowed) = find_starts(find);
            targets.extend(starts.into_iter().map(|word| Target {
                word,
                cd: &find.cd,
                narrowed,
                verb: "`find -exec rm -r`".to_owned(),
            }));
        } else if !through_xargs {
            targets.push(plain(operand, "`rm -r`"));
        }
    }
    if through_xargs {
        let source = invocation.stdin_from.map(|i| &invocations[i]);
        match source {
            Some(find) if find.program == "find" => {
                let (starts, narrowed) = find_starts(find);
                targets.extend(starts.into_iter().map(|word| Target {
                    word,
                    cd: &find.cd,
                    narrowed,
                    verb: "`find | xargs rm -r`".to_owned(),
                }));
            }
            Some(words) if matches!(words.program.as_str(), "echo" | "printf") => {
                targets.extend(words.path_operands().into_iter().map(|word| Target {
                    word,
                    cd: &words.cd,
                    narrowed: false,
                    verb: format!("`{} | xargs rm -r`", words.program),
                }));
            }
            // `ls DIR | xargs rm -r`: all DIR holds.
            Some(ls) if ls.program == "ls" => {
                let operands = ls.path_operands();
                let folders = if operands.is_empty() {
                    vec![".".to_owned()]
                } else {
                    operands
                };
                targets.extend(folders.into_iter().map(|folder| Target {
                    word: format!("{}/*", folder.trim_end_matches('/')),
                    cd: &ls.cd,
                    narrowed: false,
                    verb: "`ls | xargs rm -r`".to_owned(),
                }));
            }
            Some(other) => out.push(Finding::Unknown(format!(
                "`xargs rm -r` deletes what `{}` prints, known only when it runs",
                other.program
            ))),
            None => out.push(Finding::Unknown(
                "`xargs rm -r` deletes what it reads on its input, known only when it runs"
                    .to_owned(),
            )),
        }
    }
    targets
}

/// `find`'s starting folders (`.` when none), and whether a test narrows what it finds.
fn find_starts(find: &Invocation) -> (Vec<String>, bool) {
    let path_args = find.path_args();
    let (starts, expression) = args::find(&path_args);
    let narrowed = expression.iter().any(|a| NARROWING.contains(&a.as_str()));
    (starts.into_iter().map(str::to_owned).collect(), narrowed)
}

fn judge_all(scene: &Scene<'_>, targets: &[Target<'_>], out: &mut Vec<Finding>) {
    for target in targets {
        let Some(path) = paths::absolute_after(&target.word, target.cd, scene.call) else {
            out.push(Finding::Unknown(format!(
                "{} of `{}`, a path known only when it runs",
                target.verb, target.word
            )));
            continue;
        };
        let reach = reach(&path);
        let project = scene.project();
        let place = place(scene, &reach, target.narrowed);
        let reason = match place {
            Place::Inside | Place::Allowed => continue,
            Place::Project => format!(
                "{} would delete everything in the project {}: delete only the files or folders you mean inside it (`rm -rf build`)",
                target.verb,
                shown(project, scene.call)
            ),
            Place::HoldsProject => format!(
                "{} would delete `{}`, which holds the project: delete only inside the project {}, or ask the user to do it",
                target.verb,
                shown(&reach, scene.call),
                shown(project, scene.call)
            ),
            Place::HoldsHome => format!(
                "{} would delete `{}`, which holds the home folder: delete only inside the project {}, or ask the user to do it",
                target.verb,
                shown(&reach, scene.call),
                shown(project, scene.call)
            ),
            Place::Outside => format!(
                "{} would delete `{}`, outside the project {}: delete only inside the project, or ask the user to do it (or to allow the folder with `--set allowed-paths=...`)",
                target.verb,
                shown(&path, scene.call),
                shown(project, scene.call)
            ),
        };
        out.push(Finding::Block(reason));
    }
}

/// The folder `path` reaches as a whole: up to its first component that is a wildcard alone
/// (`*`, `.*`, `?*`), which stands for all its folder holds.
fn reach(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        if let Component::Normal(name) = component {
            let name = name.to_string_lossy();
            let wildcard = name.contains(['*', '?', '['])
                && name.chars().all(|c| matches!(c, '*' | '?' | '.'));
            if wildcard {
                break;
            }
        }
        out.push(component);
    }
    out
}

fn place(scene: &Scene<'_>, reach: &Path, narrowed: bool) -> Place {
    let project = scene.project();
    if reach == project {
        if narrowed {
            Place::Inside
        } else {
            Place::Project
        }
    } else if project.starts_with(reach) {
        Place::HoldsProject
    } else if reach.starts_with(project) {
        Place::Inside
    } else if scene.call.home.is_some_and(|home| home.starts_with(reach)) {
        Place::HoldsHome
    } else if scene
        .allowed
        .iter()
        .any(|allowed| reach.starts_with(allowed) && reach != allowed)
    {
        Place::Allowed
    } else {
        Place::Outside
    }
}

/// `chmod -R` to a world-writable mode anywhere; a recursive `chmod`, `chown` or `chgrp` of
/// `/` or a folder right under it.
fn permissions(scene: &Scene<'_>, invocation: &Invocation, out: &mut Vec<Finding>) {
    let recursive = invocation.short_flags().contains(&'R') || invocation.has_long("recursive");
    if !recursive {
        return;
    }
    let operands = invocation.path_operands();
    // The first operand is the mode or the owner, but with `--reference=FILE`.
    let (first, targets) = if invocation.has_long("reference") {
        (None, operands.as_slice())
    } else {
        match operands.split_first() {
            Some((first, targets)) => (Some(first.as_str()), targets),
            None => return,
        }
    };
    let program = &invocation.program;
    if program == "chmod"
        && let Some(mode) = first
        && world_writable(mode)
    {
        let what = targets.first().map_or("the files", String::as_str);
        out.push(Finding::Block(format!(
            "`chmod -R {mode}` would make everything under `{what}` writable by every user: give only the permission needed (`chmod -R u+w {what}`, `chmod -R 755 {what}`)"
        )));
        return;
    }
    for target in targets {
        let Some(path) = paths::absolute_after(target, &invocation.cd, scene.call) else {
            continue;
        };
        let path = reach(&path);
        if path.components().count() <= 2 {
            out.push(Finding::Block(format!(
                "`{program} -R` on `{}` would change every file of the system folder: change only the files you need, or ask the user to do it",
                path.display()
            )));
        }
    }
}

/// Whether `mode` (octal or symbolic) gives others the right to write.
fn world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        return mode
            .chars()
            .last()
            .and_then(|c| c.to_digit(8))
            .is_some_and(|others| others & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let who_end = clause
            .find(|c: char| !matches!(c, 'u' | 'g' | 'o' | 'a'))
            .unwrap_or(clause.len());
        let (who, rest) = clause.split_at(who_end);
        // `+w`, `=rwx` after `o`/`a`: each operator with the permissions after it.
        let mut grants = false;
        who.contains(['o', 'a'])
            && rest.chars().any(|c| {
                if matches!(c, '+' | '=' | '-') {
                    grants = c != '-';
                }
                grants && c == 'w'
            })
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{reach, world_writable};

    #[test]
    fn modes_that_let_others_write() {
        for (mode, expected) in [
            ("777", true),
            ("0777", true),
            ("1777", true),
            ("666", true),
            ("772", true),
            ("755", false),
            ("775", false),
            ("644", false),
            ("a+rwx", true),
            ("o+w", true),
            ("ugo+rwx", true),
            ("a=rwx", true),
            ("go+w", true),
            ("u+w", false),
            ("g+w", false),
            ("+x", false),
            ("o-w", false),
            ("u+x,o+w", true),
            ("a-w+x", false),
        ] {
            assert_eq!(world_writable(mode), expected, "{mode}");
        }
    }

    #[test]
    fn a_wildcard_alone_reaches_its_whole_folder() {
        for (path, expected) in [
            ("/home/dev/*", "/home/dev"),
            ("/home/dev/.*", "/home/dev"),
            ("/tmp/build-*", "/tmp/build-*"),
            ("/a/*/b", "/a"),
            ("/", "/"),
        ] {
            assert_eq!(reach(Path::new(path)), Path::new(expected), "{path}");
        }
    }
}
