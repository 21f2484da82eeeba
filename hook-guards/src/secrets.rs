//! `secrets`: keeps credentials out of the session. It blocks a call that reads or changes a
//! credential file, through any tool, and one that writes text shaped like a credential into
//! a file or a command.
//!
//! # What it blocks
//!
//! - **Credential files** (`locations::TABLE`), wherever the path is written from (`~`,
//!   `$HOME`, `/home/dev/...`, `../.env` from the project, `$DIR/.env`, a glob or a brace
//!   expansion that can name one): `~/.ssh` (but its public keys `*.pub` and `known_hosts`),
//!   `~/.aws`, `~/.config/gcloud`, `~/.azure`, `~/.kube/config*`, `~/.docker/config.json`,
//!   `~/.config/gh/hosts.yml`, `~/.gnupg`, `~/.netrc`, `~/.git-credentials`, the token files
//!   of cargo, RubyGems, Terraform, PostgreSQL (`.pgpass`) and Vault; in any folder, `.env`,
//!   `.env.*` and `*.env` (but their templates: `*.example`, `*.sample`, `*.template`,
//!   `*.dist`), `.npmrc`, `.pypirc`, SSH private keys (`id_rsa`, `id_ed25519`...), `*.key`,
//!   `key.pem`, `*-key.pem`, `*_key.pem`, `*privkey*.pem`, `*private*.pem`, `*.p12`, `*.pfx`,
//!   `*.jks`, `*.keystore`, `*.ppk`; browser profiles on Linux and macOS
//!   (`~/.mozilla/firefox`, `~/.config/google-chrome*`, `~/.config/chromium`, Brave, Edge,
//!   Vivaldi, `~/Library/Application Support/Google/Chrome`, `…/Firefox`, Safari, cookies),
//!   the macOS keychains and the GNOME keyring. A folder covers everything below it, and a
//!   location matches under any home (`/root/.ssh`, `/home/other/.aws`).
//! - **Through any tool**: `Read`, `Grep` (its `path`, and an include `glob` such as
//!   `**/.env*`), `Edit`, `MultiEdit`, `Write`, `NotebookEdit`, Codex's `apply_patch` (every
//!   file of the patch), and `Bash`: any program whose arguments name a secret (`cat`, `less`,
//!   `head`, `grep`, `sed`, `awk`, `cp`, `scp`, `rsync`, `tar`, `base64`, `xxd`, `source`,
//!   `.`, `vim`, `git add`/`diff`/`show HEAD:.env`, `curl -F file=@.env`, `dd if=...`,
//!   `node --env-file=.env`...), input and output redirections (`< ~/.ssh/id_rsa`,
//!   `> .env`), inline code (`python -c "open('.env')"`); read through `sudo`, `env`,
//!   `xargs`, `find -exec`, `sh -c`/`bash -c` strings, `$(…)` and backticks (inside double
//!   quotes too), pipelines and lists, a here-document a shell reads (`bash <<EOF`, `cat <<EOF
//!   | sh`) or `ssh` sends (`ssh host <<EOF`: what it prints comes back), and a `cd` into a
//!   secret folder before a relative path ([`crate::command`], one reading for every guard).
//!   A path handed over at run time is caught when the same command names it (`echo
//!   ~/.aws/credentials | xargs cat`, `for f in ~/.ssh/*; do cat "$f"; done`, `cat $(ls
//!   ~/.ssh/id_*)`).
//! - **Recursive reads that reach a secret**: `grep -r`, `rg`, `cp -r`, `rsync`, `tar`,
//!   `zip -r`, `find -exec` and `Grep` over a folder above one in a home (`~`, `~/.config`,
//!   `/home`, `/`).
//! - **Credential text** (`credentials`) in `Write` content, `Edit`/`MultiEdit` new text,
//!   `NotebookEdit` source, `apply_patch` added lines and `Bash` command text: AWS access
//!   key ids (`AKIA…`, `ASIA…`) and secret keys next to their name, GitHub (`ghp_…`,
//!   `github_pat_…`), GitLab, npm, PyPI, Slack (tokens and webhooks), Google API, Stripe
//!   live, OpenAI, Anthropic and Hugging Face keys, private key blocks. Removing one (an
//!   `Edit`'s old text, a patch's removed lines) is allowed. The reason never repeats the
//!   value.
//!
//! # Options
//!
//! - `allowed-paths` (none by default): paths never blocked. An entry without `/` is a name
//!   matched in any folder (`.env.test`, `fixtures`); with `/`, a path (`~/.aws/config`,
//!   absolute, or relative to the project) with everything below it. A glob in a call is
//!   allowed only when every path it can match is. A file written there may hold credential
//!   text (test fixtures); a command's text is always read.
//! - `extra-paths` (none by default): more secret paths, written the same way (`.envrc`,
//!   `~/.config/op`, `secrets`).
//! - `check-content` (`true` by default): `false` switches the credential-text check off.
//!
//! # Choices where the issue is silent
//!
//! - Names are not contents: `ls ~/.ssh`, `stat`, `test -f .env`, `wc`,
//!   `chmod 600 ~/.ssh/id_rsa`, `find ~/.ssh -name '*.pub'` (without `-exec`) and the `Glob`
//!   tool (which lists paths only, so it is not in the matcher) are allowed;
//!   `echo .env >> .gitignore` too.
//! - Public SSH keys (`~/.ssh/*.pub`) and `known_hosts` are not secrets: they may be read
//!   and written (`ssh-keyscan github.com >> ~/.ssh/known_hosts`). Every other file of
//!   `~/.ssh` is, `config` and `authorized_keys` included (a write there lets someone in).
//! - Writing a secret path is blocked like reading it (`Write .env`, `cp .env.example .env`,
//!   `echo X >> .env`): it would overwrite the user's values, which the guard cannot see;
//!   the reason asks the model to leave that to the user.
//! - Using a key without showing it is allowed: `ssh -i ~/.ssh/key`, `scp -i`, `ssh-add`,
//!   `ssh-keygen`, `kubectl --kubeconfig`, `openssl genrsa -out key.pem` (a new key),
//!   `git rm --cached .env`, `git status`, `git check-ignore .env`, `git log -- .env`.
//!   Loading a `.env` into a program (`source .env`, `docker run --env-file .env`) is
//!   blocked: the program can print it.
//! - Placeholders are not credentials: AWS's documented example keys
//!   (`AKIAIOSFODNN7EXAMPLE`), values holding `example`, `your`, `xxxx`, `dummy`..., with
//!   few distinct characters, or in one case only where the issuer mixes cases
//!   (`sk-some-long-kebab-name`), and references (`${GITHUB_TOKEN}`). Stripe test keys
//!   (`sk_test_`) and publishable keys are not secrets.
//! - A here-document's body is text (`cat > SETUP.md <<'EOF'` may mention `.env`), and so is
//!   a single-quoted `'$(cat .env)'`; a `cd` to a folder known only when it runs (`cd "$DIR"`,
//!   `cd -`) is passed over: what follows is read in the folder before it.
//! - A recursive search or copy of the project is allowed (`grep -r TODO .`, the everyday
//!   search), though it reads a `.env` in it: `Grep` (ripgrep) skips hidden files.
//!
//! # Limitations
//!
//! - Paths are compared as written (no symlink is followed, no file is read, names are
//!   case-sensitive): a link to `~/.ssh` under another name, a script that reads a secret,
//!   or a program that finds one by itself (`gh auth token`, `aws configure get`, `env`,
//!   `printenv TOKEN`) are not seen.
//! - A path known only at run time (`cat "$FILE"`) is caught only when the same command
//!   names the secret elsewhere; a relative file name with spaces is read as text.
//! - Credential text is recognised by its issuers' shapes: a password or a token without a
//!   known prefix is not.

