//! What the commands do, with no clap and no printing: each function takes an options value and
//! returns a value (or an error) that a command hands to `ui`. Testable in-process.
//!
//! `ops` never imports `commands` or `ui` (tidy checks it).

pub(crate) mod input;
pub(crate) mod location;
pub(crate) mod replay;
