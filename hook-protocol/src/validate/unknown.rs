//! Fields an output has that its dialect does not define where they appear (feature
//! `validate`), read from the committed output schema of the event: the one list of known
//! fields, walked with the output.
//!
//! wuu and verboo ignore such fields, as the agents they are modelled on do, so they are not
//! errors; but a misspelt field (`permisionDecision`) is a decision silently lost, so
//! `hook validate` reports each one as a warning with the closest known field. lime's schemas
//! forbid unknown fields (`additionalProperties: false`): there they are errors of
//! [`validate_output`](crate::validate_output), never warnings.

use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

use serde_json::Value;

use super::error::{ValidateError, unknown_event};
use crate::json_path::{display_pointer, push_token};
use crate::schema::{SchemaKind, schema};
use crate::{Dialect, Event};

/// A field of a hook output that its dialect does not define where it appears: the agent
/// ignores it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownField {
    /// JSON pointer of the field, e.g. `/hookSpecificOutput/permisionDecision`.
    pub pointer: String,
    /// The field's name as written.
    pub name: String,
    /// The known field at the same place whose spelling is closest, when one is close (a small
    /// edit distance, ignoring case and `_`): what the author probably meant.
    pub suggestion: Option<String>,
}

impl std::fmt::Display for UnknownField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: unknown field `{}` is ignored",
            display_pointer(&self.pointer),
            self.name
        )?;
        if let Some(suggestion) = &self.suggestion {
            write!(f, " (did you mean `{suggestion}`?)")?;
        }
        Ok(())
    }
}

/// Every field of `value` that the output schema of `event` in `dialect` does not define where
/// it appears but allows (the agent ignores it), in JSON pointer order, each with the closest
/// known field when one is close.
///
/// Objects the schema describes are walked: the top level, `hookSpecificOutput`, verboo's
/// `PermissionRequest` `decision`. Free-form values (`updatedInput`, ...) are not. lime
/// forbids unknown fields, so it never has any here: [`validate_output`](crate::validate_output)
/// reports them as errors.
///
/// ```
/// use hook_protocol::{Dialect, Event, unknown_output_fields};
///
/// let output = serde_json::json!({"hookSpecificOutput": {
///     "hookEventName": "PreToolUse", "permisionDecision": "deny"}});
/// let unknown = unknown_output_fields(Dialect::Verboo, &Event::PreToolUse, &output).unwrap();
/// assert_eq!(unknown[0].pointer, "/hookSpecificOutput/permisionDecision");
/// assert_eq!(unknown[0].suggestion.as_deref(), Some("permissionDecision"));
/// ```
///
/// # Errors
///
/// [`ValidateError::UnknownEvent`] when `dialect` does not know `event`.
pub fn unknown_output_fields(
    dialect: Dialect,
    event: &Event,
    value: &Value,
) -> Result<Vec<UnknownField>, ValidateError> {
    let root = output_schema(dialect, event).ok_or_else(|| unknown_event(dialect, event))?;
    let mut found = Vec::new();
    walk(root, root, value, String::new(), &mut found);
    found.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    Ok(found)
}

/// A parsed output schema, once it was asked for.
type SchemaSlot = OnceLock<Option<Value>>;

/// One slot per known (dialect, event): its output schema, parsed on first use (the engine
/// asks on every wuu and verboo output).
static OUTPUT_SCHEMAS: LazyLock<HashMap<(Dialect, Event), SchemaSlot>> = LazyLock::new(|| {
    Dialect::ALL
        .into_iter()
        .flat_map(|dialect| {
            dialect
                .events()
                .iter()
                .map(move |event| ((dialect, event.clone()), OnceLock::new()))
        })
        .collect()
});

/// The output schema of `event` in `dialect`, or `None` if the dialect does not know it.
pub(super) fn output_schema(dialect: Dialect, event: &Event) -> Option<&'static Value> {
    OUTPUT_SCHEMAS
        .get(&(dialect, event.clone()))?
        .get_or_init(|| schema(dialect, event, SchemaKind::Output))
        .as_ref()
}

/// The engine's warning for an unknown field: `unknown field `extra` ignored`, with where it is
/// when it is not at the top level and the field probably meant.
pub(crate) fn warning(field: &UnknownField) -> String {
    let mut text = format!("unknown field `{}` ignored", field.name);
    let parent = field
        .pointer
        .rsplit_once('/')
        .map_or("", |(parent, _)| parent);
    if !parent.is_empty() {
        text.push_str(&format!(" in {parent}"));
    }
    if let Some(suggestion) = &field.suggestion {
        text.push_str(&format!(" (did you mean `{suggestion}`?)"));
    }
    text
}

/// How deep `$ref`s and `anyOf`s are followed: far more than any generated schema nests.
const MAX_DEPTH: usize = 16;

/// The properties an object schema defines (with their schemas), and whether it forbids
/// others.
#[derive(Default)]
struct Shape<'s> {
    properties: Vec<(&'s str, &'s Value)>,
    closed: bool,
}

