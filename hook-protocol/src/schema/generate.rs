//! Generating the JSON Schemas from the types (feature `schema`, with `schemars`).
//!
//! `cargo xtask schemas` writes every schema [`all`] returns under `hook-protocol/schemas/`
//! (the files [`super::schema`] embeds); `cargo xtask schemas --check` fails when a committed
//! file differs. The lime output schemas are generated without `null` for optional fields,
//! since lime (like the system it is modelled on) rejects `null` there, and with an `allOf` of
//! the rules the engine enforces beyond the types (a block needs a non-empty `reason`, ...), so
//! that a schema-valid lime output is one the engine accepts.

use schemars::generate::SchemaSettings;
use schemars::transform::{RecursiveTransform, Transform, transform_subschemas};
use schemars::{Schema, SchemaGenerator};
use serde_json::Value;

use super::{OUTCOME_PATH, SchemaKind, every_pair, path};
use crate::output::{lime, verboo};
use crate::{Dialect, Event, Outcome, input};

fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with_transform(RecursiveTransform(simple_enum))
        .into_generator()
}

/// Writes a unit enum as `{"type": "string", "enum": [...]}` rather than schemars' `oneOf` of
/// documented constants: the same documents validate, and an error reads "not one of [...]".
fn simple_enum(schema: &mut Schema) {
    let Some(Value::Array(variants)) = schema.get("oneOf") else {
        return;
    };
    let constants: Option<Vec<Value>> = variants
        .iter()
        .map(|variant| {
            let object = variant.as_object()?;
            let only_const_type_doc = object
                .keys()
                .all(|k| matches!(k.as_str(), "const" | "type" | "description"));
            let constant = object.get("const")?;
            (only_const_type_doc && constant.is_string()).then(|| constant.clone())
        })
        .collect();
    if let Some(constants) = constants {
        schema.remove("oneOf");
        schema.insert("type".into(), "string".into());
        schema.insert("enum".into(), constants.into());
    }
}

/// The schema the types generate for `event`'s input or output in `dialect`, or `None` if the
/// dialect does not know the event.
pub fn schema(dialect: Dialect, event: &Event, kind: SchemaKind) -> Option<Value> {
    if !event.is_known_in(dialect) {
        return None;
    }
    let mut generator = generator();
    let mut schema = match (kind, dialect) {
        (SchemaKind::Input, Dialect::Wuu) => input::wuu::Input::schema(event, &mut generator)?,
        (SchemaKind::Input, Dialect::Verboo) => {
            input::verboo::Input::schema(event, &mut generator)?
        }
        (SchemaKind::Input, Dialect::Lime) => {
            let mut schema = input::lime::Input::schema(event, &mut generator)?;
            // `model` is optional in the type only for the events that may lack it.
            if input::lime::model_required(event) {
                if let Some(Value::Array(required)) = schema.get_mut("required") {
                    required.push("model".into());
                }
                if let Some(Value::Object(properties)) = schema.get_mut("properties") {
                    properties.insert(
                        "model".into(),
                        serde_json::json!({"type": "string", "description": "The model of the session."}),
                    );
                }
            }
            schema
        }
        (SchemaKind::Output, Dialect::Wuu) => {
            generator.root_schema_for::<crate::output::wuu::Output>()
        }
        (SchemaKind::Output, Dialect::Verboo) => {
            struct Gen<'a>(&'a mut SchemaGenerator);
            impl verboo::SpecificVisitor for Gen<'_> {
                type Out = Schema;
                fn visit<S: verboo::Specific>(self) -> Schema {
                    self.0.root_schema_for::<verboo::Output<S>>()
                }
            }
            verboo::with_specific(event, Gen(&mut generator))
        }
        (SchemaKind::Output, Dialect::Lime) => {
            struct Gen<'a>(&'a mut SchemaGenerator);
            impl lime::OutputVisitor for Gen<'_> {
                type Out = Schema;
                fn visit<O: lime::LimeOutput>(self) -> Schema {
                    self.0.root_schema_for::<O>()
                }
            }
            let mut schema = lime::with_output(event, Gen(&mut generator)).ok()?;
            NoNullForOptional.transform(&mut schema);
            // Every rule the engine enforces beyond the types, so that the schema, validation
            // and the engine give one verdict.
            let rules = crate::dialect::lime_output_schema_rules(event);
            if !rules.is_empty() {
                schema.insert("allOf".into(), rules.into());
            }
            schema
        }
    };
    let title = format!("{dialect} {event} {}", kind.as_str());
    let description = match kind {
        SchemaKind::Input => format!("What a {dialect} hook reads on stdin for {event}."),
        SchemaKind::Output => format!("What a {dialect} hook may print on stdout for {event}."),
    };
    schema.insert(
        "$id".into(),
        schema_id(&format!("{dialect}:{event}:{}", kind.as_str())).into(),
    );
    schema.insert("title".into(), title.into());
    schema.insert("description".into(), description.into());
    Some(schema.to_value())
}

/// A schema's `$id`: a URN, since the schemas have no published home yet; tools that map
/// schemas to files (editors, SchemaStore-style catalogs) key them by it.
fn schema_id(name: &str) -> String {
    format!("urn:hook-schemas:{name}")
}

/// The schema the types generate for [`Outcome`], the result of dispatching one event.
pub fn outcome_schema() -> Value {
    let mut schema = generator().root_schema_for::<Outcome>();
    schema.insert("$id".into(), schema_id("outcome").into());
    schema.insert("title".into(), "hook outcome".into());
    schema.to_value()
}

/// Every schema the types generate, with its path under `hook-protocol/schemas/`, in the order
/// of [`super::all`].
pub fn all() -> Vec<(String, Value)> {
    let mut schemas = vec![(OUTCOME_PATH.to_owned(), outcome_schema())];
    for (dialect, event, kind) in every_pair() {
        let schema = schema(dialect, event, kind)
            .expect("every event a dialect lists has a schema of each kind");
        schemas.push((path(dialect, event, kind), schema));
    }
    schemas
}

/// Removes the `null` that schemars adds to `Option<T>` fields: lime accepts a field's value or
/// its absence, never `null` (fields typed as any JSON value still accept `null`).
#[derive(Debug, Clone, Copy)]
struct NoNullForOptional;

impl Transform for NoNullForOptional {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(Value::Array(types)) = schema.get_mut("type")
            && types.len() > 1
        {
            types.retain(|t| t != "null");
            if let [single] = types.as_slice() {
                let single = single.clone();
                schema.insert("type".into(), single);
            }
        }
        let any_of_with_null = schema
            .get("anyOf")
            .and_then(Value::as_array)
            .and_then(|variants| {
                let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
                (variants.len() == 2 && variants.iter().any(is_null))
                    .then(|| variants.iter().find(|v| !is_null(v)).cloned())
                    .flatten()
            });
        if let Some(Value::Object(kept)) = any_of_with_null {
            schema.remove("anyOf");
            for (key, value) in kept {
                schema.insert(key, value);
            }
        }
        if let Some(enum_values) = schema.get_mut("enum").and_then(Value::as_array_mut) {
            enum_values.retain(|v| !v.is_null());
        }
        transform_subschemas(self, schema);
    }
}
