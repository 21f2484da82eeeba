//! What `hook relay` prints, mirroring `ops::relay`: the answer to the agent and the relay's
//! notes ([`answer`]), what install, sync and uninstall did ([`install`], the only renderer of
//! the writers' reports), and `hook relay status` ([`status`]).

pub(crate) mod answer;
pub(crate) mod install;
pub(crate) mod status;
