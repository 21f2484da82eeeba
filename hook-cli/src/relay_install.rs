//! `hook relay install`, `sync` and `uninstall`: the relay's entries in the agent's own
//! settings (Claude Code's `settings.json`, Codex's `config.toml`).
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
//! `[hooks.state]` records for the relay entries, with Codex's key and hash ([`codex_trust`],
//! checked against the real Codex), into the user's `config.toml` (the only place Codex reads
//! them, for project entries too); without it, install says what to do in Codex's `/hooks`.
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
mod codex_trust;
mod documents;
pub(crate) mod json_text;
mod move_hooks;
mod reach;

use documents::*;
use move_hooks::*;
pub(crate) use reach::unreached_relay_hooks;
use reach::*;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use hook_config::{Broken, Environment, Handler, LoadOptions, Matcher};
use hook_protocol::{ConfigFormat, Dialect, Event, Layer, MatchTarget, RelayAgent};

use crate::ui::quote::shell_quote;
use crate::ui::terminal::{errln, outln};
use json_text::{New, Style};

/// The shell comment that ends every command `hook relay install` writes.
pub(crate) const MARKER: &str = "# hook-relay-install";

/// Seconds added to the largest hook timeout of an event for its entry's timeout: the relay's
/// own start and answer.
pub(crate) const TIMEOUT_MARGIN: u64 = 5;

/// Which agent, and which of its settings files.
#[derive(Debug, Args)]
pub(crate) struct Scope {
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = crate::args::parse_dialect)]
    dialect: Dialect,
    /// The user's settings (the default).
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// This project's settings (`DIR/.claude/settings.json`, `DIR/.codex/config.toml`); the
    /// entries then also serve the project's relay hooks.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    #[arg(long, value_name = "FILE")]
    agent_config: Option<PathBuf>,
    /// The dialect's home (trust store; with it the relay's user folder is `DIR/hook-relay/`).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    scope: Scope,
    /// Move the hooks already in the agent's file into the relay's file of the same scope.
    #[arg(long = "move")]
    move_hooks: bool,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`, so nothing
    /// is left to do in `/hooks`.
    #[arg(long)]
    trust: bool,
}

#[derive(Debug, Args)]
pub(crate) struct SyncArgs {
    #[command(flatten)]
    scope: Scope,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`.
    #[arg(long)]
    trust: bool,
}

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    scope: Scope,
}

/// The relay agent of `dialect`, or why there is none.
fn agent_of(dialect: Dialect) -> Result<&'static RelayAgent> {
    dialect.rules().relay().with_context(|| {
        format!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime), not {dialect}"
        )
    })
}

/// The agent's home: its variable, else `~/` + its folder.
fn agent_home(agent: &RelayAgent) -> Result<PathBuf> {
    match std::env::var_os(agent.home_env).filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => Ok(
            PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?)
                .join(agent.home_dir),
        ),
    }
}

/// The agent's settings file for the scope.
fn agent_file(agent: &RelayAgent, project: Option<&Path>, given: Option<&Path>) -> Result<PathBuf> {
    if let Some(file) = given {
        return Ok(file.to_owned());
    }
    if let Some(project) = project {
        return Ok(project.join(agent.home_dir).join(agent.config_file));
    }
    Ok(agent_home(agent)?.join(agent.config_file))
}

/// A project directory, absolute.
fn project_dir(project: Option<&Path>) -> Result<Option<PathBuf>> {
    project
        .map(|dir| {
            dir.canonicalize()
                .with_context(|| format!("project directory {} does not exist", dir.display()))
        })
        .transpose()
}

/// The options that load the relay's hooks of a scope: the user's relay file, and the
/// project's when there is one (never the current directory's otherwise).
fn relay_options(dialect: Dialect, project: Option<&Path>, home: Option<&Path>) -> LoadOptions {
    let mut options =
        LoadOptions::new(dialect, Environment::from_process().without_current_dir()).for_relay();
    if let Some(project) = project {
        options = options.with_project(project);
    }
    if let Some(home) = home {
        options = options.with_home(home);
    }
    options
}

/// One relay entry the agent's file should have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) event: Event,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: u64,
    /// `"onFailure": "block"` on the entry: where the agent reads it
    /// ([`RelayAgent::on_failure`]) and the event can block (not on the events where Claude
    /// Code ignores it), so that a relay that cannot answer blocks the event.
    pub(crate) on_failure_block: bool,
}

