//! Loading every layer, merging them, and selecting handlers for an event.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use hook_protocol::{Dialect, Event, HandlerType, Layer, MatchTarget, PluginRef, Source};
use regex::RegexSet;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Pos};
use crate::discover::{DiscoverError, Discovery, LoadOptions, ManagedSource, discover};
use crate::fileread::{Owner, ReadError, read_config_text};
use crate::handler::{Handler, Suppression};
use crate::matcher::Matcher;
use crate::node::{Kind, Node, parse_json, parse_toml};
use crate::read::{DocKind, ParsedFile, RawBroken, RawHandler, is_plugin_name, read_document};
use crate::rule::PermissionRule;

/// What [`load`] returns: the registry and every problem found on the way.
#[derive(Debug)]
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
pub enum LoadError {
    /// The dialect's home could not be found.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
}

/// The merged handlers of one dialect, indexed by event for [`Registry::select`].
///
/// Built once by [`load`]; immutable and `Send + Sync`, so one registry serves every event of a
/// session.
#[derive(Debug)]
pub struct Registry {
    dialect: Dialect,
    handlers: Vec<Handler>,
    broken: Vec<Broken>,
    compiled: Vec<Compiled>,
    events: HashMap<Event, EventIndex>,
    /// Tool name → the other names that mean the same tool (both directions of the aliases).
    aliases: HashMap<String, Vec<String>>,
}

/// A handler, group, event list, file or plugin that could not be read. It never runs; the
/// engine reports it, for each event it may have been on, in `runs` as `skipped: invalid`
/// ([`Registry::broken_for`]), while every other handler runs (SPEC.md "Hostile input": one
/// broken handler, group or file is skipped with a diagnostic while everything else runs).
#[derive(Debug, Clone)]
pub struct Broken {
    /// A key for the report: `<layer>:<where>:<Event>:<matcher>:invalid@<line>:<col>`, with
    /// `*` for the event when the whole file or plugin could not be read. Never trusted or
    /// stored: a broken handler has no identity to trust.
    pub key: String,
    /// Where it was configured.
    pub source: Source,
    /// Its event; `None` when the whole file (or its `hooks`, or a plugin) could not be read,
    /// so it is reported on every event.
    pub event: Option<Event>,
    /// Its matcher as written, when it was read.
    pub matcher: Option<String>,
    /// Its type, when it was read.
    pub handler_type: Option<HandlerType>,
    /// What is wrong, with the file and `line:col` of each problem.
    pub error: String,
    /// The compiled matcher, when it compiled (a handler broken under a matcher that does not
    /// match is not reported for that call).
    compiled: Option<Matcher>,
}

#[derive(Debug)]
struct Compiled {
    rule: Option<PermissionRule>,
    /// verboo: equal for identical handlers, which run once per event.
    identity: u32,
}

#[derive(Debug)]
struct EventIndex {
    target: MatchTarget,
    /// Handlers whose matcher matches everything (or is ignored on this event).
    always: Vec<u32>,
    /// Exact names (wuu: lowercase) → handlers.
    exact: HashMap<String, Vec<u32>>,
    /// One pattern per distinct regex matcher...
    regex: Option<RegexSet>,
    /// ...and the handlers of each pattern.
    regex_handlers: Vec<Vec<u32>>,
    /// The patterns one by one, only when the set went over the `regex` size limit.
    fallback: Vec<regex::Regex>,
}

