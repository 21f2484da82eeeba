//! A fuzz driver for the configuration parsers (issue 10): JSON and TOML documents of every
//! dialect, read the whole way (`parse_hooks`: syntax, the position-keeping tree, the dialect's
//! reading, matchers, `if` rules, timeouts) and, for a share of the cases, from a real file
//! through the loader's bounded reader (`read_hooks_file` and `load`).
//!
//! Inputs are structure-aware: valid seed configurations of each dialect mutated by byte
//! flips, inserted, deleted and duplicated spans, deep nesting, long lines, huge numbers and
//! odd Unicode (control characters, bidi overrides, a BOM, NUL, combining marks, line and
//! paragraph separators); plus raw bytes. What is checked: nothing panics or overflows the
//! stack (either kills the test), and every error about a document's text has a line and a
//! column.
//!
//! The normal suite runs a short pass (a few seconds). A longer run, e.g. ten minutes:
//!
//! ```text
//! HOOK_FUZZ_SECONDS=600 cargo test --release -p hook-config --test it fuzz:: -- --nocapture
//! ```
//!
//! It keeps starting fresh randomly seeded proptest runners until the deadline, then prints
//! the number of cases. A failure prints the minimal input proptest shrank it to.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hook_config::{Diagnostic, parse_hooks, read_hooks_file};
use hook_protocol::Dialect;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Valid configurations: (dialect, TOML?, text).
const SEEDS: &[(Dialect, bool, &str)] = &[
    (
        Dialect::Wuu,
        false,
        r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "./check.sh", "timeout": 5},
  {"type": "prompt", "prompt": "ok?"}], "Stop": [{"command": "echo done"}]},
 "plugins": {"fmt": {"enabled": true}}}"#,
    ),
    (
        Dialect::Verboo,
        false,
        r#"{"model": "x", "enabledPlugins": {"fmt": true}, "disableAllHooks": false,
 "hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
   {"type": "command", "command": "./lint.sh", "timeout": 60, "if": "Bash(git push*)"},
   {"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"A": "b"}, "allowedEnvVars": ["X"]},
   {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"k": [1, 2.5, null, true]}}]}],
  "Stop": [{"hooks": [{"type": "agent", "prompt": "verify", "model": "m"}]}]}}"#,
    ),
    (
        Dialect::Lime,
        true,
        "# mine\nmodel = \"x\"\n[plugins.fmt]\nenabled = true\n\n[[hooks.PreToolUse]]\nmatcher = \"^Bash$\"\n\
         [[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./check.sh\"\ntimeout = 30\n\
         additionalContextLimit = 100\n\n[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\n\
         type = \"command\"\ncommand = 'echo bye'\ntimeout = 2.5\n\n\
         [hooks.state.\"user:config.toml:Stop::0\"]\ntrusted_hash = \"sha256:00\"\n",
    ),
    (
        Dialect::Lime,
        true,
        "hooks = {Stop = [{hooks = [{type = \"command\", command = \"x\", args = [\"a\", \"b\"]}]}]}\n\
         when = 1979-05-27T07:32:00Z\nn = [1, 2, [3, {a = 0x10}]]\n",
    ),
    (
        Dialect::Lime,
        false,
        r#"{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/fmt.sh"}]}]}}"#,
    ),
];

/// Fragments worth inserting: structure, huge and odd numbers, odd Unicode.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "'",
    "=",
    "\n",
    "\\",
    "\\u0000",
    "\\ud800",
    "#",
    "[[",
    "]]",
    "{\"hooks\": ",
    "\"hooks\"",
    "hooks.",
    "\"timeout\": ",
    "timeout = ",
    "\"type\": \"native\"",
    "\"matcher\": \"(\"",
    "\"if\": \"Bash(\"",
    "99999999999999999999",
    "-9223372036854775809",
    "1e400",
    "-1e-400",
    "1e308",
    "0x7fffffffffffffff",
    "0b1",
    "nan",
    "inf",
    "-0",
    "1_000",
    "\u{0}",
    "\u{1b}[2K\r",
    "\u{202e}",
    "\u{feff}",
    "\u{2028}",
    "\u{2029}",
    "e\u{301}",
    "\u{10ffff}",
    "\u{fffd}",
    "\t",
    "\r\n",
    "\"\"\"",
    "'''",
    "1979-05-27",
    "true",
    "null",
];

