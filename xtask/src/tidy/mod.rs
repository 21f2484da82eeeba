//! `cargo xtask tidy`: the rules ARCHITECTURE.md and CONTRIBUTING.md state, enforced. Each
//! check fails with the edge (or path, or file and line) and the fix.
//!
//! From `cargo metadata --format-version 1 --no-deps` and `cargo tree` ([`graph`]):
//!
//! - every internal dependency (normal or build, not dev) of a workspace crate is in
//!   [`graph::ALLOWED`], which is the "Layers" picture as a table;
//! - the crates in [`graph::FORBIDDEN_EXTERNAL`] do not depend (normally) on the external crates
//!   listed there (a hashes-and-stores crate does not compile an async runtime or an HTTP
//!   client);
//! - the crates in [`graph::FORBIDDEN_TRANSITIVE`] do not reach the crates listed there through
//!   normal dependencies, even transitively, with the features they really get: `cargo tree -e
//!   normal -p CRATE` resolves them for that crate alone, as a vendor depending on it would (the
//!   resolve graph of `cargo metadata` unifies the features of the whole workspace, so it would
//!   show hook-sdk reaching the validator that only hook-cli enables).
//!
//! From one walk over every crate's `src/`, each file read once:
//!
//! - a library crate's `src/` (every crate but those in [`calls::MAY_PRINT`]) holds no
//!   `println!`, `eprintln!`, `print!`, `eprint!` or `dbg!` outside comments, and no crate
//!   makes a call [`calls::FORBIDDEN_CALLS`] forbids it (I/O in hook-protocol, a process
//!   spawned outside hook-exec);
//! - every public type is `#[non_exhaustive]` or closed on purpose
//!   ([`crate::public_api::check_public_types`]);
//! - no crate's `src/` names a dialect in code (`Dialect::Lime`, `EventInput::Wuu`...) outside
//!   the homes of the dialects' rules and the documented exceptions of
//!   [`dialects::DIALECT_HOMES`]: everything else asks `dialect.rules()`;
//! - no crate's `src/` opens, locks or stamps a file by hand (`File::open`, `File::create`,
//!   `OpenOptions::new`, `fs4::`, `DirBuilder`, `.ino()`) outside the safe-filesystem module
//!   `hook_fs` and the exceptions of [`raw_files::RAW_FILE_ALLOWED`], each with its
//!   reason;
//! - hook-cli's own layers ([`cli_layers::CLI_LAYERS`]): a file under `commands/` imports no
//!   other command file, `ops/` neither parses arguments nor prints nor reaches
//!   `commands`/`ui`, `ui/` never calls a command;
//! - no file is too long ([`length`]): over [`length::CLI_MAX_LINES`] lines in hook-cli, over
//!   [`length::MAX_LINES`] elsewhere, but the written exceptions;
//! - no two files of a crate's `src/` import each other, however far round, a glob import
//!   counting as an import of every sibling but in the folders of [`cycles::GLOBS_EXEMPT`]
//!   ([`crate::import_cycles::check_cycles`]).
//!
//! From the committed API snapshots `api/<crate>.txt`: no item is public under two paths
//! ([`api_paths`], which states the workspace's rule for where an item's one path is).
//!
//! From the files that ship in a package (manifests, READMEs, `packaging/`): no placeholder
//! address such as `https://github.com/example/...` ([`placeholders`]).
//!
//! Test code (`#[cfg(test)]` items, `tests.rs`, a `tests/` folder below `src/`) is free of the
//! dialect, raw-file and (in hook-cli) call checks: tests name what they test.
//!
//! `cargo xtask tidy` runs them, and so does the `#[test]` `tests::the_workspace_is_tidy`, so
//! `cargo test --workspace` fails on what tidy fails on.

