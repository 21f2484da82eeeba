//! The one way trust is written: [`TrustView::trust`] records each hook's hash *with* the
//! digests of the files it runs, and keeps the private copies a later review diffs against.
//! `hook trust`, `hook trust --review` and `hook relay install --move` all go through it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hook_config::Handler;
use hook_protocol::HandlerType;

use crate::copies::{CopyError, TrustedCopies};
use crate::hash::identity;
use crate::policy::{HookTrust, TrustView};
use crate::store::{StoreError, TrustStore};

/// One hook about to be trusted: the handler and its trust as it was evaluated (what the user
/// was shown), and, when a review read them, the bytes of the files it runs: the digests
/// recorded and the copies kept are then of those very bytes.
#[derive(Debug, Clone)]
pub struct Candidate<'h> {
    handler: &'h Handler,
    trust: HookTrust,
    contents: BTreeMap<PathBuf, Vec<u8>>,
}

impl<'h> Candidate<'h> {
    /// The handler.
    pub fn handler(&self) -> &'h Handler {
        self.handler
    }

    /// Its trust as evaluated: status, hash, and each file's digest now.
    pub fn trust(&self) -> &HookTrust {
        &self.trust
    }

    /// The bytes of the covered file at `path` that were hashed, when they were read whole
    /// ([`TrustView::candidate_read`]); `None` for a file that was streamed or not read.
    pub fn contents(&self, path: &Path) -> Option<&[u8]> {
        self.contents.get(path).map(Vec::as_slice)
    }

    /// Lets the bytes go once they were shown (a review of many hooks then holds one hook's
    /// files at a time); [`TrustView::trust`] then keeps a copy only of a file that still has
    /// the digest that was shown, so what is copied is still what was reviewed.
    pub fn forget_contents(&mut self) {
        self.contents = BTreeMap::new();
    }
}

/// What [`TrustView::trust`] recorded for one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Granted {
    /// The hook's key.
    pub key: String,
    /// The trust hash recorded.
    pub hash: String,
    /// The files it runs, recorded name ([`crate::NamedFile::name`]) to digest.
    pub files: BTreeMap<String, String>,
}

impl Granted {
    /// `<key> (<hash>)`, and `and the files it runs: a, b` when it runs files: what was
    /// trusted, for a line a person reads.
    pub fn describe(&self) -> String {
        let mut line = format!("{} ({})", self.key, self.hash);
        if !self.files.is_empty() {
            let names: Vec<&str> = self.files.keys().map(String::as_str).collect();
            line.push_str(&format!(" and the files it runs: {}", names.join(", ")));
        }
        line
    }
}

/// What [`TrustView::trust`] did: the records written, and the copies it could not keep
/// (a lost copy costs a later review its diff, never trust).
#[derive(Debug)]
#[non_exhaustive]
pub struct Trusted {
    /// One entry per hook trusted, in the order given.
    pub granted: Vec<Granted>,
    /// Why a copy could not be kept or the copies pruned, if that happened.
    pub copy_warnings: Vec<CopyError>,
}

