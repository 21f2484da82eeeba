//! The files a hook runs: which files inside the project or the plugin's folder a handler
//! names, and their digests. What is trusted is the hook's identity (its trust hash) *and*
//! these files' contents.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use hook_config::{Handler, Links, RunPlace};
use hook_protocol::{Dialect, HandlerType};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::digest_cache::DigestCache;
use crate::hash::HASH_PREFIX;

/// The most bytes of a script (a file a command names) that are hashed: the limit of a
/// configuration file, 8 MiB. A bigger file cannot be trusted: the hook is `modified` and
/// says why. Native libraries have their own cap, [`hook_config::library::LIBRARY_SIZE_CAP`].
pub const SCRIPT_SIZE_CAP: u64 = hook_config::MAX_FILE_BYTES;

/// What a covered file holds now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "detail")]
#[non_exhaustive]
pub enum FileState {
    /// A regular file with this digest (`sha256:` and 64 hex digits).
    Present(String),
    /// Nothing is there (the command names it, but it does not exist).
    Missing,
    /// It cannot be hashed: not a regular file, over the size cap, or unreadable; why.
    Unreadable(String),
}

impl FileState {
    /// The digest, when the file is present.
    pub fn digest(&self) -> Option<&str> {
        match self {
            FileState::Present(digest) => Some(digest),
            FileState::Missing | FileState::Unreadable(_) => None,
        }
    }
}

/// A file inside the project or the plugin's folder that a handler names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NamedFile {
    /// Its absolute path, as the command names it (symbolic links not resolved; the digest is
    /// of what they point to).
    pub path: PathBuf,
    /// The name its digest is recorded under: `<project>/` or `<plugin>/` and the path inside
    /// that folder, else the absolute path (a native library elsewhere). Relative names keep a
    /// record true in another clone of the project, or another install of the plugin.
    pub name: String,
    /// What it holds now.
    #[serde(flatten)]
    pub state: FileState,
}

/// The files inside the project (or the plugin's folder) that `handler` runs, read now.
///
/// - A `command` handler: every word of its command (and of its `args`), split by
///   [`hook_config::shell::words`] (input redirections' targets included, output
///   redirections' not), after expanding the variables the engine gives the hook
///   (`$CLAUDE_PROJECT_DIR` where the dialect has it, `$PLUGIN_ROOT` and
///   `$CLAUDE_PLUGIN_ROOT` for a plugin's hook, `$PWD`), plus the value of a `--flag=value`
///   or `NAME=value` word. A word that still holds a `$`, a backquote or a glob, or that
///   starts with `~`, names nothing. A word names a file when, resolved against
///   [`RunPlace::cwd`] and normalized (`.` and `..` removed, links not followed), it lies in
///   the project or the plugin's folder and is not a folder; such a file that does not exist
///   is listed as [`FileState::Missing`].
/// - A `native` handler: its library ([`hook_config::Handler::library_path`]), wherever it
///   is.
/// - Any other handler names no file.
///
/// Each file is read once, streamed, as a regular file only (a FIFO or a device is refused
/// without being read) of at most [`SCRIPT_SIZE_CAP`] bytes (a library:
/// [`hook_config::library::LIBRARY_SIZE_CAP`]). Paths are listed once each, sorted.
pub fn named_files(dialect: Dialect, handler: &Handler, place: &RunPlace) -> Vec<NamedFile> {
    named_files_cached(dialect, handler, place, None)
}

/// [`named_files`], looking large files up in `cache` first (see `crate::digest_cache`).
pub(crate) fn named_files_cached(
    dialect: Dialect,
    handler: &Handler,
    place: &RunPlace,
    cache: Option<&DigestCache>,
) -> Vec<NamedFile> {
    let roots = roots(handler, &absolute_place(place));
    named_paths(dialect, handler, place)
        .into_iter()
        .map(|(path, cap)| {
            let state = file_state(&path, cap, cache);
            let name = record_name(&path, &roots);
            NamedFile { path, name, state }
        })
        .collect()
}

