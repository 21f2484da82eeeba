//! Git: force-pushes to (and deletes of) protected branches, and the commands that discard
//! uncommitted work (`reset --hard`, `clean -f`, `checkout -- .`, `restore .`, `switch -f`).

use std::path::Path;

use crate::command::Invocation;
use crate::paths;

use super::{Finding, Scene};

/// Git's global options that take the next word as their value (`git -C dir push`).
const GLOBAL_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
    "--list-cmds",
];

/// A subcommand's arguments, options that take a value skipped.
#[derive(Debug, Default)]
struct Args<'a> {
    /// Short option letters, merged or split alike.
    letters: Vec<char>,
    /// Long option names, without `--` and `=value`.
    longs: Vec<&'a str>,
    /// Operands before `--`.
    operands: Vec<&'a str>,
    /// Operands after `--`, when there is one.
    after_dashes: Option<Vec<&'a str>>,
}

impl Args<'_> {
    fn has(&self, letter: char, long: &str) -> bool {
        self.letters.contains(&letter) || self.longs.contains(&long)
    }

    /// The pathspecs: after `--` when there is one, else every operand.
    fn pathspecs(&self) -> &[&str] {
        self.after_dashes.as_deref().unwrap_or(&self.operands)
    }
}

/// Reads `args`: `short_valued` letters take the rest of the word or the next word as their
/// value, `long_valued` names the next word when written without `=`.
fn parse<'a>(args: &'a [String], short_valued: &str, long_valued: &[&str]) -> Args<'a> {
    let mut out = Args::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if let Some(after) = &mut out.after_dashes {
            after.push(arg);
        } else if arg == "--" {
            out.after_dashes = Some(Vec::new());
        } else if let Some(long) = arg.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            out.longs.push(name);
            if !long.contains('=') && long_valued.contains(&long) {
                iter.next();
            }
        } else if let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) {
            for (at, letter) in letters.char_indices() {
                out.letters.push(letter);
                if short_valued.contains(letter) {
                    if at + letter.len_utf8() == letters.len() {
                        iter.next();
                    }
                    break;
                }
            }
        } else {
            out.operands.push(arg);
        }
    }
    out
}

pub(super) fn check(scene: &Scene<'_>, out: &mut Vec<Finding>) {
    for invocation in &scene.reading.invocations {
        if invocation.program != "git" {
            continue;
        }
        let Some((subcommand, args)) = subcommand(invocation) else {
            continue;
        };
        let finding = match subcommand {
            "push" => push(scene, args),
            "reset" => reset(args),
            "clean" => clean(args),
            "checkout" => checkout(scene, invocation, args),
            "restore" => restore(scene, invocation, args),
            "switch" => switch(args),
            _ => None,
        };
        out.extend(finding);
    }
}

/// The subcommand of a `git` invocation and the arguments after it.
fn subcommand(invocation: &Invocation) -> Option<(&str, &[String])> {
    let args = &invocation.args;
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        if GLOBAL_VALUED.contains(&arg.as_str()) {
            index += 2;
        } else if arg.starts_with('-') {
            index += 1;
        } else {
            return Some((arg, args.get(index + 1..).unwrap_or_default()));
        }
    }
    None
}

fn push(scene: &Scene<'_>, args: &[String]) -> Option<Finding> {
    let args = parse(args, "o", &["push-option", "repo", "receive-pack", "exec"]);
    if args.has('n', "dry-run") {
        return None;
    }
    let protected = scene.protected.join(", ");
    if args.longs.contains(&"mirror") {
        return Some(Finding::Block(format!(
            "`git push --mirror` would overwrite and delete the remote's branches, protected ones ({protected}) too: push the branches you mean by name"
        )));
    }
    let force = args.has('f', "force") || args.longs.contains(&"force-with-lease");
    let delete = args.has('d', "delete");
    let mut operands = args
        .operands
        .iter()
        .chain(args.after_dashes.iter().flatten());
    let _remote = operands.next();
    let refspecs: Vec<&str> = operands.copied().collect();
    let every_branch = args.longs.iter().any(|l| matches!(*l, "all" | "branches"));
    // `git push --tags -f`: tags only.
    let tags_only = args.longs.contains(&"tags") && refspecs.is_empty() && !every_branch;
    if force && !tags_only && (refspecs.is_empty() || every_branch) {
        return Some(Finding::Block(format!(
            "a force-push that names no branch may overwrite a protected branch ({protected}), and the guard cannot see which branch is checked out: name the branch (`git push --force-with-lease origin my-branch`)"
        )));
    }
    for spec in refspecs {
        let plus = spec.starts_with('+');
        let spec = spec.trim_start_matches('+');
        let (source, destination) = spec.split_once(':').unwrap_or((spec, spec));
        let destination = destination
            .strip_prefix("refs/heads/")
            .unwrap_or(destination);
        let deleting = delete || (spec.contains(':') && source.is_empty());
        if !(force || plus || deleting) {
            continue;
        }
        if matches!(destination, "HEAD" | "@" | "") {
            return Some(Finding::Block(format!(
                "a force-push of `{spec}` may overwrite a protected branch ({protected}), and the guard cannot see which branch is checked out: name the branch (`git push --force-with-lease origin my-branch`)"
            )));
        }
        let Some(branch) = scene.protected.iter().find(|branch| {
            wildcard(branch, destination)
                || (destination.contains('*') && wildcard(destination, branch))
        }) else {
            continue;
        };
        return Some(Finding::Block(if deleting {
            format!(
                "`git push` would delete the protected branch `{branch}` on the remote: leave it, or ask the user"
            )
        } else {
            format!(
                "`git push` forcing the protected branch `{branch}` would overwrite its history on the remote: push your work to another branch (and open a pull request), or ask the user"
            )
        }));
    }
    None
}

