//! What `hook relay install`, `sync` and `uninstall` do: the relay's entries in the agent's own
//! settings (Claude Code's `settings.json`, Codex's `config.toml`; for an agent whose events
//! the relay translates, Qwen Code's, Gemini CLI's or Copilot CLI's own file, with entries in
//! its terms for the relay's Claude Code hooks: [`mod@super::agents::translated`]'s
//! `settings`). Nothing here prints: each command fills a report ([`InstallReport`],
//! [`SyncReport`], [`UninstallReport`]) that `ui::relay::install` renders. What the agent's
//! settings hold (where they are, how an entry looks, what each entry reaches) is the read
//! model in [`super::read`], which these writers import and the readers (the answer, `status`,
//! `doctor`, `list`, `stats`) use without them.
//!
//! **Each scope's entries start the relay for that scope's hooks.** The user's settings get the
//! entries the relay's user file needs, a project's settings those the project's relay files
//! need (see [`hook_config::RELAY_DIR`]), each entry's command naming its scope (`--scope user`,
//! `--scope project`): the relay it starts runs that scope's relay hooks only
//! ([`super::RelayScope`]). An agent runs every matching entry (Codex always; Claude Code when
//! the two commands differ, and a project's differs from the user's), so a project entry
//! matching `*` beside a user entry matching `Bash` runs each relay hook once on a Bash call:
//! the user's run the user's, the project's the project's. A project's shared entries never
//! depend on the installer's own relay hooks or entries, so every clone writes the same ones.
//! An entry of an earlier version (no `--scope`) runs both, until `sync` rewrites it.
//!
//! **A project's personal relay hooks.** Claude Code also reads a project's personal,
//! uncommitted `.claude/settings.local.json` ([`hook_protocol::RelayAgent::personal_config_file`]),
//! and the relay's project scope includes its personal file `hook-relay/settings.local.json`.
//! Entries go to the shared settings unless `--agent-config` names another file; when every
//! relay hook of the project is personal, `install` and `sync` warn
//! ([`SyncReport::personal_hooks_in_shared`]): a teammate would get entries, failing closed,
//! for hooks that are not theirs. Entries in `.claude/settings.local.json` reach the hooks as
//! the shared file's do ([`relay_reach`]), and the `sync` named for a personal hook no entry
//! reaches keeps `--agent-config` when the entries are there. Entries never move between the
//! two files by themselves: which file is the user's choice.
//!
//! **Entries only where hooks are.** One group per event that has relay hooks of the scope,
//! whose matcher is the union of those hooks' matchers in the agent's own syntax (absent when
//! any hook has none, `""` or `*`, and on events the agent does not match on; exact names stay
//! an exact `A|B` list; with a regex among them, `^(?:A|B)$|(?:regex)|...`). The agent's
//! session event ([`hook_protocol::RelayAgent::session_event`], `SessionStart`) always gets an
//! entry, with no matcher, while any relay hook of the scope exists: the relay tells the user
//! there which relay hooks are untrusted or unreached.
//!
//! **The timeout rule.** An entry's timeout is the longest the relay may wait for the hooks it
//! runs there, plus [`TIMEOUT_MARGIN`] (5 s: the relay's own start, trust checks and answer):
//! the largest timeout in force among the scope's relay hooks on the event, each its own
//! `timeout` or, when it sets none, the agent's default for its type on that event
//! ([`hook_config::timeout_limits`]: Claude Code 600 s for `command` and `http`, 30 s for
//! `prompt`, 60 s for `agent`; Codex 600 s, 1 s on `SessionEnd`); `async` hooks (the relay
//! answers without waiting for them) and hooks a setting keeps from running do not count. An
//! entry with no hook to wait for (the session entry alone, an event whose hooks are all async
//! or broken) gets the margin alone: never 600 s that no relay hook asked for; never more than
//! the agent lets a command hook have on the event. One function computes it,
//! [`entry_timeout`], for status and doctor too. The entry's command carries it
//! (`--entry-timeout SECS`), so the relay knows when the agent would cut it short; a relay hook
//! whose timeout was raised since leaves the entry short until `sync` (or `install`) writes
//! both again. An earlier version's entry without the argument still is one.
//!
//! - A broken relay handler keeps an entry on its event, with no matcher; a relay file that
//!   cannot be read at all keeps every existing entry: the relay still starts, and says what
//!   is wrong.
//! - `install` run again and `sync` rewrite the entries from the relay files as they are now
//!   (add, change, remove): run `sync` after editing a relay file, or after a `git pull` that
//!   changed a project's relay file. A relay hook no entry of its scope reaches is reported by
//!   [`unreached_relay_hooks`] (`hook list --relay`, the relay's session entry) with that
//!   command. The session entry does not re-sync by itself: the relay would then edit the
//!   user's settings from a file a `git pull` brought, before the user reviewed it.
//!
//! **The command.** `<hook> relay --dialect D --event E [--home DIR] --scope S --entry-timeout
//! SECS [|| exit 2] # hook-relay-install` ([`relay_command`]). `<hook>` is this program's absolute path in the
//! user's settings, and the word `hook` in a project's: a project's settings are shared, and
//! the installer's path means nothing on a teammate's machine; each machine's agent finds
//! `hook` through its own `PATH` (install warns when its own `PATH` has none, and notes when
//! the `hook` there is a script, as npm's Node launcher is where the package's postinstall did
//! not put the native binary in its place: each event would start Node first). `--home` is
//! there when install was given one, so the relay reads the relay files install read. Where
//! the event can block ([`fails_closed`]: not `Stop` and the like, where a block keeps the
//! agent working), the command ends in `|| exit 2`: a relay that cannot start (`hook` not on
//! the agent's `PATH`, moved, deleted: the shell's exit 127) blocks the event with the shell's
//! message, in Codex (which has no `onFailure`) and in every Claude Code version, never lets it
//! through; Claude Code 2.1.332 reads the `"onFailure": "block"` install writes on those
//! entries too. `||` is read alike by sh, bash, zsh and fish. `sync` and `uninstall`
//! recognise a command that is exactly that shape, or an earlier version's (an absolute path,
//! no `--scope`, no `--entry-timeout`, no `|| exit 2`; exactly `<path of hook> relay --dialect
//! D` for the oldest),
//! never a command's suffix alone ([`parse_relay`]); a user's hook that merely ends like one
//! is not. The marker is in the command string, the one field both agents pass to the shell
//! unchanged (Claude Code ignores a whole settings file with a handler field it does not know;
//! Codex runs commands through a shell, where `#` starts a comment).
//!
//! **Nothing else changes.** Only the relay's own handlers are added or removed: another
//! handler in the same group stays; a group, event or `hooks` object the removal empties goes.
//! JSON is edited as text ([`json_text`]): every byte outside the edit (key order, number
//! spellings, indentation, CRLF, a minified layout) is kept, so install then uninstall gives the
//! file back byte for byte. TOML is edited with `toml_edit` (comments and layout kept; the
//! round trip is byte for byte too in the tested layouts).
//!
//! **What is kept, and where** ([`state`]): never beside the agent's settings and never in a
//! project, always in the relay's user folder (`~/.claude/hook-relay/`,
//! `$CODEX_HOME/hook-relay/`, `<home>/hook-relay/` with `--home`), for a project's files too,
//! under `install/<file name>-<hash of its path>/`: the lock every edit takes, the file before
//! the first change `hook relay` made (`<name>.first`, never overwritten), the file before each
//! later change (`<name>.1`, `<name>.2`, ...: numbered up, the newest ten kept), and
//! `state.json` (what uninstall needs). What decides what uninstall removes is the user's, never
//! a file a clone can ship: an earlier version's state in a project's relay folder is taken in
//! once for what cannot harm (Codex records of the project's own file, moves given back inside
//! the project without deleting a file; never its record of a created file), and a
//! `<file>.hook-relay.created` is read (and removed) only beside the user's own settings. The
//! `<file>.hook-relay.prev`/`.bak` of earlier versions are left alone, and an empty
//! `<file>.lock` nobody holds is removed.
//!
//! **The relay's own hook file** of a scope is edited the same way, through [`RelayFile`]
//! (the lock and backups in the relay's user folder, a project's file refused outside the
//! project, a link edited through, mode and owner kept): what `hook guard add` and `remove`
//! write a ready-made guard's entry with ([`crate::ops::guard`]).
//!
//! **Uninstall gives back what install took** ([`give_back`]): the relay's entries out; the
//! hooks `--move` moved back where they came from (the file byte for byte as it was before the
//! move while nobody else changed it since, else merged into what is there, saying so) and out
//! of the relay's file; Codex's trust records `--trust` wrote (only those); the file install
//! created, when nothing else is in it. Relay hooks left in the scope's relay files no longer
//! run, and the report says so.
//!
//! **Files.** A symbolic link is followed and its target edited, and the command says so; in
//! project scope the file the kernel would open (every link followed) must lie inside the
//! project, else the command stops naming where it resolves and writes nothing (`--move`'s
//! relay file too). The file must be a regular
//! file (a FIFO or device is refused without waiting on it) of at most 8 MiB, UTF-8, holding an
//! object/table, else the command stops with an error naming it and writes nothing. Writes go
//! to a temporary file beside it, given the file's mode and owner (a new file is 0600), renamed
//! over it, under the file's lock in the relay's folder, waited for at most 10 s.
//!
//! **Trust.** Codex runs only hooks it trusts: `install --trust` (lime) writes Codex's own
//! `[hooks.state]` records for the relay entries, with Codex's key and hash
//! ([`hook_trust::codex_trust_hash`], checked against the real Codex), into the user's
//! `config.toml` (the only place Codex reads them, for project entries too; locked through the
//! relay's user folder, [`hook_trust::LimeStore::with_lock_file`]), and remembers them for
//! uninstall; without it, install says what to do in Codex's `/hooks`.
//! Only the entries this run wants, exactly as it writes them (command, matcher, timeout, alone
//! in their group), are trusted; an entry already in the file that only looks like one never
//! is; a relay file that cannot be read stops `--trust` with the reason.
//! Relay hooks that the relay's own trust store does not trust yet are listed with the command
//! that trusts them. `--move` moves the agent's own hooks into the relay's file of the same
//! scope, each group as written (the same dialect: nothing is converted, `native` handlers
//! included; a relative `library` path is warned about, as it now resolves against the relay
//! file's folder); the moved hooks the agent was running (for Codex: the ones whose
//! `[hooks.state]` record matches their current hash; for Claude Code: all, it runs them once
//! the workspace is trusted) are trusted in the relay's store, since the user asked for the
//! move, the way `hook trust` trusts ([`hook_trust::TrustView::trust`]: with the files they
//! run, and the copies a review needs; the output lists them); the others are listed as not
//! running until trusted.
//!
//! [`relay_reach`]: super::read::reach::relay_reach
//! [`TIMEOUT_MARGIN`]: super::read::entries::TIMEOUT_MARGIN
//! [`entry_timeout`]: super::read::entries::entry_timeout
//! [`unreached_relay_hooks`]: super::read::reach::unreached_relay_hooks
//! [`relay_command`]: super::read::entries::relay_command
//! [`fails_closed`]: super::read::entries::fails_closed
//! [`parse_relay`]: super::read::entries::parse_relay
//! [`json_text`]: super::agents::claude::json_text