/// One way to change a document.
#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        bits: u8,
    },
    Insert {
        at: usize,
        fragment: usize,
    },
    Delete {
        at: usize,
        len: usize,
    },
    Duplicate {
        at: usize,
        len: usize,
        to: usize,
    },
    Nest {
        at: usize,
        depth: usize,
        object: bool,
    },
    LongLine {
        at: usize,
        len: usize,
    },
    HugeNumber {
        at: usize,
        digits: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<prop::sample::Index>().prop_map(|i| i.index(usize::MAX));
    prop_oneof![
        4 => (at.clone(), 1..=255u8).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        4 => (at.clone(), 0..FRAGMENTS.len()).prop_map(|(at, fragment)| Mutation::Insert { at, fragment }),
        3 => (at.clone(), 1..64usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        2 => (at.clone(), 1..200usize, at.clone()).prop_map(|(at, len, to)| Mutation::Duplicate { at, len, to }),
        1 => (at.clone(), prop_oneof![1..140usize, 1..3000usize], any::<bool>())
            .prop_map(|(at, depth, object)| Mutation::Nest { at, depth, object }),
        1 => (at.clone(), 1..100_000usize).prop_map(|(at, len)| Mutation::LongLine { at, len }),
        1 => (at, 19..400usize).prop_map(|(at, digits)| Mutation::HugeNumber { at, digits }),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let place = |at: usize, len: usize| if len == 0 { 0 } else { at % (len + 1) };
    match *mutation {
        Mutation::Flip { at, bits } => {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] ^= bits;
            }
        }
        Mutation::Insert { at, fragment } => {
            let at = place(at, bytes.len());
            bytes.splice(at..at, FRAGMENTS[fragment].bytes());
        }
        Mutation::Delete { at, len } => {
            let at = place(at, bytes.len());
            let end = (at + len).min(bytes.len());
            bytes.drain(at..end);
        }
        Mutation::Duplicate { at, len, to } => {
            let at = place(at, bytes.len());
            let end = (at + len).min(bytes.len());
            let span = bytes[at..end].to_vec();
            let to = place(to, bytes.len());
            bytes.splice(to..to, span);
        }
        Mutation::Nest { at, depth, object } => {
            let at = place(at, bytes.len());
            let (open, close) = if object {
                ("{\"a\": ".repeat(depth), "}".repeat(depth))
            } else {
                ("[".repeat(depth), "]".repeat(depth))
            };
            bytes.splice(at..at, format!("{open}1{close}").into_bytes());
        }
        Mutation::LongLine { at, len } => {
            let at = place(at, bytes.len());
            bytes.splice(at..at, std::iter::repeat_n(b'x', len));
        }
        Mutation::HugeNumber { at, digits } => {
            let at = place(at, bytes.len());
            bytes.splice(at..at, std::iter::repeat_n(b'9', digits));
        }
    }
}

/// A document's bytes, shown as (lossy) text when a case fails.
#[derive(Clone)]
struct Bytes(Vec<u8>);

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = String::from_utf8_lossy(&self.0);
        if text.len() > 2000 {
            let head: String = text.chars().take(2000).collect();
            write!(f, "{head:?}... ({} bytes)", self.0.len())
        } else {
            write!(f, "{text:?}")
        }
    }
}

/// A document to read: (dialect, TOML?, bytes, read it from a file too?).
fn document() -> impl Strategy<Value = (Dialect, bool, Bytes, bool)> {
    let mutated = (
        0..SEEDS.len(),
        prop::collection::vec(mutation(), 0..6),
        0..8u8,
    )
        .prop_map(|(seed, mutations, file)| {
            let (dialect, toml, text) = SEEDS[seed];
            let mut bytes = text.as_bytes().to_vec();
            for m in &mutations {
                apply(&mut bytes, m);
            }
            (dialect, toml, Bytes(bytes), file == 0)
        });
    let raw = (
        prop::sample::select(vec![Dialect::Wuu, Dialect::Verboo, Dialect::Lime]),
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..512),
        0..8u8,
    )
        .prop_map(|(dialect, toml, bytes, file)| (dialect, toml, Bytes(bytes), file == 0));
    prop_oneof![5 => mutated, 1 => raw]
}

