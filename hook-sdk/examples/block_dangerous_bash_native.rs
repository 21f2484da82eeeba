//! `block_dangerous_bash` as an in-process plugin: built as a `cdylib`, configured as
//! `{"type": "native", "library": ".../libblock_dangerous_bash_native.so"}`.

#[path = "common/dangerous_bash.rs"]
mod dangerous_bash;

hook_sdk::export_native!(dangerous_bash::handle);
