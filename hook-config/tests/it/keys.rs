//! Keys do not move when other groups are reordered or hooks are added elsewhere.

use crate::common::load_user_file;
use hook_protocol::Dialect;

fn key_of(dialect: Dialect, text: &str, command: &str) -> String {
    let (_dir, path, loaded) = load_user_file(dialect, text);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let key = loaded
        .registry
        .handlers()
        .iter()
        .find(|h| h.config.command.as_deref() == Some(command))
        .map(|h| h.key.clone())
        .expect("handler present");
    // The user file is named relative to the home: its keys never hold the home's path.
    assert!(!key.contains(&path.display().to_string()), "{key}");
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("file name");
    key.replacen(&format!("user:{name}:"), "user:FILE:", 1)
}

#[test]
fn verboo_keys_are_stable() {
    let base = r#"{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "target"}]},
  {"matcher": "Edit", "hooks": [{"type": "command", "command": "e"}]}
]}}"#;
    let reordered = r#"{"hooks": {
  "Stop": [{"hooks": [{"type": "command", "command": "new-stop"}]}],
  "PreToolUse": [
  {"matcher": "Edit", "hooks": [{"type": "command", "command": "e"}, {"type": "command", "command": "e2"}]},
  {"matcher": "Read", "hooks": [{"type": "command", "command": "r"}]},
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "target"}]}
]}}"#;
    let expected = "user:FILE:PreToolUse:Bash:1";
    assert_eq!(key_of(Dialect::Verboo, base, "target"), expected);
    assert_eq!(key_of(Dialect::Verboo, reordered, "target"), expected);
    // Edited in place, the hook keeps its key (trust then reports it modified).
    let edited = base.replace("\"target\"", "\"target\", \"timeout\": 9");
    assert_eq!(key_of(Dialect::Verboo, &edited, "target"), expected);
}

#[test]
fn wuu_and_lime_keys_are_stable() {
    let wuu_a = r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "target"}]}}"#;
    let wuu_b = r#"{"hooks": {"Stop": [{"command": "s"}], "PreToolUse": [
        {"matcher": "read", "command": "r"}, {"matcher": "bash", "command": "target"}, {"command": "all"}]}}"#;
    assert_eq!(
        key_of(Dialect::Wuu, wuu_a, "target"),
        "user:FILE:PreToolUse:bash:0"
    );
    assert_eq!(
        key_of(Dialect::Wuu, wuu_b, "target"),
        "user:FILE:PreToolUse:bash:0"
    );

    let lime_a = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"target\"\n";
    let lime_b = "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"s\"\n\
        [[hooks.PreToolUse]]\nmatcher = \"Edit\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"e\"\n\
        [[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"target\"\n\
        [hooks.state.\"k\"]\nenabled = false\n";
    assert_eq!(
        key_of(Dialect::Lime, lime_a, "target"),
        "user:FILE:PreToolUse:Bash:0"
    );
    assert_eq!(
        key_of(Dialect::Lime, lime_b, "target"),
        "user:FILE:PreToolUse:Bash:0"
    );
}
