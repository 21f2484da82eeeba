//! The relay: what `hook relay` answers an agent ([`answer`]), and the relay's entries in the
//! agent's own settings that make the agent call it ([`install`]: install, sync, uninstall,
//! `--move`, Codex's trust records), and whether it is guarding ([`status`]). What those
//! settings hold (where they are, the relay entries in them, which relay hooks each reaches)
//! is read through [`read`], the read model the answer, `status`, `doctor`, `list` and `stats`
//! use; only the writers in [`install`] edit them. What differs per agent (its files' format,
//! how an entry looks, its trust records) is its adapter's, one module per agent in
//! [`agents`], which both sides use.

pub(crate) mod agents;
pub(crate) mod answer;
pub(crate) mod install;
pub(crate) mod read;
pub(crate) mod status;

pub(crate) use read::entries::is_relay as is_relay_entry;
pub(crate) use read::reach::{Reach, UnreachedWhy, relay_reach, unreached_relay_hooks};

use hook_protocol::Layer;

/// Which relay hooks one relay run is for (`hook relay --scope`): the relay's user file, or the
/// project's relay files. `hook relay install` writes each scope's entries with its scope, so
/// that an agent that runs every matching entry (Codex does; Claude Code too when the two
/// commands differ) runs each relay hook once: the user's entries start the relay for the
/// user's relay hooks, the project's for the project's, however their matchers overlap. An
/// entry without `--scope` (an earlier version's, or typed by hand) runs both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum RelayScope {
    /// The relay's user file (`~/.claude/hook-relay/`, `$CODEX_HOME/hook-relay/`).
    User,
    /// The project's relay files (`<project>/.claude/hook-relay/`, `.codex/hook-relay/`).
    Project,
}

impl RelayScope {
    /// Its name on a command line.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RelayScope::User => "user",
            RelayScope::Project => "project",
        }
    }

    /// The scope named `name` (`user`, `project`).
    pub(crate) fn from_name(name: &str) -> Option<RelayScope> {
        match name {
            "user" => Some(RelayScope::User),
            "project" => Some(RelayScope::Project),
            _ => None,
        }
    }

    /// The layers of the files this scope reads.
    pub(crate) fn file_layers(self) -> &'static [Layer] {
        match self {
            RelayScope::User => &[Layer::User],
            RelayScope::Project => &[Layer::Project, Layer::Local],
        }
    }

    /// The scope a hook of `layer` belongs to (a plugin's: the user's, which enables it).
    pub(crate) fn of_layer(layer: Layer) -> RelayScope {
        match layer {
            Layer::Project | Layer::Local => RelayScope::Project,
            _ => RelayScope::User,
        }
    }
}
