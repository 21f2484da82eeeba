//! Where secrets live: the credential files and folders the guard keeps the model out of
//! ([`TABLE`]), the user's `allowed-paths` and `extra-paths` over them ([`Places`]), and how a
//! path written in a call — `~`, `$HOME`, absolute, relative, a glob — is matched.
//!
//! A location of the table is a run of path components found anywhere in the path (so
//! `~/.ssh`, `/home/dev/.ssh`, `/root/.ssh` and a backup's `…/home/dev/.ssh` all match
//! `.ssh`); a folder location covers everything below it, except the names it lists (the
//! public keys of `~/.ssh`). A word the guard cannot make absolute (`$DIR/.env`: a variable
//! known only when it runs) is matched on what follows its unknown part ([`paths::locate`]). Names are compared as written ([`Compare::EXACT`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::LazyLock;

use crate::Call;
use crate::glob::{Compare, is_glob, is_wide, too_long, within};
use crate::paths::{self, Located, components};

/// Whether a word's component could name the same file as a pattern's.
fn meet(word: &str, pattern: &str) -> bool {
    Compare::EXACT.meet(word, pattern)
}

/// What a secret location holds: how a reason names it and what the model should do instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// SSH private keys and their configuration.
    Ssh,
    /// A cloud or cluster CLI's credentials.
    Cloud,
    /// A `.env` file.
    DotEnv,
    /// A package registry's or another tool's token file.
    Tokens,
    /// A private key or keystore file.
    KeyFile,
    /// A browser profile or the macOS keychain.
    Browser,
    /// The GnuPG keyring.
    Gpg,
    /// A path the user listed in `extra-paths`.
    User,
}

impl Kind {
    /// What to do instead, for the model.
    pub(super) fn instead(self) -> &'static str {
        match self {
            Kind::Ssh => {
                "use the key through `ssh`, `ssh-add` or `git` without reading it (the public keys `~/.ssh/*.pub` may be read), or ask the user"
            }
            Kind::Cloud => {
                "let the CLI that owns it (`aws`, `gcloud`, `az`, `kubectl`, `docker`, `gh`) read its own credentials, or ask the user for the value you need"
            }
            Kind::DotEnv => {
                "read `.env.example` for the variable names and ask the user for the values you need (or to change the file)"
            }
            Kind::Tokens => {
                "let the program that owns it (`npm`, `twine`, `git`, `cargo`, `psql`) read it itself, or ask the user for the value you need"
            }
            Kind::KeyFile => {
                "ask the user to run what needs the key; for tests, generate a throwaway key"
            }
            Kind::Browser => {
                "browser profiles and keychains hold cookies and saved passwords: ask the user for what you need"
            }
            Kind::Gpg => "let `gpg` use its keyring itself, or ask the user",
            Kind::User => {
                "the user marked it secret (`extra-paths`): ask the user for what you need"
            }
        }
    }
}

/// One secret location of the table.
#[derive(Debug)]
pub(super) struct Location {
    /// Consecutive path components, each a glob (`google-chrome*`).
    parts: &'static [&'static str],
    /// A folder: everything below it is secret too.
    below: bool,
    /// Names that are not secret: for a folder, its children's; for a file, its own.
    except: &'static [&'static str],
    /// It lives in a home folder: a recursive read of the home (or above) reaches it.
    in_home: bool,
    /// What it is, for a reason.
    pub(super) what: &'static str,
    /// Its kind.
    pub(super) kind: Kind,
}

/// A folder in a home folder.
const fn folder(parts: &'static [&'static str], what: &'static str, kind: Kind) -> Location {
    Location {
        parts,
        below: true,
        except: &[],
        in_home: true,
        what,
        kind,
    }
}

/// A file in a home folder.
const fn file(parts: &'static [&'static str], what: &'static str, kind: Kind) -> Location {
    Location {
        parts,
        below: false,
        except: &[],
        in_home: true,
        what,
        kind,
    }
}

/// A file name, secret in any folder (projects too).
const fn name(pattern: &'static [&'static str], what: &'static str, kind: Kind) -> Location {
    Location {
        parts: pattern,
        below: false,
        except: &[],
        in_home: false,
        what,
        kind,
    }
}

