//! `protected-paths`: writes to Git's internals (`.git/`), lockfiles, CI files and the paths
//! the user lists, through any tool.
//!
//! # What it blocks
//!
//! A write, an edit, a deletion, a move or a link of a protected path:
//!
//! - by a tool: Claude Code's `Write`, `Edit`, `MultiEdit`, `NotebookEdit`; Codex's
//!   `apply_patch` (every file it adds, updates, deletes or moves to);
//! - by a shell command: output redirections (`>`, `>>`, `>|`, `&>`, `<>`); `tee` and
//!   `sponge`; in-place editors (`sed -i`, `perl -i`, `ruby -i`, `awk -i inplace`, `ed`,
//!   `vim`...); `cp`, `install`, `rsync` and `ln` destinations (a destination folder with each
//!   source's name in it: `cp /tmp/Cargo.lock .`), `ln` targets (a link is a way to write
//!   them) and `mv` sources (moving a lockfile away is a write); `rm`, `unlink`, `rmdir`,
//!   `shred`, `truncate`, `touch`, `mkdir`, `chmod`, `chown`; `dd of=`; `curl -o`, `wget -O`;
//!   `patch FILE`; `find -delete`, and `find -exec` of any of these on what it finds (its
//!   starting folders narrowed by `-name` and `-path`); `git rm` and `git mv`. Every form that
//!   runs them is read ([`crate::command`]): `sudo`, `env`, `xargs`, `find -exec`, `sh -c`
//!   strings, `$(…)` (inside double quotes too), pipelines and lists, quoting, absolute
//!   program paths, a here-document a shell reads (`bash <<EOF`, `cat <<EOF | sh`); paths are
//!   read relative to the folder the command is in (`cd` is followed), with `~`, `$HOME`,
//!   `..`.
//! - Deleting or moving a folder that holds a protected path (`rm -rf .github` holds the CI
//!   workflows, `rm -r config` holds a listed `config/prod.yml`).
//!
//! The protected paths:
//!
//! - **Git's internals**: any `.git` folder (or a worktree's `.git` file) and all it holds, at
//!   any depth (`../other/.git/config` too). Git's own commands (`git commit`, `git
//!   checkout`, `git config`, `git branch`...) write them and are allowed; a hand edit of
//!   `.git/config`, `.git/hooks/*`, `rm -rf .git`, `rm .git/index.lock` are not.
//!   `.gitignore`, `.gitattributes` and `.gitmodules` are ordinary files.
//! - **Lockfiles** (`lockfiles=false` switches them off), by name at any depth: `Cargo.lock`,
//!   `package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`, `pnpm-lock.yaml`, `bun.lock`,
//!   `bun.lockb`, `deno.lock`, `poetry.lock`, `Pipfile.lock`, `uv.lock`, `pdm.lock`,
//!   `pixi.lock`, `Gemfile.lock`, `composer.lock`, `go.sum`, `go.work.sum`, `flake.lock`,
//!   `mix.lock`, `pubspec.lock`, `Podfile.lock`, `packages.lock.json`, `Package.resolved`,
//!   `gradle.lockfile`, `.terraform.lock.hcl`. The package manager writes them (`cargo
//!   update`, `npm install`, `yarn add`... are not read, so allowed); the reason names the
//!   command to run instead.
//! - **CI files** (`ci-files=false` switches them off), at any depth: `.github/workflows/`,
//!   `.github/actions/`, `.gitlab-ci.yml`, `.circleci/`, `azure-pipelines.yml`,
//!   `.azure-pipelines/`, `Jenkinsfile`, `.buildkite/`, `.travis.yml`,
//!   `bitbucket-pipelines.yml`, `.drone.yml`, `.woodpecker.yml`, `.woodpecker/`,
//!   `.gitea/workflows/`, `.forgejo/workflows/`, `appveyor.yml`, `.cirrus.yml` (a trailing `/`:
//!   the folder and all it holds). The rest of `.github/` (issue templates, `CODEOWNERS`...)
//!   is not protected.
//! - **The user's paths** (`paths=config/prod.yml,secrets/,*.pem`).
//!
//! Reads are never blocked (the `secrets` guard reads those).
//!
//! # Options
//!
//! - `paths`: more protected paths, comma-separated. An absolute path, or `~/…`, `$HOME/…`,
//!   is taken as written; a path with a `/` (`config/prod.yml`, `./schema.sql`) is relative
//!   to the project (the session's working directory); a bare name (`schema.sql`, `*.pem`)
//!   is that name at any depth inside the project; `**/name` is that name anywhere. A path
//!   protects itself and, if it is a folder, all it holds; a trailing `/` says it is a folder
//!   (then a `find -name` filter is not matched against its own name). `*` matches within one
//!   component, `?` one character, `[...]` one of a class, `**` any number of components. An
//!   entry naming another
//!   expansion (`$DIR/x`, `~other/x`) is skipped.
//! - `allowed-paths`: paths never blocked, written alike; they win over everything
//!   (`allowed-paths=.git/info/exclude` lets the agent add to the project's local ignores).
//! - `lockfiles`, `ci-files`: `false` stops protecting that group (Git's internals are always
//!   protected unless allowed, e.g. `allowed-paths=**/.git/`).
//!
//! # Choices
//!
//! - Names are compared ignoring ASCII case (a case-insensitive filesystem writes
//!   `.GIT/config` to `.git/config`).
//! - The built-in groups do not protect scratch copies outside the project under `/tmp` and
//!   `/var/tmp` (`cp Cargo.lock /tmp/` is allowed); the user's paths are protected there too.
//! - A destination is known to be a folder, and each source's name in it written, only when
//!   written so: a trailing `/`, `.`, `..`, `~`, `-t DIR`, or several sources. `cp
//!   Cargo.lock Cargo.lock.bak` is allowed (the lockfile is only read).
//! - A path holding an expansion is read from what follows the first one: `$ROOT/.git/config`
//!   is blocked (a `.git` folder at any depth), `"$OUT"` is allowed (unknown); so is a
//!   relative path after a `cd` to a folder known only at run time (`cd "$DIR" && rm -f
//!   Cargo.lock` is blocked, as a lockfile at any depth).
//! - A shell glob is read as the names it may match (`rm -rf .git*`, `rm -f Cargo.loc?`), a
//!   lockfile or CI file by its wildcards only in the project or a folder above it, where
//!   they live: `rm -f *.json` and `find . -name '*.json' -delete` are blocked (they may
//!   delete `package-lock.json`), `rm -f fixtures/*.json` is not. A wildcard alone names
//!   nothing in particular: `rm -rf target/*`, `find . -delete` are allowed.
//! - A command the guard cannot read (a program named by a variable: `$EDITOR .git/config`)
//!   is [`Verdict::Unreadable`]: no decision.
//!
//! # Limitations
//!
//! - Programs that write files named in their own language are not read: `python -c
//!   "open('.git/config','w')"`, `node -e`, `git apply`, `tar -x`, `unzip`, Makefiles and
//!   scripts; nor files piped to `xargs` (`echo Cargo.lock | xargs rm`: its operands come from
//!   stdin).
//! - The filesystem is never read: symlinks are not followed, a folder that holds a `.git` or
//!   a lockfile cannot be known (`rm -rf vendor` is allowed), nor whether a destination
//!   without a trailing `/` is a folder (`cp ../x/Cargo.lock sub` is allowed).
//! - A redirection of a command that runs no program (`> .git/config` alone, `done >
//!   Cargo.lock`) is read against every folder the command `cd`s to; every other path is read
//!   against the folder its command runs in.
//! - A here-document's body is the text a program is given (`cat > notes.md <<EOF`), not
//!   commands, unless a shell reads it as its script; a script written to a file and run
//!   (`cat > x.sh <<EOF … EOF; sh x.sh`) is not read.

