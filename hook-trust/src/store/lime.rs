//! lime's store: `[hooks.state."<key>"]` tables in the user's `config.toml`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use toml_edit::{DocumentMut, Item, Table, TableLike};

use super::{
    Change, Grant, JsonStore, LOCK_TIMEOUT, Position, Records, StoreError, TrustRecord, TrustStore,
    apply, locked_update, resolve_link,
};
use crate::hash::is_trust_hash;

/// lime's trust store: `[hooks.state."<key>"]` with `trusted_hash = "sha256:..."` and
/// `enabled = false` for a disabled hook, inside the user's `config.toml`.
///
/// Edited with `toml_edit`: every byte outside the records it changes (comments, order,
/// formatting, every other key, the hooks themselves) stays as it was. New records go at the
/// end of the file; a record that says nothing (untrusted and enabled) is removed, and so is a
/// `hooks.state` table this store added once it is empty. Keys of a record other than
/// `trusted_hash` and `enabled` are left alone.
///
/// What Codex's records do not hold, the trusted command and the digests of the files a hook
/// runs, sits beside `config.toml` in `hook-trust.json` (a [`JsonStore`]), bound to the trusted
/// hash: a side record is read only while its `trusted_hash` is the one in `config.toml`, so a
/// hook trusted again elsewhere (Codex's `/hooks`, an editor) reads as "files not recorded"
/// and asks again, never as trusted with another hook's files. Why not a field of the
/// `config.toml` record: Codex warns, on every start, that it ignores an unknown
/// `hooks.state` field (measured with Codex CLI 0.169).
///
/// A `config.toml` that is a symbolic link (a dotfile manager's) is followed: the file it
/// points to is checked (not world-writable, nor its folder) and rewritten in place (a
/// temporary file beside it, renamed over it), so the link stays a link; the lock file and
/// temporary files live beside that file too.
#[derive(Debug, Clone)]
pub struct LimeStore {
    path: PathBuf,
    lock: Option<PathBuf>,
    lock_timeout: Duration,
    side: JsonStore,
}

impl LimeStore {
    /// The store in the lime `config.toml` at `path` (usually `<home>/config.toml`).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let side = JsonStore::new(super::folder_of(&path).join(SIDE_FILE));
        LimeStore {
            path,
            lock: None,
            lock_timeout: LOCK_TIMEOUT,
            side,
        }
    }

    /// This store, locked through `lock` instead of `<config.toml>.lock` beside it: for a
    /// `config.toml` that is another program's settings (Codex's own, where `hook relay
    /// install --trust` records Codex's trust), so that no lock file is left in that program's
    /// folder. Every writer of the file must use the same lock file.
    pub fn with_lock_file(mut self, lock: impl Into<PathBuf>) -> Self {
        self.lock = Some(lock.into());
        self
    }

    /// This store, waiting at most `timeout` for another writer's lock (default
    /// [`LOCK_TIMEOUT`](super::LOCK_TIMEOUT), 10 s).
    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self.side = self.side.with_lock_timeout(timeout);
        self
    }

    fn side_exists(&self) -> bool {
        std::fs::symlink_metadata(self.side.location()).is_ok()
    }

    /// Where the trusted commands and files' digests are kept: `hook-trust.json` beside
    /// `config.toml`.
    pub fn side_location(&self) -> &Path {
        self.side.location()
    }

    /// The file read and written: the `config.toml`, or the file its symbolic link points to.
    fn store_file(&self) -> Result<PathBuf, StoreError> {
        resolve_link(&self.path)
    }

    fn update(&self, changes: &[Change<'_>]) -> Result<(), StoreError> {
        let file = self.store_file()?;
        locked_update(&file, self.lock.as_deref(), self.lock_timeout, |text| {
            let text = text.unwrap_or("");
            // Validates first: a corrupt store is never overwritten.
            let records = parse_records(&file, text)?;
            let mut doc: DocumentMut = text.parse().map_err(|error: toml_edit::TomlError| {
                corrupt(&file, text, error.span().map(|s| s.start), error.message())
            })?;
            for change in changes {
                let key = change.key();
                let mut record = records.get(key).cloned().unwrap_or_default();
                apply(&mut record, change);
                write_record(&file, &mut doc, key, &record)?;
            }
            let new_text = doc.to_string();
            Ok((new_text != text).then_some(new_text))
        })
    }
}

/// The side file beside `config.toml`: trusted commands and files' digests.
const SIDE_FILE: &str = "hook-trust.json";