/// Templates of `.env` files: names and values to fill, never the values.
const ENV_TEMPLATES: &[&str] = &[
    "*.example",
    "*.sample",
    "*.template",
    "*.dist",
    "*example*.env",
    "*sample*.env",
    "*template*.env",
];

/// Every secret location the guard knows.
pub(super) const TABLE: &[Location] = &[
    Location {
        except: &["*.pub", "known_hosts", "known_hosts.old"],
        ..folder(&[".ssh"], "SSH keys and configuration", Kind::Ssh)
    },
    folder(&[".aws"], "AWS credentials", Kind::Cloud),
    folder(
        &[".config", "gcloud"],
        "Google Cloud credentials",
        Kind::Cloud,
    ),
    folder(&[".azure"], "Azure credentials", Kind::Cloud),
    file(&[".kube", "config*"], "a Kubernetes config", Kind::Cloud),
    file(
        &[".docker", "config.json*"],
        "Docker registry logins",
        Kind::Cloud,
    ),
    file(
        &[".config", "gh", "hosts.yml"],
        "GitHub CLI tokens",
        Kind::Cloud,
    ),
    file(&[".netrc"], "machine passwords", Kind::Tokens),
    file(&["_netrc"], "machine passwords", Kind::Tokens),
    file(&[".git-credentials"], "git credentials", Kind::Tokens),
    file(
        &[".config", "git", "credentials"],
        "git credentials",
        Kind::Tokens,
    ),
    file(
        &[".cargo", "credentials"],
        "a crates.io token",
        Kind::Tokens,
    ),
    file(
        &[".cargo", "credentials.toml"],
        "a crates.io token",
        Kind::Tokens,
    ),
    file(&[".gem", "credentials"], "a RubyGems token", Kind::Tokens),
    file(
        &[".terraform.d", "credentials.tfrc.json"],
        "Terraform Cloud tokens",
        Kind::Tokens,
    ),
    file(&[".pgpass"], "PostgreSQL passwords", Kind::Tokens),
    file(&[".vault-token"], "a Vault token", Kind::Tokens),
    name(
        &[".npmrc"],
        "an npm config with registry tokens",
        Kind::Tokens,
    ),
    name(
        &[".pypirc"],
        "a PyPI config with upload tokens",
        Kind::Tokens,
    ),
    folder(&[".gnupg"], "the GnuPG keyring", Kind::Gpg),
    name(&[".env"], "a `.env` file", Kind::DotEnv),
    Location {
        except: ENV_TEMPLATES,
        ..name(&[".env.*"], "a `.env` file", Kind::DotEnv)
    },
    Location {
        except: ENV_TEMPLATES,
        ..name(&["*.env"], "an env file", Kind::DotEnv)
    },
    name(&["id_rsa"], "an SSH private key", Kind::Ssh),
    name(&["id_dsa"], "an SSH private key", Kind::Ssh),
    name(&["id_ecdsa"], "an SSH private key", Kind::Ssh),
    name(&["id_ed25519"], "an SSH private key", Kind::Ssh),
    name(&["id_ecdsa_sk"], "an SSH private key", Kind::Ssh),
    name(&["id_ed25519_sk"], "an SSH private key", Kind::Ssh),
    name(&["*.key"], "a private key", Kind::KeyFile),
    name(&["key.pem"], "a private key", Kind::KeyFile),
    name(&["*-key.pem"], "a private key", Kind::KeyFile),
    name(&["*_key.pem"], "a private key", Kind::KeyFile),
    name(&["*.key.pem"], "a private key", Kind::KeyFile),
    name(&["*privkey*.pem"], "a private key", Kind::KeyFile),
    name(&["*private*.pem"], "a private key", Kind::KeyFile),
    name(&["*.p12"], "a key store", Kind::KeyFile),
    name(&["*.pfx"], "a key store", Kind::KeyFile),
    name(&["*.jks"], "a key store", Kind::KeyFile),
    name(&["*.keystore"], "a key store", Kind::KeyFile),
    name(&["*.ppk"], "a PuTTY private key", Kind::KeyFile),
    folder(&[".mozilla", "firefox"], "a Firefox profile", Kind::Browser),
    folder(
        &[".config", "google-chrome*"],
        "a Chrome profile",
        Kind::Browser,
    ),
    folder(
        &[".config", "chromium"],
        "a Chromium profile",
        Kind::Browser,
    ),
    folder(
        &[".config", "BraveSoftware"],
        "a Brave profile",
        Kind::Browser,
    ),
    folder(
        &[".config", "microsoft-edge*"],
        "an Edge profile",
        Kind::Browser,
    ),
    folder(&[".config", "vivaldi"], "a Vivaldi profile", Kind::Browser),
    folder(&["snap", "chromium"], "a Chromium profile", Kind::Browser),
    folder(
        &["Library", "Application Support", "Google", "Chrome"],
        "a Chrome profile",
        Kind::Browser,
    ),
    folder(
        &["Library", "Application Support", "Firefox"],
        "a Firefox profile",
        Kind::Browser,
    ),
    folder(
        &["Library", "Application Support", "Chromium"],
        "a Chromium profile",
        Kind::Browser,
    ),
    folder(
        &["Library", "Application Support", "BraveSoftware"],
        "a Brave profile",
        Kind::Browser,
    ),
    folder(
        &["Library", "Application Support", "Microsoft Edge"],
        "an Edge profile",
        Kind::Browser,
    ),
    folder(&["Library", "Safari"], "Safari's data", Kind::Browser),
    folder(&["Library", "Cookies"], "browser cookies", Kind::Browser),
    folder(
        &["Library", "Keychains"],
        "the macOS keychain",
        Kind::Browser,
    ),
    folder(
        &[".local", "share", "keyrings"],
        "the GNOME keyring",
        Kind::Browser,
    ),
];