use std::path::Path;

use crate::options::OptionSpec;
use crate::{Builtin, Call, Settings, Verdict};
use hook_sdk::Tool;

mod cases;
mod rules;
mod writes;

use rules::{Group, Hit, Reach, Rules};
use writes::Target;

pub(crate) static GUARD: Builtin = Builtin {
    name: "protected-paths",
    summary: "writes to .git/, lockfiles, CI files and the paths you list, through any tool",
    matcher: "Bash|Write|Edit|MultiEdit|NotebookEdit",
    options: &[
        OptionSpec::list(
            "paths",
            "",
            "more protected paths: relative to the project, absolute or ~/...; a trailing / for a folder, * and ** globs",
        ),
        OptionSpec::list(
            "allowed-paths",
            "",
            "paths the guard never blocks, written like `paths`",
        ),
        OptionSpec::flag(
            "lockfiles",
            "true",
            "protect lockfiles (Cargo.lock, package-lock.json...): the package manager writes them",
        ),
        OptionSpec::flag(
            "ci-files",
            "true",
            "protect CI files (.github/workflows/, .gitlab-ci.yml...)",
        ),
    ],
    check,
    cases: cases::CASES,
};

fn check(call: &Call<'_>, settings: &Settings) -> Verdict {
    let (targets, unreadable) = match call.tool {
        Tool::Bash { command, .. } => writes::of_command(command, call),
        Tool::ApplyPatch { files, .. } => {
            (tool_targets(files, "`apply_patch` changes", call), None)
        }
        Tool::Write { file_path, .. } => (tool_targets([file_path], "`Write` writes", call), None),
        Tool::Edit { file_path, .. } => (tool_targets([file_path], "`Edit` changes", call), None),
        Tool::MultiEdit { file_path, .. } => {
            (tool_targets([file_path], "`MultiEdit` changes", call), None)
        }
        Tool::NotebookEdit { notebook_path, .. } => (
            tool_targets([notebook_path], "`NotebookEdit` changes", call),
            None,
        ),
        _ => return Verdict::Allow,
    };
    let rules = Rules::new(call, settings);
    for target in &targets {
        if let Some(hit) = rules.hit(&target.path, &target.reach, target.tail_only) {
            return Verdict::Block {
                reason: reason(target, &hit, call.cwd),
            };
        }
    }
    match unreadable {
        Some(why) => Verdict::Unreadable { why },
        None => Verdict::Allow,
    }
}