fn reset(args: &[String]) -> Option<Finding> {
    args.iter().any(|a| a == "--hard").then(|| {
        Finding::Block(
            "`git reset --hard` discards uncommitted changes for good: commit or stash them first (`git stash`), or ask the user".to_owned(),
        )
    })
}

fn clean(args: &[String]) -> Option<Finding> {
    let args = parse(args, "e", &["exclude"]);
    (args.has('f', "force") && !args.has('n', "dry-run")).then(|| {
        Finding::Block(
            "`git clean -f` deletes untracked files for good: run `git clean -n` to see what it would delete, then delete the files you mean by name, or ask the user".to_owned(),
        )
    })
}

fn checkout(scene: &Scene<'_>, invocation: &Invocation, args: &[String]) -> Option<Finding> {
    let args = parse(args, "bB", &["orphan", "conflict"]);
    if args.has('p', "patch") {
        return None;
    }
    if args.has('f', "force") {
        return Some(Finding::Block(
            "`git checkout -f` throws away uncommitted changes: commit or stash them first (`git stash`), or ask the user".to_owned(),
        ));
    }
    let spec = whole_tree(scene, invocation, args.pathspecs())?;
    Some(Finding::Block(format!(
        "`git checkout {spec}` discards every uncommitted change: commit or stash them first (`git stash`), restore single files by name, or ask the user"
    )))
}

fn restore(scene: &Scene<'_>, invocation: &Invocation, args: &[String]) -> Option<Finding> {
    let args = parse(args, "s", &["source"]);
    if args.has('p', "patch") || (args.has('S', "staged") && !args.has('W', "worktree")) {
        return None;
    }
    let spec = whole_tree(scene, invocation, args.pathspecs())?;
    Some(Finding::Block(format!(
        "`git restore {spec}` discards every uncommitted change: commit or stash them first (`git stash`), restore single files by name, or ask the user"
    )))
}

fn switch(args: &[String]) -> Option<Finding> {
    let args = parse(
        args,
        "cC",
        &["create", "force-create", "orphan", "conflict"],
    );
    (args.has('f', "force") || args.longs.contains(&"discard-changes")).then(|| {
        Finding::Block(
            "`git switch` discarding changes throws away uncommitted work: commit or stash it first (`git stash`), or ask the user".to_owned(),
        )
    })
}

/// The first pathspec covering the whole work tree: `:/`, `:(top)`, or a path reaching the
/// project or a folder above it (`.`, `*`, `..`).
fn whole_tree<'a>(
    scene: &Scene<'_>,
    invocation: &Invocation,
    pathspecs: &[&'a str],
) -> Option<&'a str> {
    pathspecs.iter().copied().find(|spec| {
        if let Some(magic) = spec.strip_prefix(':') {
            let rest = magic
                .strip_prefix("(top)")
                .or_else(|| magic.strip_prefix('/'));
            return rest.is_some_and(|rest| rest.is_empty() || rest == "*" || rest == ".");
        }
        paths::absolute_after(spec, &invocation.cd, scene.call)
            .is_some_and(|path| scene.project().starts_with(whole(&path)))
    })
}

/// `path` without a last component that is a wildcard alone (`*`).
fn whole(path: &Path) -> &Path {
    match path.file_name().map(|name| name.to_string_lossy()) {
        Some(name) if name.chars().all(|c| c == '*') => path.parent().unwrap_or(path),
        _ => path,
    }
}

/// Whether `text` matches `pattern`, where `*` is any run of characters. Linear-time
/// backtracking on the last `*` only.
fn wildcard(pattern: &str, text: &str) -> bool {
    let (pattern, text) = (pattern.as_bytes(), text.as_bytes());
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::wildcard;

    #[test]
    fn branch_patterns() {
        for (pattern, text, expected) in [
            ("main", "main", true),
            ("main", "main2", false),
            ("release/*", "release/1.2", true),
            ("release/*", "releases", false),
            ("*", "anything", true),
            ("refs/heads/*", "refs/heads/main", true),
            ("a*b*c", "aXbYc", true),
            ("a*b*c", "aXbY", false),
        ] {
            assert_eq!(wildcard(pattern, text), expected, "{pattern} {text}");
        }
    }
}
