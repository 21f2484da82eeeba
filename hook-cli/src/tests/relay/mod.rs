//! `hook relay` answering an agent's event (in-process): the event on stdin, the agent's own
//! output on stdout. What needs the relay's own process (its async hooks' waiter, a signal,
//! `CLAUDE_ENV_FILE` and `CLAUDE_CONFIG_DIR` from the environment, `main.rs`'s fast path, the
//! installed entry run through a shell) is in `tests/it/`.

use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, Event};
pub(super) use hook_test_support::events::{GUARD, event_bytes, lime, verboo};
pub(super) use hook_test_support::read::{agent_reads, is_block, system_message};
pub(super) use hook_test_support::relay::verboo_home;

/// Runs the relay for `event` with `stdin` as raw bytes, in this process, as the agent's entry
/// does (with `--home` and `--project`).
pub(super) fn relay(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
) -> Output {
    hook_test_support::relay::answer(&InProcess, dialect, home, project, event, stdin)
}

use super::{InProcess, Output};

mod answer;
mod cannot_run;
mod claude_guards;
mod entry_timeout;
mod fail_closed;
mod personal;
mod translated;

/// A relay home for `dialect` whose user file denies every event the agent sends (trusted).
pub(super) fn guarded_home(dir: &Path, dialect: Dialect, command: &str) -> PathBuf {
    hook_test_support::relay::guarded_home(&InProcess, dir, dialect, command)
}

/// Trusts every hook of the lime relay files of `home`, in this process.
pub(super) fn trust_lime_relay(home: &Path) {
    hook_test_support::relay::trust_lime_relay(&InProcess, home);
}