/// The command of the relay entry of `event`; with the `--home` install was given, so the
/// relay reads the relay files install read.
fn relay_command(dialect: Dialect, event: &Event, home: Option<&Path>) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let home = home
        .map(|home| format!(" --home {}", shell_quote(&home.display().to_string())))
        .unwrap_or_default();
    Ok(format!(
        "{} relay --dialect {dialect} --event {}{home} {MARKER}",
        shell_quote(&exe.display().to_string()),
        event.as_str()
    ))
}

/// Whether `command` is a relay entry of `dialect`: exactly what `install` writes (this
/// program's path, `relay --dialect D --event E`, maybe `--home DIR`, then the marker), or an
/// entry of an earlier version (exactly `<path of hook> relay --dialect D`). The program must
/// be a `hook` binary and nothing else may be in the command: a user's own hook that merely
/// ends like an entry (`my-wrapper relay --dialect D`, `rm -rf ~; hook relay ... # marker`) is
/// never taken for one, so install and uninstall never remove it.
fn is_relay(command: &str, dialect: Dialect) -> bool {
    let dialect = dialect.to_string();
    let (words, marked) = match command.strip_suffix(&format!(" {MARKER}")) {
        Some(rest) => (shlex::split(rest), true),
        None => (shlex::split(command), false),
    };
    let Some(words) = words else { return false };
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    let is_hook = Path::new(program)
        .file_name()
        .is_some_and(|name| name == "hook");
    if !is_hook {
        return false;
    }
    if marked {
        matches!(
            args,
            ["relay", "--dialect", d, "--event", _]
                | ["relay", "--dialect", d, "--event", _, "--home", _]
                if *d == dialect
        )
    } else {
        matches!(args, ["relay", "--dialect", d] if *d == dialect)
    }
}

/// Whether `matcher` matches everything (absent, empty or `*`).
fn matches_all(matcher: Option<&str>) -> bool {
    matcher.is_none_or(|m| m.is_empty() || m == "*")
}

/// The union of `matchers` in the agent's syntax (`None`: everything).
pub(crate) fn union_matcher<'m>(
    matchers: impl IntoIterator<Item = Option<&'m str>>,
) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    let mut regexes: Vec<&str> = Vec::new();
    for matcher in matchers {
        if matches_all(matcher) {
            return None;
        }
        let matcher = matcher.unwrap_or_default();
        if is_name_list(matcher) {
            for name in matcher.split('|').filter(|n| !n.is_empty()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        } else if !regexes.contains(&matcher) {
            regexes.push(matcher);
        }
    }
    if regexes.is_empty() {
        return (!names.is_empty()).then(|| names.join("|"));
    }
    let mut parts = Vec::new();
    if !names.is_empty() {
        parts.push(format!("^(?:{})$", names.join("|")));
    }
    parts.extend(regexes.iter().map(|r| format!("(?:{r})")));
    Some(parts.join("|"))
}

/// A matcher both agents compare as exact names (`Bash`, `Edit|Write`).
fn is_name_list(matcher: &str) -> bool {
    matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
}

/// The entries `handlers` (the relay hooks of the scope) need. A broken relay handler
/// (`broken`, left out by the relay, which tells the user) keeps an entry on its event, with
/// no matcher, so the relay still starts there and says so.
pub(crate) fn wanted_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    handlers: &[&Handler],
    broken: &[Broken],
    with_session: bool,
) -> Vec<Wanted> {
    let mut wanted = Vec::new();
    if handlers.is_empty() && broken.is_empty() && !with_session {
        return wanted;
    }
    for event in agent.events {
        let hooks: Vec<&Handler> = handlers
            .iter()
            .copied()
            .filter(|h| &h.event == event)
            .collect();
        let broken_here = broken.iter().any(|b| b.event.as_ref() == Some(event));
        let session = with_session && event == agent.session_event;
        if hooks.is_empty() && !broken_here && !session {
            continue;
        }
        let matcher =
            if session || broken_here || event.match_target(dialect) == MatchTarget::Nothing {
                None
            } else {
                union_matcher(hooks.iter().map(|h| h.matcher.as_deref()))
            };
        let longest = hooks
            .iter()
            .map(|h| h.timeout.as_secs() + u64::from(h.timeout.subsec_nanos() > 0))
            .chain(broken_here.then_some(agent.default_timeout))
            .max()
            .unwrap_or(agent.default_timeout);
        let on_failure_block = agent.on_failure
            && event.block_effect(dialect).can_block()
            && !hook_config::OnFailure::IGNORED_ON.contains(event);
        wanted.push(Wanted {
            event: event.clone(),
            matcher,
            timeout: longest + TIMEOUT_MARGIN,
            on_failure_block,
        });
    }
    wanted
}

