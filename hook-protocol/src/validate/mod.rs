//! Validation of a hook's raw output against the committed schema of one dialect and event.
//!
//! With the `validate` feature (on by default), [`validate_output`](crate::validate_output)
//! checks an output with `jsonschema` against the schema [`crate::schema`] embeds, and lime's
//! [`interpret`](crate::interpret()) refuses an output that does not match its schema, listing
//! every problem with its JSON pointer and a hint. Without it (`hook-sdk` builds it so: a hook
//! binary never validates), lime outputs are still read strictly by their serde types (unknown
//! fields, wrong types and a wrong `hookEventName` fail the hook), but only the first problem is
//! reported, without a hint, and an explicit `null` for an optional field reads as absent.
//!
//! [`unknown_output_fields`](crate::unknown_output_fields) (also `validate`) finds the fields
//! wuu and verboo ignore, by walking the output with the same schema, each with a did-you-mean.

use crate::json_path::display_pointer;

#[cfg(feature = "validate")]
mod check;
#[cfg(feature = "validate")]
mod unknown;

#[cfg(feature = "validate")]
pub use check::{ValidateError, validate_output, validate_output_value};
#[cfg(feature = "validate")]
pub(crate) use check::{issues, validator};
#[cfg(feature = "validate")]
pub(crate) use unknown::warning as unknown_field_warning;
#[cfg(feature = "validate")]
pub use unknown::{UnknownField, unknown_output_fields};
#[cfg(not(feature = "validate"))]
pub(crate) use without::{issues, validator};

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

/// Without `jsonschema`, there is no validator: callers fall back to the serde types.
#[cfg(not(feature = "validate"))]
mod without {
    use serde_json::Value;

    use super::OutputIssue;
    use crate::schema::SchemaKind;
    use crate::{Dialect, Event};

    /// No compiled validator exists without the `validate` feature.
    pub(crate) enum Validator {}

    impl Validator {
        /// Never called: no value of this type exists.
        #[cfg(test)]
        pub(crate) fn is_valid(&self, _: &Value) -> bool {
            match *self {}
        }
    }

    /// Always `None`: nothing to validate with.
    pub(crate) fn validator(_: Dialect, _: &Event, _: SchemaKind) -> Option<&'static Validator> {
        None
    }

    /// Unreachable: there is no [`Validator`] to call it with.
    pub(crate) fn issues(
        _: Dialect,
        _: &Event,
        validator: &Validator,
        _: &Value,
    ) -> Vec<OutputIssue> {
        match *validator {}
    }
}
