//! Who needs trust, and the trust status of every handler.

use std::sync::Arc;

use std::collections::BTreeMap;

use hook_config::{Handler, RunPlace};
use hook_protocol::{Dialect, Layer, SkipReason};
use serde::Serialize;

use crate::digest_cache::DigestCache;
use crate::files::{
    FileChange, FileState, FileTrust, NamedFile, Uncovered, compare, named_files_cached,
    named_files_read,
};
use crate::hash::{HashContext, trust_hash};
use crate::store::{Grant, Records, StoreError, TrustRecord, TrustStore};

/// Who needs trust before running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    dialect: Dialect,
}

impl Policy {
    /// The rules of `dialect`: lime, every non-managed hook; wuu and verboo, hooks of the
    /// project, local and plugin layers (the user's own file and the embedder's session hooks
    /// are trusted as written).
    pub fn for_dialect(dialect: Dialect) -> Self {
        Policy { dialect }
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether a hook of `layer` must be trusted before it runs.
    pub fn needs_trust(&self, layer: Layer) -> bool {
        layer != Layer::Managed
            && self
                .dialect
                .rules()
                .config()
                .trust_layers()
                .contains(&layer)
    }
}

/// A handler's trust status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TrustStatus {
    /// From the managed layer: never needs trust, cannot be disabled.
    Managed,
    /// Trusted: its current hash is the trusted one, or its layer is trusted as written.
    Trusted,
    /// Needs trust and has none (or the store could not be read).
    Untrusted,
    /// Was trusted, then changed: its hash is not the trusted one, or a file it runs changed,
    /// appeared, disappeared or was never recorded ([`HookTrust::files`]).
    Modified,
}

impl std::fmt::Display for TrustStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TrustStatus::Managed => "managed",
            TrustStatus::Trusted => "trusted",
            TrustStatus::Untrusted => "untrusted",
            TrustStatus::Modified => "modified",
        })
    }
}

/// Everything known about one handler's trust.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HookTrust {
    /// The handler's key.
    pub key: String,
    /// Its status.
    pub status: TrustStatus,
    /// `false` when disabled (managed hooks are always enabled).
    pub enabled: bool,
    /// Whether its layer needs trust in this dialect.
    pub needs_trust: bool,
    /// Its hash now.
    pub hash: String,
    /// The hash it was trusted with, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted_hash: Option<String>,
    /// What it ran when it was trusted, when the store kept it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted_command: Option<String>,
    /// What it runs now ([`hook_config::HandlerConfig::summary`]).
    pub command: String,
    /// The files inside the project or plugin folder it runs ([`crate::named_files`]), each
    /// compared with its digest when the hook was trusted.
    pub files: Vec<FileTrust>,
    /// The words of its command that lie in the project or plugin folder as written but leave
    /// it through a symbolic link: not covered, so the hook is never `trusted` while there is
    /// one (`modified` when it was trusted) and cannot be trusted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uncovered: Vec<Uncovered>,
}

impl HookTrust {
    /// Whether the handler may run: managed or trusted, and enabled.
    pub fn may_run(&self) -> bool {
        matches!(self.status, TrustStatus::Managed | TrustStatus::Trusted) && self.enabled
    }

    /// The files that differ from what was trusted (empty when none does).
    pub fn changed_files(&self) -> impl Iterator<Item = &FileTrust> {
        self.files
            .iter()
            .filter(|file| file.change != FileChange::Unchanged)
    }

    /// The digests of its files now, for a [`crate::Grant`]: every present, readable one.
    pub fn current_files(&self) -> BTreeMap<String, String> {
        self.files
            .iter()
            .filter_map(|file| {
                let digest = file.sha256.clone()?;
                Some((file.name.clone(), digest))
            })
            .collect()
    }

    /// Trusting the hook as it is now: its key, hash, command and files' digests (written only
    /// by [`TrustView::trust`]).
    pub(crate) fn grant(&self) -> Grant {
        Grant::new(self.key.clone(), self.hash.clone())
            .with_command(self.command.clone())
            .with_files(self.current_files())
    }

