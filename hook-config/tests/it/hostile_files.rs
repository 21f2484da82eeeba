//! Hostile configuration files (issue 10, items 4, 8, 9, 10 and 13): deep nesting, files that
//! are not regular or too large, the managed layer chosen by the environment or writable by
//! others, text that is not UTF-8, integers that do not fit, one-line files of 100,000
//! handlers. Every case loads to a diagnostic that names the file (and the position when the
//! problem is inside the text); nothing aborts, hangs or reads without bound.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{load_ok, options, shown, write};
use hook_config::{
    Diagnostic, Environment, LoadOptions, Loaded, ManagedSource, discover, load, read_hooks_file,
};
use hook_protocol::{Dialect, Event, Layer};

const DEEP: usize = 40_000;

/// The user file of `dialect` under `home`.
fn user_file(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Wuu => "config.json",
        Dialect::Verboo => "settings.json",
        Dialect::Lime => "config.toml",
    }
}

/// One handler on `Stop` in the user file of `dialect`.
fn stop_hook(dialect: Dialect, command: &str) -> String {
    match dialect {
        Dialect::Wuu => format!(r#"{{"hooks": {{"Stop": [{{"command": "{command}"}}]}}}}"#),
        Dialect::Verboo => format!(
            r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{command}"}}]}}]}}}}"#
        ),
        Dialect::Lime => format!(
            "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"{command}\"\n"
        ),
    }
}

/// Loads on another thread; fails the test instead of hanging forever when the load blocks
/// (a FIFO opened for reading blocks until a writer comes). The bound only detects a hang.
fn load_within_a_minute(options: LoadOptions) -> Loaded {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(load(&options));
    });
    receive
        .recv_timeout(Duration::from_secs(60))
        .expect("the load hung (a blocking read of a FIFO or device?)")
        .expect("load")
}

fn errors(loaded: &Loaded) -> Vec<&Diagnostic> {
    loaded.diagnostics.iter().filter(|d| d.is_error()).collect()
}

// ---------------------------------------------------------------------------------------------
// Item 4: nesting.

/// `{"x": [[[...]]]}` with `arrays` arrays.
fn deep_json(arrays: usize) -> String {
    format!(r#"{{"x": {}{}}}"#, "[".repeat(arrays), "]".repeat(arrays))
}

#[test]
fn deeply_nested_files_give_a_positioned_error_in_every_place_the_loader_reads() {
    // (dialect, file under the temporary root, text): every JSON or TOML file the loader reads.
    let json = deep_json(DEEP);
    let toml = format!("x = {}{}\n", "[".repeat(DEEP), "]".repeat(DEEP));
    let inline_tables = format!("x = {}1{}\n", "{a = ".repeat(DEEP), "}".repeat(DEEP));
    let cases: Vec<(Dialect, &str, &str, &str)> = vec![
        (Dialect::Wuu, "home/config.json", json.as_str(), "1:134"),
        (Dialect::Verboo, "home/settings.json", &json, "1:134"),
        (
            Dialect::Verboo,
            "project/.claude/settings.local.json",
            &json,
            "1:134",
        ),
        (Dialect::Wuu, "project/.wuu/config.json", &json, "1:134"),
        (Dialect::Lime, "home/config.toml", &toml, ""),
        (
            Dialect::Lime,
            "project/.lime/config.toml",
            &inline_tables,
            "",
        ),
    ];
    for (dialect, rel, text, at) in cases {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = write(tmp.path(), rel, text);
        let loaded = load_within_a_minute(options(
            dialect,
            &tmp.path().join("home"),
            &tmp.path().join("project"),
        ));
        let errors = errors(&loaded);
        assert_eq!(errors.len(), 1, "{rel}: {:?}", shown(&loaded));
        let error = errors[0];
        assert_eq!(error.path, path.display().to_string(), "{rel}");
        assert!(error.line.is_some() && error.column.is_some(), "{error}");
        if at.is_empty() {
            assert!(error.message.contains("recursion"), "{error}");
        } else {
            // `{` is level 1, so the 128th `[` (column 134) is level 129.
            assert_eq!(
                error.to_string(),
                format!(
                    "{}:{at}: invalid JSON: nesting deeper than 128 levels of arrays and objects; flatten the document; file skipped",
                    path.display()
                )
            );
        }
    }
}

#[test]
fn a_deep_plugin_manifest_or_plugin_hooks_file_skips_the_plugin() {
    for file in ["plugin.json", "hooks/hooks.json"] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let home = tmp.path().join("home");
        write(&home, "settings.json", r#"{"enabledPlugins": {"p": true}}"#);
        write(
            &home,
            "plugins/p/plugin.json",
            r#"{"name": "p", "version": "1.0.0"}"#,
        );
        let deep = write(&home, &format!("plugins/p/{file}"), &deep_json(DEEP));
        let loaded = load_within_a_minute(options(Dialect::Verboo, &home, tmp.path()));
        let errors = errors(&loaded);
        assert_eq!(errors.len(), 1, "{file}: {:?}", shown(&loaded));
        assert_eq!(errors[0].path, deep.display().to_string());
        assert_eq!((errors[0].line, errors[0].column), (Some(1), Some(134)));
        assert!(
            errors[0].message.contains("deeper than 128"),
            "{}",
            errors[0]
        );
    }
}

#[test]
fn nesting_is_bounded_at_exactly_128_levels() {
    // The document is level 1, so 127 arrays inside it are 128 levels: loaded.
    let (_dir, _path, loaded) = crate::common::load_user_file(Dialect::Verboo, &deep_json(127));
    assert!(loaded.diagnostics.is_empty(), "{:?}", shown(&loaded));
    let (_dir, path, loaded) = crate::common::load_user_file(Dialect::Verboo, &deep_json(128));
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}:1:134: invalid JSON: nesting deeper than 128 levels of arrays and objects; flatten the document; file skipped",
            path.display()
        )]
    );
}

