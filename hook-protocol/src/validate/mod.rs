//! Validation of a hook's raw output against the committed schema of one dialect and event.
//!
//! With the `validate` feature (on by default), [`validate_output`](crate::validate_output)
//! checks an output with `jsonschema` against the schema [`crate::schema`] embeds, and lime's
//! [`interpret`](crate::interpret()) refuses an output that does not match its schema, listing
//! every problem with its JSON pointer and a hint. Without it (`hook-sdk` builds it so: a hook
//! binary never validates; so may a vendor embedding the engine), the same committed schema is
//! checked by `subset.rs`, a reader of the part of JSON Schema the schemas use: lime output gets
//! the same verdict (an explicit `null`, an unknown field or a wrong type still fails the hook),
//! its problems listed with their JSON pointers but without hints.
//!
//! [`unknown_output_fields`](crate::unknown_output_fields) (also `validate`) finds the fields
//! wuu and verboo ignore, by walking the output with the same schema, each with a did-you-mean.

use crate::json_path::display_pointer;

#[cfg(feature = "validate")]
mod check;
#[cfg(feature = "validate")]
mod error;
#[cfg(feature = "validate")]
mod unknown;

#[cfg(feature = "validate")]
pub(crate) use check::{issues, validator};
#[cfg(feature = "validate")]
pub use check::{validate_output, validate_output_value};
#[cfg(feature = "validate")]
pub use error::ValidateError;
#[cfg(not(feature = "validate"))]
pub(crate) use subset::{issues, validator};
#[cfg(feature = "validate")]
pub(crate) use unknown::warning as unknown_field_warning;
#[cfg(feature = "validate")]
pub use unknown::{UnknownField, unknown_output_fields};

// Without `validate` it is the validator; with it, the tests compare the two.
#[cfg(any(test, not(feature = "validate")))]
#[cfg_attr(feature = "validate", allow(dead_code))]
mod subset;

/// Which committed schema: a dialect, input or output, an event.
pub(crate) type SchemaKey = (crate::Dialect, crate::schema::SchemaKind, crate::Event);

/// One empty slot per schema the dialects know, for a validator built on first use (the
/// jsonschema one in `check.rs`, the subset reader in `subset.rs`).
pub(crate) fn schema_slots<T>() -> std::collections::HashMap<SchemaKey, std::sync::OnceLock<T>> {
    let mut slots = std::collections::HashMap::new();
    for dialect in crate::Dialect::ALL {
        for event in dialect.events() {
            for kind in [
                crate::schema::SchemaKind::Input,
                crate::schema::SchemaKind::Output,
            ] {
                slots.insert((dialect, kind, event.clone()), std::sync::OnceLock::new());
            }
        }
    }
    slots
}

/// One reason an output does not match its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OutputIssue {
    /// JSON pointer of the offending value (empty for the whole document).
    pub pointer: String,
    /// What is wrong, and what was expected.
    pub message: String,
    /// A likely fix, when one is known (a snake_case field in a camelCase dialect...).
    pub hint: Option<String>,
}

impl std::fmt::Display for OutputIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", display_pointer(&self.pointer), self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}
