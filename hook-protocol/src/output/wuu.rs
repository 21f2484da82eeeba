//! wuu output: one flat snake_case object, every field optional, the same for every event.
//!
//! Fields wuu does not define are ignored, as wuu's own reader ignores them; the interpretation
//! reports each one as a warning so that a misspelt field is never lost silently.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ApproveOrBlock, BlockOnly, FieldError, OutputFields, read_typed};

/// A wuu hook's output.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Output {
    /// `"block"` blocks where the event allows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<BlockOnly>,
    /// `false` blocks where the event allows it.
    #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Why, for a block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `PreToolUse`: replaces the whole parameter object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// `PostToolUse`: context for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<String>,
}

/// The field names wuu defines.
pub const FIELDS: &[&str] = &[
    "decision",
    "continue",
    "reason",
    "updated_input",
    "additional_context",
];

/// Reads a wuu output object.
///
/// # Errors
///
/// A field of the wrong type or an unknown `decision`, named by its JSON pointer.
pub fn read_output(value: Value) -> Result<OutputFields, FieldError> {
    let output: Output = read_typed(value)?;
    Ok(OutputFields {
        continue_: output.continue_,
        decision: output.decision.map(|_| ApproveOrBlock::Block),
        reason: output.reason,
        updated_input: output.updated_input,
        additional_context: output.additional_context,
        ..OutputFields::default()
    })
}