mod agent_file;
mod apply;
mod atomic;
mod codex_records;
mod give_back;
mod move_hooks;
mod relay_file;
mod report;
mod scope;
mod state;

use apply::apply;
use give_back::uninstall_scope;
use move_hooks::move_agent_hooks;
pub(crate) use relay_file::{RelayFile, RelayFileEdit};
pub(crate) use report::{
    CodexTrust, Edited, Entries, FoundKind, GivenBack, InstallReport, MoveReport, Portable,
    RelayOutcome, ScopeNames, SyncReport, ThroughLink, UninstallReport, Uninstalled,
};
pub(crate) use scope::NPM_PACKAGE;
pub(crate) use scope::ScopeOptions;

use anyhow::Result;

/// `hook relay install`: with `move_hooks`, the agent's own hooks moved into the relay's file
/// first; then the entries the relay hooks need written (Codex's trust of them recorded with
/// `trust`). What it did is in `report`, also when it fails part way.
///
/// # Errors
///
/// When the scope cannot be resolved, a file cannot be read, parsed or written, or `trust`
/// cannot be honoured; `report` holds what was done before.
pub(crate) fn install(
    scope: &ScopeOptions,
    move_hooks: bool,
    trust: bool,
    report: &mut InstallReport,
) -> Result<()> {
    let scope = scope.resolve()?;
    report.sync.scope = Some(scope.names());
    if move_hooks && let Some(agent) = scope.adapter.translation() {
        anyhow::bail!(
            "--move moves an agent's own hooks into the relay's file of its format; {}'s hooks are in its own names (events, tools, timeout unit), so nothing was moved: write them into the relay's Claude Code file ({}) by hand, in Claude Code's names, then run `hook relay sync --agent {}`",
            agent.title,
            scope
                .relay_folder()?
                .join(scope.agent.config_file)
                .display(),
            agent.name()
        );
    }
    if move_hooks {
        let moved = report.moved.insert(MoveReport::new(scope.names()));
        move_agent_hooks(&scope, moved)?;
    }
    apply(&scope, trust, &mut report.sync)
}

/// `hook relay sync`: the entries rewritten from the relay files as they are now.
///
/// # Errors
///
/// As [`install`].
pub(crate) fn sync(scope: &ScopeOptions, trust: bool, report: &mut SyncReport) -> Result<()> {
    let scope = scope.resolve()?;
    report.scope = Some(scope.names());
    apply(&scope, trust, report)
}

/// `hook relay uninstall`: the relay entries taken out, and what install took given back (the
/// hooks `--move` moved, Codex's trust records `--trust` wrote; [`give_back`]).
///
/// # Errors
///
/// When the scope cannot be resolved or a file cannot be read, parsed or written; `report`
/// holds what was done before.
pub(crate) fn uninstall(scope: &ScopeOptions, report: &mut UninstallReport) -> Result<()> {
    let scope = scope.resolve()?;
    report.file = scope.file.clone();
    uninstall_scope(&scope, report)
}

#[cfg(test)]
mod tests;
