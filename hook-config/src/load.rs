//! Loading every layer of a dialect: the files, the enabled plugins and the session fragments,
//! each read bounded and parsed with positions; a file that cannot be used is one broken entry.

use std::path::Path;

use hook_protocol::{ConfigFormat, Dialect, Layer, PluginRef, Source};

use crate::diagnostic::{Diagnostic, Pos};
use crate::discover::{DiscoverError, Discovery, LoadOptions, ManagedSource, discover};
use crate::fileread::{FileOwner, FileReadError, read_config_text};
use crate::merge::{SourceFile, merge};
use crate::node::{Kind, Node, parse_json, parse_toml};
use crate::read::{DocKind, ParsedFile, RawBroken, is_plugin_name, read_document};
use crate::registry::Registry;

/// What [`load`] returns: the registry and every problem found on the way.
#[derive(Debug)]
#[non_exhaustive]
pub struct Loaded {
    /// The merged, indexed handlers.
    pub registry: Registry,
    /// Errors (a file or plugin was skipped) and warnings, in load order.
    pub diagnostics: Vec<Diagnostic>,
    /// The files that were looked for.
    pub discovery: Discovery,
}

impl Loaded {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loading could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The dialect's home could not be found.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
}

/// Reads every layer of `options.dialect` and merges them into a [`Registry`].
///
/// Never fails because of a file: a problem is reported in [`Loaded::diagnostics`], the
/// smallest part that cannot be read (a handler, a group, a whole file or plugin) is left out
/// and kept in [`Registry::broken`], and everything else loads (see the crate docs, "Broken
/// configuration").
///
/// # Errors
///
/// [`LoadError::Discover`] when the dialect's home cannot be found (no `--home`, no `HOME`).
pub fn load(options: &LoadOptions) -> Result<Loaded, LoadError> {
    let discovery = discover(options)?;
    let dialect = options.dialect;
    let mut diagnostics: Vec<Diagnostic> = discovery
        .warnings
        .iter()
        .map(|(file, warning)| Diagnostic::warning(file.display().to_string(), None, warning))
        .collect();
    let mut sources: Vec<SourceFile> = Vec::new();
    let mut seen_paths = Vec::new();
    // The last hooks file (lime `hooks.json`) that had hooks: its layer and path.
    let mut hooks_file: Option<(Layer, String)> = None;
    for file in &discovery.files {
        let owner = match (file.layer, &options.managed) {
            (Layer::Managed, ManagedSource::File(_)) => FileOwner::RootOrSelf,
            (Layer::Managed, _) => FileOwner::Root,
            _ => FileOwner::Anyone,
        };
        let display = file.path.display().to_string();
        let source = Source::new(file.layer).with_path(display.clone());
        // The user file's keys name it relative to the home, so they survive moving the home
        // (and a home checked into a repository keeps its trust records in any clone).
        let key_name = match file.path.strip_prefix(&discovery.home) {
            Ok(relative) if file.layer == Layer::User => relative.display().to_string(),
            _ => display.clone(),
        };
        let errors_before = diagnostics.len();
        let Some(text) = read_text(&file.path, owner, &mut diagnostics) else {
            // Missing is an empty layer; unreadable is reported on every event.
            if let Some(parsed) = unreadable(&diagnostics[errors_before..]) {
                sources.push(SourceFile {
                    source,
                    key_name,
                    plugin_root: None,
                    parsed,
                });
            }
            continue;
        };
        // A project that is the home's parent would read the user file twice.
        let canonical = std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
        if seen_paths.contains(&canonical) {
            continue;
        }
        seen_paths.push(canonical);
        // A hooks file is JSON and holds only `hooks` (the plugin `hooks.json` shape).
        let toml =
            dialect.rules().config().config_format() == ConfigFormat::Toml && !file.hooks_only;
        let kind = if file.hooks_only {
            DocKind::HooksOnly
        } else {
            DocKind::Settings(file.layer)
        };
        let parsed = parse_document(dialect, &text, &display, toml, kind, &mut diagnostics);
        let has_hooks = !parsed.handlers.is_empty() || !parsed.broken.is_empty();
        if file.hooks_only {
            hooks_file = has_hooks.then(|| (file.layer, display.clone()));
        } else if let Some((_, json)) = hooks_file.take().filter(|(layer, _)| *layer == file.layer)
            && has_hooks
        {
            // Both load, the hooks file first (as Codex, which warns the same way).
            diagnostics.push(Diagnostic::warning(
                json.clone(),
                None,
                format!(
                    "loading hooks from both {json} and {display}; prefer a single file for this layer"
                ),
            ));
        }
        sources.push(SourceFile {
            source,
            key_name,
            plugin_root: None,
            parsed,
        });
    }
    let enabled: Vec<String> = sources
        .iter()
        .filter(|file| file.source.layer == Layer::User)
        .flat_map(|file| file.parsed.settings.plugins.iter())
        .filter(|(_, enabled)| *enabled)
        .map(|(name, _)| name.clone())
        .collect();
    let mut loaded_plugins: Vec<String> = Vec::new();
    for name in enabled {
        if loaded_plugins.contains(&name) {
            continue;
        }
        loaded_plugins.push(name.clone());
        sources.extend(load_plugin(dialect, &discovery, &name, &mut diagnostics));
    }
    for session in &options.session {
        let label = format!("session:{}", session.name);
        let parsed = parse_document(
            dialect,
            &session.json,
            &label,
            false,
            DocKind::HooksOnly,
            &mut diagnostics,
        );
        sources.push(SourceFile {
            source: Source::new(Layer::Session),
            key_name: session.name.clone(),
            plugin_root: None,
            parsed,
        });
    }
    let registry = merge(dialect, sources, options);
    Ok(Loaded {
        registry,
        diagnostics,
        discovery,
    })
}

