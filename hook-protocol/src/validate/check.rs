//! Validation with `jsonschema` (feature `validate`) against the committed schemas.
//!
//! The event is given (or read from the output's own tag) first and the output is checked
//! against that one event's schema, so every error names the field at fault by its JSON pointer
//! instead of a useless "not valid under any of the given schemas". Validators are compiled on
//! first use and reused for the life of the process.

use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

use jsonschema::JsonType;
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use super::OutputIssue;
use super::error::{ValidateError, unknown_event};
use crate::input::strip_position;
use crate::schema::{SchemaKind, schema};
use crate::text::json_type;
use crate::{Dialect, Event, FieldCase};

use super::{SchemaKey as Key, schema_slots};

/// One slot per known (dialect, kind, event), compiled on first use.
static VALIDATORS: LazyLock<HashMap<Key, OnceLock<jsonschema::Validator>>> =
    LazyLock::new(schema_slots);

/// The compiled validator of one schema, or `None` if the dialect does not know the event.
pub(crate) fn validator(
    dialect: Dialect,
    event: &Event,
    kind: SchemaKind,
) -> Option<&'static jsonschema::Validator> {
    let slot = VALIDATORS.get(&(dialect, kind, event.clone()))?;
    Some(slot.get_or_init(|| {
        let schema = schema(dialect, event, kind).expect("a slot exists only for known events");
        jsonschema::validator_for(&schema)
            .expect("the committed schemas are valid draft 2020-12 (checked by the schema tests)")
    }))
}

/// Checks raw hook output against the output schema of `event` in `dialect`.
///
/// Returns every error with its JSON pointer. Leading and trailing whitespace is allowed;
/// anything else around the JSON object (a log line, a second object) is an error.
///
/// # Errors
///
/// [`ValidateError`] with every problem and its JSON pointer.
pub fn validate_output(dialect: Dialect, event: &Event, bytes: &[u8]) -> Result<(), ValidateError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|error| ValidateError::NotJson {
        line: error.line(),
        column: error.column(),
        message: strip_position(&error),
    })?;
    validate_output_value(dialect, event, &value)
}

/// Checks a parsed hook output against the output schema of `event` in `dialect`.
///
/// # Errors
///
/// [`ValidateError`] with every problem and its JSON pointer.
pub fn validate_output_value(
    dialect: Dialect,
    event: &Event,
    value: &Value,
) -> Result<(), ValidateError> {
    let validator = validator(dialect, event, SchemaKind::Output)
        .ok_or_else(|| unknown_event(dialect, event))?;
    let issues = issues(dialect, event, validator, value);
    if issues.is_empty() {
        Ok(())
    } else {
        Err(ValidateError::Invalid {
            dialect,
            event: event.to_string(),
            issues,
        })
    }
}

/// Every error of `value` against `validator` (the output schema of `event`), with messages
/// and hints for hook authors.
pub(crate) fn issues(
    dialect: Dialect,
    event: &Event,
    validator: &jsonschema::Validator,
    value: &Value,
) -> Vec<OutputIssue> {
    let mut found = Vec::new();
    for error in validator.iter_errors(value) {
        collect(dialect, &error, &mut found);
    }
    // An unknown field with no case hint: the known field of that object spelt closest to it.
    for found in &mut found {
        if let (None, Some((names, schema_path))) = (&found.issue.hint, found.unknown.take()) {
            found.issue.hint = misspelt(dialect, event, &names, &schema_path);
        }
    }
    // A rule of the top-level `allOf` (lime's rules beyond the types) that fails on a value the
    // types already refused says nothing new (`"continue": "yes"` is not a boolean, and so not
    // `true` either): the types' error is kept alone. On an object, a rule's error (a missing
    // `reason`) is a problem of its own and is kept.
    let typed: Vec<String> = found
        .iter()
        .filter(|found| !found.rule)
        .map(|found| found.issue.pointer.clone())
        .collect();
    let mut issues: Vec<OutputIssue> = found
        .into_iter()
        .filter(|found| !found.rule || !typed.contains(&found.issue.pointer))
        .map(|found| found.issue)
        .collect();
    issues.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    issues.dedup();
    issues
}

/// The known field of the object at `schema_path` (an `additionalProperties` keyword of the
/// output schema of `event`) spelt closest to one of `names`, as a hint.
fn misspelt(
    dialect: Dialect,
    event: &Event,
    names: &[String],
    schema_path: &str,
) -> Option<String> {
    let root = super::unknown::output_schema(dialect, event)?;
    let object = schema_path.strip_suffix("/additionalProperties")?;
    let known = root.pointer(object)?.get("properties")?.as_object()?;
    names.iter().find_map(|name| {
        super::unknown::closest(name, known.keys().map(String::as_str))
            .map(|known| format!("did you mean `{known}`?"))
    })
}

