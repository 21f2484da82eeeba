//! The event as the handlers of one dispatch get it ([`Payload`]): made by `dispatch.rs`,
//! threaded through `schedule.rs`, read by every runner.

use std::sync::Arc;

use serde_json::Value;

/// The event as every handler of one dispatch gets it: its JSON value, and that value
/// serialized once (the stdin of command hooks, the body of http hooks, the input of native
/// ones), shared by every handler instead of serialized per handler. Cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct Payload {
    value: Arc<Value>,
    bytes: Arc<[u8]>,
}

impl Payload {
    pub(crate) fn new(value: Value) -> Self {
        let bytes = serialize(&value);
        Payload {
            value: Arc::new(value),
            bytes,
        }
    }

    /// `value` with the bytes hooks get (the event as the agent sent it).
    pub(crate) fn with_bytes(value: Value, bytes: Arc<[u8]>) -> Self {
        Payload {
            value: Arc::new(value),
            bytes,
        }
    }

    /// The event JSON, serialized.
    pub(crate) fn bytes(&self) -> &Arc<[u8]> {
        &self.bytes
    }

    /// wuu: a hook's rewrite becomes the next hook's `tool_input` (serialized again).
    pub(crate) fn set_tool_input(&mut self, updated: Value) {
        if let Some(object) = Arc::make_mut(&mut self.value).as_object_mut() {
            object.insert("tool_input".to_owned(), updated);
            self.bytes = serialize(&self.value);
        }
    }
}

impl std::ops::Deref for Payload {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.value
    }
}

fn serialize(value: &Value) -> Arc<[u8]> {
    serde_json::to_vec(value)
        .expect("a JSON value always serializes")
        .into()
}
