//! Typed event inputs: what the agent writes to a hook's stdin, per dialect.
//!
//! Each dialect has a `Common` struct (the fields every event carries), one struct per event
//! with that event's own fields, and an `Input` enum over them. Every struct keeps the fields it
//! does not know in `extra`, so an input from a newer agent survives a round trip unchanged.

mod agent;
mod example;
pub mod lime;
pub mod verboo;
pub mod wuu;

pub use agent::{AgentEvent, MAX_AGENT_EVENT_BYTES, read_agent_event};
pub use example::example_input;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json_path::{display_pointer, pointer_of};
use crate::text::json_type;
use crate::{Dialect, Event};

/// The input of an event the dialect does not know: the common fields and everything else kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct OtherInput<C> {
    /// The event name, as the agent sent it.
    pub hook_event_name: String,
    /// The fields every event of the dialect carries.
    #[serde(flatten)]
    pub common: C,
    /// Every other field, kept as it is.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Why an event input could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The bytes are not one JSON document.
    #[error("input is not valid JSON at line {line}, column {column}: {message}")]
    NotJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// The JSON document is not an object.
    #[error("input must be a JSON object, found {found}")]
    NotAnObject {
        /// The JSON type found instead.
        found: &'static str,
    },
    /// The object has no string `hook_event_name`.
    #[error("input has no `hook_event_name` string: add the event name, e.g. \"PreToolUse\"")]
    MissingEventName,
    /// The document is larger than the reader takes.
    #[error("input is {size} bytes, over the limit of {limit}: the event cannot be read whole")]
    TooLarge {
        /// Its size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The input names another event than the one expected (the one the hook was installed
    /// for).
    #[error(
        "input is a `{found}` event, but `{expected}` was expected: the hook entry and the event disagree"
    )]
    EventMismatch {
        /// The event expected.
        expected: String,
        /// The event the input names.
        found: String,
    },
    /// A field is missing or has the wrong type.
    #[error("input field at {} of {event}: {message}", display_pointer(.pointer))]
    Field {
        /// The event being read.
        event: String,
        /// JSON pointer of the field (empty for the whole object, e.g. a missing field).
        pointer: String,
        /// What was wrong and what was expected.
        message: String,
    },
}

/// An event input of any dialect.
///
/// Closed on purpose (not `#[non_exhaustive]`): one variant per [`Dialect`], which is closed.
#[derive(Debug, Clone, PartialEq)]
pub enum EventInput {
    /// A wuu input.
    Wuu(wuu::Input),
    /// A verboo input.
    Verboo(verboo::Input),
    /// A lime input.
    Lime(lime::Input),
}

impl EventInput {
    /// The dialect of this input.
    pub fn dialect(&self) -> Dialect {
        match self {
            EventInput::Wuu(_) => Dialect::Wuu,
            EventInput::Verboo(_) => Dialect::Verboo,
            EventInput::Lime(_) => Dialect::Lime,
        }
    }

    /// The event of this input.
    pub fn event(&self) -> Event {
        match self {
            EventInput::Wuu(input) => input.event(),
            EventInput::Verboo(input) => input.event(),
            EventInput::Lime(input) => input.event(),
        }
    }

    /// The working directory the hook must run in (never assume the hook's own cwd).
    pub fn cwd(&self) -> &str {
        match self {
            EventInput::Wuu(input) => &input.common().cwd,
            EventInput::Verboo(input) => &input.common().cwd,
            EventInput::Lime(input) => &input.common().cwd,
        }
    }

    /// The session id; wuu may send an empty one.
    pub fn session_id(&self) -> &str {
        match self {
            EventInput::Wuu(input) => &input.common().session_id,
            EventInput::Verboo(input) => &input.common().session_id,
            EventInput::Lime(input) => &input.common().session_id,
        }
    }

    /// The input as JSON, exactly as a hook receives it on stdin.
    pub fn to_value(&self) -> Value {
        match self {
            EventInput::Wuu(input) => input.to_value(),
            EventInput::Verboo(input) => input.to_value(),
            EventInput::Lime(input) => input.to_value(),
        }
    }
}

impl EventInput {
    /// `value` as `dialect`'s `Input::Other` for `event`, whatever the event: the common fields
    /// read, every other field kept (the lenient reading of [`read_agent_event`]).
    fn other(dialect: Dialect, event: &Event, value: Value) -> Result<EventInput, InputError> {
        Ok(match dialect {
            Dialect::Wuu => EventInput::Wuu(wuu::Input::other_from_value(event, value)?),
            Dialect::Verboo => EventInput::Verboo(verboo::Input::other_from_value(event, value)?),
            Dialect::Lime => EventInput::Lime(lime::Input::other_from_value(event, value)?),
        })
    }
}

/// Reads one event input of `dialect` from JSON bytes.
///
/// The event is read from `hook_event_name` first, then the object is read as that event's
/// struct, so an error names the field that is wrong rather than "no variant matched". An event
/// the dialect does not know is kept as that dialect's `Input::Other`.
///
/// # Errors
///
/// [`InputError`]: not JSON (with line and column), not an object, no `hook_event_name`, or a
/// field missing or of the wrong type (with its JSON pointer).
pub fn parse_input(dialect: Dialect, bytes: &[u8]) -> Result<EventInput, InputError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|error| InputError::NotJson {
        line: error.line(),
        column: error.column(),
        message: strip_position(&error),
    })?;
    input_from_value(dialect, value)
}

