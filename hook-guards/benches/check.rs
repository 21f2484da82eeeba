//! A built-in guard's cost per event inside a process (what the relay pays when it runs the
//! guard without spawning one): the event read, checked and answered by `hook_sdk::process`,
//! for an ordinary command and for one the guard blocks. `cargo xtask bench guards` compares
//! the same guard as a process with a shell-script guard (BENCHMARKS.md).
//!
//! `cargo bench -p hook-guards --bench check -- --warm-up-time 1 --measurement-time 5`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hook_guards::{Guard, Settings, builtin};
use hook_sdk::{Dialect, Options, process};
use serde_json::json;

fn event(command: &str) -> Vec<u8> {
    json!({
        "session_id": "s", "transcript_path": "/home/dev/t.jsonl", "cwd": "/home/dev/project",
        "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "t",
    })
    .to_string()
    .into_bytes()
}

fn check(c: &mut Criterion) {
    let options = Options::default().with_dialect(Dialect::Verboo);
    for name in ["dangerous-commands", "secrets", "protected-paths"] {
        let guard = builtin(name).unwrap();
        let guard = Guard::new(guard, Settings::defaults(guard), Some("/home/dev".into()));
        for (label, command) in [
            (
                "ordinary",
                "cargo test --workspace && git status --short | head -20",
            ),
            (
                "blocked",
                "cd /tmp && sudo bash -c 'rm -r -f ~ /' ; cat ~/.ssh/id_rsa > .git/x",
            ),
        ] {
            let bytes = event(command);
            c.bench_function(&format!("{name}/{label}"), |b| {
                b.iter(|| process(&guard, &bytes, &options));
            });
        }
    }
}

criterion_group!(benches, check);
criterion_main!(benches);
