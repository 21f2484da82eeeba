//! A typed Rust API for writing hooks that speak wuu, verboo and lime.
//!
//! **Owns**: the hook author's API (typed events in, typed responses out, a one-line `main`),
//! testing helpers, and the native in-process plugin ABI.
//!
//! **Never**: spawns processes or reads hook configuration: a hook built on it is a handler, not
//! an engine.
//!
//! # Example
//!
//! Until the SDK lands, a hook can already parse its input with the protocol's types:
//!
//! ```
//! use hook_protocol::{Dialect, input::parse_input};
//! let input = parse_input(Dialect::Wuu, br#"{"hook_event_name":"Stop","cwd":"/tmp"}"#).unwrap();
//! assert_eq!(input.event().as_str(), "Stop");
//! ```
//!
//! # Limitations
//!
//! Not written yet: this crate is a placeholder in the workspace layout until the SDK issue
//! lands. It exports nothing.