/// What a path of `extra-paths` is, for a reason.
const USER: &str = "a path the user marked secret";

/// The secret a word names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// What it is (`AWS credentials`).
    pub(super) what: &'static str,
    /// Its kind.
    pub(super) kind: Kind,
}

/// A path the user gave in `allowed-paths` or `extra-paths`: a name (no `/`), matched as any
/// component of a path, or a path, matched from the root with everything below it.
#[derive(Debug, Clone)]
enum UserPath {
    Name(String),
    Path(Vec<String>),
}

impl UserPath {
    fn read(entry: &str, call: &Call<'_>) -> Option<UserPath> {
        if !entry.contains('/') {
            return Some(UserPath::Name(entry.to_owned()));
        }
        let path = paths::absolute(entry.trim_end_matches('/'), call)?;
        Some(UserPath::Path(components(&path)))
    }

    /// Whether `target` (resolved or not) is this path or below it; every name the target
    /// could match must be (a glob target is covered only by a glob as wide).
    fn covers(&self, target: &Target) -> bool {
        match self {
            UserPath::Name(name) => target.parts.iter().any(|part| within(part, name)),
            UserPath::Path(path) => {
                target.resolved
                    && target.parts.len() >= path.len()
                    && path.iter().zip(&target.parts).all(|(p, t)| within(t, p))
            }
        }
    }

    /// Whether `target` could be this path or below it.
    fn meets(&self, target: &Target) -> bool {
        match self {
            UserPath::Name(name) => target.parts.iter().any(|part| meet(part, name)),
            UserPath::Path(path) => {
                target.resolved
                    && target.parts.len() >= path.len()
                    && path.iter().zip(&target.parts).all(|(p, t)| meet(t, p))
            }
        }
    }
}

/// A word as a path: its components, and whether they start at the root.
#[derive(Debug)]
struct Target {
    parts: Vec<String>,
    resolved: bool,
}

impl Target {
    /// A target of `parts`; `None` when one is longer than a file name (it names no file).
    fn new(parts: Vec<String>, resolved: bool) -> Option<Target> {
        (!parts.iter().any(|part| too_long(part))).then_some(Target { parts, resolved })
    }

    /// `word` as a path, read in `call`'s folder.
    fn read(word: &str, call: &Call<'_>) -> Option<Target> {
        if word.is_empty() || word.contains("://") || word.contains('\n') {
            return None;
        }
        match paths::locate(word, call.cwd, call)? {
            Located::Path(path) => Target::new(components(&path), true),
            Located::Tail(parts) => Target::new(parts, false),
        }
    }
}

