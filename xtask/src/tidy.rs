//! `cargo xtask tidy`: the crate graph ARCHITECTURE.md draws ("Layers"), enforced.
//!
//! From `cargo metadata --format-version 1 --no-deps` and `cargo tree`, four checks, each
//! failing with the edge (or path, or file and line) and the fix:
//!
//! - every internal dependency (normal or build, not dev) of a workspace crate is in
//!   [`ALLOWED`], which is the "Layers" picture as a table;
//! - the crates in [`FORBIDDEN_EXTERNAL`] do not depend (normally) on the external crates
//!   listed there (a hashes-and-stores crate does not compile an async runtime or an HTTP
//!   client);
//! - the crates in [`FORBIDDEN_TRANSITIVE`] do not reach the crates listed there through normal
//!   dependencies, even transitively, with the features they really get: `cargo tree -e normal
//!   -p CRATE` resolves them for that crate alone, as a vendor depending on it would (the
//!   resolve graph of `cargo metadata` unifies the features of the whole workspace, so it would
//!   show hook-sdk reaching the validator that only hook-cli enables);
//! - a library crate's `src/` (every crate but those in [`MAY_PRINT`]) holds no `println!`,
//!   `eprintln!`, `print!`, `eprint!` or `dbg!` outside comments;
//! - no crate's `src/` names a dialect in code (`Dialect::Lime`, `EventInput::Wuu`...) outside
//!   the homes of the dialects' rules and the documented exceptions of [`DIALECT_HOMES`]:
//!   everything else asks `dialect.rules()` ([`check_dialect_names`]);
//! - no crate's `src/` opens, locks or stamps a file by hand (`File::open`, `File::create`,
//!   `OpenOptions::new`, `fs4::`, `DirBuilder`, `.ino()`) outside the safe-filesystem module
//!   `hook_config::fs` and the exceptions of [`RAW_FILE_ALLOWED`], each with its reason
//!   ([`check_raw_files`]).
//!
//! - hook-cli's own layers ([`CLI_LAYERS`]): a file under `commands/` imports no other command
//!   file, `ops/` neither parses arguments nor prints nor reaches `commands`/`ui`, `ui/` never
//!   calls a command; and no `hook-cli/src` file is over [`CLI_MAX_LINES`] lines but those in
//!   [`CLI_LONG_FILES`], each with its reason ([`check_cli_layers`], [`check_cli_length`]);
//! - no two files of a crate's `src/` (every crate: the libraries, hook-cli, xtask) import each
//!   other, however far round, a glob import counting as an import of every sibling but in the
//!   folders of [`GLOBS_EXEMPT`] ([`crate::import_cycles::check_cycles`]).
//!
//! `cargo xtask tidy` runs them, and so does the `#[test]` `tests::the_workspace_is_tidy`, so
//! `cargo test --workspace` fails on what tidy fails on.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::import_cycles::check_cycles;
use crate::source::{code_lines, strip_comments};

/// The internal dependencies each workspace crate may have (normal and build dependencies;
/// dev-dependencies are free). `None`: any. Keep equal to ARCHITECTURE.md "Layers".
pub(crate) const ALLOWED: &[(&str, Option<&[&str]>)] = &[
    ("hook-protocol", Some(&[])),
    ("hook-config", Some(&["hook-protocol"])),
    ("hook-trust", Some(&["hook-protocol", "hook-config"])),
    (
        "hook-exec",
        Some(&["hook-protocol", "hook-config", "hook-trust"]),
    ),
    ("hook-sdk", Some(&["hook-protocol"])),
    ("hook-cli", None),
    ("xtask", Some(&["hook-protocol"])),
];

/// External crates a workspace crate must not depend on (normal dependencies).
pub(crate) const FORBIDDEN_EXTERNAL: &[(&str, &[&str])] = &[
    ("hook-protocol", &["tokio", "reqwest"]),
    ("hook-config", &["tokio", "reqwest"]),
    ("hook-trust", &["tokio", "reqwest"]),
];

