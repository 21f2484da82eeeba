//! One handler of a group: its type, the fields that type requires, its `if` condition and
//! its timeout, read with the same `Reader` as the rest of the file.

use std::collections::BTreeMap;
use std::time::Duration;

use hook_protocol::{Event, HandlerType, MatchTarget, NonPositiveTimeout};

use super::{RawBroken, RawHandler, Reader};
use crate::diagnostic::Pos;
use crate::handler::{HandlerConfig, OnFailure, timeout_limits};
use crate::matcher::Matcher;
use crate::node::{Kind, Node};
use crate::rule::PermissionRule;

impl Reader<'_> {
    /// One handler. `group` is the enclosing group's matcher (verboo/lime); wuu entries carry
    /// their own `matcher`.
    pub(super) fn handler(
        &mut self,
        node: &Node,
        event: &Event,
        group: Option<(Option<String>, Matcher)>,
        what: &str,
    ) -> Option<RawHandler> {
        let before = self.errors.len();
        let group_matcher = group
            .as_ref()
            .map(|(raw, compiled)| (raw.clone(), compiled.clone()));
        let Some(fields) = self.table(node, what) else {
            let (raw, compiled) = group_matcher.unzip();
            self.broke(before, Some(event), raw.flatten(), compiled, None, node);
            return None;
        };
        let mut type_name: Option<(String, Pos)> = None;
        let mut config = HandlerConfig::new(HandlerType::Command);
        let mut matcher: Option<(String, Pos)> = None;
        let mut timeout: Option<(f64, Pos)> = None;
        let mut condition_pos = None;
        let mut on_failure: Option<&Node> = None;
        for (key, value) in fields {
            let field = format!("{what}.{}", key.name);
            match key.name.as_str() {
                "matcher" if group.is_none() => {
                    matcher = self.string(value, &field).map(|m| (m, value.pos));
                }
                "type" => type_name = self.string(value, &field).map(|t| (t, value.pos)),
                "command" => config.command = self.string(value, &field),
                "commandWindows" => config.command_windows = self.string(value, &field),
                "shell" => config.shell = self.string(value, &field),
                "statusMessage" => config.status_message = self.string(value, &field),
                "onFailure" => on_failure = Some(value),
                "if" => {
                    config.condition = self.string(value, &field);
                    condition_pos = Some(value.pos);
                }
                "url" => config.url = self.string(value, &field),
                "prompt" => config.prompt = self.string(value, &field),
                "model" => config.model = self.string(value, &field),
                "server" => config.server = self.string(value, &field),
                "tool" => config.tool = self.string(value, &field),
                "library" => config.library = self.string(value, &field),
                "args" => config.args = self.strings(value, &field),
                "allowedEnvVars" => config.allowed_env_vars = self.strings(value, &field),
                "async" => config.is_async = self.boolean(value, &field).unwrap_or(false),
                "asyncRewake" => {
                    config.async_rewake = self.boolean(value, &field).unwrap_or(false);
                }
                "continueOnBlock" => {
                    config.continue_on_block = self.boolean(value, &field).unwrap_or(false);
                }
                "timeout" => match value.kind {
                    Kind::Int(n) => timeout = Some((n as f64, value.pos)),
                    Kind::Float(n) => timeout = Some((n, value.pos)),
                    _ => self.mismatch(value, &field, "a number of seconds"),
                },
                "additionalContextLimit" => match value.kind {
                    Kind::Int(n) if n >= 0 => config.additional_context_limit = Some(n as u64),
                    Kind::Int(n) => self.error(
                        value.pos,
                        format!("{field}: expected a number of characters (0 or more), found {n}"),
                    ),
                    _ => self.mismatch(value, &field, "a whole number of characters"),
                },
                "headers" => {
                    if let Some(entries) = self.table(value, &field) {
                        let mut headers = BTreeMap::new();
                        for (k, v) in entries {
                            if let Some(s) = self.string(v, &format!("{field}.{}", k.name)) {
                                headers.insert(k.name.clone(), s);
                            }
                        }
                        config.headers = Some(headers);
                    }
                }
                "input" => {
                    if self.table(value, &field).is_some() {
                        config.input = Some(value.to_json());
                    }
                }
                other => self.warn(key.pos, format!("{what}: unknown field `{other}` ignored")),
            }
        }
        // A field of the wrong type already made this handler fail: say nothing more of it.
        let handler_type = if self.errors.len() > before {
            None
        } else {
            self.handler_type(type_name.as_ref(), node.pos, what)
        };
        let (raw_matcher, mut compiled) = match group_matcher {
            Some((raw, compiled)) => (raw, Some(compiled)),
            None => (matcher.as_ref().map(|(raw, _)| raw.clone()), None),
        };
        let handler = handler_type.and_then(|handler_type| {
            config.handler_type = handler_type;
            if let Some(value) = on_failure {
                config.on_failure = self.on_failure(value, handler_type, what);
            }
            self.required_fields(&config, node.pos, what)?;
            if self.rules().handlers().skips_blank_command()
                && handler_type == HandlerType::Command
                && config
                    .command
                    .as_deref()
                    .is_some_and(|c| c.trim().is_empty())
            {
                // Codex skips a blank command with a warning; so does lime, and reports it.
                let message = format!("{what}.command is blank: this handler is skipped");
                self.warn(node.pos, message.clone());
                self.broken.push(RawBroken {
                    event: Some(event.clone()),
                    matcher: raw_matcher.clone(),
                    compiled: compiled.clone(),
                    handler_type: Some(handler_type),
                    pos: node.pos,
                    error: format!(
                        "{}:{}:{}: {message}",
                        self.path, node.pos.line, node.pos.column
                    ),
                    on_failure: config.on_failure.filter(|_| !config.is_async),
                });
                return None;
            }
            if compiled.is_none() {
                compiled = Some(self.matcher(matcher.as_ref(), event)?);
            }
            let rule = self.condition(&config, condition_pos, event, what);
            config.timeout = timeout.map(|(t, _)| t);
            let timeout = self.timeout(timeout, event, handler_type, what)?;
            Some(RawHandler {
                event: event.clone(),
                matcher: raw_matcher.clone(),
                compiled: compiled.clone()?,
                rule,
                config,
                timeout,
                pos: node.pos,
            })
        });
        if self.errors.len() > before {
            self.broke(
                before,
                Some(event),
                raw_matcher,
                compiled,
                handler_type,
                node,
            );
            return None;
        }
        handler
    }

    /// `onFailure`, as Claude Code reads it: `continue` or `block` on `command` and `http`
    /// (anything else makes the handler invalid, and a miscased `"Block"` says how to write
    /// it); on `mcp_tool` any value but `continue` reads as `block`. On the other types
    /// (`prompt`, `agent`, `native`), where Claude Code ignores it, the engine reads it as on
    /// `command` and honours it: a guard that asked to block when it cannot run (no model
    /// client, a library that does not load) blocks.
    fn on_failure(
        &mut self,
        value: &Node,
        handler_type: HandlerType,
        what: &str,
    ) -> Option<OnFailure> {
        let field = format!("{what}.onFailure");
        let word = match &value.kind {
            Kind::Str(word) => Some(word.as_str()),
            _ => None,
        };
        if handler_type == HandlerType::McpTool {
            return Some(if word == Some("continue") {
                OnFailure::Continue
            } else {
                OnFailure::Block
            });
        }
        match word {
            Some("continue") => Some(OnFailure::Continue),
            Some("block") => Some(OnFailure::Block),
            _ => {
                let hint = match word {
                    Some(word) if word.trim().eq_ignore_ascii_case("block") => {
                        ": write \"block\", in lower case (until then this hook is left out, and the events it guards are blocked)"
                    }
                    Some(word) if word.trim().eq_ignore_ascii_case("continue") => {
                        ": write \"continue\", in lower case"
                    }
                    _ => "",
                };
                self.error(
                    value.pos,
                    format!(
                        "{field}: expected \"continue\" or \"block\", found {}{hint}",
                        value.to_json()
                    ),
                );
                None
            }
        }
    }

    fn handler_type(
        &mut self,
        name: Option<&(String, Pos)>,
        table_pos: Pos,
        what: &str,
    ) -> Option<HandlerType> {
        let allowed = self.rules().handlers().handler_types();
        let expected = allowed
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ");
        let Some((name, pos)) = name else {
            if let Some(implied) = self.rules().handlers().default_handler_type() {
                return Some(implied);
            }
            self.error(
                table_pos,
                format!("{what}: missing field `type` (one of {expected})"),
            );
            return None;
        };
        match allowed.iter().find(|(n, _)| n == name) {
            Some((_, t)) => Some(*t),
            None => {
                self.error(
                    *pos,
                    format!(
                        "{what}.type: unknown {} handler type `{name}`: expected one of {expected}",
                        self.dialect
                    ),
                );
                None
            }
        }
    }

    fn required_fields(&mut self, config: &HandlerConfig, pos: Pos, what: &str) -> Option<()> {
        let missing = match config.handler_type {
            HandlerType::Command if self.rules().handlers().command_windows() => {
                (config.command.is_none() && config.command_windows.is_none())
                    .then_some("`command`")
            }
            HandlerType::Command => config.command.is_none().then_some("`command`"),
            HandlerType::Http => config.url.is_none().then_some("`url`"),
            HandlerType::Prompt | HandlerType::Agent => {
                config.prompt.is_none().then_some("`prompt`")
            }
            HandlerType::McpTool => {
                (config.server.is_none() || config.tool.is_none()).then_some("`server` and `tool`")
            }
            HandlerType::Native => config.library.is_none().then_some("`library`"),
        };
        match missing {
            Some(fields) => {
                let type_name = serde_json::to_value(config.handler_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                self.error(pos, format!("{what}: type `{type_name}` needs {fields}"));
                None
            }
            None => Some(()),
        }
    }

    fn condition(
        &mut self,
        config: &HandlerConfig,
        pos: Option<Pos>,
        event: &Event,
        what: &str,
    ) -> Option<PermissionRule> {
        let (Some(rule), Some(pos)) = (config.condition.as_deref(), pos) else {
            return None;
        };
        if !self.rules().handlers().conditions() {
            self.warn(
                pos,
                format!(
                    "{what}.if: `if` is a verboo field; {} ignores it",
                    self.dialect
                ),
            );
            return None;
        }
        match PermissionRule::parse(rule) {
            Ok(rule) => {
                if event.match_target(self.dialect) != MatchTarget::ToolName {
                    self.warn(
                        pos,
                        format!("{what}.if: {event} has no tool call, so this handler never runs"),
                    );
                }
                Some(rule)
            }
            Err(error) => {
                self.error(pos, format!("{what}.if: {error}"));
                None
            }
        }
    }

    fn timeout(
        &mut self,
        written: Option<(f64, Pos)>,
        event: &Event,
        handler_type: HandlerType,
        what: &str,
    ) -> Option<Duration> {
        let (default, max) = timeout_limits(self.dialect, event, handler_type);
        let seconds = match written {
            None => default,
            Some((t, pos)) if !t.is_finite() => {
                self.error(
                    pos,
                    format!("{what}.timeout: expected a finite number of seconds"),
                );
                return None;
            }
            Some((t, pos)) if t <= 0.0 => match self.rules().handlers().non_positive_timeout() {
                NonPositiveTimeout::OneSecond => {
                    // Codex raises a timeout under one second to one second.
                    self.warn(
                        pos,
                        format!("{what}.timeout: {t} is not positive: 1 s applies (as in Codex)"),
                    );
                    1.0
                }
                NonPositiveTimeout::Default => {
                    self.warn(
                        pos,
                        format!(
                            "{what}.timeout: {t} is not positive: the default {default} s applies"
                        ),
                    );
                    default
                }
                NonPositiveTimeout::Invalid => {
                    self.error(
                        pos,
                        format!("{what}.timeout: expected a positive number of seconds, found {t}"),
                    );
                    return None;
                }
            },
            Some((t, pos)) => match max {
                Some(max) if t > max => {
                    self.warn(
                        pos,
                        format!(
                            "{what}.timeout: {t} s is over the {} maximum of {max} s for {event}: {max} s applies",
                            self.dialect
                        ),
                    );
                    max
                }
                _ => t,
            },
        };
        Some(Duration::from_secs_f64(seconds.min(u32::MAX as f64)))
    }
}
