//! `hook validate` (in-process) on fields the agent ignores: a warning with a did-you-mean (exit 0), an error
//! with `--strict`, a `warnings` array in `--json`, and the event taken from the output when
//! `--event` is not given.

use serde_json::json;

use super::hook;

/// The issue's example: a misspelt `permissionDecision`, and no `--event`.
const TYPO: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}"#;

const TYPO_WARNING: &str = "warning: /hookSpecificOutput/permisionDecision: unknown field \
    `permisionDecision` is ignored (did you mean `permissionDecision`?)\n";

#[test]
fn validate_warns_on_a_typo_with_a_did_you_mean_and_takes_the_event_from_the_output() {
    let out = hook(&["validate", "--dialect", "verboo"], TYPO);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "<stdin>: valid verboo PreToolUse output, with 1 warning (verboo ignores unknown fields)\n"
    );
    assert_eq!(out.stderr, TYPO_WARNING);

    // The same with the event given.
    let out = hook(
        &["validate", "--dialect", "verboo", "--event", "PreToolUse"],
        TYPO,
    );
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, TYPO_WARNING);

    // wuu: a flat object; a name with no close known field gets no suggestion.
    let out = hook(
        &["validate", "--dialect", "wuu", "--event", "Stop"],
        r#"{"decison":"block","reason":"x","unrelated":1}"#,
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stderr,
        "warning: /decison: unknown field `decison` is ignored (did you mean `decision`?)\n\
         warning: /unrelated: unknown field `unrelated` is ignored\n"
    );
    assert_eq!(
        out.stdout,
        "<stdin>: valid wuu Stop output, with 2 warnings (wuu ignores unknown fields)\n"
    );
}

#[test]
fn validate_strict_fails_on_warnings_only() {
    let out = hook(&["validate", "--dialect", "verboo", "--strict"], TYPO);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "<stdin>: invalid verboo PreToolUse output: 1 warning (--strict)\n"
    );
    assert_eq!(out.stderr, TYPO_WARNING);

    let clean = hook(
        &["validate", "--dialect", "verboo", "--strict"],
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
    );
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    assert_eq!(clean.stdout, "<stdin>: valid verboo PreToolUse output\n");
    assert_eq!(clean.stderr, "");
}

#[test]
fn validate_json_lists_warnings() {
    let out = hook(&["validate", "--dialect", "verboo", "--json"], TYPO);
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, "");
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        report,
        json!({
            "file": "<stdin>",
            "dialect": "verboo",
            "event": "PreToolUse",
            "valid": true,
            "strict": false,
            "errors": [],
            "warnings": [{
                "pointer": "/hookSpecificOutput/permisionDecision",
                "field": "permisionDecision",
                "suggestion": "permissionDecision",
                "message": "/hookSpecificOutput/permisionDecision: unknown field `permisionDecision` is ignored (did you mean `permissionDecision`?)"
            }]
        })
    );

    let strict = hook(
        &["validate", "--dialect", "verboo", "--json", "--strict"],
        TYPO,
    );
    assert_eq!(strict.code, 1);
    let report: serde_json::Value = serde_json::from_str(&strict.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["strict"], true);
    assert_eq!(report["errors"], json!([]));
    assert_eq!(report["warnings"].as_array().map(Vec::len), Some(1));
}

#[test]
fn validate_needs_an_event_when_the_output_names_none() {
    let out = hook(&["validate", "--dialect", "wuu"], r#"{"decision":"block"}"#);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: --event is required to check an output that names no hookSpecificOutput.hookEventName\n"
    );

    // A name the dialect does not know is the usual unknown-event error.
    let out = hook(
        &["validate", "--dialect", "lime"],
        r#"{"hookSpecificOutput":{"hookEventName":"pretooluse"}}"#,
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: unknown lime event `pretooluse`: did you mean `PreToolUse`?\n"
    );
}

#[test]
fn lime_unknown_fields_are_errors_not_warnings() {
    let out = hook(
        &["validate", "--dialect", "lime", "--json"],
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}"#,
    );
    assert_eq!(out.code, 1);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(report["warnings"], json!([]));
    assert_eq!(report["errors"][0]["pointer"], "/hookSpecificOutput");
    assert_eq!(
        report["errors"][0]["message"],
        "unknown field `permisionDecision` is not allowed here"
    );
    // The same did-you-mean as a warning, as the error's hint.
    assert_eq!(
        report["errors"][0]["hint"],
        "did you mean `permissionDecision`?"
    );
}

#[test]
fn validate_gives_the_lime_engine_verdict_on_a_block_without_reason() {
    let out = hook(
        &["validate", "--dialect", "lime", "--event", "Stop"],
        r#"{"decision":"block"}"#,
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "<stdin>: invalid lime Stop output\n  /: missing required field `reason` (hint: a `decision: \"block\"` needs a `reason` for the model)\n"
    );
}

#[test]
fn validate_checks_several_files_in_turn_and_fails_if_any_does() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json");
    let bad = dir.path().join("bad.json");
    std::fs::write(&good, r#"{"decision":"block","reason":"no"}"#).unwrap();
    std::fs::write(&bad, "[]").unwrap();
    let (good, bad) = (good.display().to_string(), bad.display().to_string());
    let args = ["validate", "--dialect", "lime", "--event", "Stop"];
    let out = hook(&[&args[..], &[good.as_str(), bad.as_str()]].concat(), "");
    assert_eq!(out.code, 1, "{}", out.stderr);
    let stdout = out.stdout;
    assert!(
        stdout.contains(&format!("{good}: valid lime Stop output")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{bad}: invalid lime Stop output")),
        "{stdout}"
    );
    // The same files valid alone: exit 0.
    let out = hook(&[&args[..], &[good.as_str(), good.as_str()]].concat(), "");
    assert_eq!(out.code, 0, "{}", out.stdout);

    // --json: one object per line, in the order given.
    let out = hook(
        &[&args[..], &["--json", good.as_str(), bad.as_str()]].concat(),
        "",
    );
    assert_eq!(out.code, 1);
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert_eq!(lines[0]["valid"], json!(true));
    assert_eq!(lines[1]["valid"], json!(false));
    assert_eq!(lines[1]["file"], json!(bad));
}
