//! What `hook relay install`, `sync` and `uninstall` do: the relay's entries in the agent's own
//! settings (Claude Code's `settings.json`, Codex's `config.toml`). Nothing here prints: each
//! command fills a report ([`InstallReport`], [`SyncReport`], [`UninstallReport`]) that
//! `ui::relay` renders.
//!
//! **Entries only where hooks are.** The relay hooks that can apply (the relay's user file,
//! and the project's when the scope is a project; see [`hook_config::RELAY_DIR`]) decide the
//! entries: one group per event that has relay hooks, whose matcher is the union of those
//! hooks' matchers in the agent's own syntax (absent when any hook has none, `""` or `*`, and
//! on events the agent does not match on; exact names stay an exact `A|B` list; with a regex
//! among them, `^(?:A|B)$|(?:regex)|...`), and whose timeout is the largest of their timeouts
//! (each the dialect's default when unset) plus [`TIMEOUT_MARGIN`] seconds. The agent's
//! session event ([`hook_protocol::RelayAgent::session_event`], `SessionStart`) always gets
//! an entry, with no matcher, while any relay hook exists: the relay tells the user there
//! which relay hooks are untrusted or unreached.
//!
//! - A project's entries leave out the relay hooks (and the session entry) that the user's own
//!   relay entries already start the relay for: an agent runs every matching entry (Codex does
//!   not merge identical ones), and the relay started by either runs every relay hook of the
//!   call, so two entries would run each hook twice.
//! - A broken relay handler keeps an entry on its event, with no matcher; a relay file that
//!   cannot be read at all keeps every existing entry: the relay still starts, and says what
//!   is wrong.
//! - `install` run again and `sync` rewrite the entries from the relay files as they are now
//!   (add, change, remove): run `sync` after editing a relay file, or after a `git pull` that
//!   changed a project's relay file. A relay hook no entry reaches is reported by
//!   [`unreached_relay_hooks`] (`hook list --relay`, the relay's session entry) with that
//!   command. The session entry does not re-sync by itself: the relay would then edit the
//!   user's settings from a file a `git pull` brought, before the user reviewed it.
//!
//! **The marker.** An entry's command is `<quoted path of this hook> relay --dialect D --event
//! E [--home DIR] # hook-relay-install` (`--home` when install was given one, so the relay reads
//! the relay files install read): `sync` and `uninstall` recognise a command that is exactly
//! that shape (a `hook` program, those arguments, the trailing shell comment [`MARKER`]),
//! never a command's suffix alone ([`is_relay`]). It is in the command string, the one
//! field both agents pass to the shell unchanged (Claude Code ignores a whole settings file
//! with a handler field it does not know; Codex runs commands with `$SHELL -lc`, where `#`
//! starts a comment). Entries of earlier versions (exactly `<path of hook> relay --dialect
//! D`) are recognised too, and replaced; a user's hook that merely ends like one is not.
//!
//! **Nothing else changes.** Only the relay's own handlers are added or removed: another
//! handler in the same group stays; a group, event or `hooks` object the removal empties goes.
//! JSON is edited as text ([`json_text`]): every byte outside the edit (key order, number
//! spellings, indentation, CRLF, a minified layout) is kept, so install then uninstall gives the
//! file back byte for byte. TOML is edited with `toml_edit` (comments and layout kept; the
//! round trip is byte for byte too in the tested layouts). No backup is ever restored: before
//! each command's first change the file as it was is kept as `<file>.hook-relay.prev` (0600),
//! for the user only (the `<file>.hook-relay.bak` of an earlier version is left alone).
//!
//! **Files.** A symbolic link is followed and its target edited, and the command says so; in
//! project scope the file the kernel would open (every link followed) must lie inside the
//! project, else the command stops naming where it resolves and writes nothing (`--move`'s
//! relay file too). The file must be a regular
//! file (a FIFO or device is refused without waiting on it) of at most 8 MiB, UTF-8, holding an
//! object/table, else the command stops with an error naming it and writes nothing. Writes go
//! to a temporary file beside it, given the file's mode and owner (a new file is 0600), renamed
//! over it, under `<file>.lock` (the lock `hook trust` takes; never followed if it is a link),
//! waited for at most 10 s.
//!
//! **Trust.** Codex runs only hooks it trusts: `install --trust` (lime) writes Codex's own
//! `[hooks.state]` records for the relay entries, with Codex's key and hash
//! ([`hook_trust::codex_trust_hash`], checked against the real Codex), into the user's
//! `config.toml` (the only place Codex reads them, for project entries too); without it, install says what to do in Codex's `/hooks`.
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

mod agent_file;
mod apply;
mod codex_records;
mod documents;
mod entries;
pub(crate) mod json_text;
mod move_hooks;
mod reach;
mod report;
mod scope;

use apply::*;
use codex_records::*;
use documents::*;
pub(crate) use entries::Wanted;
pub(crate) use entries::is_relay as is_relay_entry;
use entries::*;
use move_hooks::*;
use reach::*;
pub(crate) use reach::{Reach, UnreachedWhy, relay_reach, unreached_relay_hooks};
pub(crate) use report::*;
pub(crate) use scope::ScopeOptions;
use scope::*;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_config::{Broken, Environment, Handler, LoadOptions, Matcher};
use hook_protocol::{ConfigFormat, Dialect, Event, Layer, MatchTarget, RelayAgent};

use json_text::{New, Style};

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

/// `hook relay uninstall`: the relay entries taken out, and nothing else.
///
/// # Errors
///
/// When the scope cannot be resolved or the file cannot be read, parsed or written.
pub(crate) fn uninstall(scope: &ScopeOptions, report: &mut UninstallReport) -> Result<()> {
    let scope = scope.resolve()?;
    report.file = scope.file.clone();
    edit(&scope, &[], false, &mut report.edit)?;
    report.result = Some(if report.edit.written && !scope.file.exists() {
        Uninstalled::FileRemoved
    } else if report.edit.written {
        Uninstalled::Removed(report.edit.changes.removed)
    } else {
        Uninstalled::NoEntries
    });
    Ok(())
}

#[cfg(test)]
mod tests;
