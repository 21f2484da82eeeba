//! The JSON store of wuu and verboo: `<home>/hook-trust.json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::file_trust_store;
use super::{
    Change, LOCK_TIMEOUT, Position, Records, StoreError, TrustRecord, apply, locked_update,
};
use crate::hash::is_trust_hash;

/// The JSON trust store of wuu and verboo, `<home>/hook-trust.json`:
///
/// ```json
/// {
///   "version": 1,
///   "hooks": {
///     "project:/work/app/.claude/settings.json:PreToolUse:Bash:0": {
///       "trusted_hash": "sha256:…",
///       "trusted_command": "./scripts/check.sh",
///       "enabled": false
///     }
///   }
/// }
/// ```
///
/// `trusted_command` is what the hook ran when it was trusted, so a listing can show what
/// changed; `enabled` is written only when `false`. Unknown fields are kept on rewrite.
///
/// The file must be a JSON object (a root of another type is corrupt, never rewritten); it is
/// never followed through a symbolic link (the engine's own file: trust written through a
/// link could land anywhere).
#[derive(Debug, Clone)]
pub struct JsonStore {
    path: PathBuf,
    lock_timeout: Duration,
}

/// The file's shape, for checking types with positions.
#[derive(Deserialize)]
struct File {
    #[serde(default)]
    #[allow(dead_code)]
    version: Option<u64>,
    #[serde(default)]
    hooks: BTreeMap<String, Record>,
}

#[derive(Deserialize)]
struct Record {
    #[serde(default)]
    trusted_hash: Option<String>,
    #[serde(default)]
    trusted_command: Option<String>,
    #[serde(default)]
    enabled: Option<bool>,
    #[serde(default)]
    trusted_files: Option<BTreeMap<String, String>>,
}

impl JsonStore {
    /// The store at `path` (usually `<home>/hook-trust.json`).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        JsonStore {
            path: path.into(),
            lock_timeout: LOCK_TIMEOUT,
        }
    }

    /// This store, waiting at most `timeout` for another writer's lock (default
    /// [`LOCK_TIMEOUT`](super::LOCK_TIMEOUT), 10 s).
    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self
    }

    /// The file read and written: the path itself (a symbolic link is refused).
    fn store_file(&self) -> Result<PathBuf, StoreError> {
        Ok(self.path.clone())
    }

    fn update(&self, changes: &[Change<'_>]) -> Result<(), StoreError> {
        locked_update(&self.store_file()?, None, self.lock_timeout, |text| {
            let mut records = match text {
                Some(text) => parse_records(&self.path, text)?,
                None => Records::new(),
            };
            let mut root = match text {
                Some(text) => serde_json::from_str::<Value>(text).unwrap_or(Value::Null),
                None => Value::Null,
            };
            if !root.is_object() {
                root = serde_json::json!({});
            }
            let Some(object) = root.as_object_mut() else {
                return Ok(None);
            };
            object.insert("version".to_owned(), Value::from(1));
            let hooks = object
                .entry("hooks")
                .or_insert_with(|| Value::Object(Map::new()));
            if !hooks.is_object() {
                *hooks = Value::Object(Map::new());
            }
            let Some(hooks) = hooks.as_object_mut() else {
                return Ok(None);
            };
            for change in changes {
                let key = change.key();
                let record = records.entry(key.to_owned()).or_default();
                apply(record, change);
                if record.is_empty() {
                    hooks.remove(key);
                    continue;
                }
                let entry = hooks
                    .entry(key.to_owned())
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(entry) = entry.as_object_mut() {
                    set_fields(entry, record);
                }
            }
            let mut new_text = serde_json::to_string_pretty(&root).unwrap_or_default();
            new_text.push('\n');
            Ok((Some(new_text.as_str()) != text).then_some(new_text))
        })
    }
}

fn set_fields(entry: &mut Map<String, Value>, record: &TrustRecord) {
    let mut put = |name: &str, value: Option<Value>| match value {
        Some(value) => {
            entry.insert(name.to_owned(), value);
        }
        None => {
            entry.remove(name);
        }
    };
    put(
        "trusted_hash",
        record.trusted_hash.clone().map(Value::String),
    );
    put(
        "trusted_command",
        record.trusted_command.clone().map(Value::String),
    );
    put("enabled", (!record.enabled).then_some(Value::Bool(false)));
    put(
        "trusted_files",
        record.trusted_files.as_ref().map(|files| {
            Value::Object(
                files
                    .iter()
                    .map(|(path, digest)| (path.clone(), Value::String(digest.clone())))
                    .collect(),
            )
        }),
    );
}

file_trust_store!(JsonStore);

fn parse_records(path: &Path, text: &str) -> Result<Records, StoreError> {
    let file: File = serde_json::from_str(text).map_err(|error| StoreError::Corrupt {
        path: path.to_path_buf(),
        position: (error.line() > 0).then(|| Position {
            line: error.line(),
            column: error.column().max(1),
        }),
        message: strip_position(&error.to_string()),
    })?;
    check_shape(path, text)?;
    let mut records = Records::new();
    for (key, record) in file.hooks {
        if let Some(hash) = &record.trusted_hash
            && !is_trust_hash(hash)
        {
            return Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                position: None,
                message: format!(
                    "`hooks.\"{key}\".trusted_hash` is `{hash}`, not `sha256:` and 64 hex digits"
                ),
            });
        }
        for (file, digest) in record.trusted_files.iter().flatten() {
            if !is_trust_hash(digest) {
                return Err(StoreError::Corrupt {
                    path: path.to_path_buf(),
                    position: None,
                    message: format!(
                        "`hooks.\"{key}\".trusted_files.\"{file}\"` is `{digest}`, not `sha256:` and 64 hex digits"
                    ),
                });
            }
        }
        records.insert(
            key,
            TrustRecord {
                trusted_hash: record.trusted_hash,
                trusted_command: record.trusted_command,
                enabled: record.enabled.unwrap_or(true),
                trusted_files: record.trusted_files,
            },
        );
    }
    Ok(records)
}

/// The root must be an object, and so must every record: serde reads a struct from an array
/// too, and a rewrite would then drop what the array held.
fn check_shape(path: &Path, text: &str) -> Result<(), StoreError> {
    let corrupt = |position: Option<Position>, message: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        position,
        message,
    };
    let value: Value = serde_json::from_str(text)
        .map_err(|error| corrupt(None, strip_position(&error.to_string())))?;
    let Some(root) = value.as_object() else {
        let offset = text.len() - text.trim_start().len();
        return Err(corrupt(
            Some(Position::of_offset(text, offset)),
            format!(
                "the root is {}, not an object like {{\"version\": 1, \"hooks\": {{}}}}",
                hook_protocol::text::json_type(&value)
            ),
        ));
    };
    if let Some(Value::Object(hooks)) = root.get("hooks") {
        for (key, record) in hooks {
            if !record.is_object() {
                return Err(corrupt(
                    None,
                    format!(
                        "`hooks.\"{key}\"` is {}, not an object like {{\"trusted_hash\": \"sha256:...\"}}",
                        hook_protocol::text::json_type(record)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// serde_json's message without its trailing " at line L column C" (the error carries it).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}