    /// The changed files as a short phrase, each by its file name: `guard.sh changed`,
    /// `a.sh added, b.sh removed`, and each word that is not covered; `None` when no file
    /// differs.
    pub fn files_phrase(&self) -> Option<String> {
        let mut parts: Vec<String> = self
            .changed_files()
            .map(|file| {
                let name = file.path.file_name().map_or_else(
                    || file.path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                match (&file.change, &file.problem) {
                    (FileChange::NotRecorded, _) => format!("{name} not yet recorded"),
                    (_, Some(problem)) => format!("{name} unreadable: {problem}"),
                    (change, None) => format!("{name} {change}"),
                }
            })
            .collect();
        parts.extend(
            self.uncovered
                .iter()
                .map(|u| format!("{} not covered: it {}", u.word, u.why)),
        );
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// The trust of every handler of one configuration: the policy, the store's records (or why
/// they could not be read) and how to hash.
#[derive(Debug, Clone)]
pub struct TrustView {
    policy: Policy,
    context: HashContext,
    records: Result<Records, Arc<StoreError>>,
    location: std::path::PathBuf,
    /// The digests of large files, in the store's home (none for records given by hand).
    digests: Option<Arc<DigestCache>>,
}

impl TrustView {
    /// Reads `store` once. A store that cannot be read is kept as an error: every handler
    /// that needs trust is then untrusted ([`TrustView::store_error`] says why).
    pub fn load(store: &dyn TrustStore, policy: Policy, context: HashContext) -> Self {
        TrustView {
            policy,
            context,
            records: store.load().map_err(Arc::new),
            location: store.location().to_path_buf(),
            digests: store
                .location()
                .parent()
                .filter(|home| !home.as_os_str().is_empty())
                .map(|home| Arc::new(DigestCache::in_home(home))),
        }
    }

    /// The trust of a loaded configuration, as `hook` decides it: the dialect's store in the
    /// discovered state folder ([`crate::store_for_discovery`]), its policy, and hashes whose
    /// relative paths are read against the discovered project (so a key's hash does not
    /// depend on the process's working directory).
    pub fn for_discovery(discovery: &hook_config::Discovery) -> Self {
        let store = crate::store_for_discovery(discovery);
        let context = match &discovery.project {
            Some(project) => HashContext::with_base_dir(project),
            None => HashContext::default(),
        };
        TrustView::load(
            store.as_ref(),
            Policy::for_dialect(discovery.dialect),
            context,
        )
    }

    /// A view over records already read (for tests and embedders with their own storage).
    pub fn from_records(policy: Policy, context: HashContext, records: Records) -> Self {
        TrustView {
            policy,
            context,
            records: Ok(records),
            location: std::path::PathBuf::new(),
            digests: None,
        }
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The hashing context.
    pub fn context(&self) -> &HashContext {
        &self.context
    }

    /// Where the records came from.
    pub fn location(&self) -> &std::path::Path {
        &self.location
    }

    /// Why the store could not be read, if it could not.
    pub fn store_error(&self) -> Option<&StoreError> {
        self.records.as_ref().err().map(AsRef::as_ref)
    }

    /// The records read (empty when the store could not be read).
    pub fn records(&self) -> Option<&Records> {
        self.records.as_ref().ok()
    }

    /// The current trust hash of `handler`.
    pub fn hash(&self, handler: &Handler) -> String {
        trust_hash(self.policy.dialect, handler, &self.context)
    }

    /// Where hooks run when `hook list` and `hook trust` look at them: the project (the
    /// context's base folder), else the current folder.
    pub fn place(&self) -> RunPlace {
        match &self.context.base_dir {
            Some(dir) => RunPlace::new(dir.clone(), Some(dir.clone())),
            None => RunPlace::new(std::env::current_dir().unwrap_or_default(), None),
        }
    }

    /// The trust of `handler`, its files read from [`TrustView::place`].
    pub fn evaluate(&self, handler: &Handler) -> HookTrust {
        self.evaluate_at(handler, &self.place())
    }

    /// The trust of `handler` about to run at `place`: the files it names are resolved and
    /// read from there.
    pub fn evaluate_at(&self, handler: &Handler, place: &RunPlace) -> HookTrust {
        self.evaluate_hashed(handler, self.hash(handler), place, None)
    }

    /// [`TrustView::evaluate`], each script read once, whole, and kept: its digest and its
    /// bytes come from that one read (see [`TrustView::candidate_read`]).
    pub(crate) fn evaluate_read(
        &self,
        handler: &Handler,
    ) -> (HookTrust, BTreeMap<std::path::PathBuf, Vec<u8>>) {
        let (named, uncovered, contents) =
            named_files_read(self.policy.dialect, handler, &self.place());
        (
            self.evaluate_named(handler, self.hash(handler), named, uncovered),
            contents,
        )
    }

    /// The trust of a native `handler` whose library digest is given (the hex SHA-256 of the
    /// bytes the engine read and will load; `None` when unreadable) instead of read again.
    pub fn evaluate_native(&self, handler: &Handler, library_sha256: Option<&str>) -> HookTrust {
        self.evaluate_hashed(
            handler,
            self.hash(handler),
            &self.place(),
            Some(library_sha256),
        )
    }

    /// `handler`'s trust with its hash already taken; a native handler's library digest is
    /// `library` when given (`Some(None)`: it could not be read).
    pub(crate) fn evaluate_hashed(
        &self,
        handler: &Handler,
        hash: String,
        place: &RunPlace,
        library: Option<Option<&str>>,
    ) -> HookTrust {
        let (mut named, uncovered) =
            named_files_cached(self.policy.dialect, handler, place, self.digests.as_deref());
        if let Some(digest) = library {
            // The bytes the engine read are what is judged, never a second read.
            for file in &mut named {
                file.state = match (digest, &file.state) {
                    (Some(hex), _) => FileState::Present(format!("{}{hex}", crate::HASH_PREFIX)),
                    // Why it could not be read, as the file says it (no read: see `file_state`).
                    (None, FileState::Unreadable(_) | FileState::Missing) => file.state.clone(),
                    (None, FileState::Present(_)) => {
                        FileState::Unreadable("the engine could not read it".to_owned())
                    }
                };
            }
        }
        self.evaluate_named(handler, hash, named, uncovered)
    }

    /// `handler`'s trust with its hash taken and its files read.
    fn evaluate_named(
        &self,
        handler: &Handler,
        hash: String,
        named: Vec<NamedFile>,
        uncovered: Vec<Uncovered>,
    ) -> HookTrust {
        let needs_trust = self.policy.needs_trust(handler.source.layer);
        let default = TrustRecord::default();
        let record = self
            .records
            .as_ref()
            .ok()
            .and_then(|records| records.get(&handler.key))
            .unwrap_or(&default);
        let managed = handler.source.layer == Layer::Managed;
        let files = compare(named, record.trusted_files.as_ref());
        let status = if managed {
            TrustStatus::Managed
        } else if !needs_trust {
            TrustStatus::Trusted
        } else {
            match &record.trusted_hash {
                Some(trusted)
                    if *trusted == hash
                        && uncovered.is_empty()
                        && files.iter().all(|f| f.change == FileChange::Unchanged) =>
                {
                    TrustStatus::Trusted
                }
                Some(_) => TrustStatus::Modified,
                None => TrustStatus::Untrusted,
            }
        };
        HookTrust {
            key: handler.key.clone(),
            status,
            enabled: managed || record.enabled,
            needs_trust,
            hash,
            trusted_hash: record.trusted_hash.clone(),
            trusted_command: record.trusted_command.clone(),
            command: handler.config.summary(),
            files,
            uncovered,
        }
    }

    /// Why `handler` may not run, as data (the reason, its trust, the store's error); `None`
    /// when it may run. A caller phrases it ([`Refusal`]'s `Display` is a plain sentence;
    /// `hook-cli` adds the command that lets the hook run).
    pub fn refusal(&self, handler: &Handler) -> Option<Refusal> {
        self.refusal_of(self.evaluate(handler))
    }

    /// [`TrustView::refusal`] of a handler about to run at `place` ([`TrustView::evaluate_at`]).
    pub fn refusal_at(&self, handler: &Handler, place: &RunPlace) -> Option<Refusal> {
        self.refusal_of(self.evaluate_at(handler, place))
    }

    /// [`TrustView::refusal`] of a native handler, deciding on the given library digest
    /// ([`TrustView::evaluate_native`]).
    pub fn refusal_native(
        &self,
        handler: &Handler,
        library_sha256: Option<&str>,
    ) -> Option<Refusal> {
        self.refusal_of(self.evaluate_native(handler, library_sha256))
    }

    pub(crate) fn refusal_of(&self, trust: HookTrust) -> Option<Refusal> {
        if trust.may_run() {
            return None;
        }
        let store_error = match self.store_error() {
            Some(error) if trust.needs_trust => Some(error.to_string()),
            _ => None,
        };
        let reason = if !trust.enabled {
            SkipReason::Disabled
        } else if trust.status == TrustStatus::Modified {
            SkipReason::Modified
        } else {
            SkipReason::Untrusted
        };
        Some(Refusal {
            reason,
            trust,
            store_error,
        })
    }
}

/// Why trust keeps a hook from running, as data: the caller phrases it and names the command
/// that would let it run (its `Display` is the sentence without the command).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refusal {
    /// `disabled` (whatever the trust), `modified` or `untrusted`.
    pub reason: SkipReason,
    /// The hook's trust: its key, status, current and trusted hashes.
    pub trust: HookTrust,
    /// Why the trust store could not be read, when that is why the hook is untrusted.
    pub store_error: Option<String>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let trust = &self.trust;
        match self.reason {
            SkipReason::Disabled => {
                write!(f, "hook {} is disabled", trust.key)?;
                match trust.status {
                    TrustStatus::Untrusted | TrustStatus::Modified => {
                        write!(f, "; it is also {}", trust.status)
                    }
                    TrustStatus::Managed | TrustStatus::Trusted => Ok(()),
                }
            }
            SkipReason::Modified => {
                let hash_changed = trust.trusted_hash.as_deref() != Some(trust.hash.as_str());
                match trust.files_phrase() {
                    Some(files) if !hash_changed => write!(
                        f,
                        "hook {} changed since it was trusted: {files}",
                        trust.key
                    ),
                    Some(files) => write!(
                        f,
                        "hook {} changed since it was trusted ({} -> {}; {files})",
                        trust.key,
                        trust.trusted_hash.as_deref().unwrap_or(""),
                        trust.hash
                    ),
                    None => write!(
                        f,
                        "hook {} changed since it was trusted ({} -> {})",
                        trust.key,
                        trust.trusted_hash.as_deref().unwrap_or(""),
                        trust.hash
                    ),
                }
            }
            _ => {
                write!(f, "hook {} is not trusted", trust.key)?;
                match &self.store_error {
                    Some(error) => write!(
                        f,
                        " (the trust store cannot be read, so no hook is trusted: {error})"
                    ),
                    None => Ok(()),
                }
            }
        }
    }
}