use hook_sdk::Tool;

use crate::options::OptionSpec;
use crate::{Builtin, Call, Settings, Verdict};

mod cases;
mod credentials;
mod locations;
mod shell;
#[cfg(test)]
mod tests;

use credentials::Credential;
use locations::{Found, Places};

pub(crate) static GUARD: Builtin = Builtin {
    name: "secrets",
    summary: "reading or changing credential files (~/.ssh, ~/.aws, ~/.config/gcloud, .env*, .npmrc, browser profiles...) through any tool, and writing credential-shaped text (cloud keys, tokens, private keys) into files or commands",
    matcher: "Bash|Read|Write|Edit|MultiEdit|Grep|NotebookEdit",
    options: &[
        OptionSpec::list(
            "allowed-paths",
            "",
            "paths never blocked: a name in any folder (.env.test) or a path and what is below it (~/.aws/config)",
        ),
        OptionSpec::list(
            "extra-paths",
            "",
            "more secret paths, written like allowed-paths (.envrc, ~/.config/op)",
        ),
        OptionSpec::flag(
            "check-content",
            "true",
            "block credential-shaped text (cloud keys, tokens, private keys) written into files and commands",
        ),
    ],
    check,
    cases: cases::CASES,
};

/// Why a call is blocked.
#[derive(Debug)]
enum Hit {
    /// A tool or program opens a secret path.
    Path {
        by: String,
        verb: &'static str,
        word: String,
        found: Found,
    },
    /// A recursive read of a folder reaches a secret.
    Inside {
        by: String,
        verb: &'static str,
        word: String,
        found: Found,
    },
    /// Text shaped like a credential.
    Credential {
        into: &'static str,
        credential: Credential,
    },
}