/// [`named_files`], each script read once, whole, and kept: its digest is of those bytes,
/// which are returned beside it (a review shows and trusts the same bytes). A native library
/// is streamed, not kept.
pub(crate) fn named_files_read(
    dialect: Dialect,
    handler: &Handler,
    place: &RunPlace,
) -> (Vec<NamedFile>, BTreeMap<PathBuf, Vec<u8>>) {
    let roots = roots(handler, &absolute_place(place));
    let mut contents = BTreeMap::new();
    let files = named_paths(dialect, handler, place)
        .into_iter()
        .map(|(path, cap)| {
            let state = if cap == SCRIPT_SIZE_CAP {
                match read_whole(&path, cap) {
                    Ok(Some(bytes)) => {
                        let digest = sha256_hex(&bytes);
                        contents.insert(path.clone(), bytes);
                        FileState::Present(digest)
                    }
                    Ok(None) => FileState::Missing,
                    Err(why) => FileState::Unreadable(why),
                }
            } else {
                file_state(&path, cap, None)
            };
            let name = record_name(&path, &roots);
            NamedFile { path, name, state }
        })
        .collect();
    (files, contents)
}

/// The bytes of the regular file at `path` (at most `cap`), `None` when it does not exist.
fn read_whole(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, String> {
    match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let (file, meta) = hook_config::open_regular(path, Links::Follow).map_err(|e| e.to_string())?;
    hook_config::read_capped(file, &meta, cap, "a file a hook runs")
        .map(Some)
        .map_err(|e| e.to_string())
}

/// `sha256:` and the hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    format!("{HASH_PREFIX}{}", hex::encode(Sha256::digest(bytes)))
}

/// [`named_files`] without reading them: each path and the cap its file is read under.
pub(crate) fn named_paths(
    dialect: Dialect,
    handler: &Handler,
    place: &RunPlace,
) -> BTreeMap<PathBuf, u64> {
    let mut paths = BTreeMap::new();
    match handler.config.handler_type {
        HandlerType::Native => {
            if let Some(path) = native_library(handler, place) {
                paths.insert(path, hook_config::library::LIBRARY_SIZE_CAP);
            }
        }
        HandlerType::Command => {
            let place = &absolute_place(place);
            let vars = variables(dialect, handler, place);
            let roots = roots(handler, place);
            let mut texts: Vec<String> = Vec::new();
            for command in [&handler.config.command, &handler.config.command_windows]
                .into_iter()
                .flatten()
            {
                texts.extend(
                    hook_config::shell::words(command)
                        .into_iter()
                        .map(|w| w.plain),
                );
            }
            texts.extend(handler.config.args.iter().flatten().cloned());
            for text in texts {
                for candidate in candidates(&text) {
                    if let Some(path) = resolve(candidate, &vars, &place.cwd, &roots) {
                        paths.insert(path, SCRIPT_SIZE_CAP);
                    }
                }
            }
        }
        _ => {}
    }
    paths
}

/// `place` with absolute folders (a relative `cwd` is the process's own folder's child).
fn absolute_place(place: &RunPlace) -> RunPlace {
    let here = std::env::current_dir().unwrap_or_default();
    RunPlace::new(
        normalize(&absolute(&place.cwd, &here)),
        place
            .project_dir
            .as_deref()
            .map(|dir| normalize(&absolute(dir, &here))),
    )
}

/// The library a native handler loads: [`Handler::library_path`], else resolved against the
/// project.
fn native_library(handler: &Handler, place: &RunPlace) -> Option<PathBuf> {
    handler.library(place.project())
}

/// The word itself, and the value of `--flag=value` or `NAME=value`.
fn candidates(word: &str) -> impl Iterator<Item = &str> {
    let value = word.split_once('=').map(|(_, value)| value);
    std::iter::once(word).chain(value).filter(|w| !w.is_empty())
}

/// The variables expanded in a command's words: what the engine sets for the hook.
fn variables(dialect: Dialect, handler: &Handler, place: &RunPlace) -> Vec<(&'static str, String)> {
    let mut vars = vec![("PWD", place.cwd.display().to_string())];
    if let Some(name) = dialect.rules().project_dir_env() {
        vars.push((name, place.project().display().to_string()));
    }
    if let Some(root) = &handler.plugin_root {
        vars.push(("PLUGIN_ROOT", root.display().to_string()));
        vars.push(("CLAUDE_PLUGIN_ROOT", root.display().to_string()));
    }
    vars
}

