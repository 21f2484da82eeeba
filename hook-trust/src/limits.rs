//! How much of a script trust reads: below both the file digests (`files.rs`) and the trusted
//! copies (`copies.rs`), which share the cap and would otherwise import each other for it.

/// The most bytes of a script (a file a command names) that are hashed: the limit of a
/// configuration file, 8 MiB. A bigger file cannot be trusted: the hook is `modified` and
/// says why. Native libraries have their own cap, [`hook_config::library::LIBRARY_SIZE_CAP`].
pub const SCRIPT_SIZE_CAP: u64 = hook_config::MAX_FILE_BYTES;
