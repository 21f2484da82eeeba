//! Conformance of the generated lime output schemas with the reference wire schemas.
//!
//! SPEC.md requires lime's generated output schemas to accept and reject exactly the documents
//! that the published command-hook schemas of the system lime is modelled on accept and reject.
//! Those reference schemas (draft-07) live outside the repository, in
//! `../shared/reference/lime-wire-schemas/`, and are read at test time: they are test data, never
//! copied into the project. Every document of a table-driven corpus of hook outputs is checked
//! against the reference schema, the generated schema (draft 2020-12) and
//! [`validate_output_value`], which must all give the same verdict.

use std::collections::BTreeMap;

use hook_protocol::schema::schema;
use hook_protocol::{Dialect, Event, SchemaKind, validate_output_value};
use serde_json::{Value, json};

#[path = "support/lime_corpus.rs"]
mod lime_corpus;
use lime_corpus::{REFERENCE_EVENTS, corpus, reference_dir, reference_schema};

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

    // event -> (valid, invalid) by the reference's verdict.
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for (event, doc) in &corpus {
        let by_reference = reference[event].is_valid(doc);
        let by_generated = generated[event].is_valid(doc);
        let by_validate = validate_output_value(Dialect::Lime, event, doc);
        let entry = counts.entry(event.to_string()).or_default();
        if by_reference {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        if by_reference != by_generated || by_reference != by_validate.is_ok() {
            let validate = match &by_validate {
                Ok(()) => "valid".to_owned(),
                Err(error) => format!("invalid ({error})"),
            };
            disagreements.push(format!(
                "event {event}, document {doc}\n  reference schema: {}\n  generated schema: {}\n  \
                 validate_output_value: {validate}",
                verdict(by_reference),
                verdict(by_generated),
            ));
        }
    }

    println!("lime conformance corpus: {} documents", corpus.len());
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
    for event in REFERENCE_EVENTS {
        let (valid, invalid) = counts.get(event.as_str()).copied().unwrap_or_default();
        assert!(
            valid > 0 && invalid > 0,
            "the corpus needs valid and invalid documents for {event}: {valid} valid, \
             {invalid} invalid"
        );
    }
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