impl TrustStore for LimeStore {
    fn location(&self) -> &Path {
        &self.path
    }

    fn load(&self) -> Result<Records, StoreError> {
        let file = self.store_file()?;
        let mut records = match super::read_store(&file)? {
            Some(text) => parse_records(&file, &text)?,
            None => Records::new(),
        };
        let side = self.side.load()?;
        for (key, record) in &mut records {
            // Only what was recorded with this very hash.
            if let Some(extra) = side.get(key)
                && record.trusted_hash.is_some()
                && extra.trusted_hash == record.trusted_hash
            {
                record.trusted_command.clone_from(&extra.trusted_command);
                record.trusted_files.clone_from(&extra.trusted_files);
            }
        }
        Ok(records)
    }

    fn set_trusted(&self, grants: &[Grant]) -> Result<(), StoreError> {
        // `config.toml` first: a crash between the two writes leaves a hash whose files are
        // not recorded, which asks again (never the reverse).
        let changes: Vec<_> = grants.iter().map(Change::Trust).collect();
        self.update(&changes)?;
        // The side file is made only when there is something to keep in it.
        let keeps =
            |g: &Grant| g.command.is_some() || g.files.as_ref().is_some_and(|f| !f.is_empty());
        if grants.iter().any(keeps) || self.side_exists() {
            self.side.set_trusted(grants)?;
        }
        Ok(())
    }

    fn remove_trust(&self, keys: &[String]) -> Result<(), StoreError> {
        let changes: Vec<_> = keys.iter().map(|k| Change::Untrust(k)).collect();
        self.update(&changes)?;
        if self.side_exists() {
            self.side.remove_trust(keys)?;
        }
        Ok(())
    }

    fn set_enabled(&self, keys: &[String], enabled: bool) -> Result<(), StoreError> {
        let changes: Vec<_> = keys.iter().map(|k| Change::Enable(k, enabled)).collect();
        self.update(&changes)
    }
}

fn corrupt(path: &Path, text: &str, offset: Option<usize>, message: &str) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        position: offset.map(|o| Position::of_offset(text, o)),
        message: message.trim().to_owned(),
    }
}

/// Reads `hooks.state` of a lime `config.toml`; every other key is ignored.
fn parse_records(path: &Path, text: &str) -> Result<Records, StoreError> {
    let doc = toml_edit::Document::parse(text.to_owned()).map_err(|error| {
        corrupt(
            path,
            text,
            error.span().map(|s| s.start),
            &format!("invalid TOML: {}", error.message()),
        )
    })?;
    let mut records = Records::new();
    let Some(hooks) = doc.as_table().get("hooks") else {
        return Ok(records);
    };
    let wrong = |item: &Item, what: &str| {
        corrupt(
            path,
            text,
            item.span().map(|s| s.start),
            &format!("{what}, found {}", item.type_name()),
        )
    };
    let Some(hooks) = hooks.as_table_like() else {
        return Err(wrong(hooks, "`hooks` must be a table"));
    };
    let Some(state) = hooks.get("state") else {
        return Ok(records);
    };
    let Some(state) = state.as_table_like() else {
        return Err(wrong(state, "`hooks.state` must be a table"));
    };
    for (key, item) in state.iter() {
        let Some(table) = item.as_table_like() else {
            return Err(wrong(
                item,
                &format!("`hooks.state.\"{key}\"` must be a table"),
            ));
        };
        let mut record = TrustRecord::default();
        if let Some(hash) = table.get("trusted_hash") {
            match hash.as_str() {
                Some(value) if is_trust_hash(value) => record.trusted_hash = Some(value.to_owned()),
                Some(value) => {
                    return Err(corrupt(
                        path,
                        text,
                        hash.span().map(|s| s.start),
                        &format!(
                            "`hooks.state.\"{key}\".trusted_hash` is `{value}`, not `sha256:` and 64 hex digits"
                        ),
                    ));
                }
                None => {
                    return Err(wrong(
                        hash,
                        &format!("`hooks.state.\"{key}\".trusted_hash` must be a string"),
                    ));
                }
            }
        }
        if let Some(enabled) = table.get("enabled") {
            match enabled.as_bool() {
                Some(value) => record.enabled = value,
                None => {
                    return Err(wrong(
                        enabled,
                        &format!("`hooks.state.\"{key}\".enabled` must be true or false"),
                    ));
                }
            }
        }
        records.insert(key.to_owned(), record);
    }
    Ok(records)
}