/// Reads every layer of `options.dialect` and merges them into a [`Registry`].
///
/// Never fails because of a file: a file with an error is reported in
/// [`Loaded::diagnostics`] and its hooks are not loaded, the other files load.
pub fn load(options: &LoadOptions) -> Result<Loaded, LoadError> {
    let discovery = discover(options)?;
    let dialect = options.dialect;
    let mut diagnostics = Vec::new();
    let mut sources: Vec<SourceFile> = Vec::new();
    let mut seen_paths = Vec::new();
    for file in &discovery.files {
        let owner = match (file.layer, &options.managed) {
            (Layer::Managed, ManagedSource::File(_)) => Owner::RootOrSelf,
            (Layer::Managed, _) => Owner::Root,
            _ => Owner::Anyone,
        };
        let display = file.path.display().to_string();
        let source = Source {
            layer: file.layer,
            path: Some(display.clone()),
            plugin: None,
        };
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
                sources.push((source, key_name, None, parsed));
            }
            continue;
        };
        // A project that is the home's parent would read the user file twice.
        let canonical = std::fs::canonicalize(&file.path).unwrap_or_else(|_| file.path.clone());
        if seen_paths.contains(&canonical) {
            continue;
        }
        seen_paths.push(canonical);
        let toml = dialect == Dialect::Lime;
        let parsed = parse_document(
            dialect,
            &text,
            &display,
            toml,
            DocKind::Settings(file.layer),
            &mut diagnostics,
        );
        sources.push((source, key_name, None, parsed));
    }
    let enabled: Vec<String> = sources
        .iter()
        .filter(|(source, ..)| source.layer == Layer::User)
        .flat_map(|(.., parsed)| parsed.settings.plugins.iter())
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
        sources.push((
            Source::new(Layer::Session),
            session.name.clone(),
            None,
            parsed,
        ));
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
        }],
        ..ParsedFile::default()
    })
}

