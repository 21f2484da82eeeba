//! Blocks dangerous Bash commands before they run: `rm -rf /` (or `~`), `git push` to `main` or
//! `master`, and `curl ... | sh`.
//!
//! Wire it into `PreToolUse` with matcher `Bash` (wuu: `bash`). The same rules are built as a
//! native plugin by `block_dangerous_bash_native`.

#[path = "common/dangerous_bash.rs"]
mod dangerous_bash;

fn main() {
    hook_sdk::run(dangerous_bash::handle)
}
