//! One hook, several guards, with `hook_sdk::Router`: each handler names the event and tool it
//! is for, and the first that answers wins.
//!
//! - `Bash`: denies what `block_dangerous_bash` denies (`rm -rf /`, `git push` to `main`,
//!   `curl | sh`), then rewrites `npm` to `pnpm` with no decision (the agent's permission rules
//!   still decide; `Response::rewrite_and_ask` would show the user the new command in verboo).
//! - Every file tool (`Read`, `Write`, `Edit`, `MultiEdit`, lime's `apply_patch`...): denies
//!   secrets, as `protect_secrets` does.
//! - `SessionStart`: tells the model the project uses pnpm, where the dialect takes context.
//!
//! Wire it into `PreToolUse` (matcher `*` or none) and `SessionStart`.

#[path = "common/dangerous_bash.rs"]
#[allow(dead_code)] // Its `handle` is `block_dangerous_bash`'s; this hook routes `danger`.
mod dangerous_bash;
#[path = "common/secrets.rs"]
mod secrets;

use hook_sdk::{Response, Router, Tool};

fn router() -> Router {
    Router::new()
        .on_pre_tool_use("Bash", |call| match &call.tool {
            Tool::Bash { command, .. } => {
                dangerous_bash::danger(command).map_or_else(Response::none, Response::deny)
            }
            _ => Response::none(),
        })
        .on_pre_tool_use_matching(
            |call| secrets::secret_in(&call.tool).is_some(),
            |call| {
                let path = secrets::secret_in(&call.tool).unwrap_or_default();
                Response::deny(format!(
                    "`{path}` holds secrets: the agent may not read or write it"
                ))
            },
        )
        .on_pre_tool_use("Bash", |call| match &call.tool {
            Tool::Bash { command, .. } if command.starts_with("npm ") => {
                Response::rewrite(call.rewritten(Tool::Bash {
                    command: command.replacen("npm", "pnpm", 1),
                    description: None,
                }))
            }
            _ => Response::none(),
        })
        .on_session_start(|start| {
            if start.event().accepts_context() {
                Response::context("This project uses pnpm, not npm.")
            } else {
                Response::none()
            }
        })
}

fn main() {
    hook_sdk::run(router())
}
