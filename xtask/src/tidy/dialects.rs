//! No crate names a dialect in code outside the homes of the dialects' rules
//! ([`DIALECT_HOMES`]): everything else asks `dialect.rules()`.

use crate::source::code_lines;

/// The files (a path relative to the workspace root) and folders (ending in `/`) whose code may
/// name a dialect (`Dialect::Wuu`, `EventInput::Lime`...), each with why. Everywhere else a
/// difference between dialects is a rule of [`DialectRules`] asked through `dialect.rules()`,
/// so that a dialect's behaviour is written in one place. Tests (`#[cfg(test)]` items, files
/// named `tests.rs` or in a `tests/` folder, and the crates' `tests/`, `benches/` and
/// `examples/`) are free: they name
/// the dialects they test.
///
/// [`DialectRules`]: hook_protocol::DialectRules
pub(crate) const DIALECT_HOMES: &[(&str, &str)] = &[
    (
        "hook-protocol/src/dialect/",
        "the one home of each dialect's rules: `Dialect`, and one `DialectRules` per dialect file",
    ),
    (
        "hook-protocol/src/input/",
        "the dialect readers of event inputs: one typed module per dialect, `EventInput`'s variants",
    ),
    (
        "hook-protocol/src/output/",
        "the dialect readers of hook outputs: one typed module per dialect",
    ),
    (
        "hook-protocol/src/write/",
        "the writer, the readers' other direction (driven by the dialect files' `WriteRules`)",
    ),
    (
        "hook-protocol/src/schema/generate.rs",
        "the schemas are generated from each dialect's own input and output types",
    ),
    (
        "hook-guards/src/table.rs",
        "the guards' case tables are rendered in each agent's event shape, read in its dialect",
    ),
    (
        "hook-sdk/src/event/dialects.rs",
        "the SDK's typed events are built from each dialect's typed input (`EventInput`'s variants)",
    ),
    (
        "hook-sdk/src/run.rs",
        "`infer_dialect`: which dialect sent an input is guessed from fields only one of them sends",
    ),
    (
        "hook-cli/src/ops/relay/agents/",
        "the relay's adapters, one module per agent it speaks for (`claude`, `codex`): each names the dialect its agent speaks",
    ),
    (
        "hook-cli/src/ops/replay/",
        "`hook replay`'s transcript readers: each agent keeps its sessions in a format of its own (Claude Code's transcripts, Codex's rollouts)",
    ),
    (
        "hook-cli/src/ops/scaffold.rs",
        "`hook new` writes a README with each dialect's own configuration snippet, prose per dialect",
    ),
    (
        "xtask/src/conformance/",
        "the conformance runs drive the real Claude Code and Codex CLI, one per dialect",
    ),
];

/// The enums whose variants name a dialect: `Dialect::Lime` and `EventInput::Lime` are a branch
/// on the dialect wherever they appear.
const DIALECT_ENUMS: &[&str] = &["Dialect", "EventInput"];

/// The dialects' variant names.
const DIALECT_VARIANTS: &[&str] = &["Wuu", "Verboo", "Lime"];

/// Whether `file` (relative to the workspace root, `/`-separated) is in [`DIALECT_HOMES`].
pub(super) fn is_dialect_home(file: &str) -> bool {
    let file = file.replace('\\', "/");
    DIALECT_HOMES.iter().any(|(home, _)| {
        if home.ends_with('/') {
            file.starts_with(home)
        } else {
            file == *home
        }
    })
}

/// The places `text` (the source file `file`, not a dialect home) names a dialect in code:
/// `Dialect::Lime`, `EventInput::Wuu`... outside comments and outside `#[cfg(test)]` items.
/// String literals are not parsed (a `//` inside one ends the line's code early: a missed hit);
/// a test item is skipped from its column-0 `#[cfg(test)]` to its column-0 `}` (rustfmt's
/// layout), or to its `;`.
pub(crate) fn check_dialect_names(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (number, code) in code_lines(text) {
        for found in dialect_names(&code) {
            problems.push(format!(
                "{file}:{number}: `{found}` names a dialect outside its homes: ask `dialect.rules()` (add the rule to `DialectRules`, written in `hook-protocol/src/dialect/<dialect>.rs`), or, if this file must name dialects by nature, add it to DIALECT_HOMES in xtask/src/tidy/dialects.rs saying why"
            ));
        }
    }
    problems
}

/// The dialect variants (`Dialect::Lime`) named in `code`, the enum's name not preceded by an
/// identifier character.
fn dialect_names(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for name in DIALECT_ENUMS {
        for variant in DIALECT_VARIANTS {
            let pattern = format!("{name}::{variant}");
            let mut from = 0;
            while let Some(at) = code[from..].find(&pattern) {
                let start = from + at;
                let end = start + pattern.len();
                let before = start.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(end);
                let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
                if !before.as_ref().is_some_and(word) && !after.is_some_and(word) {
                    found.push(pattern.clone());
                }
                from = end;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dialect_named_outside_its_homes_fails_naming_the_line_and_the_fix() {
        let text = "fn f(d: Dialect) -> bool {\n    d == Dialect::Lime\n}\nfn g(i: &EventInput) {\n    if let hook_protocol::input::EventInput::Wuu(_) = i {}\n}\n";
        let problems = check_dialect_names("hook-exec/src/x.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-exec/src/x.rs:2: `Dialect::Lime` names a dialect outside its homes: ask `dialect.rules()`"),
            "{problems:?}"
        );
        assert!(problems[0].contains("DIALECT_HOMES"), "{problems:?}");
        assert!(
            problems[1].starts_with("hook-exec/src/x.rs:5: `EventInput::Wuu`"),
            "{problems:?}"
        );
    }

    #[test]
    fn comments_tests_and_lookalikes_name_no_dialect() {
        let text = "//! `Dialect::Lime` in docs\n/// assert_eq!(Dialect::Wuu.rules().x, 1);\nlet a = 1; // Dialect::Verboo\nlet b = MyDialect::Lime; let c = Dialect::Limes; let d = Dialect::ALL;\n#[cfg(test)]\nmod tests {\n    fn f() { let _ = Dialect::Lime; }\n}\n#[cfg(test)]\nuse hook_protocol::Dialect::Wuu;\n";
        assert_eq!(check_dialect_names("f.rs", text), Vec::<String>::new());
        // Code after a test module is read again.
        let after = format!("{text}fn g() -> Dialect {{ Dialect::Verboo }}\n");
        let problems = check_dialect_names("f.rs", &after);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("f.rs:11: `Dialect::Verboo`"),
            "{problems:?}"
        );
    }

    #[test]
    fn the_dialect_homes_are_folders_or_files_that_exist() {
        let root = crate::root();
        for (home, why) in DIALECT_HOMES {
            assert!(!why.is_empty(), "{home}");
            assert!(root.join(home).exists(), "{home} does not exist");
        }
        assert!(is_dialect_home("hook-protocol/src/dialect/lime.rs"));
        assert!(is_dialect_home("hook-sdk/src/run.rs"));
        assert!(!is_dialect_home("hook-sdk/src/run.rs.bak"));
        assert!(!is_dialect_home("hook-exec/src/combine.rs"));
    }
}
