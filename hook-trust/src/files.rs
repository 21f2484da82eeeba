//! The files a hook runs: which files inside the project or the plugin's folder a handler
//! names, and their digests. What is trusted is the hook's identity (its trust hash) *and*
//! these files' contents.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use hook_config::{Handler, RunPlace};
use hook_fs::{Links, ReadError};
use hook_protocol::shell::{
    CommandParts, Interpreter, MAX_INLINE_DEPTH, is_assignment, read_simple_command,
};
use hook_protocol::{Dialect, HandlerType};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::digest_cache::DigestCache;
use crate::hash::HASH_PREFIX;
use crate::limits::SCRIPT_SIZE_CAP;

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
///   [`hook_protocol::shell::words`] (input redirections' targets included, output
///   redirections' not), after expanding the variables the engine gives the hook
///   (`$CLAUDE_PROJECT_DIR` where the dialect has it, `$PLUGIN_ROOT` and
///   `$CLAUDE_PLUGIN_ROOT` for a plugin's hook, `$PWD`), plus the value of a `--flag=value`
///   or `NAME=value` word. A word that still holds a `$`, a backquote or a glob, or that
///   starts with `~`, names nothing. Relative words are read against [`RunPlace::cwd`], and
///   also against the folder a `cd DIR` earlier in the command moved to. Beyond the words,
///   from what [`hook_protocol::shell::read_command`] says each simple command runs (the one
///   reading `hook doctor` and `if` rules share: wrappers such as `env`, `nohup`, `time`,
///   `sudo` looked through): the command string of `sh -c`/`bash -c` or `eval` (read the same
///   way), the `__main__.py` of a
///   folder `python3` runs, the files `python3 -m pkg.mod` may run from the current folder
///   (`pkg/mod.py`, `pkg/mod/__main__.py`, each package's `__init__.py`), a folder `node`
///   runs (`package.json`, the `main` it names, `index.js`...), and the interpreter a
///   covered script's `#!` line names when it is inside the project.
///
///   A path is resolved as the kernel opens it: its folders through their symbolic links
///   (canonical), the file itself not (its digest is of what it points to). It names a file
///   when it then lies in the project or the plugin's folder and is not a folder; such a file
///   that does not exist is listed as [`FileState::Missing`]. A word that lies inside as
///   written but leaves through a symbolic link in its folders is not covered, and is
///   reported ([`crate::HookTrust::uncovered`]): such a hook is never trusted.
/// - A `native` handler: its library ([`hook_config::Handler::library_path`]), wherever it
///   is.
/// - Any other handler names no file.
///
/// Each file is read once, streamed, as a regular file only (a FIFO or a device is refused
/// without being read) of at most [`SCRIPT_SIZE_CAP`] bytes (a library:
/// [`hook_config::library::LIBRARY_SIZE_CAP`]). Paths are listed once each, sorted.
pub fn named_files(dialect: Dialect, handler: &Handler, place: &RunPlace) -> Vec<NamedFile> {
    named_files_cached(dialect, handler, place, None).0
}

/// [`named_files`], looking large files up in `cache` first (see `crate::digest_cache`).
pub(crate) fn named_files_cached(
    dialect: Dialect,
    handler: &Handler,
    place: &RunPlace,
    cache: Option<&DigestCache>,
) -> (Vec<NamedFile>, Vec<Uncovered>) {
    let roots = roots(handler, &absolute_place(place));
    let paths = named_paths(dialect, handler, place);
    let files = paths
        .files
        .into_iter()
        .map(|(path, cap)| {
            let state = file_state(&path, cap, cache);
            let name = record_name(&path, &roots);
            NamedFile { path, name, state }
        })
        .collect();
    (files, paths.uncovered)
}

/// [`named_files`], each script read once, whole, and kept: its digest is of those bytes,
/// which are returned beside it (a review shows and trusts the same bytes). A native library
/// is streamed, not kept.
pub(crate) fn named_files_read(
    dialect: Dialect,
    handler: &Handler,
    place: &RunPlace,
) -> (Vec<NamedFile>, Vec<Uncovered>, BTreeMap<PathBuf, Vec<u8>>) {
    let roots = roots(handler, &absolute_place(place));
    let mut contents = BTreeMap::new();
    let paths = named_paths(dialect, handler, place);
    let files = paths
        .files
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
    (files, paths.uncovered, contents)
}

