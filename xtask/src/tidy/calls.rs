//! Calls a crate never makes: a library prints nothing ([`check_prints`]: only the crates of
//! [`MAY_PRINT`] do), hook-protocol and hook-guards do no I/O and only hook-exec spawns processes
//! ([`FORBIDDEN_CALLS`]).

use crate::source::{code_lines, strip_comments};

/// The crates that may print (binaries); every other crate is a library.
pub(crate) const MAY_PRINT: &[&str] = &["hook-cli", "xtask"];

/// Calls a library crate never makes: (the crates, the patterns, why and the fix). Code in
/// comments and `#[cfg(test)]` items is free.
pub(crate) const FORBIDDEN_CALLS: &[(&[&str], &[&str], &str)] = &[
    (
        &["hook-protocol", "hook-guards"],
        &[
            "std::fs",
            "std::process",
            "std::net",
            "std::env",
            "SystemTime::now",
            "Instant::now",
            "File::",
        ],
        "hook-protocol and hook-guards do no I/O (no file, process, network, clock or environment): take the value as an argument from the caller (ARCHITECTURE.md \"Invariants\")",
    ),
    (
        &[
            "hook-protocol",
            "hook-config",
            "hook-trust",
            "hook-sdk",
            "hook-guards",
        ],
        &["process::Command", "Command::new", "libloading"],
        "only hook-exec spawns processes and loads native plugins: move the call into hook-exec (ARCHITECTURE.md \"Invariants\")",
    ),
    (
        // `clap::Command::new` is the CLI's own, so only `process::Command` is looked for.
        &["hook-cli"],
        &["process::Command", "libloading"],
        "only hook-exec spawns processes and loads native plugins: run the program with `ops::program::run_program` (hook-exec's command runner) (ARCHITECTURE.md \"Invariants\")",
    ),
];

/// Where `text` (a source file of crate `name`, shown as `file`) makes a call
/// [`FORBIDDEN_CALLS`] forbids to its crate.
pub(crate) fn check_forbidden_calls(name: &str, file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (crates, patterns, why) in FORBIDDEN_CALLS {
        if !crates.contains(&name) {
            continue;
        }
        for (number, code) in code_lines(text) {
            for pattern in *patterns {
                if code.contains(pattern) {
                    problems.push(format!("{file}:{number}: `{pattern}` in {name}: {why}"));
                }
            }
        }
    }
    problems
}

/// The macros a library never calls.
const PRINT_MACROS: &[&str] = &["println", "eprintln", "print", "eprint", "dbg"];

/// The print macros called in `text` (a source file of crate `name`, shown as `file`),
/// outside `//` and `/* */` comments.
pub(crate) fn check_prints(name: &str, file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut in_block = false;
    for (number, line) in text.lines().enumerate() {
        let code = strip_comments(line, &mut in_block);
        for found in print_macros(&code) {
            problems.push(format!(
                "{file}:{}: `{found}!` in library crate {name}: a library returns values and errors, only hook-cli prints (ARCHITECTURE.md \"Invariants\")",
                number + 1
            ));
        }
    }
    problems
}

/// The print macro names invoked in `code` (`name!` not preceded by an identifier character).
fn print_macros(code: &str) -> Vec<&'static str> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for name in PRINT_MACROS {
        let pattern = format!("{name}!");
        let mut from = 0;
        while let Some(at) = code[from..].find(&pattern) {
            let start = from + at;
            let before = start.checked_sub(1).map(|i| bytes[i]);
            if !before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                found.push(*name);
            }
            from = start + pattern.len();
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_in_hook_protocol_or_a_spawn_outside_hook_exec_fails_naming_the_line() {
        let text = "use std::fs::File;\nfn f() { let _ = std::env::var(\"X\"); }\n// std::process::exit in a comment\n#[cfg(test)]\nmod tests {\n    fn g() { let _ = std::fs::read(\"x\"); }\n}\n";
        let problems = check_forbidden_calls("hook-protocol", "hook-protocol/src/x.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with(
                "hook-protocol/src/x.rs:1: `std::fs` in hook-protocol: hook-protocol and hook-guards do no I/O"
            ),
            "{problems:?}"
        );
        let spawn = "fn f() { std::process::Command::new(\"sh\").spawn(); }\n";
        let problems = check_forbidden_calls("hook-trust", "hook-trust/src/x.rs", spawn);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("`Command::new` in hook-trust: only hook-exec spawns")),
            "{problems:?}"
        );
        assert_eq!(
            check_forbidden_calls("hook-exec", "hook-exec/src/x.rs", spawn),
            Vec::<String>::new()
        );
        // The command crate: a process started outside hook-exec fails, its own clap
        // `Command` does not.
        let problems = check_forbidden_calls("hook-cli", "hook-cli/src/ops/x.rs", spawn);
        assert!(
            problems.iter().any(|p| p.starts_with(
                "hook-cli/src/ops/x.rs:1: `process::Command` in hook-cli: only hook-exec spawns"
            ) && p.contains("run_program")),
            "{problems:?}"
        );
        let clap = "fn f() { clap::Command::new(\"hook relay\"); }\n";
        assert_eq!(
            check_forbidden_calls("hook-cli", "hook-cli/src/main.rs", clap),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_library_that_prints_fails_outside_comments() {
        let text = "fn f() {\n    println!(\"x\");\n    let _ = dbg!(1); eprint!(\"y\");\n}\n";
        let problems = check_prints("hook-config", "hook-config/src/x.rs", text);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0]
                .starts_with("hook-config/src/x.rs:2: `println!` in library crate hook-config"),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("hook-config/src/x.rs:3: `dbg!`")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("hook-config/src/x.rs:3: `eprint!`")),
            "{problems:?}"
        );
    }

    #[test]
    fn comments_and_lookalikes_pass() {
        let text = "//! println!(\"doc\")\n/// eprintln!(\"doc\")\nlet a = 1; // dbg!(a)\n/* print!(\n eprint!( */ writeln!(out, \"x\")?;\nmy_println!(1);\n";
        assert_eq!(
            check_prints("hook-config", "f.rs", text),
            Vec::<String>::new()
        );
    }
}
