//! What `hook relay install`, `sync` and `uninstall` did, as data: each command fills its
//! report as it goes (so a command that fails part way still tells what it did before), and
//! `ui::relay::install` renders it.

use std::path::PathBuf;

use hook_config::Diagnostic;
use hook_protocol::Dialect;

use crate::ops::relay::agents::Changes;
use crate::ops::relay::read::entries::Wanted;

/// Which scope a report is about: the file named in its lines, and the flags of the commands it
/// suggests (`hook relay sync --dialect D --project P --home H`).
#[derive(Debug, Clone)]
pub(crate) struct ScopeNames {
    pub(crate) dialect: Dialect,
    /// The agent's name (`Claude Code`, `Codex`, `Qwen Code`).
    pub(crate) agent: &'static str,
    /// How a `hook relay` command names the agent (`--dialect verboo`, `--agent qwen`); the
    /// relay hooks are named by their dialect (`hook trust --dialect verboo`).
    pub(crate) relay_flags: String,
    /// The agent's settings file edited.
    pub(crate) file: PathBuf,
    /// The project, absolute, in project scope.
    pub(crate) project: Option<PathBuf>,
    /// The dialect's home given, absolute.
    pub(crate) home: Option<PathBuf>,
}

/// A symbolic link on the way to a file a command writes: `path` as named, `real` the file
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ThroughLink {
    pub(crate) path: PathBuf,
    pub(crate) real: PathBuf,
}

/// `hook relay install`: the move (with `--move`), then the sync of the entries.
#[derive(Debug, Default)]
pub(crate) struct InstallReport {
    /// `--move`.
    pub(crate) moved: Option<MoveReport>,
    pub(crate) sync: SyncReport,
}

/// `--move`: the agent's own hooks moved into the relay's file.
#[derive(Debug)]
pub(crate) struct MoveReport {
    pub(crate) scope: ScopeNames,
    /// The agent's file is reached through a symbolic link.
    pub(crate) agent_link: Option<ThroughLink>,
    /// The agent's file does not exist: nothing to move.
    pub(crate) no_file: bool,
    /// Moved `native` handlers whose `library` is relative: `(event, library)`; it now
    /// resolves against the relay file's folder.
    pub(crate) relative_libraries: Vec<(String, String)>,
    /// The agent's file has no hooks of its own.
    pub(crate) nothing_to_move: bool,
    /// The relay's file is reached through a symbolic link.
    pub(crate) relay_link: Option<ThroughLink>,
    /// Where the agent's file was kept as it was (once per command).
    pub(crate) backup: Option<PathBuf>,
    /// How many hooks moved, and the relay file they went to.
    pub(crate) moved_to: Option<(usize, PathBuf)>,
    /// Why a trusted copy could not be kept (warnings).
    pub(crate) copy_warnings: Vec<String>,
    /// Moved hooks the agent ran that could not be trusted: `(key, why)`.
    pub(crate) not_trusted: Vec<(String, String)>,
    /// The moved hooks trusted in the relay's store.
    pub(crate) trusted: Option<TrustedMoved>,
    /// The keys of moved hooks the agent had not trusted: they wait for `hook trust`.
    pub(crate) waiting: Vec<String>,
}

impl MoveReport {
    pub(crate) fn new(scope: ScopeNames) -> MoveReport {
        MoveReport {
            scope,
            agent_link: None,
            no_file: false,
            relative_libraries: Vec::new(),
            nothing_to_move: false,
            relay_link: None,
            backup: None,
            moved_to: None,
            copy_warnings: Vec::new(),
            not_trusted: Vec::new(),
            trusted: None,
            waiting: Vec::new(),
        }
    }
}

/// The moved hooks trusted in the relay's store, since the agent was running them.
#[derive(Debug)]
pub(crate) struct TrustedMoved {
    /// The store written.
    pub(crate) store: PathBuf,
    pub(crate) granted: Vec<hook_trust::Granted>,
}

/// `hook relay sync` (and the second half of `install`).
#[derive(Debug, Default)]
pub(crate) struct SyncReport {
    pub(crate) scope: Option<ScopeNames>,
    /// The relay configuration's diagnostics (said as warnings).
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// A project's entries start `hook` through the agent's `PATH`: what this `PATH` finds.
    pub(crate) portable: Option<Portable>,
    /// A project's relay hooks are all personal (in its relay `settings.local.json`), yet their
    /// entries went to the project's shared settings: the agent's personal settings file that
    /// would keep them to this person (Claude Code's `.claude/settings.local.json`).
    pub(crate) personal_hooks_in_shared: Option<PathBuf>,
    /// A relay file could not be read: the entries of events it may use were kept.
    pub(crate) unreadable_relay_file: bool,
    pub(crate) edit: Edited,
    /// What the entries are now.
    pub(crate) entries: Option<Entries>,
    /// Codex: its trust of the entries.
    pub(crate) codex_trust: Option<CodexTrust>,
    /// The keys of the scope's relay hooks the relay's store does not let run.
    pub(crate) untrusted: Vec<String>,
    /// The relay hooks on events the agent has none of (a translated agent): `(event, keys)`;
    /// no entry starts the relay for them there.
    pub(crate) unguarded: Vec<(String, Vec<String>)>,
    /// The events of entries written by hand that start the same relay (a translated agent's,
    /// no marker): the user's, left, and the agent starts the relay twice there.
    pub(crate) by_hand: Vec<String>,
}