/// The scope resolved: agent, its file, the project, the relay's hooks.
struct Resolved {
    /// Whether this command already kept a backup of the agent's file (once per command: the
    /// backup is the file as it was before the command).
    backed_up: std::cell::Cell<bool>,
    dialect: Dialect,
    agent: &'static RelayAgent,
    file: PathBuf,
    project: Option<PathBuf>,
    home: Option<PathBuf>,
    /// Whether `--agent-config` named the file (the user's choice: it may be anywhere).
    named_file: bool,
}

impl Scope {
    fn resolve(&self) -> Result<Resolved> {
        // `--user` is the default; the flag exists to say so on a command line.
        let _ = self.user;
        let agent = agent_of(self.dialect)?;
        let project = project_dir(self.project.as_deref())?;
        let file = agent_file(agent, project.as_deref(), self.agent_config.as_deref())?;
        Ok(Resolved {
            backed_up: std::cell::Cell::new(false),
            dialect: self.dialect,
            agent,
            file,
            project,
            named_file: self.agent_config.is_some(),
            home: self
                .home
                .as_deref()
                .map(|home| {
                    home.canonicalize().with_context(|| {
                        format!("home directory {} does not exist", home.display())
                    })
                })
                .transpose()?,
        })
    }
}

impl Resolved {
    /// The folder the agent's file must resolve into: the project in project scope (unless
    /// `--agent-config` named the file).
    fn inside(&self) -> Option<&Path> {
        self.project.as_deref().filter(|_| !self.named_file)
    }

    /// Keeps the agent's file as it was before this command, once.
    fn backup(&self, locked: &agent_file::Locked) -> Result<()> {
        if self.backed_up.replace(true) {
            return Ok(());
        }
        if let Some(backup) = locked.backup()? {
            outln!("the file as it was: {}", backup.display());
        }
        Ok(())
    }

    fn options(&self) -> LoadOptions {
        relay_options(self.dialect, self.project.as_deref(), self.home.as_deref())
    }

    /// The relay hooks of the scope (the relay's diagnostics on stderr).
    fn relay_hooks(&self) -> Result<hook_config::Loaded> {
        let loaded = hook_config::load(&self.options()).context("cannot load the relay's hooks")?;
        for diagnostic in &loaded.diagnostics {
            errln!("warning: {diagnostic}");
        }
        Ok(loaded)
    }

    /// The flags naming this scope on a `hook` command line.
    fn flags(&self) -> String {
        let mut flags = format!("--dialect {}", self.dialect);
        if let Some(project) = &self.project {
            flags.push_str(&format!(
                " --project {}",
                shell_quote(&project.display().to_string())
            ));
        }
        if let Some(home) = &self.home {
            flags.push_str(&format!(
                " --home {}",
                shell_quote(&home.display().to_string())
            ));
        }
        flags
    }
}

/// `hook relay install`.
pub(crate) fn install(args: InstallArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    if args.move_hooks {
        move_hooks(&scope)?;
    }
    apply(&scope, args.trust)
}

/// `hook relay sync`.
pub(crate) fn sync(args: SyncArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    apply(&scope, args.trust)
}

