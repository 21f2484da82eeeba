//! Stores that a killed writer, a hand edit, a shared folder, a dotfile manager or a stuck
//! process left behind: swept, refused with the file named, followed, or waited for a bounded
//! time.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use hook_trust::{Grant, JsonStore, LimeStore, StoreError, TrustStore};

fn grant(key: &str, n: u8) -> Grant {
    Grant::new(key, format!("sha256:{}", format!("{n:02x}").repeat(32)))
        .with_command(format!("./hook-{n}.sh"))
}

/// The store kept in `dir/name` (`config.toml`: lime's, else the JSON store).
fn store_named(dir: &std::path::Path, name: &str, wait: Option<Duration>) -> Box<dyn TrustStore> {
    let path = dir.join(name);
    match (name, wait) {
        ("config.toml", None) => Box::new(LimeStore::new(path)),
        ("config.toml", Some(wait)) => Box::new(LimeStore::new(path).with_lock_timeout(wait)),
        (_, None) => Box::new(JsonStore::new(path)),
        (_, Some(wait)) => Box::new(JsonStore::new(path).with_lock_timeout(wait)),
    }
}

const NAMES: [&str; 2] = ["config.toml", "hook-trust.json"];

fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn temporary_files_of_killed_writers_are_swept_under_the_lock() {
    for name in NAMES {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        let store = store_named(&dir, name, None);
        // Left by writers killed between creating their temporary file and renaming it: this
        // version's names and the names of earlier versions.
        let leftovers = [
            format!(".hook-trust-{name}.a1B2c3.tmp"),
            ".hook-trust-Xy9z8W.tmp".to_owned(),
        ];
        for leftover in &leftovers {
            std::fs::write(dir.join(leftover), "half a store").unwrap();
        }
        // Not a leftover of this store: kept.
        // (lime's store also sweeps for `hook-trust.json`, the side file it keeps beside.)
        let other = ".hook-trust-another.toml.q1w2e3.tmp";
        std::fs::write(dir.join(other), "another store's writer").unwrap();
        std::fs::write(dir.join("notes.tmp"), "mine").unwrap();

        store.set_trusted(&[grant("k", 1)]).unwrap();
        let names = names_in(&dir);
        for leftover in &leftovers {
            assert!(
                !names.contains(leftover),
                "{name}: {leftover} left: {names:?}"
            );
        }
        assert!(names.contains(&other.to_owned()), "{name}: {names:?}");
        assert!(names.contains(&"notes.tmp".to_owned()), "{name}: {names:?}");
        assert_eq!(
            store.load().unwrap()["k"].trusted_hash,
            Some(grant("k", 1).hash)
        );
    }
}

#[test]
fn a_json_store_whose_root_is_not_an_object_is_corrupt_and_kept() {
    let cases = [
        (
            "[1, {\"k\": {\"trusted_hash\": null}}]",
            "the root is an array",
            "1:1",
        ),
        ("\n  [1, {}]", "the root is an array", "2:3"),
        (
            "{\"hooks\": {\"k\": [\"sha256:00\", null, true]}}",
            "`hooks.\"k\"` is an array, not an object",
            "",
        ),
    ];
    for (text, says, at) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hook-trust.json");
        std::fs::write(&path, text).unwrap();
        let store = JsonStore::new(&path);
        let error = store.load().unwrap_err();
        assert!(
            matches!(error, StoreError::Corrupt { .. }),
            "{text}: {error}"
        );
        let message = error.to_string();
        assert!(message.contains(says), "{text}: {message}");
        assert!(
            message.starts_with(&format!(
                "{}{}",
                path.display(),
                if at.is_empty() {
                    String::new()
                } else {
                    format!(":{at}")
                }
            )),
            "{text}: {message}"
        );
        assert!(store.set_trusted(&[grant("k", 2)]).is_err(), "{text}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "never rewritten"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_world_writable_store_folder_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        let store = store_named(&home, name, None);
        store.set_trusted(&[grant("k", 3)]).unwrap();
        let before = std::fs::read_to_string(home.join(name)).unwrap();
        // Sticky or not: anyone could create or swap files in it.
        for mode in [0o777, 0o1777] {
            std::fs::set_permissions(&home, std::fs::Permissions::from_mode(mode)).unwrap();
            let error = store.load().unwrap_err();
            assert!(
                matches!(error, StoreError::WorldWritableFolder { .. }),
                "{name}: {error}"
            );
            let message = error.to_string();
            assert!(message.contains(&home.display().to_string()), "{message}");
            assert!(message.contains("chmod o-w"), "{message}");
            assert!(store.set_trusted(&[grant("k", 4)]).is_err());
            assert_eq!(std::fs::read_to_string(home.join(name)).unwrap(), before);
        }
        // Group-writable is refused too (issue 21: the config files' rules).
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o770)).unwrap();
        let error = store.load().unwrap_err();
        assert_refused(&error, "which is writable by its group");
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(store.load().is_ok());
    }
}

