//! Readers of what a command printed or wrote: each panics with the text it could not read.

use std::path::Path;

use hook_protocol::{Decision, Dialect, Event, HandlerResult, interpret};
use serde_json::Value;

use crate::Finished;

/// The `systemMessage` of a relay's answer on stdout, or "".
pub fn system_message(out: &impl Finished) -> String {
    serde_json::from_slice::<Value>(out.out())
        .ok()
        .and_then(|v| v.get("systemMessage")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// What `out` printed on stdout, as one JSON document.
///
/// # Panics
/// When it is not JSON (the message holds stdout and stderr).
pub fn json(out: &impl Finished) -> Value {
    serde_json::from_slice(out.out()).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}{}",
            crate::fs::text(out.out()),
            crate::fs::text(out.err())
        )
    })
}

/// The `decision` of the outcome `hook run` or `hook test` printed on stdout.
pub fn decision(out: &impl Finished) -> Value {
    json(out)["decision"].clone()
}

/// `--json` output, one JSON value a line.
///
/// # Panics
/// When a line is not JSON (the message names it).
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("a `--json` line is not JSON ({e}): {line:?}"))
        })
        .collect()
}

/// The records of `lines` whose `type` is `kind` (`hook replay --json`: `event`, `summary`).
pub fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

/// The one `summary` record of `hook replay --json`, which must be the last line.
///
/// # Panics
/// When there is none, more than one, or it is not last.
pub fn summary(lines: &[Value]) -> &Value {
    let summaries = of_type(lines, "summary");
    assert_eq!(summaries.len(), 1, "one summary in {lines:#?}");
    assert_eq!(
        lines.last().map(|l| &l["type"]),
        Some(&Value::from("summary")),
        "the summary last in {lines:#?}"
    );
    summaries[0]
}

/// (tool_use_id, subject) of each event `hook replay --json` reports blocked.
pub fn blocked(lines: &[Value]) -> Vec<(String, String)> {
    of_type(lines, "event")
        .into_iter()
        .filter(|e| e["result"]["decision"] == "block")
        .map(|e| {
            (
                e["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                e["subject"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The finding of a `hook doctor --json` report for `key` whose message contains `needle`.
///
/// # Panics
/// When there is none (the message shows the report).
pub fn finding<'a>(report: &'a Value, key: &str, needle: &str) -> &'a Value {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["key"] == key && f["message"].as_str().is_some_and(|m| m.contains(needle)))
        .unwrap_or_else(|| panic!("no finding `{needle}` for {key} in {report:#}"))
}

/// The journal under `home` (`hook-journal/*.jsonl`), parsed, oldest first (every file, the
/// live one last).
///
/// # Panics
/// When the folder cannot be read or a line is torn (the message names the file).
pub fn journal_lines(home: &Path) -> Vec<Value> {
    let dir = home.join("hook-journal");
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut files: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.reverse();
    let mut lines = Vec::new();
    for file in files {
        for line in crate::fs::read(&file).lines() {
            lines.push(
                serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{}: a torn line ({e}): {line:?}", file.display())),
            );
        }
    }
    lines
}

/// What the agent makes of an answer `out` to `event`, as `dialect`'s reader (checked
/// against the real agents) reads it.
pub fn agent_reads(dialect: Dialect, event: &Event, out: &impl Finished) -> HandlerResult {
    interpret(dialect, event, out.exit_code(), out.out(), out.err())
}

/// Whether the agent reads `result` as a block.
pub fn is_block(result: &HandlerResult) -> bool {
    matches!(result, HandlerResult::Response(r) if r.decision == Some(Decision::Block))
}
