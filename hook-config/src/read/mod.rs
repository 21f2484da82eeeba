//! Reading a parsed document ([`Node`]) as a dialect's configuration: the `hooks` key, the
//! plugin switches and verboo's two hook settings. Every other key is left alone.

mod handler;

use std::time::Duration;

use hook_protocol::{
    ConfigLayout, Dialect, DialectRules, Event, HandlerType, Layer, MatchTarget, PluginSettings,
    UntargetedMatcher,
};

use crate::diagnostic::{Diagnostic, Pos};
use crate::handler::{HandlerConfig, OnFailure};
use crate::matcher::Matcher;
use crate::node::{Key, Kind, Node};
use crate::rule::PermissionRule;

/// One handler read from a file, before it gets its source and key.
#[derive(Debug, Clone)]
pub(crate) struct RawHandler {
    pub(crate) event: Event,
    pub(crate) matcher: Option<String>,
    pub(crate) compiled: Matcher,
    pub(crate) rule: Option<PermissionRule>,
    pub(crate) config: HandlerConfig,
    pub(crate) timeout: Duration,
    pub(crate) pos: Pos,
}

/// The settings of one file besides its handlers.
#[derive(Debug, Clone, Default)]
pub(crate) struct FileSettings {
    /// Plugin name and whether it is enabled, in file order (user layer only).
    pub(crate) plugins: Vec<(String, bool)>,
    /// verboo `disableAllHooks`.
    pub(crate) disable_all_hooks: Option<bool>,
    /// verboo `allowManagedHooksOnly`.
    pub(crate) allow_managed_hooks_only: Option<bool>,
}

/// A handler, group, event list or document that could not be read: it is left out, and the
/// engine reports it in `runs` as `skipped: invalid`, while everything else of the file loads.
#[derive(Debug, Clone)]
pub(crate) struct RawBroken {
    /// The event it was under; `None` when the whole document (or its `hooks`) is unreadable.
    pub(crate) event: Option<Event>,
    /// The matcher as written, when it was read.
    pub(crate) matcher: Option<String>,
    /// The compiled matcher, when it compiled: a broken handler under a matcher that does not
    /// match an event is not reported for it.
    pub(crate) compiled: Option<Matcher>,
    /// The handler's type, when it was read.
    pub(crate) handler_type: Option<HandlerType>,
    /// Where it starts.
    pub(crate) pos: Pos,
    /// What is wrong, each problem as `file:line:col: message`.
    pub(crate) error: String,
    /// `Some(Block)` when a handler in it asked for `onFailure: "block"`, read leniently: a
    /// guard that cannot be read must not fail open because of the very typo that broke it.
    pub(crate) on_failure: Option<OnFailure>,
}

/// Whether a handler in `node` (a broken handler, group, event list or document) asked for
/// `onFailure: "block"`, read leniently: any `onFailure` whose value is not the string
/// `continue` (in any case) asks for it — `"Block"`, `"blok"`, `true` — except on a handler
/// marked `"async": true`, which never blocks. Depth is bounded by the parser's nesting limit.
pub(crate) fn asks_to_block(node: &Node) -> bool {
    match &node.kind {
        Kind::Array(items) => items.iter().any(asks_to_block),
        Kind::Table(fields) => {
            let is_async = fields
                .iter()
                .any(|(key, value)| key.name == "async" && matches!(value.kind, Kind::Bool(true)));
            let asks_here = fields.iter().any(|(key, value)| {
                key.name.eq_ignore_ascii_case("onFailure")
                    && !matches!(&value.kind, Kind::Str(word) if word.trim().eq_ignore_ascii_case("continue"))
            });
            (asks_here && !is_async) || fields.iter().any(|(_, value)| asks_to_block(value))
        }
        _ => false,
    }
}

/// [`asks_to_block`] for a document that did not parse: whether its text has an `onFailure`
/// (in any case) followed, past quotes, blanks, `:` or `=`, by a word other than `continue`.
/// One pass over the text.
pub(crate) fn text_asks_to_block(text: &str) -> bool {
    const NAME: &[u8] = b"onfailure";
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(found) = bytes[at..]
        .windows(NAME.len())
        .position(|window| window.eq_ignore_ascii_case(NAME))
    {
        let mut rest = &bytes[at + found + NAME.len()..];
        while let [
            b'"' | b'\'' | b' ' | b'\t' | b'\r' | b'\n' | b':' | b'=',
            tail @ ..,
        ] = rest
        {
            rest = tail;
        }
        let word_len = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        if !rest[..word_len].eq_ignore_ascii_case(b"continue") {
            return true;
        }
        at += found + NAME.len();
    }
    false
}

