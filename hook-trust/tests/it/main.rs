//! Every integration test of `hook-trust` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod common;
mod engine;
mod grant;
mod hash;
mod keys;
mod native;
mod plugin_identity;
mod store;
mod store_hostile;