impl Hit {
    fn path(by: String, verb: &'static str, word: &str, found: Found) -> Hit {
        Hit::Path {
            by,
            verb,
            word: word.to_owned(),
            found,
        }
    }

    fn inside(by: String, verb: &'static str, word: &str, found: Found) -> Hit {
        Hit::Inside {
            by,
            verb,
            word: word.to_owned(),
            found,
        }
    }

    /// One sentence for the model: what was blocked, and what to do instead.
    fn reason(&self) -> String {
        match self {
            Hit::Path {
                by,
                verb,
                word,
                found,
            } => format!(
                "{by} {verb} `{word}` ({}), a secret kept out of the session: {}",
                found.what,
                found.kind.instead()
            ),
            Hit::Inside {
                by,
                verb,
                word,
                found,
            } => format!(
                "{by} {verb} everything under `{word}`, which holds {}: name a narrower folder (the project, or the files you need)",
                found.what
            ),
            Hit::Credential { into, credential } => format!(
                "what looks like {} (`{}`) is in the {into}: do not write credentials into files or commands; reference {} instead of the value (a placeholder such as `<token>` is fine), or ask the user to put it in place",
                credential.what, credential.shown, credential.instead
            ),
        }
    }
}

fn check(call: &Call<'_>, settings: &Settings) -> Verdict {
    let places = Places::new(
        call,
        &settings.list("allowed-paths"),
        &settings.list("extra-paths"),
    );
    match inspect(call.tool, &places, settings.flag("check-content")) {
        Err(hit) => Verdict::Block {
            reason: hit.reason(),
        },
        Ok(Some(why)) => Verdict::Unreadable { why },
        Ok(None) => Verdict::Allow,
    }
}

/// The first [`Hit`] of a call; `Ok` with why a command cannot be read, if so.
fn inspect(tool: &Tool, places: &Places<'_>, content: bool) -> Result<Option<String>, Hit> {
    let file = |by: &str, verb: &'static str, path: &str| match places.secret(path) {
        Some(found) => Err(Hit::path(format!("`{by}`"), verb, path, found)),
        None => Ok(()),
    };
    // A file under `allowed-paths` (test fixtures) may hold credential text too.
    let text = |into: &'static str, text: &str, files: &[&str]| {
        if !content || (!files.is_empty() && files.iter().all(|file| places.allowed(file))) {
            return Ok(());
        }
        match credentials::find(text) {
            Some(credential) => Err(Hit::Credential { into, credential }),
            None => Ok(()),
        }
    };
    match tool {
        Tool::Bash { command, .. } => {
            text("command", command, &[])?;
            return shell::check(command, places);
        }
        Tool::Read { file_path } => file("Read", "reads", file_path)?,
        Tool::Write {
            file_path,
            content: body,
        } => {
            file("Write", "writes", file_path)?;
            text("file's new content", body, &[file_path])?;
        }
        Tool::Edit {
            file_path,
            new_string,
            ..
        } => {
            file("Edit", "edits", file_path)?;
            text("new text", new_string, &[file_path])?;
        }
        Tool::MultiEdit { file_path, edits } => {
            file("MultiEdit", "edits", file_path)?;
            for edit in edits {
                text("new text", &edit.new_string, &[file_path])?;
            }
        }
        Tool::NotebookEdit {
            notebook_path,
            new_source,
            ..
        } => {
            file("NotebookEdit", "edits", notebook_path)?;
            text(
                "cell's new source",
                new_source.as_deref().unwrap_or_default(),
                &[notebook_path],
            )?;
        }
        Tool::Grep { path, glob, .. } => {
            let folder = path.as_deref().unwrap_or(".");
            file("Grep", "searches", folder)?;
            if let Some(found) = places.inside(folder) {
                return Err(Hit::inside("`Grep`".to_owned(), "searches", folder, found));
            }
            if let Some(glob) = glob.as_deref().filter(|glob| !glob.starts_with('!'))
                && let Some(found) = places.secret_pattern(glob)
            {
                return Err(Hit::path("`Grep`".to_owned(), "searches", glob, found));
            }
        }
        Tool::ApplyPatch { patch, files } => {
            for path in files {
                file("apply_patch", "patches", path)?;
            }
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            text("patch's added lines", &added_lines(patch), &files)?;
        }
        _ => {}
    }
    Ok(None)
}

/// The lines an `apply_patch` patch adds (`+` lines), joined: what it writes.
fn added_lines(patch: &str) -> String {
    patch
        .lines()
        .filter_map(|line| line.strip_prefix('+'))
        .collect::<Vec<_>>()
        .join("\n")
}
