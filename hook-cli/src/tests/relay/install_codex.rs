//! `hook relay install` for Codex (in-process): its `config.toml` given back byte for byte, the
//! entries recorded as trusted in Codex's own `[hooks.state]` with `--trust`, and a `--move`
//! that keeps what Codex trusted trusted.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::super::write;
use super::install::{Home, read};

/// Codex's trust hash of a relay entry, from its recipe (see `relay_install/codex_trust.rs`).
fn codex_hash(event_label: &str, matcher: Option<&str>, command: &str, timeout: i64) -> String {
    let matcher = matcher
        .map(|m| format!(",\"matcher\":{}", Value::from(m)))
        .unwrap_or_default();
    let identity = format!(
        "{{\"event_name\":\"{event_label}\",\"hooks\":[{{\"async\":false,\"command\":{},\"timeout\":{timeout},\"type\":\"command\"}}]{matcher}}}",
        Value::from(command)
    );
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(identity.as_bytes()))
    )
}

#[test]
fn codex_install_with_trust_writes_codexs_own_records() {
    let home = Home::new();
    let codex = home.codex();
    write(
        &codex.join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 30\n",
    );
    let config = codex.join("config.toml");
    write(&config, "# mine\nmodel = \"gpt-5\"\n");
    // Without --trust: what to do in /hooks.
    let out = home.ok(&["relay", "install", "--dialect", "lime"]);
    assert!(out.contains("/hooks"), "{out}");
    assert!(out.contains("--trust"), "{out}");
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--trust"]);
    assert!(out.contains("nothing to do in /hooks"), "{out}");
    let doc: toml::Value = toml::from_str(&read(&config)).unwrap();
    let hooks = doc["hooks"].as_table().unwrap();
    let events: Vec<&str> = hooks
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "state")
        .collect();
    assert_eq!(events, ["SessionStart", "PreToolUse"]);
    let state = hooks["state"].as_table().unwrap();
    let config_path = config.display().to_string();
    for (event, label, matcher, timeout) in [
        ("PreToolUse", "pre_tool_use", Some("Bash"), 35),
        ("SessionStart", "session_start", None, 605),
    ] {
        let handler = &hooks[event][0]["hooks"][0];
        let command = handler["command"].as_str().unwrap();
        assert_eq!(handler["timeout"].as_integer(), Some(timeout));
        assert_eq!(
            hooks[event][0].get("matcher").and_then(|m| m.as_str()),
            matcher
        );
        let key = format!("{config_path}:{label}:0:0");
        assert_eq!(
            state[&key]["trusted_hash"].as_str(),
            Some(codex_hash(label, matcher, command, timeout).as_str()),
            "{key}"
        );
    }
    assert!(read(&config).starts_with("# mine\nmodel = \"gpt-5\"\n"));
    // Again: Codex already trusts them.
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--trust"]);
    assert!(out.contains("Codex trusts the 2 relay entries"), "{out}");
    // Uninstall takes the entries out, and keeps the rest of the file.
    home.ok(&["relay", "uninstall", "--dialect", "lime"]);
    let text_now = read(&config);
    assert!(!text_now.contains("hook-relay-install"), "{text_now}");
    assert!(
        text_now.starts_with("# mine\nmodel = \"gpt-5\"\n"),
        "{text_now}"
    );
}

#[test]
fn moving_from_codex_keeps_trusted_guards_trusted() {
    let home = Home::new();
    let codex = home.codex();
    let config = codex.join("config.toml");
    let config_path = config.display().to_string();
    let trusted = codex_hash("pre_tool_use", Some("Bash"), "./guard.sh", 600);
    write(
        &config,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\n\n\
             [[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./new.sh\"\n\n\
             [hooks.state.\"{config_path}:pre_tool_use:0:0\"]\ntrusted_hash = \"{trusted}\"\n"
        ),
    );
    let original = read(&config);
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--move"]);
    assert!(out.contains("trusted 1 moved hooks"), "{out}");
    // One backup, of the file before the command.
    assert_eq!(read(&codex.join("config.toml.hook-relay.prev")), original);
    assert!(out.contains("had not trusted it"), "{out}");
    let relay_file = codex.join("hook-relay/config.toml");
    let moved = read(&relay_file);
    assert!(
        moved.contains("./guard.sh") && moved.contains("./new.sh"),
        "{moved}"
    );
    let now = read(&config);
    assert!(
        !now.contains("./guard.sh") && !now.contains("./new.sh"),
        "{now}"
    );
    // The relay runs the guard Codex trusted; the other waits for review.
    let out = home.hook(&["list", "--dialect", "lime", "--relay", "--json"]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |command: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["config"]["command"] == command)
            .map(|h| h["trust"]["status"].clone())
            .unwrap()
    };
    assert_eq!(status("./guard.sh"), "trusted", "{listed}");
    assert_eq!(status("./new.sh"), "untrusted", "{listed}");
    // The entries serve the moved hooks (and read the relay's files from the `--home` given).
    let doc: toml::Value = toml::from_str(&now).unwrap();
    assert!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with(&format!(
                "--event PreToolUse --home {} # hook-relay-install",
                codex.display()
            ))
    );
}

#[test]
fn codex_config_round_trips_byte_for_byte() {
    let originals = [
        "# top\nmodel = \"o3\"  # trailing\n\n[profiles.x]\nmodel = \"y\"\n",
        "model = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Edit\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"fmt\"\n\n[tui]\ntheme = \"dark\"\n",
        "model = \"o3\"\n[hooks.state.\"x:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"\n",
        "",
    ];
    for original in originals {
        let home = Home::new();
        write(
            &home.codex().join("hook-relay/config.toml"),
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./g.sh\"\n",
        );
        let config = home.codex().join("config.toml");
        write(&config, original);
        home.ok(&["relay", "install", "--dialect", "lime"]);
        assert_eq!(read(&config).matches("# hook-relay-install").count(), 2);
        home.ok(&["relay", "uninstall", "--dialect", "lime"]);
        assert_eq!(read(&config), original);
    }
}