/// The files a tool call names, as targets.
fn tool_targets<'a>(
    files: impl IntoIterator<Item = &'a String>,
    verb: &str,
    call: &Call<'_>,
) -> Vec<Target> {
    files
        .into_iter()
        .filter_map(|file| crate::paths::absolute(file, call))
        .map(|path| Target {
            path,
            tail_only: false,
            reach: Reach::Exact,
            verb: verb.to_owned(),
        })
        .collect()
}

/// One sentence: what was blocked, and what to do instead.
fn reason(target: &Target, hit: &Hit<'_>, cwd: &Path) -> String {
    let shown = match hit {
        Hit::May(rule) => format!(
            "`{}` (which may match `{}`)",
            shown(target, cwd),
            rule.describe()
        ),
        _ => format!("`{}`", shown(target, cwd)),
    };
    let verb = &target.verb;
    match hit {
        Hit::Direct(rule) | Hit::May(rule) => match &rule.group {
            Group::Git => format!(
                "{verb} {shown}, inside a Git folder: Git's internals are written by git itself, so use git's own commands (git config, git commit, git checkout...) instead, or ask the user"
            ),
            Group::Lockfile(command) => format!(
                "{verb} the lockfile {shown} by hand: lockfiles are written by their package manager, so change the dependency in its manifest and run `{command}` instead"
            ),
            Group::Ci => format!(
                "{verb} {shown}, part of the CI configuration: CI files are protected, so describe the change to the user instead of making it"
            ),
            Group::User(entry) => format!(
                "{verb} {shown}, which the user protected (`{entry}`): leave it as it is, or ask the user to change it"
            ),
        },
        Hit::Holds(rule) => {
            let held = match &rule.group {
                Group::Git => "a Git folder".to_owned(),
                Group::Lockfile(_) => "a lockfile".to_owned(),
                Group::Ci => format!("CI files (`{}`)", rule.describe()),
                Group::User(entry) => format!("`{entry}`, which the user protected"),
            };
            format!(
                "{verb} {shown}, which holds {held}: act only on what is not protected, or ask the user"
            )
        }
    }
}

/// The target's path for people: relative to the project when inside it.
fn shown(target: &Target, cwd: &Path) -> String {
    if target.tail_only {
        return format!("…{}", target.path.display());
    }
    match target.path.strip_prefix(cwd) {
        Ok(inside) if inside.as_os_str().is_empty() => ".".to_owned(),
        Ok(inside) => inside.display().to_string(),
        Err(_) => target.path.display().to_string(),
    }
}

#[cfg(test)]
mod tests;