/// The bytes of the regular file at `path` (at most `cap`), `None` when it does not exist.
fn read_whole(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, String> {
    match std::fs::metadata(path) {
        Err(error) if is_absent(&error) => return Ok(None),
        _ => {}
    }
    let (file, meta) = hook_fs::open_regular(path, Links::Follow).map_err(|e| e.to_string())?;
    hook_fs::read_capped(file, &meta, cap, "a file a hook runs")
        .map(Some)
        .map_err(|e| e.to_string())
}

/// `sha256:` and the hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    format!("{HASH_PREFIX}{}", hex::encode(Sha256::digest(bytes)))
}

/// A word of a command that lies in the project or the plugin's folder as written, but
/// whose path leaves it through a symbolic link: what runs there is not covered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Uncovered {
    /// The word (or the path derived from it), as the command writes it.
    pub word: String,
    /// The path the kernel would open.
    pub path: PathBuf,
    /// Why it is not covered, as a phrase.
    pub why: String,
}

/// What a handler names: each covered path and the cap its file is read under, and the
/// words that are not covered.
#[derive(Debug, Default)]
pub(crate) struct Paths {
    pub(crate) files: BTreeMap<PathBuf, u64>,
    pub(crate) uncovered: Vec<Uncovered>,
}

/// [`named_files`] without reading them (but for `#!` lines and a `package.json`).
pub(crate) fn named_paths(dialect: Dialect, handler: &Handler, place: &RunPlace) -> Paths {
    match handler.config.handler_type {
        HandlerType::Native => {
            let mut paths = Paths::default();
            if let Some(path) = native_library(handler, place) {
                paths
                    .files
                    .insert(path, hook_config::library::LIBRARY_SIZE_CAP);
            }
            paths
        }
        HandlerType::Command => {
            let place = &absolute_place(place);
            let mut finder = Finder {
                vars: variables(dialect, handler, place),
                roots: roots(handler, place),
                paths: Paths::default(),
            };
            for command in [&handler.config.command, &handler.config.command_windows]
                .into_iter()
                .flatten()
            {
                finder.command(command, &place.cwd, 0);
            }
            for arg in handler.config.args.iter().flatten() {
                finder.word(arg, &place.cwd);
            }
            finder.interpreters(&place.cwd);
            finder.paths
        }
        _ => Paths::default(),
    }
}

/// How deep `#!` interpreters are followed (the kernel allows four levels); `sh -c` strings
/// are read as deep as the command reader reads them ([`MAX_INLINE_DEPTH`]).
const MAX_DEPTH: usize = 4;

