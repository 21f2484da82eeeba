//! Runs `rustfmt` on a Rust file the agent just wrote or edited, and tells the model what
//! happened (formatted, or why rustfmt failed) as context.
//!
//! Wire it into `PostToolUse` with matcher `Write|Edit` (wuu: one entry per tool).

use std::path::Path;
use std::process::Command;

use hook_sdk::{Event, EventKind, HookError, Response};

fn handle(event: &Event) -> Result<Response, HookError> {
    let EventKind::PostToolUse(result) = event.kind() else {
        return Ok(Response::none());
    };
    let Some(file) = result.call.tool.file_path() else {
        return Ok(Response::none());
    };
    if !file.ends_with(".rs") {
        return Ok(Response::none());
    }
    // Relative paths are relative to the session's directory, not the hook's.
    let path = Path::new(event.cwd()).join(file);
    let before = std::fs::read(&path)
        .map_err(|e| HookError::new(format!("cannot read {}: {e}", path.display())))?;
    let output = Command::new("rustfmt")
        .args(["--edition", "2024"])
        .arg(&path)
        .output()
        .map_err(|e| HookError::new(format!("cannot run rustfmt: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Ok(Response::context(format!(
            "rustfmt could not format {file}; fix these errors:\n{}",
            stderr.trim()
        )));
    }
    let after = std::fs::read(&path).unwrap_or_default();
    Ok(if before == after {
        Response::none()
    } else {
        Response::context(format!(
            "rustfmt reformatted {file}; read it again before editing it"
        ))
    })
}

fn main() {
    hook_sdk::run(handle)
}