/// One issue as found, before the issues are sorted.
struct Found {
    issue: OutputIssue,
    /// Found by a rule of the top-level `allOf` on a value that is not an object (dropped when
    /// the types failed there too).
    rule: bool,
    /// For unknown fields: their names and the schema path of the `additionalProperties` that
    /// refused them, to suggest a known field.
    unknown: Option<(Vec<String>, String)>,
}

/// Adds the issues of one error. An `anyOf` whose other branch is `{"type": "null"}` (an
/// optional field) reports the errors of the branch that was meant, not "fails anyOf".
fn collect(dialect: Dialect, error: &ValidationError<'_>, issues: &mut Vec<Found>) {
    if let ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } =
        error.kind()
    {
        let meant: Vec<_> = context
            .iter()
            .filter(|branch| !only_wants_null(branch))
            .collect();
        if let [branch] = meant.as_slice() {
            for inner in branch.iter() {
                collect(dialect, inner, issues);
            }
            return;
        }
    }
    let pointer = error.instance_path().as_str().to_owned();
    let (message, hint) = describe(dialect, error.kind(), error.instance());
    let rule = error.schema_path().as_str().starts_with("/allOf/") && !error.instance().is_object();
    let unknown = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            Some((unexpected.clone(), error.schema_path().as_str().to_owned()))
        }
        _ => None,
    };
    issues.push(Found {
        issue: OutputIssue {
            pointer,
            message,
            hint,
        },
        rule,
        unknown,
    });
}

fn only_wants_null(branch: &[ValidationError<'_>]) -> bool {
    matches!(branch, [error] if matches!(
        error.kind(),
        ValidationErrorKind::Type { kind: TypeKind::Single(JsonType::Null) }
    ))
}

fn describe(
    dialect: Dialect,
    kind: &ValidationErrorKind,
    instance: &Value,
) -> (String, Option<String>) {
    match kind {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let names = unexpected
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>();
            let message = format!("unknown field {} is not allowed here", names.join(", "));
            let hint = unexpected.iter().find_map(|name| case_hint(dialect, name));
            (message, hint)
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let hint = match name {
                "hookEventName" => Some("add \"hookEventName\" naming the event this output answers"),
                "reason" => Some("a `decision: \"block\"` needs a `reason` for the model"),
                "updatedInput" => Some(
                    "a lime `permissionDecision: \"allow\"` only rewrites the input: add `updatedInput`, or print nothing to let the call go on",
                ),
                "permissionDecisionReason" => {
                    Some("a `permissionDecision: \"deny\"` needs a reason for the model")
                }
                "decision" => Some("a top-level `reason` goes with `decision: \"block\"`"),
                _ => None,
            }
            .map(str::to_owned);
            (format!("missing required field `{name}`"), hint)
        }
        ValidationErrorKind::Enum { options } => {
            let hint = (instance == "deny" || instance == "approve" || instance == "allow")
                .then(|| "a top-level `decision` takes \"block\"; permission decisions go in hookSpecificOutput.permissionDecision".to_owned());
            (format!("{instance} is not one of {options}"), hint)
        }
        ValidationErrorKind::Constant { expected_value } => {
            (format!("expected {expected_value}, found {instance}"), None)
        }
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(ts) => ts
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            let hint = instance
                .is_null()
                .then(|| "leave the field out instead of writing null".to_owned());
            (
                format!("expected {expected}, found {}", json_type(instance)),
                hint,
            )
        }
        ValidationErrorKind::FalseSchema => ("this field is not allowed here".to_owned(), None),
        // The one pattern of the schemas: a reason lime needs (`\S`, not blank).
        ValidationErrorKind::Pattern { .. } => (
            format!("{instance} is blank: this reason must not be empty"),
            None,
        ),
        other => (
            format!("{instance} is invalid: {}", keyword_message(other)),
            None,
        ),
    }
}

fn keyword_message(kind: &ValidationErrorKind) -> String {
    format!("fails `{}`", kind.keyword())
}

/// The spelling a field probably meant, in the dialect's case convention.
fn case_hint(dialect: Dialect, name: &str) -> Option<String> {
    let case = dialect.rules().output().field_case();
    match case {
        FieldCase::Snake => {
            let snake = to_snake(name);
            (snake != name)
                .then(|| format!("{dialect} fields are snake_case: did you mean `{snake}`?"))
        }
        FieldCase::Camel => {
            let camel = to_camel(name);
            (camel != name)
                .then(|| format!("{dialect} fields are camelCase: did you mean `{camel}`?"))
        }
    }
}

fn to_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn to_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_hints() {
        assert_eq!(to_camel("additional_context"), "additionalContext");
        assert_eq!(to_snake("updatedInput"), "updated_input");
        assert!(
            case_hint(Dialect::Lime, "stop_reason")
                .unwrap()
                .contains("`stopReason`")
        );
        assert!(
            case_hint(Dialect::Wuu, "additionalContext")
                .unwrap()
                .contains("additional_context")
        );
        assert_eq!(case_hint(Dialect::Lime, "bogus"), None);
    }
}
