//! No two files of a crate's `src/` import each other, however far round: the import graph of
//! [`crate::import_cycles`], run on every crate, with the folders whose glob imports are not
//! counted ([`GLOBS_EXEMPT`]).

use crate::import_cycles::check_cycles;

/// The folders whose glob imports (`use super::*`) the import-cycle check does not count as
/// edges (their named imports still count), each with why: (the folder, relative to the
/// workspace root, ending in `/`; the reason). None today: clippy's `wildcard_imports` keeps
/// globs out of code outside test modules, and test files are not in the graph.
pub(crate) const GLOBS_EXEMPT: &[(&str, &str)] = &[];

/// The import cycles of one crate: `shown` is its `src/` relative to the workspace root
/// (`hook-exec/src`), `files` its files relative to `src/` with their text.
pub(crate) fn check_crate_cycles(shown: &str, files: &[(String, String)]) -> Vec<String> {
    let prefix = format!("{shown}/");
    let exempt: Vec<&str> = GLOBS_EXEMPT
        .iter()
        .filter_map(|(folder, _)| folder.strip_prefix(&prefix))
        .collect();
    check_cycles(shown, files, &exempt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glob_exempt_folders_exist_and_say_why() {
        let root = crate::root();
        for (folder, why) in GLOBS_EXEMPT {
            assert!(folder.ends_with('/'), "{folder}: a folder ends in /");
            assert!(
                root.join(folder).is_dir(),
                "{folder} in GLOBS_EXEMPT does not exist"
            );
            assert!(why.len() > 20, "{folder}: say why");
        }
    }
}