/// Whether `target` holds a run of components matching `location`'s.
fn matches(target: &[String], parts: &[&str], below: bool, except: &[&str]) -> bool {
    let n = parts.len();
    if n == 0 || target.len() < n {
        return false;
    }
    // A file location ends the path; a folder may be anywhere in it.
    let first = if below { 0 } else { target.len() - n };
    (first..=target.len() - n).any(|k| {
        if !(0..n).all(|i| meet(&target[k + i], parts[i])) {
            return false;
        }
        let end = k + n;
        match target.get(end) {
            // The location itself: a bare `*` does not name a file anywhere by itself.
            None => {
                !(n == 1 && !below && is_wide(&target[end - 1]))
                    && (below || !except.iter().any(|e| within(&target[end - 1], e)))
            }
            Some(child) => below && !except.iter().any(|e| within(child, e)),
        }
    })
}

/// [`TABLE`] indexed: the locations by their first component when it is literal, and those
/// whose first component is a glob (`*.key`). A literal path is compared with the few
/// locations it can be in, not all of them.
struct Index {
    by_first: HashMap<&'static str, Vec<usize>>,
    globbed: Vec<usize>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut index = Index {
        by_first: HashMap::new(),
        globbed: Vec::new(),
    };
    for (at, location) in TABLE.iter().enumerate() {
        match location.parts.first() {
            Some(first) if !is_glob(first) => index.by_first.entry(first).or_default().push(at),
            _ => index.globbed.push(at),
        }
    }
    index
});

/// The first location of [`TABLE`], in its order, `target` is in.
fn in_table(target: &Target) -> Option<&'static Location> {
    let fits = |location: &&Location| {
        matches(
            &target.parts,
            location.parts,
            location.below,
            location.except,
        )
    };
    if target.parts.iter().any(|part| is_glob(part)) {
        return TABLE.iter().find(fits);
    }
    let mut candidates: Vec<usize> = target
        .parts
        .iter()
        .filter_map(|part| INDEX.by_first.get(part.as_str()))
        .flatten()
        .chain(&INDEX.globbed)
        .copied()
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    candidates.into_iter().map(|at| &TABLE[at]).find(fits)
}

/// The secret locations of one call: the table, with the user's options over it, and the
/// folder relative paths are read against.
#[derive(Debug, Clone)]
pub(super) struct Places<'a> {
    call: Call<'a>,
    allowed: Vec<UserPath>,
    extra: Vec<UserPath>,
    /// The locations a recursive read of a folder above them reaches: those of the table in
    /// the user's home and root's, and the paths of `extra-paths`; each with what it is.
    reached: Vec<(Vec<String>, Found)>,
}

impl<'a> Places<'a> {
    /// The table for `call`, with `allowed` paths never blocked and `extra` paths blocked too.
    pub(super) fn new(call: &Call<'a>, allowed: &[&str], extra: &[&str]) -> Places<'a> {
        let read = |entries: &[&str]| {
            entries
                .iter()
                .filter_map(|entry| UserPath::read(entry, call))
                .collect()
        };
        let allowed: Vec<UserPath> = read(allowed);
        let extra: Vec<UserPath> = read(extra);
        let homes = call
            .home
            .into_iter()
            .chain(std::iter::once(Path::new("/root")));
        let table = homes.flat_map(|home| {
            let home = components(home);
            TABLE.iter().filter(|l| l.in_home).map(move |l| {
                let mut path = home.clone();
                path.extend(l.parts.iter().map(|part| (*part).to_owned()));
                let found = Found {
                    what: l.what,
                    kind: l.kind,
                };
                (path, found)
            })
        });
        let user = extra.iter().filter_map(|extra| match extra {
            UserPath::Path(path) => Some((
                path.clone(),
                Found {
                    what: USER,
                    kind: Kind::User,
                },
            )),
            UserPath::Name(_) => None,
        });
        let reached = table
            .chain(user)
            .filter(|(path, _)| {
                let target = Target {
                    parts: path.clone(),
                    resolved: true,
                };
                !allowed.iter().any(|a| a.covers(&target))
            })
            .collect();
        Places {
            call: *call,
            allowed,
            extra,
            reached,
        }
    }

    /// The same places with relative paths read against `cwd` (after a `cd`); the user's
    /// options keep the meaning they had in the session's folder.
    pub(super) fn in_folder<'b>(&self, cwd: &'b Path) -> Places<'b>
    where
        'a: 'b,
    {
        Places {
            call: Call { cwd, ..self.call },
            allowed: self.allowed.clone(),
            extra: self.extra.clone(),
            reached: self.reached.clone(),
        }
    }

