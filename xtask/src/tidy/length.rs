//! How long a source file may be: [`MAX_LINES`] in the library crates and xtask,
//! [`CLI_MAX_LINES`] in hook-cli, each with its written exceptions ([`LONG_FILES`],
//! [`CLI_LONG_FILES`]). Code is placed by job; a file past the cap has more than one.

/// The longest a source file under the `src/` of a library crate or of xtask may be, an inline
/// test module included (a test module in its own file is a file of its own).
pub(crate) const MAX_LINES: usize = 800;

/// The files allowed past [`MAX_LINES`] outside hook-cli, at most two: (the file, relative to
/// the workspace root; why).
pub(crate) const LONG_FILES: &[(&str, &str)] = &[];

/// The longest a `hook-cli/src` file may be, tests included.
pub(crate) const CLI_MAX_LINES: usize = 500;

/// The `hook-cli/src` files allowed past [`CLI_MAX_LINES`]: (the file, why).
pub(crate) const CLI_LONG_FILES: &[(&str, &str)] = &[];

/// Whether `file`, a source file of a library crate or of xtask (relative to the workspace
/// root), is over [`MAX_LINES`] lines without a place in [`LONG_FILES`].
pub(crate) fn check_length(file: &str, text: &str) -> Vec<String> {
    let lines = text.lines().count();
    if lines <= MAX_LINES || LONG_FILES.iter().any(|(long, _)| *long == file) {
        return Vec::new();
    }
    vec![format!(
        "{file}: {lines} lines, over {MAX_LINES}: split it by job (a module per job; a long test module into its own file), or, if it must stay whole, add it to LONG_FILES in xtask/src/tidy/length.rs saying why (at most two files)"
    )]
}

/// Whether `file`, a hook-cli source file, is over [`CLI_MAX_LINES`] lines without a place in
/// [`CLI_LONG_FILES`].
pub(crate) fn check_cli_length(file: &str, text: &str) -> Vec<String> {
    let lines = text.lines().count();
    if lines <= CLI_MAX_LINES || CLI_LONG_FILES.iter().any(|(long, _)| *long == file) {
        return Vec::new();
    }
    vec![format!(
        "{file}: {lines} lines, over {CLI_MAX_LINES}: split it (a module per job; a long test module into a sibling tests.rs), or add it to CLI_LONG_FILES in xtask/src/tidy/length.rs saying why"
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cli_file_over_500_lines_fails_unless_listed() {
        let long = "fn f() {}\n".repeat(CLI_MAX_LINES + 1);
        let problems = check_cli_length("hook-cli/src/ops/big.rs", &long);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-cli/src/ops/big.rs: 501 lines, over 500"),
            "{problems:?}"
        );
        assert!(
            check_cli_length("hook-cli/src/ops/big.rs", &"x\n".repeat(CLI_MAX_LINES)).is_empty()
        );
        for (file, why) in CLI_LONG_FILES {
            assert!(
                crate::root().join(file).is_file(),
                "{file} is listed but does not exist"
            );
            assert!(!why.is_empty(), "{file} needs its reason");
        }
    }

    #[test]
    fn a_library_or_xtask_file_over_800_lines_fails_unless_listed() {
        // (file, lines, whether it fails)
        let table = [
            ("hook-exec/src/big.rs", MAX_LINES + 1, true),
            ("xtask/src/conformance/big.rs", MAX_LINES + 1, true),
            ("hook-exec/src/big.rs", MAX_LINES, false),
        ];
        for (file, lines, fails) in table {
            let problems = check_length(file, &"x\n".repeat(lines));
            assert_eq!(problems.len(), usize::from(fails), "{file}: {problems:?}");
            if fails {
                assert!(
                    problems[0]
                        .starts_with(&format!("{file}: 801 lines, over 800: split it by job")),
                    "{problems:?}"
                );
                assert!(problems[0].contains("LONG_FILES"), "{problems:?}");
            }
        }
        assert!(
            LONG_FILES.len() <= 2,
            "at most two written exceptions: {LONG_FILES:?}"
        );
        for (file, why) in LONG_FILES {
            assert!(
                check_length(file, &"x\n".repeat(MAX_LINES + 1)).is_empty(),
                "{file} is listed, so it passes"
            );
            assert!(
                crate::root().join(file).is_file(),
                "{file} is listed in LONG_FILES but does not exist"
            );
            assert!(why.len() > 20, "{file} needs its reason");
        }
    }
}
