//! The committed schemas checked without `jsonschema`: a reader of the subset of JSON Schema
//! (draft 2020-12) they use, so an engine built without the `validate` feature gives lime output
//! the same verdict as one built with it.
//!
//! Supported: `$ref` (to `#/...` inside the same document), `type`, `const`, `enum`, `pattern`
//! (`\S` only, the one pattern the schemas use), `properties`, `additionalProperties`,
//! `required`, `dependentRequired`, `not`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`; the
//! annotations (`title`, `description`, `$schema`, `$id`, `$defs`, `default`, `examples`) are
//! skipped. A test walks every committed lime output schema and fails on any other keyword or
//! pattern, and compares this reader's verdicts with jsonschema's on thousands of outputs.

use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

use serde_json::{Map, Value};

use super::OutputIssue;
use crate::schema::{SchemaKind, schema};
use crate::{Dialect, Event};

/// The keywords [`Validator`] reads; any other keyword is an annotation it skips.
#[cfg(test)]
pub(crate) const SUPPORTED: &[&str] = &[
    "$ref",
    "type",
    "const",
    "enum",
    "pattern",
    "properties",
    "additionalProperties",
    "required",
    "dependentRequired",
    "not",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "title",
    "description",
    "$schema",
    "$id",
    "$defs",
    "default",
    "examples",
];

/// One committed schema, ready to check values against.
pub(crate) struct Validator {
    root: Value,
}

use super::{SchemaKey as Key, schema_slots};

/// One slot per known (dialect, kind, event), read on first use.
static VALIDATORS: LazyLock<HashMap<Key, OnceLock<Validator>>> = LazyLock::new(schema_slots);

/// The validator of one committed schema, or `None` if the dialect does not know the event.
pub(crate) fn validator(
    dialect: Dialect,
    event: &Event,
    kind: SchemaKind,
) -> Option<&'static Validator> {
    let slot = VALIDATORS.get(&(dialect, kind, event.clone()))?;
    Some(slot.get_or_init(|| Validator {
        root: schema(dialect, event, kind).expect("a slot exists only for known events"),
    }))
}

/// Every problem of `value` against `validator`'s schema (no hints: those need jsonschema's
/// error kinds).
pub(crate) fn issues(
    _: Dialect,
    _: &Event,
    validator: &Validator,
    value: &Value,
) -> Vec<OutputIssue> {
    let mut found = Vec::new();
    validator.check(&validator.root, value, "", &mut found);
    found
}

impl Validator {
    /// Whether `value` matches the schema.
    #[cfg(test)]
    pub(crate) fn is_valid(&self, value: &Value) -> bool {
        self.valid(&self.root, value)
    }

    fn valid(&self, schema: &Value, value: &Value) -> bool {
        let mut found = Vec::new();
        self.check(schema, value, "", &mut found);
        found.is_empty()
    }

