//! Repository chores, run as `cargo xtask <task>`.
//!
//! - `cargo xtask schemas`: regenerate every JSON Schema under `hook-protocol/schemas/` from the
//!   types in `hook-protocol` (its `schema` feature), and the table that embeds them
//!   (`hook-protocol/src/schema/files.rs`).
//! - `cargo xtask schemas --check`: fail, naming each file, when a committed schema or the
//!   table differs from what the types generate (CI runs this), or when `hook-protocol/schemas/`
//!   holds a file nothing generates.
//! - `cargo xtask docs`: document every crate of the workspace (rustdoc's JSON backend, warnings
//!   as errors: every public item documented, every link resolved; CI runs this).
//! - `cargo xtask public-api [--bless]`: list the public API of each library crate (the JSON of
//!   `cargo xtask docs`, see `api_snapshot.rs`) and fail, showing the lines removed and added, when it differs
//!   from `api/<crate>.txt` (CI runs this); `--bless` writes the files.
//! - `cargo xtask package-files`: fail when a published crate's package (`cargo package
//!   --list`) lacks its README, licences, a source file or a file its sources embed (CI runs
//!   this after `cargo package`).
//! - `cargo xtask dist [--target TRIPLE] [--binary PATH] [--out DIR] [--uncompressed]`: build the release binary
//!   (or take `--binary`) and write the npm packages (the main one, whose postinstall puts the
//!   native binary in place as `hook`, and the platform's) and
//!   the wheel under `dist/` in cargo's target folder (`target/`, or `CARGO_TARGET_DIR`), each
//!   read back and checked to hold exactly the files it needs, saying each step on stderr (see
//!   `dist.rs`; the release workflow runs it per target).
//! - `cargo xtask tidy`: fail on an internal dependency ARCHITECTURE.md's "Layers" does not
//!   draw, on tokio/reqwest in the crates that must not have them, on a forbidden crate reached
//!   even transitively (jsonschema or schemars from hook-sdk; hook-exec, tokio or reqwest from
//!   hook-trust), on a library crate that prints, on a dialect named in code outside its
//!   homes, on a file over its length cap and on an import cycle in any crate (CI runs this
//!   before the tests, and `cargo test -p xtask` runs it as a test; see `tidy/`, a file per
//!   check).
//!
//! - `cargo xtask conformance codex|claude|all [CASE-PREFIX]`: run the hook cases against the real
//!   Codex CLI and Claude Code (npm, minutes; not part of CI) and write `CONFORMANCE.md`.
//!   `cargo xtask conformance relay` runs a block, a rewrite, context and stops through
//!   `hook relay` as the agents' one hook, and prints the counts. `cargo xtask conformance
//!   guests [AGENT|CASE-PREFIX]` runs one Claude Code guard through `hook relay --agent
//!   qwen|gemini|copilot` in the real Qwen Code, Gemini CLI and Copilot CLI and writes the
//!   `guests` section of `CONFORMANCE.md`; `guests-drift` compares their event lists with the
//!   relay's translation tables.
//! - `cargo xtask bench cli`: time `hook run` as a caller spawning it once per event sees it
//!   (release build; ratios to `/bin/true` and `sh -c`, peak RSS), and `hook relay`, `hook
//!   run` and the installed entry against dash as the wrapper, for BENCHMARKS.md; `--baseline
//!   PATH` adds those last lines for another build (an earlier commit's) in the same run.
//! - `cargo xtask bench guards`: a built-in guard per event vs the same guard as a shell script,
//!   alone and as the relay's one hook (BENCHMARKS.md, "hook-guards").
//! - `cargo xtask bench launcher`: a project's relayed event through `PATH` after `npm install
//!   -g` with install scripts on (the postinstall's native `hook`) vs the native path, and
//!   through the Node launcher of an `--ignore-scripts` install vs the native binary (the
//!   release build's packages, installed offline with npm), for BENCHMARKS.md.
//!
//! # Limitations
//!
//! Only the schemas and their embedding table are generated; nothing else in the repository is
//! codegen.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

mod api_snapshot;
mod bench;
mod bench_agents;
mod conformance;
mod dist;
mod import_cycles;
mod package_files;
mod public_api;
mod schemas;
mod source;
mod tidy;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<()> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["schemas"] => {
            let written = schemas::write(&protocol_dir())?;
            println!("wrote {written} schemas under hook-protocol/schemas/ and their table");
            Ok(())
        }
        ["schemas", "--check"] => {
            let stale = schemas::check(&protocol_dir())?;
            if stale.is_empty() {
                println!("hook-protocol/schemas/ is current");
                Ok(())
            } else {
                for problem in &stale {
                    eprintln!("  {problem}");
                }
                bail!(
                    "{} schema file(s) are stale: run `cargo xtask schemas` and commit hook-protocol/schemas/ and hook-protocol/src/schema/files.rs",
                    stale.len()
                )
            }
        }
        ["tidy"] => tidy::run(&root()),
        ["docs"] => api_snapshot::document(&root()),
        ["public-api"] => api_snapshot::run(&root(), false),
        ["public-api", "--bless"] => api_snapshot::run(&root(), true),
        ["package-files"] => package_files::run(&root()),
        ["dist", rest @ ..] => dist::run(&root(), rest),
        ["bench", "cli"] => bench::cli(&root(), None),
        ["bench", "cli", "--baseline", path] => bench::cli(&root(), Some(Path::new(path))),
        ["bench", "launcher"] => bench::launcher(&root()),
        ["bench", "guards"] => bench::guards(&root()),
        ["bench", "agents", rest @ ..] => bench_agents::agents(&root(), rest),
        ["conformance", "drift", rest @ ..] => conformance::drift::run(&root(), rest),
        ["conformance", "--floor", agent] => conformance::run(&root(), agent, None, true),
        ["conformance", "--floor", agent, prefix] => {
            conformance::run(&root(), agent, Some(prefix), true)
        }
        ["conformance", agent] => conformance::run(&root(), agent, None, false),
        ["conformance", agent, prefix] => conformance::run(&root(), agent, Some(prefix), false),
        _ => bail!(
            "usage: cargo xtask schemas [--check] | cargo xtask tidy | cargo xtask docs | cargo xtask public-api [--bless] | cargo xtask package-files | cargo xtask dist [--target TRIPLE] [--binary PATH] [--out DIR] [--uncompressed] | cargo xtask conformance [--floor] codex|claude|all|relay [CASE-PREFIX] | cargo xtask conformance guests [AGENT|CASE-PREFIX] | cargo xtask conformance drift [--floor] | cargo xtask bench cli [--baseline PATH] | cargo xtask bench launcher | cargo xtask bench guards | cargo xtask bench agents [--calls K] [--runs R] [--hooks 1,5] [--baseline PATH]"
        ),
    }
}

/// The `hook-protocol` crate, which holds the committed schemas (`schemas/`) and embeds them.
fn protocol_dir() -> PathBuf {
    root().join("hook-protocol")
}

/// `cargo` as this task was started with (`$CARGO`), else the one on `PATH`, run in `root`.
fn cargo_command(root: &Path) -> std::process::Command {
    let mut command =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(root);
    command
}

/// What `cargo ARGS` prints on stdout in `root`; an error carrying cargo's own when it fails.
fn cargo_stdout(root: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let shown = args.join(" ");
    let output = cargo_command(root)
        .args(args)
        .output()
        .with_context(|| format!("running cargo {shown}"))?;
    if !output.status.success() {
        bail!(
            "cargo {shown} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(output.stdout)
}

/// The root of the workspace.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits one level below the workspace root")
        .to_path_buf()
}
