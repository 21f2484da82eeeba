//! `cargo xtask conformance drift [--floor]`: does the engine still know every hook event and
//! output field of the agents as they ship?
//!
//! Both agents release every few days, and a release can add an event (a guard the relay then
//! cannot evaluate) or an output field (one the relay drops). This reads the hook surface
//! embedded in each installed binary and compares it with the engine's dialect tables:
//!
//! - **Claude Code** (verboo): its list of hook events (the one JavaScript array that holds
//!   `PreToolUse`, `SessionStart` and `PermissionRequest`), the top-level fields of its hook
//!   output schema (the zod object that starts `continue:`), and each event's
//!   `hookSpecificOutput` fields (every zod object that starts `hookEventName:P("Event")`).
//! - **Codex CLI** (lime): its embedded JSON Schemas of command hooks (`<event>.command.input` /
//!   `.output`, draft-07), whose output properties (and `hookSpecificOutput`'s) are its fields,
//!   and the kebab-case list of its hook event names (which also names events without a
//!   command schema).
//!
//! It exits 0 when the engine knows every event and output field the agent has, and 1 naming
//! each one it does not, or each `hookSpecificOutput` the engine would write where the agent has
//! none ([`DELIBERATE`] lists the differences kept on purpose, with the reason). Run it with
//! every agent release; CONFORMANCE.md shows its last result.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hook_protocol::Dialect;
use hook_protocol::schema::SchemaKind;
use serde_json::Value;

use super::agents::{Versions, install};

/// The output fields of one event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Output {
    /// Top-level fields.
    pub(crate) top: BTreeSet<String>,
    /// `hookSpecificOutput`'s fields, without `hookEventName`; `None`: the event has none.
    pub(crate) specific: Option<BTreeSet<String>>,
}

/// An agent's (or the engine's) hook surface.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Surface {
    /// Every hook event.
    pub(crate) events: BTreeSet<String>,
    /// The output of each event that has an output schema.
    pub(crate) outputs: BTreeMap<String, Output>,
}

/// Differences kept on purpose: (dialect, event, field or `""` for the event itself, why).
pub(crate) const DELIBERATE: &[(&str, &str, &str, &str)] = &[
    (
        "lime",
        "PreModelRequest",
        "",
        "not modelled yet: an observe-only hook on every model request attempt, measured (CONFORMANCE.md, \"Codex's model-request hooks\")",
    ),
    (
        "lime",
        "PostModelRequest",
        "",
        "not modelled yet: as PreModelRequest, after each attempt",
    ),
];

/// Runs the comparison for both agents; an error (exit 1) names every difference.
pub(crate) fn run(root: &Path, args: &[&str]) -> Result<()> {
    let floor = match args {
        [] => false,
        ["--floor"] => true,
        _ => bail!("usage: cargo xtask conformance drift [--floor]"),
    };
    let versions = Versions::chosen(floor)?;
    let npm = versions.npm_dir(&root.join("target/conformance"));
    install(&npm, &versions)?;
    let (text, drift) = compare_installed(&npm, &versions)?;
    print!("{text}");
    if drift > 0 {
        bail!("{drift} difference(s) between the agents and the engine's tables (above)");
    }
    Ok(())
}

/// The comparison of the agents installed under `npm` with the engine: its text, and how many
/// of its lines are drift.
pub(crate) fn compare_installed(npm: &Path, versions: &Versions) -> Result<(String, usize)> {
    let modules = npm.join("node_modules");
    let claude_bin = find_binary(&modules.join("@anthropic-ai"), "claude")?;
    let codex_bin = find_binary(&modules.join("@openai"), "codex")?;
    let claude = claude_surface(
        &fs::read(&claude_bin).with_context(|| format!("reading {}", claude_bin.display()))?,
    )?;
    let codex = codex_surface(
        &fs::read(&codex_bin).with_context(|| format!("reading {}", codex_bin.display()))?,
    )?;
    let mut text = String::new();
    let mut drift = 0;
    for (name, version, dialect, surface) in [
        ("Claude Code", &versions.claude, Dialect::Verboo, &claude),
        ("Codex CLI", &versions.codex, Dialect::Lime, &codex),
    ] {
        let found = compare(dialect, surface, &engine_surface(dialect));
        let _ = writeln!(
            text,
            "{name} {version} ({} events) vs {dialect} ({} events):",
            surface.events.len(),
            dialect.events().len()
        );
        for line in &found {
            let _ = writeln!(text, "  {line}");
        }
        drift += found.iter().filter(|l| l.starts_with("drift")).count();
        if found.is_empty() {
            let _ = writeln!(text, "  the engine knows every event and output field");
        }
    }
    Ok((text, drift))
}

