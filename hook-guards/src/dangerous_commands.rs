//! `dangerous-commands`: shell commands that destroy what cannot be got back.
//!
//! # What it blocks
//!
//! - **Recursive deletes** (`rm -r`/`-R`/`--recursive`, `find … -delete`, `find … -exec rm -r
//!   {} +`, `… | xargs rm -r`) of `/`, the home folder, a folder holding the project, the
//!   project itself (everything in it: `rm -rf *`, `find . -delete`), or anything outside the
//!   project but inside an allowed path (`/tmp/x` by default). Targets are read as the shell
//!   would find them: `~`, `$HOME`, `..` (`rm -rf ../..`), the folder `cd` moved to, a
//!   wildcard alone standing for the whole folder (`rm -rf ~/*`), `find`'s starting folders
//!   for `{}` and for what `find` pipes into `xargs`, `echo`'s and `ls`'s words for `xargs`.
//! - **Force-pushes to a protected branch** (`git push -f`/`--force`/`--force-with-lease`,
//!   a `+` refspec, `--mirror`), and deleting one (`git push origin :main`, `--delete`):
//!   `git push -f origin main`, `git push origin +main`, `git push origin HEAD:main --force`,
//!   `git push origin +refs/heads/*:refs/heads/*`.
//! - **Discarding uncommitted work**: `git reset --hard`, `git clean -f` (any form: `-fd`,
//!   `-xdf`, `--force`) but `-n`, `git checkout -- .`/`git checkout .` (a pathspec covering
//!   the whole tree: `.`, `:/`, `*`, the project or a folder above it), `git checkout -f`,
//!   `git restore .` (but `--staged` alone), `git switch -f`/`--discard-changes`. Git's global
//!   options are read (`git -C dir reset --hard`).
//! - **World-writable recursive permissions**: `chmod -R 777`, `chmod 777 -R`, `chmod -R
//!   a+rwx`/`o+w` (any mode giving others write); and a recursive `chmod`, `chown` or `chgrp`
//!   of `/` or a folder right under it (`chmod -R 755 /usr`).
//! - **Writing to a disk device**: `dd of=/dev/sda`, `mkfs.ext4 /dev/sdb1` (`mkfs*`, `mke2fs`,
//!   `mkswap`, `wipefs`, `blkdiscard`, `shred`), `tee /dev/sda`, `cp x /dev/sda`, `> /dev/sda`.
//!   `/dev/null`, `/dev/zero`, `/dev/stdout`, `/dev/fd/*`, `/dev/shm/*`... are not disks.
//! - **Fork bombs**: a function piped into itself (`:(){ :|:& };:`, `bomb() { bomb | bomb & };
//!   bomb`, `function f { f | f & }; f`).
//! - **Running a download unread**: a downloader (`curl`, `wget`, `fetch`, `http`, `xh`) piped
//!   into an interpreter that runs its standard input (`curl … | sh`, `wget -qO- … | sudo
//!   bash`, `curl … | tee x | python3`), or whose output is the script or the program
//!   (`sh <(curl …)`, `bash < <(curl …)`, `source <(curl …)`, `bash -c "$(curl -fsSL …)"`,
//!   `eval "$(curl …)"`).
//!
//! Every form that runs the same program is read ([`crate::command`], on the engine's one
//! command reader): split or merged flags, long options, absolute program paths, `sudo` (and
//! `sudo -u root`), `doas`, `env`, `command`, `nice`, `timeout`, `xargs`, `find -exec`, `sh -c`
//! and `bash -c` strings (nested), `eval`, a here-document a shell reads (`bash <<EOF`, `cat
//! <<EOF | sh`), `$(…)`, backquotes, pipelines, `&&`/`;` lists, quoting (`"$HOME"` is the home
//! folder, `'~'` a file named `~`).
//!
//! # Options
//!
//! - `protected-branches` (default `main,master`): the branches a force-push or a delete of is
//!   blocked; `*` matches any run of characters (`release/*`), `?` one, `[...]` one of a
//!   class.
//! - `allowed-paths` (default `/tmp,/var/tmp`): folders outside the project a recursive
//!   delete may reach into (not the folder itself, nor all it holds at once: `rm -rf
//!   /tmp/build` is allowed, `rm -rf /tmp` and `rm -rf /tmp/*` are not). Written like a
//!   path in a command (`~/scratch`, a relative path is read from the project). Giving the
//!   option replaces the default: list `/tmp` again to keep it.
//! - `block-unreadable` (default `false`): block a command the guard cannot read (below)
//!   instead of letting it through with a message to the user.
//!
//! # Choices
//!
//! - The guard never reads the work tree or Git, so it cannot tell whether there is
//!   uncommitted work, nor which branch is checked out: `git reset --hard` and friends are
//!   always blocked (the reason says to stash first), and a force-push that names no branch
//!   (`git push --force`, `git push -f origin`, `git push -f origin HEAD`) is blocked, asking
//!   the model to name the branch.
//! - A `find` starting outside the project that deletes is blocked whatever its filters
//!   (`find ~ -name '*.tmp' -delete`); inside the project, only one that deletes everything
//!   (no filter narrowing what it finds: `-name`, `-path`, `-mtime`, `-empty`...).
//! - Downloading a script to a file and running it (`curl -o x.sh URL && sh x.sh`) is
//!   allowed: the file can be read first.
//!
//! # Unreadable commands
//!
//! [`Verdict::Unreadable`] (let through unless `block-unreadable=true`): a program named by an
//! expansion (`$RM -rf /`, `eval "$X"`), an unclosed quote or `$(…)`, commands nested deeper
//! than the reader reads, a recursive delete of a path known only when it runs (`rm -rf
//! "$DIR"`, `rm -rf build` after `cd "$X"`, `cd -` or more than 32 `cd`s, `cat list | xargs
//! rm -rf`).
//!
//! # Limitations
//!
//! - Aliases, functions (but for fork bombs), scripts and `git` aliases are not read; a
//!   download run in two steps through a variable (`s=$(curl …); eval "$s"`) is not seen.
//! - `cd` is followed in order through the whole line, subshells included (`(cd /; x); rm
//!   -rf y` reads `y` in `/`, which errs toward blocking).
//! - Fork bombs written another way (`perl -e 'fork while fork'`, two background calls) are
//!   not recognised.