/// Collects the files a command runs.
struct Finder {
    vars: Vec<(&'static str, String)>,
    roots: Vec<(PathBuf, &'static str)>,
    paths: Paths,
}

impl Finder {
    /// The files of one command line run from `cwd`: every word, and what the command reader
    /// ([`read_simple_command`]) says each simple command runs.
    fn command(&mut self, text: &str, cwd: &Path, depth: usize) {
        for word in hook_protocol::shell::words(text) {
            self.word(&word.plain, cwd);
        }
        let mut dir = cwd.to_path_buf();
        for words in hook_protocol::shell::simple_commands(text) {
            if dir != cwd {
                // After `cd DIR`, relative words are read from there too.
                for word in &words {
                    self.word(&word.plain, &dir);
                }
            }
            let Some(parts) = read_simple_command(words) else {
                continue;
            };
            if parts.changes_dir {
                if let Some(target) = &parts.cd_target
                    && let Some(path) = self.expand_path(&target.plain, &dir)
                {
                    dir = kernel_path(&path);
                }
            } else if let Some(inline) = &parts.inline_text {
                // `sh -c '...'`, `eval ...`: a command line of its own, run from here.
                if depth < MAX_INLINE_DEPTH {
                    self.command(inline, &dir, depth + 1);
                }
            } else if parts.interpreter == Some(Interpreter::Python) {
                self.python(&parts, &dir);
            } else if parts.interpreter == Some(Interpreter::Node) {
                self.node(&parts, &dir);
            }
        }
    }

    /// `word` (and the value of `--flag=value`) read against `base`.
    fn word(&mut self, word: &str, base: &Path) {
        for candidate in candidates(word) {
            if let Some(path) = self.expand_path(candidate, base) {
                self.path(&path, candidate);
            }
        }
    }

    /// `word` with the engine's variables expanded, absolute against `base`; `None` when it
    /// cannot name a file (an unknown variable, a glob, `~`).
    fn expand_path(&self, word: &str, base: &Path) -> Option<PathBuf> {
        let expanded = expand(word, &self.vars)?;
        if expanded.is_empty()
            || expanded.starts_with('~')
            || expanded.contains(['$', '`', '*', '?', '['])
            || expanded.contains('\0')
        {
            return None;
        }
        Some(absolute(Path::new(&expanded), base))
    }

    /// Covers `path` (absolute, as written) when the kernel would open a file inside a root;
    /// reports it when it is inside as written but not as opened.
    fn path(&mut self, path: &Path, word: &str) {
        let real = kernel_path(path);
        let inside = |p: &Path| {
            self.roots
                .iter()
                .any(|(root, _)| p.starts_with(root) && p != root)
        };
        if inside(&real) {
            // A folder is where a command runs, not what it runs.
            if !std::fs::metadata(&real).is_ok_and(|m| m.is_dir()) {
                self.paths.files.insert(real, SCRIPT_SIZE_CAP);
            }
            return;
        }
        let lexical = normalize(path);
        if inside(&lexical) && !self.paths.uncovered.iter().any(|u| u.path == real) {
            self.paths.uncovered.push(Uncovered {
                word: word.to_owned(),
                why: format!(
                    "leaves the project or plugin folder through a symbolic link (it opens {})",
                    real.display()
                ),
                path: real,
            });
        }
    }

    /// `python3 [flags] script|folder|-m module`: a folder's `__main__.py`; a module's files
    /// from the current folder (Python puts it first on its path).
    fn python(&mut self, parts: &CommandParts, dir: &Path) {
        if let Some(module) = &parts.module {
            self.python_module(&module.plain, dir);
        } else if let Some(script) = &parts.script
            && let Some(path) = self.expand_path(&script.plain, dir)
            && std::fs::metadata(kernel_path(&path)).is_ok_and(|m| m.is_dir())
        {
            self.path(&path.join("__main__.py"), &script.plain);
        }
    }

    fn python_module(&mut self, module: &str, dir: &Path) {
        if module.is_empty()
            || !module.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_')
            })
        {
            return;
        }
        let parts: Vec<&str> = module.split('.').collect();
        let joined = parts.join("/");
        let mut files = vec![
            format!("{joined}.py"),
            format!("{joined}/__main__.py"),
            format!("{joined}/__init__.py"),
        ];
        for n in 1..parts.len() {
            files.push(format!("{}/__init__.py", parts[..n].join("/")));
        }
        for file in files {
            self.path(&dir.join(&file), module);
        }
    }

    /// `node [flags] folder`: the folder's `package.json`, the `main` it names, `index.*`.
    fn node(&mut self, parts: &CommandParts, dir: &Path) {
        let Some(script) = &parts.script else {
            return;
        };
        let arg = script.plain.as_str();
        let Some(path) = self.expand_path(arg, dir) else {
            return;
        };
        let real = kernel_path(&path);
        if !std::fs::metadata(&real).is_ok_and(|m| m.is_dir()) {
            return;
        }
        for file in [
            "package.json",
            "index.js",
            "index.json",
            "index.node",
            "index.mjs",
            "index.cjs",
        ] {
            self.path(&path.join(file), arg);
        }
        if let Some(main) = package_main(&real.join("package.json")) {
            let main_path = path.join(&main);
            self.path(&main_path, arg);
            self.path(&path.join(format!("{main}.js")), arg);
            self.path(&main_path.join("index.js"), arg);
        }
    }

    /// The interpreters the `#!` lines of the covered scripts name, covered when inside a
    /// root (a relative one is read against `cwd`, as the kernel does); followed
    /// [`MAX_DEPTH`] deep.
    fn interpreters(&mut self, cwd: &Path) {
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..MAX_DEPTH {
            let todo: Vec<PathBuf> = self
                .paths
                .files
                .keys()
                .filter(|p| !seen.contains(*p))
                .cloned()
                .collect();
            if todo.is_empty() {
                return;
            }
            for script in todo {
                seen.insert(script.clone());
                if let Some(interpreter) = shebang_program(&script) {
                    let path = absolute(Path::new(&interpreter), cwd);
                    self.path(&path, &interpreter);
                }
            }
        }
    }
}