/// Why [`TrustView::trust`] trusted nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GrantError {
    /// A file the hook runs cannot be hashed: its digest would name no bytes.
    #[error(
        "{key}: it runs {}, which {problem}; nothing was trusted: fix the file, then trust the hook again",
        path.display()
    )]
    File {
        /// The hook's key.
        key: String,
        /// The file.
        path: PathBuf,
        /// Why it cannot be hashed.
        problem: String,
    },
    /// A native hook's library cannot be hashed.
    #[error("{key}: {source}; nothing was trusted: fix `library`, then trust the hook again")]
    Library {
        /// The hook's key.
        key: String,
        /// Why.
        source: hook_config::library::LibraryError,
    },
    /// A word of the command leaves the project or the plugin's folder through a symbolic
    /// link: what runs there is outside what trust covers.
    #[error(
        "{key}: {word} {why}; nothing was trusted: name the file by a path that stays inside the project or the plugin, then trust the hook again"
    )]
    Uncovered {
        /// The hook's key.
        key: String,
        /// The word, as the command writes it.
        word: String,
        /// Why it is not covered.
        why: String,
    },
    /// The store could not be written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TrustView {
    /// `handler` as it is now, ready to be trusted ([`TrustView::evaluate`]; its files
    /// streamed, not kept).
    pub fn candidate<'h>(&self, handler: &'h Handler) -> Candidate<'h> {
        Candidate {
            handler,
            trust: self.evaluate(handler),
            contents: BTreeMap::new(),
        }
    }

    /// [`TrustView::candidate`] for a review: each script is read once, whole (at most
    /// [`crate::SCRIPT_SIZE_CAP`] bytes), and its digest, the diff a review shows
    /// ([`Candidate::contents`]) and the copy [`TrustView::trust`] keeps all come from those
    /// bytes. A native library is streamed, as [`TrustView::evaluate`] does.
    pub fn candidate_read<'h>(&self, handler: &'h Handler) -> Candidate<'h> {
        let (trust, contents) = self.evaluate_read(handler);
        Candidate {
            handler,
            trust,
            contents,
        }
    }

    /// Trusts `hooks` in `store`, as each was evaluated: the only way a trust record is
    /// written. Each record holds the hook's hash, what it runs and the digest of every file
    /// it runs ([`crate::TrustRecord::trusted_files`]), so a guard that runs a script keeps
    /// running after it is trusted; then the private copies of each hook's configuration and
    /// files are kept ([`TrustedCopies`], in the store's folder), and the copies no record
    /// refers to any more are pruned.
    ///
    /// All or nothing: no record is written when any hook runs a file that cannot be hashed
    /// (not a regular file, over the cap, unreadable), a native library that cannot be
    /// hashed, or names a path that leaves the project or plugin through a symbolic link
    /// ([`HookTrust::uncovered`]).
    ///
    /// # Errors
    /// [`GrantError`]: which hook, which file and why; or the store's error.
    pub fn trust(
        &self,
        store: &dyn TrustStore,
        hooks: &[Candidate<'_>],
    ) -> Result<Trusted, GrantError> {
        let mut grants = Vec::new();
        let mut granted = Vec::new();
        for candidate in hooks {
            let trust = &candidate.trust;
            let handler = candidate.handler;
            if handler.config.handler_type == HandlerType::Native
                && let Some(path) = self.context().library_path(handler)
                && let Err(source) = hook_config::library::library_digest(&path)
            {
                return Err(GrantError::Library {
                    key: trust.key.clone(),
                    source,
                });
            }
            if let Some(file) = trust.files.iter().find(|f| f.problem.is_some()) {
                return Err(GrantError::File {
                    key: trust.key.clone(),
                    path: file.path.clone(),
                    problem: file.problem.clone().unwrap_or_default(),
                });
            }
            if let Some(word) = trust.uncovered.first() {
                return Err(GrantError::Uncovered {
                    key: trust.key.clone(),
                    word: word.word.clone(),
                    why: word.why.clone(),
                });
            }
            let grant = trust.grant();
            granted.push(Granted {
                key: grant.key.clone(),
                hash: grant.hash.clone(),
                files: grant.files.clone().unwrap_or_default(),
            });
            grants.push(grant);
        }
        if grants.is_empty() {
            return Ok(Trusted {
                granted,
                copy_warnings: Vec::new(),
            });
        }
        store.set_trusted(&grants)?;
        let copy_warnings = self.keep_copies(store, hooks);
        Ok(Trusted {
            granted,
            copy_warnings,
        })
    }

    /// Keeps the copies of what `hooks` trusted, then prunes the copies no record refers to.
    fn keep_copies(&self, store: &dyn TrustStore, hooks: &[Candidate<'_>]) -> Vec<CopyError> {
        let Some(home) = store
            .location()
            .parent()
            .filter(|home| !home.as_os_str().is_empty())
        else {
            return Vec::new();
        };
        let copies = TrustedCopies::in_home(home);
        let mut warnings = Vec::new();
        for candidate in hooks {
            let id = identity(self.policy().dialect(), candidate.handler, self.context());
            if let Err(error) = copies.keep_identity(&id) {
                warnings.push(error);
                return warnings;
            }
            for file in &candidate.trust.files {
                let Some(digest) = &file.sha256 else { continue };
                let kept = match candidate.contents.get(&file.path) {
                    Some(bytes) => copies.keep_bytes(bytes, digest),
                    None => copies.keep_file(&file.path, digest),
                };
                if let Err(error) = kept {
                    warnings.push(error);
                    return warnings;
                }
            }
        }
        if let Ok(records) = store.load()
            && let Err(error) = copies.prune(&records)
        {
            warnings.push(error);
        }
        warnings
    }
}
