//! Every stdin payload captured from the real agents by `cargo xtask conformance` (under
//! `tests/fixtures/conformance/{codex,claude}/`) is accepted by `input_from_value` for its dialect
//! (Codex CLI -> lime, Claude Code -> verboo) and by the dialect's input schema for its event.
//! Passes with no fixtures too.

use std::path::Path;

use hook_protocol::input::input_from_value;
use hook_protocol::schema::SchemaKind;
use hook_protocol::schema::schema;
use hook_protocol::{Dialect, Event};
use serde_json::Value;

#[test]
fn every_captured_payload_is_accepted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/conformance");
    let mut problems = Vec::new();
    let mut checked = 0;
    for (agent, dialect) in [("codex", Dialect::Lime), ("claude", Dialect::Verboo)] {
        let Ok(entries) = std::fs::read_dir(root.join(agent)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
        {
            let text = std::fs::read_to_string(path).unwrap();
            let value: Value = serde_json::from_str(&text).unwrap();
            let name = value["hook_event_name"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            checked += 1;
            if let Err(error) = input_from_value(dialect, value.clone()) {
                problems.push(format!("{}: input_from_value: {error}", path.display()));
            }
            match schema(dialect, &Event::from_name(&name), SchemaKind::Input) {
                None => problems.push(format!(
                    "{}: no {dialect} input schema for {name}",
                    path.display()
                )),
                Some(schema) => {
                    let validator = jsonschema::validator_for(&schema).unwrap();
                    for error in validator.iter_errors(&value) {
                        problems.push(format!(
                            "{}: schema: {} at {}",
                            path.display(),
                            error,
                            error.instance_path()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{checked} payloads checked:\n{}",
        problems.join("\n")
    );
}