mod api_paths;
mod calls;
mod cli_layers;
mod cycles;
mod dialects;
mod graph;
mod length;
mod placeholders;
mod raw_files;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// Runs every check on the workspace at `root`; fails listing each problem.
pub(crate) fn run(root: &Path) -> Result<()> {
    let stdout = crate::cargo_stdout(root, &["metadata", "--format-version", "1", "--no-deps"])?;
    let metadata: Value =
        serde_json::from_slice(&stdout).context("reading cargo metadata's JSON")?;
    let mut problems = graph::check_graph(&metadata);
    for (name, forbidden, fix) in graph::FORBIDDEN_TRANSITIVE {
        let tree = graph::cargo_tree(root, name)?;
        problems.extend(graph::check_transitive(name, forbidden, fix, &tree));
    }
    for (name, src) in crates(&metadata) {
        let shown_src = src.strip_prefix(root).unwrap_or(&src);
        let shown_src = shown_src.display().to_string().replace('\\', "/");
        let mut files = Vec::new();
        for file in rust_files(&src)? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let in_src = file.strip_prefix(&src).unwrap_or(&file);
            let in_src = in_src.display().to_string().replace('\\', "/");
            let shown = format!("{shown_src}/{in_src}");
            problems.extend(check_file(&name, &shown, is_test_file(&file), &text));
            files.push((in_src, text));
        }
        problems.extend(cycles::check_crate_cycles(&shown_src, &files));
    }
    problems.extend(api_paths::check_snapshots(root)?);
    let crate_folders: Vec<PathBuf> = crates(&metadata)
        .into_iter()
        .filter_map(|(_, src)| Some(src.parent()?.to_path_buf()))
        .collect();
    problems.extend(placeholders::check_placeholders(root, &crate_folders)?);
    if problems.is_empty() {
        println!(
            "tidy: hook-cli's commands/ops/ui layers hold and no file of it is over 500 lines, nor one of another crate over 800; no crate's files import each other in a cycle; the crate graph is the one ARCHITECTURE.md draws, no forbidden crate is reached, no library prints, hook-protocol and hook-guards do no I/O and only hook-exec spawns, every public type is #[non_exhaustive] or closed on purpose and public under one path, no dialect is named outside its homes, no file is opened, locked or stamped outside hook_fs, no file a package ships names a placeholder address"
        );
        return Ok(());
    }
    for problem in &problems {
        eprintln!("  {problem}");
    }
    bail!("{} tidy problem(s)", problems.len())
}

/// The problems of one source file of crate `name`, `shown` relative to the workspace root
/// (`/`-separated), `test` when it is test code by its place ([`is_test_file`]).
fn check_file(name: &str, shown: &str, test: bool, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if name == "hook-cli" {
        problems.extend(cli_layers::check_cli_layers(shown, text));
        problems.extend(length::check_cli_length(shown, text));
        // The command crate prints; its in-process tests (`src/tests/`) are free like every
        // test.
        if !test {
            problems.extend(calls::check_forbidden_calls(name, shown, text));
        }
    } else {
        problems.extend(length::check_length(shown, text));
    }
    if !calls::MAY_PRINT.contains(&name) {
        problems.extend(calls::check_prints(name, shown, text));
        problems.extend(calls::check_forbidden_calls(name, shown, text));
        problems.extend(crate::public_api::check_public_types(shown, text));
    }
    if !test && !dialects::is_dialect_home(shown) {
        problems.extend(dialects::check_dialect_names(shown, text));
    }
    if !test && !raw_files::is_raw_file_allowed(shown) {
        problems.extend(raw_files::check_raw_files(shown, text));
    }
    problems
}

/// Whether `file` (under a crate's `src/`) is test code by its place: a `tests.rs` module, or a
/// file in a `tests/` folder (the submodules of a `tests` module, `#[cfg(test)] mod tests;`).
/// Only the part below `src/` is looked at: the checkout's own folders say nothing.
fn is_test_file(file: &Path) -> bool {
    let mut below_src = file
        .components()
        .map(|c| c.as_os_str())
        .skip_while(|c| *c != "src")
        .skip(1)
        .peekable();
    let mut in_tests_folder = false;
    while let Some(part) = below_src.next() {
        if below_src.peek().is_none() {
            return in_tests_folder || part == "tests.rs";
        }
        in_tests_folder |= part == "tests";
    }
    false
}

/// The workspace packages of `metadata`.
fn packages(metadata: &Value) -> Vec<&Value> {
    metadata["packages"]
        .as_array()
        .map(|packages| packages.iter().collect())
        .unwrap_or_default()
}

/// Every workspace crate: its name and its `src/` folder.
fn crates(metadata: &Value) -> Vec<(String, PathBuf)> {
    packages(metadata)
        .into_iter()
        .filter_map(|package| {
            let name = package["name"].as_str()?;
            let manifest = Path::new(package["manifest_path"].as_str()?);
            Some((name.to_owned(), manifest.parent()?.join("src")))
        })
        .collect()
}

/// Every `.rs` file under `folder`, sorted.
fn rust_files(folder: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo xtask tidy` as a test, so `cargo test --workspace` runs it (as rust-analyzer's
    /// xtask does): the same checks on this workspace.
    #[test]
    fn the_workspace_is_tidy() {
        if let Err(error) = run(&crate::root()) {
            panic!("{error:#} (the problems are listed above; `cargo xtask tidy` lists them too)");
        }
    }

    #[test]
    fn test_files_are_told_by_their_place_below_src() {
        // (path, test code)
        let table = [
            ("/w/hook-cli/src/ops/relay/install/tests.rs", true),
            ("/w/hook-cli/src/ops/relay/install/tests/timeouts.rs", true),
            ("/w/hook-cli/src/tests/relay/mod.rs", true),
            ("/w/hook-cli/src/ops/relay/install/entries.rs", false),
            // A checkout inside a folder named `tests` is not test code.
            ("/tmp/tests/clone/hook-cli/src/ops/stats.rs", false),
        ];
        for (path, test) in table {
            assert_eq!(is_test_file(Path::new(path)), test, "{path}");
        }
    }
}