/// The `main` of a `package.json`, read bounded.
fn package_main(path: &Path) -> Option<String> {
    let (file, meta) = hook_fs::open_regular(path, Links::Follow).ok()?;
    let bytes = hook_fs::read_capped(file, &meta, 1024 * 1024, "a package.json").ok()?;
    let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let main = value.get("main")?.as_str()?;
    (!main.is_empty()).then(|| main.to_owned())
}

/// The program of a script's `#!` line, when it names one by path (`#!/usr/bin/env ./x`
/// names `./x`; `#!/usr/bin/env python3` names none: it is found on `PATH`).
fn shebang_program(script: &Path) -> Option<String> {
    let (file, _) = hook_fs::open_regular(script, Links::Follow).ok()?;
    let mut head = Vec::with_capacity(256);
    file.take(256).read_to_end(&mut head).ok()?;
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|b| *b == b'\n').unwrap_or(line.len())];
    let line = std::str::from_utf8(line).ok()?;
    let mut tokens = line.split_whitespace();
    let program = tokens.next()?;
    if Path::new(program).file_name().is_some_and(|n| n == "env") {
        let next = tokens.find(|t| !t.starts_with('-') && !is_assignment(t))?;
        return next.contains('/').then(|| next.to_owned());
    }
    Some(program.to_owned())
}

/// `path` as the kernel opens it: its folders canonical (every link followed), its last
/// component as written (a link there is followed when the file is read); a folder that does
/// not exist is kept as written below the deepest one that does.
fn kernel_path(path: &Path) -> PathBuf {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return std::fs::canonicalize(path).unwrap_or_else(|_| normalize(path));
    };
    if let Ok(dir) = std::fs::canonicalize(parent) {
        return dir.join(name);
    }
    // The deepest folder that exists, resolved; the rest as written.
    let mut rest = vec![name.to_owned()];
    let mut dir = parent;
    while let Some(up) = dir.parent() {
        rest.push(dir.file_name().unwrap_or_default().to_owned());
        if let Ok(real) = std::fs::canonicalize(up) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return normalize(&out);
        }
        dir = up;
    }
    normalize(path)
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
    if let Some(name) = dialect.rules().input().project_dir_env() {
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
    // Canonical, as the paths compared with them.
    let canonical = |dir: &Path| {
        let dir = normalize(&absolute(dir, &place.cwd));
        std::fs::canonicalize(&dir).unwrap_or(dir)
    };
    let mut roots = Vec::new();
    if let Some(root) = &handler.plugin_root {
        roots.push((canonical(root), PLUGIN_PREFIX));
    }
    roots.push((canonical(place.project()), PROJECT_PREFIX));
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

/// `path` without `.` and with `..` applied to the part before it, links not followed: where
/// a path lies *as written*, to tell a word that leaves a root through a link
/// ([`Uncovered`]); what is covered is always resolved as the kernel opens it.
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

/// Whether `error` says nothing is there (no such file, or a file where a folder of the path
/// should be).
fn is_absent(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// What the file at `path` holds now, read under `cap` bytes.
pub(crate) fn file_state(path: &Path, cap: u64, cache: Option<&DigestCache>) -> FileState {
    match std::fs::metadata(path) {
        Err(error) if is_absent(&error) => return FileState::Missing,
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
    let (file, meta) = hook_fs::open_regular(path, Links::Follow).map_err(|e| e.to_string())?;
    if meta.len() > cap {
        return Err(format!(
            "is {} bytes, over the {cap}-byte limit of a file a hook runs",
            meta.len()
        ));
    }
    if let Some(digest) = cache.and_then(|cache| cache.get(path, &meta)) {
        return Ok(digest);
    }
    let (hex, _) =
        hook_fs::sha256_capped(&file, cap, "file a hook runs").map_err(|error| match error {
            ReadError::TooLarge { .. } => {
                format!("grew past the {cap}-byte limit of a file a hook runs")
            }
            ReadError::Io(error) => format!("cannot read: {error}"),
            other => other.to_string(),
        })?;
    let digest = format!("{HASH_PREFIX}{hex}");
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
