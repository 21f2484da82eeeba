//! One unit type per event name, used as the `hook_event_name` / `hookEventName` field of the
//! typed inputs and outputs.
//!
//! Each tag serializes as its event name, deserializes only from that exact name, and has the
//! schema `{"type": "string", "const": "<name>"}`, so a generated schema pins the event and a
//! wrong event name is an error at that field's JSON pointer.

use std::borrow::Cow;

macro_rules! tags {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("The event name `", stringify!($name), "`.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name;

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(stringify!($name))
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let found = Cow::<str>::deserialize(deserializer)?;
                if found == stringify!($name) {
                    Ok($name)
                } else {
                    Err(serde::de::Error::invalid_value(
                        serde::de::Unexpected::Str(&found),
                        &concat!("\"", stringify!($name), "\""),
                    ))
                }
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                concat!(stringify!($name), "Tag").into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "const": stringify!($name) })
            }
        }
    )*};
}

tags! {
    SessionStart, Setup, InstructionsLoaded, UserPromptSubmit, UserPromptExpansion,
    MessageDisplay, PreToolUse, PreSkillShellCommand, PermissionRequest, PermissionDenied, PostToolUse,
    PostToolUseFailure, PostToolBatch, Notification, SubagentStart, SubagentStop, TaskCreated,
    TaskCompleted, Stop, StopFailure, TeammateIdle, ConfigChange, CwdChanged, DirectoryAdded,
    FileChanged, WorktreeCreate, WorktreeRemove, PreCompact, PostCompact, PreModelSwitch,
    PostModelSwitch, Elicitation,
    ElicitationResult, SessionEnd, Interrupt,
}