/// `error` is [`StoreError::Refused`] and says `says`.
fn assert_refused(error: &StoreError, says: &str) {
    assert!(matches!(error, StoreError::Refused { .. }), "{error}");
    assert!(error.to_string().contains(says), "{error}");
}

/// `f()` on another thread; fails instead of hanging when it blocks (on a FIFO).
fn within_ten_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(10))
        .expect("the store blocked (a FIFO opened and waited on?)")
}

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_fifo_or_device_in_place_of_a_store_is_refused_not_waited_on() {
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_path_buf();
        mkfifo(&home.join(name));
        let store = store_named(&home, name, None);
        let (load, write) = within_ten_seconds(move || {
            (
                store.load().unwrap_err(),
                store.set_trusted(&[grant("k", 1)]).unwrap_err(),
            )
        });
        for error in [load, write] {
            assert!(
                matches!(error, StoreError::Refused { .. }),
                "{name}: {error}"
            );
            assert_eq!(
                error.to_string(),
                format!(
                    "{}: the trust store is a FIFO, not a regular file: it must be a regular file; replace it with one; refusing it (nothing was read or changed)",
                    home.join(name).display()
                )
            );
        }
    }
    // lime's `config.toml` is followed through a link: to a FIFO or to `/dev/zero`, refused.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("elsewhere");
    mkfifo(&fifo);
    for (target, says) in [
        (fifo.as_path(), "is a FIFO, not a regular file"),
        // World-writable, so refused before it is even opened.
        (std::path::Path::new("/dev/zero"), "refusing it"),
    ] {
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let _ = std::fs::remove_file(home.join("config.toml"));
        std::os::unix::fs::symlink(target, home.join("config.toml")).unwrap();
        let store = store_named(&home, "config.toml", None);
        let error = within_ten_seconds(move || store.load().unwrap_err());
        assert!(error.to_string().contains(says), "{error}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_lock_file_is_an_error_not_a_hang() {
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_path_buf();
        mkfifo(&home.join(format!("{name}.lock")));
        let store = store_named(&home, name, None);
        let error = within_ten_seconds(move || store.set_trusted(&[grant("k", 1)]).unwrap_err());
        assert!(
            error
                .to_string()
                .contains(&format!("{name}.lock: cannot open the lock file")),
            "{error}"
        );
        assert!(!home.join(name).exists());
    }
}

#[cfg(unix)]
#[test]
fn a_store_over_8_mib_is_refused_without_reading_it_all() {
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(hook_config::MAX_FILE_BYTES + 1).unwrap();
        let error = store_named(dir.path(), name, None).load().unwrap_err();
        assert_refused(&error, "over the 8388608-byte (8 MiB) limit");
    }
}

