//! No crate opens, locks or stamps a file by hand outside the safe-filesystem module and the
//! exceptions of [`RAW_FILE_ALLOWED`], each with its reason.

use crate::source::code_lines;

/// Where a file may be opened, locked, given a folder mode or identified by hand: the
/// safe-filesystem module, and the exceptions, each with why. A path ending in `/` is a folder.
pub(crate) const RAW_FILE_ALLOWED: &[(&str, &str)] = &[
    (
        "hook-fs/src/",
        "`hook_fs`, the safe-filesystem crate itself",
    ),
    (
        "hook-cli/src/ops/input.rs",
        "`--input FILE` of `hook run`/`validate`: a path the user names on the command line, read bounded by `read_bounded`; process substitution (`--input <(cmd)`) is a FIFO and must be read",
    ),
    (
        "hook-cli/src/ui/terminal.rs",
        "`close_stdout` points descriptor 1 at the fixed device `/dev/null`",
    ),
    (
        "xtask/src/",
        "the chores write their own logs in folders they create; no project or home path",
    ),
];

/// What [`check_raw_files`] looks for: a file opened, locked, made with a folder mode or
/// identified by hand.
const RAW_FILE_CALLS: &[&str] = &[
    "File::open",
    "File::create",
    "File::options",
    "OpenOptions::new",
    "fs4::",
    "DirBuilder",
    ".ino()",
];

/// Whether `file` (relative to the workspace root) is in [`RAW_FILE_ALLOWED`].
pub(super) fn is_raw_file_allowed(file: &str) -> bool {
    let file = file.replace('\\', "/");
    RAW_FILE_ALLOWED.iter().any(|(allowed, _)| {
        if allowed.ends_with('/') {
            file.starts_with(allowed)
        } else {
            file == *allowed
        }
    })
}

/// The places `text` (the source file `file`, not in [`RAW_FILE_ALLOWED`]) opens, locks, makes
/// a folder with a mode or identifies a file by hand ([`RAW_FILE_CALLS`]), outside comments and
/// test items ([`code_lines`]).
pub(crate) fn check_raw_files(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (number, code) in code_lines(text) {
        for call in RAW_FILE_CALLS {
            if code.contains(call) {
                problems.push(format!(
                    "{file}:{number}: `{call}` outside the safe-filesystem module: use `hook_fs` (`open_regular`, `open_private_append`, `create_new_private`, `open_lock`, `private_folder`, `FileStamp`...), or, if this file must, add it to RAW_FILE_ALLOWED in xtask/src/tidy/raw_files.rs saying why"
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raw_file_open_outside_the_fs_module_fails_naming_the_line_and_the_fix() {
        let text = "use std::fs::OpenOptions;\nfn f() {\n    let _ = std::fs::File::open(\"x\");\n    // File::open in a comment\n    let _ = OpenOptions::new().read(true);\n}\n#[cfg(test)]\nmod tests {\n    fn g() { let _ = std::fs::File::create(\"y\"); }\n}\n";
        let problems = check_raw_files("hook-exec/src/x.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("hook-exec/src/x.rs:3: `File::open`"));
        assert!(problems[0].contains("hook_fs"));
        assert!(problems[1].starts_with("hook-exec/src/x.rs:5: `OpenOptions::new`"));
        assert!(is_raw_file_allowed("hook-fs/src/lock.rs"));
        assert!(is_raw_file_allowed("xtask/src/conformance/mod.rs"));
        assert!(!is_raw_file_allowed("hook-exec/src/journal.rs"));
    }

    #[test]
    fn the_raw_file_exceptions_exist_and_say_why() {
        let root = crate::root();
        for (path, why) in RAW_FILE_ALLOWED {
            assert!(
                root.join(path).exists(),
                "{path} in RAW_FILE_ALLOWED does not exist"
            );
            assert!(why.len() > 20, "{path}: say why");
        }
    }
}