/// The first executable file named `name` under `dir` (the platform package npm installed).
fn find_binary(dir: &Path, name: &str) -> Result<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && path.file_name().is_some_and(|n| n == name)
                && fs::read(&path).is_ok_and(|bytes| bytes.starts_with(b"\x7fELF"))
            {
                return Ok(path);
            }
        }
    }
    bail!(
        "no {name} binary under {}: is the agent's platform package installed?",
        dir.display()
    )
}

/// The engine's surface for `dialect`, from its committed output schemas.
pub(crate) fn engine_surface(dialect: Dialect) -> Surface {
    let mut surface = Surface::default();
    for event in dialect.events() {
        surface.events.insert(event.to_string());
        if let Some(schema) = hook_protocol::schema::schema(dialect, event, SchemaKind::Output) {
            surface
                .outputs
                .insert(event.to_string(), schema_output(&schema));
        }
    }
    surface
}

/// The fields of a JSON Schema of a hook output: its properties and `hookSpecificOutput`'s
/// (through `$ref` to `$defs` or `definitions`, or `anyOf`/`oneOf` of them).
fn schema_output(schema: &Value) -> Output {
    let names = |object: &Value| -> BTreeSet<String> {
        object
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| {
                p.keys()
                    .filter(|k| *k != "hookEventName")
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let resolve = |node: &Value| -> Option<Value> {
        let reference = node.get("$ref")?.as_str()?;
        let pointer = reference.strip_prefix('#')?;
        schema.pointer(pointer).cloned()
    };
    let specific = schema
        .pointer("/properties/hookSpecificOutput")
        .and_then(|node| {
            let mut candidates = vec![node.clone()];
            for key in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(items)) = node.get(key) {
                    candidates.extend(items.iter().cloned());
                }
            }
            let objects: Vec<Value> = candidates
                .iter()
                .map(|c| resolve(c).unwrap_or_else(|| c.clone()))
                .filter(|c| c.get("properties").is_some())
                .collect();
            (!objects.is_empty()).then(|| objects.iter().flat_map(&names).collect())
        });
    Output {
        top: names(schema),
        specific,
    }
}