/// Every error about the text of `path` (every error when `None`) has a position.
fn check_positions(diagnostics: &[Diagnostic], path: Option<&str>) -> Result<(), TestCaseError> {
    let about = |d: &&Diagnostic| path.is_none_or(|p| d.path == p);
    for d in diagnostics.iter().filter(|d| d.is_error()).filter(about) {
        prop_assert!(
            d.line.is_some() && d.column.is_some(),
            "error without a position: {d}"
        );
    }
    Ok(())
}

fn one_case(
    dialect: Dialect,
    toml: bool,
    bytes: &[u8],
    file: bool,
    dir: &std::path::Path,
) -> Result<(), TestCaseError> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let hooks = parse_hooks(dialect, "fuzz", text, toml);
        check_positions(&hooks.diagnostics, None)?;
    }
    if file {
        // The loader's own reading path: bytes on disk, UTF-8 checked with a position.
        let name = if toml { "config.toml" } else { "config.json" };
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let hooks =
            read_hooks_file(dialect, &path).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_positions(&hooks.diagnostics, None)?;
        let user = match dialect {
            Dialect::Wuu => "config.json",
            Dialect::Verboo => "settings.json",
            Dialect::Lime => "config.toml",
        };
        let user = crate::common::write(dir, &format!("home/{user}"), "");
        std::fs::write(&user, bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded =
            crate::common::load_ok(&crate::common::options(dialect, &dir.join("home"), dir));
        // Enabled plugins are missing: only the user file's own errors must have positions.
        let user = user.display().to_string();
        check_positions(&loaded.diagnostics, Some(&user))?;
        // Nothing is dropped silently: an error about the file's hooks (not about one of its
        // settings, which is ignored) leaves a broken entry that `hook run` reports, with the
        // file and a position.
        let settings = [
            "plugins",
            "enabledPlugins",
            "disableAllHooks",
            "allowManagedHooksOnly",
        ];
        let hook_error = loaded.diagnostics.iter().any(|d| {
            d.is_error() && d.path == user && !settings.iter().any(|s| d.message.starts_with(s))
        });
        let own: Vec<_> = loaded
            .registry
            .broken()
            .iter()
            .filter(|b| b.source.path.as_deref() == Some(user.as_str()))
            .collect();
        prop_assert!(!hook_error || !own.is_empty(), "{:?}", loaded.diagnostics);
        for broken in own {
            prop_assert!(
                broken.error.starts_with(&format!("{user}:")),
                "{}",
                broken.error
            );
            prop_assert!(broken.key.contains(":invalid@"), "{}", broken.key);
        }
    }
    Ok(())
}

#[test]
fn config_parsers_never_panic_and_always_give_positions() {
    let seconds: u64 = std::env::var("HOOK_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = AtomicU64::new(0);
    loop {
        let mut runner = TestRunner::new(Config {
            cases: 1000,
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&document(), |(dialect, toml, bytes, file)| {
            cases.fetch_add(1, Ordering::Relaxed);
            one_case(dialect, toml, &bytes.0, file, dir.path())
        });
        if let Err(error) = result {
            panic!("{error}");
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    let cases = cases.load(Ordering::Relaxed);
    // Seen with `--nocapture` on a long run.
    #[allow(clippy::print_stderr)]
    {
        eprintln!("fuzz: {cases} cases, no failure");
    }
}

#[test]
fn every_seed_is_valid() {
    for (dialect, toml, text) in SEEDS {
        let hooks = parse_hooks(*dialect, "seed", text, *toml);
        assert!(!hooks.has_errors(), "{dialect}: {:?}", hooks.diagnostics);
        assert!(!hooks.hooks.is_empty());
    }
}
