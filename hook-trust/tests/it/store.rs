//! The stores on disk: byte-for-byte edits, refusals, and concurrent writers.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use hook_trust::{Grant, JsonStore, LimeStore, StoreError, TrustStore};

fn grant(key: &str, n: u8) -> Grant {
    Grant::new(key, format!("sha256:{}", format!("{n:02x}").repeat(32)))
        .with_command(format!("./hook-{n}.sh"))
}

/// The text without its `[hooks.state.*]` tables (each runs to the next header or the end).
fn outside_state(text: &str) -> String {
    let mut out = String::new();
    let mut in_state = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            in_state = trimmed.starts_with("[hooks.state");
        }
        if !in_state {
            out.push_str(line);
        }
    }
    out
}

const CONFIG: &str = r#"# My lime configuration.
model = "o3"   # keep this comment

[plugins.guard]
enabled = true

[[hooks.PreToolUse]]
matcher = "Bash"          # odd spacing stays
[[hooks.PreToolUse.hooks]]
type = "command"
command = 'sh -c "exit 0"'

[hooks.state."user:config.toml:Stop::0"]
trusted_hash = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
note = "a key of my own"

[tui]
theme = "dark"
# trailing comment
"#;

#[test]
fn lime_edits_leave_every_other_byte_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, CONFIG).unwrap();
    let store = LimeStore::new(&path);

    let key = "user:config.toml:PreToolUse:Bash:0".to_owned();
    store.set_trusted(&[grant(&key, 1)]).unwrap();
    let trusted = std::fs::read_to_string(&path).unwrap();
    assert_eq!(outside_state(&trusted), outside_state(CONFIG));
    // The new record follows the last `hooks` table; `[tui]` and the trailing comment stay put.
    let record = format!(
        "note = \"a key of my own\"\n\n[hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:{}\"\n\n[tui]",
        "01".repeat(32)
    );
    assert!(trusted.contains(&record), "{trusted}");
    assert!(
        trusted.ends_with("theme = \"dark\"\n# trailing comment\n"),
        "{trusted}"
    );

    store
        .set_enabled(std::slice::from_ref(&key), false)
        .unwrap();
    let disabled = std::fs::read_to_string(&path).unwrap();
    assert_eq!(outside_state(&disabled), outside_state(CONFIG));
    assert!(disabled.contains("enabled = false"));

    // Disabling the other record keeps its own key and its comment-free layout.
    let other = "user:config.toml:Stop::0".to_owned();
    store
        .set_enabled(std::slice::from_ref(&other), false)
        .unwrap();
    store
        .set_enabled(std::slice::from_ref(&other), true)
        .unwrap();

    store.set_enabled(std::slice::from_ref(&key), true).unwrap();
    store.remove_trust(std::slice::from_ref(&key)).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(outside_state(&after), outside_state(CONFIG));
    // Everything this store added is gone again: the file is the original, byte for byte.
    assert_eq!(after, CONFIG);

    let records = store.load().unwrap();
    assert_eq!(records.len(), 1);
    assert!(records[&other].enabled);
}

#[test]
fn a_new_lime_store_gets_only_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let store = LimeStore::new(&path);
    assert!(store.load().unwrap().is_empty());
    store.set_trusted(&[grant("k", 2)]).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        format!(
            "[hooks.state.k]\ntrusted_hash = \"sha256:{}\"\n",
            "02".repeat(32)
        )
    );
    store.remove_trust(&["k".to_owned()]).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
}

#[test]
fn a_lime_store_locked_elsewhere_leaves_no_lock_beside_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    let path = agent.join("config.toml");
    let lock = dir.path().join("relay-state.lock");
    let store = LimeStore::new(&path).with_lock_file(&lock);
    store
        .set_trusted(&[Grant::new("k", format!("sha256:{}", "03".repeat(32)))])
        .unwrap();
    store.remove_trust(&["k".to_owned()]).unwrap();
    assert!(lock.exists());
    let beside: Vec<_> = std::fs::read_dir(&agent)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["config.toml"]);
}