    fn check(&self, schema: &Value, value: &Value, pointer: &str, found: &mut Vec<OutputIssue>) {
        let schema = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                return issue(found, pointer, "no value is allowed here".to_owned());
            }
            Value::Object(schema) => schema,
            _ => return,
        };
        if let Some(Value::String(reference)) = schema.get("$ref") {
            match reference
                .strip_prefix('#')
                .and_then(|path| self.root.pointer(path))
            {
                Some(target) => self.check(target, value, pointer, found),
                None => issue(
                    found,
                    pointer,
                    format!("unresolvable reference {reference}"),
                ),
            }
        }
        if let Some(expected) = schema.get("type")
            && !type_matches(expected, value)
        {
            issue(found, pointer, format!("{value} is not of type {expected}"));
        }
        if let Some(expected) = schema.get("const")
            && !same(expected, value)
        {
            issue(found, pointer, format!("{expected} was expected"));
        }
        if let Some(Value::Array(options)) = schema.get("enum")
            && !options.iter().any(|option| same(option, value))
        {
            issue(found, pointer, format!("{value} is not one of {options:?}"));
        }
        if let (Some(Value::String(pattern)), Value::String(text)) = (schema.get("pattern"), value)
            && !pattern_matches(pattern, text)
        {
            issue(
                found,
                pointer,
                format!("{value} does not match {pattern:?}"),
            );
        }
        if let Value::Object(object) = value {
            self.check_object(schema, object, pointer, found);
        }
        if let Some(Value::Array(all)) = schema.get("allOf") {
            for each in all {
                self.check(each, value, pointer, found);
            }
        }
        if let Some(Value::Array(any)) = schema.get("anyOf")
            && !any.iter().any(|each| self.valid(each, value))
        {
            issue(
                found,
                pointer,
                format!("{value} matches none of the allowed shapes"),
            );
        }
        if let Some(Value::Array(one)) = schema.get("oneOf")
            && one.iter().filter(|each| self.valid(each, value)).count() != 1
        {
            issue(
                found,
                pointer,
                format!("{value} must match exactly one shape"),
            );
        }
        if let Some(not) = schema.get("not")
            && self.valid(not, value)
        {
            issue(found, pointer, format!("{value} is not allowed here"));
        }
        if let Some(condition) = schema.get("if") {
            let branch = if self.valid(condition, value) {
                schema.get("then")
            } else {
                schema.get("else")
            };
            if let Some(branch) = branch {
                self.check(branch, value, pointer, found);
            }
        }
    }

    fn check_object(
        &self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        pointer: &str,
        found: &mut Vec<OutputIssue>,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, value) in object {
            let at = format!("{pointer}/{}", escape(name));
            match properties.and_then(|properties| properties.get(name)) {
                Some(property) => self.check(property, value, &at, found),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => issue(
                        found,
                        pointer,
                        format!("additional property `{name}` is not allowed"),
                    ),
                    Some(additional) => self.check(additional, value, &at, found),
                    None => {}
                },
            }
        }
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !object.contains_key(name) {
                    issue(found, pointer, format!("`{name}` is a required property"));
                }
            }
        }
        if let Some(Value::Object(dependent)) = schema.get("dependentRequired") {
            for (name, needs) in dependent {
                if !object.contains_key(name) {
                    continue;
                }
                for needed in needs
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !object.contains_key(needed) {
                        issue(
                            found,
                            pointer,
                            format!("`{needed}` is a required property when `{name}` is present"),
                        );
                    }
                }
            }
        }
    }
}

fn issue(found: &mut Vec<OutputIssue>, pointer: &str, message: String) {
    found.push(OutputIssue {
        pointer: pointer.to_owned(),
        message,
        hint: None,
    });
}

/// A JSON pointer segment: `~` as `~0`, `/` as `~1`.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The one pattern the committed schemas use, `\S`: some character is not white space. Any
/// other pattern matches nothing, so a schema using one fails closed (and the keyword test
/// fails first).
fn pattern_matches(pattern: &str, text: &str) -> bool {
    match pattern {
        r"\S" => text.chars().any(|c| !c.is_whitespace()),
        _ => false,
    }
}

