//! Running hook handlers and combining their results into one outcome, per dialect.
//!
//! **Owns**: spawning command hooks (the only crate in the workspace that creates processes),
//! http, prompt, agent, mcp_tool and native handlers, timeouts, output caps, and combining the
//! per-handler results of one event into a [`hook_protocol::Outcome`].
//!
//! **Never**: reads configuration files itself (it is given a loaded configuration) or prints.
//!
//! # Example
//!
//! The outcome this crate will produce is the protocol's:
//!
//! ```
//! use hook_protocol::{Decision, Dialect, Event, Outcome};
//! let outcome = Outcome::new(Dialect::Verboo, Event::Stop);
//! assert_eq!(outcome.decision, Decision::Continue);
//! ```
//!
//! # Limitations
//!
//! Not written yet: this crate is a placeholder in the workspace layout until the execution
//! issue lands. It exports nothing.
