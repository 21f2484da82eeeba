//! Runs `rustfmt` on a Rust file the agent just wrote or edited, and tells the model what
//! happened (formatted, or why rustfmt failed) as context.
//!
//! Wire it into `PostToolUse` with matcher `Write|Edit|MultiEdit` (lime: `Write|Edit` also
//! selects `apply_patch`; wuu: one entry per tool).

use std::path::Path;
use std::process::Command;

use hook_sdk::{Event, EventKind, HookError, Response};

fn handle(event: &Event) -> Result<Response, HookError> {
    let EventKind::PostToolUse(result) = event.kind() else {
        return Ok(Response::none());
    };
    if !result.call.tool.writes_files() {
        return Ok(Response::none());
    }
    // Every Rust file the call wrote: one for `Write`/`Edit`/`MultiEdit`, any number for
    // lime's `apply_patch`.
    let mut said = Vec::new();
    for file in result.call.tool.paths() {
        if file.ends_with(".rs") {
            said.extend(format(event, file)?);
        }
    }
    Ok(if said.is_empty() {
        Response::none()
    } else {
        Response::context(said.join("\n\n"))
    })
}

/// Formats one file; what to tell the model about it, if anything.
fn format(event: &Event, file: &str) -> Result<Option<String>, HookError> {
    // Relative paths are relative to the session's directory, not the hook's.
    let path = Path::new(event.cwd()).join(file);
    if !path.exists() {
        return Ok(None); // Deleted (or moved away) by a patch.
    }
    let before = std::fs::read(&path)
        .map_err(|e| HookError::new(format!("cannot read {}: {e}", path.display())))?;
    let output = Command::new("rustfmt")
        .args(["--edition", "2024"])
        .arg(&path)
        .output()
        .map_err(|e| HookError::new(format!("cannot run rustfmt: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Ok(Some(format!(
            "rustfmt could not format {file}; fix these errors:\n{}",
            stderr.trim()
        )));
    }
    let after = std::fs::read(&path).unwrap_or_default();
    Ok((before != after)
        .then(|| format!("rustfmt reformatted {file}; read it again before editing it")))
}

fn main() {
    hook_sdk::run(handle)
}
