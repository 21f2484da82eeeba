//! The relay: what `hook relay` answers an agent ([`answer`]), and the relay's entries in the
//! agent's own settings that make the agent call it ([`install`]: install, sync, uninstall,
//! `--move`, Codex's trust records).

pub(crate) mod answer;
pub(crate) mod install;

pub(crate) use install::{Reach, UnreachedWhy, is_relay_entry, relay_reach, unreached_relay_hooks};
