//! Running hook handlers and combining their results into one outcome, per dialect.
//!
//! **Owns**: spawning command hooks (the only crate in the workspace that creates processes),
//! timeouts, output caps, and combining the per-handler results of one event into a
//! [`hook_protocol::Outcome`].
//!
//! **Never**: reads configuration files itself (it is given a loaded configuration) or prints.
//!
//! # Example
//!
//! ```
//! use std::time::Duration;
//! use hook_exec::command::{CommandSpec, RunEnd, run_command};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut spec = CommandSpec::new("cat; echo oops >&2; exit 2", ".", Duration::from_secs(5));
//! spec.stdin = br#"{"hook_event_name":"Stop"}"#.to_vec();
//! let run = run_command(&spec).await;
//! assert_eq!(run.end, RunEnd::Exited);
//! assert_eq!(run.exit_code, Some(2));
//! assert_eq!(run.stdout, spec.stdin);
//! assert_eq!(run.stderr, b"oops\n");
//! # });
//! ```
//!
//! # Limitations
//!
//! - A process that leaves the hook's process group (`setsid`) escapes the kill; if it holds the
//!   hook's output open, the run fails rather than wait for it.
pub mod combine;
pub mod command;
pub mod context;
mod engine;

pub use engine::{AllowAll, Engine, EngineOptions, Gate};
