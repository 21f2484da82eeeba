//! Denies reads and writes of secrets: `.env` files (not `.env.example`), private keys
//! (`id_rsa`, `id_ed25519`, `*.pem`, `*.key`), whether through the file tools or a Bash
//! command that names them.
//!
//! Wire it into `PreToolUse` for every tool (matcher `*` or none).

use hook_sdk::{Event, EventKind, Response, Tool};

fn handle(event: &Event) -> Response {
    let EventKind::PreToolUse(call) = event.kind() else {
        return Response::none();
    };
    let secret = match &call.tool {
        Tool::Read { file_path } | Tool::Write { file_path, .. } | Tool::Edit { file_path, .. } => {
            is_secret(file_path).then(|| file_path.clone())
        }
        Tool::Bash { command, .. } => command
            .split(|c: char| {
                c.is_whitespace() || matches!(c, '<' | '>' | '|' | ';' | '&' | '"' | '\'')
            })
            .find(|word| is_secret(word))
            .map(str::to_owned),
        _ => None,
    };
    match secret {
        Some(path) => Response::deny(format!(
            "`{path}` holds secrets: the agent may not read or write it; ask the user for the value you need"
        )),
        None => Response::none(),
    }
}

/// Whether a path names a secrets file.
fn is_secret(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let env_file = name == ".env"
        || (name.starts_with(".env.")
            && !matches!(name, ".env.example" | ".env.sample" | ".env.template"));
    let key = matches!(name, "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519")
        || name.ends_with(".pem")
        || name.ends_with(".key")
        || name.ends_with(".p12");
    env_file || key
}

fn main() {
    hook_sdk::run(handle)
}
