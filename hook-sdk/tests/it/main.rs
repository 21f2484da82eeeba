//! Every integration test of `hook-sdk` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod api;
mod common;
mod examples;
mod native;
mod native_abi;
mod router;
