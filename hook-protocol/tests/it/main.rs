//! Every integration test of `hook-protocol` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod captured_payloads;
mod fuzz;
mod input;
mod interpret;
mod lime_conformance;
mod no_panic;
mod schemas;
