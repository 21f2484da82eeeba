//! The same hook (`block_dangerous_bash`) as a native plugin and as an executable, dispatched
//! through `hook_exec::Engine`; and the executable's wall time against an equivalent Python 3
//! hook reading stdin with the standard `json` module.
//!
//! `cargo bench -p hook-sdk --bench native_vs_exec -- --warm-up-time 1 --measurement-time 5`
#![allow(clippy::unwrap_used, missing_docs)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{Criterion, criterion_group, criterion_main};
use hook_config::{Environment, LoadOptions, load};
use hook_exec::Engine;
use hook_protocol::input::parse_input;
use hook_protocol::{Decision, Dialect};
use serde_json::json;

const PYTHON_HOOK: &str = r#"
import json, sys
event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if "rm -rf /" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf /"}}))
else:
    print("{}")
"#;

/// The examples, built in the release profile (a no-op after `cargo bench` built them).
fn examples() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--release",
            "-p",
            "hook-sdk",
            "--examples",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success());
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("release").join("examples")
}

fn engine(dir: &Path, handler: serde_json::Value) -> Engine {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let config = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
    std::fs::write(home.join("settings.json"), config.to_string()).unwrap();
    let env = Environment::empty();
    let options = LoadOptions::new(Dialect::Verboo, env)
        .without_managed()
        .with_home(home)
        .with_project(dir);
    Engine::new(load(&options).unwrap().registry).with_gate(hook_exec::AllowAll)
}

fn spawn(command: &mut Command, input: &[u8]) -> Vec<u8> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    output.stdout
}

fn bench(c: &mut Criterion) {
    let examples = examples();
    let executable = examples.join("block_dangerous_bash");
    let library = examples.join(format!(
        "{}block_dangerous_bash_native{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let dir = tempfile::tempdir().unwrap();
    let native_dir = dir.path().join("native");
    let exec_dir = dir.path().join("exec");
    std::fs::create_dir_all(&native_dir).unwrap();
    std::fs::create_dir_all(&exec_dir).unwrap();
    let native = engine(&native_dir, json!({"type": "native", "library": library}));
    let exec = engine(&exec_dir, json!({"type": "command", "command": executable}));

    let mut event = hook_sdk::testing::input(
        Dialect::Verboo,
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
    );
    event["cwd"] = json!(dir.path());
    let bytes = event.to_string().into_bytes();
    let input = parse_input(Dialect::Verboo, &bytes).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for engine in [&native, &exec] {
        let outcome = runtime.block_on(engine.dispatch(&input));
        assert_eq!(outcome.decision, Decision::Block, "{outcome:#?}");
    }

    let mut group = c.benchmark_group("dispatch");
    group.bench_function("native", |b| {
        b.iter(|| runtime.block_on(native.dispatch(&input)))
    });
    group.bench_function("executable", |b| {
        b.iter(|| runtime.block_on(exec.dispatch(&input)))
    });
    group.finish();

    // The interpreter itself, not a version manager's shim in front of it.
    let python = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let python = String::from_utf8(python.stdout).unwrap().trim().to_owned();
    let python_output = spawn(Command::new(&python).args(["-c", PYTHON_HOOK]), &bytes);
    let rust_output = spawn(
        Command::new(&executable).env("HOOK_DIALECT", "verboo"),
        &bytes,
    );
    let parsed = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).unwrap();
    assert_eq!(
        parsed(&python_output)["hookSpecificOutput"]["permissionDecision"],
        parsed(&rust_output)["hookSpecificOutput"]["permissionDecision"]
    );
    let mut group = c.benchmark_group("wall");
    group.bench_function("executable", |b| {
        b.iter(|| {
            spawn(
                Command::new(&executable).env("HOOK_DIALECT", "verboo"),
                &bytes,
            )
        })
    });
    group.bench_function("python3", |b| {
        b.iter(|| spawn(Command::new(&python).args(["-c", PYTHON_HOOK]), &bytes))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