/// Reads one event input of `dialect` from a JSON value; see [`parse_input`].
///
/// # Errors
///
/// As [`parse_input`], after the JSON is read.
pub fn input_from_value(dialect: Dialect, value: Value) -> Result<EventInput, InputError> {
    let Value::Object(object) = &value else {
        return Err(InputError::NotAnObject {
            found: json_type(&value),
        });
    };
    let name = object
        .get("hook_event_name")
        .and_then(Value::as_str)
        .ok_or(InputError::MissingEventName)?;
    let event = Event::from_name(name);
    (dialect.rules().read_input)(&event, value)
}

/// An input struct and the struct of its common fields, which it holds flattened.
pub(crate) trait WithCommon {
    /// The common fields.
    type Common: DeserializeOwned;
}

impl<C: DeserializeOwned> WithCommon for OtherInput<C> {
    type Common = C;
}

impl<T: WithCommon> WithCommon for Box<T> {
    type Common = T::Common;
}

/// Deserializes `value` as `T`, naming the failing field by JSON pointer.
///
/// The common fields (`T::Common`) are type-checked first, on their own: inside `T` they are a
/// `#[serde(flatten)]` struct, read from a buffer that keeps no path, so a wrong-typed
/// `session_id` would otherwise be reported at `/` instead of `/session_id`. Reading them from
/// a borrowed value skips every other field without copying it.
pub(crate) fn typed_from_value<T: DeserializeOwned + WithCommon>(
    event: &Event,
    value: Value,
) -> Result<T, InputError> {
    let field_error = |error: serde_path_to_error::Error<serde_json::Error>| InputError::Field {
        event: event.to_string(),
        pointer: pointer_of(error.path()),
        message: error.inner().to_string(),
    };
    if let Err(error) = serde_path_to_error::deserialize::<_, T::Common>(&value)
        && error.path().iter().next().is_some()
    {
        // A common field of the wrong type, at its own path. A missing one is reported at the
        // root either way: the whole input's reading below says it, in its usual order.
        return Err(field_error(error));
    }
    serde_path_to_error::deserialize(value).map_err(field_error)
}

/// serde_json's message without its trailing " at line L column C" (we report those apart).
pub(crate) fn strip_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// Defines a dialect's per-event input structs and its `Input` enum.
macro_rules! event_inputs {
    (
        common = $Common:ident;
        $(
            $(#[$doc:meta])*
            $Event:ident => $Struct:ident {
                $( $(#[$fattr:meta])* $field:ident : $ty:ty ),* $(,)?
            }
        )*
    ) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
            #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
            #[non_exhaustive]
            pub struct $Struct {
                /// The event name.
                pub hook_event_name: crate::tag::$Event,
                /// The fields every event carries.
                #[serde(flatten)]
                pub common: $Common,
                $( $(#[$fattr])* pub $field: $ty, )*
                /// Fields this engine does not know (a newer agent's), kept as they are.
                #[serde(flatten)]
                pub extra: serde_json::Map<String, serde_json::Value>,
            }

            impl crate::input::WithCommon for $Struct {
                type Common = $Common;
            }
        )*

        /// An event input of this dialect. `#[non_exhaustive]`: the dialect may gain an event.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum Input {
            $(
                #[doc = concat!("A `", stringify!($Event), "` input.")]
                $Event(Box<$Struct>),
            )*
            /// An event this dialect does not know, kept with all its fields.
            Other(Box<crate::input::OtherInput<$Common>>),
        }

        impl Input {
            /// The event of this input.
            pub fn event(&self) -> crate::Event {
                match self {
                    $(Input::$Event(_) => crate::Event::$Event,)*
                    Input::Other(other) => crate::Event::from_name(&other.hook_event_name),
                }
            }

            /// The fields every event carries.
            pub fn common(&self) -> &$Common {
                match self {
                    $(Input::$Event(input) => &input.common,)*
                    Input::Other(other) => &other.common,
                }
            }

            /// The input as JSON, exactly as a hook receives it.
            pub fn to_value(&self) -> serde_json::Value {
                let value = match self {
                    $(Input::$Event(input) => serde_json::to_value(input),)*
                    Input::Other(other) => serde_json::to_value(other),
                };
                value.expect("input types serialize to JSON: string keys, no non-finite floats")
            }

            pub(crate) fn from_value(
                event: &crate::Event,
                value: serde_json::Value,
            ) -> Result<Self, crate::input::InputError> {
                use crate::input::typed_from_value;
                Ok(match event {
                    $(crate::Event::$Event => Input::$Event(typed_from_value(event, value)?),)*
                    _ => Input::Other(typed_from_value(event, value)?),
                })
            }

            /// `value` kept whole as `Input::Other` whatever its event: the common fields read,
            /// every other field kept as it is (see [`crate::input::read_agent_event`]).
            pub(crate) fn other_from_value(
                event: &crate::Event,
                value: serde_json::Value,
            ) -> Result<Self, crate::input::InputError> {
                Ok(Input::Other(crate::input::typed_from_value(event, value)?))
            }

            /// The schema of `event`'s input, if this dialect knows the event.
            #[cfg(feature = "schema")]
            pub(crate) fn schema(
                event: &crate::Event,
                generator: &mut schemars::SchemaGenerator,
            ) -> Option<schemars::Schema> {
                match event {
                    $(crate::Event::$Event => Some(generator.root_schema_for::<$Struct>()),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use event_inputs;