use std::path::{Path, PathBuf};

use hook_sdk::Tool;

use crate::command::{self, Reading};
use crate::options::OptionSpec;
use crate::{Builtin, Call, Settings, Verdict, paths};

mod cases;
mod deletes;
mod git;
mod system;
#[cfg(test)]
mod tests;

pub(crate) static GUARD: Builtin = Builtin {
    name: "dangerous-commands",
    summary: "recursive deletes outside the project, force-pushes to protected branches, discarding uncommitted work, chmod -R 777, dd/mkfs on devices, fork bombs, curl | sh",
    matcher: "Bash",
    options: &[
        OptionSpec::list(
            "protected-branches",
            "main,master",
            "branches a force-push to (or a delete of) is blocked; `*` matches any run of characters",
        ),
        OptionSpec::list(
            "allowed-paths",
            "/tmp,/var/tmp",
            "folders outside the project a recursive delete may reach into (not the folder itself)",
        ),
        OptionSpec::flag(
            "block-unreadable",
            "false",
            "block a command the guard cannot read (a program named by a variable, rm -rf \"$DIR\"...)",
        ),
    ],
    check,
    cases: cases::CASES,
};

/// What a rule found in a command.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Finding {
    /// It must not run: why, and what to do instead.
    Block(String),
    /// The rule cannot tell (a path known only when it runs): why.
    Unknown(String),
}

/// What the rules read: the call, the command read, and the options.
struct Scene<'a> {
    call: &'a Call<'a>,
    reading: &'a Reading,
    protected: Vec<&'a str>,
    /// The allowed paths, absolute.
    allowed: Vec<PathBuf>,
}

impl Scene<'_> {
    /// The project: the session's working directory.
    fn project(&self) -> &Path {
        self.call.cwd
    }
}

fn check(call: &Call<'_>, settings: &Settings) -> Verdict {
    let Tool::Bash { command, .. } = call.tool else {
        return Verdict::Allow;
    };
    let reading = command::read(command);
    let scene = Scene {
        call,
        reading: &reading,
        protected: settings.list("protected-branches"),
        allowed: settings
            .list("allowed-paths")
            .into_iter()
            .filter_map(|path| paths::absolute(path, call))
            .collect(),
    };
    let mut findings = Vec::new();
    deletes::check(&scene, &mut findings);
    git::check(&scene, &mut findings);
    system::check(&scene, &mut findings);
    let mut unknown = None;
    for finding in findings {
        match finding {
            Finding::Block(reason) => return Verdict::Block { reason },
            Finding::Unknown(why) => {
                unknown.get_or_insert(why);
            }
        }
    }
    match unknown.or(reading.unreadable) {
        Some(why) => Verdict::Unreadable { why },
        None => Verdict::Allow,
    }
}

/// `path` for a reason: `~/x` inside the home folder, as is elsewhere.
fn shown(path: &Path, call: &Call<'_>) -> String {
    match call.home.and_then(|home| path.strip_prefix(home).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}
