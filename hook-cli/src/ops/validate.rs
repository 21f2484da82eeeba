//! `hook validate`: one hook output checked against its dialect's schema, and a hooks
//! configuration file read as the loader reads it.

use std::path::Path;

use anyhow::{Result, bail};
use hook_config::FileHooks;
use hook_protocol::{
    Dialect, Event, HandlerType, RelayAgent, UnknownField, ValidateError, output,
    unknown_output_fields, validate_output,
};

use super::input::known_event;

/// One hook output, checked.
#[derive(Debug)]
pub(crate) struct OutputCheck {
    /// The event it was checked for (given, or named by the output).
    pub(crate) event: Event,
    /// The schema's verdict.
    pub(crate) result: Result<(), ValidateError>,
    /// Fields the dialect does not define (ignored by wuu and verboo).
    pub(crate) warnings: Vec<UnknownField>,
}

impl OutputCheck {
    /// Whether the check fails: an invalid output, or warnings under `strict`.
    pub(crate) fn failed(&self, strict: bool) -> bool {
        self.result.is_err() || (strict && !self.warnings.is_empty())
    }
}

/// Checks `bytes` as `dialect`'s output for `event` (`None`: the event the output names in
/// `hookSpecificOutput.hookEventName`).
pub(crate) fn check_output(
    dialect: Dialect,
    event: Option<&str>,
    bytes: &[u8],
) -> Result<OutputCheck> {
    // Parsed once here for the event and the warnings; `validate_output` reports a document
    // that is not JSON with its position.
    let parsed: Option<serde_json::Value> = serde_json::from_slice(bytes).ok();
    let event = match (event, parsed.as_ref().and_then(output::named_event)) {
        (Some(name), _) | (None, Some(name)) => known_event(dialect, name)?,
        (None, None) => bail!(
            "--event is required to check an output that names no \
             hookSpecificOutput.hookEventName"
        ),
    };
    let result = validate_output(dialect, &event, bytes);
    let warnings = match &parsed {
        Some(value) => unknown_output_fields(dialect, &event, value)?,
        None => Vec::new(),
    };
    Ok(OutputCheck {
        event,
        result,
        warnings,
    })
}

/// A hooks configuration file, read as the loader reads it.
#[derive(Debug)]
pub(crate) struct ConfigCheck {
    /// Its hooks and diagnostics.
    pub(crate) hooks: FileHooks,
    /// When the file is an agent's own settings file: that agent, and the `native` handlers in
    /// it, which the agent does not run (it would ignore or refuse the whole file).
    pub(crate) foreign: Option<(RelayAgent, Vec<usize>)>,
}

/// Reads a configuration file's hooks (`hook_config::read_hooks_file`: a regular file of at
/// most 8 MiB, UTF-8, bounded nesting, 64-bit TOML integers), so a file `hook list` or
/// `hook run` would skip is never reported valid.
pub(crate) fn read_config(dialect: Dialect, file: &Path) -> Result<FileHooks> {
    if file.is_dir() {
        bail!(
            "{} is a directory: give the configuration file",
            file.display()
        );
    }
    Ok(hook_config::read_hooks_file(dialect, file)?)
}

/// `hook validate --config FILE`: the file's hooks and, for an agent's own settings file, the
/// handlers that agent would not run (indexes into `hooks.hooks`).
pub(crate) fn check_config(dialect: Dialect, file: &Path) -> Result<ConfigCheck> {
    let hooks = read_config(dialect, file)?;
    let foreign = agent_owning(dialect, file).map(|agent| {
        let native = hooks
            .hooks
            .iter()
            .enumerate()
            .filter(|(_, hook)| hook.config.handler_type == HandlerType::Native)
            .map(|(index, _)| index)
            .collect();
        (agent, native)
    });
    Ok(ConfigCheck { hooks, foreign })
}

/// The agent that reads `file` itself, when it is that agent's own settings file (under its
/// folder, `.claude` or `.codex`, or the folder its variable names), not the relay's.
fn agent_owning(dialect: Dialect, file: &Path) -> Option<RelayAgent> {
    let agent = *dialect.rules().agent().relay()?;
    let file = file.canonicalize().ok()?;
    let parent = file.parent()?;
    let named = file.file_name()?.to_str()?;
    let settings_file =
        named == agent.config_file || named.replace(".local.", ".") == agent.config_file;
    let in_home = parent.file_name().is_some_and(|d| d == agent.home_dir)
        || std::env::var_os(agent.home_env)
            .filter(|v| !v.is_empty())
            .and_then(|home| Path::new(&home).canonicalize().ok())
            .is_some_and(|home| home == parent);
    (settings_file && in_home).then_some(agent)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::Scene;

    /// (dialect, --event, output, the event checked, valid, warnings, fails --strict)
    type OutputCase<'a> = (
        Dialect,
        Option<&'a str>,
        &'a str,
        &'a str,
        bool,
        usize,
        bool,
    );

    #[test]
    fn outputs_are_checked_for_the_event_given_or_named() {
        let table: &[OutputCase] = &[
            (
                Dialect::Lime,
                Some("Stop"),
                r#"{"decision":"block","reason":"go on"}"#,
                "Stop",
                true,
                0,
                false,
            ),
            (
                Dialect::Lime,
                Some("Stop"),
                r#"{"decision":"maybe"}"#,
                "Stop",
                false,
                0,
                true,
            ),
            (
                Dialect::Lime,
                Some("Stop"),
                "not json",
                "Stop",
                false,
                0,
                true,
            ),
            (
                Dialect::Verboo,
                None,
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
                "PreToolUse",
                true,
                0,
                false,
            ),
            (
                Dialect::Verboo,
                Some("PreToolUse"),
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}"#,
                "PreToolUse",
                true,
                1,
                true,
            ),
        ];
        for (dialect, event, output, checked, valid, warnings, strict_fails) in table {
            let check = check_output(*dialect, *event, output.as_bytes()).unwrap();
            assert_eq!(check.event.as_str(), *checked, "{output}");
            assert_eq!(check.result.is_ok(), *valid, "{output}: {:?}", check.result);
            assert_eq!(check.warnings.len(), *warnings, "{output}");
            assert_eq!(check.failed(false), !valid, "{output}");
            assert_eq!(check.failed(true), *strict_fails, "{output}");
        }
    }

    #[test]
    fn an_output_naming_no_event_or_an_unknown_one_is_an_error() {
        let none = check_output(Dialect::Verboo, None, b"{}").unwrap_err();
        assert!(none.to_string().contains("--event is required"), "{none}");
        let unknown = check_output(Dialect::Lime, Some("Notification"), b"{}").unwrap_err();
        assert!(
            unknown
                .to_string()
                .starts_with("unknown lime event `Notification`"),
            "{unknown}"
        );
    }

    #[test]
    fn an_agents_own_settings_file_may_not_hold_native_handlers() {
        let scene = Scene::new();
        let native = r#"{"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "exit 0"},
            {"type": "native", "library": "/x/libguard.so"}]}]}}"#;
        let own = scene.write("project/.claude/settings.json", native);
        let relay = scene.write("project/.claude/hook-relay/settings.json", native);
        let check = check_config(Dialect::Verboo, &own).unwrap();
        let (agent, handlers) = check.foreign.unwrap();
        assert_eq!(agent.name, "Claude Code");
        assert_eq!(handlers, [1]);
        let check = check_config(Dialect::Verboo, &relay).unwrap();
        assert!(
            check.foreign.is_none(),
            "the relay's file is the engine's own"
        );
        assert!(check_config(Dialect::Verboo, &scene.project()).is_err());
    }
}
