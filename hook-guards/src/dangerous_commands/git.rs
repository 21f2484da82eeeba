//! Git: force-pushes to (and deletes of) protected branches, and the commands that discard
//! uncommitted work (`reset --hard`, `clean -f`, `checkout -- .`, `restore .`, `switch -f`).

use std::path::Path;

use crate::args::{self, Options};
use crate::command::Invocation;
use crate::glob::Compare;
use crate::paths;

use super::{Finding, Scene};

pub(super) fn check(scene: &Scene<'_>, out: &mut Vec<Finding>) {
    for invocation in &scene.reading.invocations {
        if invocation.program != "git" {
            continue;
        }
        let Some(git) = args::git(&invocation.args) else {
            continue;
        };
        let args = git.args;
        let finding = match git.subcommand {
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

fn push(scene: &Scene<'_>, args: &[String]) -> Option<Finding> {
    let args = Options::read(
        args,
        "o",
        "",
        &["push-option", "repo", "receive-pack", "exec"],
    );
    if args.any_of("n", &["dry-run"]) {
        return None;
    }
    let protected = scene.protected.join(", ");
    if args.any_of("", &["mirror"]) {
        return Some(Finding::Block(format!(
            "`git push --mirror` would overwrite and delete the remote's branches, protected ones ({protected}) too: push the branches you mean by name"
        )));
    }
    let force = args.any_of("f", &["force", "force-with-lease"]);
    let delete = args.any_of("d", &["delete"]);
    let refspecs: Vec<&str> = args.operands.iter().skip(1).copied().collect();
    let every_branch = args.any_of("", &["all", "branches"]);
    // `git push --tags -f`: tags only.
    let tags_only = args.any_of("", &["tags"]) && refspecs.is_empty() && !every_branch;
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
            Compare::EXACT.matches(branch, destination)
                || (destination.contains('*') && Compare::EXACT.matches(destination, branch))
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
    let args = Options::read(args, "e", "", &["exclude"]);
    (args.any_of("f", &["force"]) && !args.any_of("n", &["dry-run"])).then(|| {
        Finding::Block(
            "`git clean -f` deletes untracked files for good: run `git clean -n` to see what it would delete, then delete the files you mean by name, or ask the user".to_owned(),
        )
    })
}

fn checkout(scene: &Scene<'_>, invocation: &Invocation, args: &[String]) -> Option<Finding> {
    let args = Options::read(args, "bB", "", &["orphan", "conflict"]);
    if args.any_of("p", &["patch"]) {
        return None;
    }
    if args.any_of("f", &["force"]) {
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
    let args = Options::read(args, "s", "", &["source"]);
    if args.any_of("p", &["patch"])
        || (args.any_of("S", &["staged"]) && !args.any_of("W", &["worktree"]))
    {
        return None;
    }
    let spec = whole_tree(scene, invocation, args.pathspecs())?;
    Some(Finding::Block(format!(
        "`git restore {spec}` discards every uncommitted change: commit or stash them first (`git stash`), restore single files by name, or ask the user"
    )))
}

fn switch(args: &[String]) -> Option<Finding> {
    let args = Options::read(
        args,
        "cC",
        "",
        &["create", "force-create", "orphan", "conflict"],
    );
    (args.any_of("f", &["force", "discard-changes"])).then(|| {
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
