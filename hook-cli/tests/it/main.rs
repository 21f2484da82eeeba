//! Every integration test of `hook-cli` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; the helpers both hook-cli suites
//! (and the other crates' tests) share are in the test kit, `hook-test-support`, run here through
//! its `Spawn` runner or `cli::Binary`.
//!
//! Most of the CLI is tested in-process (`hook-cli/src/tests/`); these tests spawn the `hook`
//! binary because they need it:
//!
//! - the binary's real output (`whole_output`), and the relay's own entry point in `main.rs`
//!   fed arbitrary bytes (`relay_fuzz`);
//! - the installed entry run through a shell as the agents do, or the real Codex
//!   (`relay_install`);
//! - signals, a process killed or cut off mid-way, a closed stdout, a terminal (`signals`,
//!   `journal`, `hostile_input`, `relay_fail_closed`, `terminal`, `trust`);
//! - a bound on a hang or an abort, which only a process gives: FIFOs and devices in a path's
//!   place, deep nesting (`hostile_files`, `hostile_config`, `journal`, `doctor`, `replay`,
//!   `relay_install`);
//! - other processes at once: concurrent writers, a lock held by another process
//!   (`journal`, `relay_install`);
//! - a variable of the environment the command reads: `HOME`, `CODEX_HOME`,
//!   `CLAUDE_CONFIG_DIR`, `CLAUDE_ENV_FILE`, `HOOK_JOURNAL` (`relay_install`, `replay`,
//!   `relay_fail_closed`, `journal`);
//! - a `hook` process the command starts itself (`doctor`'s expectations, the relay's async
//!   waiter), or cargo (`new`, `dist::scaffold`, `sdk_examples`), or the commands of the
//!   README run from the repository root (`demo`), or a test library built where cargo puts
//!   integration tests' files (`author`).

mod author;
mod cli;
mod dead_guard;
mod demo;
mod dist;
mod doctor;
mod guard;
mod hostile_config;
mod hostile_files;
mod hostile_input;
mod journal;
mod new;
mod relay_callers;
mod relay_codex_guards;
mod relay_fail_closed;
mod relay_fuzz;
mod relay_giveback;
mod relay_install;
mod relay_state;
mod relay_teammate;
mod replay;
mod sdk_examples;
mod signals;
mod terminal;
mod trust;
mod whole_output;

#[path = "../../../tests/support/nested_cargo.rs"]
mod nested_cargo;
pub use nested_cargo::cargo;
