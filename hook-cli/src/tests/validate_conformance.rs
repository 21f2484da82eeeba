//! `hook validate` gives the lime engine's verdict on every document of the lime conformance
//! corpus (shared with hook-protocol's conformance test): the reference schemas' verdict, made
//! stricter exactly where the engine refuses an output the reference accepts (a block without a
//! reason, ...). In-process.

use std::collections::BTreeMap;

use hook_protocol::Event;
use serde_json::Value;

#[path = "../../../hook-protocol/tests/it/support/lime_corpus.rs"]
mod lime_corpus;

/// `hook validate --json` on every document of one event at once (one command, one file per
/// document): whether each is valid, in order.
fn hook_validate(event: &Event, documents: &[&Value]) -> Vec<bool> {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<_> = documents
        .iter()
        .enumerate()
        .map(|(index, document)| {
            let path = dir.path().join(format!("{index}.json"));
            std::fs::write(&path, document.to_string()).unwrap();
            path
        })
        .collect();
    let mut args = vec![
        "validate",
        "--dialect",
        "lime",
        "--json",
        "--event",
        event.as_str(),
    ];
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let out = super::output(&args, "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let reports: Vec<Value> = if files.len() == 1 {
        vec![serde_json::from_str(&stdout).unwrap()]
    } else {
        stdout
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    assert_eq!(reports.len(), files.len(), "{stdout}");
    reports
        .iter()
        .map(|report| report["valid"].as_bool().unwrap())
        .collect()
}

#[test]
fn hook_validate_agrees_with_the_reference_and_the_engine_on_the_whole_corpus() {
    let Some(dir) = lime_corpus::reference_dir() else {
        return;
    };
    let mut disagreements = Vec::new();
    let corpus = lime_corpus::corpus();
    assert!(corpus.len() >= 100);
    // One validator and one `hook validate` per event, not per document.
    let mut by_event: BTreeMap<&str, (&Event, Vec<&Value>)> = BTreeMap::new();
    for (event, document) in &corpus {
        by_event
            .entry(event.as_str())
            .or_insert_with(|| (event, Vec::new()))
            .1
            .push(document);
    }
    for (event, documents) in by_event.into_values() {
        let schema = lime_corpus::reference_schema(&dir, event);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let verdicts = hook_validate(event, &documents);
        for (document, cli) in documents.iter().zip(verdicts) {
            // Plain text (`None`) is never valid JSON output; the reference rejects it too.
            let reference = validator.is_valid(document)
                && lime_corpus::engine_accepts(event, document) != Some(false);
            if cli != reference {
                disagreements.push(format!(
                    "{event} {document}: reference and engine {reference}, hook {cli}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
