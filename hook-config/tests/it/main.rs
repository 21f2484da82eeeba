//! Every integration test of `hook-config` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod common;
mod convert;
mod diagnostics;
mod fuzz;
mod fuzz_rules;
mod hostile_files;
mod keys;
mod layers;
mod matchers;
mod plugins_identity;
mod rules_shell;
mod timeouts;
