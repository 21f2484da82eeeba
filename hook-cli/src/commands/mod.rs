//! One file per subcommand (relay's under `relay/`): its clap arguments and an `exec` that turns
//! them into options for [`crate::ops`] and hands the result to [`crate::ui`]. No command file
//! imports another (tidy checks it); what several share is in [`crate::args`].

pub(crate) mod completions;
pub(crate) mod convert;
pub(crate) mod disable;
pub(crate) mod doctor;
pub(crate) mod enable;
pub(crate) mod guard;
pub(crate) mod list;
pub(crate) mod log;
pub(crate) mod man;
pub(crate) mod new;
pub(crate) mod relay;
pub(crate) mod replay;
pub(crate) mod run;
pub(crate) mod schema;
pub(crate) mod stats;
pub(crate) mod test;
pub(crate) mod trust;
pub(crate) mod untrust;
pub(crate) mod validate;
