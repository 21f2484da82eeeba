//! `hook schema --all`: every schema written under a folder.

use std::path::Path;

use anyhow::{Context, Result};
use hook_protocol::schema;

/// Writes every schema (each dialect's events, and the outcome) under `out`
/// (`<dialect>/<Event>.<kind>.schema.json`), pretty, with a final newline; returns how many.
pub(crate) fn write_all(out: &Path) -> Result<usize> {
    let schemas = schema::all();
    for (relative, value) in &schemas {
        let path = out.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut text = serde_json::to_string_pretty(value)?;
        text.push('\n');
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(schemas.len())
}
