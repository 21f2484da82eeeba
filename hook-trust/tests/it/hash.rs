//! The trust hash: pinned format, normalization, and what changes it.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use crate::common::{Setup, handler, lime_hook};
use hook_config::Loaded;
use hook_protocol::Dialect;
use hook_trust::{HashContext, TrustStatus, canonical_json, identity, is_trust_hash, trust_hash};

const HOOK: &str = r#"[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 scripts/check-command.py"
timeout = 5
statusMessage = "checking command scope"
"#;

fn lime(text: &str) -> (Setup, Loaded) {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), text).unwrap();
    let loaded = setup.load();
    (setup, loaded)
}

fn hash_of(dialect: Dialect, loaded: &Loaded, command: &str) -> String {
    trust_hash(dialect, handler(loaded, command), &HashContext::default())
}

#[test]
fn the_hash_of_a_fixed_hook_matches_python() {
    let (_setup, loaded) = lime(HOOK);
    let hash = hash_of(Dialect::Lime, &loaded, "python3 scripts/check-command.py");
    // The identity written out by hand, canonicalized and hashed by python3's json + hashlib:
    // sorted keys, no spaces, UTF-8 (RFC 8785 for this document).
    let script = r#"
import hashlib, json
identity = {
    "event": "PreToolUse",
    "matcher": "Bash",
    "handler": {"type": "command", "command": "python3 scripts/check-command.py",
                "timeout": 5, "additionalContextLimit": 10000},
    "plugin": None,
}
text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
print("sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest())
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hash, expected.trim());
    assert!(is_trust_hash(&hash));
}

#[test]
fn the_same_hook_hashes_the_same_from_toml_and_json() {
    let (setup, loaded) = lime(HOOK);
    let from_toml = hash_of(Dialect::Lime, &loaded, "python3 scripts/check-command.py");

    // The same hook as a lime session fragment (JSON, the dialect's shape).
    let json = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 scripts/check-command.py", "timeout": 5.0,
         "statusMessage": "something else entirely"}]}]}}"#;
    std::fs::remove_file(setup.user_file()).unwrap();
    let session = hook_config::load(&setup.options().with_session("s", json)).unwrap();
    assert_eq!(
        hash_of(Dialect::Lime, &session, "python3 scripts/check-command.py"),
        from_toml
    );

    // And in a verboo settings file, with lime's default context limit written out.
    let verboo = Setup::new(Dialect::Verboo);
    std::fs::write(
        verboo.user_file(),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "python3 scripts/check-command.py", "timeout": 5,
            "additionalContextLimit": 10000}]}]}}"#,
    )
    .unwrap();
    let loaded = verboo.load();
    assert_eq!(
        hash_of(Dialect::Verboo, &loaded, "python3 scripts/check-command.py"),
        from_toml
    );
}

#[test]
fn defaults_are_normalized_and_status_messages_ignored() {
    let base = lime_hook("./check.sh");
    let (_s, loaded) = lime(&base);
    let plain = hash_of(Dialect::Lime, &loaded, "./check.sh");
    let same = [
        format!("{base}timeout = 600\n"),
        format!("{base}timeout = 600.0\n"),
        format!("{base}additionalContextLimit = 10000\n"),
        format!("{base}async = false\n"),
        format!("{base}statusMessage = \"checking\"\n"),
    ];
    for text in same {
        let (_s, loaded) = lime(&text);
        assert_eq!(
            hash_of(Dialect::Lime, &loaded, "./check.sh"),
            plain,
            "{text}"
        );
    }
    let different = [
        format!("{base}timeout = 601\n"),
        format!("{base}async = true\n"),
        format!("{base}additionalContextLimit = 0\n"),
        format!("{base}commandWindows = \"check.cmd\"\n"),
        base.replace("\"Bash\"", "\"Bash|Edit\""),
        base.replace("PreToolUse", "PostToolUse"),
    ];
    for text in different {
        let (_s, loaded) = lime(&text);
        assert_ne!(
            hash_of(Dialect::Lime, &loaded, "./check.sh"),
            plain,
            "{text}"
        );
    }
    let (_s, loaded) = lime(&lime_hook("./check.sh --strict"));
    assert_ne!(
        hash_of(Dialect::Lime, &loaded, "./check.sh --strict"),
        plain
    );
}

#[test]
fn a_native_library_is_trusted_by_its_bytes_beside_the_hash() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(
        setup.user_file(),
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"native\"\nlibrary = \"lib/libguard.so\"\n",
    )
    .unwrap();
    // A relative library resolves against the folder of the file that declares it (the home).
    let library = crate::common::write(&setup.home(), "lib/libguard.so", "version one");
    crate::common::write(&setup.project(), "lib/libguard.so", "another file");
    let loaded = setup.load();
    let hook = &loaded.registry.handlers()[0];
    assert_eq!(hook.library_path, Some(library.clone()));
    let context = HashContext::with_base_dir(setup.project());
    assert_eq!(context.library_path(hook), Some(library.clone()));
    // The hash is the configuration's; the library's digest is recorded beside it.
    let id = identity(Dialect::Lime, hook, &context);
    assert!(id["handler"].get("librarySha256").is_none(), "{id}");
    let before = trust_hash(Dialect::Lime, hook, &context);
    let view = setup.view();
    let candidate = view.candidate(hook);
    let trust = candidate.trust();
    assert_eq!(trust.files.len(), 1, "{trust:#?}");
    assert_eq!(trust.files[0].path, library);

    view.trust(setup.store().as_ref(), &[candidate]).unwrap();
    assert_eq!(setup.view().evaluate(hook).status, TrustStatus::Trusted);

    std::fs::write(&library, "version two").unwrap();
    assert_eq!(trust_hash(Dialect::Lime, hook, &context), before);
    let trust = setup.view().evaluate(hook);
    assert_eq!(trust.status, TrustStatus::Modified);
    assert_eq!(trust.files_phrase().as_deref(), Some("libguard.so changed"));
    std::fs::remove_file(&library).unwrap();
    let trust = setup.view().evaluate(hook);
    assert_eq!(trust.files_phrase().as_deref(), Some("libguard.so removed"));
}

#[test]
fn canonical_json_sorts_keys_and_drops_spaces() {
    let value = serde_json::json!({"b": 1.0, "a": [true, null, "é"], "A": 1.5});
    assert_eq!(
        canonical_json(&value),
        r#"{"A":1.5,"a":[true,null,"é"],"b":1}"#
    );
}