#[cfg(unix)]
#[test]
fn a_store_writable_by_its_group_or_owned_by_another_user_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().to_path_buf();
        let store = store_named(&home, name, None);
        store.set_trusted(&[grant("k", 3)]).unwrap();
        let path = home.join(name);
        // What `hook` writes is private.
        let mode =
            |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&path), 0o600, "{name}");
        assert_eq!(mode(&home.join(format!("{name}.lock"))), 0o600, "{name}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o660)).unwrap();
        let error = store.load().unwrap_err();
        assert_refused(&error, "is writable by its group or by everyone (mode 660)");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(store.load().is_ok());
        if std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&path).unwrap()) == 0 {
            // Only root can give a file away.
            let status = std::process::Command::new("chown")
                .arg("65534")
                .arg(&path)
                .status()
                .unwrap();
            assert!(status.success());
            let error = store.load().unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("is owned by uid 65534, not by root or by you"),
                "{error}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn a_store_folder_hook_creates_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("new-home");
    store_named(&home, "hook-trust.json", None)
        .set_trusted(&[grant("k", 1)])
        .unwrap();
    let mode = std::fs::metadata(&home).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

#[cfg(unix)]
#[test]
fn a_symlinked_lime_config_holds_trust_in_the_file_it_points_to() {
    let dir = tempfile::tempdir().unwrap();
    let dotfiles = dir.path().join("dotfiles/lime");
    std::fs::create_dir_all(&dotfiles).unwrap();
    let real = dotfiles.join("config.toml");
    std::fs::write(&real, "# managed by my dotfiles\nmodel = \"o3\"\n").unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let link = home.join("config.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let store = LimeStore::new(&link);
    assert!(store.load().unwrap().is_empty());
    store
        .set_trusted(&[grant("user:config.toml:Stop::0", 5)])
        .unwrap();
    // Still a link, to the same file, which now holds the record.
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), real);
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.starts_with("# managed by my dotfiles\nmodel = \"o3\"\n"),
        "{text}"
    );
    assert!(
        text.contains("[hooks.state.\"user:config.toml:Stop::0\"]"),
        "{text}"
    );
    assert_eq!(
        store.load().unwrap()["user:config.toml:Stop::0"].trusted_hash,
        Some(grant("k", 5).hash)
    );
    // The checks apply to the file it points to.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o666)).unwrap();
    let error = store.load().unwrap_err();
    assert!(matches!(error, StoreError::WorldWritable { .. }), "{error}");
    assert!(
        error.to_string().contains(&real.display().to_string()),
        "{error}"
    );

    // The JSON store (the engine's own file, and lime's side file) still refuses a link.
    let json = home.join("hook-trust.json");
    std::fs::remove_file(&json).unwrap();
    std::fs::write(dotfiles.join("hook-trust.json"), "{}").unwrap();
    std::os::unix::fs::symlink(dotfiles.join("hook-trust.json"), &json).unwrap();
    let error = JsonStore::new(&json).load().unwrap_err();
    assert!(matches!(error, StoreError::Symlink { .. }), "{error}");
}

#[test]
fn a_held_lock_is_waited_for_a_bounded_time_and_named() {
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        let lock_path = dir.path().join(format!("{name}.lock"));
        // Another process's lock (flock locks of two open files conflict in one process too).
        let held = std::fs::File::create(&lock_path).unwrap();
        fs4::FileExt::lock(&held).unwrap();
        let wait = Duration::from_millis(100);
        let store = store_named(dir.path(), name, Some(wait));
        let error = store.set_trusted(&[grant("k", 6)]).unwrap_err();
        assert!(matches!(error, StoreError::LockTimeout { .. }), "{error}");
        let message = error.to_string();
        assert!(
            message.contains(&lock_path.display().to_string()),
            "{message}"
        );
        assert!(message.contains("locked by another process"), "{message}");
        assert!(!path.exists());
        // Released: the write goes through.
        fs4::FileExt::unlock(&held).unwrap();
        store.set_trusted(&[grant("k", 6)]).unwrap();
        assert!(store.load().unwrap().contains_key("k"));
    }
    assert_eq!(hook_trust::LOCK_TIMEOUT, Duration::from_secs(10));
}

#[test]
fn a_store_that_is_not_utf8_is_corrupt_at_its_first_bad_byte() {
    for name in NAMES {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, b"# trust\nx = \"\xff\"\n").unwrap();
        let error = store_named(dir.path(), name, None).load().unwrap_err();
        assert!(matches!(error, StoreError::Corrupt { .. }), "{error}");
        let message = error.to_string();
        assert!(
            message.starts_with(&format!(
                "{}:2:6: corrupt trust store: not UTF-8 text",
                path.display()
            )),
            "{message}"
        );
    }
}