fn type_matches(expected: &Value, value: &Value) -> bool {
    match expected {
        Value::String(name) => is_type(name, value),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|name| is_type(name, value)),
        _ => true,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("object", Value::Object(_))
        | ("array", Value::Array(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(number)) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// JSON equality, numbers by value (`1` and `1.0` are the same number).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a == b || a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{SUPPORTED, validator};
    use crate::schema::{SchemaKind, schema};
    use crate::{Dialect, Event};

    fn keywords(schema: &Value, out: &mut Vec<String>, patterns: &mut Vec<String>) {
        let Value::Object(object) = schema else {
            return;
        };
        for (key, value) in object {
            out.push(key.clone());
            if key == "pattern"
                && let Value::String(pattern) = value
            {
                patterns.push(pattern.clone());
            }
            match key.as_str() {
                "properties" | "$defs" | "dependentRequired" => {
                    for sub in value.as_object().into_iter().flat_map(|o| o.values()) {
                        keywords(sub, out, patterns);
                    }
                }
                "allOf" | "anyOf" | "oneOf" => {
                    for sub in value.as_array().into_iter().flatten() {
                        keywords(sub, out, patterns);
                    }
                }
                "const" | "enum" | "default" | "examples" | "required" | "title"
                | "description" => {}
                _ => keywords(value, out, patterns),
            }
        }
    }

    #[test]
    fn lime_output_schemas_use_only_the_supported_subset() {
        for event in Dialect::Lime.events() {
            let schema = schema(Dialect::Lime, event, SchemaKind::Output).unwrap();
            let (mut found, mut patterns) = (Vec::new(), Vec::new());
            keywords(&schema, &mut found, &mut patterns);
            for keyword in found {
                assert!(
                    SUPPORTED.contains(&keyword.as_str()),
                    "lime {event}: keyword `{keyword}` is not read without jsonschema"
                );
            }
            for pattern in patterns {
                assert_eq!(pattern, r"\S", "lime {event}: pattern {pattern:?}");
            }
        }
    }

    /// Every property name the schema mentions, at any depth.
    fn names(schema: &Value, out: &mut Vec<String>) {
        match schema {
            Value::Object(object) => {
                for (key, value) in object {
                    if key == "properties"
                        && let Value::Object(properties) = value
                    {
                        out.extend(properties.keys().cloned());
                    }
                    names(value, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| names(item, out)),
            _ => {}
        }
    }

    /// Outputs built from the schema's own names and a handful of values of every type,
    /// nested in `hookSpecificOutput` and in `decision` objects.
    fn candidates(event: &Event, schema: &Value) -> Vec<Value> {
        let mut fields = Vec::new();
        names(schema, &mut fields);
        fields.sort();
        fields.dedup();
        fields.push("unknownField".to_owned());
        let values = [
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(1.5),
            json!(""),
            json!("  "),
            json!("x"),
            json!("allow"),
            json!("deny"),
            json!("block"),
            json!("ask"),
            json!("approve"),
            json!(event.as_str()),
            json!({}),
            json!({"command": "ls"}),
            json!([]),
        ];
        let mut out = vec![json!({}), json!(null), json!([]), json!("x")];
        let specific = |extra: &[(&String, &Value)]| {
            let mut object = serde_json::Map::new();
            object.insert("hookEventName".to_owned(), json!(event.as_str()));
            for (key, value) in extra {
                object.insert((*key).clone(), (*value).clone());
            }
            Value::Object(object)
        };
        for (i, a) in fields.iter().enumerate() {
            for v in &values {
                out.push(json!({ a: v }));
                out.push(json!({ "hookSpecificOutput": specific(&[(a, v)]) }));
                out.push(json!({
                    "hookSpecificOutput": specific(&[(&"decision".to_owned(), &json!({ a: v }))])
                }));
                out.push(json!({ "decision": { "behavior": "allow", a: v } }));
                // Pairs: this field with every other, both at the top and in the specific part.
                for (j, b) in fields.iter().enumerate() {
                    if j <= i {
                        continue;
                    }
                    let w = &values[(i * 7 + j * 3) % values.len()];
                    out.push(json!({ a: v, b: w }));
                    out.push(json!({ "hookSpecificOutput": specific(&[(a, v), (b, w)]) }));
                }
            }
        }
        out
    }

    #[test]
    fn the_subset_agrees_with_jsonschema_on_lime_outputs() {
        let (mut compared, mut accepted) = (0, 0);
        for event in Dialect::Lime.events() {
            let schema = schema(Dialect::Lime, event, SchemaKind::Output).unwrap();
            let reference = jsonschema::validator_for(&schema).unwrap();
            let ours = validator(Dialect::Lime, event, SchemaKind::Output).unwrap();
            for value in candidates(event, &schema) {
                assert_eq!(
                    ours.is_valid(&value),
                    reference.is_valid(&value),
                    "lime {event}: {value}"
                );
                compared += 1;
                accepted += usize::from(reference.is_valid(&value));
            }
        }
        // Both verdicts are well represented.
        assert!(compared > 10_000, "{compared}");
        assert!(
            accepted > 300 && compared - accepted > 300,
            "{accepted} of {compared}"
        );
    }
}
