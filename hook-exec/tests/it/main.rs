//! Every integration test of `hook-exec` in one binary: one link instead of one per file, which
//! was a large share of the suite's time. Each file is a module; shared helpers are in `common`.

mod async_hooks;
mod clients;
mod command;
mod common;
#[cfg(feature = "trust")]
mod embed_example;
mod engine;
mod env_file;
mod errors;
mod hostile;
mod http;
mod in_process;
mod journal;
mod model_switch;
mod native;
mod on_failure;
mod parity;
mod project_cannot_weaken;
mod side_files;
mod vendor;
