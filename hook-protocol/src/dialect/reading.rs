//! The rules of reading a hook's output that [`crate::interpret`] consults: how a dialect spells
//! its fields, what plain text is, what `continue: false` does. Apart from the rest of
//! [`DialectRules`](super::DialectRules) because the interpreter reads them and the dialect files
//! use the interpreter's readers: here, below both, neither side imports the other.

/// How a dialect spells its fields.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`](super::DialectRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldCase {
    /// `snake_case` (wuu).
    Snake,
    /// `camelCase` (verboo, lime).
    Camel,
}

/// What plain-text stdout is on an event.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`](super::DialectRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlainText {
    /// There is no plain text: stdout is read as JSON, and text fails the hook (wuu).
    Json,
    /// Context for the model.
    Context,
    /// Ignored; the run is ok.
    Ignored,
    /// A failed run: the event takes no plain text (lime, as Codex).
    Refused,
}

/// What `continue: false` does.
///
/// Closed on purpose, like every rule enum (see [`DialectRules`](super::DialectRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContinueFalse {
    /// It blocks, like `decision: "block"`; there is no stop (wuu).
    Blocks,
    /// It asks the agent to stop (verboo, lime).
    Stops,
}
