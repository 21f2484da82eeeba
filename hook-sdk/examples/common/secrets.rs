//! Which paths hold secrets, shared by `protect_secrets` and `guard_router`.

use hook_sdk::Tool;

/// The first secrets file `tool` reads or writes: through a file tool (`Read`, `Write`,
/// `Edit`, `MultiEdit`, `NotebookEdit`, lime's `apply_patch`) or named in a `Bash` command.
pub(crate) fn secret_in(tool: &Tool) -> Option<String> {
    if let Tool::Bash { command, .. } = tool {
        return command
            .split(|c: char| {
                c.is_whitespace() || matches!(c, '<' | '>' | '|' | ';' | '&' | '"' | '\'')
            })
            .find(|word| is_secret(word))
            .map(str::to_owned);
    }
    tool.paths()
        .into_iter()
        .find(|path| is_secret(path))
        .map(str::to_owned)
}

/// Whether a path names a secrets file.
pub(crate) fn is_secret(path: &str) -> bool {
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