/// What an edit of the agent's file did.
#[derive(Debug, Default)]
pub(crate) struct Edited {
    /// The file is reached through a symbolic link.
    pub(crate) through_link: Option<ThroughLink>,
    /// The file `hook relay install` had created, removed since nothing else is in it.
    pub(crate) removed_created_file: Option<PathBuf>,
    /// Where the file was kept as it was (once per command).
    pub(crate) backup: Option<PathBuf>,
    pub(crate) changes: Changes,
    /// Whether the file was written (or removed).
    pub(crate) written: bool,
}

/// A project's entries name `hook`, found through each machine's `PATH`: the one this `PATH`
/// finds, and this program.
#[derive(Debug)]
pub(crate) struct Portable {
    /// The first `hook` on this process's `PATH`, and what it is.
    pub(crate) on_path: Option<(PathBuf, FoundKind)>,
    /// This program.
    pub(crate) this: Option<PathBuf>,
}

/// What the `hook` a `PATH` finds is, which each event a project's entry relays starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FoundKind {
    /// A program that is not a script (the binary).
    Binary,
    /// The npm package's Node launcher (`bin/hook` of `hook-engine`, a script): its
    /// postinstall did not put the native binary there (install scripts off, or it failed),
    /// so each start pays for Node first.
    NpmLauncher,
    /// Another script (`#!`): each start pays for its interpreter first.
    Script,
}

/// The relay entries after a sync.
#[derive(Debug)]
pub(crate) enum Entries {
    /// No relay hooks in `places` (the relay's files), so no entries.
    NoRelayHooks {
        places: Vec<PathBuf>,
        removed: usize,
    },
    /// The entries were written.
    Written {
        wanted: Vec<Wanted>,
        added: usize,
        removed: usize,
        unchanged: usize,
    },
    /// Nothing to change.
    UpToDate,
}

/// Codex's own trust of the relay entries.
#[derive(Debug)]
pub(crate) enum CodexTrust {
    /// Codex already trusts them all (its records in `records`).
    AlreadyTrusted { records: PathBuf, entries: usize },
    /// `--trust` recorded Codex's trust of `entries` entries in `records`.
    Recorded { records: PathBuf, entries: usize },
    /// `entries` entries of `file` wait for the user's trust in Codex's `/hooks`.
    ToDo { entries: usize, file: PathBuf },
}

/// `hook relay uninstall`.
#[derive(Debug, Default)]
pub(crate) struct UninstallReport {
    pub(crate) file: PathBuf,
    /// The agent, for an agent whose relay hooks are Claude Code's relay files (a translated
    /// agent): the hooks left there still run in Claude Code, and no longer guard it.
    pub(crate) guest: Option<&'static str>,
    pub(crate) edit: Edited,
    pub(crate) result: Option<Uninstalled>,
    /// The hooks `install --move` had moved, put back.
    pub(crate) given_back: Option<GivenBack>,
    /// Codex's trust records `install --trust` wrote, taken out: the file, how many.
    pub(crate) codex_records: Option<(PathBuf, usize)>,
    /// The relay files of the scope that still hold hooks: they no longer run.
    pub(crate) left: Vec<LeftHooks>,
    /// The project's other settings file of the agent (shared or personal) that still holds
    /// relay entries, and the command that takes them out: the relay hooks still run through
    /// it (and are not counted in `left`).
    pub(crate) entries_elsewhere: Option<(PathBuf, String)>,
}

/// A relay file that still holds hooks after `uninstall`: they no longer run.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LeftHooks {
    /// The relay file.
    pub(crate) relay_file: PathBuf,
    /// How many hooks it holds.
    pub(crate) count: usize,
    /// The agent's own settings file of the same reach, where they would run as the agent's
    /// hooks: a project's personal relay hooks (`hook-relay/settings.local.json`) go to its
    /// personal file (`.claude/settings.local.json`), never to the shared one.
    pub(crate) agent_file: PathBuf,
}

/// The moved hooks put back into the agent's file.
#[derive(Debug, Default)]
pub(crate) struct GivenBack {
    /// The agent's file.
    pub(crate) file: PathBuf,
    /// The file is byte for byte what it was before the move (else the groups were appended
    /// to what is there: someone changed it since).
    pub(crate) exact: bool,
    /// How many groups were put back.
    pub(crate) groups: usize,
    /// How many were already there (not added twice).
    pub(crate) already_there: usize,
    /// What became of the relay files they were moved to.
    pub(crate) relay_files: Vec<RelayGivenBack>,
}

/// The moved hooks taken out of one relay file.
#[derive(Debug)]
pub(crate) struct RelayGivenBack {
    pub(crate) file: PathBuf,
    pub(crate) outcome: RelayOutcome,
    /// Where the relay file was kept as it was.
    pub(crate) backup: Option<PathBuf>,
}

/// What became of a relay file the moved hooks are taken out of.
#[derive(Debug)]
pub(crate) enum RelayOutcome {
    /// It is what it was before the move.
    Restored,
    /// The move had created it: removed.
    Removed,
    /// Changed since the move: `taken` groups taken out as moved; the moved groups of the
    /// events `changed` were changed there since, and stay.
    TookOut { taken: usize, changed: Vec<String> },
    /// It is not there any more.
    Gone,
}

/// What `hook relay uninstall` ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Uninstalled {
    /// The file install had created was removed (the edit says so).
    FileRemoved,
    /// `n` entries were taken out.
    Removed(usize),
    /// There were none.
    NoEntries,
}
