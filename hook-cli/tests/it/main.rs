//! Every integration test of `hook-cli` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod as_the_agents_do;
mod author;
mod bad_input;
mod cli;
mod dead_guard;
mod demo;
mod doctor;
mod hostile_config;
mod hostile_files;
mod hostile_input;
mod journal;
mod new;
mod relay;
mod relay_fail_closed;
mod relay_fuzz;
mod relay_install;
mod replay;
mod sdk_examples;
mod signals;
mod terminal;
mod trust;
mod trust_native;
mod validate_conformance;
mod whole_output;

#[path = "../../../tests/support/nested_cargo.rs"]
mod nested_cargo;
pub use nested_cargo::cargo;
