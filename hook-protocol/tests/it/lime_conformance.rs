//! Conformance of the generated lime output schemas with the engine and the reference wire
//! schemas.
//!
//! One verdict: every document of a table-driven corpus of hook outputs is checked against the
//! generated schema (draft 2020-12), [`validate_output`] and the engine's interpretation
//! ([`interpret()`]), which must agree (valid ⇔ accepted).
//!
//! The reference: SPEC.md asks lime's generated output schemas to accept what the published
//! command-hook schemas of the system lime is modelled on accept. That system (and lime) then
//! refuses some of those outputs at run time (a block without a reason, ...), and the generated
//! schemas encode those rules too, so they accept exactly what the reference accepts *and* the
//! engine accepts: never more than the reference, and less only where the engine refuses. The
//! reference schemas (draft-07) live outside the repository, in
//! `../shared/reference/lime-wire-schemas/`, and are read at test time: they are test data,
//! never copied into the project.

use std::collections::BTreeMap;

use hook_protocol::interpret;
use hook_protocol::schema::SchemaKind;
use hook_protocol::schema::schema;
use hook_protocol::{Dialect, Event, validate_output, validate_output_value};
use serde_json::{Value, json};

#[path = "support/lime_corpus.rs"]
mod lime_corpus;
use lime_corpus::{REFERENCE_EVENTS, corpus, engine_accepts, reference_dir, reference_schema};

/// The generated lime output schema of `event`.
fn generated_schema(event: &Event) -> Value {
    schema(Dialect::Lime, event, SchemaKind::Output)
        .unwrap_or_else(|| panic!("no generated lime output schema for {event}"))
}

#[test]
fn generated_lime_output_schemas_agree_with_the_reference() {
    let Some(dir) = reference_dir() else { return };
    let mut reference = BTreeMap::new();
    let mut generated = BTreeMap::new();
    for event in REFERENCE_EVENTS {
        assert!(
            Dialect::Lime.events().contains(&event),
            "{event} has a reference schema but is not a lime event"
        );
        let schema = reference_schema(&dir, &event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the reference schema of {event} does not compile: {error}")
        });
        reference.insert(event.clone(), validator);
        let schema = generated_schema(&event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the generated lime schema of {event} does not compile: {error}")
        });
        generated.insert(event, validator);
    }

    let corpus = corpus();
    assert!(
        corpus.len() >= 120,
        "the corpus holds {} documents; at least 120 are required",
        corpus.len()
    );

    // event -> (valid, invalid) by the generated schema's verdict.
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut stricter = 0;
    let mut disagreements = Vec::new();
    for (event, doc) in &corpus {
        let by_reference = reference[event].is_valid(doc);
        let by_generated = generated[event].is_valid(doc);
        let by_validate = validate_output_value(Dialect::Lime, event, doc);
        let by_engine = engine_accepts(event, doc);
        let entry = counts.entry(event.to_string()).or_default();
        if by_generated {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        // The generated schema may only be stricter than the reference where the engine
        // refuses the output.
        let expected = by_reference && by_engine != Some(false);
        if by_reference && !by_generated {
            stricter += 1;
        }
        if expected != by_generated || by_generated != by_validate.is_ok() {
            let validate = match &by_validate {
                Ok(()) => "valid".to_owned(),
                Err(error) => format!("invalid ({error})"),
            };
            disagreements.push(format!(
                "event {event}, document {doc}\n  reference schema: {}\n  engine: {}\n  \
                 generated schema: {}\n  validate_output_value: {validate}",
                verdict(by_reference),
                by_engine.map_or("plain text", |accepted| if accepted {
                    "accepted"
                } else {
                    "refused"
                }),
                verdict(by_generated),
            ));
        }
    }

    println!(
        "lime conformance corpus: {} documents, {stricter} valid by the reference but refused by \
         the engine (and the generated schema)",
        corpus.len()
    );
    for (event, (valid, invalid)) in &counts {
        println!("  {event:<18} valid {valid:>3}  invalid {invalid:>3}");
    }

    assert!(
        disagreements.is_empty(),
        "{} of {} documents get different verdicts:\n{}",
        disagreements.len(),
        corpus.len(),
        disagreements.join("\n")
    );
    assert!(
        stricter > 0,
        "the corpus must hold outputs the reference accepts and the engine refuses"
    );
    for event in REFERENCE_EVENTS {
        let (valid, invalid) = counts.get(event.as_str()).copied().unwrap_or_default();
        assert!(
            valid > 0 && invalid > 0,
            "the corpus needs valid and invalid documents for {event}: {valid} valid, \
             {invalid} invalid"
        );
    }
}

/// Schema, `validate_output` and the engine give one verdict on every JSON document of the
/// corpus (no reference needed). Documents the engine reads as plain text (a JSON string,
/// number, `true` or `null` on stdout) are left out: the event's plain-text rule reads them, not
/// a schema; the schema rejects them all, since lime's JSON output is an object.
#[test]
fn schema_validate_output_and_the_engine_agree_on_the_lime_corpus() {
    let mut validators = BTreeMap::new();
    for event in Dialect::Lime.events() {
        let validator = jsonschema::validator_for(&generated_schema(event)).unwrap();
        validators.insert(event.clone(), validator);
    }
    let corpus = corpus();
    let (mut accepted, mut refused, mut plain_text) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for (event, doc) in &corpus {
        let by_schema = validators[event].is_valid(doc);
        let by_validate = validate_output(Dialect::Lime, event, doc.to_string().as_bytes());
        let Some(by_engine) = engine_accepts(event, doc) else {
            plain_text += 1;
            assert!(!by_schema && by_validate.is_err(), "{event} {doc}");
            continue;
        };
        if by_engine {
            accepted += 1;
        } else {
            refused += 1;
        }
        if by_schema != by_engine || by_validate.is_ok() != by_engine {
            let result = interpret(
                Dialect::Lime,
                event,
                Some(0),
                doc.to_string().as_bytes(),
                b"",
            );
            disagreements.push(format!(
                "event {event}, document {doc}\n  schema: {}\n  validate_output: {by_validate:?}\n  \
                 engine: {result:?}",
                verdict(by_schema),
            ));
        }
    }
    println!(
        "lime corpus through schema, validate_output and engine: {accepted} accepted, {refused} \
         refused, {plain_text} plain text (left out)"
    );
    assert!(
        disagreements.is_empty(),
        "{} of {} documents get different verdicts:\n{}",
        disagreements.len(),
        corpus.len(),
        disagreements.join("\n")
    );
    assert!(
        accepted > 50 && refused > 50,
        "{accepted} accepted, {refused} refused"
    );
}

fn verdict(valid: bool) -> &'static str {
    if valid { "valid" } else { "invalid" }
}

#[test]
fn every_generated_lime_output_schema_compiles_and_accepts_the_empty_object() {
    let events = Dialect::Lime.events();
    assert_eq!(events.len(), 12, "lime has 12 events: {events:?}");
    for event in events {
        let schema = generated_schema(event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the generated lime output schema of {event} does not compile: {error}")
        });
        assert!(
            validator.is_valid(&json!({})),
            "the generated lime output schema of {event} rejects {{}}"
        );
        assert!(
            validate_output_value(Dialect::Lime, event, &json!({})).is_ok(),
            "validate_output_value rejects {{}} for lime {event}"
        );
    }
}
