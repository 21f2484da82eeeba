//! Trust hashes of hooks, the persisted trust store, disabled state and managed hooks.
//!
//! **Owns**: the canonical identity hash of a hook ([`trust_hash`]), the policy of who needs
//! trust ([`Policy`]), the stores ([`TrustStore`]: lime's `config.toml` state tables in
//! [`LimeStore`], the JSON file of wuu and verboo in [`JsonStore`]), the status of every
//! handler ([`TrustView::evaluate`]) and the engine's gate ([`TrustGate`], a
//! [`hook_config::Gate`]).
//!
//! **Never**: runs a hook, prints, or reads trust from any layer but the user's own: the
//! stores live in the user's state folder ([`hook_config::Discovery::state_dir`]: the
//! dialect's home, or the relay's user folder beside the agent), and `hook-config` skips
//! lime's `[hooks.state]` when it reads hooks, so a project file that writes `[hooks.state]`
//! trusts nothing.
//!
//! # Example
//!
//! ```
//! use hook_config::{Environment, LoadOptions, load};
//! use hook_protocol::Dialect;
//! use hook_trust::{HashContext, Policy, TrustStatus, TrustView, store_for};
//!
//! let home = tempfile::tempdir()?;
//! let config = home.path().join("config.toml");
//! std::fs::write(&config, "# mine\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./done.sh\"\n")?;
//! let options = LoadOptions::new(Dialect::Lime, Environment::empty()).with_home(home.path());
//! let loaded = load(&options)?;
//! let handler = &loaded.registry.handlers()[0];
//! assert_eq!(handler.key, "user:config.toml:Stop::0");
//!
//! let store = store_for(Dialect::Lime, home.path());
//! let policy = Policy::for_dialect(Dialect::Lime);
//! let view = TrustView::load(store.as_ref(), policy, HashContext::default());
//! assert_eq!(view.evaluate(handler).status, TrustStatus::Untrusted);
//!
//! // Its hash, command and the files it runs, and private copies for later reviews.
//! let trusted = view.trust(store.as_ref(), &[view.candidate(handler)])?;
//! assert_eq!(trusted.granted[0].key, "user:config.toml:Stop::0");
//! let view = TrustView::load(store.as_ref(), policy, HashContext::default());
//! assert_eq!(view.evaluate(handler).status, TrustStatus::Trusted);
//! let text = std::fs::read_to_string(&config)?;
//! assert!(text.starts_with("# mine\n[[hooks.Stop]]"));
//! assert!(text.contains("[hooks.state.\"user:config.toml:Stop::0\"]\ntrusted_hash = \"sha256:"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Who needs trust
//!
//! A hook runs only if it is managed or trusted, and not disabled.
//! [`Policy::for_dialect`]: lime, every non-managed hook (user, project, plugin and session
//! alike, the seed's rule); wuu and verboo, hooks of the project, local and plugin layers,
//! while the user's own file and the embedder's session hooks are trusted as written (status
//! `trusted`). Managed hooks never need trust, and cannot be disabled: as with verboo's
//! `disableAllHooks`, a user setting never turns off what an administrator manages (a stray
//! `enabled = false` on a managed key is ignored).
//!
//! Statuses ([`TrustStatus`]): `managed`, `trusted` (the trusted hash is the current one),
//! `untrusted` (no trusted hash, or the store cannot be read), `modified` (a trusted hash that
//! is no longer the current one); and, apart from them, `enabled`. Disabled is separate from
//! trust: a trusted hook can be disabled and keeps its trust; an untrusted hook can be
//! disabled too. A skip names its reason (`disabled` first, then `modified` or `untrusted`)
//! and the command that fixes it.
//!
//! # Trust hash
//!
//! `sha256:` + the lowercase hex SHA-256 of the RFC 8785 (JCS) canonical JSON of the hook's
//! normalized identity ([`identity`]):
//!
//! ```json
//! {"event": "PreToolUse", "matcher": "Bash",
//!  "handler": {"type": "command", "command": "./check.sh", "timeout": 600, ...},
//!  "plugin": {"name": "guard", "version": "1.2.0"}}
//! ```
//!
//! - `event`: the event name; `matcher`: as written, `""` when absent.
//! - `handler`: every field of [`hook_config::HandlerConfig`] under its config-file name
//!   (`type`, `command`, `commandWindows`, `args`, `shell`, `timeout`, `async`, `asyncRewake`,
//!   `continueOnBlock`, `onFailure`, `if`, `url`, `headers`, `allowedEnvVars`, `prompt`,
//!   `model`, `server`, `tool`, `input`, `additionalContextLimit`, `library`; a field not
//!   written is left out, so adding `onFailure` to the engine changed no existing hash). The files the hook runs are not
//!   in it: their digests sit beside the hash (see "What runs is trusted too").
//! - `plugin`: the plugin's name and version, `null` outside plugins: upgrading a plugin
//!   changes every hook's hash, so its hooks are `modified` until trusted again (the key keeps
//!   the plugin's name only).
//!
//! Normalization: absent booleans are `false` and left out, like absent fields; `timeout` is
//! the timeout in force ([`hook_config::Handler::timeout`]: the dialect's default when none is
//! written, capped by the event's maximum), in seconds, an integer when whole, so lime's
//! `timeout = 600` written out hashes like no timeout; lime's `additionalContextLimit` is
//! always present with its default 10,000 filled in. The same hook therefore hashes the same
//! from TOML and JSON (lime's `config.toml` and a session fragment, or a verboo settings file).
//!
//! Left out: `statusMessage`, the text an agent shows while the hook runs. It changes neither
//! what runs nor what the hook may do, so rewording it must not cost a review. The dialect is
//! not hashed either: stores are per dialect.
//!
//! # What runs is trusted too
//!
//! A hook's trust covers the files it runs ([`named_files`]): for a `command` handler, each
//! word of its command (and `args`) split by [`hook_protocol::shell::words`], after expanding the
//! variables the engine sets (`$CLAUDE_PROJECT_DIR` where the dialect has it, `$PLUGIN_ROOT`
//! and `$CLAUDE_PLUGIN_ROOT` for a plugin's hook, `$PWD`), that resolves from where the hook
//! runs ([`RunPlace`]: the event's `cwd`, or the folder an earlier `cd DIR` moved to) to a
//! regular file inside the project or the plugin's folder; and, as the one command reader
//! ([`hook_protocol::shell::read_command`], wrappers looked through) reads the command: the
//! command string of `sh -c` / `bash -c` or `eval`, read the same way; the `__main__.py` of
//! a folder `python3 DIR` runs, the files `python3 -m pkg.mod` runs from the current folder (`pkg/mod.py`, `pkg/mod/__main__.py`,
//! each package's `__init__.py`: a module file added there later makes the hook `modified`),
//! a folder `node DIR` runs (`package.json`, the `main` it names, `index.*`), and the
//! interpreter a covered script's `#!` line names by path inside the project; for a `native`
//! handler, its library.
//!
//! Paths are resolved as the kernel opens them: every folder on the way through its symbolic
//! links (canonical), the file itself as named (its digest is of what it points to). A word
//! that lies inside the project or plugin as written but leaves it through a link
//! (`sh hooks/lib/../guard.sh` once `hooks/lib` links elsewhere) is not covered and says so
//! ([`HookTrust::uncovered`], [`Uncovered`]): the hook is then `modified` (or `untrusted`)
//! and [`TrustView::trust`] refuses it ([`GrantError::Uncovered`]).
//!
//! **One way to write trust.** [`TrustView::trust`] records, for each hook as it was
//! evaluated ([`TrustView::candidate`]; for a review, [`TrustView::candidate_read`], whose
//! files are read once so the bytes shown, hashed and copied are the same), its hash, what it
//! runs and each covered file's digest, then keeps the private copies; all or nothing, it
//! refuses a hook whose file or library cannot be hashed. `hook trust`, `hook trust --review`
//! and `hook relay install --move` all write trust through it. [`TrustView::trust`] records each
//! file's SHA-256 in the record ([`TrustRecord::trusted_files`]), under a name that holds in
//! another clone (`<project>/.lime/hooks/guard.sh`, `<plugin>/scripts/fmt.sh`, or the absolute
//! path of a library elsewhere). A file that changed, appeared where the command names one,
//! disappeared, or cannot be read (not a regular file, over [`SCRIPT_SIZE_CAP`]) makes the hook
//! `modified` ([`FileChange`]), and the refusal names it (`guard.sh changed`).
//!
//! Why beside the hash and not in it: the trust hash stays the seed's (Codex's own recipe,
//! [`codex_trust_hash`], is used only by `hook relay install --trust`, for the relay entries it
//! records in Codex's config), so records keep their meaning, and a review can tell "the hook
//! changed" from "a file it runs changed". One mechanism for scripts and libraries: native
//! libraries used to be hashed into the identity (`librarySha256`); their records are now
//! "files not yet recorded" until trusted again.
//!
//! A record without files (written before this, or by another tool) reads as trusted with its
//! files not yet recorded ([`FileChange::NotRecorded`]): a hook that runs no file keeps
//! running, one that runs a file is `modified` until `hook trust` records them. The safer
//! reading: nothing that was never reviewed runs.
//!
//! [`TrustGate`] reads the files on every run, from the run's `cwd` ([`hook_config::Gate::check_at`]);
//! a script is hashed, then run by the shell, so a file swapped in between runs unreviewed
//! (scripts have no sealed copy as libraries have; see Limitations). Files of 256 KiB or more
//! are looked up first in `<home>/hook-trusted/digests.json`, by device, inode, size,
//! modification and status-change times: a write, `chmod`, rename or `touch -d` changes the
//! status-change time, which no unprivileged call sets back, and a digest is kept only for a
//! file that had not changed for 2 s when it was hashed (a change in the same clock tick would
//! otherwise go unseen). The cache is read with the store's rules; a missing or garbled one
//! costs a hash. Smaller files are hashed on every run (a 1 MB script cost about 0.5 ms a run
//! before the cache; BENCHMARKS.md).
//!
//! [`TrustedCopies`] keeps a private, content-addressed copy of what was trusted (each hook's
//! canonical identity and each covered script, under `<home>/hook-trusted/`), for reviews to
//! diff against; decisions never read a copy.
//!
//! # Native libraries: the bytes hashed are the bytes loaded
//!
//! A native handler's `library` is resolved once, at load, to an absolute path
//! ([`hook_config::Handler::library_path`]: relative to the plugin folder, or to the folder of
//! the file that declares it — `<project>/.claude/settings.json`'s `lib/hook.so` is
//! `<project>/.claude/lib/hook.so`; this changed: the hash used to read it relative to the
//! project and the engine to load it relative to the event's `cwd`). `hook list` and
//! `hook trust` hash that file (streamed, regular files under the cap only) as a file the hook
//! runs. When the engine runs the hook it reads the file once more, into a sealed memory copy,
//! and [`TrustGate`] decides on the digest of that copy ([`hook_config::Gate::check_native`],
//! [`TrustView::evaluate_native`]), which is then what is loaded: a library replaced after
//! `hook trust`, or between the check and the load, is `modified` and does not run.
//!
//! # Keys
//!
//! Keys come from `hook-config`: `<layer>:<where>:<Event>:<matcher>:<n>`, e.g.
//! `user:config.toml:PreToolUse:Bash:0` or
//! `project:/work/app/.claude/settings.json:PostToolUse:Write|Edit:1`.
//! `<layer>` is `managed`, `user`, `project`, `local`, `plugin` or `session`; `<where>` is the
//! user file's name relative to the home, the absolute path of a project, local or managed
//! file, a plugin's name or a session fragment's name; `<matcher>` is as written; `<n>` counts
//! the earlier handlers of the same event and matcher in the same file. So reordering other
//! groups, adding a hook elsewhere or reformatting the file keeps the key (and the hash:
//! the hook is still `trusted`), while editing the hook keeps the key and changes the hash
//! (`modified`).
//!
//! Why the user file is relative: lime keeps trust inside `<home>/config.toml`, so a record
//! that named the home's absolute path would stop matching when the home moves, and a home
//! kept in a repository (the demo's) could not carry its records to another clone. Project
//! files keep their absolute path on purpose: trusting a project's hook must not trust the
//! same text in another checkout.
//!
//! # Stores
//!
//! [`store_for`] picks the dialect's: lime [`LimeStore`], `[hooks.state."<key>"]` tables in the
//! user's `config.toml` with `trusted_hash` and `enabled = false` when disabled, edited with
//! `toml_edit` so every other byte of the file survives, and the trusted command and files'
//! digests beside it in `<home>/hook-trust.json` (bound to the trusted hash; Codex warns on
//! every start about a `hooks.state` field it does not know, so none is added); wuu and verboo
//! [`JsonStore`], `<home>/hook-trust.json`, which keeps the trusted command and files' digests
//! in the record. Bring your own by implementing [`TrustStore`].
//!
//! Where: [`store_for_discovery`] (and [`TrustView::for_discovery`]) open it in the discovered
//! state folder, [`hook_config::Discovery::state_dir`]: the dialect's home, except for the
//! relay of Claude Code and Codex, whose store sits beside the agent in the relay's user folder
//! (`~/.claude/hook-relay/hook-trust.json`; for Codex the relay's own
//! `$CODEX_HOME/hook-relay/config.toml`, whose `[hooks.state]` Codex never reads). The private
//! copies and the digest cache are kept beside the store (`<state>/hook-trusted/`), so they
//! follow it. The keys of the relay's hooks name the relay's files, never the dialect's, so the
//! relay's records and the dialect's own can never stand for each other.
//!
//! Writes lock `<store>.lock` (an exclusive `flock`/`LockFileEx` taken by
//! [`hook_fs::open_lock`], the workspace's one lock opener, waited for at
//! most [`LOCK_TIMEOUT`], 10 s, then [`StoreError::LockTimeout`] naming the lock file), re-read
//! the store, apply only the given keys' changes, write a temporary file
//! (`.hook-trust-<store>.XXXXXX.tmp`) in the same folder, fsync it and rename it over the store
//! (then fsync the folder): concurrent processes trusting different hooks all land, and a
//! reader sees the old file or the new one, never half of each. Temporary files a killed
//! writer left are removed by the next write, under the lock.
//!
//! lime's `config.toml` may be a symbolic link (dotfile managers): the store follows it, checks
//! and rewrites the file it points to (the link stays). `hook-trust.json` is never followed.
//!
//! Refused, as [`StoreError`]s that name the file (and the line and column where one is
//! known): a corrupt store (bad TOML or JSON, a record of the wrong type, a hash that is not
//! `sha256:` and 64 hex digits, a JSON root or record that is not an object) is never read as
//! empty and never overwritten; a `hook-trust.json` that is a symbolic link (trust written
//! through it could land anywhere); a store, or a store folder, that is world-writable (anyone
//! could trust a hook). A store is read as `hook-config` reads a managed configuration file
//! ([`hook_config::read_config_text`], [`hook_config::FileOwner::RootOrSelf`]): a regular
//! file (a FIFO or a device is refused through the open descriptor, never waited on), of at
//! most 8 MiB, owned by the user running `hook` or by root and not writable by its group or
//! others, in a folder owned by that user or root and not group- or world-writable either
//! ([`StoreError::Refused`]); its lock file is opened without blocking or following a link.
//! A store folder `hook` creates is 0700, a new store 0600. The engine then treats every hook
//! that needs trust as untrusted, and says so in each skip.
//!
//! # Limitations
//!
//! - Only the files a command names (and the forms above) are covered: what a script loads by
//!   itself (an imported module, a sourced file, a program on `PATH`, `#!/usr/bin/env
//!   python3`, a path it builds), files outside the project and plugin folders, and words with
//!   variables the engine does not set (`$OTHER/x.sh`), globs or `~` are not. A command line
//!   is read, not run: `cd` is followed in sequence only (a `cd` inside a subshell or a
//!   function moves the later words too, which only covers more), `node DIR` covers the
//!   `main` of its `package.json` and the `index` files, not the `exports` map.
//!   `hook list --json` shows what is covered.
//! - A word that reaches its file through a link leaving the project or plugin (a `hooks`
//!   folder kept elsewhere and linked in) is never trusted: name the file by a path inside, or
//!   move the file in.
//! - A user-layer hook that runs a project-relative script, moved by `relay install --move`
//!   in the user scope, has its script resolved from the folder the command runs in (as
//!   `hook trust` does): run it from the project, or trust the hook there afterwards.
//! - A script is hashed, then started by the shell: replaced in that instant, the new one runs
//!   (a native library is loaded from the sealed copy it was judged on).
//! - A file a command writes and names as an argument (`tee log.txt`) is covered, so writing
//!   it asks for trust again; output redirections (`>> log.txt`) are not covered.
//! - A user-layer hook that runs a project-relative script (`sh .lime/hooks/guard.sh`) records
//!   one digest per name: trusting it in a project whose script differs replaces the other
//!   project's digest, so switching between the two asks again.
//! - The lock is advisory: an editor saving `config.toml` at the same moment as `hook trust`
//!   is not locked out, and the later write wins.
//! - A group-writable store or store folder is refused even where the group is the user's own
//!   (user private groups, umask 002): `chmod go-w` it. Telling a private group from a shared
//!   one needs the group database; the stricter rule is the one that cannot be wrong.
//! - Outside Linux the engine hashes a native library, then loads it by path: a file swapped
//!   in between is loaded unverified (Linux loads the sealed copy it hashed).

mod codex_hash;
mod copies;
mod digest_cache;
mod files;
mod gate;
mod grant;
mod hash;
mod keys;
mod limits;
mod policy;
mod store;

pub use codex_hash::{CodexHook, codex_trust_hash, codex_trust_key};
pub use copies::{COPIES_DIR, COPIES_SIZE_CAP, CopyError, TrustedCopies};
pub use files::{
    FileChange, FileState, FileTrust, NamedFile, PLUGIN_PREFIX, PROJECT_PREFIX, Uncovered,
    named_files,
};
pub use gate::TrustGate;
pub use grant::{Candidate, GrantError, Granted, Trusted};
pub use hash::{HASH_PREFIX, HashContext, canonical_json, identity, is_trust_hash, trust_hash};
pub use hook_config::RunPlace;
pub use keys::{UnknownKey, check_keys, nearest_keys};
pub use limits::SCRIPT_SIZE_CAP;
pub use policy::{HookTrust, Policy, Refusal, TrustStatus, TrustView};
pub use store::{
    Grant, JsonStore, LOCK_TIMEOUT, LimeStore, Position, Records, StoreError, TrustRecord,
    TrustStore, store_for, store_for_discovery,
};