#[test]
fn the_json_store_keeps_commands_and_unknown_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hook-trust.json");
    std::fs::write(&path, r#"{"version": 1, "note": "mine", "hooks": {}}"#).unwrap();
    let store = JsonStore::new(&path);
    store.set_trusted(&[grant("a", 3), grant("b", 4)]).unwrap();
    store.set_enabled(&["b".to_owned()], false).unwrap();
    store.remove_trust(&["b".to_owned()]).unwrap();
    let records = store.load().unwrap();
    assert_eq!(records["a"].trusted_command.as_deref(), Some("./hook-3.sh"));
    assert_eq!(records["b"].trusted_hash, None);
    assert!(!records["b"].enabled);
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(value["note"], "mine");
    store.set_enabled(&["b".to_owned()], true).unwrap();
    assert!(
        !store.load().unwrap().contains_key("b"),
        "an empty record is dropped"
    );
}

fn assert_corrupt(error: StoreError, path: &Path, at: &str, says: &str) {
    let shown = error.to_string();
    assert!(matches!(error, StoreError::Corrupt { .. }), "{shown}");
    assert!(
        shown.starts_with(&format!("{}{at}: corrupt trust store", path.display())),
        "{shown}"
    );
    assert!(shown.contains(says), "{shown}");
}

#[test]
fn a_corrupt_store_is_an_error_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str, &str)] = &[
        ("config.toml", "[hooks\nx = 1\n", ":1:7", "invalid TOML"),
        (
            "config.toml",
            "[hooks.state.\"k\"]\ntrusted_hash = 5\n",
            ":2:16",
            "must be a string, found integer",
        ),
        (
            "config.toml",
            "[hooks.state.\"k\"]\nenabled = \"no\"\n",
            ":2:11",
            "must be true or false",
        ),
        (
            "config.toml",
            "[hooks.state.\"k\"]\ntrusted_hash = \"md5:00\"\n",
            ":2:16",
            "not `sha256:` and 64 hex digits",
        ),
        (
            "config.toml",
            "[hooks]\nstate = 3\n",
            ":2:9",
            "`hooks.state` must be a table",
        ),
        (
            "hook-trust.json",
            "{\"hooks\": {\"k\": {\"enabled\": 1}}}",
            ":1:29",
            "invalid type: integer `1`, expected a boolean",
        ),
        (
            "hook-trust.json",
            "{\"hooks\": [}",
            ":1:10",
            "invalid type: sequence, expected a map",
        ),
        (
            "hook-trust.json",
            "{\"hooks\": {\n",
            ":2:1",
            "EOF while parsing",
        ),
        (
            "hook-trust.json",
            "{\"hooks\": {\"k\": {\"trusted_hash\": \"sha256:x\"}}}",
            "",
            "not `sha256:` and 64 hex digits",
        ),
    ];
    for (name, text, at, says) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let store: Box<dyn TrustStore> = if name.ends_with(".toml") {
            Box::new(LimeStore::new(&path))
        } else {
            Box::new(JsonStore::new(&path))
        };
        assert_corrupt(store.load().unwrap_err(), &path, at, says);
        assert_corrupt(
            store.set_trusted(&[grant("k", 5)]).unwrap_err(),
            &path,
            at,
            says,
        );
        assert_corrupt(
            store.set_enabled(&["k".to_owned()], false).unwrap_err(),
            &path,
            at,
            says,
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            *text,
            "{name} untouched"
        );
    }
}