#[test]
fn a_deep_session_fragment_is_a_diagnostic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let options =
        options(Dialect::Verboo, tmp.path(), tmp.path()).with_session("s", deep_json(DEEP));
    let loaded = load_ok(&options);
    assert_eq!(
        shown(&loaded),
        [
            "session:s:1:134: invalid JSON: nesting deeper than 128 levels of arrays and objects; flatten the document; file skipped"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Item 9: only regular files, at most 8 MiB.

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// How to make the hostile file, and what the diagnostic says about it.
struct Hostile {
    name: &'static str,
    make: fn(&Path),
    says: &'static str,
}

fn hostile_files() -> Vec<Hostile> {
    vec![
        Hostile {
            name: "a FIFO",
            make: mkfifo,
            says: "is a FIFO, not a regular file",
        },
        Hostile {
            name: "a symlink to /dev/zero",
            make: |p| std::os::unix::fs::symlink("/dev/zero", p).expect("symlink"),
            says: "is a character device, not a regular file",
        },
        Hostile {
            name: "a symlink to /dev/urandom",
            make: |p| std::os::unix::fs::symlink("/dev/urandom", p).expect("symlink"),
            says: "is a character device, not a regular file",
        },
        Hostile {
            name: "a directory",
            make: |p| std::fs::create_dir(p).expect("mkdir"),
            says: "is a directory, not a regular file",
        },
        Hostile {
            name: "a 9 MiB file",
            make: |p| {
                let mut text = String::from("{\"hooks\": {}, \"pad\": \"");
                text.push_str(&"x".repeat(9 * 1024 * 1024));
                text.push_str("\"}");
                std::fs::write(p, text).expect("write");
            },
            says: "bytes, over the 8388608-byte (8 MiB) limit of a configuration file",
        },
    ]
}

#[test]
fn config_files_must_be_regular_files_of_at_most_8_mib() {
    // Every file the loader reads: (dialect, file), with the user file enabling plugin `p`.
    let places = [
        (Dialect::Verboo, "home/settings.json"),
        (Dialect::Verboo, "project/.claude/settings.json"),
        (Dialect::Verboo, "project/.claude/settings.local.json"),
        (Dialect::Wuu, "project/.wuu/config.json"),
        (Dialect::Lime, "home/config.toml"),
        (Dialect::Lime, "project/.lime/config.toml"),
        (Dialect::Verboo, "home/plugins/p/plugin.json"),
        (Dialect::Verboo, "home/plugins/p/hooks/hooks.json"),
        (Dialect::Verboo, "managed.json"),
    ];
    for hostile in hostile_files() {
        for (dialect, rel) in places {
            let tmp = tempfile::tempdir().expect("tempdir");
            let root = tmp.path();
            let user_rel = format!("home/{}", user_file(dialect));
            if rel != user_rel {
                let user = if rel.contains("plugins") {
                    r#"{"enabledPlugins": {"p": true}}"#.to_owned()
                } else {
                    stop_hook(dialect, "user")
                };
                write(root, &format!("home/{}", user_file(dialect)), &user);
            }
            if rel.ends_with("hooks.json") {
                write(
                    root,
                    "home/plugins/p/plugin.json",
                    r#"{"name": "p", "version": "1.0.0"}"#,
                );
            }
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            (hostile.make)(&path);
            let mut options = options(dialect, &root.join("home"), &root.join("project"));
            if rel == "managed.json" {
                options = options.with_managed_file(&path);
            }
            let loaded = load_within_a_minute(options);
            let context = format!("{} as {rel}", hostile.name);
            let errors = errors(&loaded);
            assert_eq!(errors.len(), 1, "{context}: {:?}", shown(&loaded));
            let error = errors[0];
            assert_eq!(error.path, path.display().to_string(), "{context}");
            assert!(error.message.contains(hostile.says), "{context}: {error}");
            if rel != user_rel && !rel.contains("plugins") {
                // The other layers still load.
                let runs: Vec<_> = loaded.registry.select(&Event::Stop, None, None).collect();
                assert_eq!(runs.len(), 1, "{context}");
            }
        }
    }
}

#[test]
fn read_hooks_file_refuses_what_the_loader_refuses() {
    for hostile in hostile_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = tmp.path().join("settings.json");
        (hostile.make)(&path);
        let (send, receive) = mpsc::channel();
        let read = path.clone();
        std::thread::spawn(move || {
            let _ = send.send(read_hooks_file(Dialect::Verboo, &read).map_err(|e| e.to_string()));
        });
        let hooks = receive
            .recv_timeout(Duration::from_secs(60))
            .expect("read_hooks_file hung")
            .expect("a diagnostic, not an I/O error");
        assert!(hooks.has_errors(), "{}", hostile.name);
        assert_eq!(hooks.diagnostics.len(), 1, "{}", hostile.name);
        assert!(
            hooks.diagnostics[0].message.contains(hostile.says),
            "{}: {}",
            hostile.name,
            hooks.diagnostics[0]
        );
    }
}

#[test]
fn a_file_of_exactly_8_mib_is_read() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let head =
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "ok"}]}]}, "pad": ""#;
    let pad = 8 * 1024 * 1024 - head.len() - 2;
    let text = format!("{head}{}\"}}", " ".repeat(pad));
    assert_eq!(text.len(), 8 * 1024 * 1024);
    write(tmp.path(), "home/settings.json", &text);
    let loaded = load_ok(&options(
        Dialect::Verboo,
        &tmp.path().join("home"),
        tmp.path(),
    ));
    assert!(loaded.diagnostics.is_empty(), "{:?}", shown(&loaded));
    assert_eq!(loaded.registry.handlers().len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Item 13 (loader part): not UTF-8, integers that do not fit.

#[test]
fn text_that_is_not_utf8_is_an_error_at_its_first_bad_byte() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("home/settings.json");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, b"{\n  \"hooks\": {}, \"x\": \"caf\xc3\xa9 \xff\"\n}").expect("write");
    let loaded = load_ok(&options(
        Dialect::Verboo,
        &tmp.path().join("home"),
        tmp.path(),
    ));
    let shown = shown(&loaded);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].starts_with(&format!(
            "{}:2:27: the file is not UTF-8 text (invalid utf-8 sequence of 1 bytes from index 29); save it as UTF-8; file skipped",
            path.display()
        )),
        "{}",
        shown[0]
    );
}