    /// The call these places are read for (its `cwd` the folder after any `cd`).
    pub(super) fn call(&self) -> &Call<'a> {
        &self.call
    }

    /// The secret `word` (a path as written: `~/.ssh/id_rsa`, `../.env`, `$HOME/.aws/*`)
    /// names, unless the user allowed it.
    pub(super) fn secret(&self, word: &str) -> Option<Found> {
        braces(word)
            .iter()
            .find_map(|word| self.secret_in(&Target::read(word, &self.call)?))
    }

    /// Whether the user allowed every path `word` can name (`allowed-paths`).
    pub(super) fn allowed(&self, word: &str) -> bool {
        braces(word).iter().all(|word| {
            Target::read(word, &self.call)
                .is_some_and(|target| self.allowed.iter().any(|a| a.covers(&target)))
        })
    }

    /// The secret a glob of names (`**/.env*`, find's `-path '*/.ssh/*'`) can match, wherever
    /// it is applied.
    pub(super) fn secret_pattern(&self, pattern: &str) -> Option<Found> {
        let parts: Vec<String> = pattern
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .map(str::to_owned)
            .collect();
        if parts.is_empty() {
            return None;
        }
        self.secret_in(&Target::new(parts, false)?)
    }

    fn secret_in(&self, target: &Target) -> Option<Found> {
        if self.allowed.iter().any(|allowed| allowed.covers(target)) {
            return None;
        }
        if self.extra.iter().any(|extra| extra.meets(target)) {
            return Some(Found {
                what: USER,
                kind: Kind::User,
            });
        }
        in_table(target).map(|l| Found {
            what: l.what,
            kind: l.kind,
        })
    }

    /// A secret inside the folder `word` names, when `word` is a folder above one in a home
    /// folder (`~`, `/home`, `/`, `~/.config`) or above a path of `extra-paths`: what a
    /// recursive read of it reaches.
    pub(super) fn inside(&self, word: &str) -> Option<Found> {
        braces(word).iter().find_map(|word| self.inside_one(word))
    }

    fn inside_one(&self, word: &str) -> Option<Found> {
        let target = Target::read(word, &self.call)?;
        if !target.resolved {
            return None;
        }
        self.reached.iter().find_map(|(path, found)| {
            let above = target.parts.len() < path.len()
                && target.parts.iter().zip(path).all(|(t, p)| meet(t, p));
            above.then(|| found.clone())
        })
    }
}

/// The most words a brace expansion is read as.
const MAX_EXPANSIONS: usize = 64;

/// `word` with its brace expansions made (`~/.{ssh,aws}` is `~/.ssh` and `~/.aws`), at most
/// [`MAX_EXPANSIONS`] words (the first ones); `${VAR}` is not an expansion of this kind.
fn braces(word: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut todo = vec![word.to_owned()];
    while let Some(word) = todo.pop() {
        if done.len() + todo.len() >= MAX_EXPANSIONS {
            done.push(word);
            continue;
        }
        match first_brace(&word) {
            Some((open, close, alternatives)) => {
                for alternative in alternatives.iter().rev() {
                    todo.push(format!(
                        "{}{alternative}{}",
                        &word[..open],
                        &word[close + 1..]
                    ));
                }
            }
            None => done.push(word),
        }
    }
    done
}

/// The first `{a,b}` of `word`: where it opens and closes, and its alternatives.
fn first_brace(word: &str) -> Option<(usize, usize, Vec<&str>)> {
    let bytes = word.as_bytes();
    let mut search = 0;
    while let Some(offset) = word[search..].find('{') {
        let open = search + offset;
        search = open + 1;
        if open > 0 && bytes[open - 1] == b'$' {
            continue;
        }
        let mut level = 0usize;
        let mut cuts = vec![open];
        for (index, &byte) in bytes.iter().enumerate().skip(open + 1) {
            match byte {
                b'{' => level += 1,
                b'}' if level == 0 => {
                    if cuts.len() < 2 {
                        break;
                    }
                    cuts.push(index);
                    let alternatives = cuts.windows(2).map(|w| &word[w[0] + 1..w[1]]).collect();
                    return Some((open, index, alternatives));
                }
                b'}' => level -= 1,
                b',' if level == 0 => cuts.push(index),
                _ => {}
            }
        }
    }
    None
}
