//! `mcp_tool` handlers: the handler's `input` expanded from the event (see [`crate::mcp`]) and
//! sent to the embedder's [`McpClient`](crate::McpClient); the tool's result is the hook's
//! output.

use hook_config::Handler;
use hook_protocol::{Event, SkipReason, interpret};
use serde_json::Value;

use super::{base_run, failed, millis, read_result, skipped, timed_out};
use crate::combine::Finished;
use crate::engine::Engine;
use crate::mcp::ToolError;
use crate::payload::Payload;

impl Engine {
    /// `mcp_tool`: calls the tool with the expanded `input`; its result is the hook's output.
    pub(crate) async fn run_mcp_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
    ) -> Finished {
        let dialect = self.dialect();
        let mut entry = base_run(handler);
        if *event == Event::SessionEnd {
            let why = "mcp_tool handlers do not run at SessionEnd";
            return skipped(handler, SkipReason::Unsupported, why.to_owned());
        }
        let Some(client) = &self.mcp else {
            let why = "no MCP client is configured for mcp_tool hooks";
            return skipped(handler, SkipReason::NoClient, why.to_owned());
        };
        let (Some(server), Some(tool)) = (&handler.config.server, &handler.config.tool) else {
            return failed(
                entry,
                "the mcp_tool handler needs `server` and `tool`".to_owned(),
            );
        };
        let template = handler
            .config
            .input
            .clone()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let arguments = match crate::mcp::expand(&template, value) {
            Ok(arguments) => arguments,
            Err(error) => return failed(entry, error.to_string()),
        };
        let started = std::time::Instant::now();
        let call = client.call_tool(server, tool, arguments);
        let reply = tokio::time::timeout(handler.timeout, call).await;
        entry.duration_ms = Some(millis(started.elapsed()));
        let output = match reply {
            Ok(Ok(result)) => crate::mcp::output_of(&result),
            Ok(Err(source)) => Err(ToolError::Call { source }),
            Err(_) => return timed_out(entry, handler.timeout, "the tool call was dropped"),
        };
        match output {
            Ok(bytes) => {
                let result = interpret(dialect, event, Some(0), &bytes, b"");
                read_result(dialect, &self.options, handler, entry, result)
            }
            Err(error) => failed(entry, error.to_string()),
        }
    }
}