#[test]
fn a_toml_integer_that_does_not_fit_is_an_error_at_the_integer() {
    let text = "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = 99999999999999999999\n";
    let (_dir, path, loaded) = crate::common::load_user_file(Dialect::Lime, text);
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}:5:11: invalid TOML: integer `99999999999999999999` does not fit in 64 bits (TOML integers range from -2^63 to 2^63-1); write a smaller number; file skipped",
            path.display()
        )]
    );
    assert!(loaded.registry.handlers().is_empty());
    // Anywhere in the file, hooks or not (the whole file is TOML that `toml_edit` must read).
    let (_dir, _path, loaded) = crate::common::load_user_file(
        Dialect::Lime,
        &format!(
            "model_limit = -0x8000000000000001\n{}",
            stop_hook(Dialect::Lime, "x")
        ),
    );
    assert!(loaded.has_errors(), "{:?}", shown(&loaded));
}

// ---------------------------------------------------------------------------------------------
// Item 8: the managed layer.

fn managed_text(dialect: Dialect) -> String {
    stop_hook(dialect, "managed-guard")
}

#[test]
fn the_environment_no_longer_chooses_the_managed_file() {
    assert_eq!(hook_config::ENV_VARS, ["HOME", "WUU_HOME", "LIME_HOME"]);
    for (dialect, var, name, system) in [
        (
            Dialect::Verboo,
            "VERBOO_MANAGED_SETTINGS",
            "managed.json",
            "/etc/claude-code/managed-settings.json",
        ),
        (
            Dialect::Lime,
            "LIME_MANAGED_CONFIG",
            "managed.toml",
            "/etc/lime/managed_config.toml",
        ),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let managed = write(tmp.path(), name, &managed_text(dialect));
        let env = Environment::empty()
            .with_var("HOME", tmp.path().join("home"))
            .with_var(var, &managed);
        let options = LoadOptions::new(dialect, env);
        assert_eq!(options.managed, ManagedSource::System);
        let discovery = discover(&options).expect("discover");
        assert_eq!(discovery.files[0].layer, Layer::Managed);
        assert_eq!(discovery.files[0].path, PathBuf::from(system));
        let loaded = load_ok(&options);
        assert!(
            loaded
                .registry
                .handlers()
                .iter()
                .all(|h| h.config.command.as_deref() != Some("managed-guard")),
            "{dialect}: {var} made {} managed",
            managed.display()
        );
    }
}