fn walk(root: &Value, node: &Value, value: &Value, pointer: String, found: &mut Vec<UnknownField>) {
    let Some(object) = value.as_object() else {
        return;
    };
    let mut shape = Shape::default();
    describe(root, node, &mut shape, 0);
    if shape.properties.is_empty() {
        // A free-form value: nothing is unknown in it.
        return;
    }
    for (key, child) in object {
        let mut child_pointer = pointer.clone();
        push_token(&mut child_pointer, key);
        match shape.properties.iter().find(|(name, _)| name == key) {
            Some((_, child_schema)) => walk(root, child_schema, child, child_pointer, found),
            None if !shape.closed => found.push(UnknownField {
                pointer: child_pointer,
                name: key.clone(),
                suggestion: closest(key, shape.properties.iter().map(|(name, _)| *name))
                    .map(str::to_owned),
            }),
            None => {}
        }
    }
}

/// Gathers the properties `node` defines, following local `$ref`s and the branches of
/// `anyOf`, `oneOf` and `allOf` (an optional object is `anyOf: [{$ref}, {type: null}]`).
fn describe<'s>(root: &'s Value, node: &'s Value, shape: &mut Shape<'s>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(target) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        describe(root, target, shape, depth + 1);
    }
    if let Some(properties) = node.get("properties").and_then(Value::as_object) {
        for (name, schema) in properties {
            if !shape.properties.iter().any(|(known, _)| known == name) {
                shape.properties.push((name, schema));
            }
        }
    }
    if node.get("additionalProperties") == Some(&Value::Bool(false)) {
        shape.closed = true;
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        for branch in node
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            describe(root, branch, shape, depth + 1);
        }
    }
}

/// The known name closest to `name`, if it is close: at most one edit per four letters (at
/// least one, at most three), comparing without case and `_`, a swap of two neighbours
/// counting as one edit. Ties go to the first known name.
pub(super) fn closest<'k>(name: &str, known: impl Iterator<Item = &'k str>) -> Option<&'k str> {
    let wanted = normalize(name);
    known
        .filter_map(|candidate| {
            let normalized = normalize(candidate);
            let limit = (normalized.len() / 4).clamp(1, 3);
            let distance = edit_distance(&wanted, &normalized);
            (distance <= limit).then_some((distance, candidate))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn normalize(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// two neighbours.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in rows.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[(i - 1) * width + j] + 1)
                .min(rows[i * width + j - 1] + 1)
                .min(rows[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[(i - 2) * width + j - 2] + 1);
            }
            rows[i * width + j] = best;
        }
    }
    rows[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance(&chars("decison"), &chars("decision")), 1);
        assert_eq!(edit_distance(&chars("contniue"), &chars("continue")), 1);
        assert_eq!(edit_distance(&chars(""), &chars("abc")), 3);
        assert_eq!(edit_distance(&chars("kitten"), &chars("sitting")), 3);
    }

    #[test]
    fn only_close_names_are_suggested() {
        let known = ["decision", "reason", "continue", "additional_context"];
        assert_eq!(closest("decison", known.into_iter()), Some("decision"));
        assert_eq!(closest("Reason", known.into_iter()), Some("reason"));
        assert_eq!(
            closest("additionalContext", known.into_iter()),
            Some("additional_context")
        );
        assert_eq!(closest("unknownField", known.into_iter()), None);
        assert_eq!(closest("why", known.into_iter()), None);
    }

    #[test]
    fn verboo_typos_are_found_where_they_are() {
        let output = json!({
            "decison": "block",
            "reason": "r",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permisionDecision": "deny",
                "updatedInput": {"anything": 1}
            }
        });
        let found = unknown_output_fields(Dialect::Verboo, &Event::PreToolUse, &output).unwrap();
        let found: Vec<(&str, Option<&str>)> = found
            .iter()
            .map(|f| (f.pointer.as_str(), f.suggestion.as_deref()))
            .collect();
        assert_eq!(
            found,
            [
                ("/decison", Some("decision")),
                (
                    "/hookSpecificOutput/permisionDecision",
                    Some("permissionDecision")
                ),
            ]
        );
    }

    #[test]
    fn permission_request_decisions_are_walked() {
        let output = json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "mesage": "no"}
        }});
        let found =
            unknown_output_fields(Dialect::Verboo, &Event::PermissionRequest, &output).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/hookSpecificOutput/decision/mesage");
        assert_eq!(found[0].suggestion.as_deref(), Some("message"));
        assert_eq!(
            found[0].to_string(),
            "/hookSpecificOutput/decision/mesage: unknown field `mesage` is ignored (did you mean `message`?)"
        );
    }

    #[test]
    fn wuu_warns_and_lime_never_does() {
        let output = json!({"decison": "block", "additionalContext": "x", "zzz~/": 1});
        let found = unknown_output_fields(Dialect::Wuu, &Event::PreToolUse, &output).unwrap();
        let found: Vec<(&str, Option<&str>)> = found
            .iter()
            .map(|f| (f.pointer.as_str(), f.suggestion.as_deref()))
            .collect();
        assert_eq!(
            found,
            [
                ("/additionalContext", Some("additional_context")),
                ("/decison", Some("decision")),
                ("/zzz~0~1", None),
            ]
        );
        let found = unknown_output_fields(Dialect::Lime, &Event::Stop, &output).unwrap();
        assert_eq!(found, []);
    }

    #[test]
    fn an_unknown_event_is_an_error() {
        let error = unknown_output_fields(Dialect::Wuu, &Event::Interrupt, &json!({}));
        assert!(matches!(error, Err(ValidateError::UnknownEvent { .. })));
    }
}
