//! Native handlers against hostile files: the gate decides on the bytes that are loaded, a
//! library that is not a regular file or is too large is a clear failure (never read
//! unbounded, never waited for), and a plugin's reported output length is checked before a
//! byte is copied.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

#[path = "support/raw_plugin.rs"]
pub(crate) mod raw_plugin;

use std::path::{Path, PathBuf};

use crate::common::{Setup, pre_tool_use};
use hook_config::Handler;
use hook_exec::{EngineOptions, Gate};
use hook_protocol::{Decision, Dialect, Outcome, RunStatus, SkipReason};
use raw_plugin::{Answer, raw_plugin};

const GOOD: Answer = Answer::ok("good");
const EVIL: Answer = Answer::block("evil ran");

/// A user config with one native `PreToolUse` handler loading `library`.
fn config(dialect: Dialect, library: &Path) -> String {
    let library = library.display().to_string();
    match dialect {
        Dialect::Wuu => serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "", "type": "native", "library": library, "timeout": 30}
        ]}})
        .to_string(),
        Dialect::Verboo => serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "native", "library": library, "timeout": 30}]}
        ]}})
        .to_string(),
        Dialect::Lime => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"native\"\nlibrary = {library:?}\ntimeout = 30\n"
        ),
    }
}

fn tool(dialect: Dialect) -> &'static str {
    if dialect == Dialect::Wuu {
        "bash"
    } else {
        "Bash"
    }
}

fn dispatch(setup: &Setup, gate: Option<SwapOnCheck>) -> Outcome {
    let mut engine = setup.engine(EngineOptions::default());
    if let Some(gate) = gate {
        engine = engine.with_gate(gate);
    }
    let input = setup.input(pre_tool_use(tool(setup.dialect), "ls"));
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

/// A gate that lets everything run, but replaces the library file with another while it
/// decides: the moment between a check and a load.
struct SwapOnCheck {
    library: PathBuf,
    replacement: PathBuf,
}

impl Gate for SwapOnCheck {
    fn check(&self, _: &Handler) -> Option<(SkipReason, String)> {
        let staged = self.library.with_extension("staged");
        std::fs::copy(&self.replacement, &staged).unwrap();
        std::fs::rename(&staged, &self.library).unwrap();
        None
    }
}

#[test]
fn a_library_replaced_while_the_gate_decides_is_not_what_runs() {
    for dialect in Dialect::ALL {
        let dir = tempfile::tempdir().unwrap();
        let library = dir.path().join("hook.so");
        std::fs::copy(raw_plugin(GOOD), &library).unwrap();
        let setup = Setup::new(dialect, &config(dialect, &library));
        let gate = SwapOnCheck {
            library: library.clone(),
            replacement: raw_plugin(EVIL),
        };
        let outcome = dispatch(&setup, Some(gate));
        assert_eq!(
            outcome.runs[0].status,
            RunStatus::Ok,
            "{dialect}: {outcome:#?}"
        );
        assert_eq!(
            outcome.runs[0].exit_code,
            Some(0),
            "{dialect}: {outcome:#?}"
        );
        assert_eq!(outcome.decision, Decision::Continue, "{dialect}");
        // The replacement is what the next dispatch reads, checks and runs.
        let outcome = dispatch(&setup, None);
        assert_eq!(outcome.decision, Decision::Block, "{dialect}: {outcome:#?}");
    }
}

#[test]
fn a_long_lived_engine_runs_a_rebuilt_library_new_code() {
    // One engine, as in an agent's session: the plugin is rebuilt in place (same path, same
    // inode, new bytes), then replaced by a rename; each dispatch runs the bytes on disk now.
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("hook.so");
    std::fs::copy(raw_plugin(GOOD), &library).unwrap();
    let setup = Setup::new(Dialect::Verboo, &config(Dialect::Verboo, &library));
    let engine = setup.engine(EngineOptions::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let decide = || {
        let input = setup.input(pre_tool_use("Bash", "ls"));
        runtime.block_on(engine.dispatch(&input)).decision
    };
    assert_eq!(decide(), Decision::Continue);
    std::fs::write(&library, std::fs::read(raw_plugin(EVIL)).unwrap()).unwrap();
    assert_eq!(decide(), Decision::Block, "rebuilt in place");
    let staged = dir.path().join("hook.staged");
    std::fs::copy(raw_plugin(GOOD), &staged).unwrap();
    std::fs::rename(&staged, &library).unwrap();
    assert_eq!(decide(), Decision::Continue, "replaced by a rename");
}

/// `(library, what the error says)` for each file that must never be read as a library.
fn hostile_libraries(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let fifo = dir.join("fifo.so");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    // Sparse: one byte over the cap, no disk used.
    let huge = dir.join("huge.so");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(hook_exec::native::LIBRARY_SIZE_CAP + 1)
        .unwrap();
    let folder = dir.join("folder.so");
    std::fs::create_dir(&folder).unwrap();
    vec![
        (
            PathBuf::from("/dev/zero"),
            "is not a regular file but a character device",
        ),
        (fifo, "is not a regular file but a FIFO"),
        (folder, "is not a regular file but a folder"),
        (huge, "is larger than the 256 MiB cap"),
        (dir.join("missing.so"), "cannot be opened"),
    ]
}

#[test]
fn special_and_oversized_libraries_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    for (library, says) in hostile_libraries(dir.path()) {
        let error = hook_exec::native::library_digest(&library).unwrap_err();
        assert!(
            error.to_string().contains(says),
            "{}: {error}",
            library.display()
        );
        assert!(
            error.to_string().contains(&library.display().to_string()),
            "{error}"
        );
    }
}

#[test]
fn special_and_oversized_libraries_fail_the_run_with_why() {
    let dir = tempfile::tempdir().unwrap();
    for (library, says) in hostile_libraries(dir.path()) {
        for dialect in Dialect::ALL {
            let setup = Setup::new(dialect, &config(dialect, &library));
            let outcome = dispatch(&setup, None);
            let run = &outcome.runs[0];
            assert_eq!(run.status, RunStatus::Failed, "{dialect}: {outcome:#?}");
            let error = run.error.as_deref().unwrap();
            assert!(
                error.contains(says),
                "{dialect} {}: {error}",
                library.display()
            );
            assert_eq!(outcome.decision, Decision::Continue);
        }
    }
}

#[test]
fn a_reported_output_length_over_the_cap_is_refused_before_copying() {
    // The plugin reports a terabyte of stdout behind a 4-byte buffer: copying first would
    // read far past it (or abort on the allocation).
    let liar = raw_plugin(Answer {
        exit_code: 0,
        stderr: "",
        stdout_len: 1 << 40,
    });
    for dialect in Dialect::ALL {
        let setup = Setup::new(dialect, &config(dialect, &liar));
        let outcome = dispatch(&setup, None);
        let run = &outcome.runs[0];
        assert_eq!(run.status, RunStatus::Failed, "{dialect}: {outcome:#?}");
        let error = run.error.as_deref().unwrap();
        assert!(error.contains("stdout went over 1048576 bytes"), "{error}");
    }
}
