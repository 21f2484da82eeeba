//! One file per subcommand (relay's under `relay/`): its clap arguments and an `exec` that turns
//! them into options for [`crate::ops`] and hands the result to [`crate::ui`]. No command file
//! imports another (tidy checks it); what several share is in [`crate::args`].

pub(crate) mod replay;