/// A file (or plugin) that could not be used, as one broken entry for every event, from the
/// error [`read_text`] or the plugin checks reported; `None` when nothing was reported (a
/// missing file is an empty layer).
fn unreadable(reported: &[Diagnostic]) -> Option<ParsedFile> {
    let error = reported.iter().find(|d| d.is_error())?;
    Some(ParsedFile {
        broken: vec![RawBroken {
            event: None,
            matcher: None,
            compiled: None,
            handler_type: None,
            pos: Pos {
                line: error.line.unwrap_or(1),
                column: error.column.unwrap_or(1),
            },
            error: error.to_string(),
            on_failure: None,
        }],
        ..ParsedFile::default()
    })
}

/// A file's text, read bounded ([`read_config_text`]); `None` (and no diagnostic) when it does
/// not exist, `None` and an error diagnostic when it cannot be used.
fn read_text(path: &Path, owner: FileOwner, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    match read_config_text(path, owner) {
        Ok(text) => Some(text),
        Err(error) if error.is_not_found() => None,
        Err(error) => {
            let consequence = if owner == FileOwner::Anyone {
                "file skipped"
            } else {
                "the managed layer is not loaded"
            };
            diagnostics.push(error.diagnostic(path, consequence));
            None
        }
    }
}

fn parse_node(
    text: &str,
    path: &str,
    toml: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Node> {
    let parsed = if toml {
        parse_toml(text).map(|node| (node, Vec::new()))
    } else {
        parse_json(text)
    };
    match parsed {
        Ok((node, duplicates)) => {
            for duplicate in duplicates {
                diagnostics.push(Diagnostic::warning(
                    path,
                    Some(duplicate.ignored),
                    format!(
                        "duplicate key `{}`: only the last one (line {}) is read, as the agent reads JSON; this one and everything under it is ignored: merge the two",
                        duplicate.name, duplicate.kept.line
                    ),
                ));
            }
            Some(node)
        }
        Err(error) => {
            let what = if toml { "TOML" } else { "JSON" };
            diagnostics.push(Diagnostic::error(
                path,
                error.pos,
                format!("invalid {what}: {}; file skipped", error.message),
            ));
            None
        }
    }
}

/// Parses and reads one document; a syntax error makes the whole file one broken entry.
pub(crate) fn parse_document(
    dialect: Dialect,
    text: &str,
    path: &str,
    toml: bool,
    kind: DocKind,
    diagnostics: &mut Vec<Diagnostic>,
) -> ParsedFile {
    let errors_before = diagnostics.len();
    match parse_node(text, path, toml, diagnostics) {
        Some(node) => read_document(dialect, &node, path, toml, kind, diagnostics),
        None => {
            let mut parsed = unreadable(&diagnostics[errors_before..]).unwrap_or_default();
            // The guards in a file that does not parse cannot be read, but whether one asked
            // to block when it cannot run can: a typo must not switch a guard off.
            if crate::read::text_asks_to_block(text) {
                for broken in &mut parsed.broken {
                    broken.on_failure = Some(crate::handler::OnFailure::Block);
                }
            }
            parsed
        }
    }
}

/// An enabled plugin: its hooks, or (when it cannot be loaded) one broken entry for every
/// event; `None` only for a name that cannot be a folder (the readers never give one).
fn load_plugin(
    dialect: Dialect,
    discovery: &Discovery,
    name: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SourceFile> {
    let errors_before = diagnostics.len();
    let loaded = load_plugin_hooks(dialect, discovery, name, diagnostics);
    if loaded.is_some() || !is_plugin_name(name) {
        return loaded;
    }
    let source = Source::new(Layer::Plugin)
        .with_path(discovery.plugins_dir().join(name).display().to_string());
    let parsed = unreadable(&diagnostics[errors_before..])?;
    Some(SourceFile {
        source,
        key_name: name.to_owned(),
        plugin_root: None,
        parsed,
    })
}

fn load_plugin_hooks(
    dialect: Dialect,
    discovery: &Discovery,
    name: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SourceFile> {
    if !is_plugin_name(name) {
        // The readers only return valid names; this keeps a path from ever being built of one.
        diagnostics.push(Diagnostic::error(
            discovery.plugins_dir().display().to_string(),
            None,
            format!(
                "`{}` is not a plugin folder name (letters, digits, `.`, `_` and `-` only); plugin skipped",
                name.escape_debug()
            ),
        ));
        return None;
    }
    let root = discovery.plugins_dir().join(name);
    let manifest_path = root.join("plugin.json");
    let manifest_display = manifest_path.display().to_string();
    let text = match read_config_text(&manifest_path, FileOwner::Anyone) {
        Ok(text) => text,
        Err(error) => {
            let why = match &error {
                error if error.is_not_found() => "is missing".to_owned(),
                FileReadError::Io(error) => format!("cannot be read: {error}"),
                other => other.to_string(),
            };
            diagnostics.push(Diagnostic::error(
                manifest_display,
                error.pos(),
                format!("plugin `{name}` is enabled but its plugin.json {why}; plugin skipped"),
            ));
            return None;
        }
    };
    let node = parse_node(&text, &manifest_display, false, diagnostics)?;
    let plugin = read_manifest(&node, name, &manifest_display, diagnostics)?;
    let hooks_path = root.join("hooks").join("hooks.json");
    let hooks_display = hooks_path.display().to_string();
    let errors_before = diagnostics.len();
    let parsed = match read_text(&hooks_path, FileOwner::Anyone, diagnostics) {
        Some(text) => parse_document(
            dialect,
            &text,
            &hooks_display,
            false,
            DocKind::HooksOnly,
            diagnostics,
        ),
        None => unreadable(&diagnostics[errors_before..]).unwrap_or_default(),
    };
    // The folder name: `read_manifest` checked that the manifest says the same.
    let key_name = name.to_owned();
    let source = Source::new(Layer::Plugin)
        .with_path(hooks_display)
        .with_plugin(plugin);
    Some(SourceFile {
        source,
        key_name,
        plugin_root: Some(root),
        parsed,
    })
}

/// `plugin.json`: `name` and a semver `version` are required, and `name` must be the plugin's
/// folder name (a plugin is identified by its folder, so a manifest copied into another folder
/// never carries the first plugin's keys and trust hashes).
fn read_manifest(
    node: &Node,
    folder: &str,
    path: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PluginRef> {
    let mut error = |pos: Pos, message: String| {
        diagnostics.push(Diagnostic::error(
            path,
            Some(pos),
            format!("{message}; plugin `{folder}` skipped"),
        ));
    };
    let Kind::Table(fields) = &node.kind else {
        error(
            node.pos,
            format!("expected an object, found {}", node.type_name()),
        );
        return None;
    };
    let get = |name: &str| fields.iter().find(|(k, _)| k.name == name).map(|(_, v)| v);
    let string = |name: &str, error: &mut dyn FnMut(Pos, String)| match get(name) {
        Some(Node {
            kind: Kind::Str(s), ..
        }) => Some(s.clone()),
        Some(other) => {
            error(
                other.pos,
                format!("`{name}`: expected a string, found {}", other.type_name()),
            );
            None
        }
        None => {
            error(node.pos, format!("missing field `{name}`"));
            None
        }
    };
    let name = string("name", &mut error)?;
    let name_pos = get("name").map_or(node.pos, |v| v.pos);
    if !is_plugin_name(&name) {
        error(
            name_pos,
            format!(
                "`name`: `{}` is not a valid plugin name: use letters, digits, `.`, `_` and `-` only (not `.` or `..`), the same as the plugin's folder",
                name.escape_debug()
            ),
        );
        return None;
    }
    if name != folder {
        error(
            name_pos,
            format!(
                "`name`: `{name}` is not the plugin's folder name `{folder}`: a plugin is identified by its folder, so rename the folder or fix `name`"
            ),
        );
        return None;
    }
    let version = string("version", &mut error)?;
    if let Err(e) = semver::Version::parse(&version) {
        let pos = get("version").map_or(node.pos, |v| v.pos);
        error(
            pos,
            format!("`version`: `{version}` is not a semver version ({e})"),
        );
        return None;
    }
    Some(PluginRef::new(name, version))
}