/// Crates a workspace crate must not reach through normal dependencies, even transitively:
/// (crate, forbidden crates, the fix).
pub(crate) const FORBIDDEN_TRANSITIVE: &[(&str, &[&str], &str)] = &[
    (
        "hook-sdk",
        &["jsonschema", "schemars"],
        "a hook binary neither validates nor generates schemas: hook-sdk depends on hook-protocol without its `validate` and `schema` features (its `testing` feature, for dev-dependencies, turns `validate` on)",
    ),
    (
        "hook-trust",
        &["hook-exec", "tokio", "reqwest"],
        "hashes and stores need no engine, runtime or HTTP client: move what hook-trust needs into hook-config or hook-protocol, or make the dependency a dev-dependency",
    ),
];

/// The crates that may print (binaries); every other crate is a library.
pub(crate) const MAY_PRINT: &[&str] = &["hook-cli", "xtask"];

/// Calls a library crate never makes: (the crates, the patterns, why and the fix). Code in
/// comments and `#[cfg(test)]` items is free.
pub(crate) const FORBIDDEN_CALLS: &[(&[&str], &[&str], &str)] = &[
    (
        &["hook-protocol"],
        &[
            "std::fs",
            "std::process",
            "std::net",
            "std::env",
            "SystemTime::now",
            "Instant::now",
            "File::",
        ],
        "hook-protocol does no I/O (no file, process, network, clock or environment): take the value as an argument from the caller (ARCHITECTURE.md \"Invariants\")",
    ),
    (
        &["hook-protocol", "hook-config", "hook-trust", "hook-sdk"],
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
        "hook-sdk/src/event/dialects.rs",
        "the SDK's typed events are built from each dialect's typed input (`EventInput`'s variants)",
    ),
    (
        "hook-sdk/src/run.rs",
        "`infer_dialect`: which dialect sent an input is guessed from fields only one of them sends",
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
/// Where a file may be opened, locked, given a folder mode or identified by hand: the
/// safe-filesystem module, and the exceptions, each with why. A path ending in `/` is a folder.
pub(crate) const RAW_FILE_ALLOWED: &[(&str, &str)] = &[
    (
        "hook-config/src/fs.rs",
        "`hook_config::fs`, the safe-filesystem module itself",
    ),
    (
        "hook-config/src/fileread.rs",
        "the home of `open_regular` and `read_capped`, re-exported by `hook_config::fs`",
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

/// hook-cli's layers, as ARCHITECTURE.md draws them: (the folder, what no file under it names,
/// why and the fix). Module declarations (`mod x;`) in a folder's `mod.rs` are not imports.
pub(crate) const CLI_LAYERS: &[(&str, &[&str], &str)] = &[
    (
        "hook-cli/src/commands/",
        &["crate::commands", "super::"],
        "a command file imports no other command file: move what several commands share into hook-cli/src/args.rs (arguments), ops/ (what they do) or ui/ (what they print)",
    ),
    (
        "hook-cli/src/ops/",
        &[
            "crate::commands",
            "crate::ui",
            "clap::",
            "Printer",
            "outln!",
            "errln!",
            "say!",
            "say_err!",
            "println!",
            "print!",
            "eprint",
            "dbg!",
        ],
        "ops neither parses arguments nor prints, and never reaches commands/ or ui/: return a value (or take a callback) and let the command hand it to ui/",
    ),
    (
        "hook-cli/src/ui/",
        &["crate::commands"],
        "ui/ renders what ops/ returns and never calls a command: have the command call ui/",
    ),
];

/// The folders whose glob imports (`use super::*`) the import-cycle check does not count as
/// edges (their named imports still count), each with why: (the folder, relative to the
/// workspace root, ending in `/`; the reason).
pub(crate) const GLOBS_EXEMPT: &[(&str, &str)] = &[(
    "hook-cli/src/ops/relay/install/",
    "the installer's children share one namespace through `use super::*` (counted, its eight children are one strongly connected set); issue 44 rewrites the folder as a read model, writers and one module per agent, with no glob imports",
)];

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

const DIALECT_ENUMS: &[&str] = &["Dialect", "EventInput"];

/// The dialects' variant names.
const DIALECT_VARIANTS: &[&str] = &["Wuu", "Verboo", "Lime"];

/// Runs every check on the workspace at `root`; fails listing each problem.
pub(crate) fn run(root: &Path) -> Result<()> {
    let stdout = crate::cargo_stdout(root, &["metadata", "--format-version", "1", "--no-deps"])?;
    let metadata: Value =
        serde_json::from_slice(&stdout).context("reading cargo metadata's JSON")?;
    let mut problems = check_graph(&metadata);
    for (name, forbidden, fix) in FORBIDDEN_TRANSITIVE {
        let tree = cargo_tree(root, name)?;
        problems.extend(check_transitive(name, forbidden, fix, &tree));
    }
    for (name, src) in library_sources(&metadata) {
        for file in rust_files(&src)? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let shown = file.strip_prefix(root).unwrap_or(&file);
            let shown = shown.display().to_string();
            problems.extend(check_prints(&name, &shown, &text));
            problems.extend(check_forbidden_calls(&name, &shown, &text));
            problems.extend(crate::public_api::check_public_types(&shown, &text));
        }
    }
    // The command crate prints, so it is not among the library sources above; its in-process
    // tests (`src/tests/`) are free like every test.
    for src in crate_sources(&metadata) {
        if !src.ends_with("hook-cli/src") {
            continue;
        }
        for file in rust_files(&src)? {
            let shown = file.strip_prefix(root).unwrap_or(&file);
            let shown = shown.display().to_string();
            if is_test_file(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            problems.extend(check_forbidden_calls("hook-cli", &shown, &text));
        }
    }
    for src in crate_sources(&metadata) {
        for file in rust_files(&src)? {
            let shown = file.strip_prefix(root).unwrap_or(&file);
            let shown = shown.display().to_string();
            if is_dialect_home(&shown) || is_test_file(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            problems.extend(check_dialect_names(&shown, &text));
        }
    }
    for src in crate_sources(&metadata) {
        for file in rust_files(&src)? {
            let shown = file.strip_prefix(root).unwrap_or(&file);
            let shown = shown.display().to_string();
            if is_raw_file_allowed(&shown) || is_test_file(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            problems.extend(check_raw_files(&shown, &text));
        }
    }
    let cli_src = root.join("hook-cli/src");
    for file in rust_files(&cli_src)? {
        let shown = file.strip_prefix(root).unwrap_or(&file);
        let shown = shown.display().to_string().replace('\\', "/");
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        problems.extend(check_cli_layers(&shown, &text));
        problems.extend(check_cli_length(&shown, &text));
    }
    for src in crate_sources(&metadata) {
        let shown = src.strip_prefix(root).unwrap_or(&src);
        let shown = shown.display().to_string().replace('\\', "/");
        let mut files = Vec::new();
        for file in rust_files(&src)? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let in_src = file.strip_prefix(&src).unwrap_or(&file);
            let in_src = in_src.display().to_string().replace('\\', "/");
            // hook-cli has its own, shorter cap (check_cli_length above).
            if shown != "hook-cli/src" {
                problems.extend(check_length(&format!("{shown}/{in_src}"), &text));
            }
            files.push((in_src, text));
        }
        let prefix = format!("{shown}/");
        let exempt: Vec<&str> = GLOBS_EXEMPT
            .iter()
            .filter_map(|(folder, _)| folder.strip_prefix(&prefix))
            .collect();
        problems.extend(check_cycles(&shown, &files, &exempt));
    }
    if problems.is_empty() {
        println!(
            "tidy: hook-cli's commands/ops/ui layers hold and no file of it is over 500 lines; no crate's files import each other in a cycle; the crate graph is the one ARCHITECTURE.md draws, no forbidden crate is reached, no library prints, hook-protocol does no I/O and only hook-exec spawns, every public type is #[non_exhaustive] or closed on purpose, no dialect is named outside its homes, no file is opened, locked or stamped outside hook_config::fs"
        );
        return Ok(());
    }
    for problem in &problems {
        eprintln!("  {problem}");
    }
    bail!("{} tidy problem(s)", problems.len())
}

/// `cargo tree -e normal -p name --prefix depth`: `name`'s normal dependencies, features
/// resolved for it alone, one per line after its depth.
fn cargo_tree(root: &Path, name: &str) -> Result<String> {
    let stdout = crate::cargo_stdout(
        root,
        &["tree", "-e", "normal", "--prefix", "depth", "-p", name],
    )?;
    String::from_utf8(stdout).with_context(|| format!("cargo tree -p {name}: not UTF-8"))
}

/// The crates of `forbidden` that `tree` (the output of [`cargo_tree`] for `name`) reaches, each
/// with the first path that reaches it and `fix`.
pub(crate) fn check_transitive(
    name: &str,
    forbidden: &[&str],
    fix: &str,
    tree: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    // The crates from the root down to the current line, by depth.
    let mut path: Vec<&str> = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    for line in tree.lines() {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let Ok(depth) = line[..digits].parse::<usize>() else {
            continue;
        };
        let Some(crate_name) = line[digits..].split_whitespace().next() else {
            continue;
        };
        path.truncate(depth);
        path.push(crate_name);
        if depth > 0 && forbidden.contains(&crate_name) && !reported.contains(&crate_name) {
            reported.push(crate_name);
            problems.push(format!(
                "{name} reaches {crate_name} ({}): {fix} (FORBIDDEN_TRANSITIVE in xtask/src/tidy.rs)",
                path.join(" -> ")
            ));
        }
    }
    problems
}

/// The workspace packages of `metadata`.
fn packages(metadata: &Value) -> Vec<&Value> {
    metadata["packages"]
        .as_array()
        .map(|packages| packages.iter().collect())
        .unwrap_or_default()
}

/// Whether a dependency entry is a normal or build dependency (not dev).
fn is_shipped(dependency: &Value) -> bool {
    dependency["kind"].as_str() != Some("dev")
}

/// The dependency-graph problems of `metadata`: internal edges not in [`ALLOWED`], crates
/// missing from it, and external dependencies in [`FORBIDDEN_EXTERNAL`].
pub(crate) fn check_graph(metadata: &Value) -> Vec<String> {
    let packages = packages(metadata);
    let internal: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut problems = Vec::new();
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default();
        let Some((_, allowed)) = ALLOWED.iter().find(|(crate_name, _)| *crate_name == name) else {
            problems.push(format!(
                "{name} is a workspace crate missing from the allow-list: add it to ALLOWED in xtask/src/tidy.rs and to ARCHITECTURE.md \"Layers\""
            ));
            continue;
        };
        let forbidden = FORBIDDEN_EXTERNAL
            .iter()
            .find(|(crate_name, _)| *crate_name == name)
            .map_or(&[][..], |(_, list)| *list);
        let dependencies = package["dependencies"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for dependency in dependencies.iter().filter(|d| is_shipped(d)) {
            let target = dependency["name"].as_str().unwrap_or_default();
            if internal.contains(&target) {
                if let Some(allowed) = allowed
                    && !allowed.contains(&target)
                {
                    problems.push(format!(
                        "{name} -> {target}: not in ARCHITECTURE.md \"Layers\" ({name} may depend on {}); move what {name} needs from {target} into a crate it may see (or make it a dev-dependency), or change the picture and ALLOWED in xtask/src/tidy.rs together",
                        if allowed.is_empty() { "no workspace crate".to_owned() } else { allowed.join(", ") }
                    ));
                }
            } else if forbidden.contains(&target) {
                problems.push(format!(
                    "{name} -> {target}: {name} must not depend on {target} (FORBIDDEN_EXTERNAL in xtask/src/tidy.rs); keep the code that needs it in hook-exec or hook-cli"
                ));
            }
        }
    }
    problems
}

/// The `src/` folder of every library crate (all but [`MAY_PRINT`]).
fn library_sources(metadata: &Value) -> Vec<(String, std::path::PathBuf)> {
    packages(metadata)
        .into_iter()
        .filter_map(|package| {
            let name = package["name"].as_str()?;
            if MAY_PRINT.contains(&name) {
                return None;
            }
            let manifest = Path::new(package["manifest_path"].as_str()?);
            Some((name.to_owned(), manifest.parent()?.join("src")))
        })
        .collect()
}

/// The `src/` folder of every workspace crate.
fn crate_sources(metadata: &Value) -> Vec<std::path::PathBuf> {
    packages(metadata)
        .into_iter()
        .filter_map(|package| {
            let manifest = Path::new(package["manifest_path"].as_str()?);
            Some(manifest.parent()?.join("src"))
        })
        .collect()
}

/// Whether `file` (relative to the workspace root, `/`-separated) is in [`DIALECT_HOMES`].
fn is_dialect_home(file: &str) -> bool {
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
                "{file}:{number}: `{found}` names a dialect outside its homes: ask `dialect.rules()` (add the rule to `DialectRules`, written in `hook-protocol/src/dialect/<dialect>.rs`), or, if this file must name dialects by nature, add it to DIALECT_HOMES in xtask/src/tidy.rs saying why"
            ));
        }
    }
    problems
}

/// Where `text` (the hook-cli source file `file`, relative to the workspace root) crosses one of
/// [`CLI_LAYERS`], outside comments and `#[cfg(test)]` items.
pub(crate) fn check_cli_layers(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some((folder, forbidden, why)) = CLI_LAYERS
        .iter()
        .find(|(folder, _, _)| file.starts_with(folder))
    else {
        return problems;
    };
    for (number, code) in code_lines(text) {
        for name in *forbidden {
            if code.contains(name) {
                problems.push(format!("{file}:{number}: `{name}` in {folder}: {why}"));
            }
        }
    }
    problems
}

/// Whether `file`, a source file of a library crate or of xtask (relative to the workspace
/// root), is over [`MAX_LINES`] lines without a place in [`LONG_FILES`].
pub(crate) fn check_length(file: &str, text: &str) -> Vec<String> {
    let lines = text.lines().count();
    if lines <= MAX_LINES || LONG_FILES.iter().any(|(long, _)| *long == file) {
        return Vec::new();
    }
    vec![format!(
        "{file}: {lines} lines, over {MAX_LINES}: split it by job (a module per job; a long test module into its own file), or, if it must stay whole, add it to LONG_FILES in xtask/src/tidy.rs saying why (at most two files)"
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
        "{file}: {lines} lines, over {CLI_MAX_LINES}: split it (a module per job; a long test module into a sibling tests.rs), or add it to CLI_LONG_FILES in xtask/src/tidy.rs saying why"
    )]
}

/// Whether `file` (relative to the workspace root) is in [`RAW_FILE_ALLOWED`].
fn is_raw_file_allowed(file: &str) -> bool {
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
/// `#[cfg(test)]` items (skipped as [`check_dialect_names`] skips them).
pub(crate) fn check_raw_files(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (number, code) in code_lines(text) {
        for call in RAW_FILE_CALLS {
            if code.contains(call) {
                problems.push(format!(
                    "{file}:{number}: `{call}` outside the safe-filesystem module: use `hook_config::fs` (`open_regular`, `open_private_append`, `create_new_private`, `open_lock`, `private_folder`, `FileStamp`...), or, if this file must, add it to RAW_FILE_ALLOWED in xtask/src/tidy.rs saying why"
                ));
            }
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

/// Every `.rs` file under `folder`, sorted.
fn rust_files(folder: &Path) -> Result<Vec<std::path::PathBuf>> {
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
    use serde_json::json;

    /// `cargo xtask tidy` as a test, so `cargo test --workspace` runs it (as rust-analyzer's
    /// xtask does): the same checks on this workspace.
    #[test]
    fn the_workspace_is_tidy() {
        if let Err(error) = run(&crate::root()) {
            panic!("{error:#} (the problems are listed above; `cargo xtask tidy` lists them too)");
        }
    }

    #[test]
    fn a_command_importing_another_or_ops_printing_fails_naming_the_line_and_the_fix() {
        let command = "use crate::args::KeysArgs;\nuse crate::commands::list::ListArgs;\nuse super::trust::exec;\n";
        let problems = check_cli_layers("hook-cli/src/commands/untrust.rs", command);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-cli/src/commands/untrust.rs:2: `crate::commands` in hook-cli/src/commands/: a command file imports no other command file"),
            "{problems:?}"
        );
        assert!(problems[1].starts_with("hook-cli/src/commands/untrust.rs:3: `super::`"));

        let ops = "use crate::ui::say;\nfn f(p: &Printer) {\n    say!(p, \"x\");\n    // say!(p) in a comment\n}\n#[cfg(test)]\nmod tests {\n    fn g() { println!(\"free\"); }\n}\n";
        let problems = check_cli_layers("hook-cli/src/ops/trust.rs", ops);
        let lines: Vec<&str> = problems
            .iter()
            .map(|p| p.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            lines,
            [
                "hook-cli/src/ops/trust.rs:1:",
                "hook-cli/src/ops/trust.rs:2:",
                "hook-cli/src/ops/trust.rs:3:"
            ],
            "{problems:?}"
        );
        assert!(problems[0].contains("ops neither parses arguments nor prints"));

        let ui = "use crate::ops::trust::Changed;\nuse crate::commands::trust;\n";
        assert_eq!(check_cli_layers("hook-cli/src/ui/trust.rs", ui).len(), 1);
        // args.rs and main.rs are the wiring, and free.
        assert!(check_cli_layers("hook-cli/src/main.rs", ui).is_empty());
    }

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

    #[test]
    fn a_dialect_named_outside_its_homes_fails_naming_the_line_and_the_fix() {
        let text = "fn f(d: Dialect) -> bool {\n    d == Dialect::Lime\n}\nfn g(i: &EventInput) {\n    if let hook_protocol::EventInput::Wuu(_) = i {}\n}\n";
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
    fn a_raw_file_open_outside_the_fs_module_fails_naming_the_line_and_the_fix() {
        let text = "use std::fs::OpenOptions;\nfn f() {\n    let _ = std::fs::File::open(\"x\");\n    // File::open in a comment\n    let _ = OpenOptions::new().read(true);\n}\n#[cfg(test)]\nmod tests {\n    fn g() { let _ = std::fs::File::create(\"y\"); }\n}\n";
        let problems = check_raw_files("hook-exec/src/x.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("hook-exec/src/x.rs:3: `File::open`"));
        assert!(problems[0].contains("hook_config::fs"));
        assert!(problems[1].starts_with("hook-exec/src/x.rs:5: `OpenOptions::new`"));
        assert!(is_raw_file_allowed("hook-config/src/fs.rs"));
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

    /// A metadata document with the real graph, where `extra` adds `(crate, dependency, kind)`.
    fn metadata(extra: &[(&str, &str, Option<&str>)]) -> Value {
        let edges: &[(&str, &[&str])] = &[
            ("hook-protocol", &["serde", "serde_json"]),
            ("hook-config", &["hook-protocol", "sha2"]),
            ("hook-trust", &["hook-protocol", "hook-config", "sha2"]),
            (
                "hook-exec",
                &[
                    "hook-protocol",
                    "hook-config",
                    "hook-trust",
                    "tokio",
                    "reqwest",
                ],
            ),
            ("hook-sdk", &["hook-protocol"]),
            (
                "hook-cli",
                &[
                    "hook-protocol",
                    "hook-config",
                    "hook-exec",
                    "hook-trust",
                    "tokio",
                ],
            ),
            ("xtask", &["hook-protocol", "anyhow"]),
        ];
        let packages: Vec<Value> = edges
            .iter()
            .map(|(name, dependencies)| {
                let mut list: Vec<Value> = dependencies
                    .iter()
                    .map(|d| json!({"name": d, "kind": null}))
                    .collect();
                for (from, to, kind) in extra {
                    if from == name {
                        list.push(json!({"name": to, "kind": kind}));
                    }
                }
                json!({"name": name, "manifest_path": format!("/w/{name}/Cargo.toml"), "dependencies": list})
            })
            .collect();
        json!({ "packages": packages })
    }

    #[test]
    fn the_real_graph_passes() {
        assert_eq!(check_graph(&metadata(&[])), Vec::<String>::new());
    }

    #[test]
    fn a_forbidden_internal_edge_fails_naming_it_and_the_fix() {
        let problems = check_graph(&metadata(&[("hook-trust", "hook-exec", None)]));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("hook-trust -> hook-exec: not in ARCHITECTURE.md"),
            "{}",
            problems[0]
        );
        assert!(
            problems[0].contains("may depend on hook-protocol, hook-config"),
            "{}",
            problems[0]
        );
        // Upward edges too.
        let problems = check_graph(&metadata(&[(
            "hook-protocol",
            "hook-config",
            Some("build"),
        )]));
        assert!(
            problems[0].contains("hook-protocol may depend on no workspace crate"),
            "{problems:?}"
        );
        let problems = check_graph(&metadata(&[("hook-sdk", "hook-trust", None)]));
        assert!(
            problems[0].starts_with("hook-sdk -> hook-trust"),
            "{problems:?}"
        );
    }

    #[test]
    fn dev_dependencies_are_free() {
        let extra = [
            ("hook-trust", "hook-exec", Some("dev")),
            ("hook-trust", "tokio", Some("dev")),
        ];
        assert_eq!(check_graph(&metadata(&extra)), Vec::<String>::new());
    }

    #[test]
    fn a_forbidden_external_dependency_fails() {
        for forbidden in ["tokio", "reqwest"] {
            let problems = check_graph(&metadata(&[("hook-trust", forbidden, None)]));
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0].starts_with(&format!("hook-trust -> {forbidden}: hook-trust must not")),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn an_unknown_workspace_crate_fails() {
        let mut document = metadata(&[]);
        document["packages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "hook-new", "manifest_path": "/w/hook-new/Cargo.toml", "dependencies": []}));
        let problems = check_graph(&document);
        assert!(
            problems[0].starts_with("hook-new is a workspace crate missing"),
            "{problems:?}"
        );
    }

    /// `cargo tree -e normal --prefix depth -p hook-sdk` output, with `extra` lines appended.
    fn sdk_tree(extra: &str) -> String {
        format!(
            "0hook-sdk v0.1.0 (/w/hook-sdk)\n\
             1hook-protocol v0.1.0 (/w/hook-protocol)\n\
             2serde v1.0.229\n\
             3serde_derive v1.0.229 (proc-macro)\n\
             2serde_json v1.0.154\n\
             {extra}\
             1serde v1.0.229 (*)\n"
        )
    }

    #[test]
    fn the_real_sdk_tree_passes() {
        let fix = "the fix";
        let tree = sdk_tree("");
        assert_eq!(
            check_transitive("hook-sdk", &["jsonschema", "schemars"], fix, &tree),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_forbidden_transitive_dependency_fails_naming_the_path_and_the_fix() {
        let (name, forbidden, fix) = FORBIDDEN_TRANSITIVE[0];
        assert_eq!(name, "hook-sdk");
        // hook-protocol's `validate` feature turned on for the SDK pulls jsonschema.
        let tree = sdk_tree(
            "2jsonschema v0.61.2\n\
             3referencing v0.61.2\n\
             2jsonschema v0.61.2 (*)\n",
        );
        let problems = check_transitive(name, forbidden, fix, &tree);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(
                "hook-sdk reaches jsonschema (hook-sdk -> hook-protocol -> jsonschema): "
            ),
            "{}",
            problems[0]
        );
        assert!(
            problems[0].contains("without its `validate` and `schema` features"),
            "{}",
            problems[0]
        );

        // A forbidden crate deep down, through a crate that is fine itself.
        let (name, forbidden, fix) = FORBIDDEN_TRANSITIVE[1];
        let tree = "0hook-trust v0.1.0 (/w/hook-trust)\n\
                    1hook-config v0.1.0 (/w/hook-config)\n\
                    2hook-protocol v0.1.0 (/w/hook-protocol)\n\
                    1some-cache v1.0.0\n\
                    2tokio v1.47.0\n";
        let problems = check_transitive(name, forbidden, fix, tree);
        assert_eq!(
            problems,
            vec![format!(
                "hook-trust reaches tokio (hook-trust -> some-cache -> tokio): {fix} (FORBIDDEN_TRANSITIVE in xtask/src/tidy.rs)"
            )]
        );
    }

    #[test]
    fn io_in_hook_protocol_or_a_spawn_outside_hook_exec_fails_naming_the_line() {
        let text = "use std::fs::File;\nfn f() { let _ = std::env::var(\"X\"); }\n// std::process::exit in a comment\n#[cfg(test)]\nmod tests {\n    fn g() { let _ = std::fs::read(\"x\"); }\n}\n";
        let problems = check_forbidden_calls("hook-protocol", "hook-protocol/src/x.rs", text);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with(
                "hook-protocol/src/x.rs:1: `std::fs` in hook-protocol: hook-protocol does no I/O"
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