#[cfg(unix)]
#[test]
fn symlinked_and_world_writable_stores_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("elsewhere.json");
    std::fs::write(&real, "{}").unwrap();
    let link = dir.path().join("hook-trust.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let store = JsonStore::new(&link);
    let error = store.load().unwrap_err();
    assert!(matches!(error, StoreError::Symlink { .. }), "{error}");
    assert!(error.to_string().contains("symbolic link"), "{error}");
    assert!(store.set_trusted(&[grant("k", 6)]).is_err());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "{}");

    // lime's side file beside its config.toml is that JSON store: a link there is refused too.
    let error = LimeStore::new(dir.path().join("config.toml"))
        .load()
        .unwrap_err();
    assert!(matches!(error, StoreError::Symlink { .. }), "{error}");
    std::fs::remove_file(&link).unwrap();

    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o666)).unwrap();
    let store = LimeStore::new(&config);
    let error = store.load().unwrap_err();
    assert!(matches!(error, StoreError::WorldWritable { .. }), "{error}");
    assert!(error.to_string().contains("chmod o-w"), "{error}");
    assert!(store.set_trusted(&[grant("k", 7)]).is_err());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), "");

    // A store's permissions survive a write.
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o640)).unwrap();
    store.set_trusted(&[grant("k", 8)]).unwrap();
    let mode = std::fs::metadata(&config).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

const WRITERS: usize = 8;
const PER_WRITER: usize = 25;

/// Run by each child process: trusts its keys one write at a time.
#[test]
#[ignore = "a child of `concurrent_writers_all_land`, run through the test binary"]
fn child_writer() {
    let (Ok(path), Ok(kind), Ok(id)) = (
        std::env::var("HOOK_TRUST_CHILD_STORE"),
        std::env::var("HOOK_TRUST_CHILD_KIND"),
        std::env::var("HOOK_TRUST_CHILD_ID"),
    ) else {
        return;
    };
    // What is tested is that no write is lost, not how fast the lock comes: on a loaded
    // machine 8 debug-built writers can hold it past the 10 s default between them.
    let patient = std::time::Duration::from_secs(300);
    let store: Box<dyn TrustStore> = match kind.as_str() {
        "lime" => Box::new(LimeStore::new(&path).with_lock_timeout(patient)),
        _ => Box::new(JsonStore::new(&path).with_lock_timeout(patient)),
    };
    for n in 0..PER_WRITER {
        let key = format!("project:/p/{id}/.lime/config.toml:PreToolUse:Bash:{n}");
        let n = u8::try_from(n).unwrap();
        store.set_trusted(&[grant(&key, n)]).unwrap();
    }
}

#[test]
fn concurrent_writers_all_land() {
    for kind in ["lime", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(if kind == "lime" {
            "config.toml"
        } else {
            "hook-trust.json"
        });
        if kind == "lime" {
            std::fs::write(&path, CONFIG).unwrap();
        }
        let exe = std::env::current_exe().unwrap();
        let children: Vec<_> = (0..WRITERS)
            .map(|id| {
                Command::new(&exe)
                    // The test's full name in this binary (module `store`).
                    .args([
                        "store::child_writer",
                        "--exact",
                        "--ignored",
                        "--test-threads=1",
                    ])
                    .env("HOOK_TRUST_CHILD_STORE", &path)
                    .env("HOOK_TRUST_CHILD_KIND", kind)
                    .env("HOOK_TRUST_CHILD_ID", id.to_string())
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success(), "{kind}: a writer failed");
        }
        let store: Box<dyn TrustStore> = if kind == "lime" {
            Box::new(LimeStore::new(&path))
        } else {
            Box::new(JsonStore::new(&path))
        };
        let records = store.load().unwrap();
        for id in 0..WRITERS {
            for n in 0..PER_WRITER {
                let key = format!("project:/p/{id}/.lime/config.toml:PreToolUse:Bash:{n}");
                let record = records
                    .get(&key)
                    .unwrap_or_else(|| panic!("{kind}: {key} lost"));
                assert_eq!(
                    record.trusted_hash,
                    Some(grant(&key, u8::try_from(n).unwrap()).hash)
                );
            }
        }
        let own = if kind == "lime" { 1 } else { 0 };
        assert_eq!(records.len(), WRITERS * PER_WRITER + own, "{kind}");
        if kind == "lime" {
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(outside_state(&text), outside_state(CONFIG));
        }
    }
}