/// A file as read: the handlers that loaded, the ones that could not, and its settings.
#[derive(Debug, Clone, Default)]
pub(crate) struct ParsedFile {
    pub(crate) handlers: Vec<RawHandler>,
    pub(crate) broken: Vec<RawBroken>,
    pub(crate) settings: FileSettings,
}

/// What kind of document is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocKind {
    /// A settings/config file of `layer`.
    Settings(Layer),
    /// A plugin's `hooks/hooks.json`, or a session fragment: only `hooks` is read.
    HooksOnly,
}

/// Whether `name` may name a plugin: the folder `<home>/plugins/<name>/`
/// and its `plugin.json` `name`, made of `[A-Za-z0-9._-]` only, and neither `.` nor `..`, so
/// that it is one path component that can never inject shell text into a command or a key.
pub(crate) fn is_plugin_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Reads `root`. One broken handler, group or event list is left out (in
/// [`ParsedFile::broken`], with an error diagnostic) and the rest of the file loads; a setting
/// of the wrong type is an error and is ignored.
pub(crate) fn read_document(
    dialect: Dialect,
    root: &Node,
    path: &str,
    toml: bool,
    kind: DocKind,
    diagnostics: &mut Vec<Diagnostic>,
) -> ParsedFile {
    let mut reader = Reader {
        dialect,
        path,
        toml,
        diagnostics,
        errors: Vec::new(),
        broken: Vec::new(),
    };
    let mut parsed = ParsedFile::default();
    let Some(entries) = reader.table(root, "the document") else {
        reader.broke(0, None, None, None, None, root);
        parsed.broken = reader.broken;
        return parsed;
    };
    let rules = dialect.rules();
    let plugins = rules.config().plugin_settings();
    let switches = rules.config().settings_switches();
    for (key, value) in entries {
        match (key.name.as_str(), kind) {
            ("hooks", _) => reader.hooks(value, &mut parsed.handlers),
            ("plugins", DocKind::Settings(Layer::User)) if plugins == PluginSettings::Tables => {
                reader.plugin_tables(value, &mut parsed.settings.plugins);
            }
            ("enabledPlugins", DocKind::Settings(Layer::User))
                if plugins == PluginSettings::EnabledFlags =>
            {
                reader.plugin_flags(value, &mut parsed.settings.plugins);
            }
            ("disableAllHooks", DocKind::Settings(_)) if switches => {
                parsed.settings.disable_all_hooks = reader.boolean(value, "disableAllHooks");
            }
            ("allowManagedHooksOnly", DocKind::Settings(layer)) if switches => {
                let flag = reader.boolean(value, "allowManagedHooksOnly");
                if layer == Layer::Managed {
                    parsed.settings.allow_managed_hooks_only = flag;
                } else if flag == Some(true) {
                    reader.warn(
                        key.pos,
                        "allowManagedHooksOnly is only honoured in the managed settings; ignored here",
                    );
                }
            }
            _ => {}
        }
    }
    parsed.broken = reader.broken;
    parsed
}

struct Reader<'a> {
    dialect: Dialect,
    path: &'a str,
    toml: bool,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Every error so far, as `file:line:col: message`: a unit (handler, group...) failed when the
    /// list grew while it was read.
    errors: Vec<String>,
    broken: Vec<RawBroken>,
}

