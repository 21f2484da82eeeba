//! Loading 1,000 handlers across three layers, loading one minified (one-line) file of 100,000
//! handlers (linear position tracking, issue 10), and selecting in a 10,000-handler registry.

#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use hook_config::{Environment, LoadOptions, load};
use hook_protocol::{Dialect, Event};
use serde_json::json;

const EVENTS: [&str; 4] = ["PreToolUse", "PostToolUse", "PermissionRequest", "Stop"];

/// A verboo settings file with `count` handlers, numbered from `first`: mostly exact-name
/// lists, one in ten a distinct regex, one in a thousand a catch-all, some with an `if` rule.
fn settings(first: usize, count: usize) -> String {
    let mut events: Vec<Vec<serde_json::Value>> = vec![Vec::new(); EVENTS.len()];
    for i in first..first + count {
        // Stop has no match value: a matcher there is a warning, so its groups have none.
        let matcher = if i % 1000 == 8 || EVENTS[i % EVENTS.len()] == "Stop" {
            String::new()
        } else if i % 10 == 0 {
            format!("^mcp__srv{i}__.*")
        } else {
            format!("Tool{i}|Other{i}")
        };
        let mut hook = json!({"type": "command", "command": format!("hook-{i}"), "timeout": 5});
        if i % 7 == 0 && EVENTS[i % EVENTS.len()] != "Stop" {
            hook["if"] = json!(format!("Tool{i}(git *)"));
        }
        events[i % EVENTS.len()].push(json!({"matcher": matcher, "hooks": [hook]}));
    }
    let hooks: serde_json::Map<String, serde_json::Value> = EVENTS
        .iter()
        .zip(events)
        .map(|(e, groups)| ((*e).to_owned(), serde_json::Value::Array(groups)))
        .collect();
    serde_json::to_string_pretty(&json!({"model": "x", "hooks": hooks})).expect("serialize")
}

fn write_layers(root: &Path, total: usize) -> LoadOptions {
    let third = total / 3;
    let files = [
        ("home/settings.json", 0, third),
        ("project/.claude/settings.json", third, third),
        (
            "project/.claude/settings.local.json",
            2 * third,
            total - 2 * third,
        ),
    ];
    for (rel, first, count) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, settings(first, count)).expect("write");
    }
    LoadOptions::new(Dialect::Verboo, Environment::empty())
        .without_managed()
        .with_home(root.join("home"))
        .with_project(root.join("project"))
}

/// One verboo user file of `count` handlers on a single line (a minified settings file),
/// under the 8 MiB cap of a configuration file.
fn write_minified(root: &Path, count: usize) -> LoadOptions {
    let groups: Vec<String> = (0..count)
        .map(|i| format!(r#"{{"matcher":"T{i}","hooks":[{{"type":"command","command":"h{i}"}}]}}"#))
        .collect();
    let text = format!(r#"{{"hooks":{{"PreToolUse":[{}]}}}}"#, groups.join(","));
    let path = root.join("home/settings.json");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, text).expect("write");
    LoadOptions::new(Dialect::Verboo, Environment::empty())
        .without_managed()
        .with_home(root.join("home"))
        .with_project(root.join("project"))
}

fn bench(c: &mut Criterion) {
    let small = tempfile::tempdir().expect("tempdir");
    let options = write_layers(small.path(), 1_000);
    let loaded = load(&options).expect("load");
    assert_eq!(loaded.registry.handlers().len(), 1_000);
    assert!(
        loaded.diagnostics.is_empty(),
        "{:?}",
        loaded.diagnostics.first()
    );
    c.bench_function("load 1000 handlers in 3 layers", |b| {
        b.iter(|| load(black_box(&options)).expect("load"));
    });

    let minified = tempfile::tempdir().expect("tempdir");
    let options = write_minified(minified.path(), 100_000);
    let loaded = load(&options).expect("load");
    assert_eq!(loaded.registry.handlers().len(), 100_000);
    let mut group = c.benchmark_group("minified");
    group.sample_size(10);
    group.bench_function("load one minified file of 100000 handlers", |b| {
        b.iter(|| load(black_box(&options)).expect("load"));
    });
    group.finish();

    let large = tempfile::tempdir().expect("tempdir");
    let options = write_layers(large.path(), 10_000);
    let loaded = load(&options).expect("load");
    let registry = loaded.registry;
    assert_eq!(registry.handlers().len(), 10_000);
    let input = json!({"command": "git push"});
    let selected = registry
        .select(&Event::PreToolUse, Some("Tool4"), Some(&input))
        .count();
    assert_eq!(
        selected,
        1 + 8,
        "Tool4 and the catch-alls whose `if` rule fits"
    );
    c.bench_function("select PreToolUse in 10000 handlers", |b| {
        b.iter(|| {
            registry
                .select(
                    black_box(&Event::PreToolUse),
                    black_box(Some("Tool4")),
                    Some(&input),
                )
                .count()
        });
    });
    c.bench_function(
        "select PreToolUse mcp tool (regex) in 10000 handlers",
        |b| {
            b.iter(|| {
                registry
                    .select(
                        black_box(&Event::PreToolUse),
                        black_box(Some("mcp__srv40__query")),
                        None,
                    )
                    .count()
            });
        },
    );
    c.bench_function("any_pre_tool_use_matches in 10000 handlers", |b| {
        b.iter(|| registry.any_pre_tool_use_matches(black_box("Tool4")));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