/// Writes the entries the relay hooks need, then says what is left to do.
fn apply(scope: &Resolved, trust: bool) -> Result<ExitCode> {
    let loaded = scope.relay_hooks()?;
    let handlers = loaded.registry.handlers();
    let broken = loaded.registry.broken();
    // A project's entries leave out what the user's entries already start the relay for:
    // Codex runs every matching entry, so two entries would run each relay hook twice.
    let user_entries = match &scope.project {
        Some(_) => installed_entries(
            scope.dialect,
            scope.agent,
            &[agent_home(scope.agent)?.join(scope.agent.config_file)],
        ),
        None => Vec::new(),
    };
    let needed: Vec<&Handler> = handlers
        .iter()
        .filter(|h| !reached(scope.dialect, &user_entries, h))
        .collect();
    let any_relay_hook = !handlers.is_empty() || !broken.is_empty();
    let user_announces = user_entries
        .iter()
        .any(|(event, _)| event == scope.agent.session_event.as_str());
    let wanted = wanted_entries(
        scope.dialect,
        scope.agent,
        &needed,
        broken,
        any_relay_hook && !user_announces,
    );
    if needed.len() < handlers.len() {
        outln!(
            "{} relay hooks are already served by the relay entries of {}'s user settings",
            handlers.len() - needed.len(),
            scope.agent.name
        );
    }
    // A relay file that could not be read at all may have hooks on any event: its entries stay.
    let unreadable = broken.iter().any(|b| b.event.is_none());
    if unreadable && trust {
        let reasons: Vec<&str> = broken
            .iter()
            .filter(|b| b.event.is_none())
            .map(|b| b.error.as_str())
            .collect();
        bail!(
            "--trust: a relay file cannot be read, so the relay entries it needs are unknown and none is trusted: {}; fix it, then run this command again",
            reasons.join("; ")
        );
    }
    if unreadable {
        errln!(
            "warning: a relay file could not be read; the relay entries of events it may use are kept: fix it, then run `hook relay sync {}`",
            scope.flags()
        );
    }
    let (changes, written) = edit(scope, &wanted, unreadable)?;
    let file = scope.file.display();
    if wanted.is_empty() && any_relay_hook {
        outln!(
            "{file}: no relay entries needed: the user's relay entries start the relay for every relay hook{}",
            if changes.removed > 0 {
                format!(" ({} removed)", changes.removed)
            } else {
                String::new()
            }
        );
    } else if wanted.is_empty() {
        outln!(
            "{file}: no relay hooks in {}, so no relay entries{}: add hooks there, then run `hook relay sync {}`",
            relay_places(&loaded.discovery),
            if changes.removed > 0 {
                format!(" ({} removed)", changes.removed)
            } else {
                String::new()
            },
            scope.flags()
        );
    } else if written {
        outln!(
            "{file}: relay entries for {} (added {}, removed {}, unchanged {})",
            wanted
                .iter()
                .map(|w| match &w.matcher {
                    Some(m) => format!("{} [{m}]", w.event),
                    None => w.event.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
            changes.added.len(),
            changes.removed,
            changes.kept
        );
    } else {
        outln!("{file}: the relay entries are up to date");
    }
    if !wanted.is_empty() && scope.dialect.rules().trust_state_in_config() {
        codex_trust_step(scope, &wanted, trust)?;
    }
    report_untrusted(scope, &loaded);
    Ok(ExitCode::SUCCESS)
}

/// Where the relay's files of the scope are, for messages.
fn relay_places(discovery: &hook_config::Discovery) -> String {
    discovery
        .files
        .iter()
        .map(|f| f.path.display().to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Edits the agent's file so its relay entries are `wanted`; whether it was written.
fn edit(scope: &Resolved, wanted: &[Wanted], keep_others: bool) -> Result<(Changes, bool)> {
    let locked = agent_file::lock_and_read(&scope.file, scope.inside())?;
    let existed = locked.text.is_some();
    if !existed && wanted.is_empty() {
        // Nothing to take out, nothing to add: no file is created.
        return Ok((Changes::default(), false));
    }
    let text = locked.text.clone().unwrap_or_default();
    let mut doc = open_doc(scope.agent.config_format, &text, &locked.path)?;
    let changes = sync_doc(
        doc.as_mut(),
        scope.dialect,
        wanted,
        keep_others,
        scope.home.as_deref(),
    )?;
    let new_text = doc.text();
    let unchanged = changes.added.is_empty() && changes.removed == 0;
    if unchanged || (existed && new_text == text) {
        return Ok((changes, false));
    }
    let created = agent_file::created_marker(&locked.path);
    if !existed {
        // Install made this file: remember what it wrote, so uninstall can take it away.
        locked.write(&new_text)?;
        agent_file::write_file(&created, None, new_text.as_bytes())?;
        return Ok((changes, true));
    }
    if wanted.is_empty() && holds_only_what_install_wrote(scope, &created, &new_text, &locked.path)
    {
        locked.remove()?;
        let _ = std::fs::remove_file(&created);
        outln!(
            "{}: removed (hook relay install had created it, and nothing else is in it)",
            locked.path.display()
        );
        return Ok((changes, true));
    }
    scope.backup(&locked)?;
    locked.write(&new_text)?;
    if wanted.is_empty() {
        // The relay's entries are gone and the file holds the user's own: it is theirs now.
        let _ = std::fs::remove_file(&created);
    }
    Ok((changes, true))
}

/// Whether `new_text` (the agent's file with the relay's entries taken out) is what the file
/// `hook relay install` created (`created` records it) becomes without them: nothing of the
/// user's is in it, so removing the file loses nothing.
fn holds_only_what_install_wrote(
    scope: &Resolved,
    created: &Path,
    new_text: &str,
    path: &Path,
) -> bool {
    let Ok(Some((was, _))) = agent_file::read_regular(created) else {
        return false;
    };
    let Ok(mut doc) = open_doc(scope.agent.config_format, &was, path) else {
        return false;
    };
    sync_doc(
        doc.as_mut(),
        scope.dialect,
        &[],
        false,
        scope.home.as_deref(),
    )
    .is_ok()
        && doc.text() == new_text
}

/// `hook relay uninstall`.
pub(crate) fn uninstall(args: UninstallArgs) -> Result<ExitCode> {
    let scope = args.scope.resolve()?;
    let (changes, written) = edit(&scope, &[], false)?;
    if written && !scope.file.exists() {
        // `edit` removed the file install had created, and said so.
    } else if written {
        outln!(
            "{}: removed {} relay entries; nothing else changed",
            scope.file.display(),
            changes.removed
        );
    } else {
        outln!(
            "{}: no relay entries; nothing to uninstall",
            scope.file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Lists the relay hooks of the scope that the relay's trust store does not let run.
fn report_untrusted(scope: &Resolved, loaded: &hook_config::Loaded) {
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let waiting: Vec<_> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| view.evaluate(h))
        .filter(|t| !t.may_run())
        .collect();
    if waiting.is_empty() {
        return;
    }
    outln!(
        "{} relay hooks will not run until you review and trust them:",
        waiting.len()
    );
    for trust in &waiting {
        outln!(
            "  hook trust {} --relay {}",
            scope.flags(),
            shell_quote(&trust.key)
        );
    }
}

/// Codex: writes its trust records of the relay entries (`--trust`), or says how. Only the
/// entries this run wants, exactly as it writes them (the command this program writes for
/// the event, its matcher and timeout, alone in its group), are trusted: an entry the file
/// already held that only looks like one (a project's `config.toml` can copy the marker) never
/// is.
fn codex_trust_step(scope: &Resolved, wanted: &[Wanted], trust: bool) -> Result<()> {
    let records = codex_records_file(scope)?;
    let key_source = codex_key_source(scope)?;
    let text = agent_file::read_regular(&scope.file)?
        .map(|(text, _)| text)
        .unwrap_or_default();
    let doc = TomlDoc::new(&text, &scope.file)?;
    let mut grants = Vec::new();
    for found in doc.found(scope.dialect)? {
        if !fits_wanted(scope, wanted, &found)? {
            continue;
        }
        let event = Event::from_name(&found.event);
        let hook = codex_trust::CodexHook {
            event: &event,
            matcher: found.matcher.as_deref(),
            command: &found.command,
            timeout: found.timeout.as_deref().and_then(|t| t.parse().ok()),
            is_async: false,
            status_message: None,
            additional_context_limit: None,
        };
        let key = codex_trust::key(&key_source, &event, found.group, found.handler);
        grants.push(hook_trust::Grant::new(
            key,
            codex_trust::hash(scope.dialect, &hook),
        ));
    }
    let records_store = hook_trust::LimeStore::new(&records);
    let already = hook_trust::TrustStore::load(&records_store).unwrap_or_default();
    let missing: Vec<_> = grants
        .iter()
        .filter(|g| {
            already.get(&g.key).and_then(|r| r.trusted_hash.as_deref()) != Some(g.hash.as_str())
        })
        .cloned()
        .collect();
    if missing.is_empty() {
        outln!(
            "{}: Codex trusts the {} relay entries",
            records.display(),
            grants.len()
        );
        return Ok(());
    }
    if trust {
        hook_trust::TrustStore::set_trusted(&records_store, &missing)
            .with_context(|| format!("cannot record Codex's trust in {}", records.display()))?;
        outln!(
            "{}: recorded Codex's trust of {} relay entries ([hooks.state]); nothing to do in /hooks",
            records.display(),
            missing.len()
        );
        crate::trust_commands::say_if_link(&records);
    } else {
        outln!(
            "Codex runs only hooks you trusted: start codex, type /hooks, and trust the {} `hook relay` entries of {} (or run this command again with --trust to record that trust now)",
            missing.len(),
            scope.file.display()
        );
    }
    Ok(())
}

/// Whether `found` is exactly an entry of `wanted` as this program writes it.
fn fits_wanted(scope: &Resolved, wanted: &[Wanted], found: &Found) -> Result<bool> {
    for w in wanted {
        if w.event.as_str() != found.event {
            continue;
        }
        let command = relay_command(scope.dialect, &w.event, scope.home.as_deref())?;
        if found.group_len == 1
            && found.command == command
            && found.matcher == w.matcher
            && found.timeout.as_deref() == Some(w.timeout.to_string().as_str())
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The `config.toml` whose `[hooks.state]` Codex reads: the user's (the agent file itself in
/// user scope).
fn codex_records_file(scope: &Resolved) -> Result<PathBuf> {
    if scope.project.is_none() {
        return Ok(scope.file.clone());
    }
    Ok(agent_home(scope.agent)?.join(scope.agent.config_file))
}

/// How Codex names the file in its keys: its absolute path (`CODEX_HOME` resolved, as Codex
/// resolves it).
fn codex_key_source(scope: &Resolved) -> Result<String> {
    let file = &scope.file;
    let absolute = match file.parent().map(Path::canonicalize) {
        Some(Ok(dir))
            if std::env::var_os(scope.agent.home_env).is_some() || scope.project.is_some() =>
        {
            dir.join(file.file_name().unwrap_or_default())
        }
        _ if file.is_absolute() => file.clone(),
        _ => std::env::current_dir()?.join(file),
    };
    Ok(absolute.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_unite_in_the_agents_syntax() {
        let table: &[(&[Option<&str>], Option<&str>)] = &[
            (&[Some("Bash")], Some("Bash")),
            (
                &[Some("Bash"), Some("Edit|Write"), Some("Bash")],
                Some("Bash|Edit|Write"),
            ),
            (&[Some("Bash"), None], None),
            (&[Some("Bash"), Some("*")], None),
            (&[Some("")], None),
            (
                &[Some("Bash"), Some("mcp__.*")],
                Some("^(?:Bash)$|(?:mcp__.*)"),
            ),
            (&[Some("^Read$"), Some("Gr.p")], Some("(?:^Read$)|(?:Gr.p)")),
        ];
        for (matchers, expected) in table {
            assert_eq!(
                union_matcher(matchers.iter().copied()).as_deref(),
                *expected,
                "{matchers:?}"
            );
        }
    }

    #[test]
    fn a_union_reaches_exactly_its_hooks() {
        let union = union_matcher([Some("Bash"), Some("mcp__.*")]);
        let entry = union.as_deref();
        assert!(entry_reaches(Dialect::Verboo, entry, Some("Bash")));
        assert!(entry_reaches(Dialect::Verboo, entry, Some("mcp__.*")));
        assert!(!entry_reaches(Dialect::Verboo, entry, Some("Read")));
        assert!(!entry_reaches(Dialect::Verboo, entry, None));
        // The exact part stays exact: `Bashful` is not `Bash`.
        let compiled = Matcher::compile(Dialect::Verboo, entry).unwrap_or(Matcher::All);
        assert!(!compiled.is_match("Bashful"));
        assert!(compiled.is_match("mcp__x__y"));
    }

    #[test]
    fn only_the_marker_or_an_old_entry_is_the_relay() {
        assert!(is_relay(
            "'/bin/hook' relay --dialect lime --event Stop # hook-relay-install",
            Dialect::Lime
        ));
        assert!(is_relay("/x/hook relay --dialect lime", Dialect::Lime));
        assert!(!is_relay("/x/hook relay --dialect verboo", Dialect::Lime));
        assert!(!is_relay("./guard.sh # hook-relay-install", Dialect::Lime));
        assert!(!is_relay(
            "/x/hook relay --dialect lime --event Stop",
            Dialect::Lime
        ));
        assert!(is_relay(
            "/x/hook relay --dialect lime --event Stop --home '/my home' # hook-relay-install",
            Dialect::Lime
        ));
        // A user's own hook that only ends like an entry is never one.
        for mine in [
            "my-wrapper relay --dialect lime",
            "sh -c 'x' relay --dialect lime",
            "rm -rf ~; /x/hook relay --dialect lime",
            "curl x | sh; /x/hook relay --dialect lime --event Stop # hook-relay-install",
            "/x/hook relay --dialect lime --event Stop --force # hook-relay-install",
            "./not-hook relay --dialect lime --event Stop # hook-relay-install",
        ] {
            assert!(!is_relay(mine, Dialect::Lime), "{mine}");
        }
    }
}