/// The folders whose files are covered, each with the prefix of its record names: the
/// plugin's folder (first: a plugin inside the project is named as the plugin's), and the
/// project.
fn roots(handler: &Handler, place: &RunPlace) -> Vec<(PathBuf, &'static str)> {
    let mut roots = Vec::new();
    if let Some(root) = &handler.plugin_root {
        roots.push((normalize(&absolute(root, &place.cwd)), PLUGIN_PREFIX));
    }
    roots.push((
        normalize(&absolute(place.project(), &place.cwd)),
        PROJECT_PREFIX,
    ));
    roots
}

/// The record-name prefix of a file inside the project.
pub const PROJECT_PREFIX: &str = "<project>/";
/// The record-name prefix of a file inside the plugin's folder.
pub const PLUGIN_PREFIX: &str = "<plugin>/";

/// The name `path`'s digest is recorded under (see [`NamedFile::name`]).
fn record_name(path: &Path, roots: &[(PathBuf, &'static str)]) -> String {
    for (root, prefix) in roots {
        if let Ok(inside) = path.strip_prefix(root)
            && !inside.as_os_str().is_empty()
        {
            let parts: Vec<String> = inside
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            return format!("{prefix}{}", parts.join("/"));
        }
    }
    path.display().to_string()
}

/// The covered file `word` names, if it names one.
fn resolve(
    word: &str,
    vars: &[(&'static str, String)],
    cwd: &Path,
    roots: &[(PathBuf, &'static str)],
) -> Option<PathBuf> {
    let expanded = expand(word, vars)?;
    if expanded.starts_with('~')
        || expanded.contains(['$', '`', '*', '?', '['])
        || expanded.contains('\0')
    {
        return None;
    }
    let path = normalize(&absolute(Path::new(&expanded), cwd));
    if !roots
        .iter()
        .any(|(root, _)| path.starts_with(root) && path != *root)
    {
        return None;
    }
    // A folder is where a command runs, not what it runs.
    if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    Some(path)
}

/// `word` with `$NAME` and `${NAME}` of `vars` replaced; `None` when nothing is left to name
/// a file.
fn expand(word: &str, vars: &[(&'static str, String)]) -> Option<String> {
    if !word.contains('$') {
        return Some(word.to_owned());
    }
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, tail) = if let Some(inner) = after.strip_prefix('{') {
            let end = inner.find('}')?;
            (&inner[..end], &inner[end + 1..])
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        match vars.iter().find(|(var, _)| *var == name) {
            Some((_, value)) => out.push_str(value),
            // An unknown variable: leave it, so the word names nothing.
            None => {
                out.push('$');
                out.push_str(name);
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    Some(out)
}

fn absolute(path: &Path, base: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    }
}

/// `path` without `.` and with `..` applied to the part before it, links not followed (the
/// shell resolves `a/../b` the same way only when `a` is no link; a link there makes the word
/// name another file, which is then not covered, never wrongly covered as trusted).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What the file at `path` holds now, read under `cap` bytes.
pub(crate) fn file_state(path: &Path, cap: u64, cache: Option<&DigestCache>) -> FileState {
    match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return FileState::Missing,
        _ => {}
    }
    match file_digest(path, cap, cache) {
        Ok(digest) => FileState::Present(digest),
        Err(why) => FileState::Unreadable(why),
    }
}

/// `sha256:` and the hex SHA-256 of the regular file at `path`, streamed, at most `cap` bytes.
/// With `cache`, a large file whose stamp it remembers is not read.
fn file_digest(path: &Path, cap: u64, cache: Option<&DigestCache>) -> Result<String, String> {
    let (file, meta) = hook_config::open_regular(path, Links::Follow).map_err(|e| e.to_string())?;
    if meta.len() > cap {
        return Err(format!(
            "is {} bytes, over the {cap}-byte limit of a file a hook runs",
            meta.len()
        ));
    }
    if let Some(digest) = cache.and_then(|cache| cache.get(path, &meta)) {
        return Ok(digest);
    }
    let mut reader = (&file).take(cap + 1);
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total: u64 = 0;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(format!("cannot read: {error}")),
        };
        total = total.saturating_add(n as u64);
        if total > cap {
            return Err(format!(
                "grew past the {cap}-byte limit of a file a hook runs"
            ));
        }
        hasher.update(&buffer[..n]);
    }
    let digest = format!("{HASH_PREFIX}{}", hex::encode(hasher.finalize()));
    if let (Some(cache), Ok(after)) = (cache, file.metadata()) {
        cache.put(path, &meta, &after, &digest);
    }
    Ok(digest)
}

/// How a covered file compares with what was trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FileChange {
    /// The digest is the trusted one.
    Unchanged,
    /// A different digest.
    Changed,
    /// Present now, not recorded when the hook was trusted.
    Added,
    /// Recorded when the hook was trusted, gone now.
    Removed,
    /// It cannot be hashed now (not a regular file, too big, unreadable).
    Unreadable,
    /// The hook was trusted before this engine recorded files (an older store, or a record
    /// written by Codex): its files' contents were never reviewed.
    NotRecorded,
}

impl std::fmt::Display for FileChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileChange::Unchanged => "unchanged",
            FileChange::Changed => "changed",
            FileChange::Added => "added",
            FileChange::Removed => "removed",
            FileChange::Unreadable => "unreadable",
            FileChange::NotRecorded => "not recorded",
        })
    }
}

/// A covered file's trust: what it holds now, what was trusted, and how they compare.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct FileTrust {
    /// Its absolute path.
    pub path: PathBuf,
    /// The name its digest is recorded under ([`NamedFile::name`]).
    pub name: String,
    /// Its digest now (`None`: missing or unreadable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The digest it was trusted with (`None`: not recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted_sha256: Option<String>,
    /// How they compare.
    pub change: FileChange,
    /// Why it cannot be hashed, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// Compares the files named now with the digests recorded at trust time (`None`: the record
/// predates file digests).
pub(crate) fn compare(
    named: Vec<NamedFile>,
    recorded: Option<&BTreeMap<String, String>>,
) -> Vec<FileTrust> {
    named
        .into_iter()
        .filter_map(|file| {
            let trusted = recorded.and_then(|r| r.get(&file.name)).cloned();
            let (sha256, problem) = match file.state {
                FileState::Present(digest) => (Some(digest), None),
                FileState::Missing => (None, None),
                FileState::Unreadable(why) => (None, Some(why)),
            };
            let change = match (&sha256, &trusted, &problem) {
                (_, _, Some(_)) => FileChange::Unreadable,
                (None, None, None) => return None, // named, absent, and absent when trusted
                (None, Some(_), None) => FileChange::Removed,
                (Some(_), None, None) if recorded.is_none() => FileChange::NotRecorded,
                (Some(_), None, None) => FileChange::Added,
                (Some(now), Some(then), None) if now == then => FileChange::Unchanged,
                (Some(_), Some(_), None) => FileChange::Changed,
            };
            Some(FileTrust {
                path: file.path,
                name: file.name,
                sha256,
                trusted_sha256: trusted,
                change,
                problem,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_known_variables_only() {
        let vars = vec![("CLAUDE_PROJECT_DIR", "/p".to_owned())];
        assert_eq!(
            expand("$CLAUDE_PROJECT_DIR/a.sh", &vars).as_deref(),
            Some("/p/a.sh")
        );
        assert_eq!(
            expand("${CLAUDE_PROJECT_DIR}/a.sh", &vars).as_deref(),
            Some("/p/a.sh")
        );
        assert_eq!(expand("$OTHER/a.sh", &vars).as_deref(), Some("$OTHER/a.sh"));
        assert_eq!(expand("${UNCLOSED/a.sh", &vars), None);
    }

    #[test]
    fn normalizes_without_touching_the_disk() {
        assert_eq!(
            normalize(Path::new("/p/./x/../.lime/hooks/g.sh")),
            PathBuf::from("/p/.lime/hooks/g.sh")
        );
        assert_eq!(normalize(Path::new("/p/../../etc")), PathBuf::from("/etc"));
    }

    #[test]
    fn flag_values_are_candidates() {
        let words: Vec<&str> = candidates("--config=x.json").collect();
        assert_eq!(words, ["--config=x.json", "x.json"]);
    }
}