impl Reader<'_> {
    fn rules(&self) -> &'static DialectRules {
        self.dialect.rules()
    }

    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        let message = message.into();
        self.errors.push(format!(
            "{}:{}:{}: {message}",
            self.path, pos.line, pos.column
        ));
        self.diagnostics
            .push(Diagnostic::error(self.path, Some(pos), message));
    }

    /// Records `node` (a handler, group, event list or document) as broken, with the errors
    /// reported since `errors_before`, and whether a handler in it asked for
    /// `onFailure: "block"` ([`asks_to_block`]).
    fn broke(
        &mut self,
        errors_before: usize,
        event: Option<&Event>,
        matcher: Option<String>,
        compiled: Option<Matcher>,
        handler_type: Option<HandlerType>,
        node: &Node,
    ) {
        let error = self.errors[errors_before.min(self.errors.len())..].join("; ");
        self.broken.push(RawBroken {
            event: event.cloned(),
            matcher,
            compiled,
            handler_type,
            pos: node.pos,
            error,
            on_failure: asks_to_block(node).then_some(OnFailure::Block),
        });
    }

    fn warn(&mut self, pos: Pos, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::warning(self.path, Some(pos), message));
    }

    fn type_name(&self, node: &Node) -> &'static str {
        match (&node.kind, self.toml) {
            (Kind::Table(_), false) => "an object",
            _ => node.type_name(),
        }
    }

    fn table_word(&self) -> &'static str {
        if self.toml { "a table" } else { "an object" }
    }

    fn mismatch(&mut self, node: &Node, what: &str, expected: &str) {
        let found = self.type_name(node);
        self.error(
            node.pos,
            format!("{what}: expected {expected}, found {found}"),
        );
    }

    fn table<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [(Key, Node)]> {
        match &node.kind {
            Kind::Table(entries) => Some(entries),
            _ => {
                let word = self.table_word();
                self.mismatch(node, what, word);
                None
            }
        }
    }

    fn array<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &node.kind {
            Kind::Array(items) => Some(items),
            _ => {
                self.mismatch(node, what, "an array");
                None
            }
        }
    }

    fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match &node.kind {
            Kind::Str(s) => Some(s.clone()),
            _ => {
                self.mismatch(node, what, "a string");
                None
            }
        }
    }

    fn boolean(&mut self, node: &Node, what: &str) -> Option<bool> {
        match node.kind {
            Kind::Bool(b) => Some(b),
            _ => {
                self.mismatch(node, what, "true or false");
                None
            }
        }
    }

    fn strings(&mut self, node: &Node, what: &str) -> Option<Vec<String>> {
        let items = self.array(node, what)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.string(item, &format!("{what}[{i}]"))?);
        }
        Some(out)
    }

    /// wuu `"plugins": {"<name>": {"enabled": true}}`, lime `[plugins.<name>] enabled = true`.
    fn plugin_tables(&mut self, node: &Node, out: &mut Vec<(String, bool)>) {
        let Some(entries) = self.table(node, "plugins") else {
            return;
        };
        for (key, value) in entries {
            let what = format!("plugins.{}", key.name);
            let Some(fields) = self.table(value, &what) else {
                continue;
            };
            let enabled = fields
                .iter()
                .find(|(k, _)| k.name == "enabled")
                .and_then(|(_, v)| self.boolean(v, &format!("{what}.enabled")))
                .unwrap_or(false);
            if self.plugin_name(key, "plugins") {
                out.push((key.name.clone(), enabled));
            }
        }
    }

    /// Whether `key` can name a plugin folder ([`is_plugin_name`]); if not, a warning naming it.
    /// A warning, not an error: only that plugin is left out and every hook of the file still
    /// loads (an error means the file's hooks were dropped).
    fn plugin_name(&mut self, key: &Key, table: &str) -> bool {
        if is_plugin_name(&key.name) {
            return true;
        }
        self.diagnostics.push(Diagnostic::warning(
            self.path,
            Some(key.pos),
            format!(
                "{table}: `{}` is not a plugin folder name (letters, digits, `.`, `_` and `-` only, not `.` or `..`); plugin not loaded",
                key.name.escape_debug()
            ),
        ));
        false
    }

    /// verboo `"enabledPlugins": {"<name>": true}`.
    fn plugin_flags(&mut self, node: &Node, out: &mut Vec<(String, bool)>) {
        let Some(entries) = self.table(node, "enabledPlugins") else {
            return;
        };
        for (key, value) in entries {
            if let Some(enabled) = self.boolean(value, &format!("enabledPlugins.{}", key.name))
                && self.plugin_name(key, "enabledPlugins")
            {
                out.push((key.name.clone(), enabled));
            }
        }
    }

    fn hooks(&mut self, node: &Node, out: &mut Vec<RawHandler>) {
        let before = self.errors.len();
        let Some(events) = self.table(node, "hooks") else {
            self.broke(before, None, None, None, None, node);
            return;
        };
        for (key, value) in events {
            if self
                .rules()
                .config()
                .reserved_hooks_keys()
                .contains(&key.name.as_str())
            {
                continue;
            }
            let event = Event::from_name(&key.name);
            if !event.is_known_in(self.dialect) {
                self.warn(
                    key.pos,
                    format!(
                        "unknown {} event `{}`: its hooks are loaded but run only if the agent sends this event",
                        self.dialect, key.name
                    ),
                );
            }
            let what = format!("hooks.{}", key.name);
            let before = self.errors.len();
            let Some(items) = self.array(value, &what) else {
                self.broke(before, Some(&event), None, None, None, value);
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let what = format!("{what}[{i}]");
                match self.rules().config().config_layout() {
                    ConfigLayout::Flat => {
                        if let Some(handler) = self.handler(item, &event, None, &what) {
                            out.push(handler);
                        }
                    }
                    ConfigLayout::Grouped => self.group(item, &event, &what, out),
                }
            }
        }
    }

    /// A verboo/lime group: `{matcher, hooks: [...]}`. A broken group is left out as a whole.
    fn group(&mut self, node: &Node, event: &Event, what: &str, out: &mut Vec<RawHandler>) {
        let before = self.errors.len();
        let Some(fields) = self.table(node, what) else {
            self.broke(before, Some(event), None, None, None, node);
            return;
        };
        let mut matcher = None;
        let mut hooks = None;
        for (key, value) in fields {
            match key.name.as_str() {
                "matcher" => {
                    if let Some(raw) = self.string(value, &format!("{what}.matcher")) {
                        matcher = Some((raw, value.pos));
                    }
                }
                "hooks" => hooks = Some(value),
                other => self.warn(key.pos, format!("{what}: unknown field `{other}` ignored")),
            }
        }
        let raw = matcher.as_ref().map(|(raw, _)| raw.clone());
        let Some(hooks) = hooks else {
            self.error(
                node.pos,
                format!("{what}: missing field `hooks` (an array of handlers)"),
            );
            self.broke(before, Some(event), raw, None, None, node);
            return;
        };
        let compiled = if self.errors.len() > before {
            None
        } else {
            self.matcher(matcher.as_ref(), event)
        };
        let Some(compiled) = compiled else {
            // Its handlers are still read, so that every problem of the file is told at once;
            // none of them loads, and the group is one broken entry.
            if let Kind::Array(items) = &hooks.kind {
                let broken_before = self.broken.len();
                for (i, item) in items.iter().enumerate() {
                    let what = format!("{what}.hooks[{i}]");
                    let _ = self.handler(item, event, Some((raw.clone(), Matcher::All)), &what);
                }
                self.broken.truncate(broken_before);
            }
            self.broke(before, Some(event), raw, None, None, node);
            return;
        };
        let what_hooks = format!("{what}.hooks");
        let Some(items) = self.array(hooks, &what_hooks) else {
            self.broke(before, Some(event), raw, Some(compiled), None, node);
            return;
        };
        let raw = matcher.map(|(raw, _)| raw);
        for (i, item) in items.iter().enumerate() {
            let what = format!("{what_hooks}[{i}]");
            if let Some(handler) =
                self.handler(item, event, Some((raw.clone(), compiled.clone())), &what)
            {
                out.push(handler);
            }
        }
    }

    fn matcher(&mut self, matcher: Option<&(String, Pos)>, event: &Event) -> Option<Matcher> {
        let raw = matcher.map(|(raw, _)| raw.as_str());
        let no_match_value = event.match_target(self.dialect) == MatchTarget::Nothing;
        let ignored = self.rules().matching().untargeted_matcher() == UntargetedMatcher::Ignored;
        if let (Some((raw, pos)), true, true) = (matcher, ignored, no_match_value) {
            // Claude Code and Codex ignore the matcher where the event has no match value, and
            // do not validate it: `"["` on UserPromptSubmit runs the hook.
            if !raw.is_empty() && raw != "*" {
                self.warn(
                    *pos,
                    format!("matcher `{raw}` is ignored: {event} has no match value, so its hooks always run"),
                );
            }
            return Some(Matcher::All);
        }
        // Claude Code drops a context-window suffix from a model-switch matcher, as from the
        // model it is tested against (`hook_protocol::canonical_model`).
        let model_matcher = raw
            .filter(|_| event.match_target(self.dialect) == MatchTarget::ToModel)
            .map(|raw| raw.replace("[1m]", "").replace("[2m]", ""));
        let raw = model_matcher.as_deref().or(raw);
        match Matcher::compile(self.dialect, raw) {
            Ok(compiled) => {
                if let (Some((raw, pos)), false) = (matcher, ignored) {
                    let all = matches!(compiled, Matcher::All);
                    if !all && no_match_value {
                        let dialect = self.dialect;
                        self.warn(
                            *pos,
                            format!(
                                "matcher `{raw}` never matches: {dialect} matchers are tool names and {event} has no tool"
                            ),
                        );
                    }
                }
                Some(compiled)
            }
            Err(error) => {
                let pos = matcher.map_or(Pos { line: 1, column: 1 }, |(_, pos)| *pos);
                self.error(pos, error.to_string());
                None
            }
        }
    }
}