/// Writes `record` as `hooks.state."<key>"`, creating or removing the tables it needs.
fn write_record(
    path: &Path,
    doc: &mut DocumentMut,
    key: &str,
    record: &TrustRecord,
) -> Result<(), StoreError> {
    // A new record goes right after the last `hooks` table (or at the end when there is none),
    // so the tables after it and the file's trailing comments keep their place.
    let last_hooks = doc
        .as_table()
        .get("hooks")
        .and_then(Item::as_table)
        .and_then(max_position);
    let next_position = match last_hooks {
        Some(last) => {
            shift_positions_after(doc.as_table_mut(), last);
            last.saturating_add(1)
        }
        None => max_position(doc.as_table()).map_or(0, |p| p.saturating_add(1)),
    };
    let shape = |what: &str| StoreError::Corrupt {
        path: path.to_path_buf(),
        position: None,
        message: format!("{what} is not a table; cannot record trust in it"),
    };
    let root = doc.as_table_mut();
    if record.is_empty() && !root.contains_key("hooks") {
        return Ok(());
    }
    let hooks = root.entry("hooks").or_insert_with(implicit_table);
    let hooks = hooks.as_table_like_mut().ok_or_else(|| shape("`hooks`"))?;
    if record.is_empty() && !hooks.contains_key("state") {
        return Ok(());
    }
    let inline_parent = hooks.get("state").is_some_and(Item::is_inline_table);
    let state = hooks.entry("state").or_insert_with(implicit_table);
    let state_is_implicit = state.as_table().is_some_and(Table::is_implicit);
    let state = state
        .as_table_like_mut()
        .ok_or_else(|| shape("`hooks.state`"))?;
    if record.is_empty() {
        if let Some(entry) = state.get_mut(key).and_then(Item::as_table_like_mut) {
            entry.remove("trusted_hash");
            entry.remove("enabled");
            if entry.is_empty() {
                state.remove(key);
            }
        }
    } else {
        if !state.contains_key(key) {
            let item = if inline_parent {
                Item::Value(toml_edit::Value::InlineTable(toml_edit::InlineTable::new()))
            } else {
                let mut table = Table::new();
                table.set_position(Some(next_position));
                Item::Table(table)
            };
            state.insert(key, item);
        }
        let entry = state
            .get_mut(key)
            .and_then(Item::as_table_like_mut)
            .ok_or_else(|| shape(&format!("`hooks.state.\"{key}\"`")))?;
        set_fields(entry, record);
    }
    // Tidy what this store adds: an implicit `hooks.state` (no header of its own) left empty.
    let state_empty = state.is_empty();
    if state_empty && state_is_implicit {
        hooks.remove("state");
        let hooks_empty = hooks.is_empty();
        let hooks_implicit = doc
            .as_table()
            .get("hooks")
            .and_then(Item::as_table)
            .is_some_and(Table::is_implicit);
        if hooks_empty && hooks_implicit {
            doc.as_table_mut().remove("hooks");
        }
    }
    Ok(())
}

fn set_fields(entry: &mut dyn TableLike, record: &TrustRecord) {
    match &record.trusted_hash {
        Some(hash) => {
            if entry.get("trusted_hash").and_then(Item::as_str) != Some(hash.as_str()) {
                entry.insert("trusted_hash", toml_edit::value(hash.as_str()));
            }
        }
        None => {
            entry.remove("trusted_hash");
        }
    }
    if record.enabled {
        entry.remove("enabled");
    } else if entry.get("enabled").and_then(Item::as_bool) != Some(false) {
        entry.insert("enabled", toml_edit::value(false));
    }
}

fn implicit_table() -> Item {
    let mut table = Table::new();
    table.set_implicit(true);
    Item::Table(table)
}

/// Moves every table positioned after `after` one place later, making room for a new table.
fn shift_positions_after(table: &mut Table, after: isize) {
    if let Some(position) = table.position()
        && position > after
    {
        table.set_position(Some(position.saturating_add(1)));
    }
    for (_, item) in table.iter_mut() {
        match item {
            Item::Table(t) => shift_positions_after(t, after),
            Item::ArrayOfTables(array) => {
                for t in array.iter_mut() {
                    shift_positions_after(t, after);
                }
            }
            _ => {}
        }
    }
}

/// The largest document position of any table under `table`.
fn max_position(table: &Table) -> Option<isize> {
    let mut max = table.position();
    for (_, item) in table.iter() {
        let nested = match item {
            Item::Table(t) => max_position(t),
            Item::ArrayOfTables(array) => array.iter().filter_map(max_position).max(),
            _ => None,
        };
        max = max.max(nested);
    }
    max
}