/// What `agent` has that `engine` does not know, each a line starting `drift:` (or
/// `deliberate:` when [`DELIBERATE`] keeps it on purpose); events the engine has and the agent
/// lacks are `note:` lines.
pub(crate) fn compare(dialect: Dialect, agent: &Surface, engine: &Surface) -> Vec<String> {
    let dialect_name = dialect.to_string();
    let kept = |event: &str, field: &str| {
        DELIBERATE
            .iter()
            .find(|(d, e, f, _)| *d == dialect_name && *e == event && *f == field)
            .map(|(_, _, _, why)| *why)
    };
    let mut lines = Vec::new();
    let mut say = |event: &str, field: &str, what: String| {
        lines.push(match kept(event, field) {
            Some(why) => format!("deliberate: {what} ({why})"),
            None => format!("drift: {what}"),
        });
    };
    for event in agent.events.difference(&engine.events) {
        say(
            event,
            "",
            format!("event {event}: the agent has it, the engine does not know it"),
        );
    }
    for (event, theirs) in &agent.outputs {
        let Some(ours) = engine.outputs.get(event) else {
            continue;
        };
        for field in theirs.top.difference(&ours.top) {
            say(
                event,
                field,
                format!("{event} output field `{field}`: the engine does not know it"),
            );
        }
        match (&theirs.specific, &ours.specific) {
            (Some(theirs), Some(ours)) => {
                for field in theirs.difference(ours) {
                    say(
                        event,
                        field,
                        format!(
                            "{event} hookSpecificOutput field `{field}`: the engine does not know it"
                        ),
                    );
                }
            }
            (Some(_), None) => say(
                event,
                "hookSpecificOutput",
                format!("{event} has a hookSpecificOutput: the engine does not read one"),
            ),
            (None, Some(ours)) if !ours.is_empty() => say(
                event,
                "hookSpecificOutput",
                format!(
                    "{event} has no hookSpecificOutput: the engine reads and writes one ({})",
                    ours.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            ),
            _ => {}
        }
    }
    for event in engine.events.difference(&agent.events) {
        lines.push(format!(
            "note: event {event}: the engine knows it, the agent does not have it"
        ));
    }
    lines
}

/// Claude Code's surface, from the JavaScript embedded in its binary.
pub(crate) fn claude_surface(bytes: &[u8]) -> Result<Surface> {
    let text = String::from_utf8_lossy(bytes);
    let events = event_array(&text).context(
        "no list of hook events found in the Claude Code binary (an array holding PreToolUse, SessionStart and PermissionRequest)",
    )?;
    // The zod calls are minified differently from release to release (`u({...})`,
    // `H.object({...})`): objects are found by their first key.
    let top = zod_fields(&text, "({continue:")
        .into_iter()
        .map(|(_, fields)| fields)
        .filter(|fields| {
            ["suppressOutput", "stopReason", "systemMessage", "hookSpecificOutput"]
                .iter()
                .all(|key| fields.contains(*key))
        })
        // Other objects extend the hook output (an SDK callback's answer adds fields): the
        // hook output is the smallest of them.
        .min_by_key(BTreeSet::len)
        .context("no hook output schema (an object starting `{continue:` with `hookSpecificOutput`) found in the Claude Code binary")?;
    let mut specific: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (at, fields) in zod_fields(&text, "({hookEventName:") {
        if let Some(event) = literal_after(&text[at..], "hookEventName:")
            && events.contains(&event)
        {
            specific.entry(event).or_default().extend(fields);
        }
    }
    let mut surface = Surface {
        events: events.iter().cloned().collect(),
        outputs: BTreeMap::new(),
    };
    for event in &events {
        let mut specific = specific.get(event).cloned();
        if let Some(fields) = &mut specific {
            fields.remove("hookEventName");
        }
        surface.outputs.insert(
            event.clone(),
            Output {
                top: top.clone(),
                specific,
            },
        );
    }
    Ok(surface)
}

/// The longest JavaScript array of strings that holds `PreToolUse`, `SessionStart` and
/// `PermissionRequest`: the list of hook events.
fn event_array(text: &str) -> Option<Vec<String>> {
    let mut best: Option<Vec<String>> = None;
    for (at, _) in text.match_indices("[\"PreToolUse\"") {
        let Some(end) = text[at..].find(']') else {
            continue;
        };
        let inner = &text[at + 1..at + end];
        let items: Vec<String> = inner
            .split(',')
            .map(|item| item.trim_matches('"').to_owned())
            .collect();
        let names = items
            .iter()
            .all(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_alphanumeric()));
        let complete = ["SessionStart", "PermissionRequest"]
            .iter()
            .all(|n| items.iter().any(|i| i == n));
        if names && complete && best.as_ref().is_none_or(|b| b.len() < items.len()) {
            best = Some(items);
        }
    }
    best
}

/// The string literal of the call that follows `key` in `text` (`key:P("Stop")` or
/// `key:H.literal("Stop")`): `Stop`.
fn literal_after(text: &str, key: &str) -> Option<String> {
    let rest = &text[text.find(key)? + key.len()..];
    let open = rest.find("(\"")?;
    if !rest[..open]
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
    {
        return None;
    }
    let literal = &rest[open + 2..];
    Some(literal[..literal.find('"')?].to_owned())
}

/// The keys of every object literal that starts with `opening` (`({key:`, where the first key
/// is part of `opening`), read to its closing brace with nesting and strings skipped, each with
/// the offset of its `{`.
fn zod_fields(text: &str, opening: &str) -> Vec<(usize, BTreeSet<String>)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (at, _) in text.match_indices(opening) {
        // Start at the object's `{`.
        let start = at + 1;
        let mut keys = BTreeSet::new();
        let mut depth = 0usize;
        let mut expecting_key = true;
        let mut key_start = None;
        let mut index = start;
        let mut closed = false;
        while index < bytes.len() && index < start + 20_000 {
            let byte = bytes[index];
            match byte {
                b'"' | b'\'' | b'`' => {
                    // A string: skip to its unescaped end.
                    index += 1;
                    while index < bytes.len() && bytes[index] != byte {
                        if bytes[index] == b'\\' {
                            index += 1;
                        }
                        index += 1;
                    }
                }
                b'{' | b'(' | b'[' => {
                    depth += 1;
                    if depth == 1 {
                        expecting_key = true;
                        key_start = Some(index + 1);
                    }
                }
                b'}' | b')' | b']' => {
                    if depth == 1 {
                        closed = true;
                        break;
                    }
                    depth = depth.saturating_sub(1);
                }
                b',' if depth == 1 => {
                    expecting_key = true;
                    key_start = Some(index + 1);
                }
                b':' if depth == 1 && expecting_key => {
                    if let Some(from) = key_start {
                        let key = text[from..index].trim();
                        if !key.is_empty()
                            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        {
                            keys.insert(key.to_owned());
                        }
                    }
                    expecting_key = false;
                }
                _ => {}
            }
            index += 1;
        }
        if closed && !keys.is_empty() {
            found.push((start, keys));
        }
    }
    found
}

