//! The workspace's test kit (`publish = false`, a dev-dependency only, as cargo's
//! `cargo-test-support`): what the tests of every crate used to write again each.
//!
//! - [`Scene`]: a temp folder with a home, agent homes and a project; files written and read
//!   under it, and its tree for a failure message.
//! - [`args`]: command lines (`COMMAND --dialect D --home H --project P`).
//! - [`fs`]: writing a file with its folders made, an executable script, bytes as text, the
//!   workspace's root.
//! - [`events`]: the events an agent sends, per dialect, its user and project files, and the
//!   guards and fixtures the tests put in front of them.
//! - [`read`]: readers of what a command printed or wrote: the relay's `systemMessage`, `--json`
//!   lines, `hook replay`'s records, the journal, what the agent makes of an answer.
//! - [`relay`]: relay homes per agent (the user files under `hook-relay/`, lime's trust).
//! - [`filters`]: the snapshot filters (times, durations, temp paths) as data, one list for
//!   every suite.
//! - [`Output`] and [`Runner`]: one output type whose assertions print the command line and the
//!   scene's tree when they fail (as ripgrep's `tests/util.rs` does), and the way a suite runs
//!   `hook` ([`Spawn`] starts the binary; hook-cli's in-process suite has its own runner).
//!   The readers take anything [`Finished`]: the kit's [`Output`] or a [`std::process::Output`].
//!
//! A helper here panics on a broken test environment (a temp folder that cannot be made), as
//! the tests themselves do: each panic says what failed and where.

pub mod args;
pub mod events;
pub mod filters;
pub mod fs;
pub mod read;
pub mod relay;

mod output;
mod scene;

pub use output::{Finished, Output, Runner, Spawn};
pub use scene::Scene;
