//! Denies reads and writes of secrets: `.env` files (not `.env.example`), private keys
//! (`id_rsa`, `id_ed25519`, `*.pem`, `*.key`), whether through the file tools (`Read`,
//! `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, lime's `apply_patch`, whose files come from
//! the patch) or a Bash command that names them.
//!
//! Wire it into `PreToolUse` for every tool (matcher `*` or none).

#[path = "common/secrets.rs"]
mod secrets;

use hook_sdk::{Event, EventKind, Response};

fn handle(event: &Event) -> Response {
    let EventKind::PreToolUse(call) = event.kind() else {
        return Response::none();
    };
    match secrets::secret_in(&call.tool) {
        Some(path) => Response::deny(format!(
            "`{path}` holds secrets: the agent may not read or write it; ask the user for the value you need"
        )),
        None => Response::none(),
    }
}

fn main() {
    hook_sdk::run(handle)
}
