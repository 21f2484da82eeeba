//! The engine's cost over a bare spawn, and concurrency against the wuu serial chain.
//!
//! - `overhead/engine` dispatches one event to one `exit 0` command hook (verboo) through the
//!   whole engine; `overhead/bare spawn` spawns `/bin/sh -c 'exit 0'` with the same event JSON
//!   piped to its stdin from the same process (tokio process). The ratio is printed at the end.
//! - `fanout/verboo` dispatches one event to 20 matching `sleep 0.05` hooks (concurrent);
//!   `fanout/wuu` does the same through wuu's serial chain. Their ratio is printed too.
//!
//! Run: `cargo bench -p hook-sdk --bench dispatch -- --warm-up-time 1 --measurement-time 5`.

#![allow(missing_docs)]
// The closing summary is a bench's output.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use hook_config::{Environment, LoadOptions, load};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::Dialect;
use hook_protocol::input::{EventInput, parse_input};
use serde_json::json;
use tokio::io::AsyncWriteExt;

/// Total time and iterations of each benchmark, over warm-up and measurement.
type Tally = RefCell<BTreeMap<&'static str, (Duration, u64)>>;

fn record(tally: &Tally, name: &'static str, took: Duration, iters: u64) -> Duration {
    let mut tally = tally.borrow_mut();
    let entry = tally.entry(name).or_default();
    entry.0 += took;
    entry.1 += iters;
    took
}

fn mean(tally: &Tally, name: &str) -> Option<Duration> {
    let tally = tally.borrow();
    let (took, iters) = tally.get(name)?;
    u32::try_from(*iters)
        .ok()
        .filter(|n| *n > 0)
        .map(|n| *took / n)
}

/// An engine over `config` written as the user layer of `dialect`, and an input for `event`.
fn engine(
    dir: &std::path::Path,
    dialect: Dialect,
    config: &str,
    event: serde_json::Value,
) -> (Engine, EventInput) {
    let name = match dialect {
        Dialect::Wuu => "config.json",
        Dialect::Verboo => "settings.json",
        Dialect::Lime => "config.toml",
    };
    let home = dir.join(format!("home-{dialect}"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join(name), config).unwrap();
    let env = Environment::empty();
    let loaded = load(
        &LoadOptions::new(dialect, env)
            .without_managed()
            .with_home(home)
            .with_project(dir),
    )
    .unwrap();
    assert!(!loaded.has_errors());
    let mut event = event;
    event["cwd"] = json!(dir);
    event["session_id"] = json!("bench");
    let input = parse_input(dialect, event.to_string().as_bytes()).unwrap();
    (
        Engine::new(loaded.registry)
            .with_gate(hook_exec::AllowAll)
            .with_options(EngineOptions::default()),
        input,
    )
}

async fn bare_spawn(stdin: &[u8], cwd: &std::path::Path) {
    let mut child = tokio::process::Command::new("/bin/sh")
        .arg("-c")
        .arg("exit 0")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin).await;
    }
    let status = child.wait().await.unwrap();
    assert!(status.success());
}

fn overhead(c: &mut Criterion, rt: &tokio::runtime::Runtime, tally: &Tally) {
    let dir = tempfile::tempdir().unwrap();
    let config =
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}});
    let event = json!({"hook_event_name": "Stop", "stop_hook_active": false});
    let (engine, input) = engine(dir.path(), Dialect::Verboo, &config.to_string(), event);
    let stdin = serde_json::to_vec(&input.to_value()).unwrap();

    let mut group = c.benchmark_group("overhead");
    group.sample_size(50);
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let outcome = engine.dispatch(&input).await;
                    assert_eq!(outcome.runs[0].status, hook_protocol::RunStatus::Ok);
                }
                record(tally, "overhead/engine", start.elapsed(), iters)
            })
        });
    });
    group.bench_function("bare spawn", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    bare_spawn(&stdin, dir.path()).await;
                }
                record(tally, "overhead/bare spawn", start.elapsed(), iters)
            })
        });
    });
    group.finish();
}

fn fanout(c: &mut Criterion, rt: &tokio::runtime::Runtime, tally: &Tally) {
    let dir = tempfile::tempdir().unwrap();
    // Distinct commands: verboo runs identical handlers once.
    let commands: Vec<String> = (0..20).map(|i| format!("sleep 0.05 # {i}")).collect();
    let verboo = json!({"hooks": {"Stop": [{"hooks": commands.iter()
        .map(|c| json!({"type": "command", "command": c})).collect::<Vec<_>>()}]}});
    let wuu = json!({"hooks": {"Stop": commands.iter()
        .map(|c| json!({"command": c})).collect::<Vec<_>>()}});
    let stop = json!({"hook_event_name": "Stop", "stop_hook_active": false});
    let engines = [
        (
            "verboo",
            "fanout/verboo",
            engine(
                dir.path(),
                Dialect::Verboo,
                &verboo.to_string(),
                stop.clone(),
            ),
        ),
        (
            "wuu",
            "fanout/wuu",
            engine(
                dir.path(),
                Dialect::Wuu,
                &wuu.to_string(),
                json!({"hook_event_name": "Stop"}),
            ),
        ),
    ];

    let mut group = c.benchmark_group("fanout");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for (name, key, (engine, input)) in &engines {
        group.bench_function(*name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let start = Instant::now();
                    for _ in 0..iters {
                        let outcome = engine.dispatch(input).await;
                        assert_eq!(outcome.runs.len(), 20);
                    }
                    record(tally, key, start.elapsed(), iters)
                })
            });
        });
    }
    group.finish();
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let tally = Tally::default();
    let mut c = Criterion::default().configure_from_args();
    overhead(&mut c, &rt, &tally);
    fanout(&mut c, &rt, &tally);
    c.final_summary();

    for (what, slow, fast) in [
        (
            "engine / bare spawn",
            "overhead/engine",
            "overhead/bare spawn",
        ),
        (
            "wuu serial / verboo concurrent",
            "fanout/wuu",
            "fanout/verboo",
        ),
    ] {
        if let (Some(a), Some(b)) = (mean(&tally, slow), mean(&tally, fast)) {
            println!(
                "ratio {what}: {:.2} ({a:?} / {b:?} per iteration, mean over warm-up and measurement)",
                a.as_secs_f64() / b.as_secs_f64()
            );
        }
    }
}
