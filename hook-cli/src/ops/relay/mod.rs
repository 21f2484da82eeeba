//! The relay: what `hook relay` answers an agent ([`answer`]), and the relay's entries in the
//! agent's own settings that make the agent call it ([`install`]: install, sync, uninstall,
//! `--move`, Codex's trust records), and whether it is guarding ([`status`]).

pub(crate) mod answer;
pub(crate) mod install;
pub(crate) mod status;

pub(crate) use install::unreached_relay_hooks;