#[test]
fn a_managed_file_named_through_the_api_loads_as_managed() {
    for (dialect, name) in [
        (Dialect::Verboo, "managed.json"),
        (Dialect::Lime, "managed.toml"),
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let managed = write(tmp.path(), name, &managed_text(dialect));
        set_mode(&managed, 0o644);
        let options =
            options(dialect, &tmp.path().join("home"), tmp.path()).with_managed_file(&managed);
        let loaded = load_ok(&options);
        assert!(loaded.diagnostics.is_empty(), "{:?}", shown(&loaded));
        let handlers = loaded.registry.handlers();
        assert_eq!(handlers.len(), 1);
        assert_eq!(handlers[0].source.layer, Layer::Managed);
        // wuu has no managed layer: the option changes nothing.
        let options = options_for_wuu(tmp.path()).with_managed_file(&managed);
        assert!(load_ok(&options).registry.handlers().is_empty());
    }
}

fn options_for_wuu(root: &Path) -> LoadOptions {
    options(Dialect::Wuu, &root.join("home"), root)
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[test]
fn a_group_or_world_writable_managed_file_is_refused() {
    // (mode, loaded)
    let table = [
        (0o644, true),
        (0o600, true),
        (0o444, true),
        (0o664, false),
        (0o646, false),
        (0o666, false),
        (0o620, false),
    ];
    for (dialect, name) in [
        (Dialect::Verboo, "managed.json"),
        (Dialect::Lime, "managed.toml"),
    ] {
        for (mode, loads) in table {
            let tmp = tempfile::tempdir().expect("tempdir");
            let managed = write(tmp.path(), name, &managed_text(dialect));
            set_mode(&managed, mode);
            let options =
                options(dialect, &tmp.path().join("home"), tmp.path()).with_managed_file(&managed);
            let loaded = load_ok(&options);
            let context = format!("{dialect} mode {mode:o}");
            if loads {
                assert!(
                    loaded.diagnostics.is_empty(),
                    "{context}: {:?}",
                    shown(&loaded)
                );
                assert_eq!(loaded.registry.handlers().len(), 1, "{context}");
            } else {
                assert!(loaded.registry.handlers().is_empty(), "{context}");
                assert_eq!(
                    shown(&loaded),
                    [format!(
                        "{}: the file is writable by its group or by everyone (mode {mode:o}): others could change it (`chmod go-w` it); the managed layer is not loaded",
                        managed.display()
                    )],
                    "{context}"
                );
            }
        }
    }
}

#[test]
fn a_managed_file_in_a_folder_others_can_write_is_refused() {
    // A 0777 `/etc/lime` lets anyone remove or swap the policy file, whatever its own mode.
    for (dialect, name) in [
        (Dialect::Verboo, "managed.json"),
        (Dialect::Lime, "managed.toml"),
    ] {
        for (folder_mode, loads) in [
            (0o755, true),
            (0o777, false),
            (0o1777, false),
            (0o775, false),
        ] {
            let tmp = tempfile::tempdir().expect("tempdir");
            let folder = tmp.path().join("etc-lime");
            let managed = write(&folder, name, &managed_text(dialect));
            set_mode(&managed, 0o644);
            set_mode(&folder, folder_mode);
            let options =
                options(dialect, &tmp.path().join("home"), tmp.path()).with_managed_file(&managed);
            let loaded = load_within_a_minute(options);
            let context = format!("{dialect} folder mode {folder_mode:o}");
            if loads {
                assert!(
                    loaded.diagnostics.is_empty(),
                    "{context}: {:?}",
                    shown(&loaded)
                );
                assert_eq!(loaded.registry.handlers().len(), 1, "{context}");
            } else {
                assert!(loaded.registry.handlers().is_empty(), "{context}");
                assert_eq!(
                    shown(&loaded),
                    [format!(
                        "{}: the file is in the folder {}, which is writable by its group or by everyone (mode {folder_mode:o}): whoever can write that folder can remove or replace the file (`sudo chown root {} && sudo chmod go-w {}`, or use a folder of your own); the managed layer is not loaded",
                        managed.display(),
                        folder.display(),
                        folder.display(),
                        folder.display()
                    )],
                    "{context}"
                );
            }
        }
    }
}

#[test]
fn a_managed_file_linked_into_a_folder_others_can_write_is_refused() {
    // The link's folder is safe; the folder of the file it leads to is not.
    let tmp = tempfile::tempdir().expect("tempdir");
    let shared = tmp.path().join("shared");
    let real = write(&shared, "policy.json", &managed_text(Dialect::Verboo));
    set_mode(&real, 0o644);
    set_mode(&shared, 0o777);
    let folder = tmp.path().join("etc-claude-code");
    std::fs::create_dir(&folder).expect("mkdir");
    set_mode(&folder, 0o755);
    let managed = folder.join("managed-settings.json");
    std::os::unix::fs::symlink(&real, &managed).expect("symlink");
    let options =
        options(Dialect::Verboo, &tmp.path().join("home"), tmp.path()).with_managed_file(&managed);
    let loaded = load_within_a_minute(options);
    assert!(loaded.registry.handlers().is_empty());
    let shown = shown(&loaded).join("\n");
    assert!(
        shown.contains(&format!(
            "the file is in the folder {}, which is writable by its group or by everyone (mode 777)",
            shared.display()
        )),
        "{shown}"
    );
}

#[test]
fn a_managed_file_owned_by_another_user_is_refused() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let managed = write(tmp.path(), "managed.json", &managed_text(Dialect::Verboo));
    if std::fs::metadata(&managed).expect("stat").uid() != 0 {
        // Only root can give a file away; elsewhere the mode table above covers the check.
        return;
    }
    let status = std::process::Command::new("chown")
        .args(["65534"])
        .arg(&managed)
        .status()
        .expect("run chown");
    assert!(status.success());
    let options =
        options(Dialect::Verboo, &tmp.path().join("home"), tmp.path()).with_managed_file(&managed);
    let loaded = load_ok(&options);
    assert!(loaded.registry.handlers().is_empty());
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}: the file is owned by uid 65534, not by root or by you: another user could change it (`sudo chown root` it); the managed layer is not loaded",
            managed.display()
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// Item 10: one-line (minified) files load in linear time.

#[test]
fn a_minified_file_of_100k_handlers_loads() {
    // Before: columns were counted from the start of the line for every value, O(n²) on one
    // line: this file took minutes. The counted-work test is `node::tests` (unit test).
    let groups: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"matcher":"T{i}","hooks":[{{"type":"command","command":"h{i}"}}]}}"#))
        .collect();
    let text = format!(r#"{{"hooks":{{"PreToolUse":[{}]}}}}"#, groups.join(","));
    assert!(text.len() < 8 << 20, "under the size cap");
    let (_dir, _path, loaded) = crate::common::load_user_file(Dialect::Verboo, &text);
    assert!(
        loaded.diagnostics.is_empty(),
        "{:?}",
        loaded.diagnostics.first()
    );
    assert_eq!(loaded.registry.handlers().len(), 100_000);
    let last = &loaded.registry.handlers()[99_999];
    let pos = last.position.expect("position");
    assert_eq!(pos.line, 1);
    assert_eq!(
        pos.column,
        text.rfind(r#"{"type""#).expect("last handler") + 1
    );
}
