//! The relay's read model: what the agent's settings files hold, for everyone who reads them
//! (the relay's answer, `hook relay status`, `hook doctor`, `hook list`, `hook stats`) and for
//! the writers in [`super::install`], which import it; nothing here writes a file. How each
//! agent's settings file is parsed is its adapter's ([`super::agents`]).
//!
//! - [`files`]: where the agent's settings files are per scope, the relay's folder, reading one
//!   safely;
//! - [`entries`]: how a relay entry looks (its command, parsed and built; its timeout), and
//!   [`command`] its command's parts;
//! - [`reach`]: which relay hooks each entry reaches, and those none does;
//!   [`guest_reach`] the same through the entries of an agent whose events the relay
//!   translates.

pub(crate) mod claude_guards;
pub(crate) mod command;
pub(crate) mod entries;
pub(crate) mod files;
pub(crate) mod guest_reach;
pub(crate) mod reach;

/// The client a relay hook needs and the relay does not have, when it is a guard of a type the
/// relay cannot run: `mcp_tool` (an MCP client), `prompt` and `agent` (a model) on an event
/// that can block (elsewhere nothing is guarded). What `relay install`/`sync` warn about where
/// it is written and `hook relay status`/`hook doctor` report where it is looked at.
pub(crate) fn missing_client(
    dialect: hook_protocol::Dialect,
    handler: &hook_config::Handler,
) -> Option<&'static str> {
    use hook_protocol::HandlerType;
    let client = match handler.config.handler_type {
        HandlerType::Prompt | HandlerType::Agent => "model",
        HandlerType::McpTool => "MCP",
        _ => return None,
    };
    handler
        .event
        .block_effect(dialect)
        .can_block()
        .then_some(client)
}
