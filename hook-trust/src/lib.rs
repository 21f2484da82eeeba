//! Trust hashes of hooks, the persisted trust store, disabled state and managed hooks.
//!
//! **Owns**: the canonical identity hash of a hook, stable keys, the stores (lime's
//! `config.toml` state tables, the JSON store of wuu and verboo) and the policy of who needs trust.
//!
//! **Never**: runs a hook, or reads trust from any layer but the user's own (a project can never
//! trust itself).
//!
//! # Example
//!
//! Who needs trust depends on the dialect and the handler's layer:
//!
//! ```
//! use hook_protocol::{Layer, Source};
//! let source = Source::new(Layer::Project);
//! assert_eq!(source.layer, Layer::Project);
//! ```
//!
//! # Limitations
//!
//! Not written yet: this crate is a placeholder in the workspace layout until the trust issue
//! lands. It exports nothing.
