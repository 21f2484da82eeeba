//! What `protected-paths` protects: the built-in groups (Git folders, lockfiles, CI files) and
//! the user's `paths`, each a pattern of path components; and the `allowed-paths` over them.
//!
//! A pattern is a list of components matched against an absolute path's components: `**` is
//! any number of components (none too); each other component is a glob ([`crate::glob`]: `*`
//! any run of characters within it, `?` one character, `[...]` one of a class), ASCII case
//! ignored (a case-insensitive filesystem writes `.GIT/config` to `.git/config`). Matching is
//! linear in the pattern times the path (no backtracking blow-up).

use std::path::{Path, PathBuf};

use crate::glob::{self, Compare};
use crate::paths::{self, components};
use crate::{Call, Settings};

/// How names are compared: ASCII case ignored; a glob of the path (a shell's) does not match
/// a leading `.` unless `find` reads it.
const fn compare(shell_dots: bool) -> Compare {
    Compare {
        fold_case: true,
        shell_dots,
    }
}

/// What a rule protects, for its reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Group {
    /// A Git folder (`.git`), or a worktree's `.git` file.
    Git,
    /// A lockfile, with the command that rewrites it.
    Lockfile(&'static str),
    /// A CI file.
    Ci,
    /// A path the user listed, as they wrote it.
    User(String),
}

/// Whether a rule also covers what is below its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Below {
    /// The path only (a file).
    No,
    /// A folder: it and everything in it.
    Folder,
    /// A path that may be a file or a folder (a user entry without a trailing `/`): it and
    /// everything in it, but a `find -name` filter is matched against its own name.
    Maybe,
}

/// One protected (or allowed) pattern.
#[derive(Debug, Clone)]
pub(super) struct Rule {
    /// The components, from the root (`**` first for a pattern matched at any depth).
    parts: Vec<String>,
    below: Below,
    /// What it protects.
    pub(super) group: Group,
}

/// Lockfiles, each with the command that writes it.
const LOCKFILES: &[(&str, &str)] = &[
    ("Cargo.lock", "cargo update"),
    ("package-lock.json", "npm install"),
    ("npm-shrinkwrap.json", "npm install"),
    ("yarn.lock", "yarn install"),
    ("pnpm-lock.yaml", "pnpm install"),
    ("bun.lock", "bun install"),
    ("bun.lockb", "bun install"),
    ("deno.lock", "deno install"),
    ("poetry.lock", "poetry lock"),
    ("Pipfile.lock", "pipenv lock"),
    ("uv.lock", "uv lock"),
    ("pdm.lock", "pdm lock"),
    ("pixi.lock", "pixi install"),
    ("Gemfile.lock", "bundle install"),
    ("composer.lock", "composer update"),
    ("go.sum", "go mod tidy"),
    ("go.work.sum", "go mod tidy"),
    ("flake.lock", "nix flake update"),
    ("mix.lock", "mix deps.get"),
    ("pubspec.lock", "dart pub get"),
    ("Podfile.lock", "pod install"),
    ("packages.lock.json", "dotnet restore"),
    ("Package.resolved", "swift package resolve"),
    ("gradle.lockfile", "gradle dependencies --write-locks"),
    (".terraform.lock.hcl", "terraform init -upgrade"),
];

/// CI files, matched at any depth: a trailing `/` is a folder and all it holds.
const CI_FILES: &[&str] = &[
    ".github/workflows/",
    ".github/actions/",
    ".gitlab-ci.yml",
    ".gitlab-ci.yaml",
    ".circleci/",
    "azure-pipelines.yml",
    "azure-pipelines.yaml",
    ".azure-pipelines/",
    "Jenkinsfile",
    ".buildkite/",
    ".travis.yml",
    "bitbucket-pipelines.yml",
    ".drone.yml",
    ".woodpecker.yml",
    ".woodpecker/",
    ".gitea/workflows/",
    ".forgejo/workflows/",
    "appveyor.yml",
    ".appveyor.yml",
    ".cirrus.yml",
];

/// Scratch folders: the built-in groups do not protect copies and clones there (outside the
/// project), so `cp Cargo.lock /tmp/` stays allowed.
const SCRATCH: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"];