/// Codex's surface, from the JSON Schemas and the event names embedded in its binary.
pub(crate) fn codex_surface(bytes: &[u8]) -> Result<Surface> {
    let mut surface = Surface::default();
    let marker = b"json-schema.org/draft-07";
    let mut from = 0;
    while let Some(offset) = find(&bytes[from..], marker) {
        let at = from + offset;
        from = at + marker.len();
        let Some(schema) = schema_around(bytes, at) else {
            continue;
        };
        let Some(title) = schema.get("title").and_then(Value::as_str) else {
            continue;
        };
        let Some((kebab, kind)) = title
            .strip_suffix(".command.input")
            .map(|k| (k, "input"))
            .or_else(|| title.strip_suffix(".command.output").map(|k| (k, "output")))
        else {
            continue;
        };
        let event = pascal(kebab);
        surface.events.insert(event.clone());
        if kind == "output" {
            surface.outputs.insert(event, schema_output(&schema));
        }
    }
    if surface.events.is_empty() {
        bail!("no command hook schemas (`*.command.input`) found in the Codex binary");
    }
    for kebab in kebab_events(bytes, &surface.events) {
        surface.events.insert(pascal(&kebab));
    }
    Ok(surface)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The JSON object around `at` (the `$schema` value of a schema), read from the nearest `{`
/// before it that starts a whole object.
fn schema_around(bytes: &[u8], at: usize) -> Option<Value> {
    let floor = at.saturating_sub(4096);
    let mut start = at;
    while start > floor {
        start -= 1;
        if bytes[start] != b'{' {
            continue;
        }
        let mut stream = serde_json::Deserializer::from_slice(&bytes[start..]).into_iter::<Value>();
        if let Some(Ok(value)) = stream.next()
            && value.get("$schema").is_some()
        {
            return Some(value);
        }
    }
    None
}

/// `pre-tool-use` as `PreToolUse`.
fn pascal(kebab: &str) -> String {
    kebab
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Codex's event names in kebab case, from the run of them its binary holds back to back
/// (`pre-tool-usepermission-request...`): split with the words of the events it has schemas
/// for, an event starting only with a first word of one of them (`pre`, `post`, `session`...).
pub(crate) fn kebab_events(bytes: &[u8], known: &BTreeSet<String>) -> Vec<String> {
    let kebab_known: Vec<String> = known.iter().map(|e| kebab(e)).collect();
    let words: BTreeSet<&str> = kebab_known.iter().flat_map(|k| k.split('-')).collect();
    let firsts: BTreeSet<&str> = kebab_known
        .iter()
        .filter_map(|k| k.split('-').next())
        .collect();
    let text = String::from_utf8_lossy(bytes);
    let mut best: Vec<String> = Vec::new();
    for (at, _) in text.match_indices("pre-tool-use") {
        let run: String = text[at..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        let events = split_run(&run, &words, &firsts);
        if events.len() > best.len() {
            best = events;
        }
    }
    best
}

/// `PreToolUse` as `pre-tool-use`.
fn kebab(pascal: &str) -> String {
    let mut out = String::new();
    for (i, c) in pascal.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits a run of back-to-back kebab names: each starts with one of `firsts`; a word is one of
/// `words` when one fits, else the letters up to the next `-`.
fn split_run(run: &str, words: &BTreeSet<&str>, firsts: &BTreeSet<&str>) -> Vec<String> {
    let mut events = Vec::new();
    let mut rest = run;
    'events: while let Some(first) = firsts
        .iter()
        .filter(|f| rest.starts_with(**f))
        .max_by_key(|f| f.len())
    {
        let mut name = (*first).to_owned();
        rest = &rest[first.len()..];
        while let Some(after) = rest.strip_prefix('-') {
            let word = words
                .iter()
                .filter(|w| after.starts_with(**w))
                .max_by_key(|w| w.len())
                .map(|w| (*w).to_owned())
                .unwrap_or_else(|| after.split('-').next().unwrap_or_default().to_owned());
            if word.is_empty() {
                break 'events;
            }
            name.push('-');
            name.push_str(&word);
            rest = &after[word.len()..];
        }
        events.push(name);
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Claude Code-like fixture: three events, a top-level output object, and two events'
    /// `hookSpecificOutput` objects, one with a field the engine does not know.
    const CLAUDE_FIXTURE: &str = r#"xx=["PreToolUse","SessionStart","PermissionRequest","PreTeleport"],y=1;
        IF=p(()=>u({continue:M().optional(),suppressOutput:M().optional(),stopReason:r().optional(),systemMessage:r().optional(),reason:r().optional(),hookSpecificOutput:dt([a(),b()]).optional()}));
        XF=p(()=>u({continue:M().optional(),suppressOutput:M().optional(),stopReason:r().optional(),systemMessage:r().optional(),reason:r().optional(),hookSpecificOutput:dt([a(),b()]).optional(),sdkOnly:r()}));
        cF=p(()=>u({hookEventName:P("PreToolUse"),permissionDecision:U(["allow","deny"]).optional(),teleportTo:r().describe("a, b: {c}").optional()}));
        pF=p(()=>u({hookEventName:P("SessionStart"),additionalContext:r().optional()}));"#;

    /// The same shapes as an earlier release minified them (`H.object`, `H.literal`).
    const OLDER_FIXTURE: &str = r#"a=["PreToolUse","SessionStart","PermissionRequest"];
        mOm=ve(()=>H.object({continue:H.boolean().optional(),suppressOutput:H.boolean().optional(),stopReason:H.string().optional(),systemMessage:H.string().optional(),hookSpecificOutput:H.union([x]).optional()}));
        q=H.object({hookEventName:H.literal("SessionStart"),additionalContext:H.string().optional()});"#;

    #[test]
    fn an_older_minification_is_read_too() {
        let surface = claude_surface(OLDER_FIXTURE.as_bytes()).unwrap();
        let start = &surface.outputs["SessionStart"];
        assert_eq!(
            start.top.iter().cloned().collect::<Vec<_>>(),
            [
                "continue",
                "hookSpecificOutput",
                "stopReason",
                "suppressOutput",
                "systemMessage"
            ]
        );
        assert_eq!(
            start
                .specific
                .clone()
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            ["additionalContext"]
        );
    }

    #[test]
    fn claude_code_surface_is_read_from_its_javascript() {
        let surface = claude_surface(CLAUDE_FIXTURE.as_bytes()).unwrap();
        assert_eq!(
            surface.events.iter().cloned().collect::<Vec<_>>(),
            [
                "PermissionRequest",
                "PreTeleport",
                "PreToolUse",
                "SessionStart"
            ]
        );
        let pre = &surface.outputs["PreToolUse"];
        assert_eq!(
            pre.top.iter().cloned().collect::<Vec<_>>(),
            [
                "continue",
                "hookSpecificOutput",
                "reason",
                "stopReason",
                "suppressOutput",
                "systemMessage"
            ]
        );
        assert_eq!(
            pre.specific
                .clone()
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            ["permissionDecision", "teleportTo"]
        );
        assert_eq!(surface.outputs["PermissionRequest"].specific, None);
    }

    /// The engine's own tables agree with themselves; an event taken out of them, a field it
    /// lacks, and a `hookSpecificOutput` it writes where the agent has none are each named.
    #[test]
    fn drift_names_each_event_and_field_the_engine_lacks() {
        let engine = engine_surface(Dialect::Verboo);
        assert!(compare(Dialect::Verboo, &engine, &engine).is_empty());

        let mut missing_event = engine.clone();
        missing_event.events.remove("PreSkillShellCommand");
        let found = compare(Dialect::Verboo, &engine, &missing_event);
        assert_eq!(
            found,
            ["drift: event PreSkillShellCommand: the agent has it, the engine does not know it"]
        );

        let agent = claude_surface(CLAUDE_FIXTURE.as_bytes()).unwrap();
        let found = compare(Dialect::Verboo, &agent, &engine);
        assert!(
            found.contains(
                &"drift: event PreTeleport: the agent has it, the engine does not know it"
                    .to_owned()
            ),
            "{found:?}"
        );
        assert!(
            found.contains(&"drift: PreToolUse hookSpecificOutput field `teleportTo`: the engine does not know it".to_owned()),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|l| l.starts_with("drift: PermissionRequest has no hookSpecificOutput")),
            "{found:?}"
        );
    }

    #[test]
    fn codex_event_names_are_split_from_their_run() {
        let known: BTreeSet<String> = [
            "PreToolUse",
            "PermissionRequest",
            "PostToolUse",
            "SessionStart",
            "Stop",
        ]
        .map(str::to_owned)
        .into();
        let bytes = b"\x00abcpre-tool-usepermission-requestpost-tool-usesession-startstoppre-model-requestpost-model-requestinternal\x00";
        assert_eq!(
            kebab_events(bytes, &known),
            [
                "pre-tool-use",
                "permission-request",
                "post-tool-use",
                "session-start",
                "stop",
                "pre-model-request",
                "post-model-request"
            ]
        );
    }
}
