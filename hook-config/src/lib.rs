//! Discovery, parsing and merging of hook configuration for wuu, verboo and lime.
//!
//! **Owns**: finding each dialect's configuration files (user, project, local, managed, plugins,
//! session), parsing them (JSON, TOML, plugin `hooks.json`) into handlers that keep their source,
//! merging the layers in a defined order, and compiling matchers once.
//!
//! **Never**: spawns a process, talks to the network, or decides whether a hook may run (that is
//! `hook-trust`) or what its output means (that is `hook-protocol`).
//!
//! # Example
//!
//! The dialects and event names this crate keys its tables by come from `hook-protocol`:
//!
//! ```
//! use hook_protocol::{Dialect, Event};
//! assert!(Event::PreToolUse.is_known_in(Dialect::Wuu));
//! ```
//!
//! # Limitations
//!
//! Not written yet: this crate is a placeholder in the workspace layout until the configuration
//! issue lands. It exports nothing.