/// How far a write reaches beyond its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reach {
    /// The path itself (and, for a folder, what it holds: a protected path below it is
    /// not looked for).
    Exact,
    /// The path and everything below it (`rm -r`, `mv` of a folder): a protected path it
    /// holds is blocked too; with a filter (`find -name NAME`), only paths of that name.
    Holds(Option<String>),
    /// Every component may be a glob (`find -path`, `find DIR -name GLOB`, `rm *.lock`):
    /// blocked when a protected path could match it. With `false`, a glob's leading `*` or
    /// `?` does not match a leading `.`, as in the shell (`*.yml` is not `.travis.yml`);
    /// `find`'s globs match it.
    Glob(bool),
}

/// The rules of one call: built-in groups (as the settings switch them), the user's
/// `paths`, and `allowed-paths`.
#[derive(Debug)]
pub(super) struct Rules {
    protected: Vec<Rule>,
    allowed: Vec<Rule>,
    cwd: PathBuf,
}

/// What a write runs into.
#[derive(Debug)]
pub(super) enum Hit<'a> {
    /// The path is protected by the rule.
    Direct(&'a Rule),
    /// The path's wildcards may name what the rule protects.
    May(&'a Rule),
    /// The path is a folder holding what the rule protects.
    Holds(&'a Rule),
}

impl Rules {
    /// The rules `settings` give for `call`.
    pub(super) fn new(call: &Call<'_>, settings: &Settings) -> Rules {
        let mut protected = vec![builtin("**/.git/", Group::Git)];
        if settings.flag("lockfiles") {
            protected.extend(
                LOCKFILES.iter().map(|(name, command)| {
                    builtin(&format!("**/{name}"), Group::Lockfile(command))
                }),
            );
        }
        if settings.flag("ci-files") {
            protected.extend(
                CI_FILES
                    .iter()
                    .map(|file| builtin(&format!("**/{file}"), Group::Ci)),
            );
        }
        protected.extend(
            settings
                .list("paths")
                .into_iter()
                .filter_map(|entry| user_rule(entry, call, Group::User(entry.to_owned()))),
        );
        let allowed = settings
            .list("allowed-paths")
            .into_iter()
            .filter_map(|entry| user_rule(entry, call, Group::User(entry.to_owned())))
            .collect();
        Rules {
            protected,
            allowed,
            cwd: call.cwd.to_path_buf(),
        }
    }

    /// What a write to `path` (absolute) reaching `reach` runs into, if anything. With
    /// `tail_only`, `path` is only the end of the real path (what follows an expansion): only
    /// the rules matched at any depth are tried.
    pub(super) fn hit(&self, path: &Path, reach: &Reach, tail_only: bool) -> Option<Hit<'_>> {
        let parts = components(path);
        // No file has a longer name (the filesystems' NAME_MAX): the word names none.
        if parts.iter().any(|part| glob::too_long(part)) {
            return None;
        }
        let globbed = match reach {
            Reach::Glob(dots) => Some(*dots),
            _ => None,
        };
        // A glob is allowed when all it may match is: when it is, as written, in an allowed
        // path (`fixtures/*.json` in `fixtures/`).
        if !tail_only && self.allowed.iter().any(|rule| rule.matches(&parts, None)) {
            return None;
        }
        let scratch = !tail_only
            && !path.starts_with(&self.cwd)
            && SCRATCH.iter().any(|dir| path.starts_with(dir));
        let applies = |rule: &&Rule| {
            !(tail_only && rule.parts.first().is_none_or(|part| part != "**")
                || scratch && !matches!(rule.group, Group::User(_)))
        };
        if let Some(rule) = self
            .protected
            .iter()
            .filter(applies)
            .find(|rule| rule.matches(&parts, None))
        {
            return Some(Hit::Direct(rule));
        }
        if globbed.is_some() {
            // What the wildcards may match: a lockfile or a CI file (named at any depth) only
            // in the project or a folder above it, where they live (`rm *.lock`, `find .
            // -name '*.json' -delete`), not in any folder (`rm fixtures/*.json`).
            let above = path
                .parent()
                .is_some_and(|parent| self.cwd.starts_with(parent));
            return self
                .protected
                .iter()
                .filter(applies)
                .filter(|rule| above || !matches!(rule.group, Group::Lockfile(_) | Group::Ci))
                .find(|rule| rule.matches(&parts, globbed))
                .map(Hit::May);
        }
        let Reach::Holds(filter) = reach else {
            return None;
        };
        self.protected
            .iter()
            .filter(applies)
            .find(|rule| rule.held_by(&parts, filter.as_deref()))
            .map(Hit::Holds)
    }
}

impl Rule {
    /// Whether the path (its components) is protected by the rule: it, or below it for a
    /// folder. With `globbed`, each of the path's components is a glob: whether some path
    /// both match (`Some(false)`: a leading `*` or `?` does not match a leading `.`).
    fn matches(&self, path: &[String], globbed: Option<bool>) -> bool {
        let star = ["**".to_owned()];
        let pattern: Vec<&String> = match self.below {
            Below::No => self.parts.iter().collect(),
            Below::Folder | Below::Maybe => self.parts.iter().chain(&star).collect(),
        };
        sequence_matches(&pattern, path, globbed)
    }

    /// Whether deleting or moving the folder `path` takes something the rule protects with
    /// it: a part of the pattern ending in a plain component matches `path`, and what follows
    /// names more (so `.github` holds `**/.github/workflows/`, but no folder is known to hold
    /// `**/Cargo.lock`). With a `find -name` `filter`, the protected path's own name must
    /// match it too.
    fn held_by(&self, path: &[String], filter: Option<&str>) -> bool {
        if let Some(filter) = filter {
            let last = self.parts.last().map_or("**", String::as_str);
            if self.below != Below::Folder && last != "**" && !compare(false).meet(filter, last) {
                return false;
            }
        }
        (1..self.parts.len()).any(|cut| {
            self.parts[cut - 1] != "**"
                && self.parts[cut..].iter().any(|part| part != "**")
                && sequence_matches(&self.parts[..cut].iter().collect::<Vec<_>>(), path, None)
        })
    }

    /// The protected path for people: the user's entry, or the pattern with `**/` dropped.
    pub(super) fn describe(&self) -> String {
        match &self.group {
            Group::User(entry) => entry.clone(),
            _ => {
                let mut text = self
                    .parts
                    .iter()
                    .skip_while(|part| *part == "**")
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("/");
                if self.below == Below::Folder {
                    text.push('/');
                }
                text
            }
        }
    }
}

/// A built-in rule from `**/a/b` (a trailing `/`: a folder).
fn builtin(pattern: &str, group: Group) -> Rule {
    let below = if pattern.ends_with('/') {
        Below::Folder
    } else {
        Below::No
    };
    Rule {
        parts: pattern
            .split('/')
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect(),
        below,
        group,
    }
}

/// A rule from a user's entry: `**/x` at any depth; `/abs`, `~/x`, `$HOME/x` as written; a
/// bare name (`*.pem`, `schema.sql`) at any depth inside the project; any other relative path
/// under the project (the session's working directory). `None` for an entry naming an
/// unknown expansion (`$DIR/x`, `~other/x`).
fn user_rule(entry: &str, call: &Call<'_>, group: Group) -> Option<Rule> {
    let below = if entry.ends_with('/') {
        Below::Folder
    } else {
        Below::Maybe
    };
    let trimmed = entry.trim_end_matches('/');
    let parts = if trimmed.is_empty() {
        // `/`: the whole filesystem.
        Vec::new()
    } else if trimmed.starts_with("**") {
        trimmed
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .map(str::to_owned)
            .collect()
    } else if trimmed.contains('/') || ["~", "$HOME", "${HOME}"].contains(&trimmed) {
        components(&paths::absolute(trimmed, call)?)
    } else {
        let mut parts = components(call.cwd);
        parts.extend(["**".to_owned(), trimmed.to_owned()]);
        parts
    };
    Some(Rule {
        parts,
        below,
        group,
    })
}

/// Whether `pattern` (components, `**` any number of them) matches `path`, each of its other
/// components matching one of the path's; with `globbed`, the path's components are globs
/// too (`Some(false)`: a glob's leading `*` or `?` does not match a leading `.`). Greedy with
/// one resume point, as a `*` wildcard match: linear in both lengths' product.
fn sequence_matches(pattern: &[&String], path: &[String], globbed: Option<bool>) -> bool {
    let one = |pattern: &str, part: &str| match globbed {
        None => compare(false).matches(pattern, part),
        // A wildcard alone names nothing in particular (`find -path '*/x/*'` is not taken
        // for `.git/x`), as `rm -rf *` and `find . -delete` are not.
        Some(_) if part.chars().all(|c| c == '*') => pattern.chars().all(|c| c == '*'),
        Some(dots) => compare(!dots).meet(part, pattern),
    };
    let (mut p, mut s) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while s < path.len() {
        if p < pattern.len() && *pattern[p] == "**" {
            resume = Some((p, s));
            p += 1;
        } else if p < pattern.len() && one(pattern[p], &path[s]) {
            p += 1;
            s += 1;
        } else if let Some((star, from)) = resume {
            p = star + 1;
            s = from + 1;
            resume = Some((star, from + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|part| *part == "**")
}
