//! What the commands do, with no clap and no printing: each function takes an options value and
//! returns a value (or an error) that a command hands to `ui`. Testable in-process.
//!
//! `ops` never imports `commands` or `ui` (tidy checks it).

pub(crate) mod agents;
pub(crate) mod dispatch;
pub(crate) mod doctor;
pub(crate) mod expectations;
pub(crate) mod guard;
pub(crate) mod input;
pub(crate) mod journal;
pub(crate) mod location;
pub(crate) mod matrix;
pub(crate) mod program;
pub(crate) mod relay;
pub(crate) mod replay;
pub(crate) mod review;
pub(crate) mod scaffold;
#[cfg(test)]
pub(crate) mod scene;
pub(crate) mod schema;
pub(crate) mod state;
pub(crate) mod stats;
pub(crate) mod trust;
pub(crate) mod validate;
