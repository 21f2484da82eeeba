//! Merging the layers into one [`Registry`]: keys, verboo's switches and deduplication.

use std::collections::HashMap;
use std::path::Path;

use hook_protocol::{Dialect, Event, Layer, Source};

use crate::diagnostic::Pos;
use crate::discover::LoadOptions;
use crate::handler::{Handler, Suppression};
use crate::matcher::Matcher;
use crate::read::{ParsedFile, RawHandler};
use crate::registry::{Broken, Compiled, Registry, build_index};
use crate::rule::PermissionRule;

/// A file read without errors, ready to merge.
pub(crate) struct SourceFile {
    /// Where it came from (layer, path, plugin).
    pub(crate) source: Source,
    /// The name its handlers' keys use.
    pub(crate) key_name: String,
    /// The plugin's folder, for a plugin's hooks.
    pub(crate) plugin_root: Option<std::path::PathBuf>,
    /// Its content.
    pub(crate) parsed: ParsedFile,
}

pub(crate) fn merge(dialect: Dialect, sources: Vec<SourceFile>, options: &LoadOptions) -> Registry {
    let switches = Switches::read(dialect, &sources);
    let mut handlers = Vec::new();
    let mut broken = Vec::new();
    let mut raws: Vec<(Matcher, Option<PermissionRule>)> = Vec::new();
    // Session hooks have no file: their relative native libraries resolve against the project.
    let project_dir = (options.project_dir.as_deref())
        .or(options.env.current_dir())
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for SourceFile {
        source,
        key_name,
        plugin_root,
        parsed,
    } in sources
    {
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
                on_failure: raw.on_failure,
            });
        }
        handlers.reserve(parsed.handlers.len());
        raws.reserve(parsed.handlers.len());
        // Each handler's index among those of its file with its event and matcher: the last
        // part of its key. Counted on borrowed names before the handlers are taken apart.
        let indexes: Vec<usize> = {
            let mut counters: HashMap<(&str, &str), usize> = HashMap::new();
            (parsed.handlers.iter())
                .map(|raw| {
                    let matcher = raw.matcher.as_deref().unwrap_or_default();
                    let counter = counters.entry((raw.event.as_str(), matcher)).or_insert(0);
                    *counter += 1;
                    *counter - 1
                })
                .collect()
        };
        for (raw, counter) in parsed.handlers.into_iter().zip(indexes) {
            // The handler takes the parsed fields; the matcher and rule stay behind for the index.
            let RawHandler {
                event,
                matcher,
                compiled,
                rule,
                config,
                timeout,
                pos,
            } = raw;
            let matcher_text = matcher.as_deref().unwrap_or_default();
            let key = format!("{layer}:{key_name}:{event}:{matcher_text}:{counter}");
            let library_path = crate::handler::resolve_library(
                &config,
                source.path.as_deref().map(Path::new),
                plugin_root.as_deref(),
                &project_dir,
            );
            handlers.push(Handler {
                key,
                event,
                matcher,
                config,
                timeout,
                source: source.clone(),
                position: (source.layer != Layer::Session).then_some(pos),
                plugin_root: plugin_root.clone(),
                library_path,
                duplicates: Vec::new(),
                suppressed: suppressed.clone(),
            });
            raws.push((compiled, rule));
        }
    }
    // verboo: identical handlers (same event, matcher and what runs) collapse into the first
    // (see `Dedup`).
    let dedup = dialect.rules().handlers().dedup_identical();
    let texts: Vec<String> = if dedup {
        handlers
            .iter()
            .map(|handler| handler.config.identity(handler.plugin_root.as_deref()))
            .collect()
    } else {
        Vec::new()
    };
    // Keys borrow the handlers and their identity texts; the merges are applied afterwards.
    let mut ids = Vec::with_capacity(handlers.len());
    let mut merges: Vec<(usize, usize)> = Vec::new();
    if dedup {
        let mut identities: HashMap<(&str, Option<&Source>), u32> = HashMap::new();
        type Group<'t> = (&'t Event, Option<&'t str>, &'t str, Option<&'t Source>);
        let mut first: HashMap<Group<'_>, usize> = HashMap::new();
        for (i, handler) in handlers.iter().enumerate() {
            let text = texts[i].as_str();
            let domain = dedup_domain(handler);
            let next = u32::try_from(identities.len()).unwrap_or(u32::MAX);
            ids.push(*identities.entry((text, domain)).or_insert(next));
            if handler.suppressed.is_some() {
                continue;
            }
            let matcher = handler.matcher.as_deref();
            let own = (&handler.event, matcher, text, domain);
            match first
                .get(&(&handler.event, matcher, text, None))
                .or_else(|| first.get(&own))
            {
                Some(&j) => merges.push((i, j)),
                None => {
                    first.insert(own, i);
                }
            }
        }
    } else {
        ids.extend((0..handlers.len()).map(|i| u32::try_from(i).unwrap_or(u32::MAX)));
    }
    let mut keep = vec![true; handlers.len()];
    for (i, j) in merges {
        let source = handlers[i].source.clone();
        handlers[j].duplicates.push(source);
        keep[i] = false;
    }
    let mut kept_handlers = Vec::new();
    let mut compiled = Vec::new();
    let mut matchers = Vec::new();
    for (((handler, (matcher, rule)), id), keep) in
        handlers.into_iter().zip(raws).zip(ids).zip(keep)
    {
        if keep {
            kept_handlers.push(handler);
            matchers.push(matcher);
            compiled.push(Compiled { rule, identity: id });
        }
    }
    let events = build_index(dialect, &kept_handlers, &matchers);
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    for (alias, canonical) in &options.tool_aliases {
        let rules = dialect.rules();
        let (alias, canonical) = (
            rules.matching().match_name(alias).into_owned(),
            rules.matching().match_name(canonical).into_owned(),
        );
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
/// user's reach; this engine adds that a project's files, which are untrusted content, never
/// switch off anything but the project's own hooks. So:
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
        if !dialect.rules().config().settings_switches() {
            return switches;
        }
        for SourceFile {
            source,
            key_name: display,
            parsed,
            ..
        } in sources
        {
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
fn dedup_domain(handler: &Handler) -> Option<&Source> {
    match handler.source.layer {
        Layer::Managed | Layer::User => None,
        _ => Some(&handler.source),
    }
}