/// A file's text, read bounded ([`read_config_text`]); `None` (and no diagnostic) when it does
/// not exist, `None` and an error diagnostic when it cannot be used.
fn read_text(path: &Path, owner: Owner, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    match read_config_text(path, owner) {
        Ok(text) => Some(text),
        Err(error) if error.is_not_found() => None,
        Err(error) => {
            let consequence = if owner == Owner::Anyone {
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
        parse_toml(text)
    } else {
        parse_json(text)
    };
    match parsed {
        Ok(node) => Some(node),
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
        None => unreadable(&diagnostics[errors_before..]).unwrap_or_default(),
    }
}

/// A file read without errors: its source, the name its keys use, the plugin root, its content.
type SourceFile = (Source, String, Option<std::path::PathBuf>, ParsedFile);

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
    let source = Source {
        layer: Layer::Plugin,
        path: Some(discovery.plugins_dir().join(name).display().to_string()),
        plugin: None,
    };
    let parsed = unreadable(&diagnostics[errors_before..])?;
    Some((source, name.to_owned(), None, parsed))
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
    let text = match read_config_text(&manifest_path, Owner::Anyone) {
        Ok(text) => text,
        Err(error) => {
            let why = match &error {
                error if error.is_not_found() => "is missing".to_owned(),
                ReadError::Io(error) => format!("cannot be read: {error}"),
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
    let parsed = match read_text(&hooks_path, Owner::Anyone, diagnostics) {
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
    let source = Source {
        layer: Layer::Plugin,
        path: Some(hooks_display),
        plugin: Some(plugin),
    };
    Some((source, key_name, Some(root), parsed))
}

/// `plugin.json`: `name` and a semver `version` are required, and `name` must be the plugin's
/// folder name (SPEC.md "Plugins": a plugin is identified by its folder, so a manifest copied
/// into another folder never carries the first plugin's keys and trust hashes).
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
    Some(PluginRef { name, version })
}

fn merge(dialect: Dialect, sources: Vec<SourceFile>, options: &LoadOptions) -> Registry {
    let switches = Switches::read(dialect, &sources);
    let mut handlers = Vec::new();
    let mut broken = Vec::new();
    let mut raws: Vec<RawHandler> = Vec::new();
    // Session hooks have no file: their relative native libraries resolve against the project.
    let project_dir = (options.project_dir.as_deref())
        .or(options.env.current_dir())
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for (source, key_name, plugin_root, parsed) in sources {
        let mut counters: HashMap<(String, String), usize> = HashMap::new();
        let layer = source.layer.as_str();
        let suppressed = switches.suppression(source.layer);
        for raw in parsed.broken {
            let event = raw.event.as_ref().map_or("*", Event::as_str);
            let matcher = raw.matcher.as_deref().unwrap_or_default();
            let Pos { line, column } = raw.pos;
            broken.push(Broken {
                key: format!("{layer}:{key_name}:{event}:{matcher}:invalid@{line}:{column}"),
                source: source.clone(),
                event: raw.event,
                matcher: raw.matcher,
                handler_type: raw.handler_type,
                error: raw.error,
                compiled: raw.compiled,
            });
        }
        for raw in parsed.handlers {
            let matcher = raw.matcher.clone().unwrap_or_default();
            let counter = counters
                .entry((raw.event.as_str().to_owned(), matcher.clone()))
                .or_insert(0);
            let key = format!("{layer}:{key_name}:{}:{matcher}:{counter}", raw.event);
            *counter += 1;
            handlers.push(Handler {
                key,
                event: raw.event.clone(),
                matcher: raw.matcher.clone(),
                config: raw.config.clone(),
                timeout: raw.timeout,
                source: source.clone(),
                position: (source.layer != Layer::Session).then_some(raw.pos),
                plugin_root: plugin_root.clone(),
                library_path: crate::handler::resolve_library(
                    &raw.config,
                    source.path.as_deref().map(Path::new),
                    plugin_root.as_deref(),
                    &project_dir,
                ),
                duplicates: Vec::new(),
                suppressed: suppressed.clone(),
            });
            raws.push(raw);
        }
    }
    // verboo: identical handlers (same event, matcher and what runs) collapse into the first
    // (see `Dedup`).
    let mut identities: HashMap<(String, Option<Source>), u32> = HashMap::new();
    let mut texts = Vec::with_capacity(handlers.len());
    let mut ids = Vec::with_capacity(handlers.len());
    for (i, handler) in handlers.iter().enumerate() {
        let id = if dialect == Dialect::Verboo {
            let text = handler.config.identity(handler.plugin_root.as_deref());
            let next = u32::try_from(identities.len()).unwrap_or(u32::MAX);
            let id = *identities
                .entry((text.clone(), dedup_domain(handler)))
                .or_insert(next);
            texts.push(text);
            id
        } else {
            u32::try_from(i).unwrap_or(u32::MAX)
        };
        ids.push(id);
    }
    let mut keep = vec![true; handlers.len()];
    if dialect == Dialect::Verboo {
        type Group<'t> = (Event, Option<String>, &'t str, Option<Source>);
        let mut first: HashMap<Group<'_>, usize> = HashMap::new();
        for i in 0..handlers.len() {
            if handlers[i].suppressed.is_some() {
                continue;
            }
            let group = |domain| {
                (
                    handlers[i].event.clone(),
                    handlers[i].matcher.clone(),
                    texts[i].as_str(),
                    domain,
                )
            };
            let own = group(dedup_domain(&handlers[i]));
            let kept = first.get(&group(None)).or_else(|| first.get(&own)).copied();
            match kept {
                Some(j) => {
                    let source = handlers[i].source.clone();
                    handlers[j].duplicates.push(source);
                    keep[i] = false;
                }
                None => {
                    first.insert(own, i);
                }
            }
        }
    }
    let mut kept_handlers = Vec::new();
    let mut compiled = Vec::new();
    let mut matchers = Vec::new();
    for (((handler, raw), id), keep) in handlers.into_iter().zip(raws).zip(ids).zip(keep) {
        if keep {
            kept_handlers.push(handler);
            matchers.push(raw.compiled);
            compiled.push(Compiled {
                rule: raw.rule,
                identity: id,
            });
        }
    }
    let events = build_index(dialect, &kept_handlers, &matchers);
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    for (alias, canonical) in &options.tool_aliases {
        let (alias, canonical) = if dialect == Dialect::Wuu {
            (alias.to_lowercase(), canonical.to_lowercase())
        } else {
            (alias.clone(), canonical.clone())
        };
        aliases
            .entry(canonical.clone())
            .or_default()
            .push(alias.clone());
        aliases.entry(alias).or_default().push(canonical);
    }
    Registry {
        dialect,
        handlers: kept_handlers,
        broken,
        compiled,
        events,
        aliases,
    }
}

/// verboo's two switches, and what each layer's handlers are suppressed by.
///
/// Claude Code documents `disableAllHooks` as turning hooks off and managed hooks as beyond a
/// user's reach; SPEC.md ("What a project may not do") adds that a project's files, which are
/// untrusted content, never switch off anything but the project's own hooks. So:
/// - managed `disableAllHooks: true`: every hook, managed ones included;
/// - managed `allowManagedHooksOnly: true`: user, project, local and plugin hooks (session
///   hooks are the embedder's own);
/// - user `disableAllHooks: true`: every hook but the managed ones; a project or local `false`
///   does not turn the user's switch back on;
/// - project or local `disableAllHooks` (the local file's value wins when both set it): the
///   hooks of the project and local files only.
#[derive(Debug, Default)]
struct Switches {
    managed_disable: Option<String>,
    managed_only: Option<String>,
    user_disable: Option<String>,
    project_disable: Option<String>,
}

impl Switches {
    fn read(dialect: Dialect, sources: &[SourceFile]) -> Switches {
        let mut switches = Switches::default();
        if dialect != Dialect::Verboo {
            return switches;
        }
        for (source, display, _, parsed) in sources {
            let settings = &parsed.settings;
            // The file's path as discovered (the key name of the user file is relative).
            let path = source.path.clone().unwrap_or_else(|| display.clone());
            let disable = settings.disable_all_hooks;
            match source.layer {
                Layer::Managed => {
                    if disable == Some(true) {
                        switches.managed_disable = Some(path.clone());
                    }
                    if settings.allow_managed_hooks_only == Some(true) {
                        switches.managed_only = Some(path);
                    }
                }
                Layer::User => {
                    if disable == Some(true) {
                        switches.user_disable = Some(path);
                    }
                }
                // project < local: the more specific file that sets it wins.
                Layer::Project | Layer::Local => {
                    if let Some(flag) = disable {
                        switches.project_disable = flag.then_some(path);
                    }
                }
                Layer::Plugin | Layer::Session => {}
            }
        }
        switches
    }

    fn suppression(&self, layer: Layer) -> Option<Suppression> {
        let disable = |path: &String| Some(Suppression::DisableAllHooks { path: path.clone() });
        if let Some(path) = &self.managed_disable {
            return disable(path);
        }
        if layer == Layer::Managed {
            return None;
        }
        if let Some(path) = &self.user_disable {
            return disable(path);
        }
        if layer != Layer::Session
            && let Some(path) = &self.managed_only
        {
            return Some(Suppression::AllowManagedHooksOnly { path: path.clone() });
        }
        match (layer, &self.project_disable) {
            (Layer::Project | Layer::Local, Some(path)) => disable(path),
            _ => None,
        }
    }
}

/// Which handlers may stand for each other in verboo's deduplication: `None` for managed and
/// user hooks (they run as written, so an identical hook of any later file collapses into
/// them), else the handler's own source, so a project, local, plugin or session hook is only
/// ever merged with an identical one of the same file or plugin. An untrusted copy can then
/// never take the place of a hook that would have run, and two plugins never share a hook.
fn dedup_domain(handler: &Handler) -> Option<Source> {
    match handler.source.layer {
        Layer::Managed | Layer::User => None,
        _ => Some(handler.source.clone()),
    }
}

fn build_index(
    dialect: Dialect,
    handlers: &[Handler],
    matchers: &[Matcher],
) -> HashMap<Event, EventIndex> {
    struct Building {
        target: MatchTarget,
        always: Vec<u32>,
        exact: HashMap<String, Vec<u32>>,
        patterns: Vec<String>,
        pattern_ids: HashMap<String, usize>,
        regex_handlers: Vec<Vec<u32>>,
    }
    let mut building: HashMap<Event, Building> = HashMap::new();
    // Suppressed handlers are indexed too: `select_including_suppressed` reports them.
    for (i, (handler, matcher)) in handlers.iter().zip(matchers).enumerate() {
        let id = u32::try_from(i).unwrap_or(u32::MAX);
        let target = handler.event.match_target(dialect);
        let b = building
            .entry(handler.event.clone())
            .or_insert_with(|| Building {
                target,
                always: Vec::new(),
                exact: HashMap::new(),
                patterns: Vec::new(),
                pattern_ids: HashMap::new(),
                regex_handlers: Vec::new(),
            });
        if target == MatchTarget::Nothing {
            // verboo/lime ignore the matcher; a non-empty wuu matcher never matches.
            if dialect != Dialect::Wuu || matches!(matcher, Matcher::All) {
                b.always.push(id);
            }
            continue;
        }
        match matcher {
            Matcher::All => b.always.push(id),
            Matcher::NameIgnoreCase(name) => b.exact.entry(name.clone()).or_default().push(id),
            Matcher::Exact(names) => {
                for name in names {
                    let ids = b.exact.entry(name.clone()).or_default();
                    if ids.last() != Some(&id) {
                        ids.push(id);
                    }
                }
            }
            Matcher::Regex(regex) => {
                let pattern = regex.as_str().to_owned();
                let next = b.patterns.len();
                let p = *b.pattern_ids.entry(pattern.clone()).or_insert(next);
                if p == next {
                    b.patterns.push(pattern);
                    b.regex_handlers.push(Vec::new());
                }
                b.regex_handlers[p].push(id);
            }
        }
    }
    building
        .into_iter()
        .map(|(event, b)| {
            // Every pattern compiled alone already; the set only fails past its size limit, and
            // then the patterns are tried one by one (slower, never wrong).
            let (regex, fallback) = if b.patterns.is_empty() {
                (None, Vec::new())
            } else {
                match RegexSet::new(&b.patterns) {
                    Ok(set) => (Some(set), Vec::new()),
                    Err(_) => (
                        None,
                        b.patterns
                            .iter()
                            .filter_map(|p| regex::Regex::new(p).ok())
                            .collect(),
                    ),
                }
            };
            let index = EventIndex {
                target: b.target,
                always: b.always,
                exact: b.exact,
                regex,
                regex_handlers: b.regex_handlers,
                fallback,
            };
            (event, index)
        })
        .collect()
}

impl Registry {
    /// The dialect whose rules built this registry.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Every loaded handler in configuration order (managed, user, project, local, plugin,
    /// session; file order within a file), including suppressed ones, for listings.
    pub fn handlers(&self) -> &[Handler] {
        &self.handlers
    }

    /// Every handler, group, file or plugin that could not be read, in configuration order.
    pub fn broken(&self) -> &[Broken] {
        &self.broken
    }

    /// The broken entries to report for `event` with this match value: those of the event
    /// whose matcher matches or could not be read, and those of a whole file or plugin.
    pub fn broken_for<'a>(
        &'a self,
        event: &'a Event,
        match_value: Option<&str>,
    ) -> impl Iterator<Item = &'a Broken> + 'a {
        let target = event.match_target(self.dialect);
        let names: Vec<String> = self
            .names(target, match_value)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        self.broken
            .iter()
            .filter(move |broken| match &broken.event {
                None => true,
                Some(own) if own != event => false,
                Some(_) => match &broken.compiled {
                    Some(compiled) if target != MatchTarget::Nothing => {
                        names.iter().any(|name| compiled.is_match(name))
                    }
                    _ => true,
                },
            })
    }

    /// The handlers that run for `event`, in configuration order.
    ///
    /// `match_value` is the event's match value ([`MatchTarget::value_in`] of the input: the
    /// tool name, session source, compaction trigger...); `tool_input` is checked by verboo
    /// `if` rules. Suppressed handlers are never selected; verboo's identical handlers are
    /// returned once. Cost: hash lookups and one `RegexSet` pass per name, plus the matches.
    pub fn select<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
    ) -> impl Iterator<Item = &'a Handler> + 'a {
        self.matching(event, match_value, tool_input, false)
            .into_iter()
    }

    /// Like [`Registry::select`], plus the handlers a verboo switch suppressed
    /// ([`Handler::suppressed`] is set on those), in configuration order: what an engine
    /// reports in an outcome's `runs`, each suppressed handler as skipped with its reason
    /// (SPEC.md: nothing is turned off silently). An embedder must never run a handler whose
    /// `suppressed` is set.
    pub fn select_including_suppressed<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
    ) -> impl Iterator<Item = &'a Handler> + 'a {
        self.matching(event, match_value, tool_input, true)
            .into_iter()
    }

    fn matching<'a>(
        &'a self,
        event: &Event,
        match_value: Option<&str>,
        tool_input: Option<&Value>,
        suppressed: bool,
    ) -> Vec<&'a Handler> {
        let mut out: Vec<&'a Handler> = Vec::new();
        let Some(index) = self.events.get(event) else {
            return out;
        };
        let names = self.names(index.target, match_value);
        let hits = self.hits(index, &names);
        let mut seen: Vec<(u32, bool)> = Vec::new();
        for id in hits {
            let i = id as usize;
            let (Some(handler), Some(compiled)) = (self.handlers.get(i), self.compiled.get(i))
            else {
                continue;
            };
            let is_suppressed = handler.suppressed.is_some();
            if is_suppressed && !suppressed {
                continue;
            }
            if let Some(rule) = &compiled.rule {
                let runs = index.target == MatchTarget::ToolName
                    && names.iter().any(|n| rule.matches(n, tool_input));
                if !runs {
                    continue;
                }
            }
            if self.dialect == Dialect::Verboo {
                let identity = (compiled.identity, is_suppressed);
                if seen.contains(&identity) {
                    continue;
                }
                seen.push(identity);
            }
            out.push(handler);
        }
        out
    }

    /// Whether any `PreToolUse` handler's matcher matches `tool_name` (ignoring verboo `if`
    /// rules, which need the input, and verboo's switches: a `true` may still select nothing). Lets a wuu agent run
    /// only the calls that hooks may rewrite or block serially.
    pub fn any_pre_tool_use_matches(&self, tool_name: &str) -> bool {
        let Some(index) = self.events.get(&Event::PreToolUse) else {
            return false;
        };
        if !index.always.is_empty() {
            return true;
        }
        let names = self.names(index.target, Some(tool_name));
        names.iter().any(|name| {
            index.exact.contains_key(name.as_ref())
                || index.regex.as_ref().is_some_and(|set| set.is_match(name))
                || index.fallback.iter().any(|r| r.is_match(name))
        })
    }

    /// The value and its aliases (wuu: lowercase); nothing when the event has no match value.
    fn names<'v>(&self, target: MatchTarget, value: Option<&'v str>) -> Vec<Cow<'v, str>> {
        let Some(value) = value else {
            return Vec::new();
        };
        if target == MatchTarget::Nothing {
            return Vec::new();
        }
        let value: Cow<'v, str> = if self.dialect == Dialect::Wuu {
            Cow::Owned(value.to_lowercase())
        } else {
            Cow::Borrowed(value)
        };
        let mut names = vec![value];
        if target == MatchTarget::ToolName
            && let Some(aliases) = self.aliases.get(names[0].as_ref())
        {
            names.extend(aliases.iter().map(|a| Cow::Owned(a.clone())));
        }
        names
    }

    fn hits(&self, index: &EventIndex, names: &[Cow<'_, str>]) -> Vec<u32> {
        let mut hits = index.always.clone();
        for name in names {
            if let Some(ids) = index.exact.get(name.as_ref()) {
                hits.extend_from_slice(ids);
            }
            if let Some(set) = &index.regex {
                for p in set.matches(name).iter() {
                    if let Some(ids) = index.regex_handlers.get(p) {
                        hits.extend_from_slice(ids);
                    }
                }
            }
            for (p, regex) in index.fallback.iter().enumerate() {
                if regex.is_match(name)
                    && let Some(ids) = index.regex_handlers.get(p)
                {
                    hits.extend_from_slice(ids);
                }
            }
        }
        if hits.len() > index.always.len() {
            hits.sort_unstable();
            hits.dedup();
        }
        hits
    }
}
