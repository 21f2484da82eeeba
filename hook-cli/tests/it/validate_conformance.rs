//! `hook validate` gives the lime engine's verdict on every document of the lime conformance
//! corpus (shared with hook-protocol's conformance test): the reference schemas' verdict, made
//! stricter exactly where the engine refuses an output the reference accepts (a block without a
//! reason, ...).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Stdio};

#[path = "../../../hook-protocol/tests/it/support/lime_corpus.rs"]
mod lime_corpus;

fn hook_validate(event: &str, document: &str) -> i32 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["validate", "--dialect", "lime", "--event", event])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(document.as_bytes());
    drop(stdin);
    child.wait().unwrap().code().unwrap()
}

#[test]
fn hook_validate_agrees_with_the_reference_and_the_engine_on_the_whole_corpus() {
    let Some(dir) = lime_corpus::reference_dir() else {
        return;
    };
    let mut disagreements = Vec::new();
    let corpus = lime_corpus::corpus();
    assert!(corpus.len() >= 100);
    for (event, document) in &corpus {
        let schema = lime_corpus::reference_schema(&dir, event);
        let by_reference = jsonschema::validator_for(&schema)
            .unwrap()
            .is_valid(document);
        // Plain text (`None`) is never valid JSON output; the reference rejects it too.
        let reference = by_reference && lime_corpus::engine_accepts(event, document) != Some(false);
        let code = hook_validate(event.as_str(), &document.to_string());
        let cli = match code {
            0 => true,
            1 => false,
            other => panic!("hook validate exited {other} on {event} {document}"),
        };
        if cli != reference {
            disagreements.push(format!(
                "{event} {document}: reference and engine {reference}, hook {cli}"
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
